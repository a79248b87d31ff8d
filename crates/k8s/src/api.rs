//! The API objects the core reads and writes, with the snake_case field names of `docs/scenario.md`.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;

use serde::{Deserialize, Serialize};

mod networking;
pub use networking::{
    IpAddress, ParentReference, ServiceCidr, IPALLOCATOR_CONTROLLER, LABEL_IP_FAMILY,
    LABEL_MANAGED_BY, SERVICE_CIDR_FINALIZER,
};

/// The `kubernetes` Service's name (kube-apiserver's own; it lives in `default`): named by the
/// bootstrap controller, by etcd's keys and by whatever reads the state, so it lives here.
pub const KUBERNETES: &str = "kubernetes";

string_enum! {
    /// Which Kubernetes release's rules run (`behavior` in a scenario).
    #[derive(Default)]
    pub enum Behavior {
        /// The release nearest the seed articles (which read 1.18–1.19): plain random scan, no static bands.
        V1_20 = "1.20",
        /// Static/dynamic bands for ClusterIPs (KEP-3070) and NodePorts (KEP-3668); stands for
        /// 1.26 to 1.32.
        #[default]
        V1_29 = "1.29",
        /// ClusterIPs as IPAddress objects in ServiceCIDRs (KEP-1880 GA), with the bitmap still
        /// written beside them (dual-write) but no longer repaired.
        V1_33 = "1.33",
        /// IPAddress objects only (dual-write off and locked); stands for 1.35 to 1.37.
        V1_35 = "1.35",
    }
}

impl Behavior {
    /// Whether allocators split their range into a static and a dynamic band.
    pub(crate) fn static_bands(self) -> bool {
        self != Behavior::V1_20
    }

    /// The releases before 1.28's repair post-start hook and shutdown rules (the seed articles read 1.18–1.19).
    pub fn legacy(self) -> bool {
        self == Behavior::V1_20
    }

    /// MultiCIDRServiceAllocator: ClusterIPs are IPAddress objects inside ServiceCIDRs.
    pub fn ip_addresses(self) -> bool {
        self >= Behavior::V1_33
    }

    /// A ClusterIP bitmap `/ranges/serviceips` is written (by the allocator, or as 1.33's
    /// dual-write copy).
    pub fn cluster_ip_bitmap(self) -> bool {
        self <= Behavior::V1_33
    }

    /// The bitmap's ClusterIP repair loop (`repair.go`) runs; from 1.33 RepairIPAddress does.
    pub fn bitmap_ip_repair(self) -> bool {
        !self.ip_addresses()
    }

    /// `--service-cluster-ip-range` may be at most a /12 (IPv4) or /108 (IPv6): enforced while
    /// the bitmap is written.
    pub(crate) fn max_cidr_limit(self) -> bool {
        self.cluster_ip_bitmap()
    }

    /// What a reader is told this behaviour stands for.
    pub fn label(self) -> &'static str {
        match self {
            Behavior::V1_20 => "1.20 (nearest the seed articles)",
            Behavior::V1_29 => "1.29 (1.28–1.32)",
            Behavior::V1_33 => "1.33 (dual-write)",
            Behavior::V1_35 => "1.35 (1.35–1.37, current)",
        }
    }
}

/// `v1.IPFamily`: the IP family of an address, a Service's `spec.ipFamilies` or an EndpointSlice.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum IpFamily {
    /// IPv4 (the default).
    #[default]
    IPv4,
    /// IPv6.
    IPv6,
}

impl IpFamily {
    /// The family of `ip`.
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
pub fn parse_ip(s: &str) -> Option<IpAddr> {
    match s.parse::<IpAddr>().ok()? {
        IpAddr::V6(v6) => Some(v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4)),
        v4 => Some(v4),
    }
}

/// A `RangeAllocation` object as stored in etcd (`/ranges/serviceips`, `/ranges/servicenodeports`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RangeAllocation {
    /// The range the bitmap covers: a CIDR (`10.96.0.0/12`) or a port range (`30000-32767`).
    pub range: String,
    /// Big-endian bitmap bytes (see `allocator::AllocationBitmap::snapshot`).
    pub data: Vec<u8>,
}

/// `v1.ServiceType`: a Service's `spec.type`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum ServiceType {
    /// A virtual IP reachable inside the cluster only (the default).
    #[default]
    ClusterIP,
    /// A ClusterIP, and a port on every node.
    NodePort,
    /// A NodePort, and a load balancer outside the cluster.
    LoadBalancer,
    /// A DNS name (`spec.externalName`): no ClusterIP and no ports are allocated.
    ExternalName,
}

/// `v1.Protocol`: the protocol of a port.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum Protocol {
    /// TCP (the default).
    #[default]
    TCP,
    /// UDP.
    UDP,
    /// SCTP.
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
    /// A port number.
    Int(i32),
    /// The name of a container port on the Pods.
    String(String),
}

