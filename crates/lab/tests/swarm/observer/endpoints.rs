//! (a) and (c): the `default/kubernetes` Endpoints under the lease reconciler. Once steady, the
//! addresses are the live leases are the ready apiservers, and every lease expires within one
//! TTL (a); RemoveEndpoints takes an apiserver's lease (and address) at once, and the Endpoints
//! lose their last address only at the 1.29+ last-apiserver shutdown (c).

use std::collections::BTreeSet;

use engine::contract::api::{Behavior, Endpoints};
use engine::contract::scenario::Action;
use engine::sim::world::World;
use k8s::controlplane::Status;
use k8s::reconcilers::ReconcilerType;

use super::{Observer, Signature};
use crate::storage::{addresses, kubernetes_endpoints};
use crate::violation::{describe, fail, Ctx, Violation};

impl Observer {
    /// (a) and (c), under the lease reconciler (`check_no_leases` for the others): every
    /// lease expires within one TTL, RemoveEndpoints takes an apiserver's own lease at once, the
    /// Endpoints are emptied only at the 1.29+ last-apiserver shutdown, and once steady the
    /// addresses are the live leases are the ready apiservers.
    pub(super) fn check_endpoints(
        &mut self,
        world: &World,
        ctx: &Ctx,
        starts: &[&str],
        kube_svc: bool,
    ) -> Result<(), Violation> {
        let now = world.now();
        self.note_disturbance(world, kube_svc);
        let leases = world.etcd().leases(now);
        if self.reconciler != ReconcilerType::Lease {
            return self.check_no_leases(now, &leases);
        }
        // Every live lease was written at most one TTL ago.
        if let Some((key, _, exp)) =
            leases.iter().find(|(_, _, exp)| !exp.is_some_and(|t| t > now && t <= now + self.ttl))
        {
            return fail(
                "(a) leases",
                now,
                format!("lease {key} expires at {exp:?}, not within the TTL {}ms", self.ttl),
            );
        }
        let leases: BTreeSet<String> = leases.into_iter().map(|(_, ip, _)| ip).collect();
        let ep = kubernetes_endpoints(world);
        let leases_before = std::mem::replace(&mut self.leases_before, leases.clone());
        self.check_remove_endpoints(world, ctx, starts, &leases, &leases_before, ep)?;
        self.check_never_emptied(now, ctx, &leases, ep)?;
        self.check_steady_endpoints(world, kube_svc, &leases, ep)
    }

    /// What (a) waits to be steady: a change of any apiserver's life, status, readiness or
    /// reachability, of etcd's availability or of the kubernetes Service's existence is a
    /// disturbance.
    fn note_disturbance(&mut self, world: &World, kube_svc: bool) {
        let signature = Signature {
            apiservers: world
                .apiservers()
                .map(|a| {
                    (a.epoch, a.status, world.ready(&a.spec.name), world.reachable(&a.spec.name))
                })
                .collect(),
            etcd_available: world.etcd_available(),
            kubernetes_service: kube_svc,
        };
        if self.signature != signature {
            self.last_disturbance = world.now();
            self.signature = signature;
        }
    }

    /// (a) Only the lease reconciler writes /masterleases/: under master-count and `none` no
    /// lease exists.
    fn check_no_leases(
        &self,
        now: u64,
        leases: &[(String, String, Option<u64>)],
    ) -> Result<(), Violation> {
        if !leases.is_empty() {
            return fail(
                "(a) leases",
                now,
                format!("{leases:?} exist under the {:?} reconciler", self.reconciler),
            );
        }
        // (a) and (c) are about the lease reconciler: master-count keeps up to
        // --apiserver-count addresses, drops a dead apiserver only when that count
        // overflows (and then whichever sorts after the reconciling one, live or not) and
        // lets the last apiserver remove itself with no refusal rule; `none` never writes the
        // Endpoints at all. Neither has leases to compare with.
        Ok(())
    }

