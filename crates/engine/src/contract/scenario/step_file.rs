//! A step as written (`docs/scenario.md` §2), read in the file's one pass: `at`, the `expect`
//! (a partial state matched as JSON when it runs, so it stays a JSON value: the one free-form
//! part of a step) and the action its other keys make, read by serde from the same stream (an
//! action's value is refused there, under its field's path, as the file's other values are).
//!
//! What depends on more than a value (`at`'s duration, `do` or `expect`, the cluster) is
//! checked by `step::step`, once the cluster is.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value as Json;

use super::action::Action;

/// A step's fields as the file gives them.
#[derive(Clone, Debug)]
pub(super) enum StepFile {
    /// Not a JSON object.
    NotObject,
    Object {
        at: At,
        expect: Option<Json>,
        /// The action the other keys make, or serde's refusal of one of its values (its
        /// message starts with the field's path below the step); none without `do`.
        action: Option<Result<Box<Action>, String>>,
        /// The keys besides `at` and `expect`, in the file's order.
        keys: Vec<String>,
    },
}

/// A step's `at`, as given.
#[derive(Clone, Debug)]
pub(super) enum At {
    Missing,
    NotAString,
    Text(String),
}

impl<'de> Deserialize<'de> for StepFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StepVisitor)
    }
}

struct StepVisitor;

/// Whatever a value is, consumed: what it is not is told by the caller.
macro_rules! any_other {
    ($out:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($out)
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($out)
        }
    };
}

impl<'de> Visitor<'de> for StepVisitor {
    type Value = StepFile;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a step")
    }

    any_other!(StepFile::NotObject);

    fn visit_str<E: de::Error>(self, _: &str) -> Result<StepFile, E> {
        Ok(StepFile::NotObject)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<StepFile, A::Error> {
        let mut rest = Rest { map, at: At::Missing, expect: None, keys: Vec::new(), read: false };
        let action = match Action::deserialize(&mut rest) {
            Ok(action) => Some(Ok(Box::new(action))),
            // No `do`: the step is an `expect`, or refused as one with neither.
            Err(e) if !rest.keys.iter().any(|k| k == "do") && is_missing_do(&e) => None,
            // A key given twice goes back to the file's reader (see `super::read_text`).
            Err(e) if e.to_string().contains("duplicate field `") => return Err(e),
            // Refused once the step was read whole (a value of the action's, from serde's
            // buffer): told after `at` and `do` or `expect`, by `step::step`.
            Err(e) if rest.read => Some(Err(e.to_string())),
            // Refused as the step was read (its `do`, or no JSON): here, under its path.
            Err(e) => return Err(e),
        };
        let Rest { at, expect, keys, .. } = rest;
        Ok(StepFile::Object { at, expect, action, keys })
    }
}

/// The keys of a step that are not `at` or `expect`, given to the action's reader; `at` and
/// `expect` are kept aside as they pass.
struct Rest<A> {
    map: A,
    at: At,
    expect: Option<Json>,
    keys: Vec<String>,
    /// Whether the step's last key was read.
    read: bool,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for &mut Rest<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        Rest::next_key_seed(self, seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

impl<'de, A: MapAccess<'de>> Rest<A> {
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.map.next_key::<String>()? {
            match key.as_str() {
                "at" => self.at = self.map.next_value()?,
                "expect" => self.expect = Some(self.map.next_value()?),
                _ => {
                    self.keys.push(key.clone());
                    let key: de::value::StringDeserializer<A::Error> = key.into_deserializer();
                    return seed.deserialize(key).map(Some);
                }
            }
        }
        self.read = true;
        Ok(None)
    }
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for &mut Rest<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de> Deserialize<'de> for At {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AtVisitor)
    }
}

struct AtVisitor;

impl<'de> Visitor<'de> for AtVisitor {
    type Value = At;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a duration string")
    }

    any_other!(At::NotAString);

    fn visit_str<E: de::Error>(self, s: &str) -> Result<At, E> {
        Ok(At::Text(s.to_string()))
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<At, M::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(At::NotAString)
    }
}

/// serde's refusal of an action without its tag (the map was read to its end).
fn is_missing_do(e: &impl fmt::Display) -> bool {
    e.to_string().starts_with("missing field `do`")
}
