//! Property tests (native only: proptest needs std's process and time facilities).

use std::collections::BTreeSet;

use proptest::prelude::*;

use k8s::allocator::{AllocationBitmap, Strategy as Scan};
use k8s::options::parse_service_cluster_ip_range;
use k8s::portallocator::PortRange;

use crate::model::{check_against_model, expected_bytes};

#[derive(Clone, Debug)]
enum Op {
    Allocate(usize),
    Release(usize),
}

fn ops(max: usize) -> impl proptest::strategy::Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![(0..max + 8).prop_map(Op::Allocate), (0..max + 8).prop_map(Op::Release)],
        0..200,
    )
}

proptest! {
    #[test]
    fn used_free_has_for_each_stay_consistent((max, ops) in (1usize..400).prop_flat_map(|m| (Just(m), ops(m)))) {
        let mut b = AllocationBitmap::new(max, "p", Scan::RandomScan);
        let mut model = BTreeSet::new();
        for op in ops {
            match op {
                Op::Allocate(o) => match b.allocate(o) {
                    Ok(fresh) => prop_assert_eq!(fresh, model.insert(o)),
                    Err(e) => {
                        prop_assert!(o >= max);
                        prop_assert_eq!(e, format!("offset {o} out of range [0,{max}]"));
                    }
                },
                Op::Release(o) => { b.release(o); model.remove(&o); }
            }
            prop_assert_eq!(b.free(), (max - model.len()) as i64);
            prop_assert_eq!(b.iter().collect::<Vec<_>>(), model.iter().copied().collect::<Vec<_>>());
        }
        for o in 0..max + 8 {
            prop_assert_eq!(b.has(o), model.contains(&o));
        }
        let (spec, data) = b.snapshot();
        prop_assert_eq!(&data, &expected_bytes(&model));
        let mut c = AllocationBitmap::new(max, "p", Scan::RandomScan);
        c.restore(&spec, &data).unwrap();
        prop_assert_eq!(c, b);
    }

    #[test]
    fn random_sequences_with_allocate_next_match_the_model(seed in any::<u64>()) {
        check_against_model(seed, 300);
    }

    #[test]
    fn restore_accepts_any_bytes_and_counts_them(data in prop::collection::vec(any::<u8>(), 0..40), max in 0usize..200) {
        let mut b = AllocationBitmap::new(max, "p", Scan::RandomScan);
        b.restore("p", &data).unwrap();
        let ones: u32 = data.iter().map(|x| x.count_ones()).sum();
        prop_assert_eq!(b.free(), max as i64 - ones as i64);
        // Re-encoding drops only leading zero bytes.
        let trimmed: Vec<u8> = data.iter().copied().skip_while(|&x| x == 0).collect();
        prop_assert_eq!(b.snapshot().1, trimmed);
    }

    #[test]
    fn port_range_parser_never_panics(s in ".{0,20}") {
        let _ = PortRange::parse(&s);
    }

    #[test]
    fn port_range_parser_round_trips(base in 0i32..65536, len in 0i32..65536) {
        let high = (base + len).min(65535);
        let parsed = PortRange::parse(&format!("{base}-{high}")).unwrap();
        prop_assert_eq!(parsed, PortRange { base, size: high - base + 1 });
        prop_assert_eq!(PortRange::parse(&parsed.to_string()).unwrap(), parsed);
    }

    #[test]
    fn service_range_parser_never_panics(s in "[0-9a-f:./,]{0,40}") {
        let _ = parse_service_cluster_ip_range(&s);
    }
}

mod parsers {
    use proptest::prelude::*;

    use engine::contract::scenario;
    use engine::duration::parse_ms;

