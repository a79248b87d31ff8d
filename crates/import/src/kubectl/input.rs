//! kubectl's output as the import reads it: of each document and object, the fields the lab
//! models, typed, read once by serde from the JSON or YAML text.
//!
//! The import read each document as a `serde_json::Value` until issue 36, and what it accepts,
//! refuses and tells stays what that read did. serde's derived readers would change it, so these
//! types read themselves, each value by `deserialize_any` with a visitor ([`Mirror`]) that
//! answers what `Value`'s does and refuses what it refuses, in its words:
//! - a value of another type than kubectl prints is no error of the read: the checks in `read`
//!   tell it, naming the field, or take it as absent where the import always did (a `kind` that
//!   is no string, `publishNotReadyAddresses: "true"`, `conditions.ready: null`);
//! - a key given twice counts once, its last value (a derived reader refuses it);
//! - a field the lab does not model is read through, not skipped unseen ([`Skip`]): a number out
//!   of range (`1e400`) or a lone surrogate (`"\ud800"`) in `status` is still no JSON, as
//!   serde_json's value read said (`IgnoredAny`, which a derived reader uses, lets both pass);
//! - numbers are told apart as `Value` tells them: `80.0`, `-0` and `1e2` are no integer, and a
//!   YAML `.nan` is null.
//!
//! What stays a `Value` is a leaf and what an error quotes: a scalar is handed to its field as
//! the `Value` serde_json makes of it (so a number or a null is what it always was), and the
//! field keeps it only to quote it; a value of the wrong type that an error quotes (`not a port
//! number: "80"`, `not a list: {…}`), or a document or item that is no object (`not kubectl
//! output: … ([1,2] has neither)`), is kept whole, as serde_json prints it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

/// How a type takes a value of any JSON type: [`Mirror`] hands it the parts `Value`'s visitor
/// gets.
pub(super) trait Keep<'de>: Sized {
    /// A null, a boolean, a number or a string, as the JSON value it is.
    fn scalar(v: Value) -> Self;
    /// A list, each element to read in turn.
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error>;
    /// An object, each entry to read in turn ([`entries`]).
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// `Value`'s visitor, its parts handed to `T`: it answers the calls `Value`'s answers (a scalar
/// made the JSON value `Value` makes of it) and refuses the others as it does, in the same words.
struct Mirror<T>(PhantomData<T>);

impl<'de, T: Keep<'de> + Deserialize<'de>> Visitor<'de> for Mirror<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Ok(T::scalar(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Ok(T::scalar(Value::from(v)))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        Value::deserialize(de::value::I128Deserializer::<E>::new(v)).map(T::scalar)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Ok(T::scalar(Value::from(v)))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        Value::deserialize(de::value::U128Deserializer::<E>::new(v)).map(T::scalar)
    }

    /// A NaN or an infinity (YAML's `.nan`, `.inf`) is null, as in `Value`.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Ok(T::scalar(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        Ok(T::scalar(Value::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        Ok(T::scalar(Value::String(v)))
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Ok(T::scalar(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Ok(T::scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
}

/// `Deserialize` for types that [`Keep`] values: read by [`Mirror`].
macro_rules! mirrored {
    ($($ty:ident $(<$t:ident>)?),* $(,)?) => {$(
        impl<'de $(, $t: Deserialize<'de>)?> Deserialize<'de> for $ty $(<$t>)? {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(Mirror::<Self>(PhantomData))
            }
        }
    )*};
}

/// The first key of an object, read as `Value` reads it (its refusal says "a string key"; the
/// others are read as `String`s, whose refusal says "a string").
struct FirstKey(String);

impl<'de> Deserialize<'de> for FirstKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Key;
        impl Visitor<'_> for Key {
            type Value = FirstKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FirstKey, E> {
                Ok(FirstKey(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<FirstKey, E> {
                Ok(FirstKey(v))
            }
        }
        d.deserialize_str(Key)
    }
}

/// Each entry of an object, in order, its keys read as `Value` reads them: `entry` reads the
/// value (every one: a key given twice is read twice, and the last counts where it is kept).
pub(super) fn entries<'de, A: MapAccess<'de>>(
    mut map: A,
    mut entry: impl FnMut(String, &mut A) -> Result<(), A::Error>,
) -> Result<(), A::Error> {
    let Some(FirstKey(first)) = map.next_key()? else { return Ok(()) };
    entry(first, &mut map)?;
    while let Some(key) = map.next_key::<String>()? {
        entry(key, &mut map)?;
    }
    Ok(())
}

/// A value the lab does not look at, read through as `Value` reads it and dropped.
pub(super) struct Skip;

impl<'de> Keep<'de> for Skip {
    fn scalar(_: Value) -> Self {
        Skip
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        entries(map, |_, map| map.next_value::<Skip>().map(|Skip| ()))?;
        Ok(Skip)
    }
}

/// A list or an object kept whole as a `Value` (an error will quote it).
fn seq_value<'de, A: SeqAccess<'de>>(seq: A) -> Result<Value, A::Error> {
    Value::deserialize(SeqAccessDeserializer::new(seq))
}

