//! The scenario parser: actions read by serde's tag keep the field path in their errors; unset
//! ClusterIPs; the ceiling of virtual time and the other limits (`docs/extensions.md`).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::{json, Value as Json};

use engine::contract::scenario::{
    self, Action, Corruption, CreateService, StepKind, MAX_APISERVERS, MAX_TIME_MS,
};
use engine::sim::report;

/// A one-apiserver scenario with `extra` merged into its top level.
fn with(extra: Json) -> String {
    let mut v = json!({"name": "t", "cluster": {"service_cluster_ip_range": "10.96.0.0/12",
        "apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]}});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v.to_string()
}

fn err(extra: Json) -> String {
    scenario::parse(&with(extra)).unwrap_err()
}

fn step_err(step: Json) -> String {
    err(json!({"steps": [step]}))
}

#[test]
fn an_action_error_names_its_field_below_the_step() {
    let cases = [
        (
            json!({"at": "1s", "do": "create_service", "service": {"name": "x", "ports": [{"port": "80"}]}}),
            "steps[0].service.ports[0].port: invalid type: string \"80\", expected i32",
        ),
        (
            json!({"at": "1s", "do": "create_service", "service": {"ports": []}}),
            "steps[0].service.name: missing field",
        ),
        (json!({"at": "1s", "do": "crash_apiserver"}), "steps[0].apiserver: missing field"),
        (
            json!({"at": "1s", "do": "crash_apiserver", "apiserver": 5}),
            "steps[0].apiserver: invalid type: integer `5`, expected a string",
        ),
        (
            json!({"at": "1s", "do": "crash_apiserver", "apiserver": "a", "colour": 1}),
            "steps[0].colour: unknown field `colour`, expected `apiserver`",
        ),
        (json!({"at": "1s", "do": "corrupt"}), "steps[0].what: missing field"),
        (
            json!({"at": "1s", "do": "isolate_apiserver", "apiserver": "z", "for": "1s"}),
            "steps[0].apiserver: unknown apiserver \"z\"",
        ),
        (
            json!({"at": "1s", "do": "delete_pod", "name": "p", "via": "z"}),
            "steps[0].via: unknown apiserver \"z\"",
        ),
    ];
    for (step, want) in cases {
        assert_eq!(step_err(step), want);
    }
    assert!(step_err(json!({"at": "1s", "do": "explode"}))
        .starts_with("steps[0].do: unknown variant `explode`, expected one of `start_apiserver`"));
    assert!(step_err(json!({"at": "1s", "do": "corrupt", "what": "boom"}))
        .starts_with("steps[0].what: unknown variant `boom`, expected one of `leak_cluster_ip`"));
}

#[test]
fn actions_read_from_a_file_and_from_json_are_the_same_values() {
    let steps = json!([
        {"at": "1s", "do": "corrupt", "what": "force_node_port", "namespace": "default", "name": "web", "port": 30001},
        {"at": "2s", "do": "create_service", "service": {"name": "web", "type": "NodePort", "ports": [{"port": 80}]}, "via": "a"},
    ]);
    let s = scenario::parse(&with(json!({"steps": steps}))).unwrap();
    let actions: Vec<&Action> = s
        .steps
        .iter()
        .map(|st| match &st.kind {
            StepKind::Do(a) => a.as_ref(),
            StepKind::Expect(_) => panic!("an action"),
        })
        .collect();
    assert_eq!(
        actions[0],
        &Action::Corrupt(Corruption::ForceNodePort {
            namespace: "default".into(),
            name: "web".into(),
            port: 30001
        })
    );
    for (a, raw) in actions.iter().zip(steps.as_array().unwrap()) {
        let mut raw = raw.clone();
        raw.as_object_mut().unwrap().remove("at");
        let back: Action = serde_json::from_value(serde_json::to_value(a).unwrap()).unwrap();
        assert_eq!(&&back, a);
        assert_eq!(serde_json::from_value::<Action>(raw).unwrap(), **a);
    }
}

#[test]
fn an_empty_cluster_ip_is_unset_not_invalid() {
    let s = scenario::parse(&with(json!({
        "initial": {"services": [
            {"name": "db", "type": "ExternalName", "cluster_ip": "", "cluster_ips": [""]},
            {"name": "plain", "cluster_ip": ""},
        ]},
        "steps": [{"at": "1s", "do": "create_service", "service": {"name": "web", "cluster_ip": "", "cluster_ips": [""]}}],
        "until": "4m",
    })))
    .unwrap();
    // `[""]` reads as no list at all, in `initial` and in actions alike.
    assert!(s.initial.services.iter().all(|svc| svc.cluster_ips.is_empty()));
    let StepKind::Do(action) = &s.steps[0].kind else { panic!("an action step") };
    let Action::CreateService(CreateService { service, .. }) = action.as_ref() else {
        panic!("a create_service step");
    };
    assert!(service.cluster_ips.is_empty());

    let report = report::run(&s);
    // Repair (at 0s and 3m) skips both, as upstream's `IsServiceIPSet` does.
    assert!(
        !report.events.iter().any(|e| e.object.ends_with("/db") || e.object.ends_with("/plain")),
        "{:?}",
        report.events
    );
    let state = serde_json::to_value(&report.final_state).unwrap();
    let svc = |name: &str| {
        state["services"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap().clone()
    };
    assert_eq!(svc("db").get("cluster_ip"), None);
    assert_eq!(svc("db").get("cluster_ips"), None);
    // Through the API an unset ClusterIP is allocated, as upstream allocates one for `""`.
    assert!(svc("web")["cluster_ip"].as_str().unwrap().starts_with("10."));
}

#[test]
fn an_empty_cluster_ip_is_accepted_in_first_place_only() {
    let svc =
        |ips: Json| err(json!({"initial": {"services": [{"name": "s", "cluster_ips": ips}]}}));
    assert_eq!(
        svc(json!(["10.96.0.5", ""])),
        "initial.services[0].cluster_ips[1]: invalid IP address \"\""
    );
    assert_eq!(
        svc(json!(["", "fd00::/x"])),
        "initial.services[0].cluster_ips[1]: invalid IP address \"fd00::/x\""
    );
    assert!(scenario::parse(&with(
        json!({"initial": {"services": [{"name": "s", "cluster_ips": ["", "fd00::5"]}]}})
    ))
    .is_ok());
}

#[test]
fn virtual_time_has_a_ceiling_and_every_field_beyond_it_is_named() {
    let over = "exceeds 2h0m0s, the longest virtual time the lab runs";
    let cluster = |c: Json| {
        let mut v = json!({"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]});
        for (k, x) in c.as_object().unwrap() {
            v[k] = x.clone();
        }
        err(json!({"cluster": v}))
    };
    assert_eq!(err(json!({"until": "99999999h"})), format!("until: \"99999999h\" {over}"));
    assert_eq!(
        step_err(json!({"at": "2h0m0.001s", "do": "etcd_outage", "for": "1s"})),
        format!("steps[0].at: \"2h0m0.001s\" {over}")
    );
    assert_eq!(
        err(
            json!({"steps": [{"at": "1s", "expect": {}}, {"at": "2s", "do": "etcd_outage", "for": "3h"}]})
        ),
        format!("steps[1].for: \"3h\" {over}")
    );
    assert_eq!(
        cluster(json!({"lease_ttl": "7201s"})),
        format!("cluster.lease_ttl: \"7201s\" {over}")
    );
    assert_eq!(
        cluster(json!({"repair_interval": "100000h"})),
        format!("cluster.repair_interval: \"100000h\" {over}")
    );
    assert_eq!(
        cluster(
            json!({"apiservers": [{"name": "a", "advertise_address": "192.168.10.11", "startup_delay": "3h"}]})
        ),
        format!("cluster.apiservers[0].startup_delay: \"3h\" {over}")
    );
    assert_eq!(
        err(json!({"initial": {"leases": [{"ip": "192.168.10.99", "ttl_left": "121m"}]}})),
        format!("initial.leases[0].ttl_left: \"121m\" {over}")
    );
    // The ceiling itself is allowed, and a run to it ends.
    let s = scenario::parse(&with(json!({"until": "2h"}))).unwrap();
    assert_eq!(s.until_ms, MAX_TIME_MS);
    assert_eq!(report::run(&s).final_state.time_ms, MAX_TIME_MS);
}

#[test]
fn intervals_have_a_floor() {
    let cluster = |c: Json| {
        let mut v = json!({"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]});
        for (k, x) in c.as_object().unwrap() {
            v[k] = x.clone();
        }
        scenario::parse(&with(json!({"cluster": v})))
    };
    assert_eq!(
        cluster(json!({"endpoint_reconciler_interval": "1ms"})).unwrap_err(),
        "cluster.endpoint_reconciler_interval: \"1ms\" is shorter than 1s, the shortest the lab runs"
    );
    assert_eq!(
        cluster(json!({"repair_interval": "9s"})).unwrap_err(),
        "cluster.repair_interval: \"9s\" is shorter than 10s, the shortest the lab runs"
    );
    assert_eq!(
        cluster(json!({"repair_interval": "0s"})).unwrap_err(),
        "cluster.repair_interval: \"0s\" is shorter than 10s, the shortest the lab runs"
    );
    let s = cluster(
        json!({"endpoint_reconciler_interval": "1s", "repair_interval": "10s", "lease_ttl": "1s"}),
    )
    .unwrap();
    assert_eq!(
        (s.cluster.endpoint_interval_ms, s.cluster.repair_interval_ms, s.cluster.lease_ttl_ms),
        (1000, 10_000, 1000)
    );
}

#[test]
fn a_scenario_has_at_most_sixteen_apiservers() {
    let apiservers = |n: usize| -> Vec<Json> {
        (0..n)
            .map(|i| json!({"name": format!("a{i}"), "advertise_address": format!("192.168.10.{}", i + 1)}))
            .collect()
    };
    let file = |n: usize, steps: Json| {
        json!({"cluster": {"apiservers": apiservers(n)}, "steps": steps}).to_string()
    };
    assert!(scenario::parse(&file(MAX_APISERVERS, json!([]))).is_ok());
    assert_eq!(
        scenario::parse(&file(MAX_APISERVERS + 1, json!([]))).unwrap_err(),
        "cluster.apiservers[16]: more than 16 apiservers, the most the lab runs"
    );
    let add = json!([{"at": "1s", "do": "add_apiserver", "name": "x", "advertise_address": "192.168.10.200"}]);
    assert!(scenario::parse(&file(MAX_APISERVERS - 1, add.clone())).is_ok());
    assert_eq!(
        scenario::parse(&file(MAX_APISERVERS, add)).unwrap_err(),
        "steps[0]: more than 16 apiservers, the most the lab runs"
    );
}

#[test]
fn echoed_input_is_cut_short() {
    let long = "x".repeat(20_000);
    let e = err(json!({"until": long}));
    assert!(e.len() < 120, "{e}");
    assert!(e.starts_with(&format!("until: invalid duration \"{}\"…", "x".repeat(60))), "{e}");
}

/// A valid file is read straight from its text, any other through a JSON value: what the second
/// accepts (a key given twice: the last counts) and what it says (invalid JSON, a field's
/// error) are as they were.
#[test]
fn a_file_is_read_the_same_straight_from_its_text_or_through_a_value() {
    let base = with(json!({"until": "2m"}));
    let twice = base.replacen("\"name\":\"t\"", "\"name\":\"first\",\"name\":\"t\"", 1);
    assert_ne!(twice, base);
    let (a, b) = (scenario::parse(&base).unwrap(), scenario::parse(&twice).unwrap());
    assert_eq!((a.name.as_str(), a.until_ms), (b.name.as_str(), b.until_ms));
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert!(scenario::parse(&format!("{base} x"))
        .unwrap_err()
        .starts_with("invalid JSON: trailing characters"));
    assert!(scenario::parse("{\"name\": ").unwrap_err().starts_with("invalid JSON: "));
    assert_eq!(err(json!({"until": 5})), "until: invalid type: integer `5`, expected a string");
}

/// A key, name, kind or value with a line break (fuzz/regressions/) is echoed escaped: every
/// rejection of a scenario file, a kubectl import, a link, a URL parameter or a port range is one
/// line.
#[test]
fn a_rejection_is_one_line_whatever_it_echoes() {
    for (file, text) in [
        (
            "unknown field",
            include_str!("../../../../fuzz/regressions/scenario/multiline-unknown-field.json"),
        ),
        (
            "unknown variant",
            include_str!("../../../../fuzz/regressions/scenario/multiline-unknown-variant.json"),
        ),
        (
            "duplicate object",
            include_str!("../../../../fuzz/regressions/scenario/multiline-duplicate-object.json"),
        ),
    ] {
        let e = scenario::parse(text).unwrap_err();
        assert!(!e.contains(['\n', '\r']) && e.contains("\\n"), "{file}: {e:?}");
    }
    let e = import::kubectl::read(include_str!(
        "../../../../fuzz/regressions/kubectl/multiline-kind.json"
    ))
    .unwrap_err();
    assert!(!e.contains(['\n', '\r']) && e.contains("\\n"), "kubectl: {e:?}");
    // A link, the page's URL parameters and a port range echo their input too.
    let link = include_str!("../../../../fuzz/regressions/link/multiline-escape");
    let e = lab::share::Moment::decode(link).unwrap_err();
    assert!(!e.contains(['\n', '\r']) && e.starts_with("link: "), "link: {e:?}");
    let (_, problems) =
        lab::embed::parse_query(include_str!("../../../../fuzz/regressions/embed/multiline-key"));
    assert!(problems.iter().any(|p| p.contains("\\n")), "{problems:?}");
    assert!(problems.iter().all(|p| !p.contains(['\n', '\r'])), "URL parameters: {problems:?}");
    let e = k8s::portallocator::PortRange::parse(include_str!(
        "../../../../fuzz/regressions/port_range/multiline-range"
    ))
    .unwrap_err();
    assert!(
        !e.contains(['\n', '\r']) && e.starts_with("unable to parse port range: "),
        "port range: {e:?}"
    );
    assert_eq!(
        scenario::parse(include_str!("../../../../fuzz/regressions/scenario/multiline-unknown-field.json")).unwrap_err(),
        "cluster.x\\ny: unknown field `x\\ny`, expected one of `service_cluster_ip_range`, `service_node_port_range`, `endpoint_reconciler_type`, `apiserver_count`, `kubernetes_service_node_port`, `secure_port`, `kubernetes_service_port`, `endpoint_reconciler_interval`, `lease_ttl`, `repair_interval`, `apiservers`"
    );
}

/// Every part of a file and every Kubernetes object in it is an object: serde would read a struct
/// from an array by position (fuzz/regressions/scenario/array-file.json, a whole file so, was
/// accepted) and name Rust types in its errors.
#[test]
fn an_array_in_place_of_an_object_is_refused_where_it_stands() {
    let by_position = include_str!("../../../../fuzz/regressions/scenario/array-file.json");
    assert_eq!(
        scenario::parse(by_position).unwrap_err(),
        "invalid type: sequence, expected a JSON object"
    );
    let apiserver = json!(["a", "192.168.10.11", null, null]);
    for (extra, path) in [
        (json!({"cluster": ["10.96.0.0/12"]}), "cluster"),
        (json!({"cluster": {"apiservers": [apiserver]}}), "cluster.apiservers[0]"),
        (json!({"initial": [[], [], []]}), "initial"),
        (json!({"initial": {"leases": [["192.168.10.11", "10s"]]}}), "initial.leases[0]"),
        (
            json!({"initial": {"cluster_ip_allocation": ["10.96.0.0/12", []]}}),
            "initial.cluster_ip_allocation",
        ),
        (
            json!({"initial": {"node_port_allocation": ["30000-32767", [30001]]}}),
            "initial.node_port_allocation",
        ),
        (
            json!({"initial": {"ip_addresses": [["10.96.0.5", {}, "0s"]]}}),
            "initial.ip_addresses[0]",
        ),
        (json!({"initial": {"services": [["default", "x"]]}}), "initial.services[0]"),
        (
            json!({"initial": {"services": [{"name": "x", "ports": [["http", 80]]}]}}),
            "initial.services[0].ports[0]",
        ),
        (json!({"initial": {"pods": [["default", "p"]]}}), "initial.pods[0]"),
        (
            json!({"initial": {"endpoints": [{"name": "e", "subsets": [[[]]]}]}}),
            "initial.endpoints[0].subsets[0]",
        ),
        (
            json!({"steps": [{"at": "1s", "do": "create_service", "service": ["default", "x"]}]}),
            "steps[0].service",
        ),
        (
            json!({"steps": [{"at": "1s", "do": "create_pod", "pod": ["default", "p"]}]}),
            "steps[0].pod",
        ),
    ] {
        assert_eq!(
            err(extra.clone()),
            format!("{path}: invalid type: sequence, expected a JSON object"),
            "{extra}"
        );
    }
    // The objects themselves still read as before, straight from the text.
    let allocations = json!({"initial": {"cluster_ip_allocation": {"range": "10.96.0.0/12", "allocated": ["10.96.0.1"]},
        "node_port_allocation": {"range": "30000-32767", "allocated": [30001]}}});
    assert!(scenario::parse(&with(allocations)).is_ok());
}

/// fuzz/regressions/duration: a fraction whose digits overflow is refused (it panicked in debug
/// builds and wrapped to a wrong value in release ones).
#[test]
fn a_duration_whose_fraction_overflows_is_refused() {
    let input = include_str!("../../../../fuzz/regressions/duration/overflow-in-fraction");
    let e = engine::duration::parse_ms(input).unwrap_err();
    assert!(e.starts_with("invalid duration"), "{e}");
}
