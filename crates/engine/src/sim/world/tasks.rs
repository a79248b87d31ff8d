//! What each queued task does: the cluster's own (steps, expiries, healed partitions, the
//! endpoints controller) and each apiserver's controllers, one life (epoch) at a time.

use super::{MarkKind, Task, World};
use crate::contract::scenario::StepKind;
use crate::k8s::controlplane::{
    Started, Status, DEFAULT_SERVICE_CIDR_INTERVAL_MS, DEFAULT_SERVICE_CIDR_POLL_MS,
    READYZ_POLL_MS, REPAIR_HOOK, REPAIR_HOOK_TIMEOUT_MS, SYSTEM_NAMESPACES_INTERVAL_MS,
};
use crate::k8s::etcd::{self, Loop};
use crate::k8s::event::{Event, EventKind, SIM_COMPONENT};
use crate::k8s::registry::COMPONENT;

impl World {
    pub(super) fn run_task(&mut self, name: &str, task: Task) {
        match task {
            Task::Step(i) => self.run_step(i),
            Task::EndOutage => {
                if self.outage_until.is_some_and(|t| t <= self.now) {
                    self.outage_until = None;
                    self.sync_endpoints_controller();
                }
            }
            Task::EndIsolation(n) => {
                let now = self.now;
                if self.apiservers.get_mut(&n).is_some_and(|a| a.end_isolation(now)) {
                    self.sync_endpoints_controller();
                }
            }
            Task::LeaseExpiry { key, rev } => self.expire_lease(&key, rev),
            Task::EndpointsController => self.sync_endpoints_controller(),
            Task::ServiceCidrController => self.sync_service_cidrs(),
            Task::ProxyDeliver(node, addresses) => self.proxy_deliver(&node, addresses),
            Task::ProxySync(node) => self.proxy_sync(&node),
            Task::ProxyApplied(node, addresses) => self.proxy_applied(&node, addresses),
            Task::Client(client, generation) => self.client_wake(&client, generation),
            // A timer of an earlier life of the apiserver does nothing.
            _ if !self.task_alive(name, &task) => {}
            Task::Start(epoch) => self.start_instant(name, epoch),
            Task::Repair(epoch) => self.repair(name, epoch),
            Task::DefaultServiceCidr(epoch) => self.default_service_cidr(name, epoch),
            Task::IpAddressRecheck(_, ip) => {
                self.with_apiserver(name, |a, st, _, _, _| a.repair_changed(st, &[], &[ip]));
            }
            Task::Namespaces(epoch) => {
                self.with_apiserver(name, |a, st, _, behavior, _| {
                    a.ensure_namespaces(st, behavior)
                });
                self.schedule_namespaces(name, epoch);
            }
            Task::Readyz(epoch) => self.readyz(name, epoch),
            Task::Sync(epoch) => {
                let created = self.with_apiserver(name, |a, st, cfg, behavior, rng| {
                    a.sync_kubernetes_service(st, cfg, behavior, rng)
                });
                if created {
                    self.sync_endpoints_controller();
                }
                let next = self.now + self.cfg.endpoint_interval_ms;
                self.queue.push(next, name, Task::Sync(epoch));
            }
            Task::HookTimeout(_) => {
                if !self.apiservers[name].hooks_done {
                    self.log(name, EventKind::InitialCheckFailed, format!("PostStartHook \"{REPAIR_HOOK}\" failed: unable to perform initial IP and Port allocation check"));
                    self.exit(name, Status::Crashed);
                }
            }
            Task::StopTimeout(_) => {
                if self.apiservers[name].status == Status::Stopping {
                    self.log(
                        name,
                        EventKind::RemoveEndpointsTimedOut,
                        "RemoveEndpoints() timed out".into(),
                    );
                    self.stop_progress(name, true);
                }
            }
            Task::ShutdownDelayEnd(_) => {
                if self.apiservers[name].status == Status::Stopping {
                    self.stop_progress(name, false);
                }
            }
        }
    }

    /// Whether an apiserver task belongs to the apiserver's present life.
    fn task_alive(&self, name: &str, task: &Task) -> bool {
        let epoch = match task {
            Task::Start(e)
            | Task::DefaultServiceCidr(e)
            | Task::IpAddressRecheck(e, _)
            | Task::Repair(e)
            | Task::Namespaces(e)
            | Task::Readyz(e)
            | Task::Sync(e)
            | Task::HookTimeout(e)
            | Task::StopTimeout(e)
            | Task::ShutdownDelayEnd(e) => *e,
            _ => return true,
        };
        self.apiservers.get(name).is_some_and(|a| a.epoch == epoch)
    }

    fn expire_lease(&mut self, key: &str, rev: u64) {
        self.etcd.sending("etcd", Loop::Ttl);
        if !self.etcd.expire(key, rev, self.now) {
            return;
        }
        let ip = key.trim_start_matches(etcd::MASTER_LEASES).to_string();
        self.mark(MarkKind::LeaseExpiry, &ip);
        // etcd logs nothing when a lease runs out and its keys go: this line is the lab's own
        // mark, under the lab's component, in words that quote nobody.
        let message = format!(
            "lab note: the lease of {key} expired and etcd deleted the key (etcd itself logs nothing)"
        );
        let e = Event::log(self.now, "", SIM_COMPONENT, EventKind::LeaseExpired { ip }, message);
        self.events.push(e);
    }

