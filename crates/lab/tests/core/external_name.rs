//! ExternalName Services (`docs/extensions.md`, "ExternalName Services"): the contract has no
//! field for `spec.externalName`, so `external_name` is an unknown field wherever a Service is
//! read (a file's `initial` and steps, an experiment's steps, a link's actions), and an
//! ExternalName Service is taken as one whose externalName is valid: it is accepted, and gets
//! no ClusterIP, no NodePort and no Endpoints.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::{json, Value as Json};

use engine::contract::scenario::{self, Action};
use engine::sim::report;
use lab::share::{percent_encode, Moment};
use lab::{Lab, Msg, Opening};

/// A one-apiserver scenario with `extra` merged into its top level.
fn with(extra: Json) -> String {
    let mut v = json!({"name": "t", "cluster": {"service_cluster_ip_range": "10.96.0.0/12",
        "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]}});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v.to_string()
}

fn named(name: &str) -> Json {
    json!({"name": name, "type": "ExternalName", "external_name": "db.example.com"})
}

fn create(service: Json) -> Json {
    json!({"do": "create_service", "service": service})
}

#[test]
fn external_name_is_an_unknown_field_wherever_a_service_is_read() {
    let unknown = |path: &str| {
        format!("{path}.external_name: unknown field `external_name`, expected one of `namespace`, `name`, `type`, `cluster_ip`")
    };
    let mut step = create(named("db"));
    step["at"] = json!("5s");
    let experiment = json!({"title": "t", "watch": "w", "steps": [step.clone()]});
    let files = [
        (json!({"initial": {"services": [named("db")]}}), "initial.services[0]"),
        (json!({"steps": [step.clone()]}), "steps[0].service"),
        (json!({"experiments": [experiment]}), "experiments[0].steps[0].service"),
    ];
    for (extra, path) in files {
        let err = scenario::parse(&with(extra)).unwrap_err();
        assert!(err.starts_with(&unknown(path)), "{err:?}");
    }
    // A link's action is read by the same rules, naming the action.
    let actions = percent_encode(&json!([[1000, create(named("db"))]]).to_string());
    let link = format!("#scenario=crash-one-of-three&t=5s&actions={actions}");
    let err = Moment::decode(&link).unwrap_err();
    assert!(err.starts_with(&format!("link: {}", unknown("actions[0].service"))), "{err:?}");
}

#[test]
fn an_external_name_service_is_accepted_and_gets_nothing_allocated() {
    let svc = |name: &str| json!({"name": name, "type": "ExternalName", "selector": {"app": "web"}, "ports": [{"port": 80}]});
    let mut step = create(svc("cname"));
    step["at"] = json!("5s");
    let s = scenario::parse(&with(json!({
        "initial": {"services": [svc("db")],
                    "pods": [{"name": "web-1", "labels": {"app": "web"}, "pod_ip": "10.244.0.5"}]},
        "steps": [step],
        "until": "10s",
    })))
    .unwrap();
    let r = report::run(&s);
    assert!(!r.events.iter().any(|e| e.reason == "action_failed"), "{:?}", r.events);
    let state = serde_json::to_value(&r.final_state).unwrap();
    for name in ["db", "cname"] {
        let found = state["services"].as_array().unwrap().iter().find(|s| s["name"] == name);
        let found = found.unwrap_or_else(|| panic!("{name} exists"));
        assert_eq!((found.get("cluster_ip"), found.get("cluster_ips")), (None, None), "{found}");
        assert_eq!(found["ports"][0].get("node_port"), None, "{found}");
        // The endpoints controller leaves an ExternalName Service alone, selector or not.
        let endpoints = state["endpoints"].as_array().unwrap();
        assert!(!endpoints.iter().any(|e| e["name"] == name), "{endpoints:?}");
    }
}

#[test]
fn the_lab_accepts_an_external_name_service_from_a_reader() {
    let (mut lab, _) =
        Lab::open(Opening { scenario: Some("crash-one-of-three"), ..Opening::default() });
    lab.update(Msg::Seek(5_000));
    let action =
        Action::from_json("", create(json!({"name": "db", "type": "ExternalName"}))).unwrap();
    lab.update(Msg::Act(action));
    assert_eq!(lab.view().notice.as_deref(), None);
    let db = lab.view().state.services.iter().find(|s| s.name == "db").cloned().expect("db exists");
    assert_eq!((db.cluster_ip.as_str(), db.cluster_ips.len()), ("", 0));
}
