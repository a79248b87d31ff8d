#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use engine::contract::api::{
    EndpointPort, EndpointSubset, Endpoints, IntOrString, IpFamily, Pod, PodPhase, Protocol,
    Service, ServicePort, ServiceType,
};
use k8s::endpoints::{endpoints_for_service, repack_subsets, should_pod_be_in_endpoints};

const HEADLESS: &str = "service.kubernetes.io/headless";

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn port(name: &str, port: i32) -> EndpointPort {
    EndpointPort { name: name.into(), port, protocol: Protocol::TCP }
}

fn subset(ready: &[&str], not_ready: &[&str], ports: &[&EndpointPort]) -> EndpointSubset {
    let ports = ports.iter().map(|&p| p.clone()).collect();
    EndpointSubset { addresses: strs(ready), not_ready_addresses: strs(not_ready), ports }
}

fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

fn pod(name: &str, ip: &str, app: &str) -> Pod {
    Pod {
        namespace: "default".into(),
        name: name.into(),
        labels: labels(&[("app", app)]),
        pod_ip: ip.into(),
        ready: true,
        phase: PodPhase::Running,
        ..Pod::default()
    }
}

fn sport(name: &str, port: i32, target: Option<IntOrString>) -> ServicePort {
    ServicePort { name: name.into(), port, target_port: target, ..ServicePort::default() }
}

fn svc(app: &str, ports: Vec<ServicePort>) -> Service {
    Service {
        namespace: "default".into(),
        name: "web".into(),
        cluster_ip: "10.96.0.10".into(),
        selector: Some(labels(&[("app", app)])),
        ports,
        ..Service::default()
    }
}

fn eps(svc: &Service, pods: &[Pod]) -> Endpoints {
    endpoints_for_service(svc, pods).expect("the controller manages this service")
}

// ---- RepackSubsets ----

#[test]
fn repack_empty_input_is_empty() {
    assert!(repack_subsets(&[]).is_empty());
}

#[test]
fn repack_merges_duplicate_addresses_and_ports() {
    let p = port("http", 80);
    let got = repack_subsets(&[
        subset(&["10.0.0.1"], &[], &[&p]),
        subset(&["10.0.0.1"], &[], &[&p]),
        subset(&["10.0.0.2", "10.0.0.1"], &[], &[&p]),
    ]);
    assert_eq!(got, vec![subset(&["10.0.0.1", "10.0.0.2"], &[], &[&p])]);
}

#[test]
fn repack_not_ready_trumps_ready_in_either_order() {
    let p = port("", 80);
    let ready_first =
        repack_subsets(&[subset(&["10.0.0.1"], &[], &[&p]), subset(&[], &["10.0.0.1"], &[&p])]);
    let not_ready_first =
        repack_subsets(&[subset(&[], &["10.0.0.1"], &[&p]), subset(&["10.0.0.1"], &[], &[&p])]);
    let same_subset = repack_subsets(&[subset(&["10.0.0.1"], &["10.0.0.1"], &[&p])]);
    let want = vec![subset(&[], &["10.0.0.1"], &[&p])];
    assert_eq!(ready_first, want);
    assert_eq!(not_ready_first, want);
    assert_eq!(same_subset, want);
}

#[test]
fn repack_readiness_is_per_port() {
    // Not ready on port 81 only: ready on 80, so the two ports' address sets differ.
    let (p80, p81) = (port("a", 80), port("b", 81));
    let got = repack_subsets(&[
        subset(&["10.0.0.1"], &[], &[&p80, &p81]),
        subset(&[], &["10.0.0.1"], &[&p81]),
    ]);
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[&p80]), subset(&[], &["10.0.0.1"], &[&p81])]);
}

