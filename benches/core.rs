//! `cargo bench`: the allocator and repair workloads of `kube_bootstrap_lab::workloads`, timed
//! natively. The same workloads are timed in headless Chromium by `tests/wasm_bench.rs`.

use std::hint::black_box;
use std::time::Instant;

use kube_bootstrap_lab::timeline::Timeline;
use kube_bootstrap_lab::workloads;
use kube_bootstrap_lab::world::World;

/// Runs `f` `runs` times and prints the median and the fastest time in milliseconds.
fn bench<T>(name: &str, runs: usize, mut f: impl FnMut() -> T) {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{name:<48} median {:>9.3} ms   min {:>9.3} ms   ({runs} runs)",
        times[runs / 2],
        times[0]
    );
}

fn main() {
    // `cargo test --benches` passes --bench-free arguments; only time when asked to bench.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    println!(
        "native ({} {})",
        std::env::consts::ARCH,
        std::env::consts::OS
    );
    bench("AllocateNext: fill a /16 (65,534 IPs)", 11, || {
        workloads::fill("10.0.0.0/16", 1)
    });
    bench("AllocateNext: fill a /12 (1,048,574 IPs)", 5, || {
        workloads::fill("10.96.0.0/12", 1)
    });
    bench("churn release+AllocateNext x100k, /16 at 50%", 5, || {
        workloads::churn(50, 100_000, 1)
    });
    bench("churn release+AllocateNext x100k, /16 at 99%", 5, || {
        workloads::churn(99, 100_000, 1)
    });
    for n in [10_000, 100_000] {
        let (snapshot, services) = workloads::repair_setup(n);
        bench(&format!("repair run: {n} services on a /12"), 7, || {
            workloads::repair_run(&snapshot, &services)
        });
    }

    const HOUR: u64 = 3_600_000;
    let day = workloads::control_plane_scenario(5, 1000);
    bench(
        "world: 24 h virtual, 5 apiservers, 1,000 services",
        3,
        || {
            let mut w = World::new(&day);
            w.run_until(24 * HOUR);
            w.events().len()
        },
    );
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
    bench("seek to t = 1 h: replay from the seed", 3, || {
        let mut w = World::new(&day);
        w.run_until(HOUR + 30_000);
        w.now()
    });
}
