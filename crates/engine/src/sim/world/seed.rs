//! A scenario's `initial` objects, written to etcd at time 0 before anything runs.

use std::net::IpAddr;

use super::{Task, World};
use crate::contract::scenario::{PresetAllocation, Scenario};
use crate::k8s::etcd::{self, Value};
use crate::k8s::ipallocator::{parse_cidr, Range};
use crate::k8s::portallocator::{PortAllocator, PortRange};

impl World {
    pub(super) fn seed(&mut self, s: &Scenario) {
        let init = &s.initial;
        for ns in &init.namespaces {
            self.etcd.put(&etcd::namespace_key(ns), Value::Namespace, None, 0);
        }
        for svc in &init.services {
            let mut svc = svc.clone();
            if svc.cluster_ips.is_empty() && !svc.cluster_ip.is_empty() {
                svc.cluster_ips = vec![svc.cluster_ip.clone()];
            }
            if svc.cluster_ip.is_empty() {
                svc.cluster_ip = svc.cluster_ips.first().cloned().unwrap_or_default();
            }
            let key = etcd::service_key(&svc.namespace, &svc.name);
            self.etcd.put(&key, Value::Service(svc), None, 0);
        }
        for cidr in &init.service_cidrs {
            let key = etcd::service_cidr_key(&cidr.name);
            self.etcd.put(&key, Value::ServiceCidr(cidr.clone()), None, 0);
        }
        for addr in &init.ip_addresses {
            let key = etcd::ip_address_key(&addr.ip);
            self.etcd.put(&key, Value::IpAddress(addr.clone()), None, 0);
        }
        for pod in &init.pods {
            let key = etcd::pod_key(&pod.namespace, &pod.name);
            self.etcd.put(&key, Value::Pod(pod.clone()), None, 0);
        }
        for ep in &init.endpoints {
            let key = etcd::endpoints_key(&ep.namespace, &ep.name);
            self.etcd.put(&key, Value::Endpoints(ep.clone()), None, 0);
        }
        for (ip, ttl) in &init.leases {
            let key = etcd::lease_key(ip);
            let lease = Value::Lease { ip: ip.clone(), generation: 1 };
            let rev = self.etcd.put(&key, lease, Some(*ttl), 0);
            self.queue.push(*ttl, "", Task::LeaseExpiry { key, rev });
        }
        let ranges = [
            (etcd::RANGE_SERVICE_IPS, &init.cluster_ip_allocation),
            (etcd::RANGE_SECONDARY_SERVICE_IPS, &init.secondary_cluster_ip_allocation),
        ];
        for (key, preset) in ranges {
            if let Some(p) = preset {
                let snapshot = preset_ips(p, s).snapshot();
                self.etcd.put(key, Value::Range(snapshot), None, 0);
            }
        }
        if let Some(p) = &init.node_port_allocation {
            let range = PortRange::parse(&p.range).expect("validated");
            let mut a = PortAllocator::new(range, s.behavior);
            for port in &p.allocated {
                // A port outside the range cannot be encoded; the file said so, so skip it.
                let _ = a.allocate(*port);
            }
            self.etcd.put(etcd::RANGE_NODE_PORTS, Value::Range(a.snapshot()), None, 0);
        }
    }
}

fn preset_ips(p: &PresetAllocation<IpAddr>, s: &Scenario) -> Range {
    let cidr = parse_cidr(&p.range).expect("validated");
    let mut r = Range::new(cidr, s.behavior);
    for ip in &p.allocated {
        // Addresses outside the range cannot be encoded; the file said so, so skip them.
        let _ = r.allocate(*ip);
    }
    r
}