#[test]
fn repack_sorts_addresses_by_string_bytes() {
    let p = port("", 80);
    let got = repack_subsets(&[subset(
        &["10.0.0.9", "10.0.0.10", "10.0.0.100", "9.0.0.1"],
        &["10.0.1.9", "10.0.1.10"],
        &[&p],
    )]);
    assert_eq!(
        got,
        vec![subset(
            &["10.0.0.10", "10.0.0.100", "10.0.0.9", "9.0.0.1"],
            &["10.0.1.10", "10.0.1.9"],
            &[&p]
        )]
    );
}

#[test]
fn repack_groups_ports_with_identical_addresses() {
    let (a, b, c) = (port("a", 80), port("b", 443), port("c", 8080));
    let got = repack_subsets(&[
        subset(&["10.0.0.1"], &[], &[&b]),
        subset(&["10.0.0.2"], &[], &[&c]),
        subset(&["10.0.0.1"], &[], &[&a]),
    ]);
    // a and b share {10.0.0.1 ready}; c has another address set.
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[&a, &b]), subset(&["10.0.0.2"], &[], &[&c])]);
}

#[test]
fn repack_distinguishes_ports_by_protocol_and_sorts_them() {
    let tcp = port("dns", 53);
    let udp = EndpointPort { protocol: Protocol::UDP, ..tcp.clone() };
    let other = port("api", 6443);
    let got = repack_subsets(&[subset(&["10.0.0.1"], &[], &[&udp, &other, &tcp])]);
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[&other, &tcp, &udp])]);
}

#[test]
fn repack_same_addresses_with_different_readiness_are_different_groups() {
    let (a, b) = (port("a", 80), port("b", 81));
    let got =
        repack_subsets(&[subset(&["10.0.0.1"], &[], &[&a]), subset(&[], &["10.0.0.1"], &[&b])]);
    assert_eq!(got.len(), 2);
    assert!(got.contains(&subset(&["10.0.0.1"], &[], &[&a])));
    assert!(got.contains(&subset(&[], &["10.0.0.1"], &[&b])));
}

#[test]
fn repack_drops_subsets_without_addresses() {
    let got = repack_subsets(&[
        subset(&[], &[], &[&port("a", 80)]),
        subset(&["10.0.0.1"], &[], &[&port("b", 81)]),
    ]);
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[&port("b", 81)])]);
    assert!(
        repack_subsets(&[subset(&[], &[], &[&port("a", 80)]), subset(&[], &[], &[])]).is_empty()
    );
}

#[test]
fn repack_keeps_subsets_without_ports() {
    let got = repack_subsets(&[
        subset(&["10.0.0.2"], &[], &[]),
        subset(&["10.0.0.1"], &["10.0.0.3"], &[]),
    ]);
    assert_eq!(got, vec![subset(&["10.0.0.1", "10.0.0.2"], &["10.0.0.3"], &[])]);
}

#[test]
fn repack_port_less_and_ported_subsets_stay_apart_when_addresses_differ() {
    let p = port("", 80);
    let got = repack_subsets(&[subset(&["10.0.0.1"], &[], &[]), subset(&["10.0.0.2"], &[], &[&p])]);
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[]), subset(&["10.0.0.2"], &[], &[&p])]);
}

#[test]
fn repack_port_less_addresses_already_covered_by_a_port_add_no_subset() {
    // Upstream: the sentinel port is dropped when a real port has the same address set.
    let p = port("", 80);
    let got = repack_subsets(&[subset(&["10.0.0.1"], &[], &[]), subset(&["10.0.0.1"], &[], &[&p])]);
    assert_eq!(got, vec![subset(&["10.0.0.1"], &[], &[&p])]);
}

#[test]
fn repack_is_idempotent_and_order_independent() {
    let input = vec![
        subset(&["10.0.0.3", "10.0.0.1"], &["10.0.0.2"], &[&port("b", 81), &port("a", 80)]),
        subset(&["10.0.0.4"], &[], &[&port("c", 82)]),
        subset(&["10.0.0.1"], &[], &[]),
        subset(&[], &["10.0.0.1"], &[&port("c", 82)]),
    ];
    let once = repack_subsets(&input);
    assert_eq!(repack_subsets(&once), once);
    let mut reversed = input.clone();
    reversed.reverse();
    assert_eq!(repack_subsets(&reversed), once);
}

