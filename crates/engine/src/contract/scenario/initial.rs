//! `initial`: the objects the apiservers find in etcd on start (`docs/scenario.md` §1).

use std::collections::BTreeSet;
use std::net::IpAddr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use super::file::{AllocationFile, InitialFile};
use super::{duration, field, ip_of, port_number};
use crate::k8s::api::{Behavior, Endpoints, IpAddress, IpFamily, Pod, Service, ServiceCidr};
use crate::k8s::controlplane::ClusterConfig;
use crate::k8s::ipallocator::family_of;
use crate::k8s::portallocator::PortRange;

/// A stored allocation object as a scenario presets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetAllocation<T> {
    /// The range it was stored for, as written.
    pub range: String,
    /// The items it marks allocated.
    pub allocated: Vec<T>,
}

/// The world the apiservers find on start (`initial`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Initial {
    /// Stored Services.
    pub services: Vec<Service>,
    /// Stored Pods.
    pub pods: Vec<Pod>,
    /// Stored Endpoints.
    pub endpoints: Vec<Endpoints>,
    /// Namespaces that exist.
    pub namespaces: Vec<String>,
    /// (ip, ttl left in ms)
    pub leases: Vec<(String, u64)>,
    /// The stored ClusterIP bitmap (the primary range's).
    pub cluster_ip_allocation: Option<PresetAllocation<IpAddr>>,
    pub(crate) secondary_cluster_ip_allocation: Option<PresetAllocation<IpAddr>>,
    /// The stored NodePort bitmap.
    pub node_port_allocation: Option<PresetAllocation<i32>>,
    /// §6: ServiceCIDR objects as found (no condition, no finalizer).
    pub service_cidrs: Vec<ServiceCidr>,
    /// §6: IPAddress objects as found, with their creation time (≤ 0).
    pub ip_addresses: Vec<IpAddress>,
}

/// `cluster_ips: [""]` is how an unset ClusterIP can be written (upstream objects and
/// `kubectl get svc -o json` show ExternalName Services so): it means the same as no list.
fn without_empty_ips(mut s: Service) -> Service {
    if s.cluster_ips.len() == 1 && s.cluster_ips[0].is_empty() {
        s.cluster_ips.clear();
    }
    s
}

/// A `create_service` action's Service: its values checked as it is read, wherever the action
/// comes from (its name is the apiserver's to validate: `CreateService::validate`).
pub(super) fn action_service<'de, D: Deserializer<'de>>(d: D) -> Result<Service, D::Error> {
    let s = without_empty_ips(<Service as Deserialize>::deserialize(d)?);
    service_values(&s, false).map_err(D::Error::custom)?;
    Ok(s)
}

/// A `create_pod` action's Pod, as [`action_service`].
pub(super) fn action_pod<'de, D: Deserializer<'de>>(d: D) -> Result<Pod, D::Error> {
    let p = <Pod as Deserialize>::deserialize(d)?;
    pod_values(&p).map_err(D::Error::custom)?;
    Ok(p)
}

pub(super) fn services_without_empty_ips<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<Service>, D::Error> {
    let list = Vec::<Service>::deserialize(d)?;
    Ok(list.into_iter().map(without_empty_ips).collect())
}

pub(super) fn initial(
    f: &InitialFile,
    cluster: &ClusterConfig,
    behavior: Behavior,
) -> Result<Initial, String> {
    if !behavior.ip_addresses() {
        let named = [
            ("service_cidrs", f.service_cidrs.is_empty()),
            ("ip_addresses", f.ip_addresses.is_empty()),
        ];
        if let Some((list, _)) = named.iter().find(|(_, empty)| !empty) {
            return Err(format!("initial.{list}: ServiceCIDR and IPAddress objects exist from behavior \"1.33\" on, not under \"{behavior}\""));
        }
    }
    unique("service_cidrs", f.service_cidrs.iter().map(|c| c.name.clone()))?;
    let mut service_cidrs = Vec::new();
    for (i, c) in f.service_cidrs.iter().enumerate() {
        ServiceCidr::validate(&c.name, &c.cidrs)
            .map_err(|e| format!("initial.service_cidrs[{i}]: {e}"))?;
        service_cidrs.push(ServiceCidr::new(&c.name, c.cidrs.clone()));
    }
    let mut ip_addresses: Vec<IpAddress> = Vec::new();
    for (i, a) in f.ip_addresses.iter().enumerate() {
        let path = format!("initial.ip_addresses[{i}]");
        let ip = ip_of(&format!("{path}.ip"), &a.ip)?;
        if ip_addresses.iter().any(|b| b.ip == ip.to_string()) {
            return Err(format!("{path}: duplicate object {ip}"));
        }
        if a.parent.name.is_empty() {
            return Err(format!("{path}.parent.name: must not be empty"));
        }
        let age = match &a.age {
            Some(d) => duration(&format!("{path}.age"), d)?,
            None => 0,
        };
        let mut obj = IpAddress::allocated(ip, a.parent.clone(), 0);
        obj.created_ms = -(age as i64);
        ip_addresses.push(obj);
    }
    unique("services", f.services.iter().map(Service::key))?;
    unique("pods", f.pods.iter().map(Pod::key))?;
    unique("endpoints", f.endpoints.iter().map(Endpoints::key))?;
    unique("namespaces", f.namespaces.iter().cloned())?;
    for (i, s) in f.services.iter().enumerate() {
        check_service(&format!("initial.services[{i}]"), s, true)?;
    }
    for (i, p) in f.pods.iter().enumerate() {
        check_pod(&format!("initial.pods[{i}]"), p)?;
    }
    let mut leases = Vec::new();
    for (i, l) in f.leases.iter().enumerate() {
        let ip = ip_of(&format!("initial.leases[{i}].ip"), &l.ip)?;
        let ttl = duration(&format!("initial.leases[{i}].ttl_left"), &l.ttl_left)?;
        leases.push((ip.to_string(), ttl));
    }
    if f.secondary_cluster_ip_allocation.is_some() && cluster.service_ip_ranges.secondary.is_none()
    {
        return Err(
            "initial.secondary_cluster_ip_allocation: the cluster has a single service range"
                .to_string(),
        );
    }
    Ok(Initial {
        services: f.services.clone(),
        pods: f.pods.clone(),
        endpoints: f.endpoints.clone(),
        namespaces: f.namespaces.clone(),
        leases,
        cluster_ip_allocation: ip_allocation("cluster_ip_allocation", &f.cluster_ip_allocation)?,
        secondary_cluster_ip_allocation: ip_allocation(
            "secondary_cluster_ip_allocation",
            &f.secondary_cluster_ip_allocation,
        )?,
        node_port_allocation: port_allocation(&f.node_port_allocation)?,
        service_cidrs,
        ip_addresses,
    })
}

