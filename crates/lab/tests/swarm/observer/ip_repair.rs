//! (g) Every Service ClusterIP has its IPAddress (1.33 and 1.35): each RepairIPAddress pass is
//! replayed and checked exactly, and after a clean pass, until a corruption of ClusterIPs or
//! IPAddresses, every ClusterIP in some ServiceCIDR has an IPAddress naming its Service.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;
use std::rc::Rc;

use engine::contract::api::{IpAddress, IpFamily, ParentReference, Service, LABEL_IP_FAMILY};
use engine::contract::event::Event;
use engine::contract::scenario::{Action, Corruption};
use engine::sim::world::{Stepped, TaskKind, World};
use k8s::api::KUBERNETES;
use k8s::repair::repairip::{self, IpAddressVerdict};

use super::Observer;
use crate::storage::{in_cidrs, Ipam};
use crate::violation::{describe, fail, Ctx, Violation};

impl Observer {
    /// (g) RepairIPAddress. A full pass (`runOnce`) runs at an apiserver's start instant once
    /// the ServiceCIDR `kubernetes` exists (the apiserver creates it there when it can reach
    /// etcd) and at every `Repair` task (`repair_interval`, the informers' resync). The pass is
    /// recognised where it certainly ran: a `Start` or `Repair` task (its `RepairRun` mark
    /// names the apiserver), the apiserver up and reaching etcd, the ServiceCIDR `kubernetes`
    /// there. (A first pass that waited for that ServiceCIDR and ran at a later
    /// default-ServiceCIDR sync is not recognised; the next resync is.)
    ///
    /// The pass is checked exactly (`check_pass`); then, if it found no ClusterIP held by two
    /// Services and left none without its IPAddress, the state is clean: until a corruption
    /// that touches Services' ClusterIPs or IPAddresses, every ClusterIP of every Service that
    /// lies in some ServiceCIDR must have an IPAddress naming that Service, after every task and
    /// action (`check_ip_addresses_steady`). API writes keep that (a create makes the IPAddress
    /// before it stores the Service and refuses an IP whose IPAddress exists, a delete removes
    /// only its own; a ServiceCIDR with an IPAddress only it contains cannot go) and the
    /// handlers only ever delete IPAddresses no Service holds. ClusterIPs that lay in no
    /// ServiceCIDR at the pass are exempt (a ServiceCIDR created since may cover them, and
    /// only the next resync gives them an IPAddress, as upstream: a ServiceCIDR has no
    /// handler in RepairIPAddress).
    pub(super) fn check_ip_repair(
        &mut self,
        world: &World,
        ctx: &Ctx,
        events: &[Event],
        after: &Rc<Ipam>,
        runners: &[&str],
    ) -> Result<(), Violation> {
        if !self.ipam_on {
            return Ok(());
        }
        let now = world.now();
        let corrupted = matches!(
            ctx,
            Ctx::Act(Action::Corrupt(
                Corruption::ForceClusterIp { .. }
                    | Corruption::PutIpAddress { .. }
                    | Corruption::DeleteIpAddress { .. },
            ))
        );
        // While clean, RepairIPAddress's handlers find nothing to repair on a Service: API
        // writes keep every ClusterIP's IPAddress (a repair there would hide an allocator
        // that forgot one). Passes may still give an exempt Service its IPAddress once a
        // ServiceCIDR covers it.
        let is_pass_task =
            matches!(ctx, Ctx::Step(s) if matches!(s.task, TaskKind::Start | TaskKind::Repair));
        if self.g_clean && !corrupted && !is_pass_task {
            let exempt = |svc: &str| self.g_exempt.values().any(|e| e.contains(svc));
            if let Some(e) = events.iter().find(|e| {
                e.component == repairip::COMPONENT
                    && matches!(
                        e.reason.as_str(),
                        "ClusterIPNotAllocated" | "ClusterIPAlreadyAllocated"
                    )
                    && !exempt(&e.object)
            }) {
                return fail("(g) IPAddresses", now, format!(
                    "after a clean RepairIPAddress pass and no corruption since, {} of {} had to repair {} ({:?}: {})",
                    describe(ctx), e.apiserver, e.object, e.reason, e.message));
            }
        }
        if corrupted {
            self.g_clean = false;
        }
        if let (Ctx::Step(stepped), [runner]) = (ctx, runners) {
            let before = self.ipam.clone();
            let up = world.apiservers().any(|a| a.spec.name == *runner && a.is_up());
            let pass = matches!(stepped.task, TaskKind::Start | TaskKind::Repair)
                && up
                && world.reachable(runner)
                && (before.has_kubernetes_cidr() || after.has_kubernetes_cidr());
            if pass {
                self.check_pass(now, stepped, runner, events, &before, after)?;
                return self.check_ip_addresses_steady(now, after);
            }
        }
        // Nothing it reads changed: the last verdict stands.
        if Rc::ptr_eq(&self.ipam, after) && !matches!(ctx, Ctx::Act(_)) {
            return Ok(());
        }
        self.check_ip_addresses_steady(now, after)
    }