// ---- ShouldPodBeInEndpoints ----

#[test]
fn running_pod_with_ip_is_in_endpoints() {
    let p = pod("a", "10.1.0.1", "web");
    assert!(should_pod_be_in_endpoints(&p, false));
    assert!(should_pod_be_in_endpoints(&p, true));
    // Readiness is not this function's business.
    assert!(should_pod_be_in_endpoints(&Pod { ready: false, ..p.clone() }, false));
    assert!(should_pod_be_in_endpoints(&Pod { phase: PodPhase::Pending, ..p }, false));
}

#[test]
fn terminal_pods_are_never_in_endpoints() {
    for phase in [PodPhase::Succeeded, PodPhase::Failed] {
        let p = Pod { phase, ..pod("a", "10.1.0.1", "web") };
        assert!(!should_pod_be_in_endpoints(&p, false), "{phase:?}");
        assert!(!should_pod_be_in_endpoints(&p, true), "{phase:?}");
    }
}

#[test]
fn pods_without_ip_are_not_in_endpoints() {
    let p = pod("a", "", "web");
    assert!(!should_pod_be_in_endpoints(&p, false));
    assert!(!should_pod_be_in_endpoints(&p, true));
    // podIPs alone is enough.
    let p = Pod { pod_ips: strs(&["10.1.0.1"]), ..p };
    assert!(should_pod_be_in_endpoints(&p, false));
}

#[test]
fn terminating_pods_only_when_included() {
    let p = Pod { terminating: true, ..pod("a", "10.1.0.1", "web") };
    assert!(!should_pod_be_in_endpoints(&p, false));
    assert!(should_pod_be_in_endpoints(&p, true));
}

// ---- endpoints_for_service ----

#[test]
fn selected_ready_pods_become_addresses() {
    let s = svc("web", vec![sport("http", 80, Some(IntOrString::Int(8080)))]);
    let pods = vec![pod("b", "10.1.0.2", "web"), pod("a", "10.1.0.1", "web")];
    let e = eps(&s, &pods);
    assert_eq!((e.namespace.as_str(), e.name.as_str()), ("default", "web"));
    assert_eq!(e.subsets, vec![subset(&["10.1.0.1", "10.1.0.2"], &[], &[&port("http", 8080)])]);
}

#[test]
fn selector_mismatch_and_other_namespace_are_ignored() {
    let s = svc("web", vec![sport("", 80, None)]);
    let pods = vec![
        pod("match", "10.1.0.1", "web"),
        pod("other-app", "10.1.0.2", "db"),
        Pod { namespace: "kube-system".into(), ..pod("other-ns", "10.1.0.3", "web") },
        Pod { labels: BTreeMap::new(), ..pod("unlabelled", "10.1.0.4", "web") },
    ];
    assert_eq!(eps(&s, &pods).subsets, vec![subset(&["10.1.0.1"], &[], &[&port("", 80)])]);
}

#[test]
fn every_selector_pair_must_match() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.selector = Some(labels(&[("app", "web"), ("tier", "front")]));
    let both = Pod {
        labels: labels(&[("app", "web"), ("tier", "front"), ("extra", "x")]),
        ..pod("both", "10.1.0.1", "")
    };
    let one = pod("one", "10.1.0.2", "web");
    assert_eq!(eps(&s, &[both, one]).subsets, vec![subset(&["10.1.0.1"], &[], &[&port("", 80)])]);
}

#[test]
fn empty_selector_selects_every_pod_in_the_namespace() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.selector = Some(BTreeMap::new());
    let pods = vec![
        pod("a", "10.1.0.1", "web"),
        Pod { labels: BTreeMap::new(), ..pod("b", "10.1.0.2", "") },
        Pod { namespace: "other".into(), ..pod("c", "10.1.0.3", "web") },
    ];
    assert_eq!(
        eps(&s, &pods).subsets,
        vec![subset(&["10.1.0.1", "10.1.0.2"], &[], &[&port("", 80)])]
    );
}

