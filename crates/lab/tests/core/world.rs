//! The discrete-event world: ordering, leases, reachability, start-up and shutdown rules, the
//! API paths, and time travel.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::{json, Value};

use engine::contract::scenario::{self, Action, ApiserverRef, Scenario};
use engine::contract::state::ApiserverStatus;
use engine::duration::{format_ms, parse_ms};
use engine::sim::report;
use engine::sim::timeline::Timeline;
use engine::sim::world::World;

fn scenario(v: Value) -> Scenario {
    scenario::parse(&v.to_string()).unwrap()
}

fn cluster(extra: Value) -> Value {
    let mut c = json!({"service_cluster_ip_range": "10.96.0.0/16",
        "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                       {"name": "apiserver-b", "advertise_address": "192.168.10.12"}]});
    c.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    c
}

fn state_at(s: &Scenario, t: u64) -> Value {
    serde_json::to_value(report::state_at(s, t)).unwrap()
}

fn addresses(state: &Value) -> Vec<String> {
    let eps = state["endpoints"].as_array().unwrap();
    let k = eps.iter().find(|e| e["name"] == "kubernetes").expect("kubernetes endpoints");
    k["subsets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| {
            s["addresses"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string())
        })
        .collect()
}

fn messages(report: &report::Report, component: &str) -> Vec<(u64, String)> {
    report
        .events
        .iter()
        .filter(|e| e.component == component)
        .map(|e| (e.time_ms, e.message.clone()))
        .collect()
}

#[test]
fn durations_in_go_syntax() {
    assert_eq!(parse_ms("250ms"), Ok(250));
    assert_eq!(parse_ms("15s"), Ok(15_000));
    assert_eq!(parse_ms("3m"), Ok(180_000));
    assert_eq!(parse_ms("1h30m"), Ok(5_400_000));
    assert_eq!(parse_ms("1.5s"), Ok(1_500));
    assert_eq!(parse_ms("0"), Ok(0));
    assert!(
        parse_ms("-1s").is_err()
            && parse_ms("15").is_err()
            && parse_ms("1x").is_err()
            && parse_ms("").is_err()
    );
    assert!(parse_ms("2000us").is_ok() && parse_ms("1500us").is_err(), "whole milliseconds only");
    assert_eq!(format_ms(5_400_000), "1h30m0s");
    assert_eq!(format_ms(90_500), "1m30.5s");
    assert_eq!(format_ms(250), "250ms");
}

#[test]
fn first_writes_happen_at_the_start_instant_then_every_interval() {
    let s = scenario(json!({"cluster": cluster(json!({})), "until": "25s"}));
    let st = state_at(&s, 0);
    assert_eq!(addresses(&st), vec!["192.168.10.11", "192.168.10.12"]);
    assert_eq!(st["services"][0]["cluster_ip"], "10.96.0.1");
    assert_eq!(
        st["namespaces"],
        json!(["default", "kube-node-lease", "kube-public", "kube-system"])
    );
    let st = state_at(&s, 25_000);
    assert_eq!(st["leases"][0]["ttl_left_ms"], 10_000, "renewed at 20 s, TTL 15 s");
    assert_eq!(st["apiservers"][0]["status"], "running");
    assert_eq!(st["apiservers"][0]["ready"], true);
}

#[test]
fn the_default_range_is_used_with_its_deprecation_warning() {
    let s = scenario(
        json!({"cluster": {"apiservers": [{"name": "a", "advertise_address": "10.1.0.1"}]}, "until": "1s"}),
    );
    let r = report::run(&s);
    assert_eq!(r.final_state.services[0].cluster_ip, "10.0.0.1");
    assert!(r.events.iter().any(|e| e.message.starts_with(
        "No CIDR for service cluster IPs specified. Default value which was 10.0.0.0/24"
    )));
}

#[test]
fn a_crashed_apiserver_leaves_with_its_lease_and_a_stopped_one_at_once() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "30s", "do": "crash_apiserver", "apiserver": "apiserver-b"}], "until": "1m"}));
    // Last renewal at 20 s (the crash comes before the 30 s sync): gone at 35 s, rewritten at 40 s.
    assert_eq!(addresses(&state_at(&s, 34_999)), vec!["192.168.10.11", "192.168.10.12"]);
    let st = state_at(&s, 35_000);
    assert_eq!(st["leases"].as_array().unwrap().len(), 1, "expired exactly at write + TTL");
    assert_eq!(addresses(&st), vec!["192.168.10.11", "192.168.10.12"], "nobody rewrote yet");
    assert_eq!(addresses(&state_at(&s, 40_000)), vec!["192.168.10.11"]);
    assert_eq!(state_at(&s, 40_000)["apiservers"][1]["status"], "crashed");

    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "30s", "do": "stop_apiserver", "apiserver": "apiserver-b"}], "until": "1m"}));
    let st = state_at(&s, 30_000);
    assert_eq!(addresses(&st), vec!["192.168.10.11"], "the pre-shutdown hook rewrote them");
    assert_eq!(st["apiservers"][1]["status"], "stopped");
}

