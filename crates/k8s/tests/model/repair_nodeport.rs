#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::api::{Behavior, Protocol, RangeAllocation, Service, ServicePort, ServiceType};
use k8s::event::Recorder;
use k8s::portallocator::{PortAllocator, PortRange};
use k8s::repair::nodeport::collect_service_node_ports;
use k8s::repair::NodePortRepair;

fn svc(name: &str, ports: &[(i32, Protocol)], health: i32) -> Service {
    Service {
        namespace: "default".into(),
        name: name.into(),
        type_: ServiceType::NodePort,
        ports: ports
            .iter()
            .enumerate()
            .map(|(i, &(node_port, protocol))| ServicePort {
                port: 80 + i as i32,
                node_port,
                protocol,
                ..ServicePort::default()
            })
            .collect(),
        health_check_node_port: health,
        ..Service::default()
    }
}

fn stored(range: PortRange, ports: &[i32]) -> RangeAllocation {
    let mut a = PortAllocator::new(range, Behavior::V1_29);
    for &p in ports {
        a.allocate(p).unwrap();
    }
    a.snapshot()
}

fn ports_of(snapshot: &RangeAllocation) -> Vec<i32> {
    PortAllocator::from_snapshot(snapshot, Behavior::V1_29).unwrap().iter().collect()
}

fn run(
    repair: &mut NodePortRepair,
    snap: &RangeAllocation,
    svcs: &[Service],
) -> (RangeAllocation, Vec<(String, String, String, String)>) {
    let mut rec = Recorder::new(0, "apiserver-a");
    let out = repair.run_once(snap, svcs, &mut rec).unwrap();
    assert!(rec.events.iter().all(|e| e.component == "portallocator-repair-controller"));
    let evs = rec.events.into_iter().map(|e| (e.type_, e.reason, e.object, e.message)).collect();
    (out, evs)
}

fn ev(t: &str, reason: &str, object: &str, message: &str) -> (String, String, String, String) {
    (t.into(), reason.into(), object.into(), message.into())
}

/// A log line (no event reason, no object).
fn log(message: &str) -> (String, String, String, String) {
    ev("Log", "", "", message)
}

const TCP: Protocol = Protocol::TCP;
const UDP: Protocol = Protocol::UDP;

#[test]
fn collecting_node_ports() {
    assert_eq!(
        collect_service_node_ports(&svc("a", &[(30001, TCP), (0, TCP), (30002, UDP)], 0)),
        vec![30001, 30002]
    );
    // Same port, same protocol: kept twice. Same port, other protocol: once.
    assert_eq!(
        collect_service_node_ports(&svc("a", &[(30001, TCP), (30001, TCP)], 0)),
        vec![30001, 30001]
    );
    assert_eq!(
        collect_service_node_ports(&svc("a", &[(30001, TCP), (30001, UDP)], 0)),
        vec![30001]
    );
    assert_eq!(
        collect_service_node_ports(&svc("a", &[(30001, TCP), (30001, UDP), (30001, TCP)], 0)),
        vec![30001, 30001]
    );
    // healthCheckNodePort: appended, again if it equals a TCP nodePort, skipped if only UDP.
    assert_eq!(collect_service_node_ports(&svc("a", &[(30001, TCP)], 30005)), vec![30001, 30005]);
    assert_eq!(collect_service_node_ports(&svc("a", &[(30001, TCP)], 30001)), vec![30001, 30001]);
    assert_eq!(collect_service_node_ports(&svc("a", &[(30001, UDP)], 30001)), vec![30001]);
    // The type is not looked at.
    let mut cluster_ip = svc("a", &[(30001, TCP)], 0);
    cluster_ip.type_ = ServiceType::ClusterIP;
    assert_eq!(collect_service_node_ports(&cluster_ip), vec![30001]);
}

#[test]
fn consistent_world_is_quiet() {
    let mut repair = NodePortRepair::new(PortRange::DEFAULT, Behavior::V1_29);
    let snap = stored(PortRange::DEFAULT, &[30001, 30002]);
    let (out, evs) = run(&mut repair, &snap, &[svc("a", &[(30001, TCP), (30002, UDP)], 0)]);
    assert!(evs.is_empty(), "{evs:?}");
    assert_eq!(out, snap);
}

