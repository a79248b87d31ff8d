//! The contract's state snapshot, read out of a world.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::World;
use crate::contract::state::{
    AllocationState, Allocations, ApiserverState, ApiserverStatus, EtcdState, LeaseState,
    RepairState, State,
};
use crate::k8s::api::Service;
use crate::k8s::controlplane::{Apiserver, Status};
use crate::k8s::ipallocator::family_of;

impl World {
    /// The state now, as the contract reports it.
    pub fn state(&self) -> State {
        self.state_sharing(&mut None)
    }

    /// The state, with the Services of `shared` when etcd's Services are still those of its
    /// revision (else read anew and kept there): the caller keeps `shared` for one line of
    /// history, where a revision names one set of Services.
    pub(crate) fn state_sharing(&self, shared: &mut Option<(u64, Rc<Vec<Service>>)>) -> State {
        let now = self.now;
        let etcd = &self.etcd;
        let leases = etcd
            .leases(now)
            .into_iter()
            .map(|(key, ip, expires)| LeaseState {
                key,
                ip,
                ttl_left_ms: expires.map_or(0, |t| t.saturating_sub(now)),
            })
            .collect();
        State {
            time_ms: now,
            etcd: EtcdState { available: self.etcd_available(), revision: etcd.revision() },
            apiservers: self.apiservers().map(|a| self.apiserver_state(a)).collect(),
            leases,
            namespaces: etcd.namespaces(now),
            services: self.services_sharing(shared),
            endpoints: etcd.endpoints(now).into_iter().cloned().collect(),
            pods: etcd.pods(now).into_iter().cloned().collect(),
            allocations: self.allocations(),
            service_cidrs: etcd.service_cidrs(now).into_iter().cloned().collect(),
            ip_addresses: self.ip_addresses(),
            endpoint_slices: etcd.endpoint_slices(now).into_iter().cloned().collect(),
        }
    }

    fn services_sharing(&self, shared: &mut Option<(u64, Rc<Vec<Service>>)>) -> Rc<Vec<Service>> {
        let revision = self.etcd.services_revision();
        match shared {
            Some((rev, services)) if *rev == revision => services.clone(),
            _ => {
                let services = Rc::new(self.etcd.services(self.now).into_iter().cloned().collect());
                *shared = Some((revision, Rc::clone(&services)));
                services
            }
        }
    }

    /// How the contract reports an apiserver's status.
    pub fn status(&self, a: &Apiserver) -> ApiserverStatus {
        match a.status {
            Status::Running | Status::Stopping | Status::Starting if a.isolated_until.is_some() => {
                ApiserverStatus::Isolated
            }
            Status::Starting => ApiserverStatus::Starting,
            Status::Running => ApiserverStatus::Running,
            Status::Stopping => ApiserverStatus::Stopping,
            Status::Stopped => ApiserverStatus::Stopped,
            Status::Crashed => ApiserverStatus::Crashed,
        }
    }

    fn apiserver_state(&self, a: &Apiserver) -> ApiserverState {
        let mut cluster_ip_leaks = BTreeMap::new();
        for net in self.cfg.service_ip_ranges.networks() {
            if let Some(leaks) = a.ip_repair.leaks(family_of(&net)) {
                cluster_ip_leaks.extend(leaks.iter().map(|(ip, n)| (ip.to_string(), *n)));
            }
        }
        let node_port_leaks =
            a.port_repair.leaks().iter().map(|(p, n)| (p.to_string(), *n)).collect();
        ApiserverState {
            name: a.spec.name.clone(),
            advertise_address: a.ip(),
            status: self.status(a),
            ready: self.ready(&a.spec.name),
            repair: RepairState { cluster_ip_leaks, node_port_leaks },
        }
    }

    /// IPAddress objects by address, IPv4 before IPv6 (their keys sort as strings).
    fn ip_addresses(&self) -> Vec<crate::k8s::api::IpAddress> {
        let mut list: Vec<_> = self.etcd.ip_addresses(self.now).into_iter().cloned().collect();
        list.sort_by_key(|a| a.address());
        list
    }

    fn allocations(&self) -> Allocations {
        // From 1.34 no ClusterIP bitmap exists at all.
        let bitmaps = if self.behavior.cluster_ip_bitmap() {
            self.cfg.service_ip_ranges.networks().len()
        } else {
            0
        };
        let cluster_ip = (0..bitmaps)
            .filter_map(|i| self.stored_cluster_ips(i))
            .map(|range| AllocationState {
                range: range.cidr().to_string(),
                size: range.size(),
                static_band: range.static_band(),
                used: range.used(),
                allocated: range.iter().map(|ip| ip.to_string()).collect(),
            })
            .collect();
        let ports = self.stored_node_ports();
        let node_port = AllocationState {
            range: ports.range().to_string(),
            size: ports.size(),
            static_band: ports.static_band(),
            used: ports.used(),
            allocated: ports.iter().collect(),
        };
        Allocations { cluster_ip, node_port }
    }
}
