//! `cargo bench`: the allocator and repair workloads of `kube_bootstrap_lab::workloads`, timed
//! natively. The same workloads are timed in headless Chromium by `tests/wasm_bench.rs`.

use std::hint::black_box;
use std::time::Instant;

use kube_bootstrap_lab::workloads;

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
    println!("{name:<48} median {:>9.3} ms   min {:>9.3} ms   ({runs} runs)", times[runs / 2], times[0]);
}

fn main() {
    // `cargo test --benches` passes --bench-free arguments; only time when asked to bench.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    println!("native ({} {})", std::env::consts::ARCH, std::env::consts::OS);
    bench("AllocateNext: fill a /16 (65,534 IPs)", 11, || workloads::fill("10.0.0.0/16", 1));
    bench("AllocateNext: fill a /12 (1,048,574 IPs)", 5, || workloads::fill("10.96.0.0/12", 1));
    bench("churn release+AllocateNext x100k, /16 at 50%", 5, || workloads::churn(50, 100_000, 1));
    bench("churn release+AllocateNext x100k, /16 at 99%", 5, || workloads::churn(99, 100_000, 1));
    for n in [10_000, 100_000] {
        let (snapshot, services) = workloads::repair_setup(n);
        bench(&format!("repair run: {n} services on a /12"), 7, || workloads::repair_run(&snapshot, &services));
    }
}
