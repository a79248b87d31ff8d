//! `cluster`: the kube-apiserver flags every apiserver shares, and the apiservers themselves,
//! read from the file into the model's [`ClusterConfig`] (the one conversion, and its checks).

use std::collections::BTreeSet;
use std::net::IpAddr;

use super::file::{ApiserverFile, ClusterFile};
use super::{duration, field, interval, ip_of, port_number};
use crate::api::{Behavior, IpFamily};
use crate::controlplane::{ApiserverSpec, ClusterConfig};
use crate::ipallocator::family_of;
use crate::options::{
    parse_service_cluster_ip_range_for, parse_service_node_port_range, validate_apiserver_count,
    validate_kubernetes_service_node_port, ServiceIpRanges,
};
use crate::reconcilers::ReconcilerType;

/// The apiservers' names and addresses taken so far: each must be unique, in `cluster` and in
/// `add_apiserver` steps alike.
#[derive(Default)]
pub(super) struct Taken {
    names: BTreeSet<String>,
    addresses: BTreeSet<IpAddr>,
}

impl Taken {
    pub(super) fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }
}

pub(super) fn cluster_config(
    c: &ClusterFile,
    behavior: Behavior,
) -> Result<(ClusterConfig, Taken), String> {
    let flag = c.service_cluster_ip_range.as_deref().unwrap_or("");
    let service_ip_ranges = field(
        "cluster.service_cluster_ip_range",
        parse_service_cluster_ip_range_for(flag, behavior),
    )?;
    let node_ports = field(
        "cluster.service_node_port_range",
        parse_service_node_port_range(c.service_node_port_range.as_deref().unwrap_or("")),
    )?;
    let name = c.endpoint_reconciler_type.as_deref().unwrap_or("lease");
    let reconciler: ReconcilerType = name.parse().map_err(|_| {
        format!("cluster.endpoint_reconciler_type: unknown endpoint reconciler type {name:?} (lease, master-count or none)")
    })?;
    let apiserver_count = c.apiserver_count.unwrap_or(1);
    field(
        "cluster.apiserver_count",
        validate_apiserver_count(apiserver_count),
    )?;
    let apiserver_count = u32::try_from(apiserver_count)
        .map_err(|_| "cluster.apiserver_count: too large".to_string())?;
    let node_port = c.kubernetes_service_node_port.unwrap_or(0);
    field(
        "cluster.kubernetes_service_node_port",
        validate_kubernetes_service_node_port(node_port, &node_ports),
    )?;
    let secure_port = port_number("cluster.secure_port", c.secure_port.unwrap_or(6443))?;
    let kubernetes_service_port = port_number(
        "cluster.kubernetes_service_port",
        c.kubernetes_service_port.unwrap_or(443),
    )?;
    let endpoint_interval_ms = interval(
        "cluster.endpoint_reconciler_interval",
        c.endpoint_reconciler_interval.as_deref(),
        10_000,
        super::MIN_ENDPOINT_INTERVAL_MS,
    )?;
    let lease_ttl_ms = interval("cluster.lease_ttl", c.lease_ttl.as_deref(), 15_000, 1)?;
    if lease_ttl_ms % 1000 != 0 {
        // Upstream writes the TTL in whole seconds.
        return Err("cluster.lease_ttl: must be a whole number of seconds".to_string());
    }
    let repair_interval_ms = interval(
        "cluster.repair_interval",
        c.repair_interval.as_deref(),
        crate::repair::DEFAULT_REPAIR_INTERVAL_MS,
        super::MIN_REPAIR_INTERVAL_MS,
    )?;

    if c.apiservers.is_empty() {
        return Err("cluster.apiservers: at least one apiserver is required".to_string());
    }
    let mut taken = Taken::default();
    let mut apiservers = Vec::new();
    for (i, a) in c.apiservers.iter().enumerate() {
        let path = format!("cluster.apiservers[{i}]");
        let ip = check_new_apiserver(
            &path,
            &a.name,
            &a.advertise_address,
            reconciler,
            &service_ip_ranges,
            &mut taken,
        )?;
        apiservers.push(apiserver_spec(&path, a, ip)?);
    }
    let config = ClusterConfig {
        default_range_used: flag.is_empty(),
        service_ip_ranges,
        node_ports,
        reconciler,
        apiserver_count,
        kubernetes_service_node_port: node_port as i32,
        secure_port,
        kubernetes_service_port,
        endpoint_interval_ms,
        lease_ttl_ms,
        repair_interval_ms,
        apiservers,
    };
    Ok((config, taken))
}

fn apiserver_spec(path: &str, a: &ApiserverFile, ip: IpAddr) -> Result<ApiserverSpec, String> {
    let start_at = match &a.start_at {
        None => Some(0),
        Some(None) => None,
        Some(Some(s)) => Some(duration(&format!("{path}.start_at"), s)?),
    };
    let startup_delay = a
        .startup_delay
        .as_deref()
        .map_or(Ok(0), |s| duration(&format!("{path}.startup_delay"), s))?;
    Ok(ApiserverSpec {
        name: a.name.clone(),
        advertise_address: ip,
        start_at,
        startup_delay,
    })
}

/// A new apiserver's name and address: non-empty and unique, and (unless the reconciler is
/// `none`) of the service range's family, as kube-apiserver requires; one of at most
/// [`super::MAX_APISERVERS`].
pub(super) fn check_new_apiserver(
    path: &str,
    name: &str,
    address: &str,
    reconciler: ReconcilerType,
    ranges: &ServiceIpRanges,
    taken: &mut Taken,
) -> Result<IpAddr, String> {
    if name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    if taken.names.len() == super::MAX_APISERVERS {
        return Err(format!(
            "{path}: more than {} apiservers, the most the lab runs",
            super::MAX_APISERVERS
        ));
    }
    if !taken.names.insert(name.to_string()) {
        return Err(format!("{path}.name: duplicate apiserver name {name:?}"));
    }
    let ip = ip_of(&format!("{path}.advertise_address"), address)?;
    if !taken.addresses.insert(ip) {
        return Err(format!(
            "{path}.advertise_address: {ip} is already the address of another apiserver"
        ));
    }
    if reconciler != ReconcilerType::None && IpFamily::of(&ip) != family_of(&ranges.primary) {
        return Err(format!(
            "{path}.advertise_address: service IP family \"{}\" must match public address family \"{ip}\"",
            ranges.primary
        ));
    }
    Ok(ip)
}