#[test]
fn no_selector_is_left_alone() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.selector = None;
    assert_eq!(endpoints_for_service(&s, &[pod("a", "10.1.0.1", "web")]), None);
}

#[test]
fn external_name_is_left_alone() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.type_ = ServiceType::ExternalName;
    s.cluster_ip = String::new();
    assert_eq!(endpoints_for_service(&s, &[pod("a", "10.1.0.1", "web")]), None);
}

#[test]
fn no_matching_pods_gives_empty_endpoints() {
    let s = svc("web", vec![sport("", 80, None)]);
    let e = eps(&s, &[pod("a", "10.1.0.1", "db")]);
    assert!(e.subsets.is_empty());
    assert!(e.labels.is_empty());
}

#[test]
fn not_ready_pods_become_not_ready_addresses() {
    let s = svc("web", vec![sport("", 80, None)]);
    let pods =
        vec![pod("a", "10.1.0.1", "web"), Pod { ready: false, ..pod("b", "10.1.0.2", "web") }];
    assert_eq!(
        eps(&s, &pods).subsets,
        vec![subset(&["10.1.0.1"], &["10.1.0.2"], &[&port("", 80)])]
    );
}

#[test]
fn excluded_pods_are_skipped() {
    let s = svc("web", vec![sport("", 80, None)]);
    let pods = vec![
        pod("ok", "10.1.0.1", "web"),
        Pod { phase: PodPhase::Succeeded, ..pod("done", "10.1.0.2", "web") },
        Pod { phase: PodPhase::Failed, ..pod("failed", "10.1.0.3", "web") },
        pod("no-ip", "", "web"),
        Pod { terminating: true, ..pod("terminating", "10.1.0.4", "web") },
    ];
    assert_eq!(eps(&s, &pods).subsets, vec![subset(&["10.1.0.1"], &[], &[&port("", 80)])]);
}

#[test]
fn publish_not_ready_addresses_makes_everyone_ready_and_keeps_terminating() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.publish_not_ready_addresses = true;
    let pods = vec![
        Pod { ready: false, ..pod("a", "10.1.0.1", "web") },
        Pod { terminating: true, ready: false, ..pod("b", "10.1.0.2", "web") },
        Pod { phase: PodPhase::Failed, ..pod("c", "10.1.0.3", "web") },
    ];
    assert_eq!(
        eps(&s, &pods).subsets,
        vec![subset(&["10.1.0.1", "10.1.0.2"], &[], &[&port("", 80)])]
    );
}

#[test]
fn target_port_resolution() {
    let s = svc(
        "web",
        vec![
            sport("same", 80, None),
            sport("num", 81, Some(IntOrString::Int(9081))),
            sport("named", 82, Some(IntOrString::String("metrics".into()))),
        ],
    );
    let mut p = pod("a", "10.1.0.1", "web");
    p.container_ports.insert("metrics".into(), 9090);
    assert_eq!(
        eps(&s, &[p]).subsets,
        vec![subset(
            &["10.1.0.1"],
            &[],
            &[&port("named", 9090), &port("num", 9081), &port("same", 80)]
        )]
    );
}

#[test]
fn defaulted_target_port_values_mean_the_service_port() {
    let s = svc(
        "web",
        vec![
            sport("zero", 80, Some(IntOrString::Int(0))),
            sport("empty", 81, Some(IntOrString::String(String::new()))),
        ],
    );
    assert_eq!(
        eps(&s, &[pod("a", "10.1.0.1", "web")]).subsets,
        vec![subset(&["10.1.0.1"], &[], &[&port("empty", 81), &port("zero", 80)])]
    );
}

