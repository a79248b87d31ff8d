//! §6 of the contract: behaviours 1.33 and 1.35, where ClusterIPs are IPAddress objects inside
//! ServiceCIDRs, in the world: the default ServiceCIDR, allocation and release, RepairIPAddress
//! passes, ServiceCIDR deletion and readiness. The cases follow upstream's `repairip_test.go`
//! and `servicecidrs_controller_test.go` where the contract can express them; the allocators'
//! own cases are in `servicecidr_allocator.rs`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::{json, Value};

use engine::contract::scenario;
use engine::sim::report;
use engine::sim::world::World;
use k8s::etcd::{self, WireOp};
use k8s::ipallocator::ipaddress::CidrRange;

use super::{ip, net};

// ---- the world under 1.33 and 1.35 -------------------------------------------------------

fn run(behavior: &str, range: &str, initial: Value, steps: Value, until: &str) -> report::Report {
    let s = json!({
        "behavior": behavior,
        "cluster": {"service_cluster_ip_range": range,
            "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                           {"name": "apiserver-b", "advertise_address": "192.168.10.12"}]},
        "initial": initial, "steps": steps, "until": until});
    report::run(&scenario::parse(&s.to_string()).unwrap())
}

fn state(r: &report::Report) -> Value {
    serde_json::to_value(&r.final_state).unwrap()
}

fn events(r: &report::Report, reason: &str) -> Vec<(u64, String, String)> {
    r.events
        .iter()
        .filter(|e| e.reason == reason)
        .map(|e| (e.time_ms, e.object.clone(), e.message.clone()))
        .collect()
}

fn ip_names(st: &Value) -> Vec<(String, String)> {
    st["ip_addresses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let p = &a["parent"];
            (
                a["ip"].as_str().unwrap().to_string(),
                format!("{}/{}", p["namespace"].as_str().unwrap(), p["name"].as_str().unwrap()),
            )
        })
        .collect()
}

#[test]
fn a_fresh_1_35_cluster_has_the_default_service_cidr_and_an_ip_address_per_cluster_ip() {
    let r = run(
        "1.35",
        "10.96.0.0/12",
        json!({}),
        json!([{"at": "1s", "do": "create_service", "service": {"name": "web"}}]),
        "2s",
    );
    let st = state(&r);
    assert_eq!(
        st["service_cidrs"],
        json!([{"name": "kubernetes", "cidrs": ["10.96.0.0/12"], "ready": true, "reason": "",
            "message": "Kubernetes Service CIDR is ready", "deleting": false,
            "finalizers": ["networking.k8s.io/service-cidr-finalizer"]}]),
        "kube-controller-manager's message, as kubectl shows it"
    );
    assert_eq!(st["allocations"]["cluster_ip"], json!([]), "1.35 has no ClusterIP bitmap");
    let ips = ip_names(&st);
    assert_eq!(ips[0], ("10.96.0.1".into(), "default/kubernetes".into()));
    let web = st["services"].as_array().unwrap().iter().find(|s| s["name"] == "web").unwrap();
    let web_ip = web["cluster_ip"].as_str().unwrap();
    assert!(ips.contains(&(web_ip.to_string(), "default/web".to_string())));
    assert_eq!(
        st["ip_addresses"][0]["labels"],
        json!({"ipaddress.kubernetes.io/ip-family": "IPv4", "ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"})
    );
    let off = CidrRange::new(net("10.96.0.0/12")).offset_of(ip(web_ip)).unwrap();
    assert!(off >= 256, "dynamic allocation starts in the upper band: offset {off}");
}

