//! Nodes, kube-proxies and client pods (issue 38; `docs/extensions.md`, "Extension: nodes and
//! client pods"): the windows over many seeds, the extension's refusals, and properties of
//! every connection over random runs.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario::{self, Scenario};
use engine::sim::report;
use engine::sim::world::{ClientFigures, MarkKind, World};
use k8s::client::{Conn, Failure};
use k8s::controlplane::Status;
use k8s::event::EventKind;
use serde_json::{json, Value};

mod gets;
#[cfg(not(target_arch = "wasm32"))]
mod sweep;
mod view;

pub(crate) fn figures(s: &Scenario) -> ClientFigures {
    report::run(s).clients.expect("a run with clients reports them")
}

#[test]
fn scenarios_without_clients_report_no_figures() {
    let text =
        lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "crash-one-of-three").unwrap().1;
    let r = report::run(&scenario::parse(text).unwrap());
    assert!(r.clients.is_none());
    assert!(!serde_json::to_string(&r).unwrap().contains("\"clients\""));
}

#[test]
fn malformed_nodes_and_clients_are_refused_by_field() {
    let base = |nodes: Value, clients: Value| {
        json!({"cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]},
               "nodes": nodes, "clients": clients})
        .to_string()
    };
    let n1 = json!([{"name": "node-1"}]);
    let cases = [
        (json!([{"name": ""}]), json!([]), "nodes[0].name: must not be empty"),
        (json!([{"name": "n"}, {"name": "n"}]), json!([]), "nodes[1].name: duplicate node name"),
        (
            json!([{"name": "n", "proxy_apply_time": "x"}]),
            json!([]),
            "nodes[0].proxy_apply_time: invalid duration",
        ),
        (json!([{"name": "n", "zone": "a"}]), json!([]), "nodes[0].zone: unknown field"),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-9", "workload": "controller"}]),
            "clients[0].node: unknown node",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "daemon"}]),
            "clients[0].workload: unknown workload",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job"}]),
            "clients[0].every: missing field",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job", "every": "10ms"}]),
            "clients[0].every: \"10ms\" is shorter than 1s",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job", "every": "0s"}]),
            "clients[0].every: \"0s\" is shorter than 1s, the shortest the lab runs",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "controller", "every": "5s"}]),
            "clients[0].every: only a \"job\" polls",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "controller", "get_time": "1s"}]),
            "clients[0].get_time: only a \"job\" sends GETs the lab times",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job", "every": "5s", "get_time": "0s"}]),
            "clients[0].get_time: \"0s\" is shorter than 1ms, the shortest the lab runs",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job", "every": "5s", "get_time": "1m"}]),
            "clients[0].get_time: \"1m\" is not under 60s: the apiserver's --request-timeout (60s) would end it",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "job", "every": "5s", "get_time": "soon"}]),
            "clients[0].get_time: invalid duration \"soon\"",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1"}]),
            "clients[0].workload: missing field",
        ),
        (
            n1.clone(),
            json!([{"name": "c", "node": "node-1", "workload": "controller"}, {"name": "c", "node": "node-1", "workload": "controller"}]),
            "clients[1].name: duplicate client name",
        ),
        (n1, json!({"name": "c"}), "clients: invalid type: map, expected a sequence"),
    ];
    for (nodes, clients, want) in cases {
        let e = scenario::parse(&base(nodes, clients)).expect_err(want);
        assert!(e.starts_with(want), "{e:?} does not start with {want:?}");
    }
}

