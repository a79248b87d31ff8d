//! Object names as Kubernetes validates them (`k8s::names`): a Service's is a
//! DNS-1035 label, a Pod's a DNS-1123 subdomain, refused in the apiserver's own words, and a
//! refused name changes nothing — from the UI (the lab), an action, a scenario or a link.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use serde_json::json;

use engine::contract::api::{Pod, Service, ServicePort};
use engine::contract::event::EventKind;
use engine::contract::scenario::{self, Action, CreatePod, CreateService};
use engine::sim::timeline::Timeline;
use k8s::names::{self, NameRule};
use lab::{Lab, Msg, Opening};

/// `pkg/util/validation`'s texts, as the apiserver prints them (note the two spaces before
/// "or": its examples are joined so).
const DNS1035: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const DNS1123: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const REQUIRED: &str = "metadata.name: Required value: name or generateName is required";

pub fn service(name: &str) -> Action {
    let service = Service {
        namespace: "default".into(),
        name: name.into(),
        ports: vec![ServicePort { name: "http".into(), port: 80, ..ServicePort::default() }],
        ..Service::default()
    };
    Action::CreateService(CreateService { service, via: None })
}

pub fn pod(name: &str) -> Action {
    let pod = Pod {
        namespace: "default".into(),
        name: name.into(),
        labels: BTreeMap::from([("app".to_string(), "web".to_string())]),
        pod_ip: "10.244.0.2".into(),
        ready: true,
        ..Pod::default()
    };
    Action::CreatePod(CreatePod { pod, via: None })
}

#[test]
fn names_are_refused_in_kubernetes_words() {
    assert_eq!(
        service("My_Svc").validate().unwrap_err(),
        format!(
            "Service \"My_Svc\" is invalid: metadata.name: Invalid value: \"My_Svc\": {DNS1035}"
        )
    );
    assert_eq!(
        service(" x").validate().unwrap_err(),
        format!("Service \" x\" is invalid: metadata.name: Invalid value: \" x\": {DNS1035}")
    );
    assert_eq!(service("").validate().unwrap_err(), format!("Service \"\" is invalid: {REQUIRED}"));
    assert_eq!(pod("").validate().unwrap_err(), format!("Pod \"\" is invalid: {REQUIRED}"));
    assert_eq!(
        pod("My_Pod").validate().unwrap_err(),
        format!("Pod \"My_Pod\" is invalid: metadata.name: Invalid value: \"My_Pod\": {DNS1123}")
    );
    // A Service's name is a label (no dots, a letter first); a Pod's a subdomain.
    assert!(service("web.v1").validate().is_err() && pod("web.v1").validate().is_ok());
    assert!(service("1web").validate().is_err() && pod("1web").validate().is_ok());
    assert!(service("web-1").validate().is_ok() && pod("web-1").validate().is_ok());
}