fn map_value<'de, A: MapAccess<'de>>(map: A) -> Result<Value, A::Error> {
    Value::deserialize(MapAccessDeserializer::new(map))
}

/// A string; any other value is as if the field were absent (what kubectl prints there is a
/// string: `kind`, a name, a namespace, a type, a protocol, an address).
#[derive(Debug, Default)]
pub(super) struct Text(pub(super) Option<String>);

impl Text {
    pub(super) fn or<'a>(&'a self, absent: &'a str) -> &'a str {
        self.0.as_deref().unwrap_or(absent)
    }
}

impl<'de> Keep<'de> for Text {
    fn scalar(v: Value) -> Self {
        match v {
            Value::String(s) => Text(Some(s)),
            _ => Text(None),
        }
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Skip::seq(seq).map(|_| Text(None))
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Skip::map(map).map(|_| Text(None))
    }
}

/// A string, or the value of another type that stood there (quoted: `not a string: 5`).
#[derive(Debug)]
pub(super) enum Str {
    Str(String),
    Other(Value),
}

impl<'de> Keep<'de> for Str {
    fn scalar(v: Value) -> Self {
        match v {
            Value::String(s) => Str::Str(s),
            other => Str::Other(other),
        }
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        seq_value(seq).map(Str::Other)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        map_value(map).map(Str::Other)
    }
}

/// A port number: absent or null, an integer (what `Value::as_i64` gives: not `80.0`, nor a
/// number past `i64`), or another value (quoted: `not a port number: "x"`).
#[derive(Debug, Default)]
pub(super) enum Num {
    #[default]
    Absent,
    Int(i64),
    Other(Value),
}

impl<'de> Keep<'de> for Num {
    fn scalar(v: Value) -> Self {
        match v {
            Value::Null => Num::Absent,
            v => v.as_i64().map_or(Num::Other(v), Num::Int),
        }
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        seq_value(seq).map(Num::Other)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        map_value(map).map(Num::Other)
    }
}

/// `targetPort`: absent or null, a named port (any string), or a port number.
#[derive(Debug, Default)]
pub(super) enum TargetPort {
    #[default]
    Absent,
    Name(String),
    Number(Num),
}

impl<'de> Keep<'de> for TargetPort {
    fn scalar(v: Value) -> Self {
        match v {
            Value::Null => TargetPort::Absent,
            Value::String(s) => TargetPort::Name(s),
            v => TargetPort::Number(Num::scalar(v)),
        }
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Num::seq(seq).map(TargetPort::Number)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Num::map(map).map(TargetPort::Number)
    }
}

/// A boolean, or none (any other value is as if absent: `"true"` is no `true`).
#[derive(Debug, Default)]
pub(super) struct Bool(pub(super) Option<bool>);

impl<'de> Keep<'de> for Bool {
    fn scalar(v: Value) -> Self {
        Bool(v.as_bool())
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Skip::seq(seq).map(|_| Bool(None))
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Skip::map(map).map(|_| Bool(None))
    }
}

/// A list: absent or null (empty), its elements, or a value of another type (quoted: `not a
/// list: {…}`).
#[derive(Debug, Default)]
pub(super) enum List<T> {
    #[default]
    Absent,
    Items(Vec<T>),
    Other(Value),
}

impl<'de, T: Deserialize<'de>> Keep<'de> for List<T> {
    fn scalar(v: Value) -> Self {
        match v {
            Value::Null => List::Absent,
            other => List::Other(other),
        }
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(List::Items(items))
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        map_value(map).map(List::Other)
    }
}

/// An object of strings (labels, a selector): absent or null, its entries sorted by key (a key
/// given twice: the last value), or a value of another type (quoted: `not an object: [1]`).
#[derive(Debug, Default)]
pub(super) enum StrMap {
    #[default]
    Absent,
    Map(BTreeMap<String, Str>),
    Other(Value),
}

impl<'de> Keep<'de> for StrMap {
    fn scalar(v: Value) -> Self {
        match v {
            Value::Null => StrMap::Absent,
            other => StrMap::Other(other),
        }
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        seq_value(seq).map(StrMap::Other)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let mut entries_ = BTreeMap::new();
        entries(map, |key, map| {
            entries_.insert(key, map.next_value()?);
            Ok(())
        })?;
        Ok(StrMap::Map(entries_))
    }
}

