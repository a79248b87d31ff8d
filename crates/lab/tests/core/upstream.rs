//! The upstream-source table: every object links to code at its behaviour's tag, files that
//! moved between releases link to where they were, and every note exists in both languages.
//! Nothing here reads the network: the table is data compiled into the lab.

use engine::contract::api::Behavior;
use engine::contract::event::{Event, EventKind};
use k8s::etcd::{Loop, WireOp, Write};
use lab::upstream::{simplification, sources, url, Subject};
use lab::Lang;

const BEHAVIORS: [(Behavior, &str); 4] = [
    (Behavior::V1_20, "v1.20.0"),
    (Behavior::V1_29, "v1.29.0"),
    (Behavior::V1_33, "v1.33.0"),
    (Behavior::V1_35, "v1.35.0"),
];

fn packet(key: &str, op: WireOp, via: Loop) -> Subject {
    Subject::Packet(Write {
        time_ms: 12_000,
        key: key.into(),
        op,
        sender: "apiserver-a".into(),
        via,
        reason: None,
    })
}

fn event(kind: EventKind, component: &str) -> Subject {
    Subject::Event(Event {
        time_ms: 45_000,
        apiserver: "apiserver-a".into(),
        component: component.into(),
        type_: "Warning".into(),
        reason: kind.reason().unwrap_or_default().into(),
        object: "Service default/web".into(),
        message: "m".into(),
        kind,
    })
}

/// A key of each family the lab names.
const KEY_FAMILIES: [&str; 15] = [
    "/masterleases/192.168.10.11",
    "/ranges/serviceips",
    "/ranges/secondaryserviceips",
    "/ranges/servicenodeports",
    "/services/specs/default/kubernetes",
    "/services/specs/default/web",
    "/services/endpoints/default/kubernetes",
    "/services/endpoints/default/web",
    "/endpointslices/default/kubernetes",
    "/servicecidrs/kubernetes",
    "/servicecidrs/extra",
    "/ipaddresses/10.96.0.1",
    "/namespaces/default",
    "/namespaces/kube-system",
    "/pods/default/web-1",
];

/// One subject of each kind, and every key family the lab names.
fn subjects() -> Vec<Subject> {
    let keys = KEY_FAMILIES;
    let mut all = vec![
        Subject::Apiserver("apiserver-a".into()),
        Subject::ClusterIp("10.96.0.1".into()),
        Subject::NodePort(30080),
        Subject::IpAddress("10.96.0.10".into()),
        packet("/masterleases/192.168.10.11", WireOp::Put, Loop::EndpointReconciler),
        packet("/masterleases/192.168.10.11", WireOp::Delete, Loop::EndpointReconciler),
        packet("/masterleases/192.168.10.11", WireOp::Expire, Loop::Ttl),
        packet("/services/endpoints/default/kubernetes", WireOp::Bounce, Loop::EndpointReconciler),
        packet("/ranges/serviceips", WireOp::Put, Loop::Repair),
        packet("/ranges/servicenodeports", WireOp::Put, Loop::Repair),
        packet("/ipaddresses/10.96.0.10", WireOp::Delete, Loop::Repair),
        packet("/services/specs/default/web", WireOp::Put, Loop::Request),
        packet("/services/specs/default/kubernetes", WireOp::Put, Loop::Bootstrap),
        packet("/services/endpoints/default/web", WireOp::Put, Loop::ControllerManager),
        packet("/servicecidrs/kubernetes", WireOp::Put, Loop::ControllerManager),
        packet("/ranges/serviceips", WireOp::Put, Loop::Lab),
        event(EventKind::ClusterIpNotAllocated, "ipallocator-repair-controller"),
        event(EventKind::LeakFlagged, "portallocator-repair-controller"),
        event(EventKind::RefusedToEraseEndpoints, "kube-apiserver"),
        event(EventKind::LeaseExpired { ip: "192.168.10.12".into() }, "bootstrap-sim"),
        event(EventKind::Other, "x"),
    ];
    all.extend(keys.iter().map(|k| Subject::Key(k.to_string())));
    all
}

fn paths(s: &Subject, b: Behavior) -> Vec<&'static str> {
    sources(s, b).iter().map(|l| l.path).collect()
}

