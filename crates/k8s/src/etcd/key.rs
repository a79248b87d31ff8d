//! The keys of the lab's etcd, typed: which kind of object a key holds and its name, read from
//! and printed as kube-apiserver lays them out (without the `/registry` prefix). Whatever
//! decides by a key (the watches, the stage's rows, the inspector) matches on a [`Key`] rather
//! than on string prefixes.

use std::fmt;
use std::str::FromStr;

use super::{
    ENDPOINTS, ENDPOINT_SLICES, IP_ADDRESSES, MASTER_LEASES, NAMESPACES, PODS, RANGE_NODE_PORTS,
    RANGE_SECONDARY_SERVICE_IPS, RANGE_SERVICE_IPS, SERVICES, SERVICE_CIDRS,
};
use crate::api::KUBERNETES;

/// A namespaced object's place: `<namespace>/<name>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NsName {
    /// The namespace.
    pub namespace: String,
    /// The name.
    pub name: String,
}

impl NsName {
    /// `namespace/name`.
    pub fn new(namespace: &str, name: &str) -> Self {
        NsName { namespace: namespace.into(), name: name.into() }
    }

    /// `default/kubernetes`.
    pub fn kubernetes() -> Self {
        NsName::new("default", KUBERNETES)
    }

    /// Whether this is `default/kubernetes`, the object the bootstrap controller keeps.
    pub fn is_kubernetes(&self) -> bool {
        self.namespace == "default" && self.name == KUBERNETES
    }
}

impl fmt::Display for NsName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// The allocators' range snapshots (`/ranges/*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RangeName {
    /// `/ranges/serviceips`: the primary ClusterIP range.
    ServiceIps,
    /// `/ranges/secondaryserviceips`: the secondary (dual-stack) ClusterIP range.
    SecondaryServiceIps,
    /// `/ranges/servicenodeports`: the NodePort range.
    NodePorts,
}

impl RangeName {
    /// The key of this range's snapshot.
    pub const fn key(self) -> &'static str {
        match self {
            RangeName::ServiceIps => RANGE_SERVICE_IPS,
            RangeName::SecondaryServiceIps => RANGE_SECONDARY_SERVICE_IPS,
            RangeName::NodePorts => RANGE_NODE_PORTS,
        }
    }

    /// A ClusterIP range (primary or secondary), not the NodePort one.
    pub fn is_cluster_ip(self) -> bool {
        self != RangeName::NodePorts
    }
}

/// What kind of object a key holds: one prefix of the keyspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A master lease (`/masterleases/`).
    Lease,
    /// A range snapshot (`/ranges/`).
    Range,
    /// A Service (`/services/specs/`).
    Service,
    /// An Endpoints object (`/services/endpoints/`).
    Endpoints,
    /// An EndpointSlice (`/endpointslices/`).
    EndpointSlice,
    /// A Pod (`/pods/`).
    Pod,
    /// A Namespace (`/namespaces/`).
    Namespace,
    /// A ServiceCIDR (`/servicecidrs/`).
    ServiceCidr,
    /// An IPAddress (`/ipaddresses/`).
    IpAddress,
}

impl Kind {
    const ALL: [Kind; 9] = [
        Kind::Lease,
        Kind::Range,
        Kind::Service,
        Kind::Endpoints,
        Kind::EndpointSlice,
        Kind::Pod,
        Kind::Namespace,
        Kind::ServiceCidr,
        Kind::IpAddress,
    ];

    /// The prefix every key of this kind starts with.
    pub const fn prefix(self) -> &'static str {
        match self {
            Kind::Lease => MASTER_LEASES,
            Kind::Range => "/ranges/",
            Kind::Service => SERVICES,
            Kind::Endpoints => ENDPOINTS,
            Kind::EndpointSlice => ENDPOINT_SLICES,
            Kind::Pod => PODS,
            Kind::Namespace => NAMESPACES,
            Kind::ServiceCidr => SERVICE_CIDRS,
            Kind::IpAddress => IP_ADDRESSES,
        }
    }

    /// The kind of `key` and what follows its prefix, borrowed: for a hot loop that only sorts
    /// keys by kind ([`Key`] checks the name too, and owns it).
    pub fn split(key: &str) -> Option<(Kind, &str)> {
        let kind = Kind::ALL.into_iter().find(|k| key.starts_with(k.prefix()))?;
        Some((kind, &key[kind.prefix().len()..]))
    }

    /// The kind a grouped row stands for, written as its prefix and `*` (`/namespaces/*`).
    pub fn of_group(s: &str) -> Option<Kind> {
        let prefix = s.strip_suffix('*')?;
        Kind::ALL.into_iter().find(|k| k.prefix() == prefix)
    }

    /// The grouped row's text: the prefix and `*`.
    pub fn group(self) -> String {
        [self.prefix(), "*"].concat()
    }
}