/// A struct of the fields the lab reads of an object, by their names in kubectl's output; a
/// value that is no object reads as one with none of them (as `Value::get` answered on it).
macro_rules! fields {
    ($(#[$m:meta])* struct $name:ident { $($(#[$fm:meta])* $field:ident: $ty:ty = $key:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Default)]
        pub(super) struct $name { $($(#[$fm])* pub(super) $field: $ty,)* }

        impl<'de> Keep<'de> for $name {
            fn scalar(_: Value) -> Self {
                Self::default()
            }
            fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
                Skip::seq(seq).map(|_| Self::default())
            }
            fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
                let mut o = Self::default();
                entries(map, |key, map| {
                    match key.as_str() {
                        $($key => o.$field = map.next_value()?,)*
                        _ => {
                            map.next_value::<Skip>()?;
                        }
                    }
                    Ok(())
                })?;
                Ok(o)
            }
        }

        mirrored!($name);
    };
}

fields! {
    /// `metadata`.
    struct Metadata {
        name: Text = "name",
        namespace: Text = "namespace",
        labels: StrMap = "labels",
    }
}

fields! {
    /// `spec`: a Service's, a ServiceCIDR's and an IPAddress's fields together (each kind reads
    /// its own).
    struct Spec {
        type_: Text = "type",
        cluster_ip: Text = "clusterIP",
        cluster_ips: List<Str> = "clusterIPs",
        selector: StrMap = "selector",
        ports: List<Port> = "ports",
        publish_not_ready_addresses: Bool = "publishNotReadyAddresses",
        health_check_node_port: Num = "healthCheckNodePort",
        ip_families: List<Str> = "ipFamilies",
        ip_family_policy: Text = "ipFamilyPolicy",
        cidrs: List<Str> = "cidrs",
        parent_ref: ParentRef = "parentRef",
    }
}

fields! {
    /// A port of a Service, an Endpoints subset or an EndpointSlice.
    struct Port {
        name: Text = "name",
        protocol: Text = "protocol",
        port: Num = "port",
        node_port: Num = "nodePort",
        target_port: TargetPort = "targetPort",
    }
}

fields! {
    /// One of an Endpoints' `subsets`.
    struct Subset {
        addresses: List<Address> = "addresses",
        not_ready_addresses: List<Address> = "notReadyAddresses",
        ports: List<Port> = "ports",
    }
}

fields! {
    /// An address of an Endpoints subset.
    struct Address {
        ip: Text = "ip",
    }
}

fields! {
    /// One of an EndpointSlice's `endpoints`.
    struct SliceEndpoint {
        addresses: List<Str> = "addresses",
        conditions: Conditions = "conditions",
    }
}

fields! {
    /// An endpoint's `conditions`.
    struct Conditions {
        ready: Bool = "ready",
    }
}

fields! {
    /// An IPAddress's `spec.parentRef`.
    struct ParentRef {
        group: Text = "group",
        resource: Text = "resource",
        namespace: Text = "namespace",
        name: Text = "name",
    }
}

/// A document, or an item of a list: an object, or any other value (kept to be quoted).
#[derive(Debug)]
pub(super) enum Item {
    Object(Box<Object>),
    Other(Value),
}

impl<'de> Keep<'de> for Item {
    fn scalar(v: Value) -> Self {
        Item::Other(v)
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        seq_value(seq).map(Item::Other)
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        Object::map(map).map(|o| Item::Object(Box::new(o)))
    }
}

/// An object of kubectl's output: a document (a list, or one object) or an item of a list, with
/// the fields of every kind the lab reads.
#[derive(Debug, Default)]
pub(super) struct Object {
    /// Its first keys, sorted (at most [`KEYS_KEPT`]): what a refusal names of an object that is
    /// not kubectl's.
    pub(super) keys: BTreeSet<String>,
    /// Whether it has an `apiVersion` (of any value).
    pub(super) api_version: bool,
    pub(super) kind: Text,
    /// A list's `items`, when it has the field (`null` included).
    pub(super) items: Option<List<Item>>,
    pub(super) metadata: Metadata,
    pub(super) spec: Spec,
    /// An Endpoints'.
    pub(super) subsets: List<Subset>,
    /// An EndpointSlice's.
    pub(super) address_type: Text,
    /// An EndpointSlice's.
    pub(super) endpoints: List<SliceEndpoint>,
    /// An EndpointSlice's.
    pub(super) ports: List<Port>,
}

/// How many of an object's keys are kept: the four a refusal names, and whether there are more.
pub(super) const KEYS_KEPT: usize = 5;

impl<'de> Keep<'de> for Object {
    fn scalar(_: Value) -> Self {
        Object::default()
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        Skip::seq(seq).map(|_| Object::default())
    }
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        let mut o = Object::default();
        entries(map, |key, map| {
            match key.as_str() {
                "apiVersion" => {
                    map.next_value::<Skip>()?;
                    o.api_version = true;
                }
                "kind" => o.kind = map.next_value()?,
                "items" => o.items = Some(map.next_value()?),
                "metadata" => o.metadata = map.next_value()?,
                "spec" => o.spec = map.next_value()?,
                "subsets" => o.subsets = map.next_value()?,
                "addressType" => o.address_type = map.next_value()?,
                "endpoints" => o.endpoints = map.next_value()?,
                "ports" => o.ports = map.next_value()?,
                _ => {
                    map.next_value::<Skip>()?;
                }
            }
            o.keys.insert(key);
            if o.keys.len() > KEYS_KEPT {
                o.keys.pop_last();
            }
            Ok(())
        })?;
        Ok(o)
    }
}

mirrored!(Skip, Text, Str, Num, TargetPort, Bool, List<T>, StrMap, Item, Object);
