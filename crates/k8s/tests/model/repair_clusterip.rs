#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::api::{Behavior, IpFamily, RangeAllocation, Service};
use k8s::event::{Event, EventKind, Recorder};
use k8s::ipallocator::Range;
use k8s::repair::ClusterIpRepair;

use crate::{ip, net};

pub fn svc(ns: &str, name: &str, ips: &[&str]) -> Service {
    Service {
        namespace: ns.into(),
        name: name.into(),
        cluster_ip: ips.first().map_or(String::new(), |s| s.to_string()),
        cluster_ips: ips.iter().map(|s| s.to_string()).collect(),
        ..Service::default()
    }
}

fn stored(cidr: &str, ips: &[&str]) -> RangeAllocation {
    let mut r = Range::new(net(cidr), Behavior::V1_29);
    for s in ips {
        r.allocate(ip(s)).unwrap();
    }
    r.snapshot()
}

fn ips_of(snapshot: &RangeAllocation) -> Vec<String> {
    let r = Range::from_snapshot(snapshot, Behavior::V1_29).unwrap();
    r.iter().map(|i| i.to_string()).collect()
}

/// The events (not log lines) as (reason, object, message).
fn warnings(rec: &Recorder) -> Vec<(String, String, String)> {
    rec.events
        .iter()
        .filter(|e| e.type_ == "Warning")
        .map(|e| (e.reason.clone(), e.object.clone(), e.message.clone()))
        .collect()
}

fn logs(rec: &Recorder) -> Vec<String> {
    rec.events.iter().filter(|e| e.type_ == "Log").map(|e| e.message.clone()).collect()
}

fn w(reason: &str, object: &str, message: &str) -> (String, String, String) {
    (reason.into(), object.into(), message.into())
}

fn run(
    repair: &mut ClusterIpRepair,
    snaps: &[RangeAllocation],
    svcs: &[Service],
) -> (Vec<RangeAllocation>, Recorder) {
    let mut rec = Recorder::new(1000, "apiserver-a");
    let out = repair.run_once(snaps, svcs, &mut rec).unwrap();
    (out, rec)
}

#[test]
fn a_consistent_world_produces_nothing_and_is_written_back_unchanged() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let snap = stored("10.96.0.0/12", &["10.96.0.1", "10.96.0.10"]);
    let svcs = [
        svc("default", "kubernetes", &["10.96.0.1"]),
        svc("kube-system", "kube-dns", &["10.96.0.10"]),
    ];
    let (out, rec) = run(&mut repair, std::slice::from_ref(&snap), &svcs);
    assert!(rec.events.is_empty(), "{:?}", rec.events);
    assert_eq!(out, vec![snap]);
}

#[test]
fn events_carry_component_time_apiserver_and_object() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let (_, rec) =
        run(&mut repair, &[stored("10.96.0.0/12", &[])], &[svc("default", "web", &["10.96.0.7"])]);
    assert_eq!(
        rec.events[0],
        Event {
            time_ms: 1000,
            apiserver: "apiserver-a".into(),
            component: "ipallocator-repair-controller".into(),
            type_: "Warning".into(),
            reason: "ClusterIPNotAllocated".into(),
            object: "default/web".into(),
            message: "Cluster IP [IPv4]:10.96.0.7 is not allocated; repairing".into(),
            kind: EventKind::ClusterIpNotAllocated,
        }
    );
    // The log line names the service as name/namespace, as upstream's does.
    assert_eq!(
        logs(&rec),
        vec!["the cluster IP [IPv4]:10.96.0.7 for service web/default is not allocated; repairing"]
    );
}

#[test]
fn a_missing_allocation_is_repaired() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let (out, _) =
        run(&mut repair, &[stored("10.96.0.0/12", &[])], &[svc("default", "web", &["10.96.0.7"])]);
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.7"]);
}

#[test]
fn an_uninitialised_object_gets_the_configured_range() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let (out, rec) = run(
        &mut repair,
        &[RangeAllocation::default()],
        &[svc("default", "kubernetes", &["10.96.0.1"])],
    );
    assert_eq!(out[0].range, "10.96.0.0/12");
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.1"]);
    assert_eq!(warnings(&rec)[0].0, "ClusterIPNotAllocated");
}

#[test]
fn duplicates_are_decided_by_list_order() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let snap = stored("10.96.0.0/12", &["10.96.0.20"]);
    let svcs = [svc("default", "a", &["10.96.0.20"]), svc("default", "b", &["10.96.0.20"])];
    let (out, rec) = run(&mut repair, std::slice::from_ref(&snap), &svcs);
    assert_eq!(
        warnings(&rec),
        vec![w("ClusterIPAlreadyAllocated", "default/b",
            "Cluster IP [IPv4]:10.96.0.20 was assigned to multiple services; please recreate service")]
    );
    assert_eq!(logs(&rec), vec!["the cluster IP [IPv4]:10.96.0.20 for service b/default was assigned to multiple services; please recreate"]);
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.20"]);
    // The other order blames the other service.
    let reversed = [svcs[1].clone(), svcs[0].clone()];
    let (_, rec) = run(&mut repair, &[snap], &reversed);
    assert_eq!(warnings(&rec)[0].1, "default/a");
}

