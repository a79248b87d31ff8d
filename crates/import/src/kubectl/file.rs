//! The scenario file an import writes (`docs/scenario.md` §1), typed: what [`super::read`] makes
//! of each object and what [`super::scenario`] makes of the cluster.
//!
//! Each struct's fields are declared in the order the file prints them: sorted, as a JSON object
//! of the contract prints its keys (the contract's sandbox file does the same), so the file is
//! the same bytes as when the import wrote it through `serde_json::Value`. A field the import
//! leaves out when empty (a Service's `cluster_ip`, a port's `name`) is skipped as it was left
//! out then. The contract's parser reads the file back ([`super::check`]): the values the import
//! passes on unchecked (the flags, an Endpoints port's protocol) are refused there, as before.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::k8s::api::{IntOrString, IpFamily, Protocol, ServiceType};
use crate::lang::LocalizedText;

fn is_zero(n: &i32) -> bool {
    *n == 0
}

/// A scenario file whose `initial` is an imported cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct File {
    /// The release's rules, as given (`--behavior`) or guessed; the contract checks it.
    pub behavior: String,
    /// The kube-apiserver flags and the apiservers.
    pub cluster: Cluster,
    /// The objects in etcd on start: the imported cluster.
    pub initial: Initial,
    /// `imported`.
    pub name: String,
    /// "An imported cluster", in English and Chinese.
    pub title: LocalizedText,
    /// How long the scenario runs (`5m`).
    pub until: String,
}

/// `cluster`: the flags, as given or guessed, and one apiserver per address found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cluster {
    /// One per address of the `kubernetes` Endpoints (else EndpointSlices).
    pub apiservers: Vec<Apiserver>,
    /// The port the `kubernetes` Endpoints serve (6443 when none says).
    pub secure_port: i64,
    /// `--service-cluster-ip-range`.
    pub service_cluster_ip_range: String,
    /// `--service-node-port-range`.
    pub service_node_port_range: String,
}

/// `cluster.apiservers[i]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Apiserver {
    /// An address of the `kubernetes` Endpoints.
    pub advertise_address: String,
    /// `apiserver-1`, `apiserver-2`, ….
    pub name: String,
}

/// `initial`: the cluster's objects, and the allocation bitmaps taken as consistent with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Initial {
    /// The ClusterIP bitmap of the primary range, while the release writes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_ip_allocation: Option<Allocation<String>>,
    /// The `kubernetes` Endpoints (`default/kubernetes`).
    pub endpoints: Vec<Endpoints>,
    /// The IPAddresses, under the releases that have them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_addresses: Option<Vec<IpAddress>>,
    /// `default` and every Service's namespace, sorted.
    pub namespaces: Vec<String>,
    /// The NodePort bitmap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_port_allocation: Option<Allocation<i32>>,
    /// The ClusterIP bitmap of the secondary range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_cluster_ip_allocation: Option<Allocation<String>>,
    /// The ServiceCIDRs, under the releases that have them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_cidrs: Option<Vec<ServiceCidr>>,
    /// Every Service read.
    pub services: Vec<Service>,
}

/// A stored bitmap: its range and what it holds allocated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Allocation<T> {
    /// The ClusterIPs (or NodePorts) in range, sorted, each once.
    pub allocated: Vec<T>,
    /// The range as the flag gives it.
    pub range: String,
}

/// A Service, with what the lab models of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Service {
    /// `spec.clusterIP`: an address, `None` (headless) or empty (unset).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub cluster_ip: String,
    /// `spec.clusterIPs`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    /// `spec.healthCheckNodePort` (0: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub health_check_node_port: i32,
    /// `spec.ipFamilies`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ip_families: Vec<IpFamily>,
    /// `spec.ipFamilyPolicy`, as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip_family_policy: Option<String>,
    /// `metadata.labels`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace` (`default` when not given).
    pub namespace: String,
    /// `spec.ports`.
    pub ports: Vec<ServicePort>,
    /// `spec.publishNotReadyAddresses`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub publish_not_ready_addresses: bool,
    /// `spec.selector`, when given (an empty one too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selector: Option<BTreeMap<String, String>>,
    /// `spec.type`.
    #[serde(rename = "type")]
    pub type_: ServiceType,
}

impl Service {
    /// Whether it is `default/kubernetes`, the apiservers' own.
    pub fn is_kubernetes(&self) -> bool {
        self.namespace == "default" && self.name == "kubernetes"
    }
}

/// One of a Service's `spec.ports`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServicePort {
    /// Its name, when it has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `nodePort` (0: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub node_port: i32,
    /// `port`.
    pub port: i32,
    /// `protocol` (TCP when not given).
    pub protocol: Protocol,
    /// `targetPort`: a number or a named container port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
}

/// An Endpoints object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Endpoints {
    /// `metadata.labels`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `subsets`.
    pub subsets: Vec<EndpointSubset>,
}

impl Endpoints {
    /// Whether it is `default/kubernetes`, the apiservers' own.
    pub fn is_kubernetes(&self) -> bool {
        self.namespace == "default" && self.name == "kubernetes"
    }
}

/// One of an Endpoints' `subsets`: the addresses as given (each checked to be one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndpointSubset {
    /// `addresses[*].ip`.
    pub addresses: Vec<String>,
    /// `notReadyAddresses[*].ip`.
    pub not_ready_addresses: Vec<String>,
    /// `ports`.
    pub ports: Vec<EndpointPort>,
}

/// A port of an Endpoints subset or of an EndpointSlice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndpointPort {
    /// Its name, when it has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `port`.
    pub port: i32,
    /// `protocol` as given (TCP when not given): the import does not check it, the contract
    /// refuses one it does not know in the file.
    pub protocol: String,
}

/// An EndpointSlice (read for the `kubernetes` Service's, never written to the file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EndpointSlice {
    /// `addressType`: `IPv4`, `IPv6` or `FQDN`.
    pub address_type: String,
    /// `endpoints`.
    pub endpoints: Vec<SliceEndpoint>,
    /// `metadata.labels` (`kubernetes.io/service-name` ties it to its Service).
    pub labels: BTreeMap<String, String>,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `ports`.
    pub ports: Vec<EndpointPort>,
}

/// One of an EndpointSlice's `endpoints`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SliceEndpoint {
    /// `addresses`.
    pub addresses: Vec<String>,
    /// `conditions.ready` (unset: ready).
    pub ready: bool,
}

/// A ServiceCIDR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServiceCidr {
    /// `spec.cidrs`, each a CIDR.
    pub cidrs: Vec<String>,
    /// `metadata.name`.
    pub name: String,
}

/// An IPAddress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IpAddress {
    /// `metadata.name`: the address.
    pub ip: String,
    /// `spec.parentRef`.
    pub parent: Parent,
}

/// An IPAddress's `spec.parentRef`, each part as given (empty when not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Parent {
    /// `group`.
    pub group: String,
    /// `name`.
    pub name: String,
    /// `namespace`.
    pub namespace: String,
    /// `resource`.
    pub resource: String,
}
