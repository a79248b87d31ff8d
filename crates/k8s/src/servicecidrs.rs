//! kube-controller-manager's `service-cidr-controller` (1.33+), after
//! `pkg/controller/servicecidrs/servicecidrs_controller.go`, run after every change to
//! ServiceCIDRs or IPAddresses and when a deletion's grace period ends.
//!
//! A live ServiceCIDR gets the finalizer and `Ready=True` with this controller's message,
//! `Kubernetes Service CIDR is ready` (no reason), whatever condition it had: the ServiceCIDR
//! `kubernetes`, which its apiserver marked ready with its own message, ends up with this one.
//! A deleted one lets go of its finalizer only when no IPAddress depends on it alone (or other
//! ServiceCIDRs cover all of it), and not before 10 s after its deletion, "so every apiserver's
//! allocator has stopped using it"; meanwhile it is not ready, `Terminating`. Upstream's work
//! queue is not modelled: a sync looks at every ServiceCIDR, and says when it wants to run again.

use crate::api::{IpAddress, ServiceCidr, SERVICE_CIDR_FINALIZER};
use crate::etcd::{self, Etcd, Value};
use crate::ipallocator::cidrallocator::within_any;

/// `deletionGracePeriod`.
pub const DELETION_GRACE_MS: u64 = 10_000;
/// The reason of the `Ready=False` condition of a deleted ServiceCIDR that IPAddresses still
/// depend on.
pub const TERMINATING: &str = "Terminating";
/// That condition's message.
pub const TERMINATING_MESSAGE: &str =
    "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR";
/// The message of the `Ready=True` condition this controller sets.
pub const READY_MESSAGE: &str = "Kubernetes Service CIDR is ready";

/// The controller. It keeps no state of its own between syncs: what it decides follows from the
/// ServiceCIDRs and IPAddresses it reads.
#[derive(Clone, Debug, Default)]
pub struct ServiceCidrsController;

impl ServiceCidrsController {
    /// One sync of every ServiceCIDR at `now`, written to `etcd`; the instants at which a
    /// deleted one's grace period ends, when the controller must look again.
    pub fn sync(&self, etcd: &mut Etcd, now: u64) -> Vec<u64> {
        let cidrs: Vec<ServiceCidr> = etcd.service_cidrs(now).into_iter().cloned().collect();
        // Only a deletion needs the IPAddresses.
        let addresses: Vec<IpAddress> = if cidrs.iter().any(|c| c.deleting) {
            etcd.ip_addresses(now).into_iter().cloned().collect()
        } else {
            Vec::new()
        };
        let mut again = Vec::new();
        for sc in &cidrs {
            let key = etcd::service_cidr_key(&sc.name);
            let mut next = sc.clone();
            if !sc.deleting {
                if !next.finalizers.iter().any(|f| f == SERVICE_CIDR_FINALIZER) {
                    next.finalizers.push(SERVICE_CIDR_FINALIZER.to_string());
                }
                // `updateConditionIfNeeded` compares status, reason and message, and applies
                // with Force: the apiserver's own message on `kubernetes` is replaced too.
                next.set_ready(true, "", READY_MESSAGE);
            } else if blocked(sc, &cidrs, &addresses) {
                next.set_ready(false, TERMINATING, TERMINATING_MESSAGE);
            } else {
                let due = sc.deleted_ms.unwrap_or(now) + DELETION_GRACE_MS;
                if now < due {
                    again.push(due);
                } else {
                    // The finalizer goes, and with it the object.
                    etcd.delete(&key, now);
                    continue;
                }
            }
            if &next != sc {
                etcd.put(&key, Value::ServiceCidr(next), None, now);
            }
        }
        again
    }
}

/// `canDeleteCIDR`'s negation: some CIDR of `sc` is not covered by another live ServiceCIDR,
/// and an allocator-made IPAddress lies in `sc` and in no other live ServiceCIDR.
fn blocked(sc: &ServiceCidr, all: &[ServiceCidr], addresses: &[IpAddress]) -> bool {
    let others: Vec<&ServiceCidr> =
        all.iter().filter(|o| o.name != sc.name && !o.deleting).collect();
    let covered = sc
        .prefixes()
        .iter()
        .all(|net| others.iter().flat_map(|o| o.prefixes()).any(|other| other.contains(net)));
    if covered {
        return false;
    }
    addresses
        .iter()
        .filter(|a| a.managed())
        .filter_map(IpAddress::address)
        .any(|ip| within_any(&[sc], ip) && !within_any(&others, ip))
}
