//! `cluster`: the kube-apiserver flags every apiserver shares, and the apiservers themselves,
//! read from the file into the model's [`ClusterConfig`] (the one conversion, and its checks).

use std::collections::BTreeSet;
use std::net::IpAddr;

use super::file::{ApiserverFile, ClusterFile};
use super::{duration, field, interval, ip_of, port_number};
use crate::k8s::api::{Behavior, IpFamily};
use crate::k8s::controlplane::{ApiserverSpec, ClusterConfig};
use crate::k8s::ipallocator::family_of;
use crate::k8s::options::{
    parse_service_cluster_ip_range_for, parse_service_node_port_range, validate_apiserver_count,
    validate_kubernetes_service_node_port, ServiceIpRanges,
};
use crate::k8s::reconcilers::ReconcilerType;

/// The apiservers' names and addresses taken so far: each must be unique, in `cluster`, in
/// `add_apiserver` steps and in the running world alike (`World::refusal`). With them, the
/// scenario's nodes, which an action may name.
#[derive(Clone, Default)]
pub(crate) struct Taken {
    names: BTreeSet<String>,
    addresses: BTreeSet<IpAddr>,
    nodes: BTreeSet<String>,
}

/// A refused new apiserver: the field at fault (`""`: the apiserver as a whole) and why.
pub(crate) type Refused = (&'static str, String);

/// `path.field: why`, or `path: why` about the whole.
fn at(path: &str, (field, why): Refused) -> String {
    match field {
        "" => format!("{path}: {why}"),
        _ => format!("{path}.{field}: {why}"),
    }
}

impl Taken {
    /// The names and addresses of `apiservers`.
    pub(crate) fn of<'a>(apiservers: impl Iterator<Item = (&'a str, IpAddr)>) -> Taken {
        let mut taken = Taken::default();
        for (name, ip) in apiservers {
            taken.names.insert(name.to_string());
            taken.addresses.insert(ip);
        }
        taken
    }

    pub(super) fn has_name(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The scenario's nodes (`nodes`), which steps may name.
    pub(super) fn set_nodes<'a>(&mut self, nodes: impl Iterator<Item = &'a str>) {
        self.nodes = nodes.map(str::to_string).collect();
    }

    pub(super) fn has_node(&self, node: &str) -> bool {
        self.nodes.contains(node)
    }

    /// A new apiserver, by [`Taken::add_name`] and [`Taken::add_address`].
    pub(crate) fn add(
        &mut self,
        name: &str,
        ip: IpAddr,
        reconciler: ReconcilerType,
        ranges: &ServiceIpRanges,
    ) -> Result<(), Refused> {
        self.add_name(name)?;
        self.add_address(ip, reconciler, ranges)
    }

    /// A new apiserver's name: non-empty and unique, one of at most [`super::MAX_APISERVERS`].
    fn add_name(&mut self, name: &str) -> Result<(), Refused> {
        if name.trim().is_empty() {
            return Err(("name", "must not be empty".to_string()));
        }
        if self.names.len() >= super::MAX_APISERVERS {
            let why =
                format!("more than {} apiservers, the most the lab runs", super::MAX_APISERVERS);
            return Err(("", why));
        }
        if !self.names.insert(name.to_string()) {
            return Err(("name", format!("duplicate apiserver name {name:?}")));
        }
        Ok(())
    }

    /// A new apiserver's address: unique and (unless the reconciler is `none`) of the service
    /// range's family, as kube-apiserver requires.
    fn add_address(
        &mut self,
        ip: IpAddr,
        reconciler: ReconcilerType,
        ranges: &ServiceIpRanges,
    ) -> Result<(), Refused> {
        if !self.addresses.insert(ip) {
            let why = format!("{ip} is already the address of another apiserver");
            return Err(("advertise_address", why));
        }
        if reconciler != ReconcilerType::None && IpFamily::of(&ip) != family_of(&ranges.primary) {
            let why = format!(
                "service IP family \"{}\" must match public address family \"{ip}\"",
                ranges.primary
            );
            return Err(("advertise_address", why));
        }
        Ok(())
    }

    /// [`Taken::add`] for the apiserver at `path` of a file.
    pub(super) fn add_at(
        &mut self,
        path: &str,
        name: &str,
        ip: IpAddr,
        cluster: &ClusterConfig,
    ) -> Result<(), String> {
        let ranges = &cluster.service_ip_ranges;
        self.add(name, ip, cluster.reconciler, ranges).map_err(|r| at(path, r))
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
    field("cluster.apiserver_count", validate_apiserver_count(apiserver_count))?;
    let apiserver_count = u32::try_from(apiserver_count)
        .map_err(|_| "cluster.apiserver_count: too large".to_string())?;
    let node_port = c.kubernetes_service_node_port.unwrap_or(0);
    field(
        "cluster.kubernetes_service_node_port",
        validate_kubernetes_service_node_port(node_port, &node_ports),
    )?;
    let secure_port = port_number("cluster.secure_port", c.secure_port.unwrap_or(6443))?;
    let kubernetes_service_port =
        port_number("cluster.kubernetes_service_port", c.kubernetes_service_port.unwrap_or(443))?;
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
        crate::k8s::repair::DEFAULT_REPAIR_INTERVAL_MS,
        super::MIN_REPAIR_INTERVAL_MS,
    )?;

    if c.apiservers.is_empty() {
        return Err("cluster.apiservers: at least one apiserver is required".to_string());
    }
    let mut taken = Taken::default();
    let mut apiservers = Vec::new();
    for (i, a) in c.apiservers.iter().enumerate() {
        let path = format!("cluster.apiservers[{i}]");
        taken.add_name(&a.name).map_err(|r| at(&path, r))?;
        let ip = ip_of(&format!("{path}.advertise_address"), &a.advertise_address)?;
        let address = taken.add_address(ip, reconciler, &service_ip_ranges);
        address.map_err(|r| at(&path, r))?;
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
    Ok(ApiserverSpec { name: a.name.clone(), advertise_address: ip, start_at, startup_delay })
}