#[test]
fn out_of_range_ips_are_reported_and_not_stored() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/24")], Behavior::V1_29);
    let (out, rec) =
        run(&mut repair, &[stored("10.96.0.0/24", &[])], &[svc("prod", "api", &["10.100.0.5"])]);
    assert_eq!(
        warnings(&rec),
        vec![w("ClusterIPOutOfRange", "prod/api",
            "Cluster IP [IPv4]:10.100.0.5 is not within the service CIDR 10.96.0.0/24; please recreate service")]
    );
    assert_eq!(logs(&rec), vec!["the cluster IP [IPv4]:10.100.0.5 for service api/prod is not within the service CIDR 10.96.0.0/24; please recreate"]);
    assert!(ips_of(&out[0]).is_empty());
}

#[test]
fn a_range_change_flags_old_services_and_drops_old_leaks() {
    // The stored object still holds the old /24; the flag now says 10.1.0.0/24.
    let mut repair = ClusterIpRepair::new(vec![net("10.1.0.0/24")], Behavior::V1_29);
    let old = stored("10.0.0.0/24", &["10.0.0.5", "10.0.0.7"]);
    let (out, rec) = run(
        &mut repair,
        &[old],
        &[svc("default", "new", &["10.1.0.9"]), svc("default", "old", &["10.0.0.5"])],
    );
    assert_eq!(
        warnings(&rec),
        vec![
            w("ClusterIPNotAllocated", "default/new", "Cluster IP [IPv4]:10.1.0.9 is not allocated; repairing"),
            w("ClusterIPOutOfRange", "default/old",
                "Cluster IP [IPv4]:10.0.0.5 is not within the service CIDR 10.1.0.0/24; please recreate service"),
        ]
    );
    let logs = logs(&rec);
    assert!(logs.contains(
        &"the cluster IP 10.0.0.5 may have leaked: flagging for later clean up".to_string()
    ));
    assert!(logs.contains(&"the cluster IP 10.0.0.5 may have leaked, but can not be allocated: the provided IP (10.0.0.5) is not in the valid range. The range of valid IPs is 10.1.0.0/24".to_string()));
    assert!(logs.contains(&"the cluster IP 10.0.0.7 may have leaked, but can not be allocated: the provided IP (10.0.0.7) is not in the valid range. The range of valid IPs is 10.1.0.0/24".to_string()));
    assert_eq!(out[0].range, "10.1.0.0/24", "written back with the configured range");
    assert_eq!(ips_of(&out[0]), vec!["10.1.0.9"]);
}

#[test]
fn growing_a_range_on_the_same_network_keeps_offsets() {
    let mut repair = ClusterIpRepair::new(vec![net("10.0.0.0/16")], Behavior::V1_29);
    let old = stored("10.0.0.0/24", &["10.0.0.1", "10.0.0.77"]);
    let (out, rec) = run(
        &mut repair,
        &[old],
        &[svc("default", "kubernetes", &["10.0.0.1"]), svc("default", "x", &["10.0.0.77"])],
    );
    assert!(rec.events.is_empty(), "{:?}", rec.events);
    assert_eq!(out[0].range, "10.0.0.0/16");
    assert_eq!(ips_of(&out[0]), vec!["10.0.0.1", "10.0.0.77"]);
}

#[test]
fn a_leak_is_kept_twice_and_freed_by_the_third_run() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let svcs = [svc("default", "kubernetes", &["10.96.0.1"])];
    let mut snap = stored("10.96.0.0/12", &["10.96.0.1", "10.96.0.7"]);
    let leaked = ip("10.96.0.7");

    let (out, rec) = run(&mut repair, &[snap.clone()], &svcs);
    assert_eq!(
        logs(&rec),
        vec!["the cluster IP 10.96.0.7 may have leaked: flagging for later clean up"]
    );
    assert_eq!(repair.leaks(IpFamily::IPv4).unwrap().get(&leaked), Some(&1));
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.1", "10.96.0.7"], "kept after the 1st run");
    snap = out[0].clone();

    let (out, rec) = run(&mut repair, &[snap.clone()], &svcs);
    assert!(rec.events.is_empty(), "the 2nd run only counts down: {:?}", rec.events);
    assert_eq!(repair.leaks(IpFamily::IPv4).unwrap().get(&leaked), Some(&0));
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.1", "10.96.0.7"], "kept after the 2nd run");
    snap = out[0].clone();

    let (out, rec) = run(&mut repair, &[snap], &svcs);
    assert_eq!(logs(&rec), vec!["the cluster IP 10.96.0.7 appears to have leaked: cleaning up"]);
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.1"], "freed by the 3rd run");
    // Upstream leaves the counter at 0 ...
    assert_eq!(repair.leaks(IpFamily::IPv4).unwrap().get(&leaked), Some(&0));

    // ... so the same IP leaking again later is freed at its first sighting.
    let again = stored("10.96.0.0/12", &["10.96.0.1", "10.96.0.7"]);
    let (out, rec) = run(&mut repair, &[again], &svcs);
    assert_eq!(logs(&rec), vec!["the cluster IP 10.96.0.7 appears to have leaked: cleaning up"]);
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.1"]);
}