    /// (g) One full RepairIPAddress pass, from the state before the task: `syncService` for
    /// every Service in key order (an IPAddress created for a ClusterIP without one,
    /// `ClusterIPNotAllocated`; recreated when it names no Service or a missing one, also
    /// `ClusterIPNotAllocated`; left to the other Service that holds the same IP,
    /// `ClusterIPAlreadyAllocated`; recreated silently when its labels are wrong;
    /// `ClusterIPOutOfRange` outside every ServiceCIDR), then `syncIPAddress` for every
    /// IPAddress the allocator labelled (deleted when it names no Service,
    /// `IPAddressNotAllocated`; when its Service is gone and it is at least 60 s old, the same;
    /// when its Service does not hold it, `IPAddressWrongReference`). The other apiservers'
    /// handlers then only see IPAddresses that changed, which changes nothing more. So the
    /// events and the IPAddresses after the task are exactly these; and every Service sharing
    /// a ClusterIP with another, except the one the IPAddress names, was reported.
    fn check_pass(
        &mut self,
        now: u64,
        stepped: &Stepped,
        runner: &str,
        events: &[Event],
        before: &Ipam,
        after: &Ipam,
    ) -> Result<(), Violation> {
        self.coverage.g_passes += 1;
        let mut pass = Pass::sync_services(now, before, after);
        pass.sync_ip_addresses(now, before);
        let (duplicates, holes) = check_duplicates_reported(now, stepped, events, before, &pass)?;
        check_pass_events(now, stepped, runner, events, before, &pass)?;
        check_pass_result(now, stepped, runner, after, &pass)?;
        self.coverage.g_duplicates += duplicates;
        // A ClusterIP left without an IPAddress: its IPAddress named another Service, which
        // exists but does not hold it, so `syncService` left it and `syncIPAddress` deleted it
        // (upstream too); only the next resync creates one. Not clean until then.
        self.g_clean = duplicates == 0 && holes.is_empty();
        self.g_exempt = pass.exempt;
        Ok(())
    }

    /// (g) After a clean pass and no corruption of ClusterIPs or IPAddresses since.
    fn check_ip_addresses_steady(&mut self, now: u64, after: &Ipam) -> Result<(), Violation> {
        if !self.g_clean {
            return Ok(());
        }
        self.coverage.g_checked += 1;
        for (ip, holders) in &after.holders {
            let exempt = self.g_exempt.get(ip);
            let held: Vec<&String> =
                holders.iter().filter(|h| !exempt.is_some_and(|e| e.contains(*h))).collect();
            if held.is_empty() || !after.in_any(*ip) {
                continue;
            }
            if holders.len() > 1 {
                return fail("(g) IPAddresses", now, format!(
                    "after a clean RepairIPAddress pass and no corruption since, cluster IP {ip} is held by {holders:?}"));
            }
            match after.addrs.get(ip) {
                Some(a) if names(a, held[0]) => {}
                Some(a) => {
                    return fail("(g) IPAddresses", now, format!(
                        "after a clean RepairIPAddress pass and no corruption since, {} holds cluster IP {ip} but IPAddress {ip} names {}",
                        held[0], a.parent));
                }
                None => {
                    return fail("(g) IPAddresses", now, format!(
                        "after a clean RepairIPAddress pass and no corruption since, {} holds cluster IP {ip}, which lies in {}, but there is no IPAddress {ip}",
                        held[0], after.cidr_names()));
                }
            }
        }
        Ok(())
    }
}

