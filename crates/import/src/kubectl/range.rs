//! The service-cluster-ip-range guessed when the input does not say it.
//!
//! The flag is not visible through the API. A guess for a range whose first usable address
//! (network + 1) is known (the `kubernetes` Service's ClusterIP of that family) takes the
//! ClusterIPs that any range starting there could hold (up to 1.33 the flag allows no more than a
//! /12 or a /108, and the guess keeps that ceiling for every release: the others are out of
//! range, a finding, not a reason to widen); it prefers the smallest distribution default that
//! holds them all, else the smallest aligned range, never one with fewer usable addresses than
//! the cluster has ClusterIPs of that family.

use std::collections::BTreeSet;
use std::net::IpAddr;

use ipnet::IpNet;

use super::note::RangeGuess;
use super::{service_ips, Cluster};

/// The service-cluster-ip-range defaults of the common distributions. (GKE: the range given
/// Autopilot clusters from 1.27 and Standard ones from 1.29; older GKE ranges are the
/// project's own.)
pub(crate) const DEFAULTS: &[(&str, &[&str])] = &[
    ("10.96.0.0/16", &["kind"]),
    ("10.96.0.0/12", &["kubeadm", "minikube"]),
    ("10.43.0.0/16", &["k3s"]),
    ("10.100.0.0/16", &["EKS"]),
    ("172.20.0.0/16", &["EKS"]),
    ("10.0.0.0/16", &["AKS"]),
    ("172.30.0.0/16", &["OpenShift"]),
    ("34.118.224.0/20", &["GKE"]),
    ("fd00:10:96::/112", &["kind"]),
];

/// The range of the import and, when guessed, how: `None` when the ServiceCIDR `kubernetes`
/// gives it.
pub(super) struct Guess {
    pub range: String,
    pub guessed: Option<Vec<RangeGuess>>,
}

/// The ServiceCIDR `kubernetes`'s CIDRs; else a range for each ClusterIP of the `kubernetes`
/// Service, its first usable address (see the module doc), plus a secondary range when other
/// Services have ClusterIPs of the other family.
pub(super) fn default_range(cluster: &Cluster) -> Result<Guess, String> {
    if let Some(c) = cluster.service_cidrs.iter().find(|c| c.name == "kubernetes") {
        if !c.cidrs.is_empty() {
            return Ok(Guess { range: c.cidrs.join(","), guessed: None });
        }
    }
    let kubernetes = cluster
        .services
        .iter()
        .find(|s| s.is_kubernetes())
        .ok_or("service_cluster_ip_range: no ServiceCIDR `kubernetes` and no Service default/kubernetes to guess it from: give it (--service-cluster-ip-range)")?;
    let all: BTreeSet<IpAddr> = cluster.services.iter().flat_map(service_ips).collect();
    let family =
        |v4: bool| -> Vec<IpAddr> { all.iter().copied().filter(|ip| ip.is_ipv4() == v4).collect() };
    let firsts = service_ips(kubernetes);
    if firsts.is_empty() {
        return Err("service_cluster_ip_range: the Service default/kubernetes has no ClusterIP to guess it from: give it (--service-cluster-ip-range)".into());
    }
    let mut guesses = firsts
        .iter()
        .map(|first| primary(*first, &family(first.is_ipv4())))
        .collect::<Result<Vec<_>, _>>()?;
    // A dual-stack cluster: the `kubernetes` Service is single-stack, the other Services tell
    // the secondary range, whose first usable address is unknown.
    if let [primary] = firsts[..] {
        let others = family(!primary.is_ipv4());
        if !others.is_empty() {
            guesses.push(secondary(&others)?);
        }
    }
    Ok(Guess {
        range: guesses.iter().map(|g| g.range.as_str()).collect::<Vec<_>>().join(","),
        guessed: Some(guesses),
    })
}

