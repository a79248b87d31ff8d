//! What etcd holds, decoded for the invariants: the allocation objects (`Stored`), who holds
//! what according to the Service objects (`Owners`), the §6 objects of 1.33 and 1.35 (`Ipam`)
//! and the `default/kubernetes` Endpoints. Each is read again only when its keys were written.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::rc::Rc;

use engine::contract::api::{Endpoints, IpAddress, Service, ServiceCidr};
use engine::sim::world::World;
use k8s::api::KUBERNETES;
use k8s::etcd;
use k8s::ipallocator::ipaddress::CidrRange;
use k8s::ipallocator::Range;
use k8s::portallocator::PortAllocator;
use k8s::repair::nodeport::collect_service_node_ports;
use k8s::repair::repairip::{ip_address_verdict, IpAddressVerdict};

/// The allocation objects as etcd holds them, decoded, with the revision they were read at.
/// Shared (`Rc`) so that the state before a task and after it cost nothing when unchanged.
#[derive(Clone)]
pub(crate) struct Stored {
    pub(crate) ip_rev: Option<u64>,
    pub(crate) ips: Rc<Range>,
    pub(crate) port_rev: Option<u64>,
    pub(crate) ports: Rc<PortAllocator>,
}

impl Stored {
    pub(crate) fn read(world: &World, cache: Option<&Stored>) -> Stored {
        let now = world.now();
        let cfg = world.config();
        let behavior = world.behavior();
        let ip_obj = world.etcd().range(etcd::RANGE_SERVICE_IPS, now);
        let port_obj = world.etcd().range(etcd::RANGE_NODE_PORTS, now);
        let ip_rev = ip_obj.map(|(_, rev)| rev);
        let port_rev = port_obj.map(|(_, rev)| rev);
        let ips = match (cache, ip_obj) {
            (Some(c), _) if c.ip_rev == ip_rev => c.ips.clone(),
            (_, Some((snap, _))) => Rc::new(
                Range::from_snapshot(snap, behavior).expect("stored service IP range decodes"),
            ),
            (_, None) => Rc::new(Range::new(cfg.service_ip_ranges.primary, behavior)),
        };
        let ports = match (cache, port_obj) {
            (Some(c), _) if c.port_rev == port_rev => c.ports.clone(),
            (_, Some((snap, _))) => Rc::new(
                PortAllocator::from_snapshot(snap, behavior)
                    .expect("stored node port range decodes"),
            ),
            (_, None) => Rc::new(PortAllocator::new(cfg.node_ports, behavior)),
        };
        Stored { ip_rev, ips, port_rev, ports }
    }
}

/// Who holds what according to the Service objects: usable ClusterIPs and in-range NodePorts,
/// each with every holder (a port listed twice by one Service counts twice, as repair does).
#[derive(Default)]
pub(crate) struct Owners {
    /// Identifies the set of Service objects it was computed from (their mod revisions).
    pub(crate) fingerprint: Vec<u64>,
    pub(crate) ips: BTreeMap<IpAddr, Vec<String>>,
    pub(crate) ports: BTreeMap<i32, Vec<String>>,
    /// Services with a ClusterIP / NodePort outside the configured range.
    pub(crate) ips_out_of_range: Vec<String>,
    pub(crate) ports_out_of_range: Vec<String>,
}

impl Owners {
    pub(crate) fn fingerprint(world: &World) -> Vec<u64> {
        world.etcd().list(etcd::SERVICES, world.now()).map(|(_, e)| e.mod_revision).collect()
    }

    pub(crate) fn of(
        world: &World,
        fingerprint: Vec<u64>,
        range: &Range,
        ports: &PortAllocator,
    ) -> Owners {
        let mut o = Owners { fingerprint, ..Owners::default() };
        for svc in world.etcd().services(world.now()) {
            if svc.is_ip_set() {
                for raw in svc.cluster_ips() {
                    if let Ok(ip) = raw.parse::<IpAddr>() {
                        if range.offset_of(ip).is_some() {
                            o.ips.entry(ip).or_default().push(svc.key());
                        } else {
                            o.ips_out_of_range.push(svc.key());
                        }
                    }
                }
            }
            for port in collect_service_node_ports(svc) {
                if ports.offset_of(port).is_some() {
                    o.ports.entry(port).or_default().push(svc.key());
                } else {
                    o.ports_out_of_range.push(svc.key());
                }
            }
        }
        o
    }

    pub(crate) fn duplicates(&self) -> Vec<String> {
        let ips = self
            .ips
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .map(|(ip, v)| format!("IP {ip} held by {v:?}"));
        let ports = self
            .ports
            .iter()
            .filter(|(_, v)| v.len() > 1)
            .map(|(p, v)| format!("port {p} held by {v:?}"));
        ips.chain(ports).collect()
    }
}

