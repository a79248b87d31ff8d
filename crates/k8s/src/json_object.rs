//! Objects read from JSON objects only. serde reads a struct from an array too, field by field
//! in order, and its errors then name Rust types (`expected struct ApiserverFile with 4
//! elements`); a scenario file and the Kubernetes objects in it are objects (`docs/scenario.md`
//! §1). A type listed in `objects_only!` keeps its derived reader as an inherent function
//! (`#[serde(remote = "Self")]`); its trait reads a map only, so an array is refused as
//! `invalid type: sequence, expected a JSON object`, under its field's path. Call the trait's
//! (`<Service as Deserialize>::deserialize`): `Service::deserialize` is the inherent one.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};

/// A type read from a JSON object only; `objects_only!` implements it with the type's derived
/// reader.
pub trait FromObject<'de>: Sized {
    /// Reads the value from a map's entries, as the derived reader does.
    fn from_object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// The serde visitor that takes a map and refuses anything else (`expected a JSON object`).
pub struct Object<T>(pub PhantomData<T>);

impl<'de, T: FromObject<'de>> Visitor<'de> for Object<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_object(map)
    }
}

/// `objects_only!(A, B<String>)` for types deriving `Deserialize` with `remote = "Self"`;
/// `objects_only!(serialize: A, B)` also gives back the `Serialize` that `remote` takes away
/// (the derived one, unchanged). Concrete types only: in a generic impl `Self::deserialize`
/// resolves to the trait's own function (a loop).
#[macro_export]
#[doc(hidden)]
macro_rules! objects_only {
    (serialize: $($ty:ty),* $(,)?) => {
        $crate::objects_only!($($ty),*);
        $(impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                Self::serialize(self, s)
            }
        })*
    };
    ($($ty:ty),* $(,)?) => {$(
        impl<'de> $crate::json_object::FromObject<'de> for $ty {
            fn from_object<A: ::serde::de::MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
                Self::deserialize(::serde::de::value::MapAccessDeserializer::new(map))
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_map($crate::json_object::Object(::std::marker::PhantomData))
            }
        }
    )*};
}