#[test]
fn steps_run_before_the_controllers_of_the_same_instant() {
    // The delete at 10 s comes before apiserver-a's 10 s sync, which recreates the Service.
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "10s", "do": "delete_service", "namespace": "default", "name": "kubernetes"},
        {"at": "10s", "expect": {"absent": {"services": [{"namespace": "default", "name": "kubernetes"}],
                                           "endpoints": [{"namespace": "default", "name": "kubernetes"}]}}}],
        "until": "10s"}));
    let r = report::run(&s);
    assert!(r.passed(), "{:?}", r.expectations);
    assert_eq!(
        r.final_state.services[0].cluster_ip, "10.96.0.1",
        "recreated by the same instant's sync"
    );
}

#[test]
fn an_outage_makes_everyone_unready_and_api_actions_fail() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "30s", "do": "etcd_outage", "for": "40s"},
        {"at": "31s", "do": "create_service", "service": {"name": "web", "ports": [{"port": 80}]}}],
        "until": "2m"}));
    let st = state_at(&s, 31_000);
    assert_eq!(st["etcd"]["available"], false);
    assert_eq!(st["apiservers"][0]["ready"], false);
    assert_eq!(st["leases"].as_array().unwrap().len(), 2, "TTLs keep running: not yet");
    assert!(
        state_at(&s, 45_000)["leases"].as_array().unwrap().is_empty(),
        "expired during the outage"
    );
    let r = report::run(&s);
    let failed: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.kind == engine::contract::event::EventKind::ActionFailed)
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        (failed[0].object.as_str(), failed[0].message.as_str()),
        ("default/web", "no apiserver can serve the request")
    );
    assert!(r
        .events
        .iter()
        .any(|e| e.message == "unable to sync kubernetes service: context deadline exceeded"));
    assert_eq!(addresses(&state_at(&s, 80_000)), vec!["192.168.10.11", "192.168.10.12"], "healed");
}

#[test]
fn an_isolated_apiserver_shows_isolated_and_loses_its_lease() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "30s", "do": "isolate_apiserver", "apiserver": "apiserver-b", "for": "1m"}], "until": "2m"}));
    let st = state_at(&s, 50_000);
    assert_eq!(st["apiservers"][1]["status"], "isolated");
    assert_eq!(st["apiservers"][1]["ready"], false);
    assert_eq!(addresses(&st), vec!["192.168.10.11"]);
    let st = state_at(&s, 100_000);
    assert_eq!(st["apiservers"][1]["status"], "running");
    assert_eq!(addresses(&st), vec!["192.168.10.11", "192.168.10.12"]);
}

