//! The master-count endpoint reconciler (`--endpoint-reconciler-type=master-count`), after
//! `pkg/controlplane/reconcilers/instancecount.go` (formerly `mastercount.go`).
//!
//! No leases: every apiserver adds its own IP and, when there are more addresses than
//! `--apiserver-count`, drops the ones sorted just after its own. A dead apiserver is therefore
//! removed only when the list overflows, and only if every apiserver agrees on the count.

use super::{
    endpointsadapter, new_endpoints, ports_correct, set_skip_mirror_true, ApiError, ReconcileError,
    Reconciler, ReconcilerApi,
};
use crate::api::{EndpointPort, EndpointSubset, Endpoints};
use crate::endpoints::repack_subsets;
use crate::event::EventKind;

/// How many attempts `retry.RetryOnConflict(retry.DefaultBackoff, …)` makes (4 steps). The back-off
/// sleeps are not modelled: the attempts happen at the same instant.
const CONFLICT_ATTEMPTS: usize = 4;

/// `masterCountEndpointReconciler`: adds this apiserver's IP and trims the Endpoints to at most
/// `--apiserver-count` addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MasterCountReconciler {
    /// `--apiserver-count`.
    master_count: u32,
    stop_called: bool,
}

impl MasterCountReconciler {
    /// `NewMasterCountEndpointReconciler` for `--apiserver-count` = `master_count`.
    pub fn new(master_count: u32) -> Self {
        MasterCountReconciler { master_count, stop_called: false }
    }
}

impl Reconciler for MasterCountReconciler {
    fn reconcile_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        ports: &[EndpointPort],
        reconcile_ports: bool,
    ) -> Result<(), ReconcileError> {
        if self.stop_called {
            return Ok(());
        }
        let own_subset = || EndpointSubset {
            addresses: vec![ip.to_string()],
            ports: ports.to_vec(),
            ..EndpointSubset::default()
        };

        // Upstream starts from an empty object on *any* Get error; only NotFound creates. Another
        // error falls through to the "format incorrect" branch below and attempts an Update.
        let (mut e, not_found) = match api.get_endpoints(service_name) {
            Ok(e) => (e, false),
            Err(err) => (new_endpoints(service_name), matches!(err, ApiError::NotFound(_))),
        };
        let skip_mirror_changed = set_skip_mirror_true(&mut e);
        if not_found {
            e.subsets = vec![own_subset()];
            return endpointsadapter::create(api, &e).map_err(Into::into);
        }

        let (format_correct, ip_correct, ports_correct) =
            check_format(&e, ip, ports, self.master_count, reconcile_ports);
        if !format_correct {
            e.subsets = vec![own_subset()];
            api.log(reset_kind(&e), reset_line(service_name, &e));
            return endpointsadapter::update(api, &e).map_err(Into::into);
        }
        if !skip_mirror_changed && ip_correct && ports_correct {
            // The Endpoints are right; the slice may still be missing or differ.
            return endpointsadapter::ensure_slice(api, &e).map_err(Into::into);
        }

        if !ip_correct {
            // We always add our own IP, then sort and de-duplicate.
            e.subsets[0].addresses.push(ip.to_string());
            e.subsets = repack_subsets(&e.subsets);
            if let Some(sub) = e.subsets.first_mut() {
                trim_after(&mut sub.addresses, ip, self.master_count as usize);
            }
        }
        if !ports_correct {
            if let Some(sub) = e.subsets.first_mut() {
                sub.ports = ports.to_vec();
            }
        }
        api.log(reset_kind(&e), reset_line(service_name, &e));
        endpointsadapter::update(api, &e).map_err(Into::into)
    }

    /// Takes our IP out of the Endpoints. There is no refusal rule: the last apiserver leaves an
    /// Endpoints object with no subsets.
    fn remove_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        _ports: &[EndpointPort],
    ) -> Result<(), ReconcileError> {
        let mut e = match api.get_endpoints(service_name) {
            Ok(e) => e,
            Err(ApiError::NotFound(_)) => return Ok(()),
            Err(err) => return Err(err.into()),
        };
        if e.subsets.is_empty() {
            return Ok(());
        }
        e.subsets[0].addresses.retain(|a| a != ip);
        e.subsets = repack_subsets(&e.subsets);
        let mut result = Ok(());
        for _ in 0..CONFLICT_ATTEMPTS {
            result = endpointsadapter::update(api, &e);
            if !matches!(result, Err(ApiError::Conflict(_))) {
                break;
            }
        }
        result.map_err(Into::into)
    }

    fn stop_reconciling(&mut self) {
        self.stop_called = true;
    }

    fn stopped(&self) -> bool {
        self.stop_called
    }
}

