//! (d) and (e): what a repair run writes. A successful bitmap repair run stores exactly the
//! Services' items plus the leaks still in their grace and records exactly the events they
//! imply; a leaked item is kept by the first two runs of an apiserver that see it and freed by
//! the third; after a clean run and no corruption since, storage covers every Service.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

use engine::contract::api::Behavior;
use engine::contract::event::Event;
use engine::contract::scenario::Action;
use engine::sim::world::{Stepped, TaskKind, World};
use k8s::allocator::{Allocator, ItemRange};
use k8s::repair::NUM_REPAIRS_BEFORE_LEAK_CLEANUP;

use super::{Coverage, Observer, Sightings};
use crate::storage::{Owners, Stored};
use crate::violation::{fail, Ctx, Violation};

impl Observer {
    /// After a successful repair run (a `Repair` or `Start` task that rewrote the allocation
    /// objects), etcd must hold exactly the usable IPs / in-range ports of the Services the run
    /// listed plus the leak candidates still within their grace (d). A leak candidate — an item
    /// stored for no Service — is kept by the first and second run of an apiserver that sees it
    /// and freed by its third (e, `numRepairsBeforeLeakCleanup = 3`). Counts are per apiserver
    /// process (a crash or restart starts from zero); a run that sees a Service holding the item
    /// forgets it; a failed run (etcd unreachable) sees nothing. After the third sighting the
    /// count stays at zero upstream, so every later sighting frees the item at once.
    ///
    /// Under 1.33 and 1.35 only the NodePort halves apply: no bitmap repair runs for ClusterIPs
    /// (1.33 still writes its bitmap on every allocation and release, and creates an empty one
    /// at start when none is stored, but nobody repairs it); RepairIPAddress is (g)'s.
    pub(super) fn check_repair(
        &mut self,
        world: &World,
        ctx: &Ctx,
        events: &[Event],
        stored: &Stored,
        runners: &[&str],
    ) -> Result<(), Violation> {
        let now = world.now();
        self.start_new_lives(world);
        if let Ctx::Act(Action::Corrupt(_)) = ctx {
            self.clean = false;
        }
        let Ctx::Step(stepped) = ctx else {
            return Ok(());
        };
        let is_start = stepped.task == TaskKind::Start;
        if !(is_start || stepped.task == TaskKind::Repair) {
            return Ok(());
        }
        let ipam = self.ipam_on;
        let ip_written = stored.ip_rev != self.stored.ip_rev && !ipam;
        let port_written = stored.port_rev != self.stored.port_rev;
        if !ip_written && !port_written {
            return Ok(()); // the run failed, or the apiserver died at start
        }
        if ip_written != port_written && !ipam {
            return fail("(d) repair", now, format!(
                "{} wrote only one allocation object (service IPs: {ip_written}, node ports: {port_written})", stepped));
        }
        let [runner] = runners else {
            return fail(
                "(e) leak",
                now,
                format!("{} rewrote the allocations but marks name runners {runners:?}", stepped),
            );
        };
        self.coverage.d_repairs += 1;
        // 1.20's Start() runs RunOnce synchronously, then starts the loop, whose first run is
        // immediate: two runs at the start instant.
        let runs = if is_start && self.behavior == Behavior::V1_20 { 2 } else { 1 };
        let owners = self.owners.clone();
        let run = Run { now, runner, runs };
        let s = self.sightings.get_mut(*runner).expect("every apiserver has an entry");
        let coverage = &mut self.coverage;
        // Under 1.33 and 1.35 nobody repairs the ClusterIP bitmap: no IP half.
        let expect_ips = if ipam {
            BTreeSet::new()
        } else {
            let ips = Half {
                label: "cluster IP",
                sightings: &mut s.ips,
                owners: &owners.ips,
                before: &*self.stored.ips,
                after: &*stored.ips,
            };
            run.check_leaks(ips, coverage)?
        };
        let ports = Half {
            label: "node port",
            sightings: &mut s.ports,
            owners: &owners.ports,
            before: &*self.stored.ports,
            after: &*stored.ports,
        };
        let expect_ports = run.check_leaks(ports, coverage)?;
        self.check_repair_events(now, stepped, runner, events, &owners)?;
        self.check_repair_result(now, stepped, runner, stored, &expect_ips, &expect_ports)?;
        // From here until the next corruption, storage must stay consistent with the Services —
        // unless this run found Services sharing an item: repair only reports those ("please
        // recreate service"), and they stay until one of the Services goes.
        self.clean = owners.duplicates().iter().all(|d| ipam && d.starts_with("IP "));
        Ok(())
    }

