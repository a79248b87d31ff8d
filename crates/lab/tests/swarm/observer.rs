//! The observer: what the invariants follow from one task or action to the next, and
//! [`Observer::observe`], which runs every check after each. The checks live in one module per
//! invariant, each an `impl Observer` block: (a) and (c) `endpoints`, (b) `kubernetes_service`,
//! (d) and (e) `repair`, (f) `refusals`, and under 1.33 and 1.35 (g) `ip_repair`, (h) `orphans`,
//! (i) `service_cidrs`; (j) `endpoint_slice` in every behaviour once an EndpointSlice exists.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::rc::Rc;

use engine::contract::api::Behavior;
use engine::contract::event::EventKind;
use engine::sim::world::{MarkKind, World};
use k8s::api::KUBERNETES;
use k8s::controlplane::Status;
use k8s::ipallocator::Range;
use k8s::portallocator::PortAllocator;
use k8s::reconcilers::ReconcilerType;

use crate::storage::{Ipam, Owners, Stored};
use crate::violation::{Ctx, Violation};

mod endpoint_slice;
mod endpoints;
mod ip_repair;
mod kubernetes_service;
mod orphans;
mod refusals;
mod repair;
mod service_cidrs;

/// Per apiserver life: how many successful repair runs saw each item leaked (stored, no Service).
#[derive(Clone, Default)]
struct Sightings {
    epoch: u64,
    ips: BTreeMap<IpAddr, i32>,
    ports: BTreeMap<i32, i32>,
}

/// What changes the conditions (a) waits for: apiserver lives, statuses, readiness and
/// reachability, etcd availability and whether the `kubernetes` Service exists.
#[derive(Clone, PartialEq, Eq, Default)]
struct Signature {
    apiservers: Vec<(u64, Status, bool, bool)>,
    etcd_available: bool,
    kubernetes_service: bool,
}

/// How often each invariant was actually checked (summed over seeds, printed at the end).
#[derive(Default, Clone, Debug)]
pub(crate) struct Coverage {
    /// Observations at which (a) compared Endpoints, leases and ready apiservers.
    a_checked: u64,
    /// Observations at which (b) required the kubernetes Service (and of those, how many found
    /// its IP or port legitimately held, expecting `unable to sync kubernetes service`).
    b_checked: u64,
    b_blocked: u64,
    b_recreated: u64,
    /// 1.29 last-apiserver shutdowns that emptied the Endpoints (the (c) exception).
    c_emptied_at_shutdown: u64,
    /// Observations under (d)'s "clean" condition, and successful repair runs checked exactly.
    d_checked: u64,
    d_repairs: u64,
    /// Leak candidates followed by (e): kept within their grace, freed on the third sighting.
    e_leaks_kept: u64,
    e_leaks_freed: u64,
    /// Refusals (already allocated / full) checked against storage by (f).
    f_refusals_checked: u64,
    /// RepairIPAddress passes checked exactly by (g), observations under (g)'s clean
    /// condition, and ClusterIPs found held twice at a pass (and reported).
    g_passes: u64,
    g_checked: u64,
    g_duplicates: u64,
    /// IPAddresses followed by (h) while unjustified (no Service holds them), and how many of
    /// them went (or were justified again).
    h_tracked: u64,
    h_resolved: u64,
    /// Allocations checked by (i) to lie in a live ServiceCIDR, and terminating ServiceCIDRs
    /// checked by (i) when they went.
    i_allocations: u64,
    i_removals: u64,
    /// Endpoints rewrites at which (j) compared the EndpointSlice.
    j_checked: u64,
}

impl Coverage {
    pub(crate) fn add(&mut self, o: &Coverage) {
        self.a_checked += o.a_checked;
        self.b_checked += o.b_checked;
        self.b_blocked += o.b_blocked;
        self.b_recreated += o.b_recreated;
        self.c_emptied_at_shutdown += o.c_emptied_at_shutdown;
        self.d_checked += o.d_checked;
        self.d_repairs += o.d_repairs;
        self.e_leaks_kept += o.e_leaks_kept;
        self.e_leaks_freed += o.e_leaks_freed;
        self.f_refusals_checked += o.f_refusals_checked;
        self.g_passes += o.g_passes;
        self.g_checked += o.g_checked;
        self.g_duplicates += o.g_duplicates;
        self.h_tracked += o.h_tracked;
        self.h_resolved += o.h_resolved;
        self.i_allocations += o.i_allocations;
        self.i_removals += o.i_removals;
        self.j_checked += o.j_checked;
    }
}

/// The invariants' memory of one run: the world's constants, what the observer has seen so far
/// and the state each invariant follows.
pub(crate) struct Observer {
    behavior: Behavior,
    reconciler: ReconcilerType,
    interval: u64,
    ttl: u64,
    kube_ip: IpAddr,
    kube_node_port: i32,
    /// The configured ranges, to tell usable IPs / in-range ports.
    ip_range: Range,
    port_range: PortAllocator,

    events_seen: usize,
    marks_seen: usize,
    /// The action just applied was refused (`action_failed`).
    act_failed: bool,
    /// Storage and Service owners as they were before the current task or action.
    stored: Stored,
    owners: Rc<Owners>,

