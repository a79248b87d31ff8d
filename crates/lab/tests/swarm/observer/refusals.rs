//! (f) Refusals are justified by storage: an "already allocated", "range is full" or "does not
//! match the current range" refusal follows from what etcd held before the request.

use std::net::IpAddr;

use engine::contract::api::{IpFamily, Service, ServiceCidr};
use engine::contract::event::{Event, EventKind};
use engine::contract::scenario::Action;
use k8s::ipallocator::cidrallocator;

use super::Observer;
use crate::violation::{fail, Ctx, Violation};

impl Observer {
    /// (f) An allocation refused as "already allocated" (or "full") must be refused because of
    /// what etcd holds. Upstream's storage-backed allocator (`allocator/storage/storage.go`,
    /// `tryUpdate`) reloads the bitmap from etcd whenever the stored object moved on since it
    /// last read it, before testing the bit, so no apiserver refuses an IP or port that etcd has
    /// free (kubernetes#85894 was exactly that bug).
    ///
    /// Under 1.33 and 1.35 a ClusterIP is held by its IPAddress object (1.33 also refuses an IP
    /// whose dual-written bit is set, even a stale one: kubernetes#136475); "range is full" means
    /// every ServiceCIDR that takes allocations has no address without an IPAddress (1.33: or
    /// one whose stale bit makes the dual write fail, after which the next CIDR is tried); "the
    /// provided network does not match the current range" means no such ServiceCIDR contains
    /// the requested IP.
    pub(super) fn check_refusals(
        &mut self,
        ctx: &Ctx,
        events: &[Event],
        now: u64,
    ) -> Result<(), Violation> {
        match ctx {
            Ctx::Act(Action::CreateService(c)) => {
                match events.iter().find(|e| e.kind == EventKind::ActionFailed) {
                    Some(failure) => self.check_create_refusal(&c.service, failure, now),
                    None => Ok(()),
                }
            }
            Ctx::Step(_) => self.check_kubernetes_service_refusals(events, now),
            _ => Ok(()),
        }
    }

    /// (f) A `create_service` action refused for an IP or port "already allocated", for an IP
    /// outside every ServiceCIDR that takes allocations, or for a full range: etcd held that IP
    /// or port before the action, no live ServiceCIDR contained the IP, or no free IP or
    /// enough free ports were left.
    fn check_create_refusal(
        &mut self,
        svc: &Service,
        failure: &Event,
        now: u64,
    ) -> Result<(), Violation> {
        let (msg, server) = (&failure.message, failure.apiserver.as_str());
        if msg.contains("provided IP is already allocated") {
            self.coverage.f_refusals_checked += 1;
            let ip: IpAddr = svc.cluster_ip.parse().expect("a refused IP was given");
            if !self.ip_held(ip) {
                return fail("(f) refusal", now, format!(
                    "{server} refused to create {} with cluster_ip {ip} ({msg:?}) but etcd does not hold {ip}",
                    svc.key()));
            }
        }
        if self.ipam_on && msg.contains("does not match the current range") {
            self.coverage.f_refusals_checked += 1;
            let ip: IpAddr = svc.cluster_ip.parse().expect("a refused IP was given");
            if self.ipam.in_live(ip) {
                return fail("(f) refusal", now, format!(
                    "{server} refused to create {} with cluster_ip {ip} ({msg:?}) but {ip} lies in a ServiceCIDR that takes allocations: {}",
                    svc.key(), self.ipam.cidr_names()));
            }
        }
        if msg.contains("provided port is already allocated") {
            self.coverage.f_refusals_checked += 1;
            let port = svc.ports[0].node_port;
            if !self.stored.ports.has(port) {
                return fail("(f) refusal", now, format!(
                    "{server} refused to create {} with node_port {port} ({msg:?}) but etcd does not hold {port}",
                    svc.key()));
            }
        }
        if self.ipam_on && msg.contains("failed to allocate a serviceIP: range is full") {
            self.coverage.f_refusals_checked += 1;
            if let Some(why) = self.free_cluster_ip() {
                return fail(
                    "(f) refusal",
                    now,
                    format!("{server} failed to create {} with {msg:?} but {why}", svc.key()),
                );
            }
        } else if msg.contains("failed to allocate a serviceIP: range is full") {
            self.coverage.f_refusals_checked += 1;
            if self.stored.ips.free() > 0 {
                return fail(
                    "(f) refusal",
                    now,
                    format!(
                    "{server} failed to create {} with {msg:?} but etcd has {} free service IPs",
                    svc.key(), self.stored.ips.free()),
                );
            }
        }
        if msg.contains("failed to allocate a nodePort: range is full") {
            self.coverage.f_refusals_checked += 1;
            // Earlier ports of the same Service may have taken the last free ones.
            if self.stored.ports.free() >= svc.ports.len() as i64 {
                return fail(
                    "(f) refusal",
                    now,
                    format!(
                        "{server} failed to create {} with {msg:?} but etcd has {} free node ports",
                        svc.key(),
                        self.stored.ports.free()
                    ),
                );
            }
        }
        Ok(())
    }

