//! `steps` (`docs/scenario.md` §2): when, and an action or an `expect`; actions are checked
//! against the cluster they will run in.

use serde_json::{Map, Value as Json};

use super::action::{Action, Corruption};
use super::cluster::{check_new_apiserver, Taken};
use crate::controlplane::ClusterConfig;
use super::initial::{check_pod, check_service};
use super::{de, duration, ip_of, port_number};
use crate::api::Behavior;

#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    Do(Action),
    /// A partial state plus `events_include`, `events_exclude` and `absent`.
    Expect(Json),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub(crate) at_ms: u64,
    /// `at` as written, echoed in the run report.
    pub at: String,
    pub kind: StepKind,
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
    "service_cidrs",
    "ip_addresses",
    "endpoint_slices",
    "events_include",
    "events_exclude",
    "absent",
];

/// Step `path` (`steps[3]`); `taken` gains the apiservers an `add_apiserver` adds.
pub(super) fn step(
    path: &str,
    raw: &Json,
    cluster: &ClusterConfig,
    behavior: Behavior,
    taken: &mut Taken,
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
            let action: Action = de(path, Json::Object(rest))?;
            check_action(path, &action, cluster, taken)?;
            check_behavior(path, &action, behavior)?;
            StepKind::Do(action)
        }
        (false, Some(expect)) => StepKind::Expect(expect_of(path, &rest, expect)?),
        (true, Some(_)) => {
            return Err(format!(
                "{path}: a step has either `do` or `expect`, not both"
            ))
        }
        (false, None) => return Err(format!("{path}: a step needs `do` or `expect`")),
    };
    Ok(Step { at_ms, at, kind })
}

/// An `expect` (its keys are checked; its values are compared with the state when it runs).
fn expect_of(path: &str, rest: &Map<String, Json>, expect: Json) -> Result<Json, String> {
    if let Some(k) = rest.keys().next() {
        return Err(format!("{path}.{k}: unknown field"));
    }
    let Json::Object(e) = &expect else {
        return Err(format!("{path}.expect: must be an object"));
    };
    if let Some(k) = e.keys().find(|k| !EXPECT_KEYS.contains(&k.as_str())) {
        return Err(format!("{path}.expect.{k}: unknown field"));
    }
    Ok(expect)
}

/// What serde cannot check: the apiservers named exist, new ones are unique, durations, IPs
/// and ports are well formed.
fn check_action(
    path: &str,
    action: &Action,
    cluster: &ClusterConfig,
    taken: &mut Taken,
) -> Result<(), String> {
    if let Some(name) = action.apiserver() {
        if !taken.has_name(name) {
            let field = action.apiserver_field();
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
                taken,
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
        Action::CreateService(c) => {
            c.validate().map_err(|e| format!("{path}.service: {e}"))?;
            check_service(&format!("{path}.service"), &c.service, false)?
        }
        Action::CreatePod(c) => {
            c.validate().map_err(|e| format!("{path}.pod: {e}"))?;
            check_pod(&format!("{path}.pod"), &c.pod)?
        }
        Action::Corrupt(c) => check_corruption(path, c)?,
        _ => {}
    }
    Ok(())
}

/// §6: ServiceCIDRs and IPAddresses exist from 1.33; 1.35 has no ClusterIP bitmap to corrupt.
fn check_behavior(path: &str, action: &Action, behavior: Behavior) -> Result<(), String> {
    if action.needs_ip_addresses() && !behavior.ip_addresses() {
        return Err(format!("{path}.do: ServiceCIDR and IPAddress objects exist from behavior \"1.33\" on, not under \"{behavior}\""));
    }
    if let Action::Corrupt(c) = action {
        if c.edits_ip_bitmap() && !behavior.cluster_ip_bitmap() {
            return Err(format!(
                "{path}.what: behavior \"{behavior}\" has no ClusterIP bitmap"
            ));
        }
    }
    Ok(())
}

fn check_corruption(path: &str, c: &Corruption) -> Result<(), String> {
    match c {
        Corruption::LeakClusterIp { ip }
        | Corruption::UnallocateClusterIp { ip }
        | Corruption::ForceClusterIp { ip, .. } => {
            ip_of(&format!("{path}.ip"), ip)?;
        }
        Corruption::LeakNodePort { port }
        | Corruption::UnallocateNodePort { port }
        | Corruption::ForceNodePort { port, .. } => {
            port_number(&format!("{path}.port"), *port as i64)?;
        }
        Corruption::PutIpAddress { ip, parent } => {
            ip_of(&format!("{path}.ip"), ip)?;
            if parent.name.is_empty() {
                return Err(format!("{path}.parent.name: must not be empty"));
            }
        }
        Corruption::DeleteIpAddress { ip } => {
            ip_of(&format!("{path}.ip"), ip)?;
        }
    }
    Ok(())
}
