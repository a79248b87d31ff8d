//! kube-apiserver's flags for service ranges, after `cmd/kube-apiserver/app/options`
//! (`getServiceIPAndRanges`, `validateClusterIPFlags`, `validateServiceNodePort`) and
//! `pkg/controlplane` (`ServiceIPRange`).

use std::net::IpAddr;

use ipnet::IpNet;

use crate::ipallocator::{parse_cidr, range_size, Range};
use crate::portallocator::PortRange;

/// The range used when `--service-cluster-ip-range` is not given.
pub(crate) const DEFAULT_SERVICE_IP_CIDR: &str = "10.0.0.0/24";
/// `--service-node-port-range`'s default.
pub(crate) const DEFAULT_SERVICE_NODE_PORT_RANGE: &str = "30000-32767";
/// `maxCIDRBits`: a range is kept in etcd as a bitmap, so at most 2^20 addresses.
pub(crate) const MAX_CIDR_BITS: u8 = 20;

/// The warning kube-apiserver logs when it falls back to the default range.
pub fn default_range_warning() -> String {
    format!(
        "No CIDR for service cluster IPs specified. Default value which was {DEFAULT_SERVICE_IP_CIDR} is deprecated and will be removed in future releases. Please specify it using --service-cluster-ip-range on kube-apiserver."
    )
}

/// A validated `--service-cluster-ip-range`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceIpRanges {
    /// The flag's first CIDR: the range of the primary family.
    pub primary: IpNet,
    /// Its second CIDR, of the other family (dual-stack); `None`: single-stack.
    pub secondary: Option<IpNet>,
}

impl ServiceIpRanges {
    /// The configured networks, primary first.
    pub fn networks(&self) -> Vec<IpNet> {
        std::iter::once(self.primary).chain(self.secondary).collect()
    }

    /// The `kubernetes` Service ClusterIP: the first address after the network address.
    pub fn kubernetes_service_ip(&self) -> IpAddr {
        Range::new(self.primary, crate::api::Behavior::V1_29).ip_at(0)
    }
}

/// `ServiceIPRange`: at least 8 addresses (counting at most 2^16).
fn check_service_ip_range(cidr: &IpNet) -> Result<(), String> {
    if range_size(cidr).min(1 << 16) < 8 {
        return Err("the service cluster IP range must be at least 8 IP addresses".to_string());
    }
    Ok(())
}

/// `validateMaxCIDRRange`.
fn check_max_cidr_range(cidr: &IpNet, flag: &str) -> Result<(), String> {
    let bits = cidr.max_prefix_len();
    if bits - cidr.prefix_len() > MAX_CIDR_BITS {
        return Err(format!(
            "specified {flag} is too large; for {bits}-bit addresses, the mask must be >= {}",
            bits - MAX_CIDR_BITS
        ));
    }
    Ok(())
}

/// `NewIPAllocator`'s floor for IPv6 ServiceCIDRs (1.34+, where nothing else limits the size).
pub(crate) fn check_min_ipv6_prefix(cidr: &IpNet) -> Result<(), String> {
    if let IpNet::V6(v6) = cidr {
        if v6.prefix_len() < 64 {
            return Err(format!(
                "shortest allowed prefix length for service CIDR is 64, got {}",
                v6.prefix_len()
            ));
        }
    }
    Ok(())
}

/// Parses and validates `--service-cluster-ip-range` as kube-apiserver does at start; an empty
/// value is the default range. An entry that does not parse is reported as `invalid CIDR "<s>"`,
/// the other errors with kube-apiserver's texts.
pub fn parse_service_cluster_ip_range(value: &str) -> Result<ServiceIpRanges, String> {
    parse_service_cluster_ip_range_for(value, crate::api::Behavior::V1_29)
}

/// The same under `behavior`'s rules: the /12 and /108 ceiling holds only while a ClusterIP
/// bitmap is written (to 1.33); from 1.34 an IPv6 range needs only a /64 (the IPAddress
/// allocator's `shortest allowed prefix length`).
pub fn parse_service_cluster_ip_range_for(
    value: &str,
    behavior: crate::api::Behavior,
) -> Result<ServiceIpRanges, String> {
    let value = if value.is_empty() { DEFAULT_SERVICE_IP_CIDR } else { value };
    let entries: Vec<&str> = value.split(',').collect();
    let parse = |s: &str| parse_cidr(s).map_err(|_| format!("invalid CIDR {s:?}"));

    let primary = parse(entries[0])?;
    check_service_ip_range(&primary).map_err(|e| {
        format!("error determining service IP ranges for primary service cidr: {e}")
    })?;
    let secondary = entries.get(1).map(|s| parse(s)).transpose()?;

    if entries.len() > 2 {
        return Err("--service-cluster-ip-range must not contain more than two entries".to_string());
    }
    let check = |cidr: &IpNet, flag: &str| {
        if behavior.max_cidr_limit() {
            check_max_cidr_range(cidr, flag)
        } else {
            check_min_ipv6_prefix(cidr)
        }
    };
    check(&primary, "--service-cluster-ip-range")?;
    if let Some(secondary) = &secondary {
        if crate::ipallocator::family_of(secondary) == crate::ipallocator::family_of(&primary) {
            return Err("--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family".to_string());
        }
        check(secondary, "--service-cluster-ip-range[1]")?;
    }
    Ok(ServiceIpRanges { primary, secondary })
}

/// Parses `--service-node-port-range` (`a-b`, `a` or `a+n`); empty means the default.
pub fn parse_service_node_port_range(value: &str) -> Result<PortRange, String> {
    let value = if value.trim().is_empty() { DEFAULT_SERVICE_NODE_PORT_RANGE } else { value };
    PortRange::parse(value)
}

/// `--kubernetes-service-node-port`: 0 (ClusterIP) or a port inside the node port range.
pub fn validate_kubernetes_service_node_port(port: i64, range: &PortRange) -> Result<(), String> {
    if !(0..=65535).contains(&port) {
        return Err(format!(
            "--kubernetes-service-node-port {port} must be between 0 and 65535, inclusive. If 0, the Kubernetes master service will be of type ClusterIP"
        ));
    }
    if port > 0 && !range.contains(port as i32) {
        return Err(format!("kubernetes service node port range {range} doesn't contain {port}"));
    }
    Ok(())
}

/// `--apiserver-count` must be positive.
pub fn validate_apiserver_count(count: i64) -> Result<(), String> {
    if count <= 0 {
        return Err(format!(
            "--apiserver-count should be a positive number, but value '{count}' provided"
        ));
    }
    Ok(())
}
