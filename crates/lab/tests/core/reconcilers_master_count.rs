//! The master-count reconciler (`--endpoint-reconciler-type=master-count`) against the fake
//! apiserver storage of `reconcilers.rs`: it keeps up to `--apiserver-count` addresses, its own
//! first, and trims the one after its own when there are too many.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::reconcilers::{reset_line, ApiError, MasterCountReconciler, ReconcileError, Reconciler};

use crate::reconcilers::{
    eps, https, master_count, port, reconcile, remove, subset, Fake, NAME, OWN, UNAVAILABLE,
};

#[test]
fn master_count_creates_on_not_found() {
    let mut api = Fake::default();
    let mut r = master_count(3);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[OWN], https())]));
    assert_eq!(api.writes, ["create"]);
    // Upstream logs nothing on this path.
    assert!(api.log.is_empty());
    assert!(api.leases.is_empty(), "master-count uses no leases");
}

#[test]
fn master_count_appends_own_ip() {
    let mut api = Fake::with(&[], Some(eps(vec![subset(&["10.0.0.9"], https())])));
    let mut r = master_count(3);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.addresses(), [OWN, "10.0.0.9"]);
    assert_eq!(
        api.log,
        ["Resetting endpoints for master service \"kubernetes\" to &Endpoints{Name:kubernetes Namespace:default \
          Labels:map[endpointslice.kubernetes.io/skip-mirror:true] Subsets:[{Addresses:[10.0.0.3 10.0.0.9] \
          NotReadyAddresses:[] Ports:[{Name:https Port:6443 Protocol:TCP}]}]}"]
    );
    assert_eq!(api.log[0], reset_line(NAME, api.ep()));

    // Now correct: no write, no log.
    api.writes.clear();
    reconcile(&mut r, &mut api, true).unwrap();
    assert!(api.writes.is_empty());
    assert_eq!(api.log.len(), 1);
}

#[test]
fn master_count_correct_but_unlabelled_is_updated() {
    let mut e = eps(vec![subset(&[OWN], https())]);
    e.labels.clear();
    let mut api = Fake::with(&[], Some(e));
    let mut r = master_count(1);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[OWN], https())]));
    assert_eq!(api.writes, ["update"]);
}

/// Existing ready addresses → addresses after one reconcile of `OWN` (10.0.0.3) with `count`.
fn trimmed(count: u32, existing: &[&str]) -> Vec<String> {
    let mut api = Fake::with(&[], Some(eps(vec![subset(existing, https())])));
    reconcile(&mut master_count(count), &mut api, false).unwrap();
    api.ep().subsets.iter().flat_map(|s| s.addresses.clone()).collect()
}

#[test]
fn master_count_trims_the_addresses_after_its_own() {
    // Sorted [1, 2, own, 4]: delete the one after ours.
    assert_eq!(trimmed(3, &["10.0.0.1", "10.0.0.2", "10.0.0.4"]), ["10.0.0.1", "10.0.0.2", OWN]);
    // Ours is last: wrap around and delete the first.
    assert_eq!(trimmed(2, &["10.0.0.1", "10.0.0.2"]), ["10.0.0.2", OWN]);
    // Two after ours, no wrap needed.
    assert_eq!(trimmed(2, &["10.0.0.1", "10.0.0.4", "10.0.0.5"]), ["10.0.0.1", OWN]);
    // Own IP already present but too many addresses.
    assert_eq!(trimmed(2, &["10.0.0.1", OWN, "10.0.0.4"]), ["10.0.0.1", OWN]);
    // String order, not numeric: 10.0.0.30 sorts right after 10.0.0.3.
    assert_eq!(trimmed(2, &["10.0.0.30", "10.0.0.4"]), [OWN, "10.0.0.4"]);
}

#[test]
fn master_count_trimming_quirk_after_wrap_around() {
    // count 2, sorted [1, 2, 2.5, own, 4]: intended [2.5, own]; the stale index deletes 4, then 1
    // (wrap), then 2.5 (before ours).
    assert_eq!(trimmed(2, &["10.0.0.1", "10.0.0.2", "10.0.0.25", "10.0.0.4"]), ["10.0.0.2", OWN]);

    // count 1, sorted [a, b, own, c] → [b]: our own IP is deleted.
    let mut api =
        Fake::with(&[], Some(eps(vec![subset(&["10.0.0.1", "10.0.0.2", "10.0.0.4"], https())])));
    let mut r = master_count(1);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.addresses(), ["10.0.0.2"]);
    // The next round re-adds ours, wraps and converges.
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(api.addresses(), [OWN]);
}