#[test]
fn every_subject_links_to_code_at_its_behaviours_tag() {
    for s in subjects() {
        for (b, tag) in BEHAVIORS {
            let links = sources(&s, b);
            assert!(!links.is_empty(), "{s:?} under {b:?} links to nothing");
            for l in &links {
                let u = url(l, b);
                let prefix = format!("https://github.com/kubernetes/kubernetes/blob/{tag}/pkg/");
                assert!(u.starts_with(&prefix), "{u}");
                assert!(u.ends_with(".go") || u.contains(".go#L"), "{u}");
                assert!(
                    !l.symbol.is_empty() && !l.what.0.is_empty() && !l.what.1.is_empty(),
                    "{l:?}"
                );
            }
        }
    }
}

#[test]
fn files_that_moved_between_releases_link_to_where_they_were() {
    let apiserver = Subject::Apiserver("apiserver-a".into());
    // The bootstrap controller: controller.go in 1.20, its own package from 1.28.
    assert_eq!(paths(&apiserver, Behavior::V1_20)[0], "pkg/controlplane/controller.go");
    assert_eq!(
        paths(&apiserver, Behavior::V1_29)[0],
        "pkg/controlplane/controller/kubernetesservice/controller.go"
    );
    // master-count's file was renamed instancecount.go in 1.20, with the move to pkg/controlplane
    // (pkg/controlplane/reconcilers/mastercount.go never existed).
    assert!(paths(&apiserver, Behavior::V1_20)
        .contains(&"pkg/controlplane/reconcilers/instancecount.go"));
    assert!(!paths(&apiserver, Behavior::V1_20)
        .contains(&"pkg/controlplane/reconcilers/mastercount.go"));
    assert!(paths(&apiserver, Behavior::V1_35)
        .contains(&"pkg/controlplane/reconcilers/instancecount.go"));
    // A ClusterIP: a bit of the bitmap (allocator.go, then bitmap.go), an IPAddress object from 1.33.
    let ip = Subject::ClusterIp("10.96.0.1".into());
    assert_eq!(
        paths(&ip, Behavior::V1_20)[0],
        "pkg/registry/core/service/ipallocator/allocator.go"
    );
    assert_eq!(paths(&ip, Behavior::V1_29)[0], "pkg/registry/core/service/ipallocator/bitmap.go");
    assert!(paths(&ip, Behavior::V1_29)
        .contains(&"pkg/registry/core/service/ipallocator/controller/repair.go"));
    assert!(paths(&ip, Behavior::V1_35)
        .contains(&"pkg/registry/core/service/ipallocator/controller/repairip.go"));
    assert!(!paths(&ip, Behavior::V1_35)
        .contains(&"pkg/registry/core/service/ipallocator/controller/repair.go"));
    // The system namespaces.
    let ns = Subject::Key("/namespaces/kube-system".into());
    assert_eq!(paths(&ns, Behavior::V1_20), ["pkg/controlplane/controller.go"]);
    assert_eq!(
        paths(&ns, Behavior::V1_33),
        ["pkg/controlplane/controller/systemnamespaces/system_namespaces_controller.go"]
    );
}

#[test]
fn each_object_links_to_the_loop_that_writes_it() {
    let lease = Subject::Key("/masterleases/192.168.10.11".into());
    let l = &sources(&lease, Behavior::V1_29)[0];
    assert_eq!((l.path, l.symbol), ("pkg/controlplane/reconcilers/lease.go", "UpdateLease"));
    // A graceful stop's delete is RemoveEndpoints; an expiry is the TTL UpdateLease set.
    let stop = packet("/masterleases/192.168.10.11", WireOp::Delete, Loop::EndpointReconciler);
    assert_eq!(sources(&stop, Behavior::V1_20)[0].symbol, "RemoveEndpoints");
    let expiry = packet("/masterleases/192.168.10.11", WireOp::Expire, Loop::Ttl);
    assert_eq!(sources(&expiry, Behavior::V1_35)[0].symbol, "UpdateLease");
    // The kubernetes Endpoints are the reconciler's; any other Service's the endpoints controller's.
    let kubernetes = Subject::Key("/services/endpoints/default/kubernetes".into());
    assert_eq!(sources(&kubernetes, Behavior::V1_29)[0].symbol, "doReconcile");
    let web = Subject::Key("/services/endpoints/default/web".into());
    assert_eq!(paths(&web, Behavior::V1_29), ["pkg/controller/endpoint/endpoints_controller.go"]);
    // A repair event of the NodePort loop goes to the NodePort repair, by its component.
    let port_leak = event(EventKind::LeakFlagged, "portallocator-repair-controller");
    assert_eq!(
        paths(&port_leak, Behavior::V1_29),
        ["pkg/registry/core/service/portallocator/controller/repair.go"]
    );
    let ip_leak = event(EventKind::LeakFlagged, "ipallocator-repair-controller");
    assert_eq!(
        paths(&ip_leak, Behavior::V1_29),
        ["pkg/registry/core/service/ipallocator/controller/repair.go"]
    );
    // 1.33's dual-written bitmap: the MetaAllocator writes it, no repair loop reads it.
    let bitmap = Subject::Key("/ranges/serviceips".into());
    assert_eq!(
        paths(&bitmap, Behavior::V1_33),
        [
            "pkg/registry/core/service/ipallocator/cidrallocator.go",
            "pkg/registry/core/service/ipallocator/bitmap.go",
            "pkg/registry/core/service/allocator/storage/storage.go"
        ]
    );
    assert!(paths(&bitmap, Behavior::V1_29)
        .contains(&"pkg/registry/core/service/ipallocator/controller/repair.go"));
    // The default ServiceCIDR from 1.33; before, the lab has none and links to the bitmap.
    let cidr = Subject::Key("/servicecidrs/kubernetes".into());
    assert_eq!(
        paths(&cidr, Behavior::V1_35)[0],
        "pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go"
    );
    assert_eq!(paths(&cidr, Behavior::V1_29), ["pkg/registry/core/service/ipallocator/bitmap.go"]);
}

