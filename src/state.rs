//! The state snapshot of the scenario contract (§3): what etcd holds and how the apiservers are.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::api::{Endpoints, Pod, Service};
use crate::controlplane::Status;
use crate::world::World;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    pub time_ms: u64,
    pub etcd: EtcdState,
    pub apiservers: Vec<ApiserverState>,
    pub leases: Vec<LeaseState>,
    pub namespaces: Vec<String>,
    pub services: Vec<Service>,
    pub endpoints: Vec<Endpoints>,
    pub pods: Vec<Pod>,
    pub allocations: Allocations,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EtcdState {
    pub available: bool,
    pub revision: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ApiserverState {
    pub name: String,
    pub advertise_address: String,
    /// `starting`, `running`, `stopping`, `stopped`, `crashed` or `isolated`.
    pub status: String,
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

fn status_name(s: Status, isolated: bool) -> &'static str {
    match s {
        Status::Running | Status::Stopping | Status::Starting if isolated => "isolated",
        Status::Starting => "starting",
        Status::Running => "running",
        Status::Stopping => "stopping",
        Status::Stopped => "stopped",
        Status::Crashed => "crashed",
    }
}

impl State {
    pub fn of(w: &World) -> State {
        let now = w.now();
        let etcd = w.etcd();
        let cfg = w.config();
        let apiservers = w
            .apiservers()
            .map(|a| {
                let mut ip_leaks = BTreeMap::new();
                for net in cfg.service_ip_ranges.networks() {
                    if let Some(leaks) = a.ip_repair.leaks(crate::ipallocator::family_of(&net)) {
                        ip_leaks.extend(leaks.iter().map(|(ip, n)| (ip.to_string(), *n)));
                    }
                }
                ApiserverState {
                    name: a.spec.name.clone(),
                    advertise_address: a.ip(),
                    status: status_name(a.status, a.isolated_until.is_some()).to_string(),
                    ready: w.ready(&a.spec.name),
                    repair: RepairState {
                        cluster_ip_leaks: ip_leaks,
                        node_port_leaks: a
                            .port_repair
                            .leaks()
                            .iter()
                            .map(|(p, n)| (p.to_string(), *n))
                            .collect(),
                    },
                }
            })
            .collect();
        let leases = etcd
            .leases(now)
            .into_iter()
            .map(|(key, ip, expires)| LeaseState {
                key,
                ip,
                ttl_left_ms: expires.map_or(0, |t| t.saturating_sub(now)),
            })
            .collect();
        let cluster_ip = (0..cfg.service_ip_ranges.networks().len())
            .filter_map(|i| w.stored_cluster_ips(i))
            .map(|range| AllocationState {
                range: range.cidr().to_string(),
                size: range.size(),
                static_band: range.static_band(),
                used: range.used(),
                allocated: range.iter().map(|ip| ip.to_string()).collect(),
            })
            .collect();
        let ports = w.stored_node_ports();
        let node_port = AllocationState {
            range: ports.range().to_string(),
            size: ports.size(),
            static_band: ports.static_band(),
            used: ports.used(),
            allocated: ports.iter().collect(),
        };
        State {
            time_ms: now,
            etcd: EtcdState {
                available: w.etcd_available(),
                revision: etcd.revision(),
            },
            apiservers,
            leases,
            namespaces: etcd.namespaces(now),
            services: etcd.services(now).into_iter().cloned().collect(),
            endpoints: etcd.endpoints(now).into_iter().cloned().collect(),
            pods: etcd.pods(now).into_iter().cloned().collect(),
            allocations: Allocations {
                cluster_ip,
                node_port,
            },
        }
    }
}