#[test]
fn service_delete_deletes_its_ip_address_and_a_full_range_grows_with_a_new_service_cidr() {
    let creates: Vec<Value> = (0..14)
        .map(|i| json!({"at": "1s", "do": "create_service", "service": {"name": format!("s{i}")}}))
        .collect();
    let mut steps = creates;
    steps.push(json!({"at": "2s", "do": "create_service_cidr", "service_cidr": {"name": "more", "cidrs": ["10.96.1.0/24"]}}));
    steps.push(json!({"at": "3s", "do": "create_service", "service": {"name": "late"}}));
    steps.push(json!({"at": "4s", "do": "delete_service", "name": "s0"}));
    let r = run("1.35", "10.96.0.0/28", json!({}), json!(steps), "5s");
    let full: Vec<_> = r.events.iter().filter(|e| e.reason == "action_failed").collect();
    assert_eq!(full.len(), 1, "13 addresses are left after 10.96.0.1: the 14th create fails");
    assert_eq!(
        full[0].message,
        "Internal error occurred: failed to allocate a serviceIP: range is full"
    );
    let st = state(&r);
    let late = st["services"].as_array().unwrap().iter().find(|s| s["name"] == "late").unwrap();
    assert!(late["cluster_ip"].as_str().unwrap().starts_with("10.96.1."), "{late}");
    assert!(!ip_names(&st).iter().any(|(_, p)| p == "default/s0"), "deleted with its Service");
}

#[test]
fn a_requested_ip_is_checked_against_ready_service_cidrs() {
    let steps = json!([
        {"at": "1s", "do": "create_service", "service": {"name": "a", "cluster_ip": "10.96.0.10"}},
        {"at": "1s", "do": "create_service", "service": {"name": "b", "cluster_ip": "10.96.0.10"}},
        {"at": "1s", "do": "create_service", "service": {"name": "c", "cluster_ip": "10.96.0.0"}},
        {"at": "1s", "do": "create_service", "service": {"name": "d", "cluster_ip": "10.99.0.1"}}]);
    let r = run("1.35", "10.96.0.0/24", json!({}), steps, "2s");
    let msgs: Vec<String> = r
        .events
        .iter()
        .filter(|e| e.reason == "action_failed")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(msgs, vec![
        "Service \"b\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: failed to allocate IP 10.96.0.10: provided IP is already allocated",
        "Service \"c\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.0\"}: failed to allocate IP 10.96.0.0: the provided network does not match the current range",
        "Service \"d\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.99.0.1\"}: failed to allocate IP 10.99.0.1: the provided network does not match the current range",
    ]);
}

#[test]
fn an_upgraded_cluster_gets_its_ip_addresses_from_the_first_repair_pass() {
    let initial = json!({"namespaces": ["default"], "services": [
        {"name": "web", "cluster_ip": "10.96.0.20"}, {"name": "db", "cluster_ip": "10.96.0.30"},
        {"name": "far", "cluster_ip": "10.200.0.1"}, {"name": "headless", "cluster_ip": "None"}]});
    let r = run("1.35", "10.96.0.0/16", initial, json!([]), "1s");
    let not_allocated = events(&r, "ClusterIPNotAllocated");
    assert_eq!(
        not_allocated,
        vec![
            (
                0,
                "default/db".into(),
                "Cluster IP [IPv4]: 10.96.0.30 is not allocated; repairing".into()
            ),
            (
                0,
                "default/web".into(),
                "Cluster IP [IPv4]: 10.96.0.20 is not allocated; repairing".into()
            ),
        ],
        "once, by the first apiserver's first pass"
    );
    let out_of_range = (0, "default/far".to_string(),
        "Cluster IP [IPv4]: 10.200.0.1 is not within any configured Service CIDR; please recreate service".to_string());
    assert_eq!(
        events(&r, "ClusterIPOutOfRange"),
        vec![out_of_range.clone(), out_of_range],
        "each apiserver's RepairIPAddress reports it (there is nothing to repair)"
    );
    assert!(r
        .events
        .iter()
        .filter(|e| e.reason.starts_with("ClusterIP"))
        .all(|e| e.component == "ipallocator-repair-controller" && e.type_ == "Warning"));
    let ips = ip_names(&state(&r));
    assert!(ips.contains(&("10.96.0.20".into(), "default/web".into())));
    assert!(ips.contains(&("10.96.0.30".into(), "default/db".into())));
}