    /// (e) A new life of an apiserver (start, crash, stop) has fresh repair controllers: its
    /// sightings start from zero.
    fn start_new_lives(&mut self, world: &World) {
        for a in world.apiservers() {
            match self.sightings.get_mut(&a.spec.name) {
                Some(s) if s.epoch == a.epoch => {}
                Some(s) => *s = Sightings { epoch: a.epoch, ..Sightings::default() },
                None => {
                    self.sightings.insert(
                        a.spec.name.clone(),
                        Sightings { epoch: a.epoch, ..Sightings::default() },
                    );
                }
            }
        }
    }

    /// (d) The run's events: exactly what the listed Services imply, in Kubernetes' terms.
    /// The first holder of an item (in list order: namespace, then name) keeps it; it gets
    /// `...NotAllocated` when storage lacked the item, later holders `...AlreadyAllocated`;
    /// items outside the range get `...OutOfRange`. (1.20's two runs at start repeat only the
    /// duplicate and out-of-range reports; sets make that invisible.)
    fn check_repair_events(
        &self,
        now: u64,
        stepped: &Stepped,
        runner: &str,
        events: &[Event],
        owners: &Owners,
    ) -> Result<(), Violation> {
        let ipam = self.ipam_on;
        let mut want: BTreeSet<(&str, String)> = BTreeSet::new();
        for (ip, holders) in owners.ips.iter().filter(|_| !ipam) {
            if !self.stored.ips.has(*ip) {
                want.insert(("ClusterIPNotAllocated", holders[0].clone()));
            }
            want.extend(holders[1..].iter().map(|h| ("ClusterIPAlreadyAllocated", h.clone())));
        }
        want.extend(
            owners
                .ips_out_of_range
                .iter()
                .filter(|_| !ipam)
                .map(|h| ("ClusterIPOutOfRange", h.clone())),
        );
        for (p, holders) in &owners.ports {
            if !self.stored.ports.has(*p) {
                want.insert(("PortNotAllocated", holders[0].clone()));
            }
            want.extend(holders[1..].iter().map(|h| ("PortAlreadyAllocated", h.clone())));
        }
        want.extend(owners.ports_out_of_range.iter().map(|h| ("PortOutOfRange", h.clone())));
        let got: BTreeSet<(&str, String)> = events
            .iter()
            .filter(|e| {
                let component = if ipam {
                    "portallocator-repair-controller"
                } else {
                    "allocator-repair-controller"
                };
                e.type_ == "Warning" && e.component.ends_with(component)
            })
            .map(|e| (e.reason.as_str(), e.object.clone()))
            .collect();
        if got != want {
            return fail("(d) repair events", now, format!(
                "{} of {runner} recorded {got:?}; the Services and storage it read imply {want:?}", stepped));
        }
        Ok(())
    }

    /// (d) The run's result, exactly: etcd holds the Services' usable IPs (bitmap behaviours)
    /// and in-range ports plus the leaks still in their grace.
    fn check_repair_result(
        &self,
        now: u64,
        stepped: &Stepped,
        runner: &str,
        stored: &Stored,
        expect_ips: &BTreeSet<IpAddr>,
        expect_ports: &BTreeSet<i32>,
    ) -> Result<(), Violation> {
        let got_ips: BTreeSet<IpAddr> = stored.ips.iter().collect();
        if !self.ipam_on && got_ips != *expect_ips {
            return fail("(d) repair", now, format!(
                "after {} of {runner} etcd holds service IPs {got_ips:?}; the Services and leaks in grace give {expect_ips:?}",
                stepped));
        }
        let got_ports: BTreeSet<i32> = stored.ports.iter().collect();
        if got_ports != *expect_ports {
            return fail("(d) repair", now, format!(
                "after {} of {runner} etcd holds node ports {got_ports:?}; the Services and leaks in grace give {expect_ports:?}",
                stepped));
        }
        Ok(())
    }

