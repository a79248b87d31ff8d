//! (d) and (e): what a repair run writes. A successful bitmap repair run stores exactly the
//! Services' items plus the leaks still in their grace and records exactly the events they
//! imply; a leaked item is kept by the first two runs of an apiserver that see it and freed by
//! the third; after a clean run and no corruption since, storage covers every Service.

use std::collections::BTreeSet;
use std::net::IpAddr;

use engine::contract::api::Behavior;
use engine::contract::event::Event;
use engine::contract::scenario::Action;
use engine::sim::world::{Stepped, TaskKind, World};
use k8s::repair::NUM_REPAIRS_BEFORE_LEAK_CLEANUP;

use super::{Observer, Sightings};
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
        let expect_ips = self.check_ip_leaks(now, runner, stored, &owners, runs)?;
        let expect_ports = self.check_port_leaks(now, runner, stored, &owners, runs)?;
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

    /// (e) for ClusterIPs (bitmap behaviours): a run of `runner` forgets the IPs a Service holds,
    /// counts one more sighting (two for 1.20's double run at start) of every IP stored for no
    /// Service, keeps it before the third and frees it from the third on. The IPs etcd must
    /// hold after the run: the Services' and the leaks kept.
    fn check_ip_leaks(
        &mut self,
        now: u64,
        runner: &str,
        stored: &Stored,
        owners: &Owners,
        runs: i32,
    ) -> Result<BTreeSet<IpAddr>, Violation> {
        let ipam = self.ipam_on;
        let s = self.sightings.get_mut(runner).expect("every apiserver has an entry");
        let mut expect_ips: BTreeSet<IpAddr> = owners.ips.keys().copied().collect();
        for ip in owners.ips.keys() {
            s.ips.remove(ip);
        }
        for ip in self.stored.ips.iter().filter(|ip| !ipam && !owners.ips.contains_key(ip)) {
            let n = s.ips.entry(ip).or_insert(0);
            *n += runs;
            let n = *n;
            match (n >= NUM_REPAIRS_BEFORE_LEAK_CLEANUP, stored.ips.has(ip)) {
                (true, true) => return fail("(e) leak", now, format!(
                    "cluster IP {ip} is stored for no Service; this was repair run #{n} of {runner} to see it, so it must be freed, but etcd still holds it")),
                (false, false) => return fail("(e) leak", now, format!(
                    "cluster IP {ip} is stored for no Service; {runner} freed it on its repair run #{n} that saw it, before the third")),
                (true, false) => self.coverage.e_leaks_freed += 1,
                (false, true) => {
                    self.coverage.e_leaks_kept += 1;
                    expect_ips.insert(ip);
                }
            }
        }
        Ok(expect_ips)
    }

    /// (e) for NodePorts, as `check_ip_leaks` for ClusterIPs: the ports etcd must hold after
    /// the run of `runner`.
    fn check_port_leaks(
        &mut self,
        now: u64,
        runner: &str,
        stored: &Stored,
        owners: &Owners,
        runs: i32,
    ) -> Result<BTreeSet<i32>, Violation> {
        let s = self.sightings.get_mut(runner).expect("every apiserver has an entry");
        let mut expect_ports: BTreeSet<i32> = owners.ports.keys().copied().collect();
        for p in owners.ports.keys() {
            s.ports.remove(p);
        }
        for p in self.stored.ports.iter().filter(|p| !owners.ports.contains_key(p)) {
            let n = s.ports.entry(p).or_insert(0);
            *n += runs;
            let n = *n;
            match (n >= NUM_REPAIRS_BEFORE_LEAK_CLEANUP, stored.ports.has(p)) {
                (true, true) => return fail("(e) leak", now, format!(
                    "node port {p} is stored for no Service; this was repair run #{n} of {runner} to see it, so it must be freed, but etcd still holds it")),
                (false, false) => return fail("(e) leak", now, format!(
                    "node port {p} is stored for no Service; {runner} freed it on its repair run #{n} that saw it, before the third")),
                (true, false) => self.coverage.e_leaks_freed += 1,
                (false, true) => {
                    self.coverage.e_leaks_kept += 1;
                    expect_ports.insert(p);
                }
            }
        }
        Ok(expect_ports)
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