/// The extension's two actions are read by field: a node the scenario lacks, a bad time.
#[test]
fn malformed_slow_proxies_and_shutdown_delays_are_refused_by_field() {
    let file = |step: Value| {
        json!({"cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]},
               "nodes": [{"name": "node-1"}], "steps": [step]})
        .to_string()
    };
    let cases = [
        (
            json!({"at": "1s", "do": "slow_kube_proxy", "node": "node-9", "proxy_apply_time": "3s"}),
            "steps[0].node: unknown node \"node-9\"",
        ),
        (
            json!({"at": "1s", "do": "slow_kube_proxy", "node": "node-1", "proxy_apply_time": "x"}),
            "steps[0].proxy_apply_time: invalid duration",
        ),
        (
            json!({"at": "1s", "do": "slow_kube_proxy", "node": "node-1"}),
            "steps[0].proxy_apply_time: missing field",
        ),
        (
            json!({"at": "1s", "do": "stop_apiserver", "apiserver": "a", "shutdown_delay": "-1s"}),
            "steps[0].shutdown_delay: ",
        ),
        (
            json!({"at": "1s", "do": "stop_apiserver", "apiserver": "a", "delay": "5s"}),
            "steps[0].delay: unknown field",
        ),
    ];
    for (step, want) in cases {
        let e = scenario::parse(&file(step)).expect_err(want);
        assert!(e.starts_with(want), "{e:?} does not start with {want:?}");
    }
    // Known nodes, good times: read, and a stop with its delay is written back as read.
    let ok = json!({"at": "1s", "do": "stop_apiserver", "apiserver": "a", "shutdown_delay": "5s"});
    let s = scenario::parse(&file(ok)).unwrap();
    let engine::contract::scenario::StepKind::Do(a) = &s.steps[0].kind else { panic!() };
    assert_eq!(serde_json::to_value(a.as_ref()).unwrap()["shutdown_delay"], "5s");
}

/// A graceful stop with `--shutdown-delay-duration`: the apiserver is `stopping` with its
/// listener open until the delay has passed, then `stopped`; without clients too.
#[test]
fn a_shutdown_delay_keeps_the_listener_open_until_it_has_passed() {
    let text =
        lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "crash-one-of-three").unwrap().1;
    let mut file: Value = serde_json::from_str(text).unwrap();
    let stop = json!({"at": "30s", "do": "stop_apiserver", "apiserver": "apiserver-b", "shutdown_delay": "5s"});
    file["steps"] = json!([stop]);
    let s = scenario::parse(&file.to_string()).unwrap();
    let mut w = World::new(&s);
    let status = |w: &World| w.apiservers().find(|a| a.spec.name == "apiserver-b").unwrap().status;
    w.run_until(30_000);
    assert_eq!(status(&w), Status::Stopping);
    assert!(w.accepts("192.168.10.12"), "the listener is open through the delay");
    w.run_until(34_999);
    assert_eq!(status(&w), Status::Stopping);
    w.run_until(35_000);
    assert_eq!(status(&w), Status::Stopped);
    assert!(!w.accepts("192.168.10.12"));
}

/// What one task of a run did to the clients, checked against the world right after it:
/// returns the number of failures checked.
fn check_step(w: &World, events_before: usize) -> Result<usize, String> {
    let now = w.now();
    let node_of = |c: &str| w.clients().find(|k| k.name == c).map(|k| k.node.clone()).unwrap();
    let listed = |node: &str, ip: &str| {
        w.proxies().any(|(n, p)| n == node && p.listed.iter().any(|l| l == ip))
    };
    let at_ip = |ip: &str| w.apiservers().find(|a| a.ip() == ip);
    let down = |ip: &str| at_ip(ip).is_some_and(|a| w.host_is_down(&a.spec.name));
    // A host back up: its apiserver starting again.
    let back = |ip: &str| at_ip(ip).is_some_and(|a| a.status == Status::Starting) && !down(ip);
    let marked = |ip: Option<&String>, kind| {
        let a = ip.and_then(|ip| at_ip(ip)).map(|a| a.spec.name.clone());
        w.marks()
            .iter()
            .any(|m| m.time_ms == now && m.kind == kind && Some(&m.subject) == a.as_ref())
    };
    // Whether the world holds a cause for a connection of `client` to `ip` to end in `failure`.
    let caused = |client: &str, failure: Failure, ip: Option<&String>| match (failure, ip) {
        (Failure::Refused, None) => {
            !w.proxies().any(|(n, p)| *n == node_of(client) && !p.listed.is_empty())
        }
        (Failure::Refused, Some(ip)) => {
            let dead = at_ip(ip).is_some_and(|a| !a.is_up());
            // Or a dial in flight when the host came back.
            (listed(&node_of(client), ip) || back(ip)) && dead && !down(ip)
        }
        (Failure::Timeout, Some(ip)) => at_ip(ip).is_none() || down(ip),
        (Failure::Lost, Some(ip)) => down(ip),
        // A crash with its host up, or a host back up that forgot the connection.
        (Failure::Reset, Some(ip)) => marked(Some(ip), MarkKind::Crash) || back(ip),
        // A connection left draining by a graceful stop, ended when the old process is gone:
        // its shutdown gave up, or it started again.
        (Failure::GoAway, Some(ip)) => {
            at_ip(ip).is_some_and(|a| matches!(a.status, Status::Stopped | Status::Starting))
        }
        _ => false,
    };
    let mut failures = 0;
    for e in &w.events()[events_before..] {
        match &e.kind {
            EventKind::ClientConnected { client, ip } | EventKind::ClientDialing { client, ip }
                if !listed(&node_of(client), ip) =>
            {
                return Err(format!("{now}: {client} dialed {ip}, not listed on its node"));
            }
            EventKind::ClientFailed { client, ip, failure } => {
                failures += 1;
                let said = format!("client-go reports \"{}\": ", failure.client_go_error());
                let cause = e.message.split_once(&said).map(|(_, c)| c).unwrap_or("");
                if cause.is_empty() {
                    return Err(format!("{now}: {client}: no cause in {:?}", e.message));
                }
                if !caused(client, *failure, ip.as_ref()) {
                    return Err(format!(
                        "{now}: {client}: {failure:?} to {ip:?} has no cause in the world"
                    ));
                }
            }
            // A GET retried: a cause, and an error the REST client retries under this release.
            EventKind::ClientRetrying { client, ip, failure }
                if !(caused(client, *failure, Some(ip))
                    && failure.retried_for_get(w.behavior())) =>
            {
                return Err(format!("{now}: {client}: a GET retried after {failure:?} to {ip}"));
            }
            // A job's idle connection closes with no error: at a graceful stop's GOAWAY (or
            // once its last GET is answered), a crash, a host down's health check or its return.
            EventKind::ClientClosed { client, ip }
                if !(at_ip(ip).is_some_and(|a| a.status == Status::Stopped)
                    || caused(client, Failure::Reset, Some(ip))
                    || caused(client, Failure::Lost, Some(ip))) =>
            {
                return Err(format!("{now}: {client}'s connection to {ip} closed with no cause"));
            }
            _ => {}
        }
    }
    check_conns(w)?;
    Ok(failures)
}

