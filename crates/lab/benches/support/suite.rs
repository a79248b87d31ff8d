//! The workloads timed both natively (`crates/lab/benches/core.rs`) and in headless Chromium
//! (`crates/lab/tests/wasm_bench.rs`): one list, so that both builds measure the same work.

use std::hint::black_box;

use crate::workloads;
use engine::contract::api::Behavior;
use engine::contract::scenario::Scenario;
use engine::sim::timeline::Timeline;
use engine::sim::world::World;
use k8s::rng::SimRng;

pub const HOUR: u64 = 3_600_000;

/// A clock in milliseconds and where result lines go: `Instant` and stdout natively,
/// `performance.now()` and the browser console in wasm.
pub struct Bench<'a> {
    pub now: &'a dyn Fn() -> f64,
    pub print: &'a dyn Fn(String),
}

impl Bench<'_> {
    /// `runs` timings of `f` in ms, fastest first.
    fn times<T>(&self, runs: usize, mut f: impl FnMut() -> T) -> Vec<f64> {
        let mut times: Vec<f64> = (0..runs)
            .map(|_| {
                let start = (self.now)();
                black_box(f());
                (self.now)() - start
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times
    }

    /// Runs `f` `runs` times and prints the median and the fastest time.
    pub fn run<T>(&self, name: &str, runs: usize, f: impl FnMut() -> T) {
        let times = self.times(runs, f);
        (self.print)(format!(
            "{name:<48} median {:>9.3} ms   min {:>9.3} ms   ({runs} runs)",
            times[runs / 2],
            times[0]
        ));
    }

    /// AllocateNext, churn and repair runs over large ranges (the bitmap's, and from 1.33 the
    /// IPAddress objects' beside them), then a virtual day of `day`.
    pub fn allocators_and_a_day(&self, day: &Scenario) {
        self.run("AllocateNext: fill a /16 (65,534 IPs)", 11, || workloads::fill("10.0.0.0/16", 1));
        // 11 runs: in the browser one run in three or four is far slower (the JIT, the shared
        // cores), and the median of 5 moved by 2× between runs of the whole suite.
        self.run("AllocateNext: fill a /12 (1,048,574 IPs)", 11, || {
            workloads::fill("10.96.0.0/12", 1)
        });
        self.run("churn release+AllocateNext x100k, /16 at 50%", 5, || {
            workloads::churn(50, 100_000, 1)
        });
        self.run("churn release+AllocateNext x100k, /16 at 99%", 5, || {
            workloads::churn(99, 100_000, 1)
        });
        // 1.33+ (docs/scenario.md §6): one apiserver's Service create path, the ClusterIP as an
        // IPAddress object (1.35), as a bit of the stored bitmap (1.29), or both (1.33).
        self.run("create 100k Services, /12: IPAddresses (1.35)", 3, || {
            workloads::create_services(Behavior::V1_35, 100_000, 1)
        });
        for (behavior, what) in [
            (Behavior::V1_35, "IPAddresses (1.35)"),
            (Behavior::V1_29, "stored bitmap (1.29)"),
            (Behavior::V1_33, "dual write (1.33)"),
        ] {
            self.run(&format!("create 10k Services, /12: {what}"), 3, || {
                workloads::create_services(behavior, 10_000, 1)
            });
        }
        for n in [10_000, 100_000] {
            let (snapshot, services) = workloads::repair_setup(n);
            self.run(&format!("repair run: {n} services on a /12"), 7, || {
                workloads::repair_run(&snapshot, &services)
            });
            let mut etcd = workloads::repair_ip_setup(n);
            self.run(&format!("RepairIPAddress pass: {n} services, /12"), 7, || {
                workloads::repair_ip_run(&mut etcd)
            });
        }
        self.run("world: 24 h virtual, 5 apiservers, 1,000 services", 3, || {
            let mut w = World::new(day);
            w.run_until(24 * HOUR);
            w.events().len()
        });
    }

    /// Seeks to 60 instants of a 2 h timeline in a seeded order (back, forward, anywhere), on a
    /// /16 with 5 apiservers and 1,000 Services: each is one checkpoint's clone and at most one
    /// interval of replay. Prints the median and the worst.
    pub fn seek_anywhere(&self) {
        let s = workloads::control_plane_scenario_on("10.0.0.0/16", 5, 1000);
        let mut tl = Timeline::new(&s);
        tl.run_until(2 * HOUR);
        let mut rng = SimRng::new(1);
        let mut times: Vec<f64> = (0..60)
            .map(|_| {
                let t = rng.intn(2 * HOUR as usize + 1) as u64;
                let start = (self.now)();
                tl.seek(t);
                black_box(tl.world().now());
                (self.now)() - start
            })
            .collect();
        times.sort_by(f64::total_cmp);
        (self.print)(format!(
            "{:<48} median {:>9.3} ms   max {:>9.3} ms   (60 seeks; target 16 / 33 ms in wasm)",
            "seek anywhere in 2 h, /16, 1,000 services", times[30], times[59]
        ));
    }

    /// Issue 13: `kubectl get svc -A -o json` of 10k and 100k Services read, made a scenario,
    /// and its findings (the repair loops run through one resync).
    pub fn imports(&self) {
        for (n, runs) in [(10_000, 3), (100_000, 1)] {
            let text = workloads::kubectl_services(n);
            self.run(
                &format!("import + findings: {n} Services ({} MB)", text.len() >> 20),
                runs,
                || workloads::import_and_findings(&text),
            );
        }
    }

    /// Writing a tour in the page (`lab::author`) on the scenario the page opens with, three
    /// steps written: an action at t = 10 m (the scenario with it rebuilt up to there, and the
    /// tour played through to say where each step plays), and a step added there (the tour
    /// played through). Each answers a click: the target is 100 ms.
    pub fn writing(&self) {
        use engine::contract::scenario::Action;
        use lab::{Authoring, Lab, Msg, Opening, DEFAULT_SCENARIO};
        let mut lab =
            Lab::open(Opening { scenario: Some(DEFAULT_SCENARIO), ..Opening::default() }).0;
        lab.update(Msg::Author(Authoring::Open));
        for t in [0, 60_000, 300_000] {
            lab.update(Msg::Seek(t));
            lab.update(Msg::Author(Authoring::AddStep));
        }
        lab.update(Msg::Seek(600_000));
        let mut n = 0;
        self.clicks("write: an action at t = 10 m", &mut || {
            n += 1;
            let service = serde_json::json!({"do": "create_service", "service": {"namespace": "default", "name": format!("web-{n}")}});
            lab.update(Msg::Act(Action::from_json("bench", service).expect("a valid action")))
        });
        self.clicks("write: a step added at t = 10 m", &mut || {
            lab.update(Msg::Author(Authoring::AddStep))
        });
    }

    /// Times `click` 7 times; prints the median and the worst beside a click's target.
    fn clicks(&self, name: &str, click: &mut dyn FnMut() -> bool) {
        let times = self.times(7, click);
        (self.print)(format!(
            "{name:<48} median {:>9.3} ms   max {:>9.3} ms   (7 clicks; target 100 ms)",
            times[3], times[6]
        ));
    }
}