#[test]
fn create_service_allocates_and_refuses_with_kubernetes_texts() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "1s", "do": "create_service", "service": {"name": "dns", "cluster_ip": "10.96.0.10", "ports": [{"port": 53}]}},
        {"at": "2s", "do": "create_service", "service": {"name": "dup", "cluster_ip": "10.96.0.10", "ports": [{"port": 80}]}},
        {"at": "3s", "do": "create_service", "service": {"name": "far", "cluster_ip": "10.97.0.5", "ports": [{"port": 80}]}},
        {"at": "4s", "do": "create_service", "service": {"name": "np", "type": "NodePort", "ports": [{"port": 80, "node_port": 30080}]}},
        {"at": "5s", "do": "create_service", "service": {"name": "np2", "type": "NodePort", "ports": [{"port": 80, "node_port": 30080}]}},
        {"at": "6s", "do": "create_service", "service": {"namespace": "nowhere", "name": "x", "ports": [{"port": 80}]}},
        {"at": "7s", "do": "create_service", "service": {"name": "dns", "ports": [{"port": 53}]}},
        {"at": "8s", "do": "create_service", "service": {"name": "auto", "type": "NodePort", "ports": [{"port": 80}]}}],
        "until": "10s"}));
    let r = report::run(&s);
    let failed: Vec<(&str, &str)> = r
        .events
        .iter()
        .filter(|e| e.kind == engine::contract::event::EventKind::ActionFailed)
        .map(|e| (e.object.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(failed, vec![
        ("default/dup", "Service \"dup\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: failed to allocate IP 10.96.0.10: provided IP is already allocated"),
        ("default/far", "Service \"far\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.97.0.5\"}: failed to allocate IP 10.97.0.5: the provided IP (10.97.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/16"),
        ("default/np2", "Service \"np2\" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated"),
        ("nowhere/x", "namespaces \"nowhere\" not found"),
        ("default/dns", "services \"dns\" already exists"),
    ]);
    let st = &r.final_state;
    let alloc = &st.allocations;
    assert_eq!(alloc.cluster_ip[0].used, 4, "kubernetes, dns, np, auto; failures rolled back");
    let auto = st.services.iter().find(|s| s.name == "auto").unwrap();
    assert!(
        auto.ports[0].node_port >= 30086,
        "a NodePort from the dynamic band: {}",
        auto.ports[0].node_port
    );
    assert_eq!(alloc.node_port.allocated, vec![30080, auto.ports[0].node_port]);
    let auto_ip: std::net::IpAddr = auto.cluster_ip.parse().unwrap();
    assert!(
        u32::from(match auto_ip {
            std::net::IpAddr::V4(v) => v,
            _ => unreachable!(),
        }) - u32::from(std::net::Ipv4Addr::new(10, 96, 0, 0))
            > 256
    );
}

#[test]
fn deleting_a_service_releases_its_ip_and_ports() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "1s", "do": "create_service", "service": {"name": "np", "type": "NodePort", "cluster_ip": "10.96.0.20", "ports": [{"port": 80, "node_port": 30080}]}},
        {"at": "2s", "do": "delete_service", "namespace": "default", "name": "np"},
        {"at": "3s", "do": "delete_service", "namespace": "default", "name": "np"}], "until": "3s"}));
    let r = report::run(&s);
    assert_eq!(r.final_state.allocations.cluster_ip[0].allocated, vec!["10.96.0.1"]);
    assert!(r.final_state.allocations.node_port.allocated.is_empty());
    assert!(r.events.iter().any(|e| e.kind == engine::contract::event::EventKind::ActionFailed
        && e.message == "services \"np\" not found"));
}

#[test]
fn behaviour_1_20_runs_repair_twice_at_start() {
    let leak = |behavior: &str| {
        let s = scenario(json!({"behavior": behavior, "cluster": cluster(json!({})),
            "initial": {"cluster_ip_allocation": {"range": "10.96.0.0/16", "allocated": ["10.96.0.7"]}}, "until": "1s"}));
        report::run(&s).final_state.apiservers[0].repair.cluster_ip_leaks.get("10.96.0.7").copied()
    };
    assert_eq!(leak("1.29"), Some(1), "one run: flagged");
    assert_eq!(leak("1.20"), Some(0), "RunOnce in Start() plus the loop's first run");
}

#[test]
fn starting_during_an_outage_1_29_dies_after_a_minute_and_1_20_at_once() {
    let s = |behavior: &str| {
        scenario(json!({"behavior": behavior, "cluster": cluster(json!({})), "steps": [
        {"at": "10s", "do": "stop_apiserver", "apiserver": "apiserver-b"},
        {"at": "20s", "do": "etcd_outage", "for": "5m"},
        {"at": "30s", "do": "start_apiserver", "apiserver": "apiserver-b"}], "until": "2m"}))
    };
    let r = report::run(&s("1.29"));
    let b: Vec<_> = r
        .events
        .iter()
        .filter(|e| e.apiserver == "apiserver-b" && e.time_ms >= 30_000)
        .map(|e| (e.time_ms, e.message.as_str()))
        .collect();
    assert!(
        b.contains(&(30_000, "unable to refresh the service IP block: context deadline exceeded")),
        "{b:?}"
    );
    assert!(b.contains(&(90_000, "PostStartHook \"start-service-ip-repair-controllers\" failed: unable to perform initial IP and Port allocation check")), "{b:?}");
    assert_eq!(
        state_at(&s("1.29"), 89_000)["apiservers"][1]["status"],
        "running",
        "an outage is etcd's, not an isolation"
    );
    assert_eq!(state_at(&s("1.29"), 89_000)["apiservers"][1]["ready"], false);
    assert_eq!(state_at(&s("1.29"), 90_000)["apiservers"][1]["status"], "crashed");
    let r = report::run(&s("1.20"));
    assert!(r.events.iter().any(|e| e.time_ms == 30_000 && e.message == "Unable to perform initial IP allocation check: unable to refresh the service IP block: context deadline exceeded"));
    assert_eq!(state_at(&s("1.20"), 30_000)["apiservers"][1]["status"], "crashed");
}

