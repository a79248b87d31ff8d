//! The state snapshot of the scenario contract (§3, `docs/scenario.md`): what etcd holds and how
//! the apiservers are. Types only; `World::state` fills them.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::k8s::api::KUBERNETES;
use crate::k8s::api::{EndpointSlice, Endpoints, IpAddress, Pod, Service, ServiceCidr};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    pub time_ms: u64,
    pub etcd: EtcdState,
    pub apiservers: Vec<ApiserverState>,
    pub leases: Vec<LeaseState>,
    pub namespaces: Vec<String>,
    /// Shared between the states of one timeline while no Service changed (a seek or a frame
    /// then copies none of them).
    pub services: Rc<Vec<Service>>,
    pub endpoints: Vec<Endpoints>,
    pub pods: Vec<Pod>,
    pub allocations: Allocations,
    /// §6: ServiceCIDR objects by name (`[]` under 1.20 and 1.29).
    pub service_cidrs: Vec<ServiceCidr>,
    /// §6: IPAddress objects by address, IPv4 first (`[]` under 1.20 and 1.29).
    pub ip_addresses: Vec<IpAddress>,
    /// §6: EndpointSlices by namespace and name.
    pub endpoint_slices: Vec<EndpointSlice>,
}

impl State {
    /// The `default/kubernetes` Endpoints, if etcd holds it.
    pub fn kubernetes_endpoints(&self) -> Option<&Endpoints> {
        let kubernetes = |e: &&Endpoints| e.namespace == "default" && e.name == KUBERNETES;
        self.endpoints.iter().find(kubernetes)
    }

    /// The `default/kubernetes` EndpointSlice, if etcd holds it.
    pub fn kubernetes_slice(&self) -> Option<&EndpointSlice> {
        let kubernetes = |e: &&EndpointSlice| e.namespace == "default" && e.name == KUBERNETES;
        self.endpoint_slices.iter().find(kubernetes)
    }

    /// The addresses those Endpoints list, in their order.
    pub fn kubernetes_addresses(&self) -> impl Iterator<Item = &String> {
        let subsets = self.kubernetes_endpoints().into_iter().flat_map(|e| &e.subsets);
        subsets.flat_map(|s| &s.addresses)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EtcdState {
    pub available: bool,
    pub revision: u64,
}

string_enum! {
    /// An apiserver as the contract reports it: its process status, or `isolated` while a
    /// live process cannot reach etcd.
    pub enum ApiserverStatus {
        Starting = "starting",
        Running = "running",
        Stopping = "stopping",
        Stopped = "stopped",
        Crashed = "crashed",
        Isolated = "isolated",
    }
}

impl ApiserverStatus {
    /// A process is there (it may still be starting or shutting down).
    pub fn is_up(self) -> bool {
        !matches!(self, ApiserverStatus::Stopped | ApiserverStatus::Crashed)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApiserverState {
    pub name: String,
    pub advertise_address: String,
    pub status: ApiserverStatus,
    pub ready: bool,
    pub repair: RepairState,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RepairState {
    pub cluster_ip_leaks: BTreeMap<String, i32>,
    pub node_port_leaks: BTreeMap<String, i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaseState {
    pub key: String,
    pub ip: String,
    pub ttl_left_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Allocations {
    pub cluster_ip: Vec<AllocationState<String>>,
    pub node_port: AllocationState<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllocationState<T> {
    pub range: String,
    pub size: usize,
    pub static_band: usize,
    pub used: i64,
    pub allocated: Vec<T>,
}