/// No connection outlives a reset: whoever is connected is connected to a live process, a
/// silent connection is one to a host that is down, a draining one is on a stopped apiserver.
fn check_conns(w: &World) -> Result<(), String> {
    let now = w.now();
    let at_ip = |ip: &str| w.apiservers().find(|a| a.ip() == ip);
    let down = |ip: &str| at_ip(ip).is_some_and(|a| w.host_is_down(&a.spec.name));
    for c in w.clients() {
        match &c.conn {
            Conn::Up { ip, .. }
                if !at_ip(ip)
                    .is_some_and(|a| matches!(a.status, Status::Running | Status::Stopping)) =>
            {
                return Err(format!("{now}: {} still connected to {ip}", c.name));
            }
            Conn::Silent { ip, closes_at } if !down(ip) || *closes_at < now => {
                return Err(format!("{now}: {} silent on {ip} until {closes_at}", c.name));
            }
            // A draining watch is on a stopped apiserver, until its shutdown gives up.
            Conn::Draining { ip, until, .. }
                if at_ip(ip).is_none_or(|a| a.status != Status::Stopped) || *until < now =>
            {
                return Err(format!("{now}: {} draining on {ip} until {until}", c.name));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Runs `s` task by task, checking every step; returns the failures seen.
pub(crate) fn check_run(s: &Scenario) -> Result<usize, String> {
    let mut w = World::new(s);
    let mut failures = 0;
    loop {
        let before = w.events().len();
        match w.step() {
            Some(st) if st.time_ms <= s.until_ms => failures += check_step(&w, before)?,
            _ => return Ok(failures),
        }
    }
}

#[test]
fn the_shipped_scenario_with_clients_passes_every_check() {
    let text = lab::catalogue::SCENARIOS
        .iter()
        .find(|(n, _)| *n == "clients-crash-one-of-three")
        .unwrap()
        .1;
    let s = scenario::parse(text).unwrap();
    check_run(&s).unwrap();
    let f = figures(&s);
    assert!(f.failed > 0 && f.windows.len() == 1, "{f:?}");
    // The description's "for 10.6 s"; the restart experiment's "after 3 s".
    assert_eq!(((f.windows[0].duration_ms + 50) / 100, f.windows[0].from_ms), (106, 60_000));
    let mut restarted = s.clone();
    restarted.steps.extend(s.experiments[0].steps.iter().take(1).cloned());
    assert_eq!(figures(&restarted).windows[0].duration_ms, 3_000);
}

/// Seeking back and forth replays the clients as a straight run has them (the checkpoints
/// carry the kube-proxies, the clients and the PRNG).
#[test]
fn seeking_replays_the_clients() {
    use engine::sim::timeline::Timeline;
    let text = lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "clients-crash-one-of-three");
    let s = scenario::parse(text.unwrap().1).unwrap();
    let mut straight = Timeline::new(&s);
    straight.run_until(s.until_ms);
    let mut t = Timeline::new(&s);
    for at in [90_000, 30_000, 61_500, 10_000, 120_000, 64_000, 120_000] {
        t.seek(at);
    }
    assert_eq!(t.world().events(), straight.world().events());
    let figures = |t: &Timeline| t.world().client_figures(s.until_ms);
    assert_eq!(figures(&t), figures(&straight));
}

/// Nodes without client pods change nothing: the same trace, no figures.
#[test]
fn nodes_alone_change_nothing() {
    let text =
        lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "crash-one-of-three").unwrap().1;
    let mut file: Value = serde_json::from_str(text).unwrap();
    file["nodes"] = json!([{"name": "node-1"}]);
    let with = report::run(&scenario::parse(&file.to_string()).unwrap());
    let without = report::run(&scenario::parse(text).unwrap());
    assert_eq!(serde_json::to_string(&with).unwrap(), serde_json::to_string(&without).unwrap());
}

/// The host down instead of the process (`crash_host`): dials to its address time out after
/// 30 s instead of being refused, established connections are not reset but go silent until
/// their HTTP/2 health check closes them 15–45 s later, and a restart resets those still open.
#[test]
fn a_host_down_times_out_dials_and_silences_connections() {
    let text = lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "clients-crash-one-of-three");
    let text = text.unwrap().1.replace("\"crash_apiserver\"", "\"crash_host\"");
    let s = scenario::parse(&text).unwrap();
    check_run(&s).unwrap();
    let failed = |r: &report::Report| -> Vec<(u64, Failure)> {
        let failures = r.events.iter().filter_map(|e| match &e.kind {
            EventKind::ClientFailed { ip: Some(ip), failure, .. } if ip == "192.168.10.12" => {
                Some((e.time_ms, *failure))
            }
            _ => None,
        });
        failures.collect()
    };
    let r = report::run(&s);
    let seen = failed(&r);
    assert!(seen.iter().all(|(_, f)| matches!(f, Failure::Timeout | Failure::Lost)), "{seen:?}");
    let lost: Vec<u64> =
        seen.iter().filter(|(_, f)| *f == Failure::Lost).map(|(t, _)| *t).collect();
    assert!(!lost.is_empty() && lost.iter().all(|t| (75_001..=105_000).contains(t)), "{lost:?}");
    assert!(seen.iter().any(|(t, f)| *f == Failure::Timeout && *t >= 90_000), "{seen:?}");
    // Back at 80 s: the connections still silent are reset then, none is lost after.
    let mut file: Value = serde_json::from_str(&text).unwrap();
    let start = json!({"at": "80s", "do": "start_apiserver", "apiserver": "apiserver-b"});
    file["steps"].as_array_mut().unwrap().push(start);
    let back = scenario::parse(&file.to_string()).unwrap();
    check_run(&back).unwrap();
    let seen = failed(&report::run(&back));
    assert!(seen.iter().any(|(t, f)| (*t, *f) == (80_000, Failure::Reset)), "{seen:?}");
    assert!(!seen.iter().any(|(t, f)| *f == Failure::Lost && *t > 80_000), "{seen:?}");
}

/// Without client pods a host that goes down is a crash: the same report, byte for byte.
#[test]
fn without_clients_a_host_down_is_a_crash() {
    let text =
        lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "crash-one-of-three").unwrap().1;
    let host = text.replace("\"crash_apiserver\"", "\"crash_host\"");
    assert_ne!(host, text);
    let run = |t: &str| serde_json::to_string(&report::run(&scenario::parse(t).unwrap())).unwrap();
    assert_eq!(run(&host), run(text));
}

