//! The `kubernetes` EndpointSlice: the endpoints adapter on its own and under the reconcilers
//! (the cases of upstream's `endpointsadapter_test.go` the model can express), then the world
//! through scenario JSON.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use engine::contract::api::{
    Behavior, EndpointPort, EndpointSlice, Endpoints, IpFamily, SliceEndpoint, LABEL_SERVICE_NAME,
};
use engine::contract::scenario::{self, Scenario};
use engine::sim::report;
use engine::sim::world::{MarkKind, World};
use k8s::etcd;
use k8s::reconcilers::{endpointsadapter, ApiError, ReconcilerType};

use crate::reconcilers::{
    eps, https, lease, master_count, port, reconcile, remove, subset, Fake, NAME, OWN, UNAVAILABLE,
};

/// The slice the adapter writes for `ips` and `ports`.
fn slice(address_type: IpFamily, ips: &[&str], ports: Vec<EndpointPort>) -> EndpointSlice {
    EndpointSlice {
        namespace: "default".into(),
        name: NAME.into(),
        labels: BTreeMap::from([(LABEL_SERVICE_NAME.to_string(), NAME.to_string())]),
        address_type,
        endpoints: ips
            .iter()
            .map(|ip| SliceEndpoint { addresses: vec![ip.to_string()], ready: true })
            .collect(),
        ports,
    }
}

fn v4(ips: &[&str], ports: Vec<EndpointPort>) -> EndpointSlice {
    slice(IpFamily::IPv4, ips, ports)
}

/// A slice of the `kubernetes` Service under another name (what a dual-stack apiserver leaves).
fn renamed(mut s: EndpointSlice, name: &str) -> EndpointSlice {
    s.name = name.into();
    s
}

/// A fake holding `endpoints` (if any) and `slices`.
fn fake(leases: &[&str], endpoints: Option<Endpoints>, slices: &[EndpointSlice]) -> Fake {
    let mut api = Fake::with(leases, endpoints);
    api.slices = slices.iter().map(|s| (s.key(), s.clone())).collect();
    api
}

fn keys(api: &Fake) -> Vec<&str> {
    api.slices.keys().map(String::as_str).collect()
}

const A: &str = "10.0.0.1";
const B: &str = "10.0.0.2";

// ---------------------------------------------------------------------------------------------
// The adapter on its own

#[test]
fn the_slice_follows_the_endpoints() {
    let e = eps(vec![subset(&[A, OWN], vec![port("https", 6443), port("x", 8443)])]);
    assert_eq!(
        endpointsadapter::slice_from_endpoints(&e),
        v4(&[A, OWN], vec![port("https", 6443), port("x", 8443)])
    );
    // Labels are exactly the service-name label, whatever the Endpoints carry.
    assert_eq!(
        endpointsadapter::slice_from_endpoints(&e).labels,
        BTreeMap::from([("kubernetes.io/service-name".to_string(), "kubernetes".to_string())])
    );
    // No subsets (the last apiserver left): an empty IPv4 slice without ports.
    assert_eq!(endpointsadapter::slice_from_endpoints(&eps(vec![])), v4(&[], vec![]));
}

#[test]
fn the_address_type_is_the_addresses_family() {
    // "single-endpoint-full-ipv6".
    let e = eps(vec![subset(&["1234::5678", "1234::abcd"], https())]);
    assert_eq!(
        endpointsadapter::slice_from_endpoints(&e),
        slice(IpFamily::IPv6, &["1234::5678", "1234::abcd"], https())
    );
    // "ipv4-cluster-no-create-ipv6": mixed addresses give an IPv4 slice of the IPv4 ones.
    let e = eps(vec![subset(&[A, B, "1234::5678"], https())]);
    assert_eq!(endpointsadapter::slice_from_endpoints(&e), v4(&[A, B], https()));
    // An IPv4-mapped IPv6 address is IPv4, as Go's IsIPv6String says.
    let e = eps(vec![subset(&["::ffff:10.0.0.1"], https())]);
    assert_eq!(endpointsadapter::slice_from_endpoints(&e).address_type, IpFamily::IPv4);
}

#[test]
fn not_ready_addresses_are_not_in_the_slice() {
    let mut e = eps(vec![subset(&[A], https())]);
    e.subsets[0].not_ready_addresses = vec![OWN.into()];
    assert_eq!(endpointsadapter::slice_from_endpoints(&e), v4(&[A], https()));
}

