//! (i) ServiceCIDRs being deleted (1.33 and 1.35): every allocation lies in a ServiceCIDR that
//! takes allocations, and a ServiceCIDR with the finalizer goes only when no IPAddress depends
//! on it alone, and not before 10 s after its deletion.

use std::rc::Rc;

use engine::contract::api::ServiceCidr;
use engine::contract::scenario::Action;
use engine::sim::world::World;

use super::Observer;
use crate::storage::{in_cidrs, Ipam};
use crate::violation::{describe, fail, Ctx, Violation};

/// `service-cidr-controller`'s `deletionGracePeriod` (`world::servicecidrs_controller`, private).
const SERVICE_CIDR_DELETION_GRACE_MS: u64 = 10_000;

impl Observer {
    /// (i) An allocation (an IPAddress created for a Service that did not exist before the task
    /// or action: the API's create, or the kubernetes Service's) lies in a ServiceCIDR that
    /// takes allocations, so a deleting ServiceCIDR never receives one that lies only in it
    /// (RepairIPAddress may still recreate an existing Service's, as upstream). A deleting
    /// ServiceCIDR goes only when no IPAddress the allocator labelled lies in it and in no
    /// other ServiceCIDR that is not being deleted, and not before 10 s after its deletion.
    pub(super) fn check_service_cidrs(
        &mut self,
        world: &World,
        ctx: &Ctx,
        after: &Rc<Ipam>,
    ) -> Result<(), Violation> {
        if !self.ipam_on {
            return Ok(());
        }
        let now = world.now();
        let before = self.ipam.clone();
        if Rc::ptr_eq(&before, after) {
            return Ok(());
        }
        if !matches!(ctx, Ctx::Act(Action::Corrupt(_))) {
            for (ip, a) in &after.addrs {
                let old = before.addrs.get(ip);
                if old.is_some_and(|b| b.created_ms == a.created_ms && b.parent == a.parent)
                    || before.services.contains_key(&a.parent.key())
                {
                    continue;
                }
                self.coverage.i_allocations += 1;
                if !before.in_live(*ip) {
                    return fail("(i) allocation", now, format!(
                        "{}: IPAddress {ip} was created for {}, which did not exist before, but {ip} lies in no ServiceCIDR that takes allocations: {}",
                        describe(ctx), a.parent, before.cidr_names()));
                }
            }
        }
        // A ServiceCIDR with the finalizer can only go through `deleting` (possibly within
        // this very action); one without goes at once when deleted, as any object does.
        for gone in before.cidrs.iter().filter(|c| {
            (c.deleting || !c.finalizers.is_empty())
                && !after.cidrs.iter().any(|x| x.name == c.name)
        }) {
            self.coverage.i_removals += 1;
            let deleted = gone.deleted_ms.unwrap_or(now);
            if now < deleted + SERVICE_CIDR_DELETION_GRACE_MS {
                return fail("(i) ServiceCIDR removal", now, format!(
                    "ServiceCIDR {} {:?}, deleted at {deleted}ms, went at {now}ms, before its 10 s grace period ended ({})",
                    gone.name, gone.cidrs, describe(ctx)));
            }
            let others = after.cidrs.iter().filter(|c| !c.deleting);
            let others: Vec<&ServiceCidr> = others.collect();
            let alone = after.addrs.iter().find(|(ip, a)| {
                a.managed()
                    && in_cidrs(std::iter::once(gone), **ip)
                    && !in_cidrs(others.iter().copied(), **ip)
            });
            if let Some((ip, a)) = alone {
                return fail("(i) ServiceCIDR removal", now, format!(
                    "ServiceCIDR {} {:?} went ({}) while IPAddress {ip} ({}) lies in it and in no other live ServiceCIDR: {}",
                    gone.name, gone.cidrs, describe(ctx), a.parent, after.cidr_names()));
            }
        }
        Ok(())
    }
}
