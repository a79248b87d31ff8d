//! The wire: every request to etcd with who sent it and from which loop, as the stage draws
//! packets. Lease renewals by the endpoint reconciler, nothing more from a crashed apiserver,
//! the key expiring at its TTL, a graceful stop deleting it at once, bounces while isolated,
//! and the lab taking only what a move covered.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario::{Action, Millis};
use engine::sim::timeline::Timeline;
use k8s::etcd::{Loop, WireOp, Write, KCM};
use lab::catalogue;
use lab::{Lab, Msg, Opening};

fn wire_until(name: &str, t: u64) -> Vec<Write> {
    let scenario = catalogue::scenario(name).expect("shipped");
    let mut tl = Timeline::new(&scenario);
    tl.record_wire();
    tl.run_until(t);
    tl.take_wire()
}

fn puts<'a>(wire: &'a [Write], sender: &'a str, key: &'a str) -> impl Iterator<Item = &'a Write> {
    wire.iter().filter(move |w| w.sender == sender && w.key == key && w.op == WireOp::Put)
}

#[test]
fn lease_renewals_travel_every_interval_from_their_own_apiserver() {
    let wire = wire_until("crash-vs-graceful-stop", 31_000);
    for (name, ip) in [("apiserver-a", "192.168.10.11"), ("apiserver-c", "192.168.10.13")] {
        let key = format!("/masterleases/{ip}");
        let times: Vec<u64> = puts(&wire, name, &key).map(|w| w.time_ms).collect();
        assert_eq!(times, [0, 10_000, 20_000, 30_000], "{name}");
        assert!(puts(&wire, name, &key).all(|w| w.via == Loop::EndpointReconciler));
    }
    // The first apiserver creates the kubernetes Service and its ranges from its own loops.
    let service = wire.iter().find(|w| w.key == "/services/specs/default/kubernetes").unwrap();
    assert_eq!((service.op, service.via, service.time_ms), (WireOp::Put, Loop::Bootstrap, 0));
    assert!(wire.iter().any(|w| w.key == "/ranges/serviceips" && w.via == Loop::Repair));
    assert!(wire
        .iter()
        .any(|w| w.key == "/services/endpoints/default/kubernetes"
            && w.via == Loop::EndpointReconciler));
    // Nothing on the wire is a bounce while everything is reachable.
    assert!(wire.iter().all(|w| w.op != WireOp::Bounce), "{wire:?}");
}

#[test]
fn a_crashed_apiserver_sends_nothing_and_its_key_expires_at_its_ttl() {
    let wire = wire_until("crash-vs-graceful-stop", 69_000);
    let key = "/masterleases/192.168.10.12";
    let last = puts(&wire, "apiserver-b", key).map(|w| w.time_ms).max();
    assert_eq!(last, Some(30_000), "renewed at 30s, crashed at 32s");
    assert!(wire.iter().all(|w| w.sender != "apiserver-b" || w.time_ms <= 32_000));
    let expiry: Vec<&Write> = wire.iter().filter(|w| w.op == WireOp::Expire).collect();
    assert_eq!(expiry.len(), 1, "{expiry:?}");
    assert_eq!((expiry[0].key.as_str(), expiry[0].time_ms), (key, 45_000));
    assert_eq!((expiry[0].sender.as_str(), expiry[0].via), ("etcd", Loop::Ttl));
}

#[test]
fn a_graceful_stop_deletes_its_lease_at_once() {
    let wire = wire_until("crash-vs-graceful-stop", 71_000);
    let delete = wire
        .iter()
        .find(|w| w.op == WireOp::Delete && w.key == "/masterleases/192.168.10.13")
        .expect("deleted");
    assert_eq!(
        (delete.time_ms, delete.sender.as_str(), delete.via),
        (70_000, "apiserver-c", Loop::EndpointReconciler)
    );
    // And the Endpoints are rewritten by apiserver-c at that same instant.
    assert!(wire.iter().any(|w| w.time_ms == 70_000
        && w.sender == "apiserver-c"
        && w.key == "/services/endpoints/default/kubernetes"
        && w.op == WireOp::Put));
}

#[test]
fn an_isolated_apiserver_bounces_its_requests_with_the_client_timeout() {
    let scenario = catalogue::scenario("crash-one-of-three").expect("shipped");
    let mut tl = Timeline::new(&scenario);
    tl.record_wire();
    tl.run_until(5_000);
    tl.take_wire();
    tl.act(Action::isolate("apiserver-a", Millis::parse("30s").unwrap())).unwrap();
    tl.run_until(30_000);
    let wire = tl.take_wire();
    let bounces: Vec<&Write> = wire.iter().filter(|w| w.op == WireOp::Bounce).collect();
    assert!(!bounces.is_empty());
    assert!(bounces
        .iter()
        .all(|w| w.sender == "apiserver-a"
            && w.reason.as_deref() == Some("context deadline exceeded")));
    // Its sync's first request reads the kubernetes Service: that is what times out.
    assert!(bounces.iter().any(|w| w.key == "/services/specs/default/kubernetes"));
    assert!(puts(&wire, "apiserver-a", "/masterleases/192.168.10.11").next().is_none());
    // The others go on renewing; the controller-manager writes as itself.
    assert!(puts(&wire, "apiserver-b", "/masterleases/192.168.10.12").next().is_some());
    assert!(wire.iter().filter(|w| w.sender == KCM).all(|w| w.via == Loop::ControllerManager));
}

#[test]
fn the_wire_changes_no_trace() {
    let scenario = catalogue::scenario("crash-vs-graceful-stop").expect("shipped");
    let (mut on, mut off) = (Timeline::new(&scenario), Timeline::new(&scenario));
    on.record_wire();
    on.run_until(120_000);
    off.run_until(120_000);
    assert_eq!(on.world().events(), off.world().events());
    assert_eq!(on.world().state(), off.world().state());
    assert!(off.take_wire().is_empty(), "off costs nothing");
}

#[test]
fn the_lab_shows_the_requests_a_move_covered() {
    let (mut lab, _) =
        Lab::open(Opening { scenario: Some("crash-vs-graceful-stop"), ..Opening::default() });
    lab.update(Msg::Seek(9_000));
    let seq = lab.view().wire_seq;
    // Playing over 10 s shows the renewals made then.
    lab.update(Msg::TogglePlay);
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::SetSpeed(1.0));
    lab.update(Msg::Frame { timestamp_ms: 100.0 });
    assert_eq!(lab.view().player.now, 10_000);
    assert_eq!(lab.view().wire_seq, seq + 1);
    assert!(lab.view().wire.iter().all(|w| w.time_ms > 9_000 && w.time_ms <= 10_000));
    assert_eq!(lab.view().wire.iter().filter(|w| w.key.starts_with("/masterleases/")).count(), 3);
    // A seek back is a jump: nothing made before the instant arrived at shows.
    lab.update(Msg::TogglePlay);
    lab.update(Msg::Seek(20_000));
    let seq = lab.view().wire_seq;
    assert!(lab.view().wire.iter().all(|w| w.time_ms == 20_000));
    lab.update(Msg::Seek(5_000));
    assert_eq!(lab.view().wire_seq, seq, "no request at 5s: the last ones stay");
}