#[test]
fn missing_named_port_skips_only_that_port_for_that_pod() {
    let s = svc(
        "web",
        vec![sport("http", 80, Some(IntOrString::String("http".into()))), sport("plain", 81, None)],
    );
    let mut with = pod("with", "10.1.0.1", "web");
    with.container_ports.insert("http".into(), 8080);
    let mut other_port = pod("other-port", "10.1.0.3", "web");
    other_port.container_ports.insert("https".into(), 8443);
    let without = pod("without", "10.1.0.2", "web");
    assert_eq!(
        eps(&s, &[with, without, other_port]).subsets,
        vec![
            subset(&["10.1.0.1"], &[], &[&port("http", 8080)]),
            subset(&["10.1.0.1", "10.1.0.2", "10.1.0.3"], &[], &[&port("plain", 81)]),
        ]
    );
}

#[test]
fn named_ports_resolving_differently_per_pod_split_subsets() {
    let s = svc("web", vec![sport("http", 80, Some(IntOrString::String("http".into())))]);
    let mut a = pod("a", "10.1.0.1", "web");
    a.container_ports.insert("http".into(), 8080);
    let mut b = pod("b", "10.1.0.2", "web");
    b.container_ports.insert("http".into(), 9090);
    assert_eq!(
        eps(&s, &[b, a]).subsets,
        vec![
            subset(&["10.1.0.1"], &[], &[&port("http", 8080)]),
            subset(&["10.1.0.2"], &[], &[&port("http", 9090)])
        ]
    );
}

#[test]
fn protocol_is_copied_from_the_service_port() {
    let mut sp = sport("dns", 53, None);
    sp.protocol = Protocol::UDP;
    let s = svc("web", vec![sp]);
    let got = eps(&s, &[pod("a", "10.1.0.1", "web")]).subsets;
    assert_eq!(
        got[0].ports,
        vec![EndpointPort { name: "dns".into(), port: 53, protocol: Protocol::UDP }]
    );
}

#[test]
fn headless_without_ports_publishes_addresses() {
    let mut s = svc("web", vec![]);
    s.cluster_ip = "None".into();
    let pods =
        vec![pod("a", "10.1.0.2", "web"), Pod { ready: false, ..pod("b", "10.1.0.1", "web") }];
    let e = eps(&s, &pods);
    assert_eq!(e.subsets, vec![subset(&["10.1.0.2"], &["10.1.0.1"], &[])]);
    assert_eq!(e.labels, labels(&[(HEADLESS, "")]));
}

#[test]
fn non_headless_without_ports_gets_no_subsets() {
    let s = svc("web", vec![]);
    let e = eps(&s, &[pod("a", "10.1.0.1", "web")]);
    assert!(e.subsets.is_empty());
}

#[test]
fn headless_with_ports_uses_them() {
    let mut s = svc("web", vec![sport("http", 80, Some(IntOrString::Int(8080)))]);
    s.cluster_ip = "None".into();
    let e = eps(&s, &[pod("a", "10.1.0.1", "web")]);
    assert_eq!(e.subsets, vec![subset(&["10.1.0.1"], &[], &[&port("http", 8080)])]);
    assert_eq!(e.labels.get(HEADLESS).map(String::as_str), Some(""));
}

#[test]
fn labels_are_the_services_and_headless_marker_follows_cluster_ip() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.labels = labels(&[("team", "a"), (HEADLESS, "")]);
    // A Service with a ClusterIP loses a headless label it carries itself.
    assert_eq!(eps(&s, &[]).labels, labels(&[("team", "a")]));
    s.cluster_ip = "None".into();
    s.labels = labels(&[("team", "a")]);
    assert_eq!(eps(&s, &[]).labels, labels(&[("team", "a"), (HEADLESS, "")]));
}

#[test]
fn unallocated_cluster_ip_also_gets_the_headless_label() {
    // Upstream tests `!IsServiceIPSet`, not `clusterIP == "None"`; ports still need a real headless
    // Service to be optional.
    let mut s = svc("web", vec![]);
    s.cluster_ip = String::new();
    let e = eps(&s, &[pod("a", "10.1.0.1", "web")]);
    assert_eq!(e.labels, labels(&[(HEADLESS, "")]));
    assert!(e.subsets.is_empty());
}