/// One RepairIPAddress pass replayed from the state before it: the IPAddresses it leaves, the
/// Warning events it records and the ClusterIPs it finds outside every ServiceCIDR.
struct Pass {
    /// The IPAddresses after the pass, by address.
    addrs: BTreeMap<IpAddr, IpAddress>,
    /// Its Warning events, as (reason, object).
    events: BTreeSet<(&'static str, String)>,
    /// ClusterIPs outside every ServiceCIDR the pass read, with the Services holding them.
    exempt: BTreeMap<IpAddr, BTreeSet<String>>,
}

impl Pass {
    /// `syncService` for every Service in key order, over the ServiceCIDRs the pass read: those
    /// before the task, and at a start instant the `kubernetes` one the apiserver has just
    /// created.
    fn sync_services(now: u64, before: &Ipam, after: &Ipam) -> Pass {
        let mut cidrs = before.cidrs.clone();
        if !before.has_kubernetes_cidr() {
            let created = after.cidrs.iter().filter(|c| c.name == KUBERNETES);
            cidrs.extend(created.cloned());
        }
        let mut pass =
            Pass { addrs: before.addrs.clone(), events: BTreeSet::new(), exempt: BTreeMap::new() };
        let (addrs, want, exempt) = (&mut pass.addrs, &mut pass.events, &mut pass.exempt);
        let fresh = |ip: IpAddr, svc: &Service| {
            IpAddress::allocated(ip, ParentReference::service(&svc.namespace, &svc.name), now)
        };
        for (key, svc) in &before.services {
            if !svc.is_ip_set() {
                continue;
            }
            for ip in svc.cluster_ips().iter().filter_map(|r| r.parse::<IpAddr>().ok()) {
                if !in_cidrs(cidrs.iter(), ip) {
                    want.insert(("ClusterIPOutOfRange", key.clone()));
                    exempt.entry(ip).or_default().insert(key.clone());
                    continue;
                }
                let Some(a) = addrs.get(&ip) else {
                    want.insert(("ClusterIPNotAllocated", key.clone()));
                    addrs.insert(ip, fresh(ip, svc));
                    continue;
                };
                let names_us = a.parent.namespace == svc.namespace && a.parent.name == svc.name;
                let other = (!names_us).then(|| before.parent(a)).flatten();
                if !a.parent.is_service() || (!names_us && other.is_none()) {
                    want.insert(("ClusterIPNotAllocated", key.clone()));
                    addrs.insert(ip, fresh(ip, svc));
                    continue;
                }
                if other.is_some_and(|o| o.cluster_ips().contains(&a.ip.as_str())) {
                    want.insert(("ClusterIPAlreadyAllocated", key.clone()));
                }
                if !labels_right(a) {
                    addrs.insert(ip, fresh(ip, svc));
                }
            }
        }
        pass
    }