    fn repair(&mut self, name: &str, epoch: u64) {
        let done_before = self.apiservers[name].hooks_done;
        self.with_apiserver(name, |a, st, _, _, _| a.run_repairs(st));
        self.mark(MarkKind::RepairRun, name);
        if !done_before && self.apiservers[name].hooks_done {
            self.sync_endpoints_controller();
        }
        let next = self.now + self.cfg.repair_interval_ms;
        self.queue.push(next, name, Task::Repair(epoch));
    }

    /// The default-ServiceCIDR controller's sync; its first success also lets RepairIPAddress,
    /// which polls for that ServiceCIDR, run its first pass.
    fn default_service_cidr(&mut self, name: &str, epoch: u64) {
        let ready_before = self.ready(name);
        self.with_apiserver(name, |a, st, cfg, behavior, _| {
            a.sync_default_service_cidr(st, cfg, behavior);
            a.retry_ip_repair(st);
        });
        if !ready_before && self.ready(name) {
            self.sync_endpoints_controller();
        }
        self.schedule_default_service_cidr(name, epoch);
    }

    /// Every 100 ms until the first sync succeeded, then every 10 s.
    fn schedule_default_service_cidr(&mut self, name: &str, epoch: u64) {
        let delay = if self.apiservers[name].cidr_ok {
            DEFAULT_SERVICE_CIDR_INTERVAL_MS
        } else {
            DEFAULT_SERVICE_CIDR_POLL_MS
        };
        let at = self.now + delay;
        self.queue.push(at, name, Task::DefaultServiceCidr(epoch));
    }

    /// The kubernetes-service loop polls `/readyz` until it answers, then syncs every interval.
    fn readyz(&mut self, name: &str, epoch: u64) {
        if self.apiservers[name].pending_remove && self.reachable(name) {
            self.with_apiserver(name, |a, st, cfg, behavior, _| {
                a.remove_stale_endpoint(st, cfg, behavior)
            });
        }
        if self.ready(name) {
            self.apiservers.get_mut(name).expect("alive").syncing = true;
            self.queue.push(self.now, name, Task::Sync(epoch));
        } else {
            self.queue.push(self.now + READYZ_POLL_MS, name, Task::Readyz(epoch));
        }
    }

    pub(super) fn log(&mut self, name: &str, kind: EventKind, message: String) {
        self.events.push(Event::log(self.now, name, COMPONENT, kind, message));
    }

    /// Apiserver `name` starts a new life at `at` (after its start-up delay).
    pub(super) fn schedule_start(&mut self, name: &str, at: u64) {
        let a = self.apiservers.get_mut(name).expect("known apiserver");
        let epoch = a.begin_start();
        let delay = a.spec.startup_delay;
        self.queue.push(at + delay, name, Task::Start(epoch));
    }

    fn start_instant(&mut self, name: &str, epoch: u64) {
        self.mark(MarkKind::Start, name);
        let started =
            self.with_apiserver(name, |a, st, cfg, behavior, _| a.start(st, cfg, behavior));
        self.mark(MarkKind::RepairRun, name);
        match started {
            Started::Fatal => {
                self.exit(name, Status::Crashed);
                return;
            }
            Started::WaitingForRepair => {
                let at = self.now + REPAIR_HOOK_TIMEOUT_MS;
                self.queue.push(at, name, Task::HookTimeout(epoch));
            }
            Started::Ready => self.sync_endpoints_controller(),
        }
        let next = self.now + self.cfg.repair_interval_ms;
        self.queue.push(next, name, Task::Repair(epoch));
        if self.behavior.ip_addresses() {
            self.schedule_default_service_cidr(name, epoch);
        }
        self.schedule_namespaces(name, epoch);
        self.queue.push(self.now, name, Task::Readyz(epoch));
    }

    /// Every minute; while a 1.27+ informer has not seen the namespaces yet, it retries (its
    /// first sync follows the informer's as soon as etcd answers).
    fn schedule_namespaces(&mut self, name: &str, epoch: u64) {
        let delay =
            if self.apiservers[name].namespaces_ok { SYSTEM_NAMESPACES_INTERVAL_MS } else { 1_000 };
        self.queue.push(self.now + delay, name, Task::Namespaces(epoch));
    }

    /// The process is gone (`Crashed` or `Stopped`): a new life starts with fresh memory.
    pub(super) fn exit(&mut self, name: &str, status: Status) {
        let kind = match status {
            Status::Crashed => MarkKind::Crash,
            _ => MarkKind::Stop,
        };
        self.mark(kind, name);
        self.shutdowns.remove(name);
        let a = self.apiservers.get_mut(name).expect("known apiserver");
        a.exit(status, &self.cfg, self.behavior);
        self.connections_end(name, status);
    }

    fn run_step(&mut self, i: usize) {
        match &self.steps[i].kind {
            StepKind::Do(action) => {
                let action = action.as_ref().clone();
                // A step's refusal is recorded as an event, as the contract prints it.
                let _ = self.perform(&action);
            }
            StepKind::Expect(expect) => {
                let state = serde_json::to_value(self.state()).expect("state serialises");
                let mismatches = crate::contract::expect::check(expect, &state, &self.events);
                self.expectations.push((i, mismatches));
            }
        }
    }
}
