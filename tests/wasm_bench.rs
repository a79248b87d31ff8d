//! The `cargo bench` workloads, timed in headless Chromium with `performance.now()`.
//! Run by `make bench` (`--nocapture` shows the figures). Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use kube_bootstrap_lab::workloads;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

fn bench<T>(name: &str, runs: usize, mut f: impl FnMut() -> T) {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = now();
            std::hint::black_box(f());
            now() - start
        })
        .collect();
    times.sort_by(f64::total_cmp);
    console_log!(
        "{name:<48} median {:>9.3} ms   min {:>9.3} ms   ({runs} runs)",
        times[runs / 2],
        times[0]
    );
}

#[wasm_bindgen_test]
fn workloads_in_the_browser() {
    console_log!("wasm32 in headless Chromium");
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
    let day = workloads::control_plane_scenario(5, 1000);
    bench(
        "world: 24 h virtual, 5 apiservers, 1,000 services",
        3,
        || {
            let mut w = kube_bootstrap_lab::world::World::new(&day);
            w.run_until(24 * 3_600_000);
            w.events().len()
        },
    );
    let mut tl = kube_bootstrap_lab::timeline::Timeline::new(&day);
    tl.run_until(2 * 3_600_000);
    bench(
        "seek back to t = 1 h 0 m 30 s: checkpoint + replay (incl. clone)",
        7,
        || {
            let mut back = tl.clone();
            back.seek(3_630_000);
            back.world().now()
        },
    );
    // The same work as natively: the fills hand out every address.
    assert_eq!(workloads::fill("10.0.0.0/16", 1), 65_534);
}