fn dual_stack_pod(name: &str, v4: &str, v6: &str, v6_first: bool) -> Pod {
    let ips = if v6_first { strs(&[v6, v4]) } else { strs(&[v4, v6]) };
    Pod { pod_ip: ips[0].clone(), pod_ips: ips, ..pod(name, "", "web") }
}

#[test]
fn dual_stack_pod_uses_the_service_primary_family() {
    let p = dual_stack_pod("a", "10.1.0.1", "fd00::1", false);
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.ip_families = vec![IpFamily::IPv6, IpFamily::IPv4];
    assert_eq!(
        eps(&s, std::slice::from_ref(&p)).subsets,
        vec![subset(&["fd00::1"], &[], &[&port("", 80)])]
    );
    s.ip_families = vec![IpFamily::IPv4, IpFamily::IPv6];
    assert_eq!(eps(&s, &[p]).subsets, vec![subset(&["10.1.0.1"], &[], &[&port("", 80)])]);
}

#[test]
fn without_ip_families_the_cluster_ip_family_decides() {
    let p = dual_stack_pod("a", "10.1.0.1", "fd00::1", false);
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.cluster_ip = "fd00:96::10".into();
    assert_eq!(
        eps(&s, std::slice::from_ref(&p)).subsets,
        vec![subset(&["fd00::1"], &[], &[&port("", 80)])]
    );
    s.cluster_ip = "10.96.0.10".into();
    let p6first = dual_stack_pod("a", "10.1.0.1", "fd00::1", true);
    assert_eq!(eps(&s, &[p6first]).subsets, vec![subset(&["10.1.0.1"], &[], &[&port("", 80)])]);
}

#[test]
fn headless_without_ip_families_follows_each_pods_first_ip() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.cluster_ip = "None".into();
    let pods = vec![
        dual_stack_pod("a", "10.1.0.1", "fd00::1", true),
        dual_stack_pod("b", "10.1.0.2", "fd00::2", false),
    ];
    assert_eq!(
        eps(&s, &pods).subsets,
        vec![subset(&["10.1.0.2", "fd00::1"], &[], &[&port("", 80)])]
    );
}

#[test]
fn pods_without_an_ip_of_the_service_family_are_skipped() {
    let mut s = svc("web", vec![sport("", 80, None)]);
    s.ip_families = vec![IpFamily::IPv6];
    let pods = vec![pod("v4-only", "10.1.0.1", "web"), pod("v6", "fd00::2", "web")];
    assert_eq!(eps(&s, &pods).subsets, vec![subset(&["fd00::2"], &[], &[&port("", 80)])]);
}

#[test]
fn same_pod_ready_and_not_ready_duplicates_collapse() {
    // Two pod objects reporting the same IP (e.g. host network): not ready wins.
    let s = svc("web", vec![sport("", 80, None)]);
    let pods =
        vec![pod("a", "10.1.0.1", "web"), Pod { ready: false, ..pod("b", "10.1.0.1", "web") }];
    assert_eq!(eps(&s, &pods).subsets, vec![subset(&[], &["10.1.0.1"], &[&port("", 80)])]);
}

#[test]
fn result_does_not_depend_on_pod_order() {
    let s = svc(
        "web",
        vec![sport("a", 80, None), sport("b", 81, Some(IntOrString::String("b".into())))],
    );
    let mut pods: Vec<Pod> =
        (1..=12).map(|i| pod(&format!("p{i}"), &format!("10.1.0.{i}"), "web")).collect();
    for (i, p) in pods.iter_mut().enumerate() {
        p.ready = i % 3 != 0;
        if i % 2 == 0 {
            p.container_ports.insert("b".into(), 9000);
        }
    }
    let forward = eps(&s, &pods);
    pods.reverse();
    assert_eq!(eps(&s, &pods), forward);
    assert_eq!(forward.subsets, repack_subsets(&forward.subsets));
}
