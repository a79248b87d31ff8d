//! The API objects the core reads and writes, with the snake_case field names of `docs/scenario.md`.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;

use serde::{Deserialize, Serialize};

string_enum! {
    /// Which Kubernetes release's rules run (`behavior` in a scenario).
    pub enum Behavior {
        /// The release the seed articles read: plain random scan, no static bands.
        V1_20 = "1.20",
        /// Static/dynamic bands for ClusterIPs (KEP-3070) and NodePorts (KEP-3668).
        V1_29 = "1.29",
    }
}

impl Default for Behavior {
    fn default() -> Self {
        Behavior::V1_29
    }
}

impl Behavior {
    /// Whether allocators split their range into a static and a dynamic band.
    pub(crate) fn static_bands(self) -> bool {
        self == Behavior::V1_29
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum IpFamily {
    IPv4,
    IPv6,
}

impl IpFamily {
    pub fn of(ip: &IpAddr) -> Self {
        match ip {
            IpAddr::V4(_) => IpFamily::IPv4,
            IpAddr::V6(_) => IpFamily::IPv6,
        }
    }
}

impl fmt::Display for IpFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IpFamily::IPv4 => "IPv4",
            IpFamily::IPv6 => "IPv6",
        })
    }
}

/// Parses an IP as Go's `net.ParseIP` does for our purposes: an IPv4-mapped IPv6 address is IPv4.
pub(crate) fn parse_ip(s: &str) -> Option<IpAddr> {
    match s.parse::<IpAddr>().ok()? {
        IpAddr::V6(v6) => Some(v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4)),
        v4 => Some(v4),
    }
}

/// A `RangeAllocation` object as stored in etcd (`/ranges/serviceips`, `/ranges/servicenodeports`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeAllocation {
    pub range: String,
    /// Big-endian bitmap bytes (see `allocator::AllocationBitmap::snapshot`).
    pub data: Vec<u8>,
}

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum ServiceType {
    #[default]
    ClusterIP,
    NodePort,
    LoadBalancer,
    ExternalName,
}

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Protocol {
    #[default]
    TCP,
    UDP,
    SCTP,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// `targetPort`: a number or a named container port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i32),
    String(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServicePort {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default)]
    pub protocol: Protocol,
    pub port: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub node_port: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Service {
    #[serde(default = "default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, rename = "type")]
    pub type_: ServiceType,
    /// `""` = not allocated yet, `"None"` = headless.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cluster_ip: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default)]
    pub ports: Vec<ServicePort>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub publish_not_ready_addresses: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub health_check_node_port: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_families: Vec<IpFamily>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_family_policy: Option<String>,
}

pub(crate) fn default_namespace() -> String {
    "default".to_string()
}

impl Service {
    /// `namespace/name`, the object reference events carry.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// `IsServiceIPSet`: a ClusterIP that is neither empty nor `None`.
    pub fn is_ip_set(&self) -> bool {
        !self.cluster_ip.is_empty() && self.cluster_ip != "None"
    }

    /// `spec.clusterIPs`, which the API server always fills from `spec.clusterIP` when it is unset.
    pub fn cluster_ips(&self) -> Vec<&str> {
        if self.cluster_ips.is_empty() && !self.cluster_ip.is_empty() {
            vec![self.cluster_ip.as_str()]
        } else {
            self.cluster_ips.iter().map(String::as_str).collect()
        }
    }
}

#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum PodPhase {
    Pending,
    #[default]
    Running,
    Succeeded,
    Failed,
    Unknown,
}

fn default_true() -> bool {
    true
}

/// A Pod, reduced to what the endpoints controller reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pod {
    #[serde(default = "default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pod_ip: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<String>,
    /// The Ready condition.
    #[serde(default = "default_true")]
    pub ready: bool,
    #[serde(default)]
    pub phase: PodPhase,
    /// `metadata.deletionTimestamp` is set.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub terminating: bool,
    /// Container ports by name, for named `target_port`s (`spec.containers[*].ports`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub container_ports: BTreeMap<String, i32>,
}

impl Pod {
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// `status.podIPs`, which the kubelet fills from `podIP` when only that is set.
    pub fn ips(&self) -> Vec<&str> {
        if self.pod_ips.is_empty() && !self.pod_ip.is_empty() {
            vec![self.pod_ip.as_str()]
        } else {
            self.pod_ips.iter().map(String::as_str).collect()
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndpointPort {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    pub port: i32,
    #[serde(default)]
    pub protocol: Protocol,
}

/// One subset; addresses are IP strings (the form of `docs/scenario.md`). Address identity is the IP.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndpointSubset {
    #[serde(default)]
    pub addresses: Vec<String>,
    #[serde(default)]
    pub not_ready_addresses: Vec<String>,
    #[serde(default)]
    pub ports: Vec<EndpointPort>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Endpoints {
    #[serde(default = "default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    #[serde(default)]
    pub subsets: Vec<EndpointSubset>,
}

impl Endpoints {
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}