    /// Then `syncIPAddress` for every IPAddress the allocator labelled, judged on the state
    /// before the task: deleted, with its event, unless it is justified or an orphan still in
    /// its grace period.
    fn sync_ip_addresses(&mut self, now: u64, before: &Ipam) {
        let listed: Vec<IpAddr> =
            self.addrs.iter().filter(|(_, a)| a.managed()).map(|(ip, _)| *ip).collect();
        for ip in listed {
            let a = &self.addrs[&ip];
            let reason = match before.verdict(a) {
                IpAddressVerdict::Unmanaged | IpAddressVerdict::Ok => continue,
                IpAddressVerdict::Orphan { deletable_at_ms } if (now as i64) < deletable_at_ms => {
                    continue
                }
                IpAddressVerdict::NotService | IpAddressVerdict::Orphan { .. } => {
                    "IPAddressNotAllocated"
                }
                IpAddressVerdict::WrongReference => "IPAddressWrongReference",
            };
            self.events.insert((reason, a.ip.clone()));
            self.addrs.remove(&ip);
        }
    }
}

/// (g) Every Service sharing a ClusterIP, except the one its IPAddress names after the pass,
/// was reported with `ClusterIPAlreadyAllocated`. Returns the number of ClusterIPs held twice
/// and the ClusterIPs (in some ServiceCIDR) the pass left without an IPAddress.
fn check_duplicates_reported(
    now: u64,
    stepped: &Stepped,
    events: &[Event],
    before: &Ipam,
    pass: &Pass,
) -> Result<(u64, Vec<String>), Violation> {
    let reported: BTreeSet<&str> = events
        .iter()
        .filter(|e| e.reason == "ClusterIPAlreadyAllocated")
        .map(|e| e.object.as_str())
        .collect();
    let mut duplicates = 0;
    let mut holes = Vec::new();
    for (ip, holders) in &before.holders {
        if pass.exempt.contains_key(ip) {
            continue;
        }
        let Some(owner) = pass.addrs.get(ip) else {
            holes.push(format!("{ip} of {holders:?}"));
            continue;
        };
        if holders.len() < 2 {
            continue;
        }
        duplicates += 1;
        for h in holders.iter().filter(|h| !names(owner, h)) {
            if !reported.contains(h.as_str()) {
                return fail("(g) repair pass", now, format!(
                    "{stepped}: {holders:?} all hold cluster IP {ip}, whose IPAddress names {}, but {h} was not reported with ClusterIPAlreadyAllocated",
                    owner.parent));
            }
        }
    }
    Ok((duplicates, holes))
}

/// (g) The pass's Warning events of RepairIPAddress are exactly the replayed ones.
fn check_pass_events(
    now: u64,
    stepped: &Stepped,
    runner: &str,
    events: &[Event],
    before: &Ipam,
    pass: &Pass,
) -> Result<(), Violation> {
    let want = &pass.events;
    let got: BTreeSet<(&str, String)> = events
        .iter()
        .filter(|e| e.type_ == "Warning" && e.component == repairip::COMPONENT)
        .map(|e| (e.reason.as_str(), e.object.clone()))
        .collect();
    if got != *want {
        return fail("(g) repair pass", now, format!(
            "{stepped} (RepairIPAddress of {runner}) recorded {got:?}; the Services, IPAddresses and ServiceCIDRs {} it read imply {want:?}",
            before.cidr_names()));
    }
    Ok(())
}

/// (g) The IPAddresses after the task are exactly those the replayed pass leaves.
fn check_pass_result(
    now: u64,
    stepped: &Stepped,
    runner: &str,
    after: &Ipam,
    pass: &Pass,
) -> Result<(), Violation> {
    let show = |m: &BTreeMap<IpAddr, IpAddress>| -> Vec<String> {
        m.values().map(|a| format!("{} -> {}", a.ip, a.parent)).collect()
    };
    if show(&pass.addrs) != show(&after.addrs) {
        return fail("(g) repair pass", now, format!(
            "after {stepped} (RepairIPAddress of {runner}) the IPAddresses are {:?}; the pass should leave {:?}",
            show(&after.addrs), show(&pass.addrs)));
    }
    Ok(())
}

/// `verifyIPAddressLabels`: made by the allocator, with the family label of its address.
fn labels_right(a: &IpAddress) -> bool {
    let family = a.address().map(|ip| IpFamily::of(&ip).to_string());
    a.managed() && a.labels.get(LABEL_IP_FAMILY).cloned() == family
}

/// `a` is the IPAddress of the Service `key` (its parent reference names it).
fn names(a: &IpAddress, key: &str) -> bool {
    a.parent.is_service() && a.parent.key() == key
}