/// Factcheck 2026-11-27 N5: 1.33's MetaAllocator writes its bitmap copy with the bitmap Range's
/// `Allocate(ip)` (cidrallocator.go `AllocateService`/`AllocateNextService`), never its
/// `AllocateNext`; from 1.34 (`DisableAllocatorDualWrite` on, locked in 1.35) storage_core.go
/// builds no ClusterIP bitmap, so no bitmap code is linked for 1.35's ClusterIPs.
#[test]
fn the_bitmap_code_linked_for_clusterips_is_the_code_that_runs() {
    let range = Subject::Key("/ranges/serviceips".into());
    let ip_bitmap = "pkg/registry/core/service/ipallocator/bitmap.go";
    let dual = sources(&range, Behavior::V1_33);
    assert!(dual.iter().any(|l| l.path == ip_bitmap && l.symbol == "Allocate"), "{dual:?}");
    assert!(!dual.iter().any(|l| l.symbol == "AllocateNext"), "{dual:?}");
    let cluster_ip_subjects = [
        range.clone(),
        Subject::Key("/ranges/secondaryserviceips".into()),
        Subject::ClusterIp("10.96.0.1".into()),
        Subject::IpAddress("10.96.0.1".into()),
        Subject::Key("/ipaddresses/10.96.0.1".into()),
        packet("/ranges/serviceips", WireOp::Put, Loop::Request),
    ];
    for s in &cluster_ip_subjects {
        for l in sources(s, Behavior::V1_35) {
            assert!(
                !l.path.contains("allocator/bitmap.go") && !l.path.contains("allocator/storage/"),
                "{s:?} under 1.35 links {} {}: no ClusterIP bitmap runs there",
                l.path,
                l.symbol
            );
        }
    }
}

#[test]
fn no_line_anchor_is_given_that_was_not_checked_at_its_tag() {
    // The tags could not be read when the table was written (see docs/extensions.md): every link
    // points to its file without an anchor until scripts/check-upstream.sh has been run at the
    // tag and the range entered. A range, once entered, must be a real range.
    for s in subjects() {
        for (b, _) in BEHAVIORS {
            for l in sources(&s, b) {
                match l.lines {
                    None => assert!(!url(&l, b).contains('#')),
                    Some((a, z)) => {
                        assert!(0 < a && a <= z, "{l:?}");
                        assert!(url(&l, b).ends_with(&format!("#L{a}-L{z}")));
                    }
                }
            }
        }
    }
}

#[test]
fn every_note_of_what_the_lab_simplifies_exists_in_both_languages() {
    for s in subjects() {
        for (b, _) in BEHAVIORS {
            let en = simplification(&s, b, Lang::En);
            let zh = simplification(&s, b, Lang::Zh);
            assert!(en.len() > 20 && zh.len() > 20 && en != zh, "{s:?} {b:?}");
        }
    }
    // The lab's own write and line say so.
    let lab = packet("/ranges/serviceips", WireOp::Put, Loop::Lab);
    assert!(simplification(&lab, Behavior::V1_29, Lang::En).contains("lab's own"));
    let expired = event(EventKind::LeaseExpired { ip: "192.168.10.12".into() }, "bootstrap-sim");
    assert!(simplification(&expired, Behavior::V1_29, Lang::En).contains("not Kubernetes' output"));
    let ip = Subject::IpAddress("10.96.0.10".into());
    assert!(simplification(&ip, Behavior::V1_20, Lang::En).contains("no ServiceCIDR or IPAddress"));
}

