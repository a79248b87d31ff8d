//! The lease endpoint reconciler (`--endpoint-reconciler-type=lease`, the default), after
//! `pkg/controlplane/reconcilers/lease.go`.
//!
//! Every apiserver refreshes its own TTL'd key `/masterleases/<ip>` and then makes the Endpoints
//! equal to the set of unexpired keys. A dead apiserver stops refreshing, its key expires and the
//! next reconcile of any survivor drops it.

use super::{
    endpointsadapter, new_endpoints, ports_correct, set_skip_mirror_true, ApiError, ReconcileError,
    Reconciler, ReconcilerApi, NO_LEASES_V1_20, NO_LEASES_V1_29,
};
use crate::api::{Behavior, EndpointPort, EndpointSubset, Endpoints};
use crate::endpoints::repack_subsets;
use crate::event::EventKind;

/// `leaseEndpointReconciler`: refreshes this apiserver's lease, then makes the Endpoints list the
/// live leases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseReconciler {
    /// V1_20: the zero-leases refusal applies even during shutdown (so the last apiserver never
    /// removes itself). V1_29: the 1.28+ rules of PR #116685.
    behavior: Behavior,
    stop_reconciling_called: bool,
}

impl LeaseReconciler {
    /// `NewLeaseEndpointReconciler`, with the rules of `behavior`'s release.
    pub fn new(behavior: Behavior) -> Self {
        LeaseReconciler { behavior, stop_reconciling_called: false }
    }
}

impl Reconciler for LeaseReconciler {
    fn reconcile_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        ports: &[EndpointPort],
        reconcile_ports: bool,
    ) -> Result<(), ReconcileError> {
        if self.stop_reconciling_called {
            return Ok(());
        }
        // Refresh our own key first, whatever happens below, so that other apiservers keep us.
        api.update_lease(ip)?;
        self.do_reconcile(api, service_name, ports, reconcile_ports)
    }

    /// Removes our lease, then reconciles so that our address leaves the Endpoints now rather than
    /// when the others notice. A failed removal (NotFound included) returns before reconciling.
    fn remove_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        ports: &[EndpointPort],
    ) -> Result<(), ReconcileError> {
        api.remove_lease(ip)?;
        self.do_reconcile(api, service_name, ports, true)
    }

    fn stop_reconciling(&mut self) {
        self.stop_reconciling_called = true;
    }

    fn stopped(&self) -> bool {
        self.stop_reconciling_called
    }
}

impl LeaseReconciler {
    fn do_reconcile(
        &self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ports: &[EndpointPort],
        reconcile_ports: bool,
    ) -> Result<(), ReconcileError> {
        let stopping = self.stop_reconciling_called;
        let (mut e, should_create) = match api.get_endpoints(service_name) {
            Ok(e) => (e, false),
            // 1.28+: nothing to remove ourselves from during shutdown, so do not create it.
            Err(ApiError::NotFound(_)) if stopping && !self.behavior.legacy() => return Ok(()),
            Err(ApiError::NotFound(_)) => (new_endpoints(service_name), true),
            Err(err) => return Err(err.into()),
        };

        let lease_ips = api.list_leases()?;
        // We have just refreshed our own key, so zero leases means storage is wrong: do not erase
        // every endpoint. Since 1.28 a stopping apiserver goes on, so the last one can leave.
        if lease_ips.is_empty() {
            if self.behavior.legacy() {
                return Err(ReconcileError::Refused(NO_LEASES_V1_20.to_string()));
            }
            if !stopping {
                return Err(ReconcileError::Refused(NO_LEASES_V1_29.to_string()));
            }
        }

        let skip_mirror_changed = set_skip_mirror_true(&mut e);
        let (format_correct, ips_correct, ports_correct) =
            check_format_with_lease(&e, &lease_ips, ports, reconcile_ports);
        if !skip_mirror_changed && format_correct && ips_correct && ports_correct {
            // The Endpoints are right; the slice may still be missing or differ.
            return endpointsadapter::ensure_slice(api, &e).map_err(Into::into);
        }

        if !format_correct {
            // Egregiously wrong: start again from one subset with the given ports. This is also how
            // a new object gets its ports even when reconcile_ports is false.
            e.subsets = vec![EndpointSubset { ports: ports.to_vec(), ..EndpointSubset::default() }];
        }
        if !format_correct || !ips_correct {
            e.subsets[0].addresses = lease_ips.clone();
            // Sorts by IP string bytes; with zero leases (last apiserver stopping) the subset has
            // no addresses left and disappears, leaving no subsets at all.
            e.subsets = repack_subsets(&e.subsets);
        }
        // With zero leases the subset is gone: there are no ports to fix (1.28+ guards this too).
        if !ports_correct {
            if let Some(sub) = e.subsets.first_mut() {
                sub.ports = ports.to_vec();
            }
        }

        // Go's `%v` of a []string: `[a b c]`, in lease (key) order.
        api.log(
            EventKind::EndpointsReset { addresses: lease_ips.clone() },
            format!(
                "Resetting endpoints for master service {:?} to [{}]",
                service_name,
                lease_ips.join(" ")
            ),
        );
        if should_create {
            match endpointsadapter::create(api, &e) {
                // Another apiserver created it first: fine, the next round reconciles it.
                Err(ApiError::AlreadyExists(_)) => Ok(()),
                r => r.map_err(Into::into),
            }
        } else {
            endpointsadapter::update(api, &e).map_err(Into::into)
        }
    }
}

/// `checkEndpointSubsetFormatWithLease`: (format, ips, ports) correct. Format means exactly one
/// subset (otherwise all three are false); ips means the addresses are exactly the lease set, in
/// any order and without repeats.
fn check_format_with_lease(
    e: &Endpoints,
    lease_ips: &[String],
    ports: &[EndpointPort],
    reconcile_ports: bool,
) -> (bool, bool, bool) {
    let [sub] = e.subsets.as_slice() else {
        return (false, false, false);
    };
    let mut seen = vec![false; lease_ips.len()];
    let ips_correct = sub.addresses.len() == lease_ips.len()
        && sub.addresses.iter().all(|ip| match lease_ips.iter().position(|l| l == ip) {
            Some(i) if !seen[i] => {
                seen[i] = true;
                true
            }
            _ => false,
        });
    (true, ips_correct, ports_correct(sub, ports, reconcile_ports))
}