#[test]
fn an_orphan_ip_address_is_deleted_when_its_grace_period_ends_and_not_before() {
    let initial = json!({"ip_addresses": [
        {"ip": "10.96.0.9", "parent": {"namespace": "default", "name": "gone"}, "age": "15s"},
        {"ip": "10.96.0.8", "parent": {"namespace": "default", "name": "older"}, "age": "2m"}]});
    let steps = json!([
        {"at": "44999ms", "expect": {"ip_addresses": [{"ip": "10.96.0.9"}]}},
        // Steps run before the controllers due at their instant: the deletion at 45 s is seen
        // from the next instant on.
        {"at": "45001ms", "expect": {"absent": {"ip_addresses": [{"ip": "10.96.0.9"}]}}}]);
    let r = run("1.35", "10.96.0.0/24", initial, steps, "46s");
    assert!(r.expectations.iter().all(|e| e.passed), "{:?}", r.expectations);
    assert_eq!(events(&r, "IPAddressNotAllocated"), vec![
        (0, "10.96.0.8".into(), "IPAddress: 10.96.0.8 for Service default/older appears to have leaked: cleaning up".into()),
        (45_000, "10.96.0.9".into(), "IPAddress: 10.96.0.9 for Service default/gone appears to have leaked: cleaning up".into()),
    ]);
}

#[test]
fn wrong_references_and_duplicates_are_reported_as_upstream_does() {
    let initial = json!({"namespaces": ["default"],
        "services": [{"name": "web", "cluster_ip": "10.96.0.20"}, {"name": "twin", "cluster_ip": "10.96.0.20"},
                     {"name": "moved", "cluster_ip": "10.96.0.40"}, {"name": "lost", "cluster_ip": "10.96.0.50"}],
        "ip_addresses": [
            {"ip": "10.96.0.20", "parent": {"namespace": "default", "name": "web"}},
            {"ip": "10.96.0.41", "parent": {"namespace": "default", "name": "moved"}},
            {"ip": "10.96.0.50", "parent": {"namespace": "default", "name": "nobody"}},
            {"ip": "10.96.0.60", "parent": {"group": "gateway.networking.k8s.io", "resource": "gateways", "namespace": "default", "name": "gw"}}]});
    let r = run("1.35", "10.96.0.0/24", initial, json!([]), "1s");
    let twin = (
        0,
        "default/twin".to_string(),
        "Cluster IP [IPv4]:10.96.0.20 was assigned to multiple services; please recreate service"
            .to_string(),
    );
    assert_eq!(
        events(&r, "ClusterIPAlreadyAllocated"),
        vec![twin.clone(), twin],
        "once per apiserver"
    );
    assert_eq!(
        events(&r, "IPAddressWrongReference"),
        vec![(
            0,
            "10.96.0.41".into(),
            "IPAddress: 10.96.0.41 for Service default/moved has a wrong reference; cleaning up"
                .into()
        )]
    );
    let not_allocated = events(&r, "ClusterIPNotAllocated");
    assert!(not_allocated.contains(&(0, "default/lost".into(),
        "the ClusterIP [IPv4]: 10.96.0.50 for Service default/lost has a wrong reference; repairing".into())), "{not_allocated:?}");
    assert!(not_allocated.contains(&(
        0,
        "default/moved".into(),
        "Cluster IP [IPv4]: 10.96.0.40 is not allocated; repairing".into()
    )));
    assert_eq!(events(&r, "IPAddressNotAllocated"), vec![(0, "10.96.0.60".into(),
        "IPAddress 10.96.0.60 appears to have been modified, not referencing a Service &ParentReference{Group:gateway.networking.k8s.io,Resource:gateways,Namespace:default,Name:gw,}: cleaning up".into())]);
    let ips = ip_names(&state(&r));
    assert!(
        ips.contains(&("10.96.0.50".into(), "default/lost".into())),
        "recreated for its Service"
    );
    assert!(
        ips.contains(&("10.96.0.20".into(), "default/web".into())),
        "a duplicate is only reported"
    );
    assert!(!ips.iter().any(|(ip, _)| ip == "10.96.0.41" || ip == "10.96.0.60"));
}

