//! Enums whose variants each have exactly one string form, shared by serde, `Display`,
//! `FromStr` and `as_str`: an apiserver's status, the reconciler type, the behaviour.

/// `string_enum! { pub enum Name { Variant = "text", … } }`; parsing an unknown string fails
/// with serde's own `unknown variant` message.
#[macro_export]
#[doc(hidden)]
macro_rules! string_enum {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        $vis enum $name { $($(#[$vmeta])* $variant,)+ }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            const TEXTS: &'static [&'static str] = &[$($text),+];

            /// The variant's text.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text,)+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                Self::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    <::serde_json::Error as ::serde::de::Error>::unknown_variant(s, Self::TEXTS).to_string()
                })
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                Self::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    <D::Error as ::serde::de::Error>::unknown_variant(&s, Self::TEXTS)
                })
            }
        }
    };
}
