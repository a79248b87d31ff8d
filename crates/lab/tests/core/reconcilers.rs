//! The endpoint reconcilers against a fake apiserver storage (`Fake`, which the endpoints
//! adapter's tests use too): the lease reconciler, `none` and the reconciler enum. The
//! master-count reconciler's tests are in `reconcilers_master_count.rs`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::{BTreeMap, BTreeSet};

use engine::contract::api::{
    Behavior, EndpointPort, EndpointSlice, EndpointSubset, Endpoints, Protocol,
};
use k8s::reconcilers::{
    ApiError, EndpointReconciler, LeaseReconciler, MasterCountReconciler, NoneReconciler,
    ReconcileError, Reconciler, ReconcilerApi, ReconcilerType, NO_LEASES_V1_20, NO_LEASES_V1_29,
    SKIP_MIRROR_LABEL,
};

pub(crate) const NAME: &str = "kubernetes";
pub(crate) const OWN: &str = "10.0.0.3";
pub(crate) const UNAVAILABLE: &str = "etcdserver: request timed out";

/// In-memory storage as one apiserver sees it (the endpoints adapter's tests use it too).
#[derive(Default)]
pub(crate) struct Fake {
    pub(crate) endpoints: BTreeMap<String, Endpoints>,
    /// EndpointSlices by `namespace/name`, so they list in namespace then name order.
    pub(crate) slices: BTreeMap<String, EndpointSlice>,
    /// Lease IPs; a BTreeSet lists them in key order, as etcd does.
    pub(crate) leases: BTreeSet<String>,
    pub(crate) log: Vec<String>,
    /// Every call fails as if etcd were unreachable.
    pub(crate) unavailable: bool,
    /// `list_leases` returns nothing although the keys exist (storage went wrong).
    pub(crate) lose_leases: bool,
    /// `get_endpoints` says NotFound, but another apiserver creates the object before us.
    pub(crate) race_create: bool,
    /// How many endpoint updates fail with Conflict before one succeeds.
    pub(crate) conflicts: usize,
    /// Successful and failed Endpoints writes, in order ("create"/"update").
    pub(crate) writes: Vec<&'static str>,
    /// Successful and failed EndpointSlice writes, in order: "create kubernetes",
    /// "update kubernetes", "delete kubernetes".
    pub(crate) slice_writes: Vec<String>,
}

impl Fake {
    pub(crate) fn with(leases: &[&str], endpoints: Option<Endpoints>) -> Self {
        Fake {
            leases: leases.iter().map(|s| s.to_string()).collect(),
            endpoints: endpoints.into_iter().map(|e| (e.name.clone(), e)).collect(),
            ..Fake::default()
        }
    }

    fn check(&self) -> Result<(), ApiError> {
        if self.unavailable {
            Err(ApiError::Unavailable(UNAVAILABLE.into()))
        } else {
            Ok(())
        }
    }

    pub(crate) fn ep(&self) -> &Endpoints {
        &self.endpoints[NAME]
    }

    /// The `default/kubernetes` slice.
    pub(crate) fn slice(&self) -> &EndpointSlice {
        &self.slices["default/kubernetes"]
    }

    pub(crate) fn addresses(&self) -> Vec<&str> {
        self.ep().subsets.iter().flat_map(|s| s.addresses.iter().map(String::as_str)).collect()
    }
}