    /// (c) RemoveEndpoints at a graceful stop (pre-shutdown hook) and at a start instant
    /// deletes the apiserver's own lease at once when etcd is reachable; at a stop it also
    /// takes its address out of the Endpoints at once — except for the last one under 1.20,
    /// whose reconcile refuses to erase every endpoint.
    fn check_remove_endpoints(
        &self,
        world: &World,
        ctx: &Ctx,
        starts: &[&str],
        leases: &BTreeSet<String>,
        leases_before: &BTreeSet<String>,
        ep: Option<&Endpoints>,
    ) -> Result<(), Violation> {
        let now = world.now();
        let removing: Option<(&str, bool)> = match ctx {
            Ctx::Act(Action::StopApiserver(r)) if !self.act_failed => {
                Some((r.apiserver.as_str(), true))
            }
            Ctx::Step(_) => starts.first().map(|n| (*n, false)),
            _ => None,
        };
        let Some((name, stop)) = removing else {
            return Ok(());
        };
        let a = world.apiservers().find(|a| a.spec.name == name).expect("known apiserver");
        let removed = if stop { a.status == Status::Stopped } else { a.status == Status::Running };
        if !removed || !world.reachable(name) {
            return Ok(());
        }
        let ip = a.ip();
        if leases.contains(&ip) {
            return fail(
                "(c) endpoints",
                now,
                format!("{name}'s lease is still there after RemoveEndpoints ({})", describe(ctx)),
            );
        }
        // RemoveLease's NotFound (our lease had expired already) returns before the
        // reconcile, so the address can only be expected gone if the lease was there.
        let had_lease = leases_before.contains(&ip);
        let last_1_20 = self.behavior == Behavior::V1_20 && leases.is_empty();
        if stop && had_lease && !last_1_20 && ep.is_some_and(|e| addresses(e).contains(&ip)) {
            return fail("(c) endpoints", now, format!(
                "{name} stopped gracefully with etcd reachable but default/kubernetes still lists {ip}"));
        }
        Ok(())
    }

    /// (c) The Endpoints are never emptied (no address left) while a lease exists. The only
    /// way to empty them is the 1.27+ pre-shutdown hook of the last apiserver (PR #116685:
    /// zero leases and StopReconciling called); 1.20 refuses even then.
    fn check_never_emptied(
        &mut self,
        now: u64,
        ctx: &Ctx,
        leases: &BTreeSet<String>,
        ep: Option<&Endpoints>,
    ) -> Result<(), Violation> {
        let empty = ep.is_some_and(|e| {
            e.subsets.iter().all(|s| s.addresses.is_empty() && s.not_ready_addresses.is_empty())
        });
        if empty && !leases.is_empty() {
            return fail(
                "(c) endpoints",
                now,
                format!("default/kubernetes has no addresses while leases {leases:?} exist"),
            );
        }
        if empty && !self.endpoints_empty {
            let shutdown = matches!(ctx, Ctx::Act(Action::StopApiserver(_)))
                && self.behavior != Behavior::V1_20;
            if !shutdown {
                self.endpoints_empty = empty;
                return fail("(c) endpoints", now, format!(
                    "default/kubernetes lost its last address outside the 1.29+ last-apiserver shutdown ({})", describe(ctx)));
            }
            self.coverage.c_emptied_at_shutdown += 1;
        }
        self.endpoints_empty = empty;
        Ok(())
    }

    /// (a) Once conditions have been steady for TTL + interval — no apiserver started,
    /// stopped, crashed, changed readiness or reachability, no etcd outage began or ended, and
    /// the kubernetes Service neither vanished nor came back — and some apiserver is ready:
    /// every dead apiserver's lease has expired (its last refresh was at the latest at the
    /// disturbance), every ready apiserver has refreshed its own lease and reconciled since,
    /// so the Endpoints addresses are exactly the live leases, which are exactly the ready
    /// apiservers. The kubernetes Service must exist throughout: UpdateKubernetesService
    /// returns before ReconcileEndpoints when it cannot create the Service, so no lease is
    /// refreshed then (upstream too). Strictly later than TTL + interval, because tasks due
    /// exactly then may still be pending when we look.
    fn check_steady_endpoints(
        &mut self,
        world: &World,
        kube_svc: bool,
        leases: &BTreeSet<String>,
        ep: Option<&Endpoints>,
    ) -> Result<(), Violation> {
        let now = world.now();
        if !kube_svc || now <= self.last_disturbance + self.ttl + self.interval {
            return Ok(());
        }
        let ready: BTreeSet<String> =
            world.apiservers().filter(|a| world.ready(&a.spec.name)).map(|a| a.ip()).collect();
        if ready.is_empty() {
            return Ok(());
        }
        self.coverage.a_checked += 1;
        let got = ep.map(addresses);
        if got.as_ref() != Some(leases) || *leases != ready {
            return fail("(a) endpoints", now, format!(
                "steady since {}ms: default/kubernetes addresses {got:?}, live leases {leases:?}, ready apiservers {ready:?}",
                self.last_disturbance));
        }
        Ok(())
    }
}