/// The range whose first usable address (network + 1) is `first`, for the distinct ClusterIPs
/// `family` of its family.
fn primary(first: IpAddr, family: &[IpAddr]) -> Result<RangeGuess, String> {
    let network = sub(first, 1);
    // Aligned on the network, widest first: a /12 (a /108) at most, 8 addresses at least.
    let aligned: Vec<IpNet> = (max_len(first)..=bits(first) - 3)
        .filter_map(|len| IpNet::new(network, len).ok())
        .filter(|n| n.network() == network)
        .collect();
    let Some(widest) = aligned.first().copied() else {
        return Err(format!("service_cluster_ip_range: the Service default/kubernetes's ClusterIP {first} is the first usable address of no range: give it (--service-cluster-ip-range)"));
    };
    let holdable: Vec<IpAddr> = family.iter().copied().filter(|ip| usable(&widest, ip)).collect();
    // The cluster holds all its ClusterIPs at once: no range of fewer usable addresses.
    let least = family.len() as u128;
    let fits = |net: &IpNet| holdable.iter().all(|ip| usable(net, ip)) && capacity(net) >= least;
    if let Some((net, who)) = smallest_default(|net| net.network() == network && fits(net)) {
        return Ok(guessed(net, who, first));
    }
    // At least a /24 (a /112) unless the network is aligned on none: then the flag gave a
    // smaller range.
    let large: Vec<IpNet> =
        aligned.iter().copied().filter(|n| n.prefix_len() <= floor(first)).collect();
    let aligned = if large.is_empty() { aligned } else { large };
    let net = aligned.iter().rev().find(|n| fits(n)).unwrap_or(&widest);
    Ok(guessed(*net, &[], first))
}

/// The secondary range: the smallest distribution default that holds every ClusterIP of its
/// family, else the primary guess from the widest range the flag allows that holds the lowest.
fn secondary(family: &[IpAddr]) -> Result<RangeGuess, String> {
    let least = family.len() as u128;
    match smallest_default(|net| family.iter().all(|ip| usable(net, ip)) && capacity(net) >= least)
    {
        Some((net, who)) => Ok(guessed(net, who, family[0])),
        None => {
            let widest = IpNet::new(family[0], max_len(family[0]))
                .expect("a prefix length in range")
                .trunc();
            primary(add(widest.network(), 1), family)
        }
    }
}

fn guessed(net: IpNet, who: &[&str], first: IpAddr) -> RangeGuess {
    RangeGuess {
        range: net.to_string(),
        defaults_of: who.iter().map(|w| w.to_string()).collect(),
        floor: floor(first).into(),
    }
}

/// The smallest distribution default that `fits`, and whose it is.
fn smallest_default(fits: impl Fn(&IpNet) -> bool) -> Option<(IpNet, &'static [&'static str])> {
    DEFAULTS
        .iter()
        .filter_map(|&(range, who)| Some((range.parse::<IpNet>().ok()?, who)))
        .filter(|(net, _)| fits(net))
        .max_by_key(|(net, _)| net.prefix_len())
}

/// Whether the allocator could give `ip` from `net`: not its network address, nor an IPv4
/// range's broadcast address.
fn usable(net: &IpNet, ip: &IpAddr) -> bool {
    net.contains(ip) && *ip != net.network() && !(ip.is_ipv4() && *ip == net.broadcast())
}

/// How many addresses the allocator gives from `net` (the ones [`usable`] says).
fn capacity(net: &IpNet) -> u128 {
    let size = 1u128 << (bits(net.network()) - net.prefix_len()).min(127);
    size - if net.network().is_ipv4() { 2 } else { 1 }
}

fn bits(ip: IpAddr) -> u8 {
    if ip.is_ipv4() {
        32
    } else {
        128
    }
}

/// The shortest prefix the flag allows a bitmap of.
fn max_len(ip: IpAddr) -> u8 {
    if ip.is_ipv4() {
        12
    } else {
        108
    }
}

/// The longest prefix a guess gives: no cluster runs on fewer Service addresses than a /24
/// (a /112 for IPv6) holds, however few Services it has.
fn floor(ip: IpAddr) -> u8 {
    if ip.is_ipv4() {
        24
    } else {
        112
    }
}

fn sub(ip: IpAddr, n: u8) -> IpAddr {
    match ip {
        IpAddr::V4(a) => IpAddr::V4(u32::from(a).wrapping_sub(n.into()).into()),
        IpAddr::V6(a) => IpAddr::V6(u128::from(a).wrapping_sub(n.into()).into()),
    }
}

fn add(ip: IpAddr, n: u8) -> IpAddr {
    match ip {
        IpAddr::V4(a) => IpAddr::V4(u32::from(a).wrapping_add(n.into()).into()),
        IpAddr::V6(a) => IpAddr::V6(u128::from(a).wrapping_add(n.into()).into()),
    }
}