#[test]
fn create_writes_both_and_a_failed_endpoints_write_writes_no_slice() {
    // "single-endpoint".
    let e = eps(vec![subset(&[A, B], https())]);
    let mut api = fake(&[], None, &[]);
    endpointsadapter::create(&mut api, &e).unwrap();
    assert_eq!(*api.ep(), e);
    assert_eq!(*api.slice(), v4(&[A, B], https()));
    assert_eq!(api.writes, ["create"]);
    assert_eq!(api.slice_writes, ["create kubernetes"]);

    // The Endpoints exist already: AlreadyExists, and the slice is not touched.
    let mut api = fake(&[], Some(eps(vec![])), &[]);
    let err = endpointsadapter::create(&mut api, &e).unwrap_err();
    assert!(matches!(err, ApiError::AlreadyExists(_)));
    assert!(api.slices.is_empty() && api.slice_writes.is_empty());

    // An Update of missing Endpoints fails the same way.
    let mut api = fake(&[], None, &[]);
    let err = endpointsadapter::update(&mut api, &e).unwrap_err();
    assert_eq!(err.to_string(), "endpoints \"kubernetes\" not found");
    assert!(api.slices.is_empty() && api.slice_writes.is_empty());
}

#[test]
fn a_correct_slice_is_not_written() {
    // "single-existing-endpoints-no-change" and "existing-endpointslice-correct".
    let e = eps(vec![subset(&[A, B], https())]);
    let mut api = fake(&[], None, &[v4(&[A, B], https())]);
    endpointsadapter::create(&mut api, &e).unwrap();
    endpointsadapter::update(&mut api, &e).unwrap();
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(api.writes, ["create", "update"]);
    assert!(api.slice_writes.is_empty());
}