/// Every event kind (the match makes a new kind a compile error here until it is listed).
fn every_event_kind() -> Vec<EventKind> {
    use EventKind as K;
    let all = vec![
        K::ClusterIpNotValid,
        K::ClusterIpNotAllocated,
        K::ClusterIpAlreadyAllocated,
        K::ClusterIpOutOfRange,
        K::ClusterIpWrongReference,
        K::IpAddressLeaked,
        K::IpAddressModified,
        K::IpAddressWrongReference,
        K::DefaultServiceCidrInconsistent,
        K::DefaultServiceCidrError,
        K::ServiceCidrLog,
        K::ServiceCidrFull,
        K::PortNotAllocated,
        K::PortAlreadyAllocated,
        K::PortOutOfRange,
        K::PortRangeFull,
        K::RepairUnknownError,
        K::RepairDetail,
        K::LeakFlagged,
        K::LeakCleanedUp,
        K::LeakNotAllocatable,
        K::RepairFailed,
        K::ReleaseFailed,
        K::StartupWarning,
        K::InitialCheckFailed,
        K::StaleEndpointRemoved,
        K::RemoveEndpointsFailed,
        K::RemoveEndpointsTimedOut,
        K::NamespaceCreateFailed,
        K::ReconcilerShutdown,
        K::EndpointsReset { addresses: vec!["192.168.10.11".into()] },
        K::RefusedToEraseEndpoints,
        K::SyncFailed,
        K::LeaseExpired { ip: "192.168.10.12".into() },
        K::ActionFailed,
        K::ClientConnected { client: "ctrl-a".into(), ip: "192.168.10.11".into() },
        K::ClientDialing { client: "ctrl-a".into(), ip: "192.168.10.99".into() },
        K::ClientFailed {
            client: "ctrl-a".into(),
            ip: Some("192.168.10.12".into()),
            failure: k8s::client::Failure::Refused,
        },
        K::ClientClosed { client: "job-a".into(), ip: "192.168.10.12".into() },
        K::ClientRetrying {
            client: "job-a".into(),
            ip: "192.168.10.12".into(),
            failure: k8s::client::Failure::Reset,
        },
        K::Other,
    ];
    for k in &all {
        match k {
            K::ClusterIpNotValid
            | K::ClusterIpNotAllocated
            | K::ClusterIpAlreadyAllocated
            | K::ClusterIpOutOfRange
            | K::ClusterIpWrongReference
            | K::IpAddressLeaked
            | K::IpAddressModified
            | K::IpAddressWrongReference
            | K::DefaultServiceCidrInconsistent
            | K::DefaultServiceCidrError
            | K::ServiceCidrLog
            | K::ServiceCidrFull
            | K::PortNotAllocated
            | K::PortAlreadyAllocated
            | K::PortOutOfRange
            | K::PortRangeFull
            | K::RepairUnknownError
            | K::RepairDetail
            | K::LeakFlagged
            | K::LeakCleanedUp
            | K::LeakNotAllocatable
            | K::RepairFailed
            | K::ReleaseFailed
            | K::StartupWarning
            | K::InitialCheckFailed
            | K::StaleEndpointRemoved
            | K::RemoveEndpointsFailed
            | K::RemoveEndpointsTimedOut
            | K::NamespaceCreateFailed
            | K::ReconcilerShutdown
            | K::EndpointsReset { .. }
            | K::RefusedToEraseEndpoints
            | K::SyncFailed
            | K::LeaseExpired { .. }
            | K::ActionFailed
            | K::ClientConnected { .. }
            | K::ClientDialing { .. }
            | K::ClientFailed { .. }
            | K::ClientClosed { .. }
            | K::ClientRetrying { .. }
            | K::Other => {}
        }
    }
    all
}