    const BASE: &str = r#"{"name": "p", "seed": 3, "cluster": {"service_cluster_ip_range": "10.96.0.0/16",
      "service_node_port_range": "30000-30100", "apiservers": [{"name": "a", "advertise_address": "192.168.1.1"}]},
      "initial": {"services": [{"name": "web", "cluster_ip": "10.96.0.5", "ports": [{"port": 80}]}]},
      "steps": [{"at": "10s", "do": "create_service", "service": {"name": "x", "type": "NodePort", "ports": [{"port": 80, "node_port": 30005}]}},
                {"at": "20s", "do": "corrupt", "what": "leak_cluster_ip", "ip": "10.96.0.9"},
                {"at": "30s", "expect": {"services": [{"name": "x"}]}}], "until": "40s"}"#;

    proptest! {
        #[test]
        fn duration_parser_never_panics(s in ".{0,16}") {
            let _ = parse_ms(&s);
        }

        #[test]
        fn durations_round_trip(h in 0u64..50, m in 0u64..60, s in 0u64..60, ms in 0u64..1000) {
            let text = format!("{h}h{m}m{s}s{ms}ms");
            prop_assert_eq!(parse_ms(&text), Ok(((h * 60 + m) * 60 + s) * 1000 + ms));
            let total = ((h * 60 + m) * 60 + s) * 1000 + ms;
            prop_assert_eq!(parse_ms(&engine::duration::format_ms(total)), Ok(total));
        }

        /// Any byte-level mutation of a valid scenario parses or fails cleanly, and whatever parses
        /// also runs without panicking.
        #[test]
        fn scenario_parser_and_engine_never_panic(pos in 0usize..BASE.len(), len in 0usize..6, junk in "[ -~]{0,6}") {
            let mut text = BASE.to_string();
            let start = (0..=pos).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let end = (start + len).min(text.len());
            let end = (end..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
            text.replace_range(start..end, &junk);
            if let Ok(s) = scenario::parse(&text) {
                if s.until_ms <= 3_600_000 {
                    let _ = engine::sim::report::run(&s);
                }
            }
        }
    }
}

mod implied_slice {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use engine::contract::api::{
        EndpointPort, EndpointSlice, EndpointSubset, Endpoints, SliceEndpoint, LABEL_SERVICE_NAME,
    };
    use k8s::reconcilers::endpointsadapter::{is_slice_of, slice_from_endpoints};

    const IPS: &[&str] = &["192.168.10.11", "192.168.10.12", "fd00::1", "::ffff:10.0.0.1", "nope"];

    fn endpoints() -> impl Strategy<Value = Endpoints> {
        let subset = (
            prop::collection::vec(prop::sample::select(IPS), 0..4),
            prop::collection::vec(
                (0i32..3).prop_map(|p| EndpointPort {
                    name: String::new(),
                    port: 6443 + p,
                    ..EndpointPort::default()
                }),
                0..2,
            ),
        )
            .prop_map(|(ips, ports)| EndpointSubset {
                addresses: ips.iter().map(|s| s.to_string()).collect(),
                ports,
                ..EndpointSubset::default()
            });
        (prop::sample::select(&["kubernetes", "other"][..]), prop::collection::vec(subset, 0..3))
            .prop_map(|(name, subsets)| Endpoints {
                namespace: "default".into(),
                name: name.into(),
                labels: BTreeMap::new(),
                subsets,
            })
    }

    /// `change` applied to a slice: none (6 and up), or one field made to differ.
    fn changed(mut s: EndpointSlice, change: usize) -> EndpointSlice {
        match change {
            0 => drop(s.labels.insert("extra".into(), "x".into())),
            1 => drop(s.labels.insert(LABEL_SERVICE_NAME.into(), "x".into())),
            2 => s.endpoints.iter_mut().take(1).for_each(|e| e.ready = false),
            3 => s.endpoints.iter_mut().take(1).for_each(|e| e.addresses.push("10.0.0.9".into())),
            4 => s.endpoints.push(SliceEndpoint { addresses: vec![], ready: true }),
            5 => s.namespace = "kube-system".into(),
            _ => {}
        }
        s
    }