#[test]
fn a_stop_that_cannot_reach_etcd_times_out_after_two_intervals() {
    let s = scenario(json!({"cluster": cluster(json!({})), "steps": [
        {"at": "20s", "do": "isolate_apiserver", "apiserver": "apiserver-b", "for": "5m"},
        {"at": "25s", "do": "stop_apiserver", "apiserver": "apiserver-b"}], "until": "1m"}));
    assert_eq!(state_at(&s, 30_000)["apiservers"][1]["status"], "isolated");
    let r = report::run(&s);
    assert!(messages(&r, "kube-apiserver")
        .contains(&(45_000, "RemoveEndpoints() timed out".to_string())));
    assert_eq!(
        state_at(&s, 44_999)["apiservers"][1]["status"],
        "isolated",
        "stopping while cut off"
    );
    assert_eq!(state_at(&s, 45_000)["apiservers"][1]["status"], "stopped");
    assert!(!r.final_state.apiservers[1].ready);
}

#[test]
fn startup_delay_shows_starting() {
    let s = scenario(
        json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/16", "apiservers": [
        {"name": "a", "advertise_address": "192.168.10.11"},
        {"name": "b", "advertise_address": "192.168.10.12", "start_at": "5s", "startup_delay": "3s"},
        {"name": "c", "advertise_address": "192.168.10.13", "start_at": null}]}, "until": "10s"}),
    );
    assert_eq!(state_at(&s, 6_000)["apiservers"][1]["status"], "starting");
    assert_eq!(state_at(&s, 6_000)["apiservers"][2]["status"], "stopped");
    assert_eq!(addresses(&state_at(&s, 8_000)), vec!["192.168.10.11", "192.168.10.12"]);
}

#[test]
fn same_scenario_same_bytes() {
    let s = scenario(json!({"seed": 5, "cluster": cluster(json!({})), "steps": [
        {"at": "1s", "do": "create_service", "service": {"name": "a", "type": "NodePort", "ports": [{"port": 80}]}},
        {"at": "2s", "do": "create_service", "service": {"name": "b", "ports": [{"port": 80}]}}], "until": "5m"}));
    let one = serde_json::to_string(&report::run(&s)).unwrap();
    assert_eq!(one, serde_json::to_string(&report::run(&s)).unwrap());
    let other_seed = scenario::parse(&s_text_with_seed(6)).unwrap();
    assert_ne!(
        serde_json::to_string(&report::run(&other_seed).final_state.services).unwrap(),
        serde_json::to_string(&report::run(&s).final_state.services).unwrap(),
        "the seed picks the IPs"
    );
}

fn s_text_with_seed(seed: u64) -> String {
    json!({"seed": seed, "cluster": cluster(json!({})), "steps": [
        {"at": "1s", "do": "create_service", "service": {"name": "a", "type": "NodePort", "ports": [{"port": 80}]}},
        {"at": "2s", "do": "create_service", "service": {"name": "b", "ports": [{"port": 80}]}}], "until": "5m"}).to_string()
}

