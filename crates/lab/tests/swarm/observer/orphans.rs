//! (h) No IPAddress outlives its Service (1.33 and 1.35): an unjustified IPAddress goes within
//! one repair interval (an orphan not before it is 60 s old) while the apiservers and etcd are
//! steady, and a Service deleted through the API takes its IPAddresses with it at once.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::rc::Rc;

use engine::contract::scenario::Action;
use engine::sim::world::World;
use k8s::repair::repairip::{self, IpAddressVerdict};

use super::Observer;
use crate::storage::Ipam;
use crate::violation::{fail, Ctx, Violation};

impl Observer {
    /// (h) An IPAddress the allocator labelled that no Service justifies — its parent is no
    /// Service, or its Service is gone, or does not hold its address — is deleted by
    /// RepairIPAddress: at once by its handler when it changes, else at the next resync, and an
    /// orphan not before it is 60 s old (then its handler asks to see it again when the grace
    /// period ends). So while some apiserver is ready (its first pass done, etcd reachable)
    /// with nothing disturbing the apiservers or etcd, no such IPAddress lives past
    /// `max(unjustified since + repair_interval, created + 60 s)`, counting from the last
    /// disturbance at the earliest (a crash, stop, start, isolation or outage, or a change of
    /// readiness, of any apiserver).
    pub(super) fn check_orphans(
        &mut self,
        world: &World,
        ctx: &Ctx,
        after: &Rc<Ipam>,
    ) -> Result<(), Violation> {
        if !self.ipam_on {
            return Ok(());
        }
        let now = world.now();
        // (a)'s signature, read this very observation, without the kubernetes Service.
        let signature = &self.signature;
        if signature.apiservers != self.h_signature || signature.etcd_available != self.h_etcd {
            self.h_signature = signature.apiservers.clone();
            self.h_etcd = signature.etcd_available;
            self.h_disturbance = now;
        }
        // A Service deleted through the API releases its ClusterIPs: each IPAddress goes in the
        // same request (`Release` finds an allocator for any ServiceCIDR containing the
        // address, terminating ones included, and deletes the object whatever it names).
        if let Ctx::Act(Action::DeleteService(o)) = ctx {
            let key = format!("{}/{}", o.namespace, o.name);
            let svc = self.ipam.services.get(&key).filter(|_| !self.act_failed);
            let ips: Vec<IpAddr> = svc
                .filter(|s| s.is_ip_set())
                .map(|s| s.cluster_ips().iter().filter_map(|r| r.parse().ok()).collect())
                .unwrap_or_default();
            for ip in ips {
                if self.ipam.in_any(ip) && after.addrs.contains_key(&ip) {
                    return fail(
                        "(h) release",
                        now,
                        format!(
                            "{key} was deleted but IPAddress {ip} ({}) is still there",
                            after.addrs[&ip].parent
                        ),
                    );
                }
            }
        }
        let mut next = BTreeMap::new();
        let unchanged = Rc::ptr_eq(&self.ipam, after);
        for (ip, a) in after.addrs.iter().filter(|_| !unchanged) {
            if matches!(after.verdict(a), IpAddressVerdict::Unmanaged | IpAddressVerdict::Ok) {
                continue;
            }
            let since = match self.h_unjustified.get(ip) {
                Some(&(created, since)) if created == a.created_ms => since,
                _ => {
                    self.coverage.h_tracked += 1;
                    now
                }
            };
            next.insert(*ip, (a.created_ms, since));
        }
        if !unchanged {
            let resolved = self.h_unjustified.keys().filter(|ip| !next.contains_key(ip)).count();
            self.coverage.h_resolved += resolved as u64;
            self.h_unjustified = next;
        }
        if !self.signature.apiservers.iter().any(|a| a.2) {
            return Ok(());
        }
        for (ip, &(created, since)) in &self.h_unjustified {
            let from = since.max(self.h_disturbance);
            let grace_end = (created + repairip::ORPHAN_GRACE_MS as i64).max(0) as u64;
            let deadline = (from + self.repair_interval).max(grace_end);
            if now > deadline {
                let a = &after.addrs[ip];
                return fail("(h) orphan IPAddress", now, format!(
                    "IPAddress {ip} (parent {}, created at {created}ms) is unjustified ({:?}) since {since}ms and still there, past {deadline}ms (apiservers steady since {}ms, repair interval {}ms)",
                    a.parent, after.verdict(a), self.h_disturbance, self.repair_interval));
            }
        }
        Ok(())
    }
}