    proptest! {
        /// The adapter's check without building equals comparing with the built slice.
        #[test]
        fn is_slice_of_is_equality_with_the_built_slice(
            e in endpoints(), other in endpoints(), of_other: bool, change in 0..10usize,
        ) {
            let s = changed(slice_from_endpoints(if of_other { &other } else { &e }), change);
            prop_assert_eq!(is_slice_of(&s, &e), s == slice_from_endpoints(&e));
        }
    }
}

/// `World::refusal` is the rule `act` follows: what it refuses, `act` refuses in the same words
/// without changing the state; an apiserver action it lets through, `act` takes. The lab's view
/// carries it to the buttons (`View::allowed`), which offer exactly what the world takes.
mod refusals {
    use std::collections::BTreeSet;

    use proptest::prelude::*;
    use serde_json::json;

    use engine::contract::scenario::{self, Action, Millis, Scenario};
    use engine::contract::state::ApiserverStatus as Shown;
    use engine::sim::timeline::Timeline;
    use engine::sim::world::World;
    use k8s::controlplane::Status;
    use lab::share::percent_encode;
    use lab::{Lab, Msg, Opening};

    /// Two apiservers (one slow to start) and one left for a `start_apiserver`.
    fn file() -> String {
        let servers = json!([
            {"name": "apiserver-a", "advertise_address": "192.168.10.11"},
            {"name": "apiserver-b", "advertise_address": "192.168.10.12", "startup_delay": "3s"},
            {"name": "apiserver-c", "advertise_address": "192.168.10.13", "start_at": null}]);
        json!({"name": "refusals", "cluster": {"apiservers": servers}}).to_string()
    }

    fn scenario() -> Scenario {
        scenario::parse(&file()).unwrap()
    }

    /// Action `kind` on apiserver `who` (3: one the cluster does not have).
    fn action(kind: usize, who: usize, secs: u64) -> Action {
        let name = ["apiserver-a", "apiserver-b", "apiserver-c", "apiserver-z"][who];
        let svc = json!({"name": format!("s{secs}"), "ports": [{"port": 80}]});
        let raw = match kind {
            0 => json!({"do": "crash_apiserver", "apiserver": name}),
            1 => json!({"do": "stop_apiserver", "apiserver": name}),
            2 => json!({"do": "start_apiserver", "apiserver": name}),
            3 => json!({"do": "isolate_apiserver", "apiserver": name, "for": format!("{secs}s")}),
            4 => json!({"do": "etcd_outage", "for": format!("{secs}s")}),
            5 => json!({"do": "create_service", "service": svc, "via": name}),
            _ => {
                json!({"do": "add_apiserver", "name": name, "advertise_address": format!("192.168.10.{}", 11 + who)})
            }
        };
        Action::from_json("", raw).unwrap()
    }

    /// A lab and a timeline of the same scenario, moved alike: the lab's view against the
    /// world's own answers.
    struct Twins {
        lab: Lab,
        tl: Timeline,
    }

    impl Twins {
        fn new() -> Twins {
            let link = format!("#file={}", percent_encode(&file()));
            let (lab, _) = Lab::open(Opening { link: Some(&link), ..Opening::default() });
            let mut tl = Timeline::new(&scenario());
            // As the lab opened: what is due at 0 ms has run.
            tl.run_until(0);
            Twins { lab, tl }
        }

        fn wait(&mut self, ms: u64) {
            let t = self.lab.view().player.now + ms;
            self.lab.update(Msg::Seek(t));
            self.tl.run_until(t);
        }

        fn go(&mut self, wait: u64, a: Action) {
            self.wait(wait);
            self.lab.update(Msg::Act(a.clone()));
            let _ = self.tl.act(a);
        }