impl ReconcilerApi for Fake {
    fn get_endpoints(&mut self, name: &str) -> Result<Endpoints, ApiError> {
        self.check()?;
        if self.race_create {
            return Err(ApiError::NotFound(format!("endpoints \"{name}\" not found")));
        }
        self.endpoints
            .get(name)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("endpoints \"{name}\" not found")))
    }

    fn create_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        self.check()?;
        self.writes.push("create");
        if self.race_create || self.endpoints.contains_key(&endpoints.name) {
            return Err(ApiError::AlreadyExists(format!(
                "endpoints \"{}\" already exists",
                endpoints.name
            )));
        }
        self.endpoints.insert(endpoints.name.clone(), endpoints.clone());
        Ok(())
    }

    fn update_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        self.check()?;
        self.writes.push("update");
        if self.conflicts > 0 {
            self.conflicts -= 1;
            return Err(ApiError::Conflict("the object has been modified".into()));
        }
        match self.endpoints.get_mut(&endpoints.name) {
            Some(e) => {
                *e = endpoints.clone();
                Ok(())
            }
            None => Err(ApiError::NotFound(format!("endpoints \"{}\" not found", endpoints.name))),
        }
    }

    fn get_endpoint_slice(
        &mut self,
        namespace: &str,
        name: &str,
        each: &mut dyn FnMut(&EndpointSlice),
    ) -> Result<(), ApiError> {
        self.check()?;
        match self.slices.get(&format!("{namespace}/{name}")) {
            Some(s) => {
                each(s);
                Ok(())
            }
            None => Err(ApiError::NotFound(format!(
                "endpointslices.discovery.k8s.io \"{name}\" not found"
            ))),
        }
    }

    fn create_endpoint_slice(&mut self, slice: &EndpointSlice) -> Result<(), ApiError> {
        self.check()?;
        self.slice_writes.push(format!("create {}", slice.name));
        if self.slices.contains_key(&slice.key()) {
            return Err(ApiError::AlreadyExists(format!(
                "endpointslices.discovery.k8s.io \"{}\" already exists",
                slice.name
            )));
        }
        self.slices.insert(slice.key(), slice.clone());
        Ok(())
    }

    fn update_endpoint_slice(&mut self, slice: &EndpointSlice) -> Result<(), ApiError> {
        self.check()?;
        self.slice_writes.push(format!("update {}", slice.name));
        match self.slices.get_mut(&slice.key()) {
            Some(s) => {
                *s = slice.clone();
                Ok(())
            }
            None => Err(ApiError::NotFound(format!(
                "endpointslices.discovery.k8s.io \"{}\" not found",
                slice.name
            ))),
        }
    }

    fn delete_endpoint_slice(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        self.check()?;
        self.slice_writes.push(format!("delete {name}"));
        match self.slices.remove(&format!("{namespace}/{name}")) {
            Some(_) => Ok(()),
            None => Err(ApiError::NotFound(format!(
                "endpointslices.discovery.k8s.io \"{name}\" not found"
            ))),
        }
    }

    fn list_leases(&mut self) -> Result<Vec<String>, ApiError> {
        self.check()?;
        Ok(if self.lose_leases { Vec::new() } else { self.leases.iter().cloned().collect() })
    }

    fn update_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        self.check()?;
        self.leases.insert(ip.to_string());
        Ok(())
    }

    fn remove_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        self.check()?;
        if self.leases.remove(ip) {
            Ok(())
        } else {
            Err(ApiError::NotFound(format!("key not found: /masterleases/{ip}")))
        }
    }

    fn log(&mut self, _kind: engine::contract::event::EventKind, line: String) {
        self.log.push(line);
    }
}

pub(crate) fn port(name: &str, port: i32) -> EndpointPort {
    EndpointPort { name: name.into(), port, protocol: Protocol::TCP }
}

pub(crate) fn https() -> Vec<EndpointPort> {
    vec![port("https", 6443)]
}

pub(crate) fn subset(ips: &[&str], ports: Vec<EndpointPort>) -> EndpointSubset {
    EndpointSubset {
        addresses: ips.iter().map(|s| s.to_string()).collect(),
        ports,
        ..EndpointSubset::default()
    }
}

/// `default/kubernetes` with the skip-mirror label and the given subsets.
pub(crate) fn eps(subsets: Vec<EndpointSubset>) -> Endpoints {
    Endpoints {
        namespace: "default".into(),
        name: NAME.into(),
        labels: BTreeMap::from([(SKIP_MIRROR_LABEL.to_string(), "true".to_string())]),
        subsets,
    }
}

pub(crate) fn lease(behavior: Behavior) -> EndpointReconciler {
    EndpointReconciler::new(ReconcilerType::Lease, 1, behavior)
}

pub(crate) fn master_count(count: u32) -> EndpointReconciler {
    EndpointReconciler::new(ReconcilerType::MasterCount, count, Behavior::V1_29)
}

pub(crate) fn reconcile(
    r: &mut EndpointReconciler,
    api: &mut Fake,
    reconcile_ports: bool,
) -> Result<(), ReconcileError> {
    r.reconcile_endpoints(api, NAME, OWN, &https(), reconcile_ports)
}

pub(crate) fn remove(r: &mut EndpointReconciler, api: &mut Fake) -> Result<(), ReconcileError> {
    r.remove_endpoints(api, NAME, OWN, &https())
}

fn lease_log(ips: &str) -> String {
    format!("Resetting endpoints for master service \"kubernetes\" to [{ips}]")
}

