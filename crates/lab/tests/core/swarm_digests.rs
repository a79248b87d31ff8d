//! The same seeded swarm runs give the same traces, byte for byte, natively and in wasm.
//!
//! Each seed of the swarm's generator (`crates/lab/tests/support/swarmgen/`: every behaviour and
//! reconciler, faults included) is driven for one hour of virtual time, and its trace is
//! digested: every task the world ran with the events it recorded, every action with its
//! outcome, the state after every action and at the end. Both builds compare the digests with
//! one committed list, `tests/golden/swarm-digests.txt`, so a mismatch between them is a
//! mismatch with the list.
//!
//! `make test` compares the first 50 seeds in each build, `make soak` all 1,000
//! (`SWARM_DIGEST_SEEDS=n`: natively read when the test runs, in wasm when it is compiled).
//! After a deliberate change of the engine: `UPDATE_GOLDEN=1 cargo test --no-default-features
//! --test core swarm_digests` (native) rewrites all 1,000.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::Value as Json;

use engine::contract::scenario::Action;
use engine::sim::world::{Stepped, World};

use crate::golden::fnv1a;
use crate::swarmgen::{Run, Watch};

const GOLDEN: &str = include_str!("../../../../tests/golden/swarm-digests.txt");
/// The seeds the committed list holds.
const ALL_SEEDS: u64 = 1_000;
/// The seeds `make test` compares.
const SAMPLE: u64 = 50;

/// The number of seeds to compare: `SWARM_DIGEST_SEEDS`, else the sample.
fn seeds() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    let given = std::env::var("SWARM_DIGEST_SEEDS").ok();
    #[cfg(target_arch = "wasm32")]
    let given = option_env!("SWARM_DIGEST_SEEDS").map(str::to_string);
    given.map_or(SAMPLE, |n| {
        n.trim()
            .parse()
            .unwrap_or_else(|_| panic!("SWARM_DIGEST_SEEDS must be a number, got {n:?}"))
    })
}

/// A running FNV-1a over everything a seed's run shows.
struct Trace {
    hash: u64,
}

impl Trace {
    fn add(&mut self, bytes: &[u8]) {
        // FNV-1a folds byte by byte, so digesting piece by piece equals digesting the whole.
        self.hash =
            bytes.iter().fold(self.hash, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    }

    fn add_state(&mut self, world: &World) {
        self.add(&serde_json::to_vec(&world.state()).expect("state serialises"));
    }
}

impl Watch for Trace {
    type Stop = ();

    fn step(&mut self, world: &World, stepped: &Stepped, before: usize) -> Result<(), ()> {
        self.add(format!("{} {stepped}\n", stepped.time_ms).as_bytes());
        for e in &world.events()[before..] {
            self.add(&serde_json::to_vec(e).expect("event serialises"));
        }
        Ok(())
    }

    fn act(
        &mut self,
        world: &World,
        at: u64,
        raw: &Json,
        _: &Action,
        failed: Option<&str>,
    ) -> Result<(), ()> {
        self.add(format!("{at} {raw} {failed:?}\n").as_bytes());
        self.add_state(world);
        Ok(())
    }
}

/// `seed digest behaviour reconciler`, one line per seed.
fn line(seed: u64) -> String {
    let mut run = Run::new(seed, None);
    let mut trace = Trace { hash: fnv1a(run.text.as_bytes()) };
    run.drive(&mut trace).expect("a trace never stops a run");
    trace.add_state(&run.world);
    let cluster = &run.scenario.cluster;
    format!(
        "{seed} {:016x} {} {}\n",
        trace.hash,
        run.scenario.behavior.as_str(),
        cluster.reconciler.as_str()
    )
}

#[test]
fn swarm_traces_match_the_committed_digests() {
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let all: String = (0..ALL_SEEDS).map(line).collect();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/swarm-digests.txt");
        std::fs::write(path, all).unwrap();
        return;
    }
    let n = seeds();
    assert!(n <= ALL_SEEDS, "the committed list holds {ALL_SEEDS} seeds, not {n}");
    let mismatches: Vec<String> = GOLDEN
        .lines()
        .take(n as usize)
        .enumerate()
        .filter_map(|(seed, want)| {
            let got = line(seed as u64);
            (got.trim_end() != want).then(|| format!("  want {want}\n  got  {got}"))
        })
        .collect();
    assert!(GOLDEN.lines().count() as u64 == ALL_SEEDS, "the committed list is not whole");
    assert!(
        mismatches.is_empty(),
        "{} of {n} seeds' traces differ from the committed digests (if deliberately, rerun \
         natively with UPDATE_GOLDEN=1; `SWARM_SEED=n cargo test --no-default-features --test swarm \
         -- --nocapture` replays seed n with its actions):\n{}",
        mismatches.len(),
        mismatches.join("")
    );
    #[cfg(not(target_arch = "wasm32"))]
    println!("swarm digests: {n} seeds match the committed list");
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::console_log!("swarm digests: {n} seeds match the committed list");
}