#[test]
fn a_deleted_default_service_cidr_stays_terminating_until_another_covers_its_ips() {
    let steps = json!([
        {"at": "5s", "do": "delete_service_cidr", "name": "kubernetes"},
        {"at": "6s", "do": "create_service", "service": {"name": "x", "cluster_ip": "10.96.0.30"}},
        {"at": "30s", "expect": {"service_cidrs": [{"name": "kubernetes", "ready": false, "reason": "Terminating",
            "message": "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR",
            "deleting": true, "finalizers": ["networking.k8s.io/service-cidr-finalizer"]}]}},
        {"at": "40s", "do": "create_service_cidr", "service_cidr": {"name": "bigger", "cidrs": ["10.96.0.0/23"]}},
        {"at": "40s", "expect": {"absent": {"service_cidrs": [{"name": "kubernetes"}]}}},
    ]);
    let r = run("1.35", "10.96.0.0/24", json!({}), steps, "41s");
    assert!(r.expectations.iter().all(|e| e.passed), "{:?}", r.expectations);
    let refused = events(&r, "action_failed");
    assert_eq!(refused.len(), 1);
    assert!(refused[0].2.ends_with("failed to allocate IP 10.96.0.30: the provided network does not match the current range"), "a deleting ServiceCIDR takes no new IPAddress");
    // The apiservers recreate the default ServiceCIDR from their flags within 10 s.
    let st = state(&r);
    assert!(st["service_cidrs"].as_array().unwrap().iter().any(|c| c["name"] == "bigger"));
}

#[test]
fn an_unused_deleted_service_cidr_goes_ten_seconds_after_its_deletion() {
    let steps = json!([
        {"at": "1s", "do": "create_service_cidr", "service_cidr": {"name": "extra", "cidrs": ["10.97.0.0/24"]}},
        {"at": "2s", "do": "delete_service_cidr", "name": "extra"},
        {"at": "11999ms", "expect": {"service_cidrs": [{"name": "extra", "deleting": true}]}},
        {"at": "12001ms", "expect": {"absent": {"service_cidrs": [{"name": "extra"}]}}}]);
    let r = run("1.35", "10.96.0.0/24", json!({}), steps, "13s");
    assert!(r.expectations.iter().all(|e| e.passed), "{:?}", r.expectations);
}

#[test]
fn under_1_33_a_bit_leaked_in_the_unrepaired_bitmap_refuses_a_free_ip() {
    let steps = json!([
        {"at": "1s", "do": "corrupt", "what": "leak_cluster_ip", "ip": "10.96.0.10"},
        {"at": "10m", "do": "create_service", "service": {"name": "dns", "cluster_ip": "10.96.0.10"}}]);
    let r = run("1.33", "10.96.0.0/24", json!({}), steps, "11m");
    let refused = events(&r, "action_failed");
    assert_eq!(refused.len(), 1, "no repair loop ever cleared the bit");
    assert!(refused[0]
        .2
        .ends_with("failed to allocate IP 10.96.0.10: provided IP is already allocated"));
    let st = state(&r);
    assert!(!ip_names(&st).iter().any(|(ip, _)| ip == "10.96.0.10"), "no IPAddress holds it");
    let bitmap = &st["allocations"]["cluster_ip"][0];
    assert_eq!(
        bitmap["allocated"],
        json!(["10.96.0.1", "10.96.0.10"]),
        "dual-written, never repaired"
    );
    assert!(r.events.iter().any(|e| e.message.starts_with("kube-apiserver started with IP allocator and dual write enabled but bitmap allocator does not exist")));
    assert!(events(&r, "ClusterIPNotAllocated").is_empty());
}