    /// (f) The kubernetes Service's recreation refused (`unable to sync kubernetes service`)
    /// because its IP lies in no live ServiceCIDR, or because its IP or node port is already
    /// allocated: etcd held that IP or port, or no live ServiceCIDR contained the IP.
    fn check_kubernetes_service_refusals(
        &mut self,
        events: &[Event],
        now: u64,
    ) -> Result<(), Violation> {
        for e in
            events.iter().filter(|e| e.message.starts_with("unable to sync kubernetes service"))
        {
            if self.ipam_on && e.message.contains("does not match the current range") {
                self.coverage.f_refusals_checked += 1;
                if self.ipam.in_live(self.kube_ip) {
                    return fail("(f) refusal", now, format!(
                        "{} could not recreate the kubernetes Service ({:?}) although {} lies in a ServiceCIDR that takes allocations: {}",
                        e.apiserver, e.message, self.kube_ip, self.ipam.cidr_names()));
                }
            }
            if e.message.contains("provided IP is already allocated") {
                self.coverage.f_refusals_checked += 1;
                if !self.ip_held(self.kube_ip) {
                    return fail("(f) refusal", now, format!(
                        "{} could not recreate the kubernetes Service ({:?}) although etcd does not hold {}",
                        e.apiserver, e.message, self.kube_ip));
                }
            }
            if e.message.contains("provided port is already allocated") {
                self.coverage.f_refusals_checked += 1;
                if !self.stored.ports.has(self.kube_node_port) {
                    return fail("(f) refusal", now, format!(
                        "{} could not recreate the kubernetes Service ({:?}) although etcd does not hold port {}",
                        e.apiserver, e.message, self.kube_node_port));
                }
            }
        }
        Ok(())
    }

    /// Whether etcd held `ip` before the current task or action: its bit (up to 1.33, where
    /// 1.33's dual-written bitmap still refuses a set bit) or its IPAddress (1.33+).
    fn ip_held(&self, ip: IpAddr) -> bool {
        let bit = self.behavior.cluster_ip_bitmap() && self.stored.ips.has(ip);
        bit || (self.ipam_on && self.ipam.addrs.contains_key(&ip))
    }

    /// 1.33+, before the current action: why a dynamic ClusterIP allocation must not have found
    /// the ranges full, if it must not. Each ServiceCIDR prefix that takes allocations is tried;
    /// it fails when every usable address has an IPAddress, or (1.33) when the first free one
    /// its scan meets has a stale bit in the dual-written bitmap, so one such bit in the prefix
    /// is enough to excuse it.
    fn free_cluster_ip(&self) -> Option<String> {
        let ipam = &self.ipam;
        let cidrs: Vec<&ServiceCidr> = ipam.cidrs.iter().collect();
        let family = IpFamily::of(&self.kube_ip);
        for item in cidrallocator::allocators(&cidrs, family).iter().filter(|i| i.ready) {
            let range = item.range;
            let held = ipam.addrs.keys().filter(|ip| range.contains(**ip)).count() as u128;
            if held >= range.size() {
                continue;
            }
            let stale_bit = self.behavior.cluster_ip_bitmap()
                && self
                    .stored
                    .ips
                    .iter()
                    .any(|ip| range.contains(ip) && !ipam.addrs.contains_key(&ip));
            if stale_bit {
                continue;
            }
            let free = (0..range.size())
                .map(|o| range.ip_at(o))
                .find(|ip| !ipam.addrs.contains_key(ip))
                .expect("fewer IPAddresses than addresses");
            return Some(format!(
                "{free} of {} (ServiceCIDRs {:?}) has no IPAddress ({held} of {} used)",
                range.net(),
                item.service_cidrs,
                range.size()
            ));
        }
        None
    }
}