/// Each object once: `initial.services[3]: duplicate object default/web`.
fn unique(path: &str, keys: impl Iterator<Item = String>) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for (i, k) in keys.enumerate() {
        if seen.contains(&k) {
            return Err(format!("initial.{path}[{i}]: duplicate object {k}"));
        }
        seen.insert(k);
    }
    Ok(())
}

fn ip_allocation(
    path: &str,
    a: &Option<AllocationFile<String>>,
) -> Result<Option<PresetAllocation<IpAddr>>, String> {
    let Some(a) = a else { return Ok(None) };
    let cidr =
        field(&format!("initial.{path}.range"), crate::k8s::ipallocator::parse_cidr(&a.range))?;
    let mut allocated = Vec::new();
    for (i, s) in a.allocated.iter().enumerate() {
        let ip = ip_of(&format!("initial.{path}.allocated[{i}]"), s)?;
        if family_of(&cidr) != IpFamily::of(&ip) {
            return Err(format!(
                "initial.{path}.allocated[{i}]: {ip} is not of the family of {cidr}"
            ));
        }
        allocated.push(ip);
    }
    Ok(Some(PresetAllocation { range: cidr.to_string(), allocated }))
}

fn port_allocation(
    a: &Option<AllocationFile<i64>>,
) -> Result<Option<PresetAllocation<i32>>, String> {
    let Some(a) = a else { return Ok(None) };
    let range = field("initial.node_port_allocation.range", PortRange::parse(&a.range))?;
    let mut allocated = Vec::new();
    for (i, &p) in a.allocated.iter().enumerate() {
        let path = format!("initial.node_port_allocation.allocated[{i}]");
        allocated.push(port_number(&path, p)?);
    }
    Ok(Some(PresetAllocation { range: range.to_string(), allocated }))
}

/// Shape checks only; what the cluster would refuse is decided when the action runs.
/// Preset services may carry any IP (that is how corruption is set up), but it must parse;
/// `"None"` (headless) is no IP, nor is `""` in first place (unset, as upstream's validation
/// allows it in `clusterIPs[0]` only).
fn check_service(path: &str, s: &Service, preset: bool) -> Result<(), String> {
    if s.name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    service_values(s, preset).map_err(|e| format!("{path}.{e}"))
}

/// A Service's IPs (when `preset`: a created one's are the allocator's to check) and ports;
/// the message starts with the field below the Service (`ports[0].port: …`).
fn service_values(s: &Service, preset: bool) -> Result<(), String> {
    if preset {
        for (i, ip) in s.cluster_ips.iter().enumerate() {
            let unset = ip == "None" || (i == 0 && ip.is_empty());
            if !unset {
                ip_of(&format!("cluster_ips[{i}]"), ip)?;
            }
        }
    }
    for (i, p) in s.ports.iter().enumerate() {
        port_number(&format!("ports[{i}].port"), p.port as i64)?;
    }
    Ok(())
}

fn check_pod(path: &str, p: &Pod) -> Result<(), String> {
    if p.name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    pod_values(p).map_err(|e| format!("{path}.{e}"))
}

/// A Pod's IPs, the message starting with the field below the Pod (`pod_ip: …`).
fn pod_values(p: &Pod) -> Result<(), String> {
    if !p.pod_ip.is_empty() {
        ip_of("pod_ip", &p.pod_ip)?;
    }
    for (i, ip) in p.pod_ips.iter().enumerate() {
        ip_of(&format!("pod_ips[{i}]"), ip)?;
    }
    Ok(())
}