// ---------------------------------------------------------------------------------------------
// Lease reconciler

#[test]
fn lease_creates_missing_endpoints_with_ports_and_label() {
    for behavior in [Behavior::V1_20, Behavior::V1_29] {
        let mut api = Fake::with(&["10.0.0.1"], None);
        let mut r = lease(behavior);
        let ports = vec![port("https", 6443), port("extra", 8443)];
        r.reconcile_endpoints(&mut api, NAME, OWN, &ports, false).unwrap();
        // Our lease is refreshed first, so it is part of the new object.
        assert_eq!(api.leases, BTreeSet::from(["10.0.0.1".to_string(), OWN.to_string()]));
        assert_eq!(*api.ep(), eps(vec![subset(&["10.0.0.1", OWN], ports)]));
        assert_eq!(api.writes, ["create"]);
        assert_eq!(api.log, [lease_log("10.0.0.1 10.0.0.3")]);
    }
}

#[test]
fn lease_correct_endpoints_are_not_written() {
    // Address order does not matter for the check.
    let mut api =
        Fake::with(&["10.0.0.1", OWN], Some(eps(vec![subset(&[OWN, "10.0.0.1"], https())])));
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, true).unwrap();
    assert!(api.writes.is_empty());
    assert!(api.log.is_empty());
}

#[test]
fn lease_extra_and_missing_ips_follow_the_leases() {
    // An expired apiserver (10.0.0.9) is dropped; live ones are added, sorted by string bytes.
    let mut api = Fake::with(
        &["10.0.0.10", "10.0.0.2"],
        Some(eps(vec![subset(&[OWN, "10.0.0.9"], https())])),
    );
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.addresses(), ["10.0.0.10", "10.0.0.2", OWN]);
    assert_eq!(api.ep().subsets[0].ports, https());
    assert_eq!(api.writes, ["update"]);
    // Logged in lease (key) order, which is the same byte order.
    assert_eq!(api.log, [lease_log("10.0.0.10 10.0.0.2 10.0.0.3")]);

    // Duplicated addresses with the right count are also wrong.
    let mut api = Fake::with(&["10.0.0.1"], Some(eps(vec![subset(&[OWN, OWN], https())])));
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.addresses(), ["10.0.0.1", OWN]);
}

#[test]
fn lease_wrong_format_is_reset() {
    let two =
        eps(vec![subset(&[OWN], vec![port("a", 1)]), subset(&["10.0.0.1"], vec![port("b", 2)])]);
    let mut api = Fake::with(&["10.0.0.1"], Some(two));
    let mut r = lease(Behavior::V1_29);
    // Even with reconcile_ports false the rebuilt subset gets the given ports.
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&["10.0.0.1", OWN], https())]));

    // No subsets at all is a wrong format too.
    let mut api = Fake::with(&[], Some(eps(vec![])));
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[OWN], https())]));
}

#[test]
fn lease_ports_are_fixed_only_when_asked() {
    let wrong = eps(vec![subset(&[OWN], vec![port("https", 443)])]);
    let mut r = lease(Behavior::V1_29);

    // reconcile_ports false: wrong ports are never fixed, not even when the IPs are rewritten.
    let mut api = Fake::with(&[], Some(wrong.clone()));
    reconcile(&mut r, &mut api, false).unwrap();
    assert!(api.writes.is_empty());
    api.leases.insert("10.0.0.1".into());
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.ep().subsets, [subset(&["10.0.0.1", OWN], vec![port("https", 443)])]);

    // reconcile_ports true: fixed, order-sensitively.
    let mut api = Fake::with(&[], Some(wrong));
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(api.ep().subsets, [subset(&[OWN], https())]);
    let swapped = eps(vec![subset(&[OWN], vec![port("b", 2), port("a", 1)])]);
    let mut api = Fake::with(&[], Some(swapped));
    r.reconcile_endpoints(&mut api, NAME, OWN, &[port("a", 1), port("b", 2)], true).unwrap();
    assert_eq!(api.ep().subsets[0].ports, [port("a", 1), port("b", 2)]);
}

