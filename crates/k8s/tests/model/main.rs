//! The model's tests: its allocators, flags, repair loops and ServiceCIDR allocators through the crate's API alone. They
//! run natively (`cargo test -p kbl-k8s`) and, compiled to wasm, in headless Chromium
//! (`wasm-bindgen-test`): the same assertions must hold in both builds.

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod allocator;
mod ipallocator;
mod options;
mod portallocator;
mod repair_clusterip;
mod repair_nodeport;
mod servicecidr_allocator;

use std::net::IpAddr;

use ipnet::IpNet;

pub fn net(s: &str) -> IpNet {
    s.parse().unwrap()
}

pub fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}