#[test]
fn a_slice_that_differs_is_updated() {
    // "existing-endpointslice-incorrect": addresses, ports and labels each count.
    let e = eps(vec![subset(&[A, B, OWN], vec![port("https", 6443), port("x", 80)])]);
    let want = endpointsadapter::slice_from_endpoints(&e);
    let mut unlabelled = want.clone();
    unlabelled.labels.insert("extra".into(), "x".into());
    let mut not_ready = want.clone();
    not_ready.endpoints[0].ready = false;
    for wrong in [
        v4(&[A, B], vec![port("https", 6443), port("x", 80)]),
        v4(&[A, B, OWN], https()),
        v4(&[OWN, B, A], vec![port("https", 6443), port("x", 80)]),
        unlabelled,
        not_ready,
    ] {
        let mut api = fake(&[], Some(e.clone()), &[wrong]);
        endpointsadapter::ensure_slice(&mut api, &e).unwrap();
        assert_eq!(*api.slice(), want);
        assert_eq!(api.slice_writes, ["update kubernetes"]);
    }

    // A slice of ours that lost its service-name label is found by its name and relabelled.
    let mut lost = want.clone();
    lost.labels.clear();
    let mut api = fake(&[], Some(e.clone()), &[lost]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(*api.slice(), want);
    assert_eq!(api.slice_writes, ["update kubernetes"]);
}

#[test]
fn a_slice_of_another_address_type_is_deleted_and_created_again() {
    // "wrong-family-endpointslice": the address type cannot be updated.
    let e = eps(vec![subset(&[A, B], https())]);
    let ipv6 = slice(IpFamily::IPv6, &["1234::5678", "1234::abcd"], https());
    let mut api = fake(&[], Some(e.clone()), &[ipv6]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(*api.slice(), v4(&[A, B], https()));
    assert_eq!(api.slice_writes, ["delete kubernetes", "create kubernetes"]);

    // The other way round: an IPv4 slice for IPv6 Endpoints.
    let e6 = eps(vec![subset(&["1234::5678"], https())]);
    let mut api = fake(&[], Some(e6.clone()), &[v4(&[A], https())]);
    endpointsadapter::ensure_slice(&mut api, &e6).unwrap();
    assert_eq!(*api.slice(), slice(IpFamily::IPv6, &["1234::5678"], https()));
    assert_eq!(api.slice_writes, ["delete kubernetes", "create kubernetes"]);

    // Even one whose endpoints and ports are right: only the type differs.
    let mut same = v4(&[A, B], https());
    same.address_type = IpFamily::IPv6;
    let mut api = fake(&[], Some(e.clone()), &[same]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(*api.slice(), v4(&[A, B], https()));
    assert_eq!(api.slice_writes, ["delete kubernetes", "create kubernetes"]);

    // A failed delete is returned and nothing is created.
    let mut api = fake(&[], Some(e.clone()), &[slice(IpFamily::IPv6, &["1234::5678"], https())]);
    api.unavailable = true;
    let err = endpointsadapter::ensure_slice(&mut api, &e).unwrap_err();
    assert_eq!(err, ApiError::Unavailable(UNAVAILABLE.into()));
    assert!(api.slice_writes.is_empty());
}

#[test]
fn other_slices_labelled_for_the_service_are_left_alone() {
    // Upstream's released adapter reads the slice by name and never lists: a slice of the
    // Service under another name (what a dual-stack apiserver of the unmerged #117704 would
    // leave, or one written by hand) stays, untouched.
    let e = eps(vec![subset(&[A, B], https())]);
    let ours = v4(&[A, B], https());
    let v6 = renamed(slice(IpFamily::IPv6, &["1234::5678"], https()), "kubernetes-v6");
    let alt = renamed(v4(&[OWN], vec![port("x", 1)]), "kubernetes-v4");

    // Ours is right: nothing is written at all.
    let mut api = fake(&[], Some(e.clone()), &[ours.clone(), v6.clone()]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(keys(&api), ["default/kubernetes", "default/kubernetes-v6"]);
    assert_eq!(api.slices["default/kubernetes-v6"], v6);
    assert!(api.slice_writes.is_empty());

    // Ours is missing: it is created beside the others, which keep their content.
    let mut api = fake(&[], Some(e.clone()), &[alt.clone(), v6.clone()]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(
        keys(&api),
        ["default/kubernetes", "default/kubernetes-v4", "default/kubernetes-v6"]
    );
    assert_eq!(*api.slice(), ours);
    assert_eq!(api.slices["default/kubernetes-v4"], alt);
    assert_eq!(api.slice_writes, ["create kubernetes"]);

    // Slices of other Services, unlabelled ones and ones in other namespaces stay too.
    let mut web = renamed(v4(&["10.1.0.5"], https()), "web-abcde");
    web.labels = BTreeMap::from([(LABEL_SERVICE_NAME.to_string(), "web".to_string())]);
    let mut unlabelled = renamed(v4(&[A], https()), "manual");
    unlabelled.labels.clear();
    let mut elsewhere = v4(&[A], https());
    elsewhere.namespace = "kube-system".into();
    let mut api = fake(&[], Some(e.clone()), &[web, unlabelled, elsewhere, v6, ours]);
    endpointsadapter::ensure_slice(&mut api, &e).unwrap();
    assert_eq!(
        keys(&api),
        [
            "default/kubernetes",
            "default/kubernetes-v6",
            "default/manual",
            "default/web-abcde",
            "kube-system/kubernetes"
        ]
    );
    assert!(api.slice_writes.is_empty());
}

#[test]
fn slice_errors_are_returned() {
    let e = eps(vec![subset(&[A], https())]);
    let mut api = fake(&[], Some(e.clone()), &[]);
    api.unavailable = true;
    let err = endpointsadapter::ensure_slice(&mut api, &e).unwrap_err();
    assert_eq!(err, ApiError::Unavailable(UNAVAILABLE.into()));
    assert!(api.slice_writes.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Under the reconcilers

#[test]
fn lease_creates_both_and_updates_both() {
    // "single-endpoint", then "add-ports-and-ips".
    let mut api = fake(&[A], None, &[]);
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[A, OWN], https())]));
    assert_eq!(*api.slice(), v4(&[A, OWN], https()));
    assert_eq!(
        (api.writes.clone(), api.slice_writes.clone()),
        (vec!["create"], vec!["create kubernetes".to_string()])
    );

    api.leases.insert(B.into());
    let ports = vec![port("https", 6443), port("x", 8443)];
    r.reconcile_endpoints(&mut api, NAME, OWN, &ports, true).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[A, B, OWN], ports.clone())]));
    assert_eq!(*api.slice(), v4(&[A, B, OWN], ports));
    assert_eq!(api.writes, ["create", "update"]);
    assert_eq!(api.slice_writes, ["create kubernetes", "update kubernetes"]);
}

