//! The event feed's plain words in both languages: every explanation has a Chinese version, and
//! Kubernetes' own texts (messages, reasons, flags, object names) stay verbatim in it.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::json;

use engine::contract::event::{Event, EventKind};
use engine::contract::scenario;
use engine::sim::world::World;
use lab::explain::explain;
use lab::Lang;

fn event(apiserver: &str, kind: EventKind, object: &str, message: &str) -> Event {
    let e = match kind.reason() {
        Some(_) => Event::warning(0, apiserver, "test", kind, object, message.into()),
        None => Event::log(0, apiserver, "test", kind, message.into()),
    };
    assert_eq!(e.object, if e.type_ == "Log" { "" } else { object });
    e
}

/// One event of each kind that `explain` has words for.
fn every_kind() -> Vec<Event> {
    let mut v: Vec<Event> = [
        EventKind::ClusterIpNotAllocated,
        EventKind::ClusterIpAlreadyAllocated,
        EventKind::ClusterIpOutOfRange,
        EventKind::ClusterIpNotValid,
        EventKind::PortNotAllocated,
        EventKind::PortAlreadyAllocated,
        EventKind::PortOutOfRange,
        EventKind::ActionFailed,
    ]
    .into_iter()
    .map(|k| event("apiserver-a", k, "default/web", "m"))
    .collect();
    for k in [
        EventKind::EndpointsReset { addresses: vec!["192.168.10.11".into()] },
        EventKind::LeaseExpired { ip: "192.168.10.12".into() },
        EventKind::LeakFlagged,
        EventKind::LeakCleanedUp,
        EventKind::LeakNotAllocatable,
        EventKind::StaleEndpointRemoved,
        EventKind::RemoveEndpointsFailed,
        EventKind::ReconcilerShutdown,
        EventKind::SyncFailed,
        EventKind::RefusedToEraseEndpoints,
        EventKind::InitialCheckFailed,
        EventKind::RemoveEndpointsTimedOut,
    ] {
        v.push(event("apiserver-b", k, "", "m"));
    }
    v
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn every_explanation_has_a_chinese_version() {
    for e in every_kind() {
        let en = explain(&e, Lang::En).unwrap_or_else(|| panic!("no English for {e:?}"));
        let zh = explain(&e, Lang::Zh).unwrap_or_else(|| panic!("no Chinese for {e:?}"));
        assert!(!has_han(&en), "English stays English: {en}");
        assert!(has_han(&zh), "Chinese text for {:?}: {zh}", e.message);
        assert_ne!(en, zh);
    }
    // Nothing to add in either language for events that explain themselves.
    let plain = event("apiserver-a", EventKind::StartupWarning, "", "a warning");
    assert_eq!(explain(&plain, Lang::En), None);
    assert_eq!(explain(&plain, Lang::Zh), None);
}

#[test]
fn chinese_keeps_names_flags_and_kubernetes_terms_verbatim() {
    let zh = |kind: EventKind| {
        explain(&event("apiserver-a", kind, "default/web", ""), Lang::Zh).unwrap()
    };
    assert_eq!(
        zh(EventKind::ClusterIpNotAllocated),
        "apiserver-a 的修复循环发现 default/web 的 ClusterIP 在 etcd 中没有被分配（1.32 及以前是位图中的一位，1.33 起是一个 IPAddress 对象），于是重新把它分配。"
    );
    assert!(zh(EventKind::ClusterIpOutOfRange).contains("--service-cluster-ip-range"));
    assert!(zh(EventKind::PortOutOfRange).contains("--service-node-port-range"));
    assert!(zh(EventKind::PortNotAllocated).contains("NodePort"));
    assert_eq!(
        zh(EventKind::LeaseExpired {
            ip: "192.168.10.12".into()
        }),
        "这是实验自己的注记：etcd 删除了租约 192.168.10.12，因为在 TTL 内没有人续约，这个 apiserver 因此被视为已经下线。etcd 自己不会为此打印日志。"
    );
    assert!(zh(EventKind::EndpointsReset { addresses: vec![] })
        .starts_with("apiserver-a 重写了 kubernetes 的 Endpoints"));
    // Without an apiserver, "the cluster" is translated too.
    let e = event("", EventKind::ClusterIpNotAllocated, "default/web", "");
    assert!(explain(&e, Lang::En).unwrap().starts_with("The cluster's repair loop"));
    assert!(explain(&e, Lang::Zh).unwrap().starts_with("集群的修复循环"));
}

#[test]
fn a_leak_in_a_running_world_is_explained_in_chinese() {
    let s = scenario::parse(
        &json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/24", "repair_interval": "30s",
            "apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]},
            "initial": {"cluster_ip_allocation": {"range": "10.96.0.0/24", "allocated": ["10.96.0.50"]}}})
        .to_string(),
    )
    .unwrap();
    let mut w = World::new(&s);
    w.run_until(60_000);
    let lines: Vec<String> = w.events().iter().filter_map(|e| explain(e, Lang::Zh)).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("在 etcd 中已分配，却没有任何 Service 在用")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "连续第三轮修复仍然发现这个分配没有对应的 Service，于是将它释放。"),
        "{lines:?}"
    );
    // The events themselves are Kubernetes' own, whatever the language.
    assert!(w
        .events()
        .iter()
        .any(|e| e.message.contains("may have leaked: flagging for later clean up")));
}