/// Under `none` the lab writes no EndpointSlice, so every kube-proxy lists nothing and REJECTs
/// every new connection: no address has a window, and the figures show the exposure as spans
/// of each node with no endpoint, from the start, and the connections REJECT refused. With the
/// `lease` reconciler the kube-proxies list nothing only until the first apiserver's slice
/// reaches them, before any pod starts, and nothing is REJECTed.
#[test]
fn under_none_every_node_rejects_from_the_start() {
    let text = lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "clients-crash-one-of-three");
    let text = text.unwrap().1;
    let mut file: Value = serde_json::from_str(text).unwrap();
    file["cluster"]["endpoint_reconciler_type"] = json!("none");
    file["steps"] = json!([]);
    let r = report::run(&scenario::parse(&file.to_string()).unwrap());
    let f = r.clients.expect("clients");
    assert!(f.windows.is_empty(), "{:?}", f.windows);
    assert_eq!(
        f.rejecting.iter().map(|s| s.node.as_str()).collect::<Vec<_>>(),
        ["node-1", "node-2", "node-3"]
    );
    assert!(f
        .rejecting
        .iter()
        .all(|s| s.from_ms == 0 && s.until_ms.is_none() && s.duration_ms == 120_000));
    assert!(f.attempts > 0 && f.rejected == f.attempts && f.failed == f.attempts, "{f:?}");
    let shipped = report::run(&scenario::parse(text).unwrap());
    let f = shipped.clients.as_ref().expect("clients");
    assert!(f.rejected == 0 && !f.rejecting.is_empty(), "{f:?}");
    assert!(f.rejecting.iter().all(|s| s.from_ms == 0 && s.until_ms.is_some_and(|t| t < 1_000)));
    assert!(!serde_json::to_string(&shipped).unwrap().contains("\"rejected\""));
}