#[test]
fn master_count_wrong_format_is_reset() {
    let two = eps(vec![subset(&["10.0.0.1"], https()), subset(&["10.0.0.2"], vec![port("x", 1)])]);
    let mut api = Fake::with(&[], Some(two));
    let mut r = master_count(3);
    reconcile(&mut r, &mut api, false).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&[OWN], https())]));
    assert_eq!(api.writes, ["update"]);
    assert_eq!(
        api.log,
        ["Resetting endpoints for master service \"kubernetes\" to &Endpoints{Name:kubernetes Namespace:default \
          Labels:map[endpointslice.kubernetes.io/skip-mirror:true] Subsets:[{Addresses:[10.0.0.3] \
          NotReadyAddresses:[] Ports:[{Name:https Port:6443 Protocol:TCP}]}]}"]
    );
}

#[test]
fn master_count_ports_are_fixed_only_when_asked() {
    let wrong = eps(vec![subset(&[OWN], vec![port("https", 443)])]);
    let mut r = master_count(1);
    let mut api = Fake::with(&[], Some(wrong.clone()));
    reconcile(&mut r, &mut api, false).unwrap();
    assert!(api.writes.is_empty());
    let mut api = Fake::with(&[], Some(wrong));
    reconcile(&mut r, &mut api, true).unwrap();
    assert_eq!(api.ep().subsets, [subset(&[OWN], https())]);
}

#[test]
fn master_count_get_error_attempts_an_update() {
    let mut api = Fake::with(&[], Some(eps(vec![subset(&[OWN], https())])));
    api.unavailable = true;
    let mut r = master_count(1);
    let err = reconcile(&mut r, &mut api, false).unwrap_err();
    assert_eq!(err.to_string(), UNAVAILABLE);
    // The "format incorrect" branch logged its reset of an empty object before the Update failed.
    assert_eq!(api.log.len(), 1);
    assert!(api.log[0].contains("Subsets:[{Addresses:[10.0.0.3]"));
}

#[test]
fn master_count_stop_reconciling_makes_reconcile_a_no_op() {
    let mut api = Fake::default();
    let mut r = master_count(1);
    r.stop_reconciling();
    assert!(r.stopped());
    reconcile(&mut r, &mut api, false).unwrap();
    assert!(api.endpoints.is_empty() && api.writes.is_empty());
}

#[test]
fn master_count_remove() {
    let mut r = master_count(2);
    r.stop_reconciling();

    let mut api = Fake::with(&[], Some(eps(vec![subset(&["10.0.0.1", OWN], https())])));
    remove(&mut r, &mut api).unwrap();
    assert_eq!(*api.ep(), eps(vec![subset(&["10.0.0.1"], https())]));

    // The last one leaves no subsets: there is no refusal rule.
    let mut api = Fake::with(&[], Some(eps(vec![subset(&[OWN], https())])));
    remove(&mut r, &mut api).unwrap();
    assert_eq!(*api.ep(), eps(vec![]));

    // Missing object: success, nothing written (so the bootstrap controller logs "stale data").
    let mut api = Fake::default();
    remove(&mut r, &mut api).unwrap();
    assert!(api.endpoints.is_empty() && api.writes.is_empty());

    // No subsets: nothing to do.
    let mut api = Fake::with(&[], Some(eps(vec![])));
    remove(&mut r, &mut api).unwrap();
    assert!(api.writes.is_empty());

    // Other Get errors are returned.
    let mut api = Fake::with(&[], Some(eps(vec![subset(&[OWN], https())])));
    api.unavailable = true;
    assert_eq!(remove(&mut r, &mut api).unwrap_err().to_string(), UNAVAILABLE);
}

#[test]
fn master_count_remove_retries_conflicts() {
    let mut r = master_count(2);
    let mut api = Fake::with(&[], Some(eps(vec![subset(&["10.0.0.1", OWN], https())])));
    api.conflicts = 3;
    remove(&mut r, &mut api).unwrap();
    assert_eq!(api.writes, ["update"; 4]);
    assert_eq!(api.addresses(), ["10.0.0.1"]);

    let mut api = Fake::with(&[], Some(eps(vec![subset(&["10.0.0.1", OWN], https())])));
    api.conflicts = 4;
    let err = remove(&mut r, &mut api).unwrap_err();
    assert!(matches!(err, ReconcileError::Api(ApiError::Conflict(_))));
    assert_eq!(api.writes.len(), 4);
}

#[test]
fn master_count_reconciler_state() {
    let mut r = MasterCountReconciler::new(3);
    assert_ne!(r, MasterCountReconciler::new(2), "the count is part of its state");
    assert!(!r.stopped());
    r.stop_reconciling();
    assert!(r.stopped());
}
