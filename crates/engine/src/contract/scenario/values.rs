//! The typed values an action carries (durations, addresses, ports), read once, by serde,
//! wherever an action comes from: a file, a link, a form or the CLI. A bad value fails as it is
//! read, naming its field; nothing downstream re-checks or defaults it.

use std::fmt;
use std::net::IpAddr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{parse_time, port_number};
use crate::duration::format_ms;
use crate::k8s::api::{parse_ip, ParentReference};
use crate::quote::quote;

/// A span of virtual time in Go's syntax (`"30s"`), within [`super::MAX_TIME_MS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(u64);

impl Millis {
    /// `ms` when it is within the ceiling of virtual time.
    pub const fn new(ms: u64) -> Option<Millis> {
        if ms <= super::MAX_TIME_MS {
            Some(Millis(ms))
        } else {
            None
        }
    }

    /// The span in virtual ms.
    pub const fn ms(self) -> u64 {
        self.0
    }

    /// Reads Go's syntax, refusing what [`parse_time`] refuses, in its words.
    pub fn parse(s: &str) -> Result<Millis, String> {
        parse_time(s).map(Millis)
    }
}

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_ms(self.0))
    }
}

/// Written back as Go prints it (`"1m30s"`), which reads as the same span.
impl Serialize for Millis {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_ms(self.0))
    }
}

impl<'de> Deserialize<'de> for Millis {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Millis::parse(&s).map_err(D::Error::custom)
    }
}

/// An address as the contract reads one (an IPv4-mapped IPv6 address is its IPv4 address).
pub(crate) fn ip<'de, D: Deserializer<'de>>(d: D) -> Result<IpAddr, D::Error> {
    let s = String::deserialize(d)?;
    parse_ip(&s).ok_or_else(|| D::Error::custom(format!("invalid IP address {}", quote(&s))))
}

// The `corrupt` kinds are read as an internally tagged enum, which loses the field path (see
// `action::payload`): their readers name their field themselves.

/// A corruption's `ip`.
pub(crate) fn corrupt_ip<'de, D: Deserializer<'de>>(d: D) -> Result<IpAddr, D::Error> {
    ip(d).map_err(|e| D::Error::custom(format!("ip: {e}")))
}

/// A corruption's `port`: a port number (1-65535).
pub(crate) fn corrupt_port<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    let p = i64::deserialize(d).map_err(|e| D::Error::custom(format!("port: {e}")))?;
    port_number("port", p).map_err(D::Error::custom)
}

/// A corruption's `parent`: it names a Service.
pub(crate) fn corrupt_parent<'de, D: Deserializer<'de>>(d: D) -> Result<ParentReference, D::Error> {
    let parent =
        ParentReference::deserialize(d).map_err(|e| D::Error::custom(format!("parent: {e}")))?;
    if parent.name.is_empty() {
        return Err(D::Error::custom("parent.name: must not be empty"));
    }
    Ok(parent)
}