/// `checkEndpointSubsetFormat`: (format, ip, ports) correct. Format means exactly one subset
/// (otherwise all false); ip means our IP is present and there are at most `count` addresses.
fn check_format(
    e: &Endpoints,
    ip: &str,
    ports: &[EndpointPort],
    count: u32,
    reconcile_ports: bool,
) -> (bool, bool, bool) {
    let [sub] = e.subsets.as_slice() else {
        return (false, false, false);
    };
    let ip_correct = sub.addresses.iter().any(|a| a == ip) && sub.addresses.len() <= count as usize;
    (true, ip_correct, ports_correct(sub, ports, reconcile_ports))
}

/// Shrinks the sorted `addrs` to `count` by deleting the addresses that follow `own`, wrapping to
/// the front. Faithful to upstream's quirk: the index `i` of our own IP is computed **once**, then
/// the element at `(i + 1) % current_len` is deleted repeatedly. After a wrap-around deletion at
/// index 0 everything shifts left, so `i` no longer points at our IP and later deletions can hit
/// addresses before ours, or ours itself (count 1, `[a, b, own, c]` → delete `c`, then `a`, then
/// `own` → `[b]`). The next reconcile re-adds our IP and the system still converges.
/// If our IP is not among the ready addresses (it was also not-ready), nothing is deleted.
fn trim_after(addrs: &mut Vec<String>, own: &str, count: usize) {
    if addrs.len() <= count {
        return;
    }
    let Some(i) = addrs.iter().position(|a| a == own) else {
        return;
    };
    while addrs.len() > count {
        let remove = (i + 1) % addrs.len();
        addrs.remove(remove);
    }
}

/// The kind of the reset line: the addresses the Endpoints now list.
fn reset_kind(e: &Endpoints) -> EventKind {
    EventKind::EndpointsReset {
        addresses: e.subsets.iter().flat_map(|s| s.addresses.iter().cloned()).collect(),
    }
}

/// The master-count reset log line. Upstream prints the whole object with Go's `%v`/`%#v`, which
/// is long and full of metadata; we print the fields we model in a Go `%+v`-like form instead:
/// `&Endpoints{Name:kubernetes Namespace:default Labels:map[k:v] Subsets:[{Addresses:[10.0.0.1]
/// NotReadyAddresses:[] Ports:[{Name:https Port:6443 Protocol:TCP}]}]}`. Labels come sorted (a
/// BTreeMap, like Go's sorted map printing), so the line is deterministic.
pub fn reset_line(service_name: &str, e: &Endpoints) -> String {
    format!("Resetting endpoints for master service {:?} to {}", service_name, go_endpoints(e))
}

fn go_endpoints(e: &Endpoints) -> String {
    let labels: Vec<String> = e.labels.iter().map(|(k, v)| format!("{k}:{v}")).collect();
    let subsets: Vec<String> = e
        .subsets
        .iter()
        .map(|s| {
            let ports: Vec<String> = s
                .ports
                .iter()
                .map(|p| format!("{{Name:{} Port:{} Protocol:{}}}", p.name, p.port, p.protocol))
                .collect();
            format!(
                "{{Addresses:[{}] NotReadyAddresses:[{}] Ports:[{}]}}",
                s.addresses.join(" "),
                s.not_ready_addresses.join(" "),
                ports.join(" ")
            )
        })
        .collect();
    format!(
        "&Endpoints{{Name:{} Namespace:{} Labels:map[{}] Subsets:[{}]}}",
        e.name,
        e.namespace,
        labels.join(" "),
        subsets.join(" ")
    )
}
