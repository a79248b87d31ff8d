//! What an action aims at, drawn from the world as it is: ClusterIPs (in the range, outside it,
//! in another ServiceCIDR), NodePorts, ServiceCIDR prefixes, and the Services, ports and IPs
//! that exist.

use std::net::{IpAddr, Ipv4Addr};

use ipnet::IpNet;

use engine::contract::api::Service;
use engine::sim::world::World;
use k8s::api::KUBERNETES;
use k8s::ipallocator::ipaddress::CidrRange;
use k8s::repair::nodeport::collect_service_node_ports;

use super::Gen;

/// The usable address at `offset` (network + 1 + offset), as the bitmap numbers them.
fn ip_in(net: &IpNet, offset: usize) -> IpAddr {
    CidrRange::new(*net).ip_at(offset as u128)
}

/// The usable addresses of `net` (without the network and IPv4 broadcast addresses), capped so
/// that a draw fits in `usize`.
fn usable(net: &IpNet) -> usize {
    CidrRange::new(*net).size().min(1 << 32) as usize
}

/// A random usable address of the service range, or (sometimes) one outside it; under 1.33+
/// sometimes one of another ServiceCIDR.
pub(super) fn random_cluster_ip(g: &mut Gen, world: &World) -> String {
    let net = world.config().service_ip_ranges.primary;
    let extra = extra_v4_cidrs(world);
    match g.below(10) {
        0 => net.network().to_string(),  // the network address: not usable
        1 => "192.0.2.77".to_string(),   // outside the range
        2 => ip_in(&net, 0).to_string(), // the kubernetes Service IP
        3 if !extra.is_empty() => {
            let other = *g.pick(&extra);
            ip_in(&other, g.below(usable(&other).max(1))).to_string()
        }
        _ => ip_in(&net, g.below(usable(&net))).to_string(),
    }
}

/// The IPv4 prefixes of the ServiceCIDRs other than the service range itself (1.33+).
fn extra_v4_cidrs(world: &World) -> Vec<IpNet> {
    let primary = world.config().service_ip_ranges.primary;
    let mut nets: Vec<IpNet> = world
        .etcd()
        .service_cidrs(world.now())
        .iter()
        .flat_map(|c| c.prefixes())
        .filter(|n| matches!(n, IpNet::V4(_)) && *n != primary && usable(n) > 0)
        .collect();
    nets.dedup();
    nets
}

/// The `cidrs` of a ServiceCIDR to create: mostly valid (a supernet of the service range that
/// covers it, its sibling, a half of it, the same prefix again, a fresh small block, IPv6 or
/// dual-stack), sometimes invalid (the API must refuse it with its validation text).
pub(super) fn gen_service_cidr_cidrs(g: &mut Gen, world: &World) -> Vec<String> {
    let IpNet::V4(p) = world.config().service_ip_ranges.primary else {
        unreachable!("the swarm's clusters are IPv4")
    };
    let len = p.prefix_len();
    let at = |addr: u32, len: u8| -> String {
        ipnet::Ipv4Net::new(Ipv4Addr::from(addr), len).expect("prefix length").trunc().to_string()
    };
    let base = u32::from(p.network());
    let size = 1u64 << (32 - len);
    let kind = g.weighted(&[
        ("superset", 3),
        ("sibling", 3),
        ("half", 2),
        ("same", 1),
        ("fresh", 3),
        ("ipv6", 1),
        ("dual", 1),
        ("invalid", 3),
    ]);
    match kind {
        "superset" => vec![at(base, len.saturating_sub(1 + g.below(3) as u8).max(8))],
        "sibling" => vec![at(base.wrapping_add(size as u32), len)],
        "half" if len < 30 => {
            let upper = if g.chance(50) { size as u32 / 2 } else { 0 };
            vec![at(base + upper, len + 1)]
        }
        "half" | "same" => vec![p.to_string()],
        "fresh" => {
            let len = *g.pick(&[24u8, 26, 28, 29]);
            vec![at(u32::from(Ipv4Addr::new(10, 200, g.below(4) as u8, 0)), len)]
        }
        "ipv6" => vec![format!("fd00:{}::/112", 1 + g.below(3))],
        "dual" => vec!["10.201.0.0/26".to_string(), "fd00:9::/120".to_string()],
        _ => match g.below(5) {
            0 => vec!["10.0.0.0/33".to_string()],
            1 => vec!["not-a-cidr".to_string()],
            2 => vec![],
            3 => vec!["10.1.0.0/24".to_string(), "10.2.0.0/24".to_string()],
            _ => {
                vec!["10.1.0.0/24".to_string(), "fd00::/64".to_string(), "10.3.0.0/24".to_string()]
            }
        },
    }
}

/// A random port of the NodePort range, or (sometimes) the one just below it.
pub(super) fn random_node_port(g: &mut Gen, world: &World) -> i32 {
    let r = world.config().node_ports;
    if g.chance(8) {
        return r.base - 1; // out of range
    }
    r.base + g.below(r.size as usize) as i32
}

/// The Services other than `default/kubernetes`.
pub(super) fn user_services(world: &World) -> Vec<Service> {
    world
        .etcd()
        .services(world.now())
        .into_iter()
        .filter(|s| !(s.namespace == "default" && s.name == KUBERNETES))
        .cloned()
        .collect()
}

/// Every NodePort every Service holds.
pub(super) fn all_node_ports(world: &World) -> Vec<i32> {
    world.etcd().services(world.now()).iter().flat_map(|s| collect_service_node_ports(s)).collect()
}

/// The ClusterIP of every Service that has one set.
pub(super) fn service_ips(world: &World) -> Vec<String> {
    world
        .etcd()
        .services(world.now())
        .iter()
        .filter(|s| s.is_ip_set())
        .map(|s| s.cluster_ip.clone())
        .collect()
}

/// A usable address of the range (leak corruptions need one that parses and is in range to
/// succeed; sometimes the kubernetes Service IP itself).
pub(super) fn leakable_ip(g: &mut Gen, world: &World) -> String {
    let net = world.config().service_ip_ranges.primary;
    if g.chance(15) {
        ip_in(&net, 0).to_string()
    } else {
        ip_in(&net, g.below(usable(&net))).to_string()
    }
}
