//! What the lab's view says of the nodes, kube-proxies and client pods: what the stage draws,
//! computed by the lab from the world.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeSet;

use lab::clients::{Failure, Link, Outcome};
use lab::{Lab, Msg, Opening};

fn open(name: &str) -> Lab {
    Lab::open(Opening { scenario: Some(name), ..Opening::default() }).0
}

/// At the scenario's end the view's figures are `bootstrap-sim run`'s, number for number.
#[test]
fn the_view_at_the_end_shows_the_runs_figures() {
    let mut lab = open("clients-crash-one-of-three");
    let until = lab.view().scenario.until_ms;
    lab.update(Msg::Seek(until));
    let view = lab.view();
    let shown = view.clients.as_ref().expect("a scenario with clients shows them");
    let run = super::figures(&view.scenario);
    assert_eq!(shown.figures, run);
    assert_eq!(shown.service_ip, "10.96.0.1");
    assert_eq!((shown.nodes.len(), shown.pods.len()), (3, 10));
    // Every failed attempt the pods list is one the figures count.
    let failed: usize = shown
        .pods
        .iter()
        .map(|p| p.attempts.iter().filter(|a| a.outcome.failed_attempt()).count())
        .sum();
    assert_eq!(failed as u64, run.failed);
}

/// Right after the crash, apiserver-b's address is still listed everywhere and takes nothing;
/// once the EndpointSlice drops it, some kube-proxy still lists it for a moment and is marked
/// as lagging exactly while its list differs from the slice's.
#[test]
fn a_lagging_kube_proxy_is_marked_while_its_list_differs() {
    let mut lab = open("clients-crash-one-of-three");
    lab.update(Msg::Seek(62_000));
    let c = lab.view().clients.clone().unwrap();
    let b = c.slice.iter().find(|e| e.apiserver == "apiserver-b").expect("b still listed");
    assert!(!b.answers, "a crashed apiserver takes no connection");
    assert!(c.nodes.iter().all(|n| !n.lagging && n.listed.iter().any(|e| e.ip == b.ip)));
    let mut seen_lag = false;
    for t in (68_000..73_000).step_by(20) {
        lab.update(Msg::Seek(t));
        let c = lab.view().clients.clone().unwrap();
        let slice: BTreeSet<_> = c.slice.iter().map(|e| e.ip.clone()).collect();
        for n in &c.nodes {
            let listed: BTreeSet<_> = n.listed.iter().map(|e| e.ip.clone()).collect();
            assert_eq!(n.lagging, listed != slice, "{} at {t}", n.name);
            assert!(n.missing.iter().all(|ip| slice.contains(ip) && !listed.contains(ip)));
            seen_lag |= n.lagging && !slice.contains(&b.ip) && listed.contains(&b.ip);
        }
    }
    assert!(seen_lag, "some kube-proxy lists the dead address after the slice dropped it");
}

/// Each pod's connection and attempts name the endpoint and its apiserver; the refused ones in
/// the crash's window went to apiserver-b.
#[test]
fn pods_show_their_connection_and_their_failures() {
    let mut lab = open("clients-crash-one-of-three");
    lab.update(Msg::Seek(59_000));
    let c = lab.view().clients.clone().unwrap();
    let on_b = c
        .pods
        .iter()
        .find(|p| matches!(&p.link, Link::Up { to, .. } if to.apiserver == "apiserver-b"));
    assert!(on_b.is_some(), "someone is connected to apiserver-b before the crash");
    lab.update(Msg::Seek(90_000));
    let c = lab.view().clients.clone().unwrap();
    let refused: Vec<_> = c
        .pods
        .iter()
        .flat_map(|p| &p.attempts)
        .filter(|a| a.outcome == Outcome::Failed(Failure::Refused))
        .collect();
    assert!(!refused.is_empty());
    assert!(refused
        .iter()
        .all(|a| a.apiserver == "apiserver-b" && (60_000..75_000).contains(&a.time_ms)));
    let window = &c.figures.windows[0];
    assert_eq!((window.apiserver.as_str(), window.from_ms), ("apiserver-b", 60_000));
}

#[test]
fn scenarios_without_clients_show_none() {
    let mut lab = open("crash-one-of-three");
    lab.update(Msg::Seek(30_000));
    assert!(lab.view().clients.is_none());
}

/// A host that goes down leaves the connections to it established but silent: the view says
/// until when the health check keeps each (15–45 s after), then they are lost.
#[test]
fn a_host_down_shows_silent_connections_until_the_health_check() {
    use engine::contract::scenario::{Action, ApiserverRef};
    let mut lab = open("clients-crash-one-of-three");
    lab.update(Msg::Seek(50_000));
    let to_c = |lab: &Lab| {
        let c = lab.view().clients.clone().unwrap();
        let on = |p: &&lab::clients::Pod| match &p.link {
            Link::Up { to, .. } | Link::Silent { to, .. } => to.apiserver == "apiserver-c",
            _ => false,
        };
        c.pods.iter().filter(on).map(|p| p.link.clone()).collect::<Vec<_>>()
    };
    let before = to_c(&lab).len();
    assert!(before > 0, "some pod is connected to apiserver-c at 50 s");
    let host = ApiserverRef { apiserver: "apiserver-c".into() };
    lab.update(Msg::Act(Action::CrashHost(host)));
    lab.update(Msg::Seek(52_000));
    let silent = to_c(&lab);
    assert_eq!(silent.len(), before, "none is reset: {silent:?}");
    for l in &silent {
        assert!(
            matches!(l, Link::Silent { closes_at, .. } if (65_000..=95_000).contains(closes_at)),
            "{l:?}"
        );
    }
    lab.update(Msg::Seek(96_000));
    assert!(to_c(&lab).is_empty(), "the health check closed them all");
}

/// The thing to try that slows node-3's kube-proxy: from its instant the view says how long
/// that kube-proxy takes per sync, and it lists the dead address after the others dropped it.
#[test]
fn a_slowed_kube_proxy_is_shown_slow_and_lists_longer() {
    let mut lab = open("clients-crash-one-of-three");
    let slow = lab.view().scenario.experiments.iter().position(|e| {
        e.actions()
            .iter()
            .any(|(_, a)| matches!(a, engine::contract::scenario::Action::SlowKubeProxy(_)))
    });
    assert!(lab.update(Msg::Try(slow.expect("a slow kube-proxy to try"))));
    let node = |lab: &Lab, name: &str| {
        lab.view().clients.clone().unwrap().nodes.iter().find(|n| n.name == name).unwrap().clone()
    };
    assert_eq!(node(&lab, "node-3").slow_apply_ms, None, "set up before its instant");
    lab.update(Msg::Seek(72_000));
    let (n3, n1) = (node(&lab, "node-3"), node(&lab, "node-1"));
    assert_eq!((n3.slow_apply_ms, n1.slow_apply_ms), (Some(3_000), None));
    assert!(n3.lagging && n3.listed.iter().any(|e| e.ip == "192.168.10.12"));
    assert!(!n1.lagging && n1.listed.iter().all(|e| e.ip != "192.168.10.12"));
}