/// `v1.ServicePort`: one entry of a Service's `spec.ports`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ServicePort {
    /// Its name; empty when unnamed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Its protocol.
    #[serde(default)]
    pub protocol: Protocol,
    /// The port the Service's ClusterIP serves.
    pub port: i32,
    /// The port on the Pods; unset: the same as `port`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
    /// The port on every node (`nodePort`); 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub node_port: i32,
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// `v1.Service`, reduced to the `metadata` and `spec` fields the model reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Service {
    /// Its namespace (`default` when a scenario gives none).
    #[serde(default = "default_namespace")]
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// `spec.type`.
    #[serde(default, rename = "type")]
    pub type_: ServiceType,
    /// `""` = not allocated yet, `"None"` = headless.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub cluster_ip: String,
    /// `spec.clusterIPs` as written; [`Service::cluster_ips`] reads it as the API server fills it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    /// `spec.selector`; `None`: no selector, so the endpoints controller leaves its Endpoints to
    /// the user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<BTreeMap<String, String>>,
    /// `metadata.labels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `spec.ports`.
    #[serde(default)]
    pub ports: Vec<ServicePort>,
    /// `spec.publishNotReadyAddresses`: not-ready Pods are listed as ready addresses.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub publish_not_ready_addresses: bool,
    /// `spec.healthCheckNodePort`; 0: none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub health_check_node_port: i32,
    /// `spec.ipFamilies`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_families: Vec<IpFamily>,
    /// `spec.ipFamilyPolicy` as written (`SingleStack`, `PreferDualStack`, `RequireDualStack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_family_policy: Option<String>,
}

/// `default`: the namespace of an object that names none.
pub fn default_namespace() -> String {
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

/// `v1.PodPhase`: a Pod's `status.phase`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub enum PodPhase {
    /// Accepted, but not every container runs yet.
    Pending,
    /// Bound to a node, its containers started (the default).
    #[default]
    Running,
    /// Every container ended in success; the endpoints controller lists it nowhere.
    Succeeded,
    /// Every container ended, one at least in failure; the endpoints controller lists it nowhere.
    Failed,
    /// Its state could not be read.
    Unknown,
}

fn default_true() -> bool {
    true
}

/// A Pod, reduced to what the endpoints controller reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Pod {
    /// Its namespace (`default` when a scenario gives none).
    #[serde(default = "default_namespace")]
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// `metadata.labels`, which Service selectors match.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `status.podIP`; empty: no IP yet.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pod_ip: String,
    /// `status.podIPs` as written; [`Pod::ips`] reads it as the kubelet fills it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pod_ips: Vec<String>,
    /// The Ready condition.
    #[serde(default = "default_true")]
    pub ready: bool,
    /// `status.phase`.
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
    /// `namespace/name`.
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

/// `v1.EndpointPort`: a port that the addresses of an Endpoints subset or an EndpointSlice serve.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct EndpointPort {
    /// Its name (the Service port's); empty when unnamed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The port number on the addresses.
    pub port: i32,
    /// Its protocol.
    #[serde(default)]
    pub protocol: Protocol,
}

/// One subset; addresses are IP strings (the form of `docs/scenario.md`). Address identity is the IP.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct EndpointSubset {
    /// `addresses`: the ready addresses.
    #[serde(default)]
    pub addresses: Vec<String>,
    /// `notReadyAddresses`: the addresses of Pods that are not ready.
    #[serde(default)]
    pub not_ready_addresses: Vec<String>,
    /// The ports every address of the subset serves.
    #[serde(default)]
    pub ports: Vec<EndpointPort>,
}

/// `v1.Endpoints`: the addresses behind the Service of the same namespace and name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct Endpoints {
    /// Its namespace (`default` when a scenario gives none).
    #[serde(default = "default_namespace")]
    pub namespace: String,
    /// Its name (its Service's).
    pub name: String,
    /// `metadata.labels`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `subsets`: the addresses, grouped by the ports they serve.
    #[serde(default)]
    pub subsets: Vec<EndpointSubset>,
}

impl Endpoints {
    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }
}

/// `kubernetes.io/service-name`, the label that ties an EndpointSlice to its Service.
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";

/// One endpoint of an EndpointSlice.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SliceEndpoint {
    /// The endpoint's addresses.
    pub addresses: Vec<String>,
    /// `conditions.ready`.
    pub ready: bool,
}

/// An `EndpointSlice` (`discovery.k8s.io/v1`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EndpointSlice {
    /// Its namespace.
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// `metadata.labels` ([`LABEL_SERVICE_NAME`] names its Service).
    pub labels: BTreeMap<String, String>,
    /// `addressType`: the family of all its addresses (the `FQDN` type is not modelled).
    pub address_type: IpFamily,
    /// `endpoints`.
    pub endpoints: Vec<SliceEndpoint>,
    /// `ports`: the ports every endpoint serves.
    pub ports: Vec<EndpointPort>,
}

impl EndpointSlice {
    /// `namespace/name`.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// The addresses of its endpoints, in order.
    pub fn addresses(&self) -> impl Iterator<Item = &String> {
        self.endpoints.iter().flat_map(|e| &e.addresses)
    }
}

// Read from JSON objects only (`crate::json_object`).
objects_only!(
    serialize:
    ServicePort,
    Service,
    Pod,
    EndpointPort,
    EndpointSubset,
    Endpoints,
);