/// The §6 objects (1.33 and 1.35) as etcd holds them, with the Services they refer to. Shared
/// (`Rc`) and recomputed only when one of their keys was written.
#[derive(Default)]
pub(crate) struct Ipam {
    /// Identifies the IPAddresses and ServiceCIDRs it was read from (the Services by
    /// `Owners`' fingerprint).
    pub(crate) fingerprint: [u64; 4],
    pub(crate) services: BTreeMap<String, Service>,
    /// Every ClusterIP of every Service that has one set, with its holders in key order.
    pub(crate) holders: BTreeMap<IpAddr, Vec<String>>,
    pub(crate) addrs: BTreeMap<IpAddr, IpAddress>,
    pub(crate) cidrs: Vec<ServiceCidr>,
    /// Every prefix of every ServiceCIDR, parsed once, with whether its ServiceCIDR takes
    /// allocations.
    pub(crate) ranges: Vec<(CidrRange, bool)>,
}

impl Ipam {
    /// Per prefix, the number of keys and their highest mod revision: every write raises the
    /// latter (revisions only grow), every deletion without a write lowers the former.
    pub(crate) fn fingerprint(world: &World) -> [u64; 4] {
        let (etcd, now) = (world.etcd(), world.now());
        let mut f = [0; 4];
        for (i, prefix) in [etcd::IP_ADDRESSES, etcd::SERVICE_CIDRS].iter().enumerate() {
            for (_, e) in etcd.list(prefix, now) {
                f[2 * i] += 1;
                f[2 * i + 1] = f[2 * i + 1].max(e.mod_revision);
            }
        }
        f
    }

    pub(crate) fn of(world: &World, fingerprint: [u64; 4]) -> Ipam {
        let (etcd, now) = (world.etcd(), world.now());
        let mut ipam = Ipam { fingerprint, ..Ipam::default() };
        for svc in etcd.services(now) {
            if svc.is_ip_set() {
                for ip in svc.cluster_ips().iter().filter_map(|r| r.parse().ok()) {
                    ipam.holders.entry(ip).or_default().push(svc.key());
                }
            }
            ipam.services.insert(svc.key(), svc.clone());
        }
        for a in etcd.ip_addresses(now) {
            let ip = a.address().expect("IPAddresses are named by their address");
            ipam.addrs.insert(ip, a.clone());
        }
        ipam.cidrs = etcd.service_cidrs(now).into_iter().cloned().collect();
        ipam.ranges = ipam
            .cidrs
            .iter()
            .flat_map(|c| c.prefixes().into_iter().map(|n| (CidrRange::new(n), c.allocatable())))
            .collect();
        ipam
    }

    /// `ip` lies in some ServiceCIDR, terminating ones included (RepairIPAddress's "in range").
    pub(crate) fn in_any(&self, ip: IpAddr) -> bool {
        self.ranges.iter().any(|(r, _)| r.contains(ip))
    }

    /// `ip` lies in a ServiceCIDR that takes allocations (ready or unset, not being deleted).
    pub(crate) fn in_live(&self, ip: IpAddr) -> bool {
        self.ranges.iter().any(|(r, live)| *live && r.contains(ip))
    }

    pub(crate) fn has_kubernetes_cidr(&self) -> bool {
        self.cidrs.iter().any(|c| c.name == KUBERNETES)
    }

    /// The Service an IPAddress's parent reference names, if it exists (whatever its group).
    pub(crate) fn parent(&self, a: &IpAddress) -> Option<&Service> {
        self.services.get(&a.parent.key())
    }

    /// `syncIPAddress`'s verdict on `a` in this state.
    pub(crate) fn verdict(&self, a: &IpAddress) -> IpAddressVerdict {
        ip_address_verdict(a, self.parent(a))
    }

    pub(crate) fn cidr_names(&self) -> String {
        let names: Vec<String> = self
            .cidrs
            .iter()
            .map(|c| {
                let state = if c.deleting { " deleting" } else { "" };
                format!("{} {:?}{state}", c.name, c.cidrs)
            })
            .collect();
        format!("[{}]", names.join(", "))
    }
}

/// Containment as the allocators and repair loops test it (`PrefixContainsIP`: neither the
/// network address nor the IPv4 broadcast address counts).
pub(crate) fn in_cidrs<'a>(cidrs: impl Iterator<Item = &'a ServiceCidr>, ip: IpAddr) -> bool {
    cidrs.flat_map(|c| c.prefixes()).any(|net| CidrRange::new(net).contains(ip))
}

/// The Endpoints `default/kubernetes`, if etcd holds them.
pub(crate) fn kubernetes_endpoints(world: &World) -> Option<&Endpoints> {
    match world
        .etcd()
        .get(&etcd::endpoints_key("default", KUBERNETES), world.now())
        .map(|e| &e.value)
    {
        Some(etcd::Value::Endpoints(ep)) => Some(ep),
        _ => None,
    }
}

/// Every address of `ep`, ready or not.
pub(crate) fn addresses(ep: &Endpoints) -> BTreeSet<String> {
    ep.subsets
        .iter()
        .flat_map(|s| s.addresses.iter().chain(&s.not_ready_addresses))
        .cloned()
        .collect()
}