#[test]
fn the_slice_alone_is_rewritten_when_the_endpoints_are_right() {
    // "endpoints-correct-endpointslice-wrong" and a missing slice, for both reconcilers.
    let right = eps(vec![subset(&[OWN], https())]);
    for wrong in [None, Some(v4(&[A, OWN], https()))] {
        for mut r in [lease(Behavior::V1_29), lease(Behavior::V1_20), master_count(1)] {
            let slices: Vec<EndpointSlice> = wrong.iter().cloned().collect();
            let mut api = fake(&[OWN], Some(right.clone()), &slices);
            reconcile(&mut r, &mut api, true).unwrap();
            assert!(api.writes.is_empty() && api.log.is_empty());
            assert_eq!(*api.slice(), v4(&[OWN], https()));
            let verb = if wrong.is_some() { "update" } else { "create" };
            assert_eq!(api.slice_writes, [format!("{verb} kubernetes")]);

            // Then nothing at all is written.
            api.slice_writes.clear();
            reconcile(&mut r, &mut api, true).unwrap();
            assert!(api.writes.is_empty() && api.slice_writes.is_empty());
        }
    }
}

#[test]
fn the_endpoints_alone_are_rewritten_when_the_slice_is_right() {
    // "endpointslice-correct-endpoints-wrong".
    let mut api =
        fake(&[A, OWN], Some(eps(vec![subset(&[OWN], https())])), &[v4(&[A, OWN], https())]);
    reconcile(&mut lease(Behavior::V1_29), &mut api, true).unwrap();
    assert_eq!(api.addresses(), [A, OWN]);
    assert_eq!(api.writes, ["update"]);
    assert!(api.slice_writes.is_empty());
}

#[test]
fn lease_change_leaves_a_secondary_slice_alone() {
    // "dual-stack-rollback-and-change" of the unmerged #117704 deleted the secondary slice; the
    // released adapter updates ours and leaves it.
    let v6 = renamed(slice(IpFamily::IPv6, &["1234::5678"], https()), "kubernetes-v6");
    let mut api = fake(
        &[A, B, OWN],
        Some(eps(vec![subset(&[A, OWN], https())])),
        &[v4(&[A, OWN], https()), v6.clone()],
    );
    reconcile(&mut lease(Behavior::V1_29), &mut api, true).unwrap();
    assert_eq!(api.addresses(), [A, B, OWN]);
    assert_eq!(*api.slice(), v4(&[A, B, OWN], https()));
    assert_eq!(keys(&api), ["default/kubernetes", "default/kubernetes-v6"]);
    assert_eq!(api.slices["default/kubernetes-v6"], v6);
    assert_eq!(api.slice_writes, ["update kubernetes"]);
}

#[test]
fn the_slice_has_the_ports_of_the_endpoints() {
    // reconcile_ports false: a hand-edited port stays in the Endpoints, and the slice shows it;
    // the IPs are rewritten in both.
    let hand = vec![port("https", 443)];
    let mut api = fake(&[A, OWN], Some(eps(vec![subset(&[OWN], hand.clone())])), &[]);
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.ep().subsets, [subset(&[A, OWN], hand.clone())]);
    assert_eq!(*api.slice(), v4(&[A, OWN], hand));

    // reconcile_ports true: both are fixed, in the given order.
    let ports = vec![port("b", 2), port("a", 1)];
    r.reconcile_endpoints(&mut api, NAME, OWN, &ports, true).unwrap();
    assert_eq!(api.ep().subsets[0].ports, ports);
    assert_eq!(api.slice().ports, ports);
}

#[test]
fn lease_shutdown_empties_both() {
    let mut api =
        fake(&[A, OWN], Some(eps(vec![subset(&[A, OWN], https())])), &[v4(&[A, OWN], https())]);
    let mut r = lease(Behavior::V1_29);
    r.stop_reconciling();
    remove(&mut r, &mut api).unwrap();
    assert_eq!(*api.slice(), v4(&[A], https()));

    // The last one leaves: no subsets, an empty slice without ports.
    let mut api = fake(&[OWN], Some(eps(vec![subset(&[OWN], https())])), &[v4(&[OWN], https())]);
    remove(&mut r, &mut api).unwrap();
    assert_eq!(*api.ep(), eps(vec![]));
    assert_eq!(*api.slice(), v4(&[], vec![]));

    // A refused reconcile writes neither.
    let mut api = fake(&[A], Some(eps(vec![subset(&[A], https())])), &[]);
    api.lose_leases = true;
    assert!(reconcile(&mut lease(Behavior::V1_29), &mut api, true).is_err());
    assert!(api.slices.is_empty() && api.slice_writes.is_empty());
}

#[test]
fn lease_create_race_writes_no_slice() {
    // Another apiserver created the Endpoints first: the next round writes the slice.
    let mut api = fake(&[], None, &[]);
    api.race_create = true;
    reconcile(&mut lease(Behavior::V1_29), &mut api, false).unwrap();
    assert!(api.slice_writes.is_empty());
}