#[test]
fn seeking_back_equals_replaying_and_acting_in_the_past_forks() {
    let s =
        scenario(json!({"cluster": cluster(json!({"repair_interval": "30s"})), "until": "10m"}));
    let crash = Action::CrashApiserver(ApiserverRef { apiserver: "apiserver-b".into() });
    let mut tl = Timeline::new(&s);
    tl.run_until(150_000);
    tl.act(crash.clone()).expect("a running apiserver crashes");
    tl.run_until(400_000);
    let at_400 = tl.world().state();

    tl.seek(200_000);
    let mut fresh = World::new(&s);
    fresh.run_until(150_000);
    fresh.act(&crash).expect("a running apiserver crashes");
    fresh.run_until(200_000);
    assert_eq!(tl.world().state(), fresh.state(), "seek = replay from the seed and the action log");
    tl.seek(400_000);
    assert_eq!(tl.world().state(), at_400, "and forward again");

    // Acting at 100 s, before the crash, forks: the crash is gone from this timeline.
    tl.seek(100_000);
    tl.act(Action::stop("apiserver-a")).expect("a running apiserver stops");
    assert_eq!(tl.actions().len(), 1);
    tl.run_until(400_000);
    let st = tl.world().state();
    assert_eq!(st.apiservers[0].status, ApiserverStatus::Stopped);
    assert_eq!(st.apiservers[1].status, ApiserverStatus::Running);
}

