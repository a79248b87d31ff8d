//! The `cargo bench` workloads, timed in headless Chromium with `performance.now()`.
//! Run by `make bench` (`--nocapture` shows the figures). Natively this file is empty.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

#[path = "../benches/support/suite.rs"]
mod suite;
#[path = "../benches/support/workloads.rs"]
mod workloads;

#[wasm_bindgen_test]
fn workloads_in_the_browser() {
    console_log!("wasm32 in headless Chromium");
    let bench = suite::Bench { now: &now, print: &|line| console_log!("{line}") };
    let day = workloads::control_plane_scenario(5, 1000);
    bench.allocators_and_a_day(&day);
    bench.seek_anywhere();
    bench.imports();
    bench.writing();
    // The same work as natively: the fills hand out every address, every Service gets its
    // IPAddress, and a pass over Services that all have theirs changes nothing.
    assert_eq!(workloads::fill("10.0.0.0/16", 1), 65_534);
    let behavior = engine::contract::api::Behavior::V1_35;
    assert_eq!(workloads::create_services(behavior, 1_000, 1), 1_000);
    let mut etcd = workloads::repair_ip_setup(1_000);
    assert_eq!(workloads::repair_ip_run(&mut etcd), (1_000, 0));
}
