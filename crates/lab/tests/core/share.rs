//! Shareable moments: a link replays to exactly the state it was taken from; bad links are
//! refused with the part at fault named.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use engine::contract::scenario::{self, Action};
use engine::sim::timeline::Timeline;
use lab::catalogue;
use lab::share::{percent_decode, percent_encode, Moment, Source};
use lab::{Lab, Opening, DEFAULT_SCENARIO};

fn action(v: serde_json::Value) -> Action {
    serde_json::from_value(v).unwrap()
}

#[test]
fn percent_coding_round_trips() {
    let s = r#"[[60000,{"do":"crash_apiserver","apiserver":"apiserver-b"}]] 中文 &#="#;
    assert_eq!(percent_decode(&percent_encode(s)).unwrap(), s);
    assert!(percent_encode(s).bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~%".contains(&b)));
    assert!(
        percent_decode("%G1").is_err()
            && percent_decode("%4").is_err()
            && percent_decode("%FF").is_err()
    );
}

#[test]
fn a_link_restores_the_exact_moment() {
    let text = catalogue::scenario_text("crash-one-of-three").unwrap();
    let s = scenario::parse(text).unwrap();
    let mut live = Timeline::new(&s);
    live.run_until(20_000);
    live.act(action(json!({"do": "crash_apiserver", "apiserver": "apiserver-a"})))
        .expect("a running apiserver crashes");
    live.run_until(45_500);
    live.act(action(json!({"do": "create_service", "service": {"name": "web", "type": "NodePort", "ports": [{"port": 80}]}})))
        .expect("a ready apiserver creates it");
    live.run_until(61_000);

    let moment = Moment {
        source: Source::Builtin("crash-one-of-three".into()),
        seed: None,
        time_ms: live.world().now(),
        experiment: None,
        actions: live.actions().to_vec(),
    };
    let link = moment.encode();
    assert!(
        link.starts_with("scenario=crash-one-of-three&t=1m1s&actions=%5B%5B20000%2C"),
        "{link}"
    );
    let decoded = Moment::decode(&format!("#{link}")).unwrap();
    assert_eq!(decoded, moment);
    let (_, restored) = decoded.restore().unwrap();
    assert_eq!(restored.world().state(), live.world().state());
    assert_eq!(restored.world().events(), live.world().events());

    // Another seed is another story: the NodePort and the ClusterIP it drew differ.
    let other = Moment { seed: Some(99), ..moment.clone() }.restore().unwrap().1;
    let web = |t: &Timeline| {
        t.world().state().services.iter().find(|s| s.name == "web").cloned().unwrap()
    };
    assert_ne!(web(&other), web(&live));
}

#[test]
fn an_inline_scenario_travels_in_the_link() {
    let file = json!({"name": "sandbox", "cluster": {"service_cluster_ip_range": "172.20.0.0/20",
        "apiservers": [{"name": "a", "advertise_address": "192.168.1.1"}]}})
    .to_string();
    let m = Moment {
        source: Source::Inline(file),
        seed: Some(3),
        time_ms: 30_000,
        experiment: None,
        actions: vec![],
    };
    let (s, tl) = Moment::decode(&m.encode()).unwrap().restore().unwrap();
    assert_eq!(s.seed, 3);
    assert_eq!(tl.world().state().services[0].cluster_ip, "172.20.0.1");
}

#[test]
fn bad_links_name_the_part_at_fault() {
    let err = |f: &str| Moment::decode(f).and_then(|m| m.restore().map(|_| m)).unwrap_err();
    assert_eq!(err("#t=10s"), "link: it names no scenario (scenario=… or file=…)");
    assert_eq!(err("#scenario=nope"), "link: scenario: unknown scenario \"nope\"");
    assert!(err("#scenario=crash-one-of-three&t=soon").starts_with("link: t: "));
    assert_eq!(
        err("#scenario=crash-one-of-three&seed=-1"),
        "link: seed: \"-1\" is not a non-negative integer"
    );
    assert_eq!(err("#scenario=crash-one-of-three&colour=red"), "link: unknown part \"colour\"");
    assert_eq!(
        err("#scenario=crash-one-of-three&t=5s&actions=%5B"),
        "link: actions: EOF while parsing a list at line 1 column 1"
    );
    assert!(err("#scenario=crash-one-of-three&t=5s&actions=%5B%5B1000%2C%7B%22do%22%3A%22explode%22%7D%5D%5D").starts_with("link: actions[0].do: unknown variant `explode`"));
    assert_eq!(err("#scenario=crash-one-of-three&t=1s&actions=%5B%5B5000%2C%7B%22do%22%3A%22etcd_outage%22%2C%22for%22%3A%221s%22%7D%5D%5D"),
        "link: actions: an action comes after t");
    assert!(err("#file=%7B%7D").starts_with("link: file: cluster: missing field"));
    assert_eq!(err("#scenario"), "link: \"scenario\" is not key=value");
}

#[test]
fn actions_naming_unknown_apiservers_fail_without_changing_anything() {
    let text = catalogue::scenario_text("crash-one-of-three").unwrap();
    let m = Moment {
        source: Source::Builtin("crash-one-of-three".into()),
        seed: None,
        time_ms: 2_000,
        experiment: None,
        actions: vec![(
            1_000,
            action(json!({"do": "crash_apiserver", "apiserver": "apiserver-z"})),
        )],
    };
    let (_, tl) = m.restore().unwrap();
    let failed: Vec<_> = tl
        .world()
        .events()
        .iter()
        .filter(|e| e.reason == "action_failed")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(failed, vec!["unknown apiserver \"apiserver-z\""]);
    let mut clean = Timeline::new(&scenario::parse(text).unwrap());
    clean.run_until(2_000);
    assert_eq!(tl.world().state().services, clean.world().state().services);
}

/// A link whose action carries `action` at 1 s (of a 5 s moment of crash-one-of-three).
fn link_with(action: serde_json::Value) -> String {
    let actions = percent_encode(&json!([[1000, action]]).to_string());
    format!("#scenario=crash-one-of-three&t=5s&actions={actions}")
}

#[test]
fn a_link_whose_action_carries_a_bad_value_is_refused_naming_the_field() {
    let isolate =
        |d: &str| json!({"do": "isolate_apiserver", "apiserver": "apiserver-a", "for": d});
    let cases = [
        (isolate("abc"), "link: actions[0].for: invalid duration \"abc\""),
        (isolate("-5s"), "link: actions[0].for: invalid duration \"-5s\""),
        (
            isolate("99999h"),
            "link: actions[0].for: \"99999h\" exceeds 2h0m0s, the longest virtual time the lab runs",
        ),
        (
            json!({"do": "etcd_outage", "for": 30}),
            "link: actions[0].for: invalid type: integer `30`, expected a string",
        ),
        (
            json!({"do": "add_apiserver", "name": "x", "advertise_address": "10.0.0.300"}),
            "link: actions[0].advertise_address: invalid IP address \"10.0.0.300\"",
        ),
        (
            json!({"do": "add_apiserver", "name": "x", "advertise_address": "192.168.10.50", "startup_delay": "1h61m"}),
            "link: actions[0].startup_delay: \"1h61m\" exceeds 2h0m0s, the longest virtual time the lab runs",
        ),
        (
            json!({"do": "corrupt", "what": "leak_cluster_ip", "ip": "not-an-ip"}),
            "link: actions[0].ip: invalid IP address \"not-an-ip\"",
        ),
        (
            json!({"do": "corrupt", "what": "leak_node_port", "port": 0}),
            "link: actions[0].port: 0 is not a port number (1-65535)",
        ),
        (
            json!({"do": "corrupt", "what": "put_ip_address", "ip": "10.96.0.5", "parent": {"name": ""}}),
            "link: actions[0].parent.name: must not be empty",
        ),
        (
            json!({"do": "create_service", "service": {"name": "web", "ports": [{"port": 70000}]}}),
            "link: actions[0].service.ports[0].port: 70000 is not a port number (1-65535)",
        ),
        (
            json!({"do": "create_pod", "pod": {"name": "web-1", "pod_ip": "10.244.0.x"}}),
            "link: actions[0].pod.pod_ip: invalid IP address \"10.244.0.x\"",
        ),
    ];
    for (action, want) in cases {
        assert_eq!(Moment::decode(&link_with(action)).unwrap_err(), want);
    }
    // The same values in a scenario file are refused in the same words, naming the step.
    let step =
        json!({"at": "1s", "do": "isolate_apiserver", "apiserver": "apiserver-a", "for": "-5s"});
    let file = json!({"cluster": {"apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]}, "steps": [step]});
    assert_eq!(
        scenario::parse(&file.to_string()).unwrap_err(),
        "steps[0].for: invalid duration \"-5s\""
    );
}

#[test]
fn a_link_whose_action_is_invalid_opens_the_fallback_saying_which_field() {
    // [[1000, {"do": "isolate_apiserver", "apiserver": "apiserver-a", "for": "abc"}]]
    let link = "#scenario=crash-one-of-three&t=5s&actions=%5B%5B1000%2C%7B%22do%22%3A%22isolate_apiserver%22%2C%22apiserver%22%3A%22apiserver-a%22%2C%22for%22%3A%22abc%22%7D%5D%5D";
    let (lab, notes) = Lab::open(Opening { link: Some(link), ..Opening::default() });
    assert_eq!(lab.view().scenario.name, DEFAULT_SCENARIO);
    assert_eq!(lab.view().player.now, 0);
    assert_eq!(
        notes,
        [
            "This link could not be opened (link: actions[0].for: invalid duration \"abc\").",
            "Showing the default scenario."
        ]
    );
    assert_eq!(lab.view().notice.as_deref(), Some(notes.join(" ").as_str()));
}

#[test]
fn a_good_link_round_trips_its_typed_values() {
    let link =
        link_with(json!({"do": "isolate_apiserver", "apiserver": "apiserver-a", "for": "90s"}));
    let m = Moment::decode(&link).unwrap();
    assert_eq!(
        m.actions,
        vec![(
            1000,
            action(json!({"do": "isolate_apiserver", "apiserver": "apiserver-a", "for": "1m30s"}))
        )]
    );
    assert_eq!(Moment::decode(&m.encode()).unwrap(), m);
}

#[test]
fn an_ordinary_anchor_is_not_a_link_of_the_lab() {
    use lab::share::is_moment;
    for foreign in ["", "#", "#install", "#section-2", "#foo=bar&baz", "install"] {
        assert!(!is_moment(foreign), "{foreign:?}");
    }
    for ours in [
        "#scenario=crash-one-of-three",
        "#t=10s",
        "#file=%7B%7D",
        "seed=3&t=1s",
        "#scenario",
        "#colour=red&t=5s",
    ] {
        assert!(is_moment(ours), "{ours:?}");
    }
    // Every link the lab writes is one of its moments.
    let m = Moment {
        source: Source::Builtin("crash-one-of-three".into()),
        seed: Some(2),
        time_ms: 1_000,
        experiment: None,
        actions: vec![],
    };
    assert!(is_moment(&m.encode()));
}

#[test]
fn a_link_beyond_the_ceiling_of_virtual_time_is_refused_at_once() {
    assert_eq!(
        Moment::decode("#scenario=crash-one-of-three&t=1000000s").unwrap_err(),
        "link: t: \"1000000s\" exceeds 2h0m0s, the longest virtual time the lab runs"
    );
    let m = Moment::decode("#scenario=crash-one-of-three&t=2h").unwrap();
    assert_eq!(m.time_ms, engine::contract::scenario::MAX_TIME_MS);
}

#[test]
fn a_long_fragment_is_quoted_short() {
    let long = "x".repeat(20_000);
    for fragment in [
        format!("#{long}"),
        format!("#scenario=crash-one-of-three&{long}=1"),
        format!("#scenario=crash-one-of-three&seed={long}"),
        format!("#scenario=crash-one-of-three&t={long}"),
        format!("#scenario={long}"),
        format!("#scenario=crash-one-of-three&t=5s&actions=%5B%5B1000%2C%7B%22do%22%3A%22{long}%22%7D%5D%5D"),
    ] {
        let e = Moment::decode(&fragment)
            .and_then(|m| m.restore().map(|_| m))
            .unwrap_err();
        assert!(e.chars().count() < 300, "{} chars: {}…", e.len(), &e[..100]);
        assert!(e.contains("xxxx"), "{e}");
    }
    assert_eq!(
        Moment::decode(&format!("#scenario={long}")).unwrap().restore().unwrap_err(),
        format!("link: scenario: unknown scenario \"{}\"…", "x".repeat(60))
    );
}
