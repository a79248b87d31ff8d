//! The waits a written step may take besides its instant: predicates of the scenario contract's
//! `expect` (`docs/tour.md` §4) that hold at the moment shown, each with its words.

use serde_json::{json, Value as Json};

use super::draft::Texts;
use crate::contract::state::State;
use crate::k8s::event::Event;
use crate::KUBERNETES;

/// A predicate offered for a step's `until`, in the lab's own words.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The predicate in the lab's words.
    pub label: Texts,
    /// The predicate as a step's `until` writes it.
    pub until: Json,
}

fn choice(en: String, zh: String, until: Json) -> Choice {
    Choice { label: Texts { en, zh }, until }
}

/// What holds now, as predicates a step could wait for: each apiserver's status and
/// readiness, the `kubernetes` Service, its Endpoints' addresses, the leases in etcd, etcd's
/// availability, and the events of this very instant. Each is checked by the contract's own
/// `expect` against `state` and `events` before it is offered.
pub(crate) fn choices(state: &State, events: &[Event]) -> Vec<Choice> {
    let mut out = Vec::new();
    for a in &state.apiservers {
        let status = serde_json::to_value(a.status).expect("a status serialises");
        let s = status.as_str().unwrap_or_default().to_string();
        out.push(choice(
            format!("{} is {s}", a.name),
            format!("{} 处于 {s} 状态", a.name),
            json!({"apiservers": [{"name": a.name, "status": status}]}),
        ));
        let (en, zh) = match a.ready {
            true => ("ready", "就绪"),
            false => ("not ready", "未就绪"),
        };
        out.push(choice(
            format!("{} is {en} (/readyz)", a.name),
            format!("{} {zh}（/readyz）", a.name),
            json!({"apiservers": [{"name": a.name, "ready": a.ready}]}),
        ));
    }
    out.push(service(state));
    out.push(endpoints(state));
    let ips: Vec<&str> = state.leases.iter().map(|l| l.ip.as_str()).collect();
    let leases: Vec<Json> = ips.iter().map(|ip| json!({"ip": ip})).collect();
    out.push(match ips.is_empty() {
        true => choice(
            "no lease is left in etcd".into(),
            "etcd 中没有租约了".into(),
            json!({"leases": []}),
        ),
        false => choice(
            format!("the leases in etcd are exactly {}", ips.join(", ")),
            format!("etcd 中的租约恰好是 {}", ips.join("、")),
            json!({"leases": leases}),
        ),
    });
    out.push(match state.etcd.available {
        true => choice(
            "etcd is available".into(),
            "etcd 可用".into(),
            json!({"etcd": {"available": true}}),
        ),
        false => choice(
            "etcd is unavailable".into(),
            "etcd 不可用".into(),
            json!({"etcd": {"available": false}}),
        ),
    });
    out.extend(happened(state.time_ms, events));
    let state = serde_json::to_value(state).expect("state serialises");
    out.retain(|c| crate::contract::expect::check(&c.until, &state, events).is_empty());
    out
}

fn service(state: &State) -> Choice {
    let svc = state.services.iter().find(|s| s.namespace == "default" && s.name == KUBERNETES);
    match svc {
        Some(s) => choice(
            format!("the kubernetes Service exists at {}", s.cluster_ip),
            format!("kubernetes Service 存在，地址 {}", s.cluster_ip),
            json!({"services": [{"namespace": "default", "name": KUBERNETES, "cluster_ip": s.cluster_ip}]}),
        ),
        None => choice(
            "the kubernetes Service is gone".into(),
            "kubernetes Service 不存在".into(),
            json!({"absent": {"services": [{"namespace": "default", "name": KUBERNETES}]}}),
        ),
    }
}

fn endpoints(state: &State) -> Choice {
    let ep = state.endpoints.iter().find(|e| e.namespace == "default" && e.name == KUBERNETES);
    let Some(ep) = ep else {
        return choice(
            "the kubernetes Endpoints are gone".into(),
            "kubernetes Endpoints 不存在".into(),
            json!({"absent": {"endpoints": [{"namespace": "default", "name": KUBERNETES}]}}),
        );
    };
    let addresses: Vec<&str> =
        ep.subsets.iter().flat_map(|s| s.addresses.iter().map(String::as_str)).collect();
    let subsets: Vec<Json> = ep.subsets.iter().map(|s| json!({"addresses": s.addresses})).collect();
    let until =
        json!({"endpoints": [{"namespace": "default", "name": KUBERNETES, "subsets": subsets}]});
    match addresses.is_empty() {
        true => choice(
            "the kubernetes Endpoints list no address".into(),
            "kubernetes Endpoints 没有地址".into(),
            until,
        ),
        false => choice(
            format!("the kubernetes Endpoints list exactly {}", addresses.join(", ")),
            format!("kubernetes Endpoints 恰好列出 {}", addresses.join("、")),
            until,
        ),
    }
}

/// The events of instant `now`, one choice per reason and object: "it has happened".
fn happened(now: u64, events: &[Event]) -> Vec<Choice> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut out = Vec::new();
    for e in events.iter().rev().take_while(|e| e.time_ms == now) {
        if e.reason.is_empty() || seen.contains(&(e.reason.as_str(), e.object.as_str())) {
            continue;
        }
        seen.push((&e.reason, &e.object));
        let on = match e.object.is_empty() {
            true => String::new(),
            false => format!(" ({})", e.object),
        };
        out.push(choice(
            format!("an event {}{on} has happened", e.reason),
            format!("事件 {}{on} 已发生", e.reason),
            json!({"events_include": [{"reason": e.reason, "object": e.object}]}),
        ));
    }
    out.reverse();
    out
}
