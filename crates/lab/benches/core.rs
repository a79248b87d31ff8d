//! `cargo bench`: the allocator and repair workloads of `support/workloads.rs`, timed
//! natively. The same list (`support/suite.rs`) is timed in headless Chromium by
//! `crates/lab/tests/wasm_bench.rs`; the step and seek figures below are native only.

use std::hint::black_box;
use std::time::Instant;

use engine::sim::timeline::Timeline;
use engine::sim::world::World;

#[path = "support/suite.rs"]
mod suite;
#[path = "support/workloads.rs"]
mod workloads;

use suite::{Bench, HOUR};

fn main() {
    // `cargo test --benches` passes --bench-free arguments; only time when asked to bench.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    println!("native ({} {})", std::env::consts::ARCH, std::env::consts::OS);
    let origin = Instant::now();
    let bench =
        Bench { now: &|| origin.elapsed().as_secs_f64() * 1e3, print: &|line| println!("{line}") };
    let day = workloads::control_plane_scenario(5, 1000);
    bench.allocators_and_a_day(&day);
    bench.seek_anywhere();
    bench.imports();
    bench.writing();

    let big = workloads::control_plane_scenario(5, 10_000);
    let mut w = World::new(&big);
    w.run_until(HOUR);
    let steps: Vec<f64> = (0..500)
        .map(|_| {
            let start = Instant::now();
            black_box(w.step());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let mut sorted = steps.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{:<48} median {:>9.3} ms   max {:>9.3} ms   (500 steps; the max is a repair run)",
        "world: one step at 10,000 services", sorted[250], sorted[499]
    );
    let mut tl = Timeline::new(&day);
    tl.run_until(2 * HOUR);
    let mut times: Vec<f64> = (0..7)
        .map(|_| {
            let mut back = tl.clone();
            let start = Instant::now();
            back.seek(HOUR + 30_000);
            black_box(back.world().now());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{:<48} median {:>9.3} ms   min {:>9.3} ms   (7 runs, from t = 2 h)",
        "seek back to t = 1 h 0 m 30 s: checkpoint + replay", times[3], times[0]
    );
    bench.run("seek to t = 1 h: replay from the seed", 3, || {
        let mut w = World::new(&day);
        w.run_until(HOUR + 30_000);
        w.now()
    });
}