#[test]
fn the_behaviours_refuse_what_they_do_not_have() {
    let parse = |v: Value| scenario::parse(&v.to_string()).map(|_| ()).unwrap_err();
    let base = |behavior: &str, extra: Value| {
        let mut s = json!({"behavior": behavior, "cluster": {"apiservers": [{"name": "a", "advertise_address": "192.168.10.11"}]}});
        s.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        s
    };
    assert!(parse(base(
        "1.29",
        json!({"initial": {"service_cidrs": [{"name": "x", "cidrs": ["10.0.0.0/24"]}]}})
    ))
    .starts_with("initial.service_cidrs:"));
    assert!(parse(base(
        "1.20",
        json!({"steps": [{"at": "1s", "do": "delete_service_cidr", "name": "kubernetes"}]})
    ))
    .starts_with("steps[0].do:"));
    assert!(parse(base("1.35", json!({"steps": [{"at": "1s", "do": "corrupt", "what": "leak_cluster_ip", "ip": "10.0.0.5"}]}))).starts_with("steps[0].what:"));
    assert!(scenario::parse(&base("1.33", json!({"steps": [{"at": "1s", "do": "corrupt", "what": "leak_cluster_ip", "ip": "10.0.0.5"}]})).to_string()).is_ok());
    let range = |behavior: &str, r: &str| {
        let b = behavior.parse().unwrap();
        k8s::options::parse_service_cluster_ip_range_for(r, b)
            .map(|_| ())
            .map_err(|e| format!("cluster.service_cluster_ip_range: {e}"))
    };
    assert!(range("1.33", "10.0.0.0/8").unwrap_err().contains("the mask must be >= 12"));
    assert!(range("1.35", "10.0.0.0/8").is_ok(), "no /12 ceiling from 1.34");
    assert_eq!(range("1.35", "fd00::/48").unwrap_err(),
        "cluster.service_cluster_ip_range: shortest allowed prefix length for service CIDR is 64, got 48");
    assert!(range("1.35", "fd00::/64").is_ok());
    assert!(parse(base(
        "1.35",
        json!({"initial": {"service_cidrs": [{"name": "x", "cidrs": []}]}})
    ))
    .contains("at least one CIDR required"));
}

#[test]
fn under_1_35_a_default_service_cidr_unlike_the_flags_is_left_alone_and_reported_once() {
    let initial = json!({"service_cidrs": [{"name": "kubernetes", "cidrs": ["10.100.0.0/24"]}]});
    let r = run("1.35", "10.96.0.0/24", initial.clone(), json!([]), "30s");
    let inconsistent = events(&r, "KubernetesDefaultServiceCIDRInconsistent");
    assert_eq!(inconsistent, vec![
        (0, "kubernetes".into(), "The default ServiceCIDR [10.100.0.0/24] does not match the controller flag configurations [10.96.0.0/24]".into()),
        (0, "kubernetes".into(), "The default ServiceCIDR [10.100.0.0/24] does not match the controller flag configurations [10.96.0.0/24]".into()),
    ], "once per apiserver");
    let st = state(&r);
    assert_eq!(st["service_cidrs"][0]["cidrs"], json!(["10.100.0.0/24"]), "never overwritten");
    let r33 = run("1.33", "10.96.0.0/24", initial, json!([]), "30s");
    assert!(events(&r33, "KubernetesDefaultServiceCIDRInconsistent").is_empty());
}

#[test]
fn endpoints_and_the_endpoint_slice_agree_in_the_new_behaviours() {
    let steps = json!([{"at": "30s", "do": "crash_apiserver", "apiserver": "apiserver-b"}]);
    for behavior in ["1.33", "1.35"] {
        let r = run(behavior, "10.96.0.0/24", json!({}), steps.clone(), "70s");
        let st = state(&r);
        let slice = &st["endpoint_slices"][0];
        assert_eq!(
            slice["endpoints"],
            json!([{"addresses": ["192.168.10.11"], "ready": true}]),
            "{behavior}"
        );
    }
}

