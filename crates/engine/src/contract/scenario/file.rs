//! A scenario file as written (`docs/scenario.md` §1), before defaults and validation.

use serde::{Deserialize, Deserializer};

use super::action::ServiceCidrSpec;
use crate::k8s::api::{Behavior, Endpoints, ParentReference, Pod, Service};
use crate::lang::LocalizedText;

/// Distinguishes a missing field (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

objects_only!(
    File,
    ClusterFile,
    ApiserverFile,
    InitialFile,
    IpAddressFile,
    LeaseFile,
    AllocationFile<String>,
    AllocationFile<i64>,
);

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct File {
    #[serde(default)]
    pub(super) name: String,
    #[serde(default)]
    pub(super) title: Option<LocalizedText>,
    #[serde(default)]
    pub(super) description: Option<LocalizedText>,
    pub(super) seed: Option<u64>,
    #[serde(default)]
    pub(super) behavior: Behavior,
    pub(super) cluster: ClusterFile,
    #[serde(default)]
    pub(super) initial: InitialFile,
    /// A step is `at` plus an action or an `expect` (`super::step_file`), checked by
    /// `super::step` once the cluster is.
    #[serde(default)]
    pub(super) steps: Vec<super::step_file::StepFile>,
    pub(super) until: Option<String>,
    /// Things to try (`docs/extensions.md`).
    #[serde(default)]
    pub(super) experiments: Vec<ExperimentFile>,
    /// Nodes, each with a kube-proxy (`docs/extensions.md`, "Extension: nodes and client pods").
    #[serde(default)]
    pub(super) nodes: Vec<NodeFile>,
    /// Client pods on those nodes (same extension).
    #[serde(default)]
    pub(super) clients: Vec<ClientFile>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct ClusterFile {
    pub(super) service_cluster_ip_range: Option<String>,
    pub(super) service_node_port_range: Option<String>,
    pub(super) endpoint_reconciler_type: Option<String>,
    pub(super) apiserver_count: Option<i64>,
    pub(super) kubernetes_service_node_port: Option<i64>,
    pub(crate) secure_port: Option<i64>,
    /// `APIServerServicePort`, the `kubernetes` Service's port (443).
    pub(crate) kubernetes_service_port: Option<i64>,
    pub(super) endpoint_reconciler_interval: Option<String>,
    pub(super) lease_ttl: Option<String>,
    pub(super) repair_interval: Option<String>,
    pub(super) apiservers: Vec<ApiserverFile>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct ApiserverFile {
    pub(super) name: String,
    pub(super) advertise_address: String,
    #[serde(default, deserialize_with = "present")]
    pub(super) start_at: Option<Option<String>>,
    pub(super) startup_delay: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct InitialFile {
    #[serde(default, deserialize_with = "super::initial::services_without_empty_ips")]
    pub(super) services: Vec<Service>,
    #[serde(default)]
    pub(super) pods: Vec<Pod>,
    #[serde(default)]
    pub(super) endpoints: Vec<Endpoints>,
    #[serde(default)]
    pub(super) namespaces: Vec<String>,
    #[serde(default)]
    pub(super) leases: Vec<LeaseFile>,
    pub(super) cluster_ip_allocation: Option<AllocationFile<String>>,
    pub(crate) secondary_cluster_ip_allocation: Option<AllocationFile<String>>,
    pub(super) node_port_allocation: Option<AllocationFile<i64>>,
    /// §6: existing ServiceCIDR objects.
    #[serde(default)]
    pub(super) service_cidrs: Vec<ServiceCidrSpec>,
    /// §6: existing IPAddress objects.
    #[serde(default)]
    pub(super) ip_addresses: Vec<IpAddressFile>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct IpAddressFile {
    pub(super) ip: String,
    pub(super) parent: ParentReference,
    /// How long before time 0 it was created (default `"0s"`).
    pub(super) age: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct LeaseFile {
    pub(super) ip: String,
    pub(super) ttl_left: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct AllocationFile<T> {
    pub(super) range: String,
    #[serde(default)]
    pub(super) allocated: Vec<T>,
}

objects_only!(ExperimentFile);

/// A thing to try, as written in a scenario file (`experiments[i]`); `experiment::read` checks it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct ExperimentFile {
    pub(super) title: LocalizedText,
    pub(super) watch: LocalizedText,
    pub(super) steps: Vec<super::step_file::StepFile>,
}

objects_only!(NodeFile, ClientFile);

/// A node as written (`nodes[i]`); `clients::read` checks it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct NodeFile {
    pub(super) name: String,
    /// A fixed time for its kube-proxy's `iptables-restore` (a slow node), else drawn.
    pub(super) proxy_apply_time: Option<String>,
}

/// A client pod as written (`clients[i]`); `clients::read` checks it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub(super) struct ClientFile {
    pub(super) name: String,
    pub(super) node: String,
    /// `controller` or `job`.
    pub(super) workload: String,
    /// A job's polling period.
    pub(super) every: Option<String>,
    /// How long each of a job's GETs takes (else drawn).
    pub(super) get_time: Option<String>,
    /// When it starts (default `"0s"`).
    pub(super) start_at: Option<String>,
}
