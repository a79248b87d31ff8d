//! The read-only views the UI paints: bitmap cells with their owners, and plain-word events.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use engine::contract::scenario;
use engine::sim::world::World;
use lab::explain::explain;
use lab::inspect::{cluster_ip_bitmap, node_port_bitmap, BitmapRange, BitmapView, Cell};
use lab::Lang;

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
        (v.range.to_string().as_str(), v.size(), v.static_band()),
        ("10.96.0.0/24", 254, 16)
    );
    assert_eq!(v.range, "10.96.0.0/24".parse::<BitmapRange>().unwrap());
    assert_eq!(v.cell(0).unwrap(), Cell::Kubernetes, "10.96.0.1");
    assert_eq!(v.cell(19).unwrap(), Cell::Duplicate, "10.96.0.20 held by two services");
    assert_eq!(v.cell(49).unwrap(), Cell::Leaked, "10.96.0.50: no service");
    assert_eq!(v.leak_countdown(49), Some(1), "flagged by the first repair run");
    assert_eq!(v.leak_countdown(2), None);
    assert_eq!(v.cell(2).unwrap(), Cell::Free);
    assert_eq!(v.cell(254), None, "past the range");
    assert_eq!(v.out_of_range(), [("default/far".to_string(), "10.97.0.1".to_string())]);
    assert_eq!(v.owners(19), ["default/one", "default/two"]);
    assert!(v.owners(2).is_empty());
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
    assert_eq!((p.size(), p.static_band()), (2768, 86));
    assert_eq!(p.range.to_string(), "30000-32767");
    assert_eq!(p.cell(7).unwrap(), Cell::Allocated);
    assert_eq!(p.cell(9).unwrap(), Cell::Leaked);
    assert_eq!(p.label(2767), "32767");
    assert_eq!(p.describe(7, Lang::En), "30007 · static band · allocated to default/one");
}

#[test]
fn a_service_whose_bit_is_clear_is_unallocated_until_repair() {
    let w = world(
        json!({"services": [{"name": "lost", "cluster_ip": "10.96.0.30", "ports": [{"port": 80}]}]}),
        0,
    );
    // At 0 the first repair already set it again.
    assert_eq!(cluster_ip_bitmap(&w, 0).unwrap().cell(29).unwrap(), Cell::Allocated);
    let mut w = world(
        json!({"services": [{"name": "lost", "cluster_ip": "10.96.0.30", "ports": [{"port": 80}]}]}),
        1_000,
    );
    w.act(
        &serde_json::from_value(
            json!({"do": "corrupt", "what": "unallocate_cluster_ip", "ip": "10.96.0.30"}),
        )
        .unwrap(),
    )
    .expect("the bitmap is written behind the allocators' back");
    let v = cluster_ip_bitmap(&w, 0).unwrap();
    assert_eq!(v.cell(29).unwrap(), Cell::Unallocated);
    assert!(v
        .describe(29, Lang::En)
        .ends_with("used by default/lost but not allocated: repair will set it"));
    assert!(v
        .describe(29, Lang::Zh)
        .ends_with("default/lost 正在使用，但位图中未标记：修复循环会补上"));
    w.run_until(30_000);
    assert_eq!(
        cluster_ip_bitmap(&w, 0).unwrap().cell(29).unwrap(),
        Cell::Allocated,
        "the 30 s repair run set it"
    );
}

