//! A scenario file as written (`docs/scenario.md` §1), before defaults and validation.

use serde::{Deserialize, Deserializer};
use serde_json::Value as Json;

use crate::api::{Behavior, Endpoints, Pod, Service};
use crate::lang::LocalizedText;

/// Distinguishes a missing field (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub title: Option<LocalizedText>,
    #[serde(default)]
    pub description: Option<LocalizedText>,
    pub seed: Option<u64>,
    #[serde(default)]
    pub behavior: Behavior,
    pub cluster: ClusterFile,
    #[serde(default)]
    pub initial: InitialFile,
    /// Read one by one (`super::step`): a step is `at` plus an action or an `expect`.
    #[serde(default)]
    pub steps: Vec<Json>,
    pub until: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClusterFile {
    pub service_cluster_ip_range: Option<String>,
    pub service_node_port_range: Option<String>,
    pub endpoint_reconciler_type: Option<String>,
    pub apiserver_count: Option<i64>,
    pub kubernetes_service_node_port: Option<i64>,
    pub secure_port: Option<i64>,
    /// `APIServerServicePort`, the `kubernetes` Service's port (443).
    pub kubernetes_service_port: Option<i64>,
    pub endpoint_reconciler_interval: Option<String>,
    pub lease_ttl: Option<String>,
    pub repair_interval: Option<String>,
    pub apiservers: Vec<ApiserverFile>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ApiserverFile {
    pub name: String,
    pub advertise_address: String,
    #[serde(default, deserialize_with = "present")]
    pub start_at: Option<Option<String>>,
    pub startup_delay: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct InitialFile {
    #[serde(default, deserialize_with = "super::initial::services_without_empty_ips")]
    pub services: Vec<Service>,
    #[serde(default)]
    pub pods: Vec<Pod>,
    #[serde(default)]
    pub endpoints: Vec<Endpoints>,
    #[serde(default)]
    pub namespaces: Vec<String>,
    #[serde(default)]
    pub leases: Vec<LeaseFile>,
    pub cluster_ip_allocation: Option<AllocationFile<String>>,
    pub secondary_cluster_ip_allocation: Option<AllocationFile<String>>,
    pub node_port_allocation: Option<AllocationFile<i64>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LeaseFile {
    pub ip: String,
    pub ttl_left: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AllocationFile<T> {
    pub range: String,
    #[serde(default)]
    pub allocated: Vec<T>,
}