/// One key of the lab's etcd.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A master lease, named by the apiserver's address.
    Lease(String),
    /// A range snapshot.
    Range(RangeName),
    /// A Service, by namespace and name.
    Service(NsName),
    /// An Endpoints object, by namespace and name.
    Endpoints(NsName),
    /// An EndpointSlice, by namespace and name.
    EndpointSlice(NsName),
    /// A Pod, by namespace and name.
    Pod(NsName),
    /// A Namespace, by name.
    Namespace(String),
    /// A ServiceCIDR, by name.
    ServiceCidr(String),
    /// An IPAddress, named by the address in canonical form.
    IpAddress(String),
}

impl Key {
    /// The kind of object it holds.
    pub fn kind(&self) -> Kind {
        match self {
            Key::Lease(_) => Kind::Lease,
            Key::Range(_) => Kind::Range,
            Key::Service(_) => Kind::Service,
            Key::Endpoints(_) => Kind::Endpoints,
            Key::EndpointSlice(_) => Kind::EndpointSlice,
            Key::Pod(_) => Kind::Pod,
            Key::Namespace(_) => Kind::Namespace,
            Key::ServiceCidr(_) => Kind::ServiceCidr,
            Key::IpAddress(_) => Kind::IpAddress,
        }
    }

    /// The namespaced object's place, for the kinds that have one.
    pub fn ns_name(&self) -> Option<&NsName> {
        match self {
            Key::Service(n) | Key::Endpoints(n) | Key::EndpointSlice(n) | Key::Pod(n) => Some(n),
            _ => None,
        }
    }

    /// The name after the prefix (`<ns>/<name>` for namespaced kinds).
    fn name(&self) -> String {
        match self {
            Key::Lease(s) | Key::Namespace(s) | Key::ServiceCidr(s) | Key::IpAddress(s) => {
                s.clone()
            }
            Key::Range(r) => r.key()["/ranges/".len()..].to_string(),
            Key::Service(n) | Key::Endpoints(n) | Key::EndpointSlice(n) | Key::Pod(n) => {
                n.to_string()
            }
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Range(r) => f.write_str(r.key()),
            k => write!(f, "{}{}", k.kind().prefix(), k.name()),
        }
    }
}

impl FromStr for Key {
    type Err = String;

    fn from_str(s: &str) -> Result<Key, String> {
        let bad = || format!("{s:?} is no key of the lab's etcd");
        let (kind, rest) = Kind::split(s).ok_or_else(bad)?;
        // No name holds `/` or `*` (a group's wildcard).
        let name = |n: &str| !n.is_empty() && !n.contains(['/', '*']);
        let one = || name(rest).then(|| rest.to_string()).ok_or_else(bad);
        let ns_name = || match rest.split_once('/') {
            Some((ns, n)) if name(ns) && name(n) => {
                Ok(NsName { namespace: ns.into(), name: n.into() })
            }
            _ => Err(bad()),
        };
        Ok(match kind {
            Kind::Lease => Key::Lease(one()?),
            Kind::Range => Key::Range(match s {
                RANGE_SERVICE_IPS => RangeName::ServiceIps,
                RANGE_SECONDARY_SERVICE_IPS => RangeName::SecondaryServiceIps,
                RANGE_NODE_PORTS => RangeName::NodePorts,
                _ => return Err(bad()),
            }),
            Kind::Service => Key::Service(ns_name()?),
            Kind::Endpoints => Key::Endpoints(ns_name()?),
            Kind::EndpointSlice => Key::EndpointSlice(ns_name()?),
            Kind::Pod => Key::Pod(ns_name()?),
            Kind::Namespace => Key::Namespace(one()?),
            Kind::ServiceCidr => Key::ServiceCidr(one()?),
            Kind::IpAddress => Key::IpAddress(one()?),
        })
    }
}

/// What a stage row or the inspector names: one key, or every key of one kind, written as its
/// prefix and `*` (`/namespaces/*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keys {
    /// That key.
    One(Key),
    /// Every key of that kind.
    All(Kind),
}

impl Keys {
    /// The kind of the key or keys.
    pub fn kind(&self) -> Kind {
        match self {
            Keys::One(k) => k.kind(),
            Keys::All(k) => *k,
        }
    }
}

impl FromStr for Keys {
    type Err = String;

    fn from_str(s: &str) -> Result<Keys, String> {
        match Kind::of_group(s) {
            Some(kind) => Ok(Keys::All(kind)),
            None => s.parse().map(Keys::One),
        }
    }
}