#[test]
fn events_are_explained_in_plain_words() {
    let w = world(
        json!({"cluster_ip_allocation": {"range": "10.96.0.0/24", "allocated": ["10.96.0.50"]}}),
        60_000,
    );
    let lines: Vec<String> = w.events().iter().filter_map(|e| explain(e, Lang::En)).collect();
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

#[test]
fn a_range_names_its_offsets_by_arithmetic() {
    // Masked as ParseCIDRSloppy masks; offset 0 is the network's base + 1.
    let v4: BitmapRange = "10.96.0.5/12".parse().unwrap();
    assert_eq!(v4.to_string(), "10.96.0.0/12");
    assert_eq!(v4.size(), 1_048_574);
    assert_eq!(v4.label(0), "10.96.0.1");
    assert_eq!(v4.label(1_048_573), "10.111.255.254", "the broadcast is not a cell");
    // IPv6 ranges are capped at 65,536 addresses, the network's among them.
    let v6: BitmapRange = "fd00:10:96::/108".parse().unwrap();
    assert_eq!(v6.size(), 65_535);
    assert_eq!(
        (v6.label(0), v6.label(65_534)),
        ("fd00:10:96::1".into(), "fd00:10:96::ffff".into())
    );
    let ports: BitmapRange = "30000-32767".parse().unwrap();
    assert_eq!(
        (ports.size(), ports.label(0), ports.label(2_767)),
        (2_768, "30000".into(), "32767".into())
    );
    assert!("10.96.0.0/33".parse::<BitmapRange>().is_err());
}

#[test]
fn a_view_built_by_hand_describes_its_cells() {
    let mut v = BitmapView::new("10.96.0.0/12".parse().unwrap(), 256);
    assert_eq!((v.size(), v.marked().count()), (1_048_574, 0));
    v.set(5, Cell::Allocated, &["default/web"]);
    v.set(1_048_574, Cell::Allocated, &["default/past"]);
    assert_eq!(v.describe(5, Lang::En), "10.96.0.6 · static band · allocated to default/web");
    assert_eq!(v.describe(1_048_573, Lang::En), "10.111.255.254 · dynamic band · free");
    assert!(v.owners(1_048_574).is_empty(), "past the range: ignored");
    v.set(5, Cell::Free, &[]);
    assert!(v.owners(5).is_empty());
    v.flag_out_of_range("default/far", "10.97.0.1");
    assert_eq!(v.out_of_range(), [("default/far".to_string(), "10.97.0.1".to_string())]);
    assert_eq!(Cell::ALL.map(Cell::index), [0, 1, 2, 3, 4, 5, 6]);
}

#[test]
fn a_view_stores_only_what_is_not_free() {
    let mut v = BitmapView::new("10.96.0.0/12".parse().unwrap(), 256);
    v.set(5, Cell::Allocated, &["default/web"]);
    v.set(70_000, Cell::Leaked, &[]);
    assert_eq!(v.marked().collect::<Vec<_>>(), [(5, Cell::Allocated), (70_000, Cell::Leaked)]);
    assert_eq!(v.window(4, 3), [Cell::Free, Cell::Allocated, Cell::Free]);
    assert_eq!(v.window(1_048_570, 8).len(), 8, "free past the end");
    let n = v.counts();
    assert_eq!(
        (n[Cell::Free.index()], n[Cell::Allocated.index()], n[Cell::Leaked.index()]),
        (1_048_572, 1, 1)
    );
    let before = v.clone();
    v.set(5, Cell::Free, &[]);
    v.set(9, Cell::Duplicate, &["default/a", "default/b"]);
    v.set(70_000, Cell::Allocated, &["default/c"]);
    assert_eq!(v.changed(&before), [5, 9, 70_000]);
    assert_eq!(before.changed(&v), [5, 9, 70_000]);
    assert!(v.changed(&v).is_empty());
}

fn world_of(behavior: &str, initial: serde_json::Value) -> World {
    let s = scenario::parse(
        &json!({"behavior": behavior, "cluster": {"service_cluster_ip_range": "10.96.0.0/24",
        "apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]}, "initial": initial})
        .to_string(),
    )
    .unwrap();
    World::new(&s)
}

#[test]
fn from_1_33_the_ip_addresses_are_drawn_over_each_service_cidr() {
    use lab::inspect::{ip_address_map, ViewKind};
    let initial = json!({
        "service_cidrs": [{"name": "kubernetes", "cidrs": ["10.96.0.0/24"]}, {"name": "extra", "cidrs": ["10.100.0.0/28"]}],
        "ip_addresses": [{"ip": "10.96.0.50", "parent": {"namespace": "default", "name": "gone"}, "age": "10s"}]});
    let w = world_of("1.35", initial.clone());
    assert!(cluster_ip_bitmap(&w, 0).is_none(), "1.35 writes no ClusterIP bitmap");
    let m = ip_address_map(&w);
    let names: Vec<&str> = m.cidrs.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["extra", "kubernetes"]);
    let extra = &m.cidrs[0];
    assert_eq!((extra.view.size(), extra.view.static_band()), (14, 0), "a /28: no band");
    assert_eq!((extra.first.as_str(), extra.last.as_str()), ("10.100.0.1", "10.100.0.14"));
    let v = &m.cidrs[1].view;
    assert_eq!((v.kind(), v.size(), v.static_band()), (ViewKind::IpAddresses, 254, 16));
    assert_eq!(v.cell(49), Some(Cell::Leaked), "an orphan: its Service does not exist");
    assert_eq!(v.deletable_at(49), Some(50_000), "created 10 s before 0, 60 s of grace");
    assert_eq!(v.parent(49).as_deref(), Some("services/default/gone"));
    // Under 1.33 the bitmap is still written beside them, and nothing repairs it.
    let w = world_of("1.33", initial);
    let b = cluster_ip_bitmap(&w, 0).unwrap();
    assert_eq!(b.kind(), ViewKind::DualWrite);
    // Before 1.33 there are no such objects, and the bitmap is repaired.
    let w = world_of("1.29", json!({}));
    assert!(ip_address_map(&w).cidrs.is_empty());
    assert_eq!(cluster_ip_bitmap(&w, 0).unwrap().kind(), ViewKind::Bitmap);
}