/// Every subject the inspector can be shown: apiservers, cells, every key family, every write
/// (each key × loop × operation) and every event kind under every component that records one.
fn every_subject() -> Vec<Subject> {
    let extra = ["/endpointslices/default/kubernetes-extra", "/something/else"];
    let keys: Vec<&str> = KEY_FAMILIES.iter().copied().chain(extra).collect();
    let loops = [
        Loop::EndpointReconciler,
        Loop::Repair,
        Loop::Request,
        Loop::Bootstrap,
        Loop::ControllerManager,
        Loop::Ttl,
        Loop::Lab,
    ];
    let ops = [WireOp::Put, WireOp::Delete, WireOp::Expire, WireOp::Bounce];
    let components = [
        "ipallocator-repair-controller",
        "portallocator-repair-controller",
        "kube-apiserver",
        "kube-controller-manager",
        "bootstrap-sim",
        "x",
    ];
    let mut all = subjects();
    all.extend([
        Subject::Apiserver("apiserver-b".into()),
        Subject::ClusterIp("fd00::1".into()),
        Subject::IpAddress("10.96.0.1".into()),
    ]);
    for k in keys {
        all.push(Subject::Key(k.into()));
        for via in loops {
            for op in ops {
                all.push(packet(k, op, via));
            }
        }
    }
    for kind in every_event_kind() {
        for c in components {
            all.push(event(kind.clone(), c));
        }
    }
    all
}

#[test]
fn every_link_the_inspector_shows_is_on_the_verified_list() {
    const LIST: &str = include_str!("../../src/upstream/verified.md");
    // Rows `| `path` | `function` | tags | how |`.
    let rows: Vec<(String, String, Vec<String>, String)> = LIST
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 4, "{l}");
            (
                cells[0].trim_matches('`').to_string(),
                cells[1].trim_matches('`').to_string(),
                cells[2].split_whitespace().map(str::to_string).collect(),
                cells[3].to_string(),
            )
        })
        .collect();
    assert!(!rows.is_empty());
    for (p, f, tags, how) in &rows {
        assert!(!how.is_empty(), "{p} {f}: say how it was checked");
        assert!(!tags.is_empty(), "{p} {f}: no tag");
    }
    let mut reached = std::collections::BTreeSet::new();
    for s in every_subject() {
        for (b, tag) in BEHAVIORS {
            for l in sources(&s, b) {
                let row = rows
                    .iter()
                    .position(|(p, f, tags, _)| {
                        p == l.path && f == l.symbol && tags.iter().any(|t| t == tag)
                    })
                    .unwrap_or_else(|| {
                        panic!(
                            "{s:?} under {b:?} links {} {} at {tag}, which crates/lab/src/upstream/verified.md does not list",
                            l.path, l.symbol
                        )
                    });
                reached.insert((row, tag));
            }
        }
    }
    // No stale row: every listed (path, function, tag) is one the inspector shows.
    for (i, (p, f, tags, _)) in rows.iter().enumerate() {
        for t in tags {
            assert!(
                reached.contains(&(i, t.as_str())),
                "crates/lab/src/upstream/verified.md lists {p} {f} at {t}, which no subject reaches"
            );
        }
    }
}

/// Factcheck 2026-11-27 N1/N2: the `Get()`/`Sync()` endpoints adapter is the branch of PR
/// #117704, closed unmerged; no release carries it (1.33 and 1.35.8 still log lease.go's
/// `Resetting endpoints` line). A paragraph that names it must say so.
#[test]
fn the_unmerged_get_sync_adapter_is_never_called_upstream() {
    let texts = [
        ("README.md", include_str!("../../../../README.md")),
        ("ARCHITECTURE.md", include_str!("../../../../ARCHITECTURE.md")),
        ("CONTRIBUTING.md", include_str!("../../../../CONTRIBUTING.md")),
        ("docs/app.md", include_str!("../../../../docs/app.md")),
        ("docs/cli.md", include_str!("../../../../docs/cli.md")),
        ("docs/embedding.md", include_str!("../../../../docs/embedding.md")),
        ("docs/extensions.md", include_str!("../../../../docs/extensions.md")),
        ("docs/model.md", include_str!("../../../../docs/model.md")),
        ("docs/serving.md", include_str!("../../../../docs/serving.md")),
        ("docs/tour.md", include_str!("../../../../docs/tour.md")),
        ("crates/lab/src/upstream/verified.md", include_str!("../../src/upstream/verified.md")),
    ];
    for (file, text) in texts {
        for para in text.split("\n\n").flat_map(|p| p.split("\n| ")) {
            if para.contains("Sync()") {
                assert!(
                    para.contains("#117704") && para.contains("unmerged"),
                    "{file}: names the Get()/Sync() adapter without saying it is the unmerged PR #117704:\n{para}"
                );
                assert!(!para.contains("newer upstream"), "{file}:\n{para}");
            }
        }
    }
}