#[test]
fn master_count_writes_the_slice_on_every_path() {
    let mut r = master_count(2);
    // Create on NotFound.
    let mut api = fake(&[], None, &[]);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.slice(), v4(&[OWN], https()));
    // Add our IP beside another.
    let mut api = fake(&[], Some(eps(vec![subset(&[A], https())])), &[]);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.slice(), v4(&[A, OWN], https()));
    // Wrong format reset.
    let two = eps(vec![subset(&[A], https()), subset(&[B], vec![port("x", 1)])]);
    let mut api = fake(&[], Some(two), &[v4(&[A, B], https())]);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.slice(), v4(&[OWN], https()));
    assert_eq!(api.slice_writes, ["update kubernetes"]);
    // RemoveEndpoints, with its Conflict retries.
    let mut api = fake(&[], Some(eps(vec![subset(&[A, OWN], https())])), &[]);
    api.conflicts = 2;
    r.stop_reconciling();
    remove(&mut r, &mut api).unwrap();
    assert_eq!(api.writes, ["update"; 3]);
    assert_eq!(*api.slice(), v4(&[A], https()));
    assert_eq!(api.slice_writes, ["create kubernetes"]);
}

#[test]
fn none_writes_no_slice() {
    let mut api = fake(&[OWN], Some(eps(vec![subset(&[A], https())])), &[]);
    let mut r = k8s::reconcilers::EndpointReconciler::new(ReconcilerType::None, 1, Behavior::V1_29);
    reconcile(&mut r, &mut api, true).unwrap();
    remove(&mut r, &mut api).unwrap();
    assert!(api.slices.is_empty() && api.slice_writes.is_empty());
}

// ---------------------------------------------------------------------------------------------
// The world, through scenario JSON

fn scenario(v: Value) -> Scenario {
    scenario::parse(&v.to_string()).unwrap()
}

/// Three apiservers with `reconciler`.
fn three(reconciler: &str, steps: Value, until: &str) -> Scenario {
    scenario(json!({"seed": 3, "cluster": {"service_cluster_ip_range": "10.96.0.0/16",
        "endpoint_reconciler_type": reconciler, "apiserver_count": 3,
        "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                       {"name": "apiserver-b", "advertise_address": "192.168.10.12"},
                       {"name": "apiserver-c", "advertise_address": "192.168.10.13"}]},
        "steps": steps, "until": until}))
}