#[test]
fn names_are_quoted_as_go_quotes_them() {
    assert_eq!(names::go_quote("My_Svc"), "\"My_Svc\"");
    assert_eq!(names::go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    assert_eq!(names::go_quote("a\nb\tc\u{1}d\u{7f}"), "\"a\\nb\\tc\\x01d\\x7f\"");
    assert_eq!(names::go_quote("é\u{a0}\u{2028}"), "\"é\\u00a0\\u2028\"");
    assert!(service("web\nx").validate().unwrap_err().starts_with(
        "Service \"web\\nx\" is invalid: metadata.name: Invalid value: \"web\\nx\": "
    ));
}

#[test]
fn too_long_names_say_so_and_several_errors_are_one_aggregate() {
    let long = "a".repeat(64);
    assert_eq!(
        names::field_errors(&long, NameRule::Dns1035Label),
        vec![format!(
            "metadata.name: Invalid value: \"{long}\": must be no more than 63 characters"
        )]
    );
    assert!(names::is_valid(&"a".repeat(63), NameRule::Dns1035Label));
    // The subdomain's regex bounds no label: only the whole, at 253.
    assert!(names::is_valid(&"a".repeat(253), NameRule::Dns1123Subdomain));
    let dotted = ["a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(62)].join(".");
    assert_eq!(
        names::field_errors(&dotted, NameRule::Dns1123Subdomain),
        vec![format!(
            "metadata.name: Invalid value: \"{dotted}\": must be no more than 253 characters"
        )]
    );
    let bad = format!("{}X", "a".repeat(63));
    assert_eq!(
        service(&bad).validate().unwrap_err(),
        format!("Service \"{bad}\" is invalid: [metadata.name: Invalid value: \"{bad}\": must be no more than 63 characters, metadata.name: Invalid value: \"{bad}\": {DNS1035}]")
    );
}

fn open_default() -> Lab {
    Lab::open(Opening::default()).0
}

#[test]
fn a_refused_name_from_the_ui_changes_nothing_and_says_why() {
    for (action, refusal) in [
        (service(""), "Service \"\" is invalid: "),
        (service("My_Svc"), "Service \"My_Svc\""),
        (pod(""), "Pod \"\" is invalid: "),
    ] {
        let (mut lab, _) =
            Lab::open(Opening { tour: Some("lease-crash-vs-stop"), ..Opening::default() });
        lab.update(Msg::Seek(20_000));
        let (state, link, events) =
            (lab.view().state.clone(), lab.view().link_to_here, lab.view().events.clone());
        lab.update(Msg::Act(action));
        let notice = lab.view().notice.as_deref().unwrap_or_default().to_string();
        assert!(notice.starts_with(refusal) && notice.contains("metadata.name: "), "{notice}");
        assert_eq!(lab.view().state, state, "{refusal}: the cluster is as it was");
        assert_eq!(
            (lab.view().link_to_here, lab.view().events.clone()),
            (link, events),
            "{refusal}: nothing is recorded"
        );
        assert!(
            lab.view().touring.guide.is_some() && !lab.view().player.forked,
            "{refusal}: the tour goes on, no fork"
        );
    }
    // A valid name is created as before.
    let mut lab = open_default();
    lab.update(Msg::Act(service("web")));
    assert_eq!(lab.view().notice.as_deref(), None);
    assert!(lab.view().state.services.iter().any(|s| s.name == "web"));
}

#[test]
fn an_action_or_a_link_with_a_refused_name_creates_nothing() {
    let s = lab::catalogue::scenario("crash-one-of-three").unwrap();
    let mut tl = Timeline::new(&s);
    tl.run_until(10_000);
    let before = tl.world().state();
    let failed = tl.act(pod("Web")).unwrap_err();
    assert_eq!(failed.object, "default/Web");
    assert!(failed.message.starts_with("Pod \"Web\" is invalid: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain"), "{}", failed.message);
    assert!(!failed.apiserver.is_empty(), "refused by the apiserver that served it");
    let after = tl.world().state();
    assert_eq!(
        (before.pods.len(), before.services.len()),
        (after.pods.len(), after.services.len())
    );
    let last = tl.world().events().last().unwrap();
    assert_eq!(last.kind, EventKind::ActionFailed);
    // The same refusal from a link.
    let actions = json!([[5000, {"do": "create_service", "service": {"name": "Web", "ports": [{"port": 80}]}}]]);
    let fragment = format!(
        "scenario=crash-one-of-three&t=6s&actions={}",
        lab::share::percent_encode(&actions.to_string())
    );
    let (_, tl) = lab::share::Moment::decode(&fragment).unwrap().restore().unwrap();
    assert!(!tl.world().state().services.iter().any(|s| s.name == "Web"));
    assert!(tl.world().events().iter().any(|e| e.kind == EventKind::ActionFailed
        && e.message.starts_with("Service \"Web\" is invalid")));
}

#[test]
fn a_scenario_step_with_a_refused_name_is_refused_naming_it() {
    let file = |service: serde_json::Value, pod: serde_json::Value| {
        json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/16",
            "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]},
            "steps": [{"at": "1s", "do": "create_service", "service": service},
                      {"at": "2s", "do": "create_pod", "pod": pod}]})
        .to_string()
    };
    let ok = json!({"name": "web", "ports": [{"port": 80}]});
    let pod_ok = json!({"name": "web-1", "pod_ip": "10.244.0.2"});
    assert!(scenario::parse(&file(ok.clone(), pod_ok.clone())).is_ok());
    assert_eq!(
        scenario::parse(&file(json!({"name": "Web", "ports": [{"port": 80}]}), pod_ok)).unwrap_err(),
        format!("steps[0].service: Service \"Web\" is invalid: metadata.name: Invalid value: \"Web\": {DNS1035}")
    );
    assert_eq!(
        scenario::parse(&file(ok, json!({"name": "", "pod_ip": "10.244.0.2"}))).unwrap_err(),
        format!("steps[1].pod: Pod \"\" is invalid: {REQUIRED}")
    );
}

/// Property tests (native only, as `props`: proptest needs std's process and time facilities).
#[cfg(not(target_arch = "wasm32"))]
mod props {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn every_dns1035_label_is_a_service_name(name in "[a-z]([-a-z0-9]{0,61}[a-z0-9])?") {
            prop_assert!(service(&name).validate().is_ok());
            prop_assert!(pod(&name).validate().is_ok(), "a label is a subdomain too");
        }

        #[test]
        fn every_dns1123_subdomain_is_a_pod_name(labels in prop::collection::vec("[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?", 1..5)) {
            prop_assert!(pod(&labels.join(".")).validate().is_ok());
        }

        #[test]
        fn a_character_outside_the_rules_is_refused_naming_the_value(
            head in "[a-z]{1,5}", bad in "[^-a-z0-9.]", tail in "[a-z]{0,5}"
        ) {
            let name = format!("{head}{bad}{tail}");
            let q = names::go_quote(&name);
            let quoted = format!("metadata.name: Invalid value: {q}: ");
            let (s, p) = (service(&name).validate().unwrap_err(), pod(&name).validate().unwrap_err());
            prop_assert!(!s.contains(['\n', '\r']), "one line: {}", s);
            prop_assert_eq!(s, format!("Service {q} is invalid: {quoted}{DNS1035}"));
            prop_assert_eq!(p, format!("Pod {q} is invalid: {quoted}{DNS1123}"));
        }
    }

    proptest! {
        // Each case opens a lab: a few dozen are enough.
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn a_refused_name_never_changes_the_lab(name in "[ A-Z_.]{1,3}[a-z]{0,3}", pod_too in any::<bool>()) {
            let mut lab = open_default();
            lab.update(Msg::Seek(10_000));
            let (state, link) = (lab.view().state.clone(), lab.view().link_to_here);
            lab.update(Msg::Act(if pod_too { pod(&format!("-{name}")) } else { service(&name) }));
            prop_assert!(lab.view().notice.as_deref().is_some_and(|n| n.contains("metadata.name: Invalid value: ")));
            prop_assert_eq!(lab.view().state, state);
            prop_assert_eq!(lab.view().link_to_here, link);
        }
    }
}
