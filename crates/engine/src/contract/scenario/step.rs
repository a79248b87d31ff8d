//! `steps` (`docs/scenario.md` §2): when, and an action or an `expect`; actions are checked
//! against the cluster they will run in.

use serde_json::Value as Json;

use super::action::Action;
use super::cluster::Taken;
use super::duration;
use super::step_file::{At, StepFile};
use crate::k8s::api::Behavior;
use crate::k8s::controlplane::ClusterConfig;

/// What a step does: an action, or a check.
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// Boxed: an action is large beside an expectation, and steps are moved in lists.
    Do(Box<Action>),
    /// A partial state plus `events_include`, `events_exclude` and `absent`.
    Expect(Json),
}

/// One step of a scenario (`docs/scenario.md` §2).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub(crate) at_ms: u64,
    /// `at` as written, echoed in the run report.
    pub at: String,
    /// What it does.
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
    raw: &StepFile,
    cluster: &ClusterConfig,
    behavior: Behavior,
    taken: &mut Taken,
) -> Result<Step, String> {
    let StepFile::Object { at, expect, action, keys } = raw else {
        return Err(format!("{path}: a step must be an object"));
    };
    let at = match at {
        At::Text(s) => s.clone(),
        At::NotAString => {
            return Err(format!("{path}.at: must be a duration string such as \"90s\""))
        }
        At::Missing => return Err(format!("{path}.at: missing field")),
    };
    let at_ms = duration(&format!("{path}.at"), &at)?;
    let kind = match (action, expect) {
        (Some(action), None) => {
            let action = action.as_ref().map_err(|e| super::located_below(path, ".", e.clone()))?;
            check_action(path, action, cluster, taken)?;
            check_behavior(path, action, behavior)?;
            StepKind::Do(action.clone())
        }
        (None, Some(expect)) => StepKind::Expect(expect_of(path, keys, expect)?),
        (Some(_), Some(_)) => {
            return Err(format!("{path}: a step has either `do` or `expect`, not both"))
        }
        (None, None) => return Err(format!("{path}: a step needs `do` or `expect`")),
    };
    Ok(Step { at_ms, at, kind })
}

/// An `expect` (its keys are checked; its values are compared with the state when it runs);
/// `keys`, the step's others, name the first refused in sorted order.
fn expect_of(path: &str, keys: &[String], expect: &Json) -> Result<Json, String> {
    if let Some(k) = keys.iter().min() {
        return Err(format!("{path}.{k}: unknown field"));
    }
    check_predicate(&format!("{path}.expect"), expect)?;
    Ok(expect.clone())
}

/// A predicate written as an `expect` is (a scenario's `expect`, a tour step's `until`), at
/// `path`: an object of the state's keys and the three checks.
pub fn check_predicate(path: &str, predicate: &Json) -> Result<(), String> {
    let Json::Object(e) = predicate else {
        return Err(format!("{path}: must be an object"));
    };
    if let Some(k) = e.keys().find(|k| !EXPECT_KEYS.contains(&k.as_str())) {
        return Err(format!("{path}.{k}: unknown field"));
    }
    Ok(())
}

/// What serde cannot check: the apiservers named exist, new ones are unique, names are valid
/// (durations, addresses, ports and objects' IPs were checked as they were read).
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
    if let Some(node) = action.node() {
        if !taken.has_node(node) {
            return Err(format!("{path}.node: unknown node {node:?}"));
        }
    }
    match action {
        Action::AddApiserver(a) => {
            taken.add_at(path, &a.name, a.advertise_address, cluster)?;
        }
        // A name Kubernetes refuses is invalid input in a file, an API error at run time.
        Action::CreateService(c) => c.validate().map_err(|e| format!("{path}.service: {e}"))?,
        Action::CreatePod(c) => c.validate().map_err(|e| format!("{path}.pod: {e}"))?,
        _ => {}
    }
    Ok(())
}

/// §6: what `behavior` has no objects for, as every caller words it.
fn check_behavior(path: &str, action: &Action, behavior: Behavior) -> Result<(), String> {
    match action.unsupported_under(behavior) {
        Some((field, why)) => Err(format!("{path}.{field}: {why}")),
        None => Ok(()),
    }
}
