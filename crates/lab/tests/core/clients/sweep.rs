//! The windows over many seeds and random runs (native only: a thousand runs, and proptest).

use engine::contract::scenario::{self, ClientSpec, Scenario};
use engine::sim::report;
use engine::sim::world::ClientFigures;
use k8s::client::{Failure, Workload};
use k8s::event::EventKind;
use k8s::rng::SimRng;
use serde_json::{json, Value};

use super::{check_run, figures};

const IPS: [&str; 3] = ["192.168.10.11", "192.168.10.12", "192.168.10.13"];

/// Three apiservers started at `starts` (ms), three nodes, a controller on each and a job
/// polling every second, `steps`, until `until`.
fn three(reconciler: &str, starts: [u64; 3], steps: Value, until: &str, seed: u64) -> Scenario {
    let apiservers: Vec<Value> = ["a", "b", "c"]
        .iter()
        .zip(IPS)
        .zip(starts)
        .map(|((n, ip), t)| {
            json!({"name": format!("apiserver-{n}"), "advertise_address": ip, "start_at": format!("{t}ms")})
        })
        .collect();
    let file = json!({
        "name": "sweep", "seed": seed, "behavior": "1.29",
        "cluster": {"endpoint_reconciler_type": reconciler, "apiserver_count": 3, "apiservers": apiservers},
        "nodes": [{"name": "node-1"}, {"name": "node-2"}, {"name": "node-3"}],
        "clients": [
            {"name": "ctrl-1", "node": "node-1", "workload": "controller", "start_at": "20s"},
            {"name": "ctrl-2", "node": "node-2", "workload": "controller", "start_at": "20s"},
            {"name": "job-3", "node": "node-3", "workload": "job", "every": "1s", "start_at": "20s"},
        ],
        "steps": steps, "until": until,
    });
    scenario::parse(&file.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// Independent reconcile phases for a seed: each apiserver starts within the first 10 s.
fn phases(seed: u64) -> [u64; 3] {
    let mut rng = SimRng::new(seed ^ 0x5eed);
    [0; 3].map(|_| rng.intn(10_000) as u64)
}

/// The one window of apiserver-b (192.168.10.12), in ms; `None` while open at the end.
fn window_of_b(f: &ClientFigures) -> Option<u64> {
    let ws: Vec<_> = f.windows.iter().filter(|w| w.address == IPS[1]).collect();
    assert_eq!(ws.len(), 1, "{:?}", f.windows);
    assert_eq!(ws[0].from_ms, 60_000, "it opens at the failure");
    ws[0].until_ms.map(|u| u - ws[0].from_ms)
}

fn step(at: &str, what: &str) -> Value {
    json!([{"at": at, "do": what, "apiserver": "apiserver-b"}])
}

/// Crash one of three under `lease`, over 1,000 seeds: the lease expires 5–15 s after the
/// crash, a survivor's next reconcile comes within 10 s, kube-proxy needs ≤ 0.6 s more.
#[test]
fn a_crash_under_lease_is_listed_5_to_26_5_s() {
    let mut ws = Vec::new();
    for seed in 0..1_000 {
        let s = three("lease", phases(seed), step("60s", "crash_apiserver"), "87s", seed);
        let w = window_of_b(&figures(&s)).unwrap_or_else(|| panic!("seed {seed}: still open"));
        ws.push(w);
    }
    let (min, max) = (*ws.iter().min().unwrap(), *ws.iter().max().unwrap());
    let mean = ws.iter().sum::<u64>() as f64 / ws.len() as f64;
    eprintln!(
        "crash under lease, 1000 seeds: window min {min} ms, mean {mean:.0} ms, max {max} ms"
    );
    assert!(min >= 5_000 && max <= 26_500, "{min}..{max}");
    assert!((12_500.0..15_500.0).contains(&mean), "mean {mean}");
}

/// A graceful stop removes the endpoint at once: only kube-proxy's lag is left.
#[test]
fn a_graceful_stop_is_listed_at_most_1_5_s() {
    let mut max = 0;
    for seed in 0..300 {
        let s = three("lease", phases(seed), step("60s", "stop_apiserver"), "65s", seed);
        let w = window_of_b(&figures(&s)).expect("closed");
        max = max.max(w);
    }
    eprintln!("graceful stop, 300 seeds: window max {max} ms");
    assert!(max <= 1_500, "{max}");
}

/// With `--shutdown-delay-duration=5s` the listener outlives every kube-proxy's copy of the
/// address (≤ 1.5 s): no new connection is refused, the window never opens, and the clients
/// connected to it get GOAWAY when it closes, 5 s after the stop.
#[test]
fn a_shutdown_delay_of_5_s_fails_no_new_connection() {
    for seed in 0..300 {
        let steps = json!([{"at": "60s", "do": "stop_apiserver", "apiserver": "apiserver-b", "shutdown_delay": "5s"}]);
        let s = three("lease", phases(seed), steps, "70s", seed);
        let f = figures(&s);
        assert!(f.windows.iter().all(|w| w.address != IPS[1]), "seed {seed}: {:?}", f.windows);
        for e in report::run(&s).events {
            if let k8s::event::EventKind::ClientFailed { failure, .. } = &e.kind {
                assert!(*failure == Failure::GoAway && e.time_ms == 65_000, "seed {seed}: {e:?}");
            }
        }
    }
}

/// A kube-proxy that takes 3 s for each `iptables-restore` lists the dead address longer:
/// the window grows by about the extra time.
#[test]
fn a_slow_kube_proxy_keeps_the_window_open_longer() {
    let (mut normal, mut slow) = (Vec::new(), Vec::new());
    for seed in 0..300 {
        let crash = json!({"at": "60s", "do": "crash_apiserver", "apiserver": "apiserver-b"});
        let slowed = json!({"at": "30s", "do": "slow_kube_proxy", "node": "node-3", "proxy_apply_time": "3s"});
        for (steps, out) in [(json!([crash]), &mut normal), (json!([slowed, crash]), &mut slow)] {
            let s = three("lease", phases(seed), steps, "100s", seed);
            out.push(window_of_b(&figures(&s)).expect("closed"));
        }
    }
    let mean = |v: &[u64]| v.iter().sum::<u64>() / v.len() as u64;
    eprintln!(
        "crash, node-3's kube-proxy 3 s: mean {} ms (normal {} ms)",
        mean(&slow),
        mean(&normal)
    );
    assert!(slow.iter().all(|w| (8_000..=30_000).contains(w)), "{slow:?}");
    assert!((2_000..=3_500).contains(&(mean(&slow) - mean(&normal))));
}

/// master-count never removes another apiserver's address: the window lasts as long as the
/// apiserver is down, and ends only once it is back.
#[test]
fn a_crash_under_master_count_stays_listed_while_down() {
    for seed in 0..100 {
        let steps = step("60s", "crash_apiserver");
        let s = three("master-count", phases(seed), steps, "3m", seed);
        assert_eq!(window_of_b(&figures(&s)), None, "seed {seed}");
        let mut steps = step("60s", "crash_apiserver");
        steps.as_array_mut().unwrap().push(step("2m", "start_apiserver")[0].clone());
        let s = three("master-count", phases(seed), steps, "3m", seed);
        assert_eq!(window_of_b(&figures(&s)), Some(60_000), "seed {seed}: ends at the restart");
    }
}

/// A random run: phases, a stale lease of an address nobody has (dials there time out), and
/// crashes, stops (some with a shutdown delay), restarts and hosts going down of random
/// apiservers, and kube-proxies slowed, at random instants.
pub(crate) fn random_run(seed: u64, reconciler: &str, acts: &[(u64, usize, usize)]) -> Scenario {
    let verbs = [
        "crash_apiserver",
        "stop_apiserver",
        "start_apiserver",
        "crash_host",
        "stop_apiserver",
        "slow_kube_proxy",
    ];
    let act = |(t, a, v): &(u64, usize, usize)| {
        let mut step = json!({"at": format!("{t}ms"), "do": verbs[*v], "apiserver": format!("apiserver-{}", ["a", "b", "c"][*a])});
        match v {
            // A stop with a shutdown delay of 1–8 s.
            4 => step["shutdown_delay"] = json!(format!("{}ms", 1_000 + t % 7_000)),
            // node-1's or node-2's kube-proxy slowed to 0.5–4 s per sync.
            5 => {
                step = json!({"at": format!("{t}ms"), "do": verbs[5], "node": format!("node-{}", 1 + a % 2), "proxy_apply_time": format!("{}ms", 500 + t % 3_500)})
            }
            _ => {}
        }
        step
    };
    let steps: Vec<Value> = acts.iter().map(act).collect();
    let mut s = three(reconciler, phases(seed), Value::Array(steps), "3m", seed);
    // A lease nobody renews, of an address no host has: listed until it runs out.
    let initial = json!({"leases": [{"ip": "192.168.10.99", "ttl_left": "40s"}]});
    let apiservers = json!([{"name": "x", "advertise_address": "192.168.10.11"}]);
    let text = json!({"cluster": {"apiservers": apiservers}, "initial": initial});
    s.initial = scenario::parse(&text.to_string()).unwrap().initial;
    // node-3's kube-proxy is slow (5 s to apply), so its list lags the slice for long, and
    // a pod starts there every 2.5 s and dials once (a client keeps its connection after).
    s.nodes[2].proxy_apply_ms = Some(5_000);
    // A job on each node whose GETs take 1.5 s of every 2 s (a slow LIST), so that a crash
    // often lands under one.
    for node in ["node-1", "node-2", "node-3"] {
        let workload = Workload::Job { every_ms: 2_000, get_ms: Some(1_500) };
        let name = format!("lister-{node}");
        s.clients.push(ClientSpec { name, node: node.into(), workload, start_at_ms: 20_000 });
    }
    for i in 0..60 {
        let workload = Workload::Job { every_ms: 60_000, get_ms: None };
        let start_at_ms = 21_000 + i * 2_500;
        let name = format!("pod-{i}");
        s.clients.push(ClientSpec { name, node: "node-3".into(), workload, start_at_ms });
    }
    s
}

mod props {
    use proptest::prelude::*;

    use super::random_run;
    use crate::clients::check_run;

    fn acts() -> impl Strategy<Value = Vec<(u64, usize, usize)>> {
        prop::collection::vec((15_000u64..170_000, 0usize..3, 0usize..6), 0..6)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Over random runs: a client never connects to an address its kube-proxy does not
        /// list, no connection outlives a reset, and every failure has its cause in the trace.
        #[test]
        fn every_connection_follows_its_kube_proxy(
            seed in any::<u64>(),
            master_count in any::<bool>(),
            acts in acts(),
        ) {
            let reconciler = if master_count { "master-count" } else { "lease" };
            let s = random_run(seed, reconciler, &acts);
            if let Err(e) = check_run(&s) {
                return Err(TestCaseError::fail(e));
            }
        }
    }
}

/// The random runs of `props` meet every kind of failure (so their checks check something).
#[test]
fn random_runs_meet_every_failure() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40u64 {
        let acts = [
            (30_000 + seed * 997 % 20_000, (seed % 3) as usize, [0, 1, 3][(seed % 3) as usize]),
            (100_000, (seed % 3) as usize, 2),
        ];
        let s = random_run(seed, if seed % 2 == 0 { "lease" } else { "master-count" }, &acts);
        check_run(&s).unwrap();
        for e in report::run(&s).events {
            if e.message.contains("client-go reports") {
                seen.insert(e.message.split('"').nth(1).unwrap().to_string());
            }
            if matches!(e.kind, EventKind::ClientRetrying { .. }) {
                seen.insert("a GET retried".to_string());
            }
        }
    }
    assert!(seen.contains("a GET retried"), "no GET retried: {seen:?}");
    let want = [Failure::Refused, Failure::Timeout, Failure::Reset, Failure::GoAway, Failure::Lost];
    for f in want {
        assert!(seen.contains(f.client_go_error()), "{f:?} never met: {seen:?}");
    }
}