/// Under `master-count` a host that goes down stays listed, so a controller's watch may dial
/// it again and time out: client-go's REST client dials that watch again itself 1 s later (up
/// to 10 times) before the reflector backs off.
#[test]
fn a_timed_out_watch_is_dialled_again_one_second_later() {
    let mut seen = 0;
    for seed in 0..24 {
        let file = json!({
            "seed": seed,
            "cluster": {"endpoint_reconciler_type": "master-count", "apiserver_count": 2, "apiservers": [
                {"name": "a", "advertise_address": "192.168.10.11"},
                {"name": "b", "advertise_address": "192.168.10.12"}]},
            "nodes": [{"name": "node-1"}],
            "clients": [{"name": "op", "node": "node-1", "workload": "controller", "start_at": "20s"}],
            "steps": [{"at": "30s", "do": "crash_host", "apiserver": "b"}],
            "until": "10m"
        });
        let r = report::run(&scenario::parse(&file.to_string()).unwrap());
        // (instant, the failure if it is one): a dial under way or a connection is `None`.
        let mine: Vec<(u64, Option<Failure>, bool)> = r
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ClientFailed { client, failure, .. } if client == "op" => {
                    Some((e.time_ms, Some(*failure), false))
                }
                EventKind::ClientDialing { client, .. } if client == "op" => {
                    Some((e.time_ms, None, false))
                }
                EventKind::ClientConnected { client, .. } if client == "op" => {
                    Some((e.time_ms, None, true))
                }
                _ => None,
            })
            .collect();
        // Timeouts in a row since the watch last connected or failed otherwise.
        let mut in_a_row = 0;
        for pair in mine.windows(2) {
            match pair[0] {
                (t, Some(Failure::Timeout), _) => {
                    in_a_row += 1;
                    if in_a_row <= 10 {
                        assert_eq!(pair[1].0, t + 1_000, "seed {seed}: {mine:?}");
                        seen += 1;
                    }
                }
                (_, Some(_), _) | (_, None, true) => in_a_row = 0,
                (_, None, false) => {}
            }
        }
    }
    assert!(seen > 0, "no controller's watch timed out in 24 seeds");
}

