//! The read-only views the UI paints: bitmap cells with their owners, and plain-word events.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use kube_bootstrap_lab::explain::explain;
use kube_bootstrap_lab::inspect::{cluster_ip_bitmap, node_port_bitmap, Cell};
use kube_bootstrap_lab::lang::Lang;
use kube_bootstrap_lab::scenario;
use kube_bootstrap_lab::world::World;

fn world(initial: serde_json::Value, until: u64) -> World {
    let s = scenario::parse(
        &json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/24", "repair_interval": "30s",
        "apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]}, "initial": initial})
        .to_string(),
    )
    .unwrap();
    let mut w = World::new(&s);
    w.run_until(until);
    w
}

#[test]
fn cells_show_owners_leaks_duplicates_and_the_kubernetes_service() {
    let w = world(
        json!({
        "services": [
            {"name": "one", "cluster_ip": "10.96.0.20", "type": "NodePort", "ports": [{"port": 80, "node_port": 30007}]},
            {"name": "two", "cluster_ip": "10.96.0.20", "ports": [{"port": 80}]},
            {"name": "far", "cluster_ip": "10.97.0.1", "ports": [{"port": 80}]}],
        "cluster_ip_allocation": {"range": "10.96.0.0/24", "allocated": ["10.96.0.20", "10.96.0.50"]},
        "node_port_allocation": {"range": "30000-32767", "allocated": [30007, 30009]}}),
        1_000,
    );
    let v = cluster_ip_bitmap(&w, 0).unwrap();
    assert_eq!(
        (v.range.as_str(), v.size, v.static_band),
        ("10.96.0.0/24", 254, 16)
    );
    assert_eq!(v.cells[0], Cell::Kubernetes as u8, "10.96.0.1");
    assert_eq!(
        v.cells[19],
        Cell::Duplicate as u8,
        "10.96.0.20 held by two services"
    );
    assert_eq!(v.cells[49], Cell::Leaked as u8, "10.96.0.50: no service");
    assert_eq!(
        v.leak_countdown.get(&49),
        Some(&1),
        "flagged by the first repair run"
    );
    assert_eq!(v.cells[2], Cell::Free as u8);
    assert_eq!(
        v.out_of_range,
        vec![("default/far".to_string(), "10.97.0.1".to_string())]
    );
    assert_eq!(v.owners[&19], vec!["default/one", "default/two"]);
    assert_eq!(
        v.describe(0, Lang::En),
        "10.96.0.1 · static band · allocated to default/kubernetes (the kubernetes Service)"
    );
    assert_eq!(v.describe(49, Lang::En), "10.96.0.50 · dynamic band · allocated to no service: a suspected leak, freed by the 2nd repair run from now");
    assert_eq!(v.label(253), "10.96.0.254");
    // The same cells in Chinese: the address and the object names stay as they are.
    assert_eq!(
        v.describe(0, Lang::Zh),
        "10.96.0.1 · 静态段 · 已分配给 default/kubernetes（即 kubernetes Service）"
    );
    assert_eq!(
        v.describe(49, Lang::Zh),
        "10.96.0.50 · 动态段 · 已分配但没有任何 Service 使用：疑似泄漏，将在从现在起的第 2 轮修复中释放"
    );
    assert_eq!(
        v.describe(19, Lang::Zh),
        "10.96.0.20 · 动态段 · 同时分配给了多个 Service：default/one, default/two"
    );
    assert_eq!(v.describe(2, Lang::Zh), "10.96.0.3 · 静态段 · 空闲");
    let p = node_port_bitmap(&w);
    assert_eq!((p.size, p.static_band), (2768, 86));
    assert_eq!(p.cells[7], Cell::Allocated as u8);
    assert_eq!(p.cells[9], Cell::Leaked as u8);
    assert_eq!(
        p.describe(7, Lang::En),
        "30007 · static band · allocated to default/one"
    );
}

#[test]
fn a_service_whose_bit_is_clear_is_unallocated_until_repair() {
    let w = world(
        json!({"services": [{"name": "lost", "cluster_ip": "10.96.0.30", "ports": [{"port": 80}]}]}),
        0,
    );
    // At 0 the first repair already set it again.
    assert_eq!(
        cluster_ip_bitmap(&w, 0).unwrap().cells[29],
        Cell::Allocated as u8
    );
    let mut w = world(
        json!({"services": [{"name": "lost", "cluster_ip": "10.96.0.30", "ports": [{"port": 80}]}]}),
        1_000,
    );
    w.act(
        &serde_json::from_value(
            json!({"do": "corrupt", "what": "unallocate_cluster_ip", "ip": "10.96.0.30"}),
        )
        .unwrap(),
    );
    let v = cluster_ip_bitmap(&w, 0).unwrap();
    assert_eq!(v.cells[29], Cell::Unallocated as u8);
    assert!(v
        .describe(29, Lang::En)
        .ends_with("used by default/lost but not allocated: repair will set it"));
    assert!(v
        .describe(29, Lang::Zh)
        .ends_with("default/lost 正在使用，但位图中未标记：修复循环会补上"));
    w.run_until(30_000);
    assert_eq!(
        cluster_ip_bitmap(&w, 0).unwrap().cells[29],
        Cell::Allocated as u8,
        "the 30 s repair run set it"
    );
}

#[test]
fn events_are_explained_in_plain_words() {
    let w = world(
        json!({"cluster_ip_allocation": {"range": "10.96.0.0/24", "allocated": ["10.96.0.50"]}}),
        60_000,
    );
    let lines: Vec<String> = w
        .events()
        .iter()
        .filter_map(|e| explain(e, Lang::En))
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Allocated in etcd but used by no Service: flagged now")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l
                == "The third repair run that saw this allocation without a Service frees it."),
        "{lines:?}"
    );
}
