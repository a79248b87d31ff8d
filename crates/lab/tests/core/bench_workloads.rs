//! The benchmarks' workloads (`crates/lab/benches/support/workloads.rs`) do the work they time.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::api::Behavior;
use k8s::etcd;

use crate::workloads::{create_services, repair_ip_run, repair_ip_setup};

#[test]
fn every_created_service_holds_a_cluster_ip() {
    for behavior in [Behavior::V1_29, Behavior::V1_33, Behavior::V1_35] {
        assert_eq!(create_services(behavior, 500, 7), 500, "{behavior:?}");
    }
}

#[test]
fn a_pass_over_consistent_services_changes_nothing_and_repairs_a_missing_ipaddress() {
    let mut etcd = repair_ip_setup(300);
    assert_eq!(repair_ip_run(&mut etcd), (300, 0));
    let ip = etcd.ip_addresses(0)[0].ip.clone();
    etcd.delete(&etcd::ip_address_key(&ip), 0);
    assert_eq!(repair_ip_run(&mut etcd), (300, 1), "ClusterIPNotAllocated, recreated");
    assert!(etcd.ip_address(&ip, 0).is_some());
}
