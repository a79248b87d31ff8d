//! The allocations as bars, for a view's strip: each ClusterIP range (the bitmap up to 1.33),
//! each ServiceCIDR prefix (its IPAddress objects from 1.33) and the NodePort range, with the
//! share of its static band and where each allocation falls along it.

use std::net::IpAddr;

use ipnet::IpNet;

use super::View;
use crate::k8s::etcd::{Key, RangeName};
use crate::upstream::Subject;

/// What a bar draws.
#[derive(Clone, Debug, PartialEq)]
pub enum BarKind {
    /// A ClusterIP bitmap.
    ClusterIpBitmap,
    /// The IPAddress objects inside one prefix of the ServiceCIDR of this name.
    IpAddresses {
        /// The ServiceCIDR's name.
        cidr: String,
    },
    /// The NodePort bitmap.
    NodePortBitmap,
}

/// One bar: its range, how many allocations it holds, the share of its static band, and its
/// ticks (where, from 0 to 1; what the tick opens; what it is).
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// What it draws.
    pub kind: BarKind,
    /// Its range, as written (`10.96.0.0/12`, `30000-32767`).
    pub range: String,
    /// How many allocations it holds.
    pub used: usize,
    /// What the bar itself opens in an inspector.
    pub subject: Subject,
    /// The share of its static band, from 0 to 1.
    pub band: f64,
    /// One tick per allocation: where (from 0 to 1), what it opens, the address or port.
    pub ticks: Vec<(f64, Subject, String)>,
}

/// Where `ip` falls in `net`, from 0 to 1.
pub(crate) fn fraction(net: &IpNet, ip: &str) -> Option<f64> {
    let ip: IpAddr = ip.parse().ok()?;
    if !net.contains(&ip) {
        return None;
    }
    let (base, bits, x) = match (net.network(), ip) {
        (IpAddr::V4(n), IpAddr::V4(i)) => {
            (u32::from(n) as u128, 32 - net.prefix_len() as u32, u32::from(i) as u128)
        }
        (IpAddr::V6(n), IpAddr::V6(i)) => {
            (u128::from(n), 128 - net.prefix_len() as u32, u128::from(i))
        }
        _ => return None,
    };
    let size = if bits >= 128 { u128::MAX } else { 1u128 << bits };
    Some((x - base) as f64 / size as f64)
}

impl View {
    /// The bars of the allocations now, in the order a strip draws them.
    pub fn allocation_bars(&self) -> Vec<Bar> {
        let st = &self.state;
        let mut out = Vec::new();
        if self.behavior.cluster_ip_bitmap() {
            let keys = [RangeName::ServiceIps, RangeName::SecondaryServiceIps];
            for (a, key) in st.allocations.cluster_ip.iter().zip(keys) {
                let Ok(net) = a.range.parse::<IpNet>() else { continue };
                out.push(Bar {
                    kind: BarKind::ClusterIpBitmap,
                    range: a.range.clone(),
                    used: a.allocated.len(),
                    subject: Subject::Key(Key::Range(key).to_string()),
                    band: a.static_band as f64 / a.size.max(1) as f64,
                    ticks: ticks(&net, a.allocated.iter(), |ip| Subject::ClusterIp(ip.to_string())),
                });
            }
        }
        if self.behavior.ip_addresses() {
            for cidr in &st.service_cidrs {
                for range in &cidr.cidrs {
                    let Ok(net) = range.parse::<IpNet>() else { continue };
                    let ticks = ticks(&net, st.ip_addresses.iter().map(|a| &a.ip), |ip| {
                        Subject::IpAddress(ip.to_string())
                    });
                    out.push(Bar {
                        kind: BarKind::IpAddresses { cidr: cidr.name.clone() },
                        range: range.clone(),
                        used: ticks.len(),
                        subject: Subject::Key(Key::ServiceCidr(cidr.name.clone()).to_string()),
                        band: 0.0,
                        ticks,
                    });
                }
            }
        }
        out.push(self.node_port_bar());
        out
    }

    fn node_port_bar(&self) -> Bar {
        let np = &self.state.allocations.node_port;
        let (lo, hi) = np
            .range
            .split_once('-')
            .and_then(|(a, b)| Some((a.parse::<i32>().ok()?, b.parse::<i32>().ok()?)))
            .unwrap_or((0, 0));
        let size = (hi - lo + 1).max(1) as f64;
        Bar {
            kind: BarKind::NodePortBitmap,
            range: np.range.clone(),
            used: np.allocated.len(),
            subject: Subject::Key(Key::Range(RangeName::NodePorts).to_string()),
            band: np.static_band as f64 / size,
            ticks: np
                .allocated
                .iter()
                .map(|&port| {
                    ((port - lo) as f64 / size, Subject::NodePort(port as u16), port.to_string())
                })
                .collect(),
        }
    }
}

/// The ticks of the addresses of `ips` that lie in `net`.
fn ticks<'a>(
    net: &IpNet,
    ips: impl Iterator<Item = &'a String>,
    subject: impl Fn(&str) -> Subject,
) -> Vec<(f64, Subject, String)> {
    ips.filter_map(|ip| Some((fraction(net, ip)?, subject(ip), ip.clone()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_place_addresses_within_their_range() {
        let net: IpNet = "10.96.0.0/12".parse().unwrap();
        assert_eq!(fraction(&net, "10.96.0.0"), Some(0.0));
        assert!((fraction(&net, "10.104.0.0").unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(fraction(&net, "10.200.0.1"), None);
        let v6: IpNet = "fd00::/108".parse().unwrap();
        assert!(fraction(&v6, "fd00::8:0").unwrap() > 0.49);
        assert_eq!(fraction(&v6, "10.96.0.1"), None);
    }
}
