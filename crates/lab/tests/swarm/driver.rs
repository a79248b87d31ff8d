//! The driver: one seed's run (the generator of `crates/lab/tests/support/swarmgen/` under the observer),
//! the seeds spread over every core, the options read from the environment, and the command
//! that replays a seed.

use std::panic::{self, AssertUnwindSafe};

use serde_json::Value as Json;

use engine::contract::api::Behavior;
use engine::contract::scenario::{Action, Scenario};
use engine::sim::world::{Stepped, World};

use crate::observer::Observer;
use crate::report::{tally, Stats};
use crate::swarmgen::{Run, Watch};
use crate::violation::{Ctx, Violation};

/// One seed's run: its statistics, its violation (as the failure message) and its world.
pub(crate) struct Outcome {
    pub(crate) seed: u64,
    pub(crate) stats: Stats,
    pub(crate) violation: Option<String>,
    /// `(invariant, classified as a known engine bug)`.
    pub(crate) class: Option<(&'static str, Option<&'static str>)>,
    pub(crate) world: Option<World>,
}

/// How seeds run: checked or not, printed or not (`SWARM_SEED`, `SWARM_TRACE`).
pub(crate) struct Options {
    pub(crate) check: bool,
    pub(crate) verbose: bool,
    pub(crate) trace: bool,
    /// `SWARM_BEHAVIOR`: every seed under this behaviour rather than the one it draws.
    pub(crate) only: Option<Behavior>,
}

/// The one command that replays `seed` as this run ran it.
pub(crate) fn repro(seed: u64, opts: &Options) -> String {
    let only = opts.only.map(|b| format!("SWARM_BEHAVIOR={} ", b.as_str())).unwrap_or_default();
    format!("{only}SWARM_SEED={seed} cargo test --no-default-features --test swarm -- --nocapture")
}

/// The swarm's watcher: counts, prints when asked, keeps the last actions for a failure's
/// message, and checks the invariants after every task and action.
struct Checked<'a> {
    opts: &'a Options,
    obs: Observer,
    stats: Stats,
    recent: Vec<String>,
}

impl Watch for Checked<'_> {
    type Stop = Violation;

    fn step(&mut self, world: &World, stepped: &Stepped, before: usize) -> Result<(), Violation> {
        self.stats.steps += 1;
        if self.opts.trace {
            println!("  {:>8}ms task {}", stepped.time_ms, stepped);
            for e in &world.events()[before..] {
                println!(
                    "             {} {} {} {} {}",
                    e.apiserver, e.component, e.reason, e.object, e.message
                );
            }
        }
        if !self.opts.check {
            return Ok(());
        }
        self.obs.observe(world, &Ctx::Step(stepped))
    }

    fn act(
        &mut self,
        world: &World,
        at: u64,
        raw: &Json,
        action: &Action,
        failed: Option<&str>,
    ) -> Result<(), Violation> {
        self.stats.actions += 1;
        if failed.is_some() {
            self.stats.failed_actions += 1;
        }
        let line = format!(
            "{at}ms {raw}{}",
            failed.map(|m| format!(" -> failed: {m}")).unwrap_or_default()
        );
        if self.opts.verbose {
            println!("  {line}");
        }
        self.recent.push(line);
        if self.recent.len() > 12 {
            self.recent.remove(0);
        }
        if !self.opts.check {
            return Ok(());
        }
        self.obs.observe(world, &Ctx::Act(action))
    }
}

/// Runs `seed` to the end of its hour (or its first violation or panic) under `opts`.
pub(crate) fn run_seed(seed: u64, opts: &Options) -> Outcome {
    let mut run = Run::new(seed, opts.only);
    let summary = summarize(&run.scenario);
    if opts.verbose {
        println!("seed {seed}: {summary}\n{}", run.text);
    }
    let mut watch = Checked {
        opts,
        obs: Observer::new(&run.world),
        stats: Stats::default(),
        recent: Vec::new(),
    };
    watch.stats.behaviors.insert(run.scenario.behavior.as_str(), 1);
    let result = panic::catch_unwind(AssertUnwindSafe(|| run.drive(&mut watch)));
    let violation = match result {
        Ok(Ok(())) => None,
        Ok(Err(v)) => Some(v),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Some(Violation {
                invariant: "no panic",
                time_ms: run.world.now(),
                message: format!("{} panicked: {msg}", run.phase),
                bug: None,
            })
        }
    };
    let Checked { obs, mut stats, recent, .. } = watch;
    stats.coverage = obs.coverage.clone();
    stats.known = obs.known_hits.clone();
    stats.tally = tally(run.world.events());
    let class = violation.as_ref().map(|v| (v.invariant, v.bug));
    let violation = violation.map(|v| {
        format!(
            "seed {seed} at t={}ms: invariant {} violated: {}\n    cluster: {summary}\n    last actions:\n      {}\n    reproduce: {}",
            v.time_ms,
            v.invariant,
            v.message,
            recent.join("\n      "),
            repro(seed, opts)
        )
    });
    Outcome { seed, stats, violation, class, world: Some(run.world) }
}

/// The cluster of a scenario on one line, for a failure's message.
fn summarize(s: &Scenario) -> String {
    let c = &s.cluster;
    format!(
        "behavior {:?}, {} reconciler (count {}), range {}, node ports {}, kube node port {}, interval {}ms, ttl {}ms, repair {}ms, apiservers {}",
        s.behavior,
        c.reconciler.as_str(),
        c.apiserver_count,
        c.service_ip_ranges.primary,
        c.node_ports,
        c.kubernetes_service_node_port,
        c.endpoint_interval_ms,
        c.lease_ttl_ms,
        c.repair_interval_ms,
        c.apiservers
            .iter()
            .map(|a| format!("{}={}{}", a.name, a.advertise_address, a.start_at.map_or(" (unstarted)".into(), |t| if t > 0 { format!(" @{t}ms") } else { String::new() })))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// The number in the environment variable `name`, if set.
pub(crate) fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().parse().unwrap_or_else(|_| panic!("{name} must be a number, got {v:?}")))
}

/// Whether the environment variable `name` is set to something other than empty or `0`.
pub(crate) fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Runs `seeds` on as many threads as there are cores; the outcomes in seed order, and the
/// number of threads.
pub(crate) fn run_seeds(seeds: &[u64], opts: &Options) -> (Vec<Outcome>, usize) {
    let threads =
        std::thread::available_parallelism().map_or(2, |n| n.get()).min(seeds.len()).max(1);
    // Silence the default hook's backtrace noise for engine panics; they are reported per seed.
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let mut outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                scope.spawn(move || {
                    seeds
                        .iter()
                        .skip(k)
                        .step_by(threads)
                        .map(|&seed| {
                            let mut o = run_seed(seed, opts);
                            o.world = None;
                            o
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("swarm thread")).collect()
    });
    panic::set_hook(hook);
    outcomes.sort_by_key(|o| o.seed);
    (outcomes, threads)
}
