//! Core tests. They run natively (`cargo test`) and, compiled to wasm, in headless Chromium
//! (`wasm-bindgen-test`): the same assertions must hold in both builds.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod address;
mod author;
mod bench_workloads;
mod clients;
mod embed;
mod endpoints;
mod endpointsadapter;
mod etcd_key;
mod experiments;
mod explain;
mod external_name;
mod golden;
mod inspect;
mod kubectl;
mod lab;
#[cfg(not(target_arch = "wasm32"))]
mod model;
mod names;
mod own_tour;
mod pace;
mod parts;
mod predict;
#[cfg(not(target_arch = "wasm32"))]
mod props;
// Texts against runs: the same on every platform, so native only (it runs every tour).
#[cfg(not(target_arch = "wasm32"))]
mod quotes;
mod reconcilers;
mod reconcilers_master_count;
mod refusals;
mod scenario;
mod servicecidr;
mod share;
mod swarm_digests;
#[path = "../support/swarmgen/mod.rs"]
mod swarmgen;
mod timeline;
mod tour;
mod tour_file;
#[cfg(not(target_arch = "wasm32"))]
mod upstream;
mod wire;
mod world;
// The benchmarks' fixed workloads: the golden digests and the import tests share them.
#[path = "../../benches/support/workloads.rs"]
mod workloads;

use std::net::IpAddr;

use ipnet::IpNet;

pub fn net(s: &str) -> IpNet {
    s.parse().unwrap()
}

pub fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}