#[test]
fn the_apiserver_sets_ready_then_kcm_reasserts_it_with_its_own_message() {
    // The apiserver creates `kubernetes` and sets Ready with its own message; once an apiserver
    // is ready (the same instant here), kube-controller-manager's service-cidr-controller adds
    // its finalizer and applies Ready=True with its own message (no reason). The apiservers'
    // later syncs, every 10 s, a second apiserver's start and a restart find Ready=True and
    // write nothing: KCM's message stays, as kubectl shows it.
    for behavior in ["1.33", "1.35"] {
        let s = scenario::parse(&json!({"behavior": behavior,
            "cluster": {"service_cluster_ip_range": "10.96.0.0/24",
                "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                               {"name": "apiserver-b", "advertise_address": "192.168.10.12", "start_at": "3s"}]},
            "steps": [{"at": "5s", "do": "stop_apiserver", "apiserver": "apiserver-a"},
                      {"at": "10s", "do": "start_apiserver", "apiserver": "apiserver-a"}],
            "until": "60s"}).to_string()).unwrap();
        let mut w = World::new(&s);
        w.record_wire();
        w.run_until(s.until_ms);
        let key = etcd::service_cidr_key("kubernetes");
        let mut writers: Vec<String> = Vec::new();
        for write in w.take_wire() {
            if write.key == key && write.op == WireOp::Put && writers.last() != Some(&write.sender)
            {
                writers.push(write.sender);
            }
        }
        assert_eq!(writers, ["apiserver-a", "kube-controller-manager"], "{behavior}");
        let st = w.state();
        let c = &st.service_cidrs[0];
        assert_eq!(
            (c.ready, c.reason.as_str(), c.message.as_str()),
            (Some(true), "", "Kubernetes Service CIDR is ready"),
            "{behavior}"
        );
    }
}

#[test]
fn kcm_reasserts_ready_on_every_live_service_cidr_and_not_on_a_deleting_one() {
    // A ServiceCIDR given with no condition, one created through the API, and the default one
    // given with the flags' CIDRs: all end with KCM's condition.
    let initial = json!({"service_cidrs": [{"name": "kubernetes", "cidrs": ["10.96.0.0/24"]},
        {"name": "old", "cidrs": ["10.97.0.0/24"]}]});
    let steps = json!([
        {"at": "1s", "do": "create_service_cidr", "service_cidr": {"name": "extra", "cidrs": ["10.98.0.0/24"]}},
        {"at": "2s", "do": "create_service", "service": {"name": "x", "cluster_ip": "10.98.0.5"}},
        {"at": "3s", "do": "delete_service_cidr", "name": "extra"},
        {"at": "4s", "expect": {"service_cidrs": [
            {"name": "kubernetes", "ready": true, "reason": "", "message": "Kubernetes Service CIDR is ready"},
            {"name": "old", "ready": true, "reason": "", "message": "Kubernetes Service CIDR is ready"},
            {"name": "extra", "ready": false, "reason": "Terminating", "deleting": true,
             "message": "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR"}]}}]);
    let r = run("1.35", "10.96.0.0/24", initial, steps, "5s");
    assert!(r.expectations.iter().all(|e| e.passed), "{:?}", r.expectations);
}

#[test]
fn a_deleted_ip_address_is_recreated_at_the_next_repair_interval_not_before() {
    // Upstream's IPAddress handler finds nothing to sync for a key that is gone; the Service
    // holding the IP is checked again at its resync, every repair_interval (3 min here), by
    // every apiserver: the first one due recreates it, the second finds it right.
    let s = |extra: Value| {
        let mut v = json!({"behavior": "1.35", "seed": 5,
            "cluster": {"service_cluster_ip_range": "10.96.0.0/24", "repair_interval": "3m",
                "apiservers": [{"name": "apiserver-a", "advertise_address": "192.168.10.11"},
                               {"name": "apiserver-b", "advertise_address": "192.168.10.12", "start_at": "20s"}]},
            "until": "200s"});
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        scenario::parse(&v.to_string()).unwrap()
    };
    let r = report::run(&s(json!({"steps": [
        {"at": "10s", "do": "create_service", "service": {"name": "web", "cluster_ip": "10.96.0.20"}},
        {"at": "60s", "do": "corrupt", "what": "delete_ip_address", "ip": "10.96.0.20"},
        {"at": "61s", "expect": {"absent": {"ip_addresses": [{"ip": "10.96.0.20"}]}}},
        {"at": "179999ms", "expect": {"absent": {"ip_addresses": [{"ip": "10.96.0.20"}]}}},
        {"at": "180001ms", "expect": {"ip_addresses": [{"ip": "10.96.0.20",
            "parent": {"namespace": "default", "name": "web"}}]}}]})));
    assert!(r.expectations.iter().all(|e| e.passed), "{:?}", r.expectations);
    assert_eq!(
        events(&r, "ClusterIPNotAllocated"),
        vec![(
            180_000,
            "default/web".into(),
            "Cluster IP [IPv4]: 10.96.0.20 is not allocated; repairing".into()
        )],
        "apiserver-a's resync at 3m; apiserver-b's at 3m20s finds it back"
    );
}