/// The `kubernetes` slice of the contract's state form for `ips`.
fn slice_json(ips: &[&str]) -> Value {
    let endpoints: Vec<Value> =
        ips.iter().map(|ip| json!({"addresses": [ip], "ready": true})).collect();
    json!({"namespace": "default", "name": "kubernetes",
        "labels": {"kubernetes.io/service-name": "kubernetes"}, "address_type": "IPv4",
        "endpoints": endpoints, "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]})
}

/// The ready addresses of the `kubernetes` Endpoints and of its slice, in order.
fn both_addresses(w: &World) -> (Vec<String>, Option<Vec<String>>) {
    let st = w.state();
    let eps = st.kubernetes_addresses().cloned().collect();
    let slice = st.kubernetes_slice().map(|s| s.addresses().cloned().collect());
    (eps, slice)
}

#[test]
fn lease_and_master_count_write_the_slice_of_the_contract() {
    const ALL: [&str; 3] = ["192.168.10.11", "192.168.10.12", "192.168.10.13"];
    for reconciler in ["lease", "master-count"] {
        let s = three(
            reconciler,
            json!([{"at": "1s", "expect": {"endpoint_slices": [slice_json(&ALL)]}},
                   {"at": "1s", "expect": {"endpoint_slices": [{"namespace": "default",
                       "name": "kubernetes", "address_type": "IPv4"}]}}]),
            "1s",
        );
        let r = report::run(&s);
        assert!(r.passed(), "{reconciler}: {:?}", r.expectations);
        assert_eq!(r.final_state.endpoint_slices.len(), 1, "{reconciler}");
        // The state form of the contract, field for field.
        let st = serde_json::to_value(&r.final_state).unwrap();
        assert_eq!(st["endpoint_slices"], json!([slice_json(&ALL)]), "{reconciler}");
    }
}

#[test]
fn none_writes_neither_endpoints_nor_slice() {
    let s = three(
        "none",
        json!([{"at": "30s", "expect": {"absent": {
            "endpoints": [{"namespace": "default", "name": "kubernetes"}],
            "endpoint_slices": [{"namespace": "default", "name": "kubernetes"}]}}}]),
        "30s",
    );
    let r = report::run(&s);
    assert!(r.passed(), "{:?}", r.expectations);
    assert!(r.final_state.endpoint_slices.is_empty());
    assert_eq!(r.final_state.services[0].name, "kubernetes");
}

#[test]
fn after_a_crash_and_an_expiry_both_list_the_same_addresses_after_every_task() {
    let s = three(
        "lease",
        json!([{"at": "30s", "do": "crash_apiserver", "apiserver": "apiserver-b"},
               {"at": "60s", "do": "stop_apiserver", "apiserver": "apiserver-c"}]),
        "90s",
    );
    let mut w = World::new(&s);
    let mut seen = Vec::new();
    while let Some(stepped) = w.step() {
        if stepped.time_ms > s.until_ms {
            break;
        }
        let (eps, slice) = both_addresses(&w);
        if let Some(slice) = slice {
            assert_eq!(eps, slice, "after {stepped} at {} ms", stepped.time_ms);
            if seen.last() != Some(&slice) {
                seen.push(slice);
            }
        }
    }
    // b's lease expires 15 s after its last refresh (at 30 s), c leaves at once when stopped.
    let seen: Vec<Vec<&str>> =
        seen.iter().map(|v| v.iter().map(String::as_str).collect()).collect();
    assert_eq!(seen.last().unwrap(), &["192.168.10.11"], "addresses over time: {seen:?}");
    assert!(seen.contains(&vec!["192.168.10.11", "192.168.10.13"]));
    assert!(seen.contains(&vec!["192.168.10.11", "192.168.10.12", "192.168.10.13"]));
}

#[test]
fn a_slice_only_rewrite_is_marked() {
    // The Endpoints given in `initial` are already right, so the first sync writes only the slice.
    let s = scenario(json!({"cluster": {"service_cluster_ip_range": "10.96.0.0/16",
            "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"}]},
        "initial": {"endpoints": [{"namespace": "default", "name": "kubernetes",
            "labels": {"endpointslice.kubernetes.io/skip-mirror": "true"},
            "subsets": [{"addresses": ["192.168.10.11"],
                "ports": [{"name": "https", "port": 6443, "protocol": "TCP"}]}]}]},
        "until": "1s"}));
    let mut w = World::new(&s);
    w.run_until(1_000);
    assert!(
        !w.events().iter().any(|e| e.message.starts_with("Resetting endpoints")),
        "the Endpoints were not rewritten"
    );
    let st = w.state();
    assert_eq!(
        serde_json::to_value(st.kubernetes_slice().unwrap()).unwrap(),
        slice_json(&["192.168.10.11"])
    );
    let rewrites: Vec<_> =
        w.marks().iter().filter(|m| m.kind == MarkKind::EndpointsRewrite).collect();
    assert_eq!(rewrites.len(), 1, "{rewrites:?}");
    assert_eq!(rewrites[0].subject, "apiserver-a");
}

#[test]
fn deleting_the_kubernetes_service_leaves_its_slice() {
    // The endpoints controller deletes the Endpoints with the Service; the slice has no owner and
    // stays until the next sync finds it right.
    let s = three(
        "lease",
        json!([{"at": "25s", "do": "delete_service", "namespace": "default", "name": "kubernetes"},
               {"at": "25s", "expect": {
                   "absent": {"services": [{"namespace": "default", "name": "kubernetes"}],
                              "endpoints": [{"namespace": "default", "name": "kubernetes"}]},
                   "endpoint_slices": [slice_json(&["192.168.10.11", "192.168.10.12",
                       "192.168.10.13"])],
                   "events_exclude": [{"reason": "action_failed"}]}}]),
        "30s",
    );
    let mut w = World::new(&s);
    w.run_until(25_000);
    let slice_rev = |w: &World| {
        w.etcd().get(&etcd::endpoint_slice_key("default", NAME), w.now()).map(|e| e.mod_revision)
    };
    let before = slice_rev(&w);
    assert!(before.is_some());
    w.run_until(30_000);
    assert!(w.expectations().iter().all(|(_, m)| m.is_empty()), "{:?}", w.expectations());
    let (eps, slice) = both_addresses(&w);
    assert_eq!(eps.len(), 3, "the Endpoints are back at the next sync");
    assert_eq!(Some(eps), slice);
    assert_eq!(slice_rev(&w), before, "the slice was never rewritten");
}
