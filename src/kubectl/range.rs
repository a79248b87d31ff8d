//! The service-cluster-ip-range guessed when the input does not say it.

use std::net::IpAddr;

use super::{is_kubernetes, service_ips, texts, Cluster};

/// The service-cluster-ip-range defaults of the common distributions, the smallest first for
/// each network: a guess prefers the smallest that holds every ClusterIP. (GKE: the range given
/// Autopilot clusters from 1.27 and Standard ones from 1.29; older GKE ranges are the
/// project's own.)
pub const DEFAULTS: &[(&str, &str)] = &[
    ("10.96.0.0/16", "kind"),
    ("10.96.0.0/12", "kubeadm and minikube"),
    ("10.43.0.0/16", "k3s"),
    ("10.100.0.0/16", "EKS"),
    ("172.20.0.0/16", "EKS"),
    ("10.0.0.0/16", "AKS"),
    ("172.30.0.0/16", "OpenShift"),
    ("34.118.224.0/20", "GKE"),
    ("fd00:10:96::/112", "kind"),
];

/// The range of the import and, when guessed, how: `None` when the ServiceCIDR `kubernetes`
/// gives it.
pub(super) struct Guess {
    pub range: String,
    pub how: Option<String>,
}

/// The ServiceCIDR `kubernetes`'s CIDRs; else, for each ClusterIP of the `kubernetes` Service,
/// the smallest CIDR whose first usable address it is and that holds every ClusterIP of its
/// family, plus a secondary range when other Services have ClusterIPs of the other family (the
/// flags themselves are not visible through the API).
pub(super) fn default_range(cluster: &Cluster) -> Result<Guess, String> {
    if let Some(c) = cluster
        .service_cidrs
        .iter()
        .find(|c| c["name"] == "kubernetes")
    {
        let cidrs: Vec<&str> = texts(&c["cidrs"]).collect();
        if !cidrs.is_empty() {
            return Ok(Guess {
                range: cidrs.join(","),
                how: None,
            });
        }
    }
    let kubernetes = cluster
        .services
        .iter()
        .find(|s| is_kubernetes(s))
        .ok_or("service_cluster_ip_range: no ServiceCIDR `kubernetes` and no Service default/kubernetes to guess it from: give it (--service-cluster-ip-range)")?;
    let all: Vec<IpAddr> = cluster.services.iter().flat_map(service_ips).collect();
    let family =
        |v4: bool| -> Vec<&IpAddr> { all.iter().filter(|ip| ip.is_ipv4() == v4).collect() };
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
    let mut hows = Vec::new();
    let ranges: Vec<String> = firsts
        .into_iter()
        .map(|first| {
            let ips = family(first.is_ipv4());
            match known_default(first, &ips) {
                Some((range, who)) => {
                    hows.push(format!("{range} is {who}'s default"));
                    range.to_string()
                }
                None => {
                    let range = smallest_range(first, &ips);
                    hows.push(format!("{range} is no distribution's default: the smallest range of at least /{} that holds the ClusterIPs", floor(first)));
                    range
                }
            }
        })
        .collect();
    Ok(Guess {
        range: ranges.join(","),
        how: Some(hows.join("; ")),
    })
}

/// The smallest distribution default whose first address is `first` and that holds every IP
/// of `family` (its first address known, not the dual-stack guess's start).
fn known_default(first: IpAddr, family: &[&IpAddr]) -> Option<(&'static str, &'static str)> {
    DEFAULTS
        .iter()
        .filter_map(|&(range, who)| Some((range.parse::<ipnet::IpNet>().ok()?, range, who)))
        .filter(|(net, ..)| {
            let start = match net.network() {
                IpAddr::V4(a) => IpAddr::V4((u32::from(a) + 1).into()),
                IpAddr::V6(a) => IpAddr::V6((u128::from(a) + 1).into()),
            };
            start == first && family.iter().all(|ip| net.contains(*ip))
        })
        .max_by_key(|(net, ..)| net.prefix_len())
        .map(|(_, range, who)| (range, who))
}

/// The longest prefix a guess gives: no cluster runs on fewer Service addresses than a /24
/// (a /112 for IPv6) holds, however few Services it has.
fn floor(ip: IpAddr) -> u32 {
    if ip.is_ipv4() {
        24
    } else {
        112
    }
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
    // Aligned on the network; at least a /24 (a /112) unless the network is not aligned on one
    // (then the flag gave a smaller range), and at least 8 addresses (the flag's own minimum).
    let aligned: Vec<u32> = (widest..=bits - 3)
        .filter(|&len| network % size(len) == 0)
        .collect();
    let large: Vec<u32> = aligned
        .iter()
        .copied()
        .filter(|&l| l <= floor(first))
        .collect();
    let aligned = if large.is_empty() { aligned } else { large };
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