#[test]
fn a_service_using_a_flagged_ip_clears_its_counter() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let snap = stored("10.96.0.0/12", &["10.96.0.7"]);
    let (out, _) = run(&mut repair, &[snap], &[]);
    assert_eq!(repair.leaks(IpFamily::IPv4).unwrap().len(), 1);
    // The Service shows up (it was created between allocation and the list).
    let (_, rec) = run(&mut repair, &out, &[svc("default", "late", &["10.96.0.7"])]);
    assert!(rec.events.is_empty());
    assert!(repair.leaks(IpFamily::IPv4).unwrap().is_empty());
}

#[test]
fn leak_counters_belong_to_one_controller() {
    // Two apiservers, two controllers: each counts its own sightings.
    let snap = stored("10.96.0.0/12", &["10.96.0.7"]);
    let mut a = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let mut b = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let (out, _) = run(&mut a, &[snap], &[]);
    let (out, _) = run(&mut a, &out, &[]);
    let (out, rec) = run(&mut b, &out, &[]);
    assert_eq!(
        logs(&rec),
        vec!["the cluster IP 10.96.0.7 may have leaked: flagging for later clean up"]
    );
    assert_eq!(ips_of(&out[0]), vec!["10.96.0.7"]);
}

#[test]
fn invalid_and_unconfigured_family_ips() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let svcs = [svc("default", "bad", &["not-an-ip"]), svc("default", "v6", &["fd00::10"])];
    let (out, rec) = run(&mut repair, &[stored("10.96.0.0/12", &[])], &svcs);
    assert_eq!(
        warnings(&rec),
        vec![
            w("ClusterIPNotValid", "default/bad", "Cluster IP <nil> is not a valid IP; please recreate service"),
            w("ClusterIPNotValid", "default/v6",
                "Cluster IP fd00::10(IPv6) is of ip family that is no longer configured on cluster; please recreate service"),
        ]
    );
    assert_eq!(
        logs(&rec)[0],
        "the cluster IP <nil> for service bad/default is not a valid IP; please recreate"
    );
    assert!(ips_of(&out[0]).is_empty());
}

#[test]
fn services_without_an_ip_are_skipped() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let svcs = [svc("default", "headless", &["None"]), svc("default", "external", &[])];
    let (out, rec) = run(&mut repair, &[stored("10.96.0.0/12", &[])], &svcs);
    assert!(rec.events.is_empty());
    assert!(ips_of(&out[0]).is_empty());
}

#[test]
fn dual_stack_is_repaired_per_family() {
    let mut repair =
        ClusterIpRepair::new(vec![net("10.96.0.0/16"), net("fd00:10:96::/112")], Behavior::V1_29);
    let v4 = stored("10.96.0.0/16", &["10.96.0.1", "10.96.0.50"]);
    let v6 = stored("fd00:10:96::/112", &[]);
    let svcs = [
        svc("default", "kubernetes", &["10.96.0.1"]),
        svc("default", "web", &["10.96.0.50", "fd00:10:96::50"]),
    ];
    let (out, rec) = run(&mut repair, &[v4, v6], &svcs);
    assert_eq!(
        warnings(&rec),
        vec![w(
            "ClusterIPNotAllocated",
            "default/web",
            "Cluster IP [IPv6]:fd00:10:96::50 is not allocated; repairing"
        )]
    );
    assert_eq!(out.len(), 2);
    assert_eq!(ips_of(&out[1]), vec!["fd00:10:96::50"]);
    assert_eq!(out[1].range, "fd00:10:96::/112");
    // A leak in the secondary family is counted there only.
    let leaky = stored("fd00:10:96::/112", &["fd00:10:96::50", "fd00:10:96::99"]);
    let (_, rec) = run(&mut repair, &[out[0].clone(), leaky], &svcs);
    assert_eq!(
        logs(&rec),
        vec!["the cluster IP fd00:10:96::99 may have leaked: flagging for later clean up"]
    );
    assert!(repair.leaks(IpFamily::IPv4).unwrap().is_empty());
    assert_eq!(repair.leaks(IpFamily::IPv6).unwrap().len(), 1);
}

#[test]
fn an_unreadable_stored_range_aborts_the_run() {
    let mut repair = ClusterIpRepair::new(vec![net("10.96.0.0/12")], Behavior::V1_29);
    let mut rec = Recorder::default();
    let bad = RangeAllocation { range: "garbage".into(), data: vec![] };
    assert_eq!(
        repair.run_once(&[bad], &[] as &[Service], &mut rec).unwrap_err(),
        "unable to rebuild allocator from snapshots for family:IPv4 with error:invalid CIDR address: garbage"
    );
}
