//! (b) The `kubernetes` Service exists, with ClusterIP network + 1 (and its type and NodePort),
//! within one endpoint interval of a deletion while an apiserver is ready, unless etcd holds its
//! IP or port for something else.

use engine::contract::api::{Behavior, Service, ServiceType};
use engine::sim::world::World;
use k8s::controlplane::READYZ_POLL_MS;

use super::Observer;
use crate::storage::{Ipam, Stored};
use crate::violation::{fail, known, Violation, B2_NAMESPACES_BEFORE_INFORMER_SYNC};

impl Observer {
    /// (b) While some apiserver is ready and has been for one endpoint interval (plus one readyz
    /// poll, 100 ms, for a fresh apiserver's first sync), the `kubernetes` Service exists with
    /// ClusterIP = network + 1: it may be missing for at most one interval after a deletion.
    /// Exception, as upstream: while etcd holds that IP (or the configured kubernetes NodePort)
    /// for something else — a user Service created or forced onto it, or a leaked bit —
    /// creation fails and every attempt logs `unable to sync kubernetes service`; the interval
    /// then counts from the moment the item was last seen held. Under 1.33 and 1.35 the IP is
    /// held by an IPAddress object (any parent), or (1.33) by a stale bit of the dual-written
    /// bitmap, and the Service cannot be created either while its IP lies in no ServiceCIDR that
    /// takes allocations (the ServiceCIDR `kubernetes` terminating or gone, and not yet
    /// recreated by the default-ServiceCIDR controller within its 10 s).
    pub(super) fn check_kubernetes_service(
        &mut self,
        world: &World,
        stored: &Stored,
        ipam: &Ipam,
        svc: Option<&Service>,
    ) -> Result<(), Violation> {
        let now = world.now();
        for a in world.apiservers() {
            let name = &a.spec.name;
            if world.ready(name) {
                if !self.ready_since.contains_key(name) {
                    self.ready_since.insert(name.clone(), now);
                }
            } else {
                self.ready_since.remove(name);
            }
        }
        if let Some(svc) = svc {
            if self.kube_missing_since.take().is_some() && now > 0 {
                self.coverage.b_recreated += 1;
            }
            self.kube_blocked_at = None;
            self.b2_blocked_at = None;
            let want_type = if self.kube_node_port > 0 {
                ServiceType::NodePort
            } else {
                ServiceType::ClusterIP
            };
            let ip = self.kube_ip.to_string();
            if svc.cluster_ip != ip || svc.cluster_ips != [ip.clone()] || svc.type_ != want_type {
                return fail("(b) kubernetes Service", now, format!(
                    "default/kubernetes has cluster_ip {:?} / cluster_ips {:?} / type {:?}; expected {ip} and {want_type:?}",
                    svc.cluster_ip, svc.cluster_ips, svc.type_));
            }
            if self.kube_node_port > 0
                && svc.ports.first().map(|p| p.node_port) != Some(self.kube_node_port)
            {
                return fail(
                    "(b) kubernetes Service",
                    now,
                    format!(
                        "default/kubernetes has ports {:?}; expected node port {}",
                        svc.ports, self.kube_node_port
                    ),
                );
            }
            return Ok(());
        }
        let missing_since = *self.kube_missing_since.get_or_insert(now);
        let bit = self.behavior.cluster_ip_bitmap() && stored.ips.has(self.kube_ip);
        let ip_blocked = bit
            || (self.ipam_on
                && (ipam.addrs.contains_key(&self.kube_ip) || !ipam.in_live(self.kube_ip)));
        let blocked =
            ip_blocked || (self.kube_node_port > 0 && stored.ports.has(self.kube_node_port));
        if blocked {
            self.kube_blocked_at = Some(now);
        }
        // B2 (known engine bug): under 1.29+ the `default` namespace should exist by the time an
        // apiserver is ready; while it is missing, creation fails with `namespaces "default" not found`.
        let namespace_missing = self.behavior != Behavior::V1_20
            && !world.etcd().namespaces(now).iter().any(|n| n == "default")
            && self.last_unable_to_sync_message.ends_with("namespaces \"default\" not found");
        if namespace_missing {
            self.b2_blocked_at = Some(now);
        }
        for (name, &since) in &self.ready_since {
            let from = since.max(missing_since);
            if now <= from + self.interval + READYZ_POLL_MS {
                continue;
            }
            self.coverage.b_checked += 1;
            if blocked {
                self.coverage.b_blocked += 1;
                if self.last_unable_to_sync.is_none_or(|t| t < from) {
                    return fail("(b) kubernetes Service", now, format!(
                        "default/kubernetes is missing since {missing_since}ms and etcd holds {} (or its node port), but no `unable to sync kubernetes service` was logged since {name} became ready at {since}ms",
                        self.kube_ip));
                }
                continue;
            }
            let from = from.max(self.kube_blocked_at.unwrap_or(0));
            if now <= from + self.interval + READYZ_POLL_MS {
                continue;
            }
            if namespace_missing {
                return known(B2_NAMESPACES_BEFORE_INFORMER_SYNC, "(b) kubernetes Service", now, format!(
                    "default/kubernetes is missing since {missing_since}ms while {name} has been ready since {since}ms, because namespace default does not exist ({:?})",
                    self.last_unable_to_sync_message));
            }
            // Once B2's missing namespace appears, creation follows within one interval.
            if now > from.max(self.b2_blocked_at.unwrap_or(0)) + self.interval + READYZ_POLL_MS {
                return fail("(b) kubernetes Service", now, format!(
                    "default/kubernetes is missing since {missing_since}ms (its ClusterIP free in etcd since {}ms at the latest) while {name} has been ready since {since}ms",
                    self.kube_blocked_at.unwrap_or(missing_since)));
            }
        }
        Ok(())
    }
}