        /// Every apiserver's buttons in the view match what the world does with each action.
        fn agree(&self) -> Result<(), TestCaseError> {
            let view = self.lab.view();
            let w = self.tl.world();
            prop_assert_eq!(view.allowed.len(), w.apiservers().count());
            for (name, allowed) in view.allowed.iter() {
                let takes = |a: Action| w.clone().act(&a).is_ok();
                let for_ = Millis::new(30_000).unwrap();
                let (crash, stop, start) =
                    (Action::crash(name), Action::stop(name), Action::start(name));
                let world =
                    [takes(crash), takes(stop), takes(start), takes(Action::isolate(name, for_))];
                let offered = [allowed.crash, allowed.stop, allowed.start, allowed.isolate];
                prop_assert_eq!(offered, world, "{} at {} ms", name, w.now());
            }
            Ok(())
        }

        /// (shown status, process status) of every apiserver now.
        fn statuses(&self) -> Vec<(Shown, Status)> {
            let w = self.tl.world();
            w.apiservers().map(|a| (w.status(a), a.status)).collect()
        }
    }

    /// A scripted run through every status, isolated ones while starting, running and stopping
    /// included: the view's buttons agree with the world in each.
    #[test]
    fn the_buttons_agree_with_the_world_in_every_status() {
        let mut twins = Twins::new();
        let mut seen = BTreeSet::new();
        // (wait, kind, who, seconds): b isolated while starting, c started, a isolated and
        // stopped (its hook cannot reach etcd: stopping), then crashed; c isolated and stopped;
        // b stopped during an etcd outage; a started again.
        let script = [
            (1_000, 3, 1, 30),
            (0, 2, 2, 0),
            (500, 3, 0, 5),
            (0, 1, 0, 0),
            (3_000, 0, 0, 0),
            (6_000, 3, 2, 9),
            (2_000, 1, 2, 0),
            (30_000, 4, 1, 20),
            (0, 1, 1, 0),
            (0, 2, 0, 0),
        ];
        for (wait, kind, who, secs) in script {
            twins.go(wait, action(kind, who, secs.max(1)));
            assert!(twins.agree().is_ok(), "{:?}", twins.agree());
            seen.extend(twins.statuses());
            twins.wait(100);
            seen.extend(twins.statuses());
        }
        for want in [
            (Shown::Starting, Status::Starting),
            (Shown::Running, Status::Running),
            (Shown::Stopping, Status::Stopping),
            (Shown::Stopped, Status::Stopped),
            (Shown::Crashed, Status::Crashed),
            (Shown::Isolated, Status::Starting),
            (Shown::Isolated, Status::Running),
            (Shown::Isolated, Status::Stopping),
        ] {
            assert!(seen.contains(&want), "{want:?} not reached: {seen:?}");
        }
    }

    proptest! {
        #[test]
        fn act_refuses_exactly_what_refusal_says(
            moves in prop::collection::vec((0u64..6_000, 0usize..7, 0usize..4, 1u64..20), 1..30),
        ) {
            let mut w = World::new(&scenario());
            for (wait, kind, who, secs) in moves {
                w.run_until(w.now() + wait);
                let a = action(kind, who, secs);
                let before = w.state();
                let refusal = w.refusal(&a);
                let result = w.act(&a);
                match refusal {
                    Some(r) => {
                        prop_assert_eq!(result, Err(r));
                        prop_assert_eq!(w.state(), before);
                    }
                    // Only trying tells whether a Service is created (its IP, its name).
                    None if kind == 5 => {}
                    None => prop_assert!(result.is_ok(), "{:?}: {:?}", a, result),
                }
            }
        }

        #[test]
        fn the_buttons_offer_what_the_world_takes(
            moves in prop::collection::vec((0u64..8_000, 0usize..5, 0usize..3, 1u64..20), 1..25),
        ) {
            let mut twins = Twins::new();
            twins.agree()?;
            for (wait, kind, who, secs) in moves {
                twins.go(wait, action(kind, who, secs));
                twins.agree()?;
            }
        }
    }
}