#[test]
fn lease_adds_the_skip_mirror_label() {
    let mut unlabelled = eps(vec![subset(&[OWN], https())]);
    unlabelled.labels = BTreeMap::from([("other".to_string(), "x".to_string())]);
    let mut api = Fake::with(&[], Some(unlabelled));
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(api.writes, ["update"]);
    assert_eq!(api.ep().labels.get(SKIP_MIRROR_LABEL).map(String::as_str), Some("true"));
    assert_eq!(api.ep().labels.get("other").map(String::as_str), Some("x"));
    assert_eq!(api.ep().subsets, [subset(&[OWN], https())]);
    assert_eq!(api.log, [lease_log(OWN)]);
}

#[test]
fn lease_refuses_to_erase_all_endpoints() {
    for (behavior, text) in [(Behavior::V1_29, NO_LEASES_V1_29), (Behavior::V1_20, NO_LEASES_V1_20)]
    {
        let before = eps(vec![subset(&["10.0.0.1", OWN], https())]);
        let mut api = Fake::with(&["10.0.0.1"], Some(before.clone()));
        api.lose_leases = true;
        let mut r = lease(behavior);
        let err = reconcile(&mut r, &mut api, false).unwrap_err();
        assert_eq!(err, ReconcileError::Refused(text.to_string()));
        assert_eq!(err.to_string(), text);
        assert!(!err.is_not_found());
        assert_eq!(*api.ep(), before);
        assert!(api.writes.is_empty() && api.log.is_empty());
    }
    assert_eq!(
        NO_LEASES_V1_29,
        "no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service"
    );
    assert_eq!(
        NO_LEASES_V1_20,
        "no master IPs were listed in storage, refusing to erase all endpoints for the kubernetes service"
    );
}

#[test]
fn lease_shutdown_of_one_of_several() {
    for behavior in [Behavior::V1_20, Behavior::V1_29] {
        let mut api =
            Fake::with(&["10.0.0.1", OWN], Some(eps(vec![subset(&["10.0.0.1", OWN], https())])));
        let mut r = lease(behavior);
        r.stop_reconciling();
        remove(&mut r, &mut api).unwrap();
        assert_eq!(api.leases, BTreeSet::from(["10.0.0.1".to_string()]));
        assert_eq!(*api.ep(), eps(vec![subset(&["10.0.0.1"], https())]));
        assert_eq!(api.log, [lease_log("10.0.0.1")]);
    }
}

#[test]
fn lease_shutdown_of_the_last_apiserver() {
    let last = eps(vec![subset(&[OWN], https())]);

    // 1.27+: the last apiserver leaves, and the Endpoints have no subsets.
    let mut api = Fake::with(&[OWN], Some(last.clone()));
    let mut r = lease(Behavior::V1_29);
    r.stop_reconciling();
    remove(&mut r, &mut api).unwrap();
    assert!(api.leases.is_empty());
    assert_eq!(*api.ep(), eps(vec![]));
    assert_eq!(api.log, [lease_log("")]);

    // ≤1.26: the refusal applies during shutdown too, so the last address stays.
    let mut api = Fake::with(&[OWN], Some(last.clone()));
    let mut r = lease(Behavior::V1_20);
    r.stop_reconciling();
    let err = remove(&mut r, &mut api).unwrap_err();
    assert_eq!(err.to_string(), NO_LEASES_V1_20);
    assert!(api.leases.is_empty(), "the lease is removed before the refusal");
    assert_eq!(*api.ep(), last);

    // Without StopReconciling first, 1.29 refuses as well.
    let mut api = Fake::with(&[OWN], Some(last.clone()));
    let mut r = lease(Behavior::V1_29);
    assert_eq!(remove(&mut r, &mut api).unwrap_err().to_string(), NO_LEASES_V1_29);
    assert_eq!(*api.ep(), last);
}

#[test]
fn lease_shutdown_with_no_endpoints_object() {
    // 1.27+: nothing to leave, nothing created.
    let mut api = Fake::with(&["10.0.0.1", OWN], None);
    let mut r = lease(Behavior::V1_29);
    r.stop_reconciling();
    remove(&mut r, &mut api).unwrap();
    assert!(api.endpoints.is_empty() && api.writes.is_empty());

    // ≤1.26: a stopping apiserver still creates it from the remaining leases.
    let mut api = Fake::with(&["10.0.0.1", OWN], None);
    let mut r = lease(Behavior::V1_20);
    r.stop_reconciling();
    remove(&mut r, &mut api).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&["10.0.0.1"], https())]));
}

