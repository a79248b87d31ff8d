//! Scenario files (`../shared/spec/scenario.md` §1–2): parsing, defaults and validation.
//!
//! Everything a scenario says is checked before anything runs; an error names the field path,
//! e.g. `cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33"`.

use std::collections::BTreeSet;
use std::net::IpAddr;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value as Json;

use crate::api::{parse_ip, Behavior, Endpoints, IpFamily, Pod, Service};
use crate::duration::parse_ms;
use crate::ipallocator::family_of;
use crate::lang::LocalizedText;
use crate::options::{
    default_range_warning, parse_service_cluster_ip_range, parse_service_node_port_range,
    validate_apiserver_count, validate_kubernetes_service_node_port, ServiceIpRanges,
};
use crate::portallocator::PortRange;
use crate::reconcilers::ReconcilerType;

/// Distinguishes a missing field (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    name: String,
    #[serde(default)]
    title: Option<LocalizedText>,
    #[serde(default)]
    description: Option<LocalizedText>,
    seed: Option<u64>,
    #[serde(default)]
    behavior: Behavior,
    cluster: ClusterFile,
    #[serde(default)]
    initial: InitialFile,
    #[serde(default)]
    steps: Vec<Json>,
    until: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterFile {
    service_cluster_ip_range: Option<String>,
    service_node_port_range: Option<String>,
    endpoint_reconciler_type: Option<String>,
    apiserver_count: Option<i64>,
    kubernetes_service_node_port: Option<i64>,
    secure_port: Option<i64>,
    /// `APIServerServicePort`, the `kubernetes` Service's port (443).
    kubernetes_service_port: Option<i64>,
    endpoint_reconciler_interval: Option<String>,
    lease_ttl: Option<String>,
    repair_interval: Option<String>,
    apiservers: Vec<ApiserverFile>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ApiserverFile {
    name: String,
    advertise_address: String,
    #[serde(default, deserialize_with = "present")]
    start_at: Option<Option<String>>,
    startup_delay: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct InitialFile {
    #[serde(default)]
    services: Vec<Service>,
    #[serde(default)]
    pods: Vec<Pod>,
    #[serde(default)]
    endpoints: Vec<Endpoints>,
    #[serde(default)]
    namespaces: Vec<String>,
    #[serde(default)]
    leases: Vec<LeaseFile>,
    cluster_ip_allocation: Option<AllocationFile<String>>,
    secondary_cluster_ip_allocation: Option<AllocationFile<String>>,
    node_port_allocation: Option<AllocationFile<i64>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaseFile {
    ip: String,
    ttl_left: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AllocationFile<T> {
    range: String,
    #[serde(default)]
    allocated: Vec<T>,
}

/// The validated kube-apiserver flags shared by every apiserver of the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterConfig {
    pub service_ip_ranges: ServiceIpRanges,
    /// The flag was left out: kube-apiserver logs its deprecation warning.
    pub default_range_used: bool,
    pub node_ports: PortRange,
    pub reconciler: ReconcilerType,
    pub apiserver_count: u32,
    pub kubernetes_service_node_port: i32,
    pub secure_port: i32,
    pub kubernetes_service_port: i32,
    pub endpoint_interval_ms: u64,
    pub lease_ttl_ms: u64,
    pub repair_interval_ms: u64,
    pub apiservers: Vec<ApiserverSpec>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiserverSpec {
    pub name: String,
    pub advertise_address: IpAddr,
    /// `None`: left for a `start_apiserver` step.
    pub start_at: Option<u64>,
    pub startup_delay: u64,
}

/// A stored allocation object as a scenario presets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetAllocation<T> {
    pub range: String,
    pub allocated: Vec<T>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Initial {
    pub services: Vec<Service>,
    pub pods: Vec<Pod>,
    pub endpoints: Vec<Endpoints>,
    pub namespaces: Vec<String>,
    /// (ip, ttl left in ms)
    pub leases: Vec<(String, u64)>,
    pub cluster_ip_allocation: Option<PresetAllocation<IpAddr>>,
    pub secondary_cluster_ip_allocation: Option<PresetAllocation<IpAddr>>,
    pub node_port_allocation: Option<PresetAllocation<i32>>,
}

/// `{"do": ...}` actions; the UI sends the same values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    StartApiserver(ApiserverRef),
    StopApiserver(ApiserverRef),
    CrashApiserver(ApiserverRef),
    AddApiserver(AddApiserver),
    IsolateApiserver(Isolate),
    EtcdOutage(Outage),
    CreateService(CreateService),
    DeleteService(ObjectRef),
    CreatePod(CreatePod),
    DeletePod(ObjectRef),
    SetPodReady(SetPodReady),
    Corrupt(Corruption),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApiserverRef {
    pub apiserver: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AddApiserver {
    pub name: String,
    pub advertise_address: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_delay: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Isolate {
    pub apiserver: String,
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outage {
    #[serde(rename = "for")]
    pub for_: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateService {
    pub service: Service,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatePod {
    pub pod: Pod,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRef {
    #[serde(default = "crate::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetPodReady {
    #[serde(default = "crate::api::default_namespace")]
    pub namespace: String,
    pub name: String,
    pub ready: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// Writes to storage behind the allocators' back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "snake_case", deny_unknown_fields)]
pub enum Corruption {
    LeakClusterIp {
        ip: String,
    },
    LeakNodePort {
        port: i32,
    },
    UnallocateClusterIp {
        ip: String,
    },
    UnallocateNodePort {
        port: i32,
    },
    ForceClusterIp {
        namespace: String,
        name: String,
        ip: String,
    },
    ForceNodePort {
        namespace: String,
        name: String,
        port: i32,
    },
}

impl Action {
    /// The apiserver the action names, if any (checked against the cluster before running).
    pub fn apiserver(&self) -> Option<&str> {
        match self {
            Action::StartApiserver(r) | Action::StopApiserver(r) | Action::CrashApiserver(r) => {
                Some(&r.apiserver)
            }
            Action::IsolateApiserver(i) => Some(&i.apiserver),
            Action::CreateService(c) => c.via.as_deref(),
            Action::CreatePod(c) => c.via.as_deref(),
            Action::DeleteService(o) | Action::DeletePod(o) => o.via.as_deref(),
            Action::SetPodReady(s) => s.via.as_deref(),
            Action::AddApiserver(_) | Action::EtcdOutage(_) | Action::Corrupt(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    Do(Action),
    /// A partial state plus `events_include`, `events_exclude` and `absent`.
    Expect(Json),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at_ms: u64,
    /// `at` as written, echoed in the run report.
    pub at: String,
    pub kind: StepKind,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub name: String,
    pub title: Option<LocalizedText>,
    pub description: Option<LocalizedText>,
    pub seed: u64,
    pub behavior: Behavior,
    pub cluster: ClusterConfig,
    pub initial: Initial,
    pub steps: Vec<Step>,
    pub until_ms: u64,
}

/// Keys an `expect` may hold: the state's own plus three checks.
const EXPECT_KEYS: &[&str] = &[
    "time_ms",
    "etcd",
    "apiservers",
    "leases",
    "namespaces",
    "services",
    "endpoints",
    "pods",
    "allocations",
    "events_include",
    "events_exclude",
    "absent",
];

fn field<T>(path: &str, r: Result<T, String>) -> Result<T, String> {
    r.map_err(|e| format!("{path}: {e}"))
}

fn duration(path: &str, s: &str) -> Result<u64, String> {
    field(path, parse_ms(s))
}

fn ip_of(path: &str, s: &str) -> Result<IpAddr, String> {
    parse_ip(s).ok_or_else(|| format!("{path}: invalid IP address {s:?}"))
}

fn port_number(path: &str, p: i64) -> Result<i32, String> {
    if (1..=65535).contains(&p) {
        Ok(p as i32)
    } else {
        Err(format!("{path}: {p} is not a port number (1-65535)"))
    }
}

/// Parses and validates a scenario file.
pub fn parse(text: &str) -> Result<Scenario, String> {
    let value: Json = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    let file: File = de("", value).map_err(|e| {
        e.trim_start_matches('.')
            .trim_start_matches(": ")
            .to_string()
    })?;
    let behavior = file.behavior;
    let cluster = cluster_config(&file.cluster)?;
    let initial = initial(&file.initial, &cluster)?;

    let mut names: BTreeSet<String> = cluster.apiservers.iter().map(|a| a.name.clone()).collect();
    let mut addresses: BTreeSet<IpAddr> = cluster
        .apiservers
        .iter()
        .map(|a| a.advertise_address)
        .collect();
    let mut steps = Vec::with_capacity(file.steps.len());
    for (i, raw) in file.steps.iter().enumerate() {
        let step = step(
            &format!("steps[{i}]"),
            raw,
            &cluster,
            &mut names,
            &mut addresses,
        )?;
        steps.push(step);
    }
    let until_ms = match &file.until {
        Some(u) => duration("until", u)?,
        None => steps.iter().map(|s| s.at_ms).max().unwrap_or(0),
    };
    Ok(Scenario {
        name: file.name,
        title: file.title,
        description: file.description,
        seed: file.seed.unwrap_or(1),
        behavior,
        cluster,
        initial,
        steps,
        until_ms,
    })
}

fn cluster_config(c: &ClusterFile) -> Result<ClusterConfig, String> {
    let flag = c.service_cluster_ip_range.as_deref().unwrap_or("");
    let service_ip_ranges = field(
        "cluster.service_cluster_ip_range",
        parse_service_cluster_ip_range(flag),
    )?;
    let node_ports = field(
        "cluster.service_node_port_range",
        parse_service_node_port_range(c.service_node_port_range.as_deref().unwrap_or("")),
    )?;
    let reconciler = match c.endpoint_reconciler_type.as_deref().unwrap_or("lease") {
        "lease" => ReconcilerType::Lease,
        "master-count" => ReconcilerType::MasterCount,
        "none" => ReconcilerType::None,
        other => {
            return Err(format!(
                "cluster.endpoint_reconciler_type: unknown endpoint reconciler type {other:?} (lease, master-count or none)"
            ))
        }
    };
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
    let positive = |path: &str, v: &Option<String>, default: u64| -> Result<u64, String> {
        let ms = v.as_deref().map_or(Ok(default), |s| duration(path, s))?;
        if ms == 0 {
            return Err(format!("{path}: must be greater than 0"));
        }
        Ok(ms)
    };
    let endpoint_interval_ms = positive(
        "cluster.endpoint_reconciler_interval",
        &c.endpoint_reconciler_interval,
        10_000,
    )?;
    let lease_ttl_ms = positive("cluster.lease_ttl", &c.lease_ttl, 15_000)?;
    if lease_ttl_ms % 1000 != 0 {
        // Upstream writes the TTL in whole seconds.
        return Err("cluster.lease_ttl: must be a whole number of seconds".to_string());
    }
    let repair_interval_ms = positive(
        "cluster.repair_interval",
        &c.repair_interval,
        crate::repair::DEFAULT_REPAIR_INTERVAL_MS,
    )?;

    if c.apiservers.is_empty() {
        return Err("cluster.apiservers: at least one apiserver is required".to_string());
    }
    let mut apiservers = Vec::new();
    let mut seen_names = BTreeSet::new();
    let mut seen_ips = BTreeSet::new();
    for (i, a) in c.apiservers.iter().enumerate() {
        let path = format!("cluster.apiservers[{i}]");
        let ip = check_new_apiserver(
            &path,
            &a.name,
            &a.advertise_address,
            reconciler,
            &service_ip_ranges,
            &mut seen_names,
            &mut seen_ips,
        )?;
        let start_at = match &a.start_at {
            None => Some(0),
            Some(None) => None,
            Some(Some(s)) => Some(duration(&format!("{path}.start_at"), s)?),
        };
        let startup_delay = a
            .startup_delay
            .as_deref()
            .map_or(Ok(0), |s| duration(&format!("{path}.startup_delay"), s))?;
        apiservers.push(ApiserverSpec {
            name: a.name.clone(),
            advertise_address: ip,
            start_at,
            startup_delay,
        });
    }
    Ok(ClusterConfig {
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
    })
}

fn initial(f: &InitialFile, cluster: &ClusterConfig) -> Result<Initial, String> {
    let unique = |path: &str, keys: Vec<String>| -> Result<(), String> {
        let mut seen = BTreeSet::new();
        for (i, k) in keys.into_iter().enumerate() {
            if !seen.insert(k.clone()) {
                return Err(format!("initial.{path}[{i}]: duplicate object {k}"));
            }
        }
        Ok(())
    };
    unique("services", f.services.iter().map(Service::key).collect())?;
    unique("pods", f.pods.iter().map(Pod::key).collect())?;
    unique(
        "endpoints",
        f.endpoints.iter().map(Endpoints::key).collect(),
    )?;
    unique("namespaces", f.namespaces.clone())?;
    for (i, s) in f.services.iter().enumerate() {
        check_service(&format!("initial.services[{i}]"), s, true)?;
    }
    for (i, p) in f.pods.iter().enumerate() {
        check_pod(&format!("initial.pods[{i}]"), p)?;
    }
    let mut leases = Vec::new();
    for (i, l) in f.leases.iter().enumerate() {
        let ip = ip_of(&format!("initial.leases[{i}].ip"), &l.ip)?;
        leases.push((
            ip.to_string(),
            duration(&format!("initial.leases[{i}].ttl_left"), &l.ttl_left)?,
        ));
    }
    let ips = |path: &str,
               a: &Option<AllocationFile<String>>|
     -> Result<Option<PresetAllocation<IpAddr>>, String> {
        let Some(a) = a else { return Ok(None) };
        let cidr = field(
            &format!("initial.{path}.range"),
            crate::ipallocator::parse_cidr(&a.range),
        )?;
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
        Ok(Some(PresetAllocation {
            range: cidr.to_string(),
            allocated,
        }))
    };
    let node_port_allocation = match &f.node_port_allocation {
        None => None,
        Some(a) => {
            let range = field(
                "initial.node_port_allocation.range",
                PortRange::parse(&a.range),
            )?;
            let mut allocated = Vec::new();
            for (i, &p) in a.allocated.iter().enumerate() {
                allocated.push(port_number(
                    &format!("initial.node_port_allocation.allocated[{i}]"),
                    p,
                )?);
            }
            Some(PresetAllocation {
                range: range.to_string(),
                allocated,
            })
        }
    };
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
        cluster_ip_allocation: ips("cluster_ip_allocation", &f.cluster_ip_allocation)?,
        secondary_cluster_ip_allocation: ips(
            "secondary_cluster_ip_allocation",
            &f.secondary_cluster_ip_allocation,
        )?,
        node_port_allocation,
    })
}

/// A new apiserver's name and address: non-empty and unique, and (unless the reconciler is
/// `none`) of the service range's family, as kube-apiserver requires.
fn check_new_apiserver(
    path: &str,
    name: &str,
    address: &str,
    reconciler: ReconcilerType,
    ranges: &ServiceIpRanges,
    names: &mut BTreeSet<String>,
    addresses: &mut BTreeSet<IpAddr>,
) -> Result<IpAddr, String> {
    if name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    if !names.insert(name.to_string()) {
        return Err(format!("{path}.name: duplicate apiserver name {name:?}"));
    }
    let ip = ip_of(&format!("{path}.advertise_address"), address)?;
    if !addresses.insert(ip) {
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

/// Shape checks only; what the cluster would refuse is decided when the action runs.
/// Preset services may carry any IP (that is how corruption is set up), but it must parse.
fn check_service(path: &str, s: &Service, preset: bool) -> Result<(), String> {
    if s.name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    if preset {
        for (i, ip) in s.cluster_ips.iter().enumerate() {
            if ip != "None" {
                ip_of(&format!("{path}.cluster_ips[{i}]"), ip)?;
            }
        }
    }
    for (i, p) in s.ports.iter().enumerate() {
        port_number(&format!("{path}.ports[{i}].port"), p.port as i64)?;
    }
    Ok(())
}

fn check_pod(path: &str, p: &Pod) -> Result<(), String> {
    if p.name.trim().is_empty() {
        return Err(format!("{path}.name: must not be empty"));
    }
    if !p.pod_ip.is_empty() {
        ip_of(&format!("{path}.pod_ip"), &p.pod_ip)?;
    }
    for (i, ip) in p.pod_ips.iter().enumerate() {
        ip_of(&format!("{path}.pod_ips[{i}]"), ip)?;
    }
    Ok(())
}

fn step(
    path: &str,
    raw: &Json,
    cluster: &ClusterConfig,
    names: &mut BTreeSet<String>,
    addresses: &mut BTreeSet<IpAddr>,
) -> Result<Step, String> {
    let Json::Object(map) = raw else {
        return Err(format!("{path}: a step must be an object"));
    };
    let at = match map.get("at") {
        Some(Json::String(s)) => s.clone(),
        Some(_) => {
            return Err(format!(
                "{path}.at: must be a duration string such as \"90s\""
            ))
        }
        None => return Err(format!("{path}.at: missing field")),
    };
    let at_ms = duration(&format!("{path}.at"), &at)?;
    let mut rest = map.clone();
    rest.remove("at");
    let kind = match (rest.contains_key("do"), rest.remove("expect")) {
        (true, None) => {
            let action = action(path, rest)?;
            check_action(path, &action, cluster, names, addresses)?;
            StepKind::Do(action)
        }
        (false, Some(expect)) => {
            if let Some(k) = rest.keys().next() {
                return Err(format!("{path}.{k}: unknown field"));
            }
            let Json::Object(e) = &expect else {
                return Err(format!("{path}.expect: must be an object"));
            };
            if let Some(k) = e.keys().find(|k| !EXPECT_KEYS.contains(&k.as_str())) {
                return Err(format!("{path}.expect.{k}: unknown field"));
            }
            StepKind::Expect(expect)
        }
        (true, Some(_)) => {
            return Err(format!(
                "{path}: a step has either `do` or `expect`, not both"
            ))
        }
        (false, None) => return Err(format!("{path}: a step needs `do` or `expect`")),
    };
    Ok(Step { at_ms, at, kind })
}

/// Deserialises `value` as `T`, naming the failing field below `path`.
fn de<T: serde::de::DeserializeOwned>(path: &str, value: Json) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = e.path().to_string();
        let mut msg = e.inner().to_string();
        let mut at = if inner == "." {
            path.to_string()
        } else {
            format!("{path}.{inner}")
        };
        // serde names a missing field in the message, not the path.
        if let Some(name) = msg
            .strip_prefix("missing field `")
            .and_then(|m| m.split('`').next())
        {
            at = format!("{at}.{name}");
            msg = "missing field".to_string();
        }
        format!("{at}: {msg}")
    })
}

/// Takes the string tag `tag` out of `obj`.
fn take_tag(
    path: &str,
    obj: &mut serde_json::Map<String, Json>,
    tag: &str,
) -> Result<String, String> {
    match obj.remove(tag) {
        Some(Json::String(s)) => Ok(s),
        Some(_) => Err(format!("{path}.{tag}: must be a string")),
        None => Err(format!("{path}.{tag}: missing field")),
    }
}

/// An action, parsed by hand so that errors keep their field path (serde's internally tagged
/// enums lose it).
fn action(path: &str, mut obj: serde_json::Map<String, Json>) -> Result<Action, String> {
    let kind = take_tag(path, &mut obj, "do")?;
    let v = Json::Object(obj);
    Ok(match kind.as_str() {
        "start_apiserver" => Action::StartApiserver(de(path, v)?),
        "stop_apiserver" => Action::StopApiserver(de(path, v)?),
        "crash_apiserver" => Action::CrashApiserver(de(path, v)?),
        "add_apiserver" => Action::AddApiserver(de(path, v)?),
        "isolate_apiserver" => Action::IsolateApiserver(de(path, v)?),
        "etcd_outage" => Action::EtcdOutage(de(path, v)?),
        "create_service" => Action::CreateService(de(path, v)?),
        "delete_service" => Action::DeleteService(de(path, v)?),
        "create_pod" => Action::CreatePod(de(path, v)?),
        "delete_pod" => Action::DeletePod(de(path, v)?),
        "set_pod_ready" => Action::SetPodReady(de(path, v)?),
        "corrupt" => {
            let Json::Object(mut obj) = v else { unreachable!() };
            let what = take_tag(path, &mut obj, "what")?;
            let known = ["leak_cluster_ip", "leak_node_port", "unallocate_cluster_ip", "unallocate_node_port", "force_cluster_ip", "force_node_port"];
            if !known.contains(&what.as_str()) {
                return Err(format!("{path}.what: unknown corruption {what:?} (one of {})", known.join(", ")));
            }
            obj.insert("what".into(), Json::String(what));
            Action::Corrupt(de(path, Json::Object(obj))?)
        }
        other => {
            return Err(format!(
                "{path}.do: unknown action {other:?} (one of start_apiserver, stop_apiserver, crash_apiserver, add_apiserver, isolate_apiserver, etcd_outage, create_service, delete_service, create_pod, delete_pod, set_pod_ready, corrupt)"
            ))
        }
    })
}

fn check_action(
    path: &str,
    action: &Action,
    cluster: &ClusterConfig,
    names: &mut BTreeSet<String>,
    addresses: &mut BTreeSet<IpAddr>,
) -> Result<(), String> {
    if let Some(name) = action.apiserver() {
        if !names.contains(name) {
            let field = if matches!(
                action,
                Action::StartApiserver(_)
                    | Action::StopApiserver(_)
                    | Action::CrashApiserver(_)
                    | Action::IsolateApiserver(_)
            ) {
                "apiserver"
            } else {
                "via"
            };
            return Err(format!("{path}.{field}: unknown apiserver {name:?}"));
        }
    }
    match action {
        Action::AddApiserver(a) => {
            let ranges = &cluster.service_ip_ranges;
            check_new_apiserver(
                path,
                &a.name,
                &a.advertise_address,
                cluster.reconciler,
                ranges,
                names,
                addresses,
            )?;
            if let Some(d) = &a.startup_delay {
                duration(&format!("{path}.startup_delay"), d)?;
            }
        }
        Action::IsolateApiserver(i) => {
            duration(&format!("{path}.for"), &i.for_)?;
        }
        Action::EtcdOutage(o) => {
            duration(&format!("{path}.for"), &o.for_)?;
        }
        Action::CreateService(c) => check_service(&format!("{path}.service"), &c.service, false)?,
        Action::CreatePod(c) => check_pod(&format!("{path}.pod"), &c.pod)?,
        Action::Corrupt(c) => match c {
            Corruption::LeakClusterIp { ip } | Corruption::UnallocateClusterIp { ip } => {
                ip_of(&format!("{path}.ip"), ip)?;
            }
            Corruption::ForceClusterIp { ip, .. } => {
                ip_of(&format!("{path}.ip"), ip)?;
            }
            Corruption::LeakNodePort { port }
            | Corruption::UnallocateNodePort { port }
            | Corruption::ForceNodePort { port, .. } => {
                port_number(&format!("{path}.port"), *port as i64)?;
            }
        },
        _ => {}
    }
    Ok(())
}

impl ClusterConfig {
    /// Log lines kube-apiserver prints about its flags at start.
    pub fn startup_warnings(&self) -> Vec<String> {
        if self.default_range_used {
            vec![default_range_warning()]
        } else {
            vec![]
        }
    }
}