#[test]
fn not_allocated_duplicate_and_out_of_range() {
    let mut repair = NodePortRepair::new(PortRange::DEFAULT, Behavior::V1_29);
    let snap = stored(PortRange::DEFAULT, &[30010]);
    let svcs = [
        svc("a", &[(30010, TCP), (30010, TCP)], 0),
        svc("b", &[(30020, TCP)], 0),
        svc("c", &[(30010, UDP), (80, TCP)], 0),
    ];
    let (out, evs) = run(&mut repair, &snap, &svcs);
    assert_eq!(
        evs,
        vec![
            ev("Warning", "PortAlreadyAllocated", "default/a", "Port 30010 was assigned to multiple services; please recreate service"),
            ev("Log", "", "", "the node port 30010 for service a/default was assigned to multiple services; please recreate"),
            ev("Warning", "PortNotAllocated", "default/b", "Port 30020 is not allocated; repairing"),
            ev("Log", "", "", "the node port 30020 for service b/default is not allocated; repairing"),
            ev("Warning", "PortAlreadyAllocated", "default/c", "Port 30010 was assigned to multiple services; please recreate service"),
            ev("Log", "", "", "the node port 30010 for service c/default was assigned to multiple services; please recreate"),
            ev("Warning", "PortOutOfRange", "default/c", "Port 80 is not within the port range 30000-32767; please recreate service"),
            ev("Log", "", "", "the port 80 for service c/default is not within the port range 30000-32767; please recreate"),
        ]
    );
    assert_eq!(ports_of(&out), vec![30010, 30020]);
}

#[test]
fn a_port_range_change_reports_out_of_range_and_rewrites_the_range() {
    let small = PortRange { base: 30000, size: 100 };
    let mut repair = NodePortRepair::new(small, Behavior::V1_29);
    let old = stored(PortRange::DEFAULT, &[30050, 31000]);
    let (out, evs) =
        run(&mut repair, &old, &[svc("a", &[(30050, TCP)], 0), svc("b", &[(31000, TCP)], 0)]);
    assert_eq!(out.range, "30000-30099");
    assert_eq!(ports_of(&out), vec![30050]);
    assert!(evs.contains(&ev(
        "Warning",
        "PortOutOfRange",
        "default/b",
        "Port 31000 is not within the port range 30000-30099; please recreate service"
    )));
    // 30050 was set in the old object: taking it out of the stored set is enough, no event.
    assert!(!evs.iter().any(|e| e.1 == "PortNotAllocated"), "{evs:?}");
}

#[test]
fn a_leaked_port_is_freed_by_the_third_run() {
    let mut repair = NodePortRepair::new(PortRange::DEFAULT, Behavior::V1_29);
    let svcs = [svc("a", &[(30001, TCP)], 0)];
    let mut snap = stored(PortRange::DEFAULT, &[30001, 30010]);
    let (out, evs) = run(&mut repair, &snap, &svcs);
    assert_eq!(evs, vec![log("the node port 30010 may have leaked: flagging for later clean up")]);
    assert_eq!(repair.leaks().get(&30010), Some(&1));
    assert_eq!(ports_of(&out), vec![30001, 30010]);
    snap = out;
    let (out, evs) = run(&mut repair, &snap, &svcs);
    assert!(evs.is_empty());
    assert_eq!(ports_of(&out), vec![30001, 30010]);
    snap = out;
    let (out, evs) = run(&mut repair, &snap, &svcs);
    assert_eq!(evs, vec![log("the node port 30010 appears to have leaked: cleaning up")]);
    assert_eq!(ports_of(&out), vec![30001]);
    assert_eq!(repair.leaks().get(&30010), Some(&0));
}

#[test]
fn a_leak_outside_a_new_range_cannot_be_kept() {
    let mut repair = NodePortRepair::new(PortRange { base: 30000, size: 100 }, Behavior::V1_29);
    let (out, evs) = run(&mut repair, &stored(PortRange::DEFAULT, &[32000]), &[]);
    assert_eq!(
        evs,
        vec![
            ev("Log", "", "", "the node port 32000 may have leaked: flagging for later clean up"),
            ev("Log", "", "", "the node port 32000 may have leaked, but can not be allocated: provided port is not in the valid range. The range of valid ports is 30000-30099"),
        ]
    );
    assert!(ports_of(&out).is_empty());
}

#[test]
fn an_uninitialised_object_and_an_unreadable_one() {
    let mut repair = NodePortRepair::new(PortRange::DEFAULT, Behavior::V1_29);
    let (out, _) = run(&mut repair, &RangeAllocation::default(), &[svc("a", &[(30001, TCP)], 0)]);
    assert_eq!(out.range, "30000-32767");
    assert_eq!(ports_of(&out), vec![30001]);
    let mut rec = Recorder::default();
    let bad = RangeAllocation { range: "30000-80000".into(), data: vec![] };
    assert_eq!(
        repair.run_once(&bad, &[] as &[Service], &mut rec).unwrap_err(),
        "unable to rebuild allocator from snapshot: the port range cannot be greater than 65535: 30000-80000"
    );
}
