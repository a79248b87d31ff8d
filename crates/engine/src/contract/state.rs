//! The state snapshot of the scenario contract (§3, `docs/scenario.md`): what etcd holds and how
//! the apiservers are. Types only; `World::state` fills them.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::k8s::api::KUBERNETES;
use crate::k8s::api::{EndpointSlice, Endpoints, IpAddress, Pod, Service, ServiceCidr};

/// The state at one instant (`docs/scenario.md` §3): what etcd holds and how the apiservers are.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The instant (virtual ms).
    pub time_ms: u64,
    /// etcd's availability and revision.
    pub etcd: EtcdState,
    /// The apiservers, by name.
    pub apiservers: Vec<ApiserverState>,
    /// The master leases in etcd, by key.
    pub leases: Vec<LeaseState>,
    /// The namespaces, by name.
    pub namespaces: Vec<String>,
    /// Shared between the states of one timeline while no Service changed (a seek or a frame
    /// then copies none of them).
    pub services: Rc<Vec<Service>>,
    /// The Endpoints, by namespace and name.
    pub endpoints: Vec<Endpoints>,
    /// The Pods, by namespace and name.
    pub pods: Vec<Pod>,
    /// The allocation objects etcd stores.
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

/// etcd as the state reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EtcdState {
    /// Whether apiservers can reach it (false exactly while an `etcd_outage` lasts).
    pub available: bool,
    /// Its revision.
    pub revision: u64,
}

string_enum! {
    /// An apiserver as the contract reports it: its process status, or `isolated` while a
    /// live process cannot reach etcd.
    pub enum ApiserverStatus {
        /// Started, within its `startup_delay`.
        Starting = "starting",
        /// Serving.
        Running = "running",
        /// Shutting down gracefully: its pre-shutdown hook has not completed yet.
        Stopping = "stopping",
        /// Shut down.
        Stopped = "stopped",
        /// Died.
        Crashed = "crashed",
        /// Up, but cut off from etcd.
        Isolated = "isolated",
    }
}

impl ApiserverStatus {
    /// A process is there (it may still be starting or shutting down).
    pub fn is_up(self) -> bool {
        !matches!(self, ApiserverStatus::Stopped | ApiserverStatus::Crashed)
    }
}

/// One apiserver as the state reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApiserverState {
    /// Its name.
    pub name: String,
    /// The IP its lease and endpoint carry.
    pub advertise_address: String,
    /// Its status.
    pub status: ApiserverStatus,
    /// Whether its readyz passes.
    pub ready: bool,
    /// Its repair loops' leak counters.
    pub repair: RepairState,
}

/// An apiserver's leak counters, as upstream keeps them: for each item stored for no Service,
/// how many more repair runs keep it (0: the next one frees it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RepairState {
    /// By IP.
    pub cluster_ip_leaks: BTreeMap<String, i32>,
    /// By port number, as a string.
    pub node_port_leaks: BTreeMap<String, i32>,
}

/// A master lease in etcd.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeaseState {
    /// Its key (`/masterleases/<ip>`).
    pub key: String,
    /// The apiserver's address it holds.
    pub ip: String,
    /// How long it has left (ms).
    pub ttl_left_ms: u64,
}

/// The allocation objects etcd stores (the RangeAllocations).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Allocations {
    /// One per family, the primary first (none under 1.35).
    pub cluster_ip: Vec<AllocationState<String>>,
    /// The NodePort bitmap.
    pub node_port: AllocationState<i32>,
}

/// One stored allocation object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllocationState<T> {
    /// Its range, as written.
    pub range: String,
    /// How many usable items it has.
    pub size: usize,
    /// The size of its lower (static) band; 0 under 1.20.
    pub static_band: usize,
    /// How many items are allocated.
    pub used: i64,
    /// The allocated items, ascending.
    pub allocated: Vec<T>,
}
