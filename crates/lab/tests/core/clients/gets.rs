//! A job's GETs take time: a connection that breaks under one gives it the error, which
//! client-go's REST client retries per release; one that breaks idle tells nobody.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario;
use engine::sim::report;
use k8s::client::Failure;
use k8s::event::EventKind;
use serde_json::{json, Value};

/// A job polls every 2 s on the one apiserver, its GETs taking 100 ms, and the host goes down
/// at 60 s, the instant of a poll: a scenario's steps run before the pods, so that poll was
/// never answered, the last frame was the answer to the poll at 58 s (58.1 s), and the health
/// check closes the connection at 58.1 + 30 + 15 s under the GET that hangs there. client-go
/// 1.29 gives the job that error; from 1.32 its REST client sends the GET again 1 s later, on a
/// new dial to the same address (no other apiserver removes the dead one's endpoint), which
/// times out 30 s later: that error is the job's.
#[test]
fn a_poll_at_the_instant_the_host_goes_down_is_not_answered() {
    for (behavior, lost, retried, timed_out) in [
        ("1.29", vec![103_100], vec![], vec![134_000]),
        ("1.35", vec![], vec![103_100], vec![134_100]),
    ] {
        let file = json!({
            "behavior": behavior,
            "cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]},
            "nodes": [{"name": "node-1"}],
            "clients": [{"name": "job", "node": "node-1", "workload": "job", "every": "2s",
                "get_time": "100ms", "start_at": "20s"}],
            "steps": [{"at": "60s", "do": "crash_host", "apiserver": "a"}],
            "until": "140s"
        });
        let r = report::run(&scenario::parse(&file.to_string()).unwrap());
        let at = |want: &dyn Fn(&EventKind) -> bool| -> Vec<u64> {
            r.events.iter().filter(|e| want(&e.kind)).map(|e| e.time_ms).collect()
        };
        let failed = |f: Failure| move |k: &EventKind| matches!(k, EventKind::ClientFailed { failure, .. } if *failure == f);
        let retry =
            |k: &EventKind| matches!(k, EventKind::ClientRetrying { failure: Failure::Lost, .. });
        assert_eq!(at(&failed(Failure::Lost)), lost, "{behavior}");
        assert_eq!(at(&retry), retried, "{behavior}");
        assert_eq!(at(&failed(Failure::Timeout)), timed_out, "{behavior}");
    }
}

/// A job's GET takes 1.5 s from 20 s (its poll every 5 s). Its apiserver crashes at 20.5 s,
/// under the GET: client-go gets the reset and its REST client sends the GET again at 21.5 s,
/// in every release. Crashed at 22 s, after the answer, the idle connection just closes: no
/// error, no retry. Stopped gracefully at 20.5 s, the GET is answered at 21.5 s through the
/// GOAWAY, then the connection closes.
#[test]
fn a_get_under_way_is_retried_after_a_reset_and_an_idle_connection_closes_quietly() {
    let run = |steps: Value| {
        let file = json!({
            "cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"},
                {"name": "b", "advertise_address": "192.168.10.12"}]},
            "nodes": [{"name": "node-1"}],
            "clients": [{"name": "job", "node": "node-1", "workload": "job", "every": "5s",
                "get_time": "1500ms", "start_at": "20s"}],
            "steps": steps,
            "until": "24s"
        });
        report::run(&scenario::parse(&file.to_string()).unwrap())
    };
    let first = run(json!([]));
    let on = first.events.iter().find_map(|e| match &e.kind {
        EventKind::ClientConnected { ip, .. } => Some(ip.clone()),
        _ => None,
    });
    let apiserver = if on.as_deref() == Some("192.168.10.11") { "a" } else { "b" };
    let kinds = |r: &report::Report| -> Vec<(u64, String)> {
        let job = r.events.iter().filter(|e| e.message.starts_with("lab note: pod job"));
        job.map(|e| (e.time_ms, format!("{:?}", e.kind).split([' ', '{']).next().unwrap().into()))
            .collect()
    };
    let at = |t: &str, what: &str| json!([{"at": t, "do": what, "apiserver": apiserver}]);
    let crashed = kinds(&run(at("20500ms", "crash_apiserver")));
    assert_eq!(
        crashed[..2],
        [(20_000, "ClientConnected".into()), (20_500, "ClientRetrying".into())]
    );
    assert_eq!(crashed[2].0, 21_500, "{crashed:?}");
    let idle = kinds(&run(at("22s", "crash_apiserver")));
    assert_eq!(idle, [(20_000, "ClientConnected".into()), (22_000, "ClientClosed".into())]);
    let stopped = kinds(&run(at("20500ms", "stop_apiserver")));
    assert_eq!(stopped, [(20_000, "ClientConnected".into()), (21_500, "ClientClosed".into())]);
}