#[test]
fn lease_remove_without_a_lease_is_not_found_and_does_not_reconcile() {
    // The Endpoints are stale (they still list 10.0.0.9), but nothing is written.
    let stale = eps(vec![subset(&[OWN, "10.0.0.9"], https())]);
    let mut api = Fake::with(&["10.0.0.1"], Some(stale.clone()));
    let mut r = lease(Behavior::V1_29);
    let err = remove(&mut r, &mut api).unwrap_err();
    assert!(err.is_not_found());
    assert!(matches!(err, ReconcileError::Api(ApiError::NotFound(_))));
    assert_eq!(*api.ep(), stale);
    assert!(api.writes.is_empty() && api.log.is_empty());
}

#[test]
fn lease_stop_reconciling_makes_reconcile_a_no_op() {
    let mut api = Fake::with(&["10.0.0.1"], None);
    let mut r = lease(Behavior::V1_29);
    assert!(!r.stopped());
    r.stop_reconciling();
    assert!(r.stopped());
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(api.leases, BTreeSet::from(["10.0.0.1".to_string()]), "our lease is not refreshed");
    assert!(api.endpoints.is_empty() && api.writes.is_empty() && api.log.is_empty());
}

#[test]
fn lease_storage_errors_are_returned() {
    let mut api = Fake::with(&[OWN], Some(eps(vec![subset(&[OWN], https())])));
    api.unavailable = true;
    let mut r = lease(Behavior::V1_29);
    let err = reconcile(&mut r, &mut api, false).unwrap_err();
    assert_eq!(err, ReconcileError::Api(ApiError::Unavailable(UNAVAILABLE.into())));
    assert_eq!(err.to_string(), UNAVAILABLE);
    assert_eq!(remove(&mut r, &mut api).unwrap_err().to_string(), UNAVAILABLE);
}

#[test]
fn lease_create_race_is_success() {
    let mut api = Fake::with(&[], None);
    api.race_create = true;
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.writes, ["create"]);
}

#[test]
fn lease_not_ready_addresses_are_kept() {
    // Only ready addresses are compared with the leases; a not-ready duplicate wins over ready.
    let mut e = eps(vec![subset(&["10.0.0.1"], https())]);
    e.subsets[0].not_ready_addresses = vec![OWN.into()];
    let mut api = Fake::with(&["10.0.0.1"], Some(e));
    let mut r = lease(Behavior::V1_29);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.ep().subsets[0].addresses, ["10.0.0.1"]);
    assert_eq!(api.ep().subsets[0].not_ready_addresses, [OWN]);
}

#[test]
fn lease_reconciler_stops_through_the_trait() {
    let mut r = LeaseReconciler::new(Behavior::V1_20);
    assert!(!r.stopped());
    let as_trait: &mut dyn Reconciler = &mut r;
    as_trait.stop_reconciling();
    assert!(r.stopped());
    assert_ne!(r, LeaseReconciler::new(Behavior::V1_20));
}

// ---------------------------------------------------------------------------------------------
// None and the enum

#[test]
fn none_does_nothing() {
    let before = eps(vec![subset(&["10.0.0.9"], vec![port("x", 1)])]);
    let mut api = Fake::with(&["10.0.0.9"], Some(before.clone()));
    let mut r = EndpointReconciler::new(ReconcilerType::None, 3, Behavior::V1_29);
    assert_eq!(r, EndpointReconciler::None(NoneReconciler));
    reconcile(&mut r, &mut api, true).unwrap();
    remove(&mut r, &mut api).unwrap();
    r.stop_reconciling();
    assert!(!r.stopped(), "none keeps no state");
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(*api.ep(), before);
    assert_eq!(api.leases.len(), 1);
    assert!(api.writes.is_empty() && api.log.is_empty());
}

#[test]
fn enum_construction_and_kind() {
    for kind in [ReconcilerType::Lease, ReconcilerType::MasterCount, ReconcilerType::None] {
        assert_eq!(EndpointReconciler::new(kind, 1, Behavior::V1_20).kind(), kind);
    }
    assert_eq!(
        EndpointReconciler::new(ReconcilerType::Lease, 5, Behavior::V1_20),
        EndpointReconciler::Lease(LeaseReconciler::new(Behavior::V1_20))
    );
    assert_eq!(
        EndpointReconciler::new(ReconcilerType::MasterCount, 5, Behavior::V1_20),
        EndpointReconciler::MasterCount(MasterCountReconciler::new(5))
    );
    assert_eq!(ReconcilerType::MasterCount.as_str(), "master-count");
}