    // (a)
    signature: Signature,
    last_disturbance: u64,
    // (b)
    ready_since: BTreeMap<String, u64>,
    kube_missing_since: Option<u64>,
    kube_blocked_at: Option<u64>,
    b2_blocked_at: Option<u64>,
    last_unable_to_sync: Option<u64>,
    last_unable_to_sync_message: String,
    // (c)
    endpoints_empty: bool,
    leases_before: BTreeSet<String>,
    // (d)
    clean: bool,
    // (e)
    sightings: BTreeMap<String, Sightings>,
    // (f)–(i): 1.33 and 1.35, ClusterIPs as IPAddress objects.
    ipam_on: bool,
    repair_interval: u64,
    ipam: Rc<Ipam>,
    // (g)
    g_clean: bool,
    /// Service ClusterIPs outside every ServiceCIDR at the last clean pass, by IP.
    g_exempt: BTreeMap<IpAddr, BTreeSet<String>>,
    // (h)
    h_signature: Vec<(u64, Status, bool, bool)>,
    h_etcd: bool,
    h_disturbance: u64,
    /// Unjustified IPAddresses: creation time and since when (observed) unjustified.
    h_unjustified: BTreeMap<IpAddr, (i64, u64)>,

    pub(crate) coverage: Coverage,
    /// Violations classified as known engine bugs: they are counted and the run goes on.
    pub(crate) known_hits: BTreeMap<&'static str, u64>,
}

impl Observer {
    pub(crate) fn new(world: &World) -> Observer {
        let cfg = world.config();
        Observer {
            behavior: world.behavior(),
            reconciler: cfg.reconciler,
            interval: cfg.endpoint_interval_ms,
            ttl: cfg.lease_ttl_ms,
            kube_ip: cfg.service_ip_ranges.kubernetes_service_ip(),
            kube_node_port: cfg.kubernetes_service_node_port,
            ip_range: Range::new(cfg.service_ip_ranges.primary, world.behavior()),
            port_range: PortAllocator::new(cfg.node_ports, world.behavior()),
            events_seen: 0,
            marks_seen: 0,
            act_failed: false,
            stored: Stored::read(world, None),
            owners: Rc::new(Owners { fingerprint: vec![u64::MAX], ..Owners::default() }),
            signature: Signature::default(),
            last_disturbance: 0,
            ready_since: BTreeMap::new(),
            kube_missing_since: Some(0),
            kube_blocked_at: None,
            b2_blocked_at: None,
            last_unable_to_sync: None,
            last_unable_to_sync_message: String::new(),
            endpoints_empty: false,
            leases_before: BTreeSet::new(),
            clean: false,
            sightings: BTreeMap::new(),
            ipam_on: world.behavior().ip_addresses(),
            repair_interval: cfg.repair_interval_ms,
            ipam: Rc::new(Ipam { fingerprint: [u64::MAX; 4], ..Ipam::default() }),
            g_clean: false,
            g_exempt: BTreeMap::new(),
            h_signature: Vec::new(),
            h_etcd: true,
            h_disturbance: 0,
            h_unjustified: BTreeMap::new(),
            coverage: Coverage::default(),
            known_hits: BTreeMap::new(),
        }
    }

    /// Checks every invariant after one task or action; `self` holds the state from before it.
    pub(crate) fn observe(&mut self, world: &World, ctx: &Ctx) -> Result<(), Violation> {
        let now = world.now();
        let events = &world.events()[self.events_seen..];
        self.events_seen = world.events().len();
        // The simulation's own record names the apiserver of every repair run.
        let repair_runners: Vec<&str> = world.marks()[self.marks_seen..]
            .iter()
            .filter(|m| m.kind == MarkKind::RepairRun)
            .map(|m| m.subject.as_str())
            .collect();
        let starts: Vec<&str> = world.marks()[self.marks_seen..]
            .iter()
            .filter(|m| m.kind == MarkKind::Start)
            .map(|m| m.subject.as_str())
            .collect();
        let rewrote =
            world.marks()[self.marks_seen..].iter().any(|m| m.kind == MarkKind::EndpointsRewrite);
        self.marks_seen = world.marks().len();
        let stored = Stored::read(world, Some(&self.stored));
        let fingerprint = Owners::fingerprint(world);
        let services_changed = fingerprint != self.owners.fingerprint;
        let ipam = if !self.ipam_on {
            self.ipam.clone()
        } else {
            let f = Ipam::fingerprint(world);
            if f == self.ipam.fingerprint && !services_changed {
                self.ipam.clone()
            } else {
                Rc::new(Ipam::of(world, f))
            }
        };
        let owners = if !services_changed {
            self.owners.clone()
        } else {
            Rc::new(Owners::of(world, fingerprint, &self.ip_range, &self.port_range))
        };
        let kube_svc = world.etcd().service("default", KUBERNETES, now);
        self.act_failed = events.iter().any(|e| e.kind == EventKind::ActionFailed);
        if let Some(e) = events
            .iter()
            .rev()
            .find(|e| matches!(e.kind, EventKind::SyncFailed | EventKind::RefusedToEraseEndpoints))
        {
            self.last_unable_to_sync = Some(now);
            self.last_unable_to_sync_message = e.message.clone();
        }

        // Every check runs, so that a known engine bug does not hide the others.
        let results = [
            self.check_refusals(ctx, events, now),
            self.check_repair(world, ctx, events, &stored, &repair_runners),
            self.check_allocations(now, &stored, &owners),
            self.check_kubernetes_service(world, &stored, &ipam, kube_svc),
            self.check_endpoints(world, ctx, &starts, kube_svc.is_some()),
            self.check_ip_repair(world, ctx, events, &ipam, &repair_runners),
            self.check_orphans(world, ctx, &ipam),
            self.check_service_cidrs(world, ctx, &ipam),
            self.check_slice(world, rewrote),
        ];
        self.stored = stored;
        self.owners = owners;
        self.ipam = ipam;
        for v in results.into_iter().filter_map(Result::err) {
            match v.bug {
                Some(bug) => *self.known_hits.entry(bug).or_default() += 1,
                None => return Err(v),
            }
        }
        Ok(())
    }
}