/// Issue 9, 5a: the endpoints controller deletes an Endpoints object only when it sees that
/// Endpoints' Service deleted. A stale `default/kubernetes` Endpoints given in `initial` is met by
/// the reconciler (updated in place, as upstream's reconciler tests set it up), and an Endpoints
/// that no Service owns is left alone.
#[test]
fn endpoints_without_a_service_are_left_alone_and_deleted_only_with_their_service() {
    let s = scenario(json!({
        "cluster": cluster(json!({"apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]})),
        "initial": {"endpoints": [
            {"namespace": "default", "name": "kubernetes", "labels": {"team": "from-before"},
             "subsets": [{"addresses": ["192.168.10.11", "192.168.10.99"], "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]}]},
            {"namespace": "default", "name": "orphan",
             "subsets": [{"addresses": ["10.0.0.1"], "ports": [{"port": 80, "protocol": "TCP"}]}]}]},
        "steps": [
            {"at": "20s", "do": "create_service", "service": {"name": "web", "selector": {"app": "web"}, "ports": [{"port": 80}]}},
            {"at": "40s", "do": "delete_service", "namespace": "default", "name": "web"}],
        "until": "1m"
    }));
    let names = |st: &Value| -> Vec<String> {
        let eps = st["endpoints"].as_array().unwrap();
        eps.iter().map(|e| e["name"].as_str().unwrap().to_string()).collect()
    };
    let st = state_at(&s, 10_000);
    assert_eq!(names(&st), ["kubernetes", "orphan"]);
    // Updated in place: the stale address is gone, the object (with its label) is the same one.
    assert_eq!(addresses(&st), ["192.168.10.11"]);
    let k = st["endpoints"].as_array().unwrap().iter().find(|e| e["name"] == "kubernetes").unwrap();
    assert_eq!(k["labels"]["team"], "from-before", "{k}");
    let r = report::run(&s);
    assert!(
        r.events.iter().any(|e| e.message
            == "Resetting endpoints for master service \"kubernetes\" to [192.168.10.11]"),
        "the lease reconciler met the stale list"
    );
    assert_eq!(names(&state_at(&s, 30_000)), ["kubernetes", "orphan", "web"]);
    assert_eq!(names(&state_at(&s, 50_000)), ["kubernetes", "orphan"], "web's went with web");
}

/// A refused action returns its reason, records it once, and leaves the world unchanged.
#[test]
fn a_refused_action_is_returned_recorded_and_changes_nothing() {
    let s = scenario(json!({"cluster": cluster(json!({})), "until": "1m"}));
    let mut w = World::new(&s);
    w.run_until(30_000);
    let before = serde_json::to_string(&w.state()).unwrap();
    let events = w.events().len();
    let err = w
        .act(&Action::StartApiserver(ApiserverRef { apiserver: "apiserver-a".into() }))
        .unwrap_err();
    assert_eq!(err.message, "apiserver apiserver-a is already running");
    assert_eq!((err.apiserver.as_str(), err.object.as_str()), ("apiserver-a", "apiserver-a"));
    assert_eq!(serde_json::to_string(&w.state()).unwrap(), before);
    let recorded = &w.events()[events..];
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].reason, "action_failed");
    assert_eq!(recorded[0].message, err.message);
    let unknown = w.act(&Action::CrashApiserver(ApiserverRef { apiserver: "nobody".into() }));
    assert_eq!(unknown.unwrap_err().message, "unknown apiserver \"nobody\"");
}

/// A UI or a link may add apiservers only up to the scenario format's own limit.
#[test]
fn adding_apiservers_stops_at_the_limit_of_the_format() {
    let s = scenario(json!({"cluster": cluster(json!({})), "until": "1m"}));
    let mut w = World::new(&s);
    let add = |i: usize| -> Action {
        serde_json::from_value(json!({"do": "add_apiserver", "name": format!("extra-{i}"),
            "advertise_address": format!("192.168.20.{i}")}))
        .unwrap()
    };
    for i in 0..scenario::MAX_APISERVERS - 2 {
        w.act(&add(i)).expect("within the limit");
    }
    let err = w.act(&add(99)).unwrap_err();
    assert_eq!(err.message, "more than 16 apiservers, the most the lab runs");
    assert_eq!(w.apiservers().count(), scenario::MAX_APISERVERS);
}

/// After going back, a seek forward starts from the checkpoint before its target (not from the
/// present): the world, its events and its marks are those of a straight run, before and after
/// a fork, and across the furthest instant reached.
#[test]
fn seeking_forward_from_a_later_checkpoint_is_a_straight_run() {
    let s = scenario(json!({"name": "fwd", "seed": 4, "cluster": cluster(json!({})),
        "steps": [{"at": "130s", "do": "crash_apiserver", "apiserver": "apiserver-b"}]}));
    let straight = |t: u64, act_at: Option<u64>| {
        let mut w = World::new(&s);
        if let Some(at) = act_at {
            w.run_until(at);
            w.act(&Action::stop("apiserver-a")).expect("a running apiserver stops");
        }
        w.run_until(t);
        (w.state(), w.events().to_vec(), w.marks().to_vec())
    };
    let here = |tl: &Timeline| {
        let w = tl.world();
        (w.state(), w.events().to_vec(), w.marks().to_vec())
    };
    let mut tl = Timeline::new(&s);
    tl.run_until(600_000);
    for t in [30_000, 545_000, 61_000, 299_999, 600_000, 0, 720_000, 240_000, 719_000] {
        tl.seek(t);
        assert_eq!(here(&tl), straight(t, None), "seek to {t}");
    }
    tl.seek(200_000);
    tl.act(Action::stop("apiserver-a")).expect("a running apiserver stops");
    tl.run_until(400_000);
    for t in [210_000, 390_000, 199_000, 500_000, 260_000] {
        tl.seek(t);
        assert_eq!(
            here(&tl),
            straight(t, (t >= 200_000).then_some(200_000)),
            "after the fork, seek to {t}"
        );
    }
}

/// Found by `make soak` (a panic in `Timeline::seek` after an hour of clicks): moving forward
/// from the past within one checkpoint interval (a seek with no checkpoint between, or playing)
/// replays the history's actions on the way, as a seek across a checkpoint does. It ran the
/// world without them, so the present lost them, and a fork there left checkpoints whose logs
/// were longer than the present's: the next seek back sliced past their end.
#[test]
fn moving_forward_in_the_past_replays_the_actions_on_the_way() {
    let s = scenario(json!({"cluster": cluster(json!({})), "until": "10m"}));
    let crash = Action::CrashApiserver(ApiserverRef { apiserver: "apiserver-b".into() });
    let straight = |t: u64| {
        let mut w = World::new(&s);
        w.run_until(150_000);
        w.act(&crash).expect("a running apiserver crashes");
        w.run_until(t);
        (w.state(), w.marks().to_vec())
    };
    let mut tl = Timeline::new(&s);
    tl.run_until(150_000);
    tl.act(crash.clone()).expect("a running apiserver crashes");
    tl.run_until(400_000);
    // Back to 130 s, then forward to 170 s and by playing to 175 s: no checkpoint lies between.
    tl.seek(130_000);
    tl.seek(170_000);
    assert_eq!(
        (tl.world().state(), tl.world().marks().to_vec()),
        straight(170_000),
        "a seek forward"
    );
    tl.seek(130_000);
    tl.run_until(175_000);
    assert_eq!(
        (tl.world().state(), tl.world().marks().to_vec()),
        straight(175_000),
        "playing forward"
    );
    // A fork here, then back and across the checkpoints of the old history: no panic.
    tl.act(Action::stop("apiserver-a")).expect("a running apiserver stops");
    for t in [0, 250_000, 100_000, 175_000, 60_000] {
        tl.seek(t);
    }
    assert_eq!(tl.world().now(), 60_000);
}
