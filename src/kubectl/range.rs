//! The service-cluster-ip-range guessed when the input does not say it.

use std::net::IpAddr;

use super::{is_kubernetes, service_ips, texts, Cluster};

/// The ServiceCIDR `kubernetes`'s CIDRs; else, for each ClusterIP of the `kubernetes` Service,
/// the smallest CIDR whose first usable address it is and that holds every ClusterIP of its
/// family, plus a secondary range when other Services have ClusterIPs of the other family (the
/// flags themselves are not visible through the API).
pub(super) fn default_range(cluster: &Cluster) -> Result<String, String> {
    if let Some(c) = cluster
        .service_cidrs
        .iter()
        .find(|c| c["name"] == "kubernetes")
    {
        let cidrs: Vec<&str> = texts(&c["cidrs"]).collect();
        if !cidrs.is_empty() {
            return Ok(cidrs.join(","));
        }
    }
    let kubernetes = cluster
        .services
        .iter()
        .find(|s| is_kubernetes(s))
        .ok_or("service_cluster_ip_range: no ServiceCIDR `kubernetes` and no Service default/kubernetes to guess it from: give it (--service-cluster-ip-range)")?;
    let all: Vec<IpAddr> = cluster.services.iter().flat_map(service_ips).collect();
    let family = |v4: bool| -> Vec<&IpAddr> { all.iter().filter(|ip| ip.is_ipv4() == v4).collect() };
    let mut firsts = service_ips(kubernetes);
    if firsts.is_empty() {
        return Err("service_cluster_ip_range: the Service default/kubernetes has no ClusterIP to guess it from: give it (--service-cluster-ip-range)".into());
    }
    // A dual-stack cluster: the `kubernetes` Service is single-stack, the other Services tell
    // the secondary range. Its first address is unknown: the guess starts at the widest range
    // the flag allows that holds the family's lowest ClusterIP.
    if let [primary] = firsts[..] {
        if let Some(lowest) = family(!primary.is_ipv4()).into_iter().min() {
            firsts.push(widest_network(*lowest));
        }
    }
    let ranges: Vec<String> = firsts
        .into_iter()
        .map(|first| smallest_range(first, &family(first.is_ipv4())))
        .collect();
    Ok(ranges.join(","))
}

/// The first address of the widest range the flag allows (/12, /108) that holds `ip`.
fn widest_network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(a) => IpAddr::V4((u32::from(a) & !((1 << 20) - 1) | 1).into()),
        IpAddr::V6(a) => IpAddr::V6((u128::from(a) & !((1 << 20) - 1) | 1).into()),
    }
}

/// A guess at the flag: the network is `first - 1`; the range is the smallest aligned on it, no
/// larger than the flag allows with a bitmap (/12, /108), holding every IP of `family` that the
/// largest such range holds (the others are out of range: a finding, not a reason to widen).
fn smallest_range(first: IpAddr, family: &[&IpAddr]) -> String {
    let (bits, widest) = match first {
        IpAddr::V4(_) => (32u32, 12u32),
        IpAddr::V6(_) => (128, 108),
    };
    let value = |ip: &IpAddr| match ip {
        IpAddr::V4(a) => u32::from(*a) as u128,
        IpAddr::V6(a) => u128::from(*a),
    };
    let network = value(&first).wrapping_sub(1);
    let size = |len: u32| 1u128 << (bits - len);
    let holds = |len: u32, ip: &&IpAddr| value(ip).wrapping_sub(network) < size(len);
    // At least 8 addresses (the flag's own minimum), aligned on the network.
    let aligned: Vec<u32> = (widest..=bits - 3)
        .filter(|&len| network % size(len) == 0)
        .collect();
    let len = match aligned.first() {
        None => bits - 3,
        Some(&wide) => {
            let inside: Vec<&&IpAddr> = family.iter().filter(|ip| holds(wide, ip)).collect();
            aligned
                .iter()
                .rev()
                .copied()
                .find(|&len| inside.iter().all(|ip| holds(len, ip)))
                .unwrap_or(wide)
        }
    };
    let net = match first {
        IpAddr::V4(_) => IpAddr::V4((network as u32).into()),
        IpAddr::V6(_) => IpAddr::V6(network.into()),
    };
    format!("{net}/{len}")
}

