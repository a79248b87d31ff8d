//! The swarm's seeded generator and driver, shared by the swarm (`crates/lab/tests/swarm/`, which checks
//! the invariants after every step) and by the cross-target digests (`crates/lab/tests/core/swarm_digests.rs`,
//! which runs the same seeds natively and in wasm and compares their traces).
//!
//! A seed's `SimRng` writes a random cluster as scenario JSON (so `scenario::parse` and the file
//! format are exercised too), draws the instants of its fault schedule, and at each instant
//! picks a random action (crashes, stops, restarts, new members, isolation, short etcd outages,
//! Services, Pods, storage corruptions, and under 1.33 and 1.35 ServiceCIDRs and IPAddress
//! objects) from the world as it is then. [`Run::drive`] steps the world task by task up to one
//! hour of virtual time and shows every task and every action to a [`Watch`].
//!
//! Here: the run, its watcher and the seeded source of choices (`Gen`), and the fault schedule;
//! `cluster.rs` writes the cluster, `actions.rs` draws an action of the world as it is, and
//! `targets.rs` draws what that action aims at.

use serde_json::Value as Json;

use engine::contract::api::Behavior;
use engine::contract::event::EventKind;
use engine::contract::scenario::{self, Action, Scenario};
use engine::sim::world::{Stepped, World};
use k8s::rng::SimRng;

mod actions;
mod cluster;
mod targets;

use actions::{gen_action, Names};
use cluster::gen_cluster;

/// One hour of virtual time per seed.
pub const HORIZON_MS: u64 = 3_600_000;

/// What a run shows its watcher: every task the world ran and every action it was given.
/// Returning `Err` stops the run there.
pub trait Watch {
    type Stop;
    /// After a task; the task's events are `world.events()[events_before..]`.
    fn step(
        &mut self,
        world: &World,
        stepped: &Stepped,
        events_before: usize,
    ) -> Result<(), Self::Stop>;
    /// After the action `raw` (scenario JSON) at `at`, refused with `failed` or done.
    fn act(
        &mut self,
        world: &World,
        at: u64,
        raw: &Json,
        action: &Action,
        failed: Option<&str>,
    ) -> Result<(), Self::Stop>;
}

/// One seed: its cluster, its world and what is left of its fault schedule.
pub struct Run {
    pub seed: u64,
    /// The generated cluster (scenario JSON with no steps).
    pub text: String,
    pub scenario: Scenario,
    pub world: World,
    /// Who runs now, to tell where a panic came from: "the engine", "the swarm generator" or
    /// "the swarm observer".
    pub phase: &'static str,
    g: Gen,
    names: Names,
    times: Vec<u64>,
}

impl Run {
    /// The seed's cluster and schedule, under `only` if given, else under the drawn behaviour.
    pub fn new(seed: u64, only: Option<Behavior>) -> Run {
        let mut g = Gen { rng: SimRng::new(seed) };
        let text = gen_cluster(&mut g, only);
        let scenario = scenario::parse(&text).unwrap_or_else(|e| {
            panic!("seed {seed}: generated scenario does not parse: {e}\n{text}")
        });
        let world = World::new(&scenario);
        let times = gen_times(&mut g);
        Run { seed, text, scenario, world, phase: "the engine", g, names: Names::default(), times }
    }

    /// Steps the world to the end of the hour, acting at each instant of the schedule.
    pub fn drive<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        for t in std::mem::take(&mut self.times) {
            self.step_until(watch, t)?;
            self.phase = "the swarm generator";
            let raw = gen_action(&mut self.g, &self.world, &mut self.names);
            self.phase = "the engine";
            let action: Action = serde_json::from_value(raw.clone()).unwrap_or_else(|e| {
                panic!("seed {}: generated action does not deserialize: {e}: {raw}", self.seed)
            });
            let before = self.world.events().len();
            let failed = self.world.act(&action).err().map(|f| f.message);
            let recorded =
                self.world.events()[before..].iter().find(|e| e.kind == EventKind::ActionFailed);
            assert_eq!(
                recorded.map(|e| &e.message),
                failed.as_ref(),
                "seed {}: a refusal is returned and recorded as one event",
                self.seed
            );
            self.phase = "the swarm observer";
            watch.act(&self.world, t, &raw, &action, failed.as_deref())?;
            self.phase = "the engine";
        }
        self.step_until(watch, HORIZON_MS)
    }

    fn step_until<W: Watch>(&mut self, watch: &mut W, t: u64) -> Result<(), W::Stop> {
        while self.world.next_time().is_some_and(|n| n <= t) {
            let before = self.world.events().len();
            let stepped = self.world.step().expect("a task is due");
            self.phase = "the swarm observer";
            watch.step(&self.world, &stepped, before)?;
            self.phase = "the engine";
        }
        self.world.run_until(t);
        Ok(())
    }
}

/// The seeded source of every random choice of one swarm run.
struct Gen {
    rng: SimRng,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.intn(n)
    }

    /// Uniform in `[lo, hi)`.
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below((hi - lo) as usize) as u64
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    /// Picks a key with probability proportional to its weight.
    fn weighted<K: Copy>(&mut self, table: &[(K, usize)]) -> K {
        let total: usize = table.iter().map(|(_, w)| w).sum();
        let mut x = self.below(total);
        for (k, w) in table {
            if x < *w {
                return *k;
            }
            x -= w;
        }
        unreachable!("weights add up")
    }
}

/// `v` milliseconds as a scenario duration.
fn ms(v: u64) -> String {
    format!("{v}ms")
}

/// The instants of the fault schedule: sorted, sometimes in bursts (same millisecond or close).
fn gen_times(g: &mut Gen) -> Vec<u64> {
    let count = 20 + g.below(60);
    let mut times = Vec::with_capacity(count);
    let mut t = 0;
    while times.len() < count {
        t = match g.below(10) {
            0 => t,                            // same instant as the previous action
            1 => t + g.between(1, 2_000),      // a burst
            _ => g.between(1_000, HORIZON_MS), // anywhere in the hour
        };
        if t < HORIZON_MS {
            times.push(t);
        }
    }
    times.sort_unstable();
    times
}