    /// (d) After a full successful repair run with no corruption since, no IP or port is held
    /// by two Services and every Service's usable IP and in-range port is set in etcd. (API
    /// writes keep this: a create allocates before it stores the Service, a delete releases only
    /// what the Service held, and nothing can be allocated twice while storage covers every
    /// Service.) Under 1.33 and 1.35, NodePorts only: (g) is the ClusterIPs'.
    pub(super) fn check_allocations(
        &mut self,
        now: u64,
        stored: &Stored,
        owners: &Owners,
    ) -> Result<(), Violation> {
        if !self.clean {
            return Ok(());
        }
        self.coverage.d_checked += 1;
        let ipam = self.ipam_on;
        if let Some(d) = owners.duplicates().iter().find(|d| !(ipam && d.starts_with("IP "))) {
            return fail(
                "(d) allocations",
                now,
                format!("after a clean repair and no corruption since, {d}"),
            );
        }
        if let Some((ip, who)) = owners.ips.iter().find(|(ip, _)| !ipam && !stored.ips.has(**ip)) {
            return fail("(d) allocations", now, format!(
                "after a clean repair and no corruption since, {who:?} holds cluster IP {ip} but etcd does not"));
        }
        if let Some((p, who)) = owners.ports.iter().find(|(p, _)| !stored.ports.has(**p)) {
            return fail("(d) allocations", now, format!(
                "after a clean repair and no corruption since, {who:?} holds node port {p} but etcd does not"));
        }
        Ok(())
    }
}

/// A repair run as (e) counts it: at `now`, by `runner`, seeing each leak `runs` times (two for
/// 1.20's double run at start).
struct Run<'a> {
    now: u64,
    runner: &'a str,
    runs: i32,
}

/// One allocation object's items as a repair run sees them (the ClusterIPs' or the NodePorts'):
/// what a violation calls one, the runner's sightings of each leaked one, who holds each by
/// the Services, and what etcd stored before the run and after it.
struct Half<'a, R: ItemRange> {
    label: &'static str,
    sightings: &'a mut BTreeMap<R::Item, i32>,
    owners: &'a BTreeMap<R::Item, Vec<String>>,
    before: &'a Allocator<R>,
    after: &'a Allocator<R>,
}

impl Run<'_> {
    /// (e) for one half: the run forgets the items a Service holds, counts one more sighting
    /// (or two) of every item stored for no Service, keeps it before the third and frees it from
    /// the third on. The items etcd must hold after the run: the Services' and the leaks kept.
    fn check_leaks<R: ItemRange>(
        &self,
        half: Half<'_, R>,
        coverage: &mut Coverage,
    ) -> Result<BTreeSet<R::Item>, Violation> {
        let Run { now, runner, runs } = *self;
        let Half { label, sightings, owners, before, after } = half;
        let mut expect: BTreeSet<R::Item> = owners.keys().copied().collect();
        for item in owners.keys() {
            sightings.remove(item);
        }
        for item in before.iter().filter(|item| !owners.contains_key(item)) {
            let n = sightings.entry(item).or_insert(0);
            *n += runs;
            let n = *n;
            match (n >= NUM_REPAIRS_BEFORE_LEAK_CLEANUP, after.has(item)) {
                (true, true) => return fail("(e) leak", now, format!(
                    "{label} {item} is stored for no Service; this was repair run #{n} of {runner} to see it, so it must be freed, but etcd still holds it")),
                (false, false) => return fail("(e) leak", now, format!(
                    "{label} {item} is stored for no Service; {runner} freed it on its repair run #{n} that saw it, before the third")),
                (true, false) => coverage.e_leaks_freed += 1,
                (false, true) => {
                    coverage.e_leaks_kept += 1;
                    expect.insert(item);
                }
            }
        }
        Ok(expect)
    }
}