/// A graceful stop's GOAWAY (`NO_ERROR`) lets open streams finish: a job's idle connection
/// closes without an error, and a controller's watch streams on until the apiserver's shutdown
/// gives up 60 s later (or it starts again), when the connection closes with GOAWAY's error.
#[test]
fn a_graceful_stop_drains_watches_and_closes_idle_connections() {
    let run = |steps: Value| {
        let file = json!({
            "cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]},
            "nodes": [{"name": "node-1"}],
            "clients": [
                {"name": "op", "node": "node-1", "workload": "controller", "start_at": "20s"},
                {"name": "job", "node": "node-1", "workload": "job", "every": "5s", "start_at": "20s"}],
            "steps": steps,
            "until": "2m"
        });
        let r = report::run(&scenario::parse(&file.to_string()).unwrap());
        let of = |who: &str| -> Vec<(u64, String)> {
            let mine = r.events.iter().filter_map(|e| match &e.kind {
                EventKind::ClientFailed { client, failure, .. } if client == who => {
                    Some((e.time_ms, format!("{failure:?}")))
                }
                EventKind::ClientClosed { client, .. } if client == who => {
                    Some((e.time_ms, "Closed".into()))
                }
                _ => None,
            });
            mine.collect()
        };
        (of("op"), of("job"))
    };
    let (op, job) = run(json!([{"at": "30s", "do": "stop_apiserver", "apiserver": "a"}]));
    // Then it watches again, refused: no apiserver runs.
    assert_eq!(op.first(), Some(&(90_000, "GoAway".to_string())), "{op:?}");
    assert_eq!(job.first(), Some(&(30_000, "Closed".to_string())), "{job:?}");
    assert!(!job.iter().any(|(_, f)| f == "GoAway"), "{job:?}");
    let (op, _) = run(json!([
        {"at": "30s", "do": "stop_apiserver", "apiserver": "a"},
        {"at": "50s", "do": "start_apiserver", "apiserver": "a"}]));
    assert_eq!(op.first(), Some(&(50_000, "GoAway".to_string())), "{op:?}");
}

/// Tour 11 quotes its runs' figures (issue 46, item 4, for this tour): the crash's window,
/// the lease's renewal and expiry, operator-1's backoff, the graceful stop's window and
/// cronjob-6's refusals under master-count are what the runs give, in English and Chinese.
#[test]
fn tour_11_quotes_its_runs_figures() {
    let tour: Value =
        serde_json::from_str(include_str!("../../../../tours/clients-apiserver-failure.json"))
            .unwrap();
    let say = |i: usize, lang: &str| tour["steps"][i]["say"][lang].as_str().unwrap().to_string();
    let secs = |ms: u64, places: usize| format!("{:.*}", places, ms as f64 / 1000.0);
    let quotes = |i: usize, n: &str| {
        let (en, zh) = (say(i, "en"), say(i, "zh"));
        assert!(en.contains(&format!("{n} s")), "step {} (en) does not quote {n} s: {en}", i + 1);
        assert!(zh.contains(&format!("{n}s")), "step {} (zh) does not quote {n}s: {zh}", i + 1);
    };
    let text = lab::catalogue::SCENARIOS.iter().find(|(n, _)| *n == "clients-crash-one-of-three");
    let crash = report::run(&scenario::parse(text.unwrap().1).unwrap());
    quotes(2, &secs(crash.clients.as_ref().unwrap().windows[0].duration_ms, 3));
    let expired = crash.events.iter().find(|e| matches!(e.kind, EventKind::LeaseExpired { .. }));
    let expired = expired.unwrap().time_ms;
    quotes(2, &secs(expired, 1));
    quotes(2, &secs(expired - 15_000, 1));
    let of_op1 = |e: &&k8s::event::Event| match &e.kind {
        EventKind::ClientFailed { client, failure: Failure::Refused, .. }
        | EventKind::ClientConnected { client, .. } => client == "operator-1",
        _ => false,
    };
    // Its first refusal, then the connection its reflector made after the backoff.
    let op1: Vec<&k8s::event::Event> = crash.events.iter().filter(of_op1).collect();
    let refused = op1.iter().position(|e| matches!(e.kind, EventKind::ClientFailed { .. }));
    let [a, b] = [op1[refused.unwrap()], op1[refused.unwrap() + 1]].map(|e| e.time_ms);
    quotes(2, &secs(b - a, 3));
    let stop = scenario::parse(&tour["steps"][3]["scenario"].to_string()).unwrap();
    let stop = report::run(&stop);
    quotes(3, &secs(stop.clients.unwrap().windows[0].duration_ms, 3));
    let mc = report::run(&scenario::parse(&tour["steps"][4]["scenario"].to_string()).unwrap());
    let refused = mc.events.iter().filter(|e| {
        matches!(&e.kind, EventKind::ClientFailed { client, failure: Failure::Refused, .. } if client == "cronjob-6")
            && e.time_ms <= 90_000
    });
    assert_eq!(refused.count(), 2, "step 5 says cronjob-6 was refused twice by 90 s");
}
