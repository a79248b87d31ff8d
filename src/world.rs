//! The discrete-event world: a virtual clock in milliseconds, one seeded PRNG, one etcd, the
//! apiservers and the endpoints controller, driven by an ordered task queue.
//!
//! Order at one instant: scenario steps and user actions (in the order given), then etcd and the
//! network (lease expiries, healed partitions), then the apiservers' controllers, apiservers by
//! name and, for one apiserver, start → repair → namespaces → readyz → kubernetes-service sync.

use std::collections::{BTreeMap, BTreeSet};
use std::net::IpAddr;

use crate::api::{parse_ip, Behavior, IpFamily, Pod, Service};
use crate::controlplane::{
    Apiserver, Started, Status, READYZ_POLL_MS, REPAIR_HOOK, REPAIR_HOOK_TIMEOUT_MS,
    SYSTEM_NAMESPACES_INTERVAL_MS,
};
use crate::duration::parse_ms;
use crate::endpoints::endpoints_for_service;
use crate::etcd::{self, Etcd, Value};
use crate::event::{Event, Recorder};
use crate::ipallocator::Range;
use crate::portallocator::PortAllocator;
use crate::registry::{Storage, COMPONENT};
use crate::rng::SimRng;
use crate::scenario::{Action, ApiserverSpec, ClusterConfig, Corruption, Scenario, StepKind};

/// The component of `action_failed` events.
pub const SIM_COMPONENT: &str = "bootstrap-sim";

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    time: u64,
    /// 0 = steps and actions, 1 = etcd and network, 2 = controllers.
    class: u8,
    apiserver: String,
    order: u8,
    seq: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Task {
    Step(usize),
    EndOutage,
    EndIsolation(String),
    LeaseExpiry { key: String, rev: u64 },
    EndpointsController,
    Start(u64),
    Repair(u64),
    Namespaces(u64),
    Readyz(u64),
    Sync(u64),
    HookTimeout(u64),
    StopTimeout(u64),
}

impl Task {
    fn order(&self) -> u8 {
        match self {
            Task::Start(_) => 0,
            Task::Repair(_) => 1,
            Task::Namespaces(_) => 2,
            Task::Readyz(_) => 3,
            Task::Sync(_) => 4,
            Task::HookTimeout(_) | Task::StopTimeout(_) => 5,
            _ => 0,
        }
    }
}

/// Moments a timeline marks and a UI animates; not Kubernetes events (which stay truthful), but
/// the simulation's own record of what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    Start,
    Crash,
    Stop,
    LeaseWrite,
    LeaseExpiry,
    RepairRun,
    EndpointsRewrite,
    Outage,
    Isolation,
    Action,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mark {
    pub time_ms: u64,
    pub kind: MarkKind,
    /// The apiserver concerned, or the lease's IP for an expiry; empty when nobody in particular.
    pub subject: String,
}

/// What the last processed task was, for a UI stepping from event to event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepped {
    pub time_ms: u64,
    pub what: String,
}

#[derive(Clone, Debug)]
pub struct World {
    now: u64,
    seq: u64,
    rng: SimRng,
    behavior: Behavior,
    cfg: ClusterConfig,
    steps: Vec<crate::scenario::Step>,
    etcd: Etcd,
    apiservers: BTreeMap<String, Apiserver>,
    queue: BTreeMap<Key, (String, Task)>,
    outage_until: Option<u64>,
    events: Vec<Event>,
    marks: Vec<Mark>,
    /// Results of `expect` steps: (step index, mismatches).
    expectations: Vec<(usize, Vec<String>)>,
}

impl World {
    /// A world at time 0 with the scenario's initial objects and its steps queued.
    pub fn new(scenario: &Scenario) -> Self {
        let mut w = World {
            now: 0,
            seq: 0,
            rng: SimRng::new(scenario.seed),
            behavior: scenario.behavior,
            cfg: scenario.cluster.clone(),
            steps: scenario.steps.clone(),
            etcd: Etcd::default(),
            apiservers: BTreeMap::new(),
            queue: BTreeMap::new(),
            outage_until: None,
            events: Vec::new(),
            marks: Vec::new(),
            expectations: Vec::new(),
        };
        w.preset(scenario);
        for spec in scenario.cluster.apiservers.clone() {
            let start_at = spec.start_at;
            w.apiservers.insert(
                spec.name.clone(),
                Apiserver::new(spec.clone(), &w.cfg, w.behavior),
            );
            if let Some(t) = start_at {
                w.schedule_start(&spec.name, t);
            }
        }
        for i in 0..w.steps.len() {
            let at = w.steps[i].at_ms;
            w.push(at, "", Task::Step(i));
        }
        w.push(0, "", Task::EndpointsController);
        w
    }

    fn preset(&mut self, s: &Scenario) {
        let init = &s.initial;
        let now = 0;
        for ns in &init.namespaces {
            self.etcd
                .put(&etcd::namespace_key(ns), Value::Namespace, None, now);
        }
        for svc in &init.services {
            let mut svc = svc.clone();
            if svc.cluster_ips.is_empty() && !svc.cluster_ip.is_empty() {
                svc.cluster_ips = vec![svc.cluster_ip.clone()];
            }
            if svc.cluster_ip.is_empty() {
                svc.cluster_ip = svc.cluster_ips.first().cloned().unwrap_or_default();
            }
            self.etcd.put(
                &etcd::service_key(&svc.namespace, &svc.name),
                Value::Service(svc),
                None,
                now,
            );
        }
        for pod in &init.pods {
            self.etcd.put(
                &etcd::pod_key(&pod.namespace, &pod.name),
                Value::Pod(pod.clone()),
                None,
                now,
            );
        }
        for ep in &init.endpoints {
            self.etcd.put(
                &etcd::endpoints_key(&ep.namespace, &ep.name),
                Value::Endpoints(ep.clone()),
                None,
                now,
            );
        }
        for (ip, ttl) in &init.leases {
            let key = etcd::lease_key(ip);
            let rev = self.etcd.put(
                &key,
                Value::Lease {
                    ip: ip.clone(),
                    generation: 1,
                },
                Some(*ttl),
                now,
            );
            self.push(*ttl, "", Task::LeaseExpiry { key, rev });
        }
        let ip_preset = |p: &crate::scenario::PresetAllocation<IpAddr>| {
            let cidr = crate::ipallocator::parse_cidr(&p.range).expect("validated");
            let mut r = Range::new(cidr, s.behavior);
            for ip in &p.allocated {
                // Addresses outside the range cannot be encoded; the file said so, so skip them.
                let _ = r.allocate(*ip);
            }
            r.snapshot()
        };
        if let Some(p) = &init.cluster_ip_allocation {
            self.etcd.put(
                etcd::RANGE_SERVICE_IPS,
                Value::Range(ip_preset(p)),
                None,
                now,
            );
        }
        if let Some(p) = &init.secondary_cluster_ip_allocation {
            self.etcd.put(
                etcd::RANGE_SECONDARY_SERVICE_IPS,
                Value::Range(ip_preset(p)),
                None,
                now,
            );
        }
        if let Some(p) = &init.node_port_allocation {
            let range = crate::portallocator::PortRange::parse(&p.range).expect("validated");
            let mut a = PortAllocator::new(range, s.behavior);
            for port in &p.allocated {
                let _ = a.allocate(*port);
            }
            self.etcd.put(
                etcd::RANGE_NODE_PORTS,
                Value::Range(a.snapshot()),
                None,
                now,
            );
        }
    }

    fn push(&mut self, time: u64, apiserver: &str, task: Task) {
        self.seq += 1;
        let class = match task {
            Task::Step(_) => 0,
            Task::EndOutage
            | Task::EndIsolation(_)
            | Task::LeaseExpiry { .. }
            | Task::EndpointsController => 1,
            _ => 2,
        };
        let key = Key {
            time,
            class,
            apiserver: apiserver.to_string(),
            order: task.order(),
            seq: self.seq,
        };
        self.queue.insert(key, (apiserver.to_string(), task));
    }

    fn schedule_start(&mut self, name: &str, at: u64) {
        let a = self.apiservers.get_mut(name).expect("known apiserver");
        a.epoch += 1;
        a.status = Status::Starting;
        let epoch = a.epoch;
        let delay = a.spec.startup_delay;
        self.push(at + delay, name, Task::Start(epoch));
    }

    // ---- reading -------------------------------------------------------------------------

    pub fn now(&self) -> u64 {
        self.now
    }

    pub fn behavior(&self) -> Behavior {
        self.behavior
    }

    pub fn config(&self) -> &ClusterConfig {
        &self.cfg
    }

    pub fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    pub fn apiservers(&self) -> impl Iterator<Item = &Apiserver> {
        self.apiservers.values()
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    fn mark(&mut self, kind: MarkKind, subject: &str) {
        self.marks.push(Mark {
            time_ms: self.now,
            kind,
            subject: subject.to_string(),
        });
    }

    /// A copy without the event log and marks (which only grow): what a checkpoint keeps.
    pub fn checkpoint(&self) -> (World, usize, usize) {
        let cp = World {
            now: self.now,
            seq: self.seq,
            rng: self.rng.clone(),
            behavior: self.behavior,
            cfg: self.cfg.clone(),
            steps: self.steps.clone(),
            etcd: self.etcd.clone(),
            apiservers: self.apiservers.clone(),
            queue: self.queue.clone(),
            outage_until: self.outage_until,
            events: Vec::new(),
            marks: Vec::new(),
            expectations: self.expectations.clone(),
        };
        (cp, self.events.len(), self.marks.len())
    }

    /// Restores a checkpoint's logs from a longer history of the same timeline.
    pub fn restore_logs(&mut self, events: &[Event], marks: &[Mark]) {
        self.events = events.to_vec();
        self.marks = marks.to_vec();
    }

    pub fn etcd_available(&self) -> bool {
        self.outage_until.is_none()
    }

    pub fn reachable(&self, name: &str) -> bool {
        self.etcd_available()
            && self
                .apiservers
                .get(name)
                .is_some_and(|a| a.isolated_until.is_none())
    }

    pub fn ready(&self, name: &str) -> bool {
        self.apiservers
            .get(name)
            .is_some_and(|a| a.ready(self.reachable(name)))
    }

    /// The next task's time, if any.
    pub fn next_time(&self) -> Option<u64> {
        self.queue.keys().next().map(|k| k.time)
    }

    pub fn expectations(&self) -> &[(usize, Vec<String>)] {
        &self.expectations
    }

    // ---- running -------------------------------------------------------------------------

    /// Processes every task due at or before `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: u64) {
        while self.next_time().is_some_and(|next| next <= t) {
            self.process_next(|_| ());
        }
        self.now = self.now.max(t);
    }

    /// Processes the next task; `None` when nothing is queued.
    pub fn step(&mut self) -> Option<Stepped> {
        let what = self.process_next(|task| format!("{task:?}"))?;
        Some(Stepped {
            time_ms: self.now,
            what,
        })
    }

    /// Pops and runs the next task; `describe` sees it first (the hot path passes a no-op).
    fn process_next<T>(&mut self, describe: impl FnOnce(&Task) -> T) -> Option<T> {
        let (key, (name, task)) = self.queue.pop_first()?;
        self.now = key.time;
        let described = describe(&task);
        let before = self.kubernetes_endpoints_revision();
        self.run_task(&name, task);
        if self.kubernetes_endpoints_revision() != before {
            self.mark(MarkKind::EndpointsRewrite, &name);
        }
        Some(described)
    }

    /// Applies a user action now, as a step would.
    /// Actions from a UI or a link are not validated beforehand as scenario steps are: refuse
    /// what names an unknown apiserver or carries an unparsable IP, and leave the world as it is.
    pub fn act(&mut self, action: &Action) {
        if let Some(name) = action.apiserver() {
            if !self.apiservers.contains_key(name) {
                self.action_failed("", name, format!("unknown apiserver {name:?}"));
                return;
            }
        }
        if let Action::Corrupt(
            Corruption::LeakClusterIp { ip }
            | Corruption::UnallocateClusterIp { ip }
            | Corruption::ForceClusterIp { ip, .. },
        ) = action
        {
            if parse_ip(ip).is_none() {
                self.action_failed("", ip, format!("invalid IP address {ip:?}"));
                return;
            }
        }
        let before = self.kubernetes_endpoints_revision();
        self.mark(MarkKind::Action, action.apiserver().unwrap_or_default());
        self.apply(action);
        if self.kubernetes_endpoints_revision() != before {
            self.mark(MarkKind::EndpointsRewrite, "");
        }
    }

    fn kubernetes_endpoints_revision(&self) -> Option<u64> {
        self.etcd
            .get(
                &etcd::endpoints_key("default", crate::controlplane::KUBERNETES),
                self.now,
            )
            .map(|e| e.mod_revision)
    }

    fn storage_for<'a>(
        etcd: &'a mut Etcd,
        now: u64,
        reachable: bool,
        ttl: u64,
        rec: &'a mut Recorder,
    ) -> Storage<'a> {
        Storage {
            etcd,
            now,
            reachable,
            lease_ttl_ms: ttl,
            rec,
            lease_writes: Vec::new(),
        }
    }

    /// Runs `f` on apiserver `name` with its storage; collects its events and lease expiries.
    fn with_apiserver<T>(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut Apiserver, &mut Storage, &ClusterConfig, Behavior, &mut SimRng) -> T,
    ) -> T {
        let reachable = self.reachable(name);
        let mut rec = Recorder::new(self.now, name);
        let (out, leases) = {
            let a = self.apiservers.get_mut(name).expect("known apiserver");
            let mut st = Self::storage_for(
                &mut self.etcd,
                self.now,
                reachable,
                self.cfg.lease_ttl_ms,
                &mut rec,
            );
            let out = f(a, &mut st, &self.cfg, self.behavior, &mut self.rng);
            (out, std::mem::take(&mut st.lease_writes))
        };
        self.events.extend(rec.events);
        if !leases.is_empty() {
            self.mark(MarkKind::LeaseWrite, name);
        }
        for (key, rev) in leases {
            let at = self.now + self.cfg.lease_ttl_ms;
            self.push(at, "", Task::LeaseExpiry { key, rev });
        }
        out
    }

    fn alive(&self, name: &str, epoch: u64) -> bool {
        self.apiservers.get(name).is_some_and(|a| a.epoch == epoch)
    }

    fn run_task(&mut self, name: &str, task: Task) {
        match task {
            Task::Step(i) => self.run_step(i),
            Task::EndOutage => {
                if self.outage_until.is_some_and(|t| t <= self.now) {
                    self.outage_until = None;
                    self.sync_endpoints_controller();
                }
            }
            Task::EndIsolation(n) => {
                if let Some(a) = self.apiservers.get_mut(&n) {
                    if a.isolated_until.is_some_and(|t| t <= self.now) {
                        a.isolated_until = None;
                        self.sync_endpoints_controller();
                    }
                }
            }
            Task::LeaseExpiry { key, rev } => {
                if self.etcd.expire(&key, rev, self.now) {
                    self.mark(
                        MarkKind::LeaseExpiry,
                        key.trim_start_matches(etcd::MASTER_LEASES),
                    );
                    self.events.push(Event {
                        time_ms: self.now,
                        apiserver: String::new(),
                        component: "etcd".into(),
                        type_: "Log".into(),
                        reason: String::new(),
                        object: String::new(),
                        message: format!("lease expired, key deleted: {key}"),
                    });
                }
            }
            Task::EndpointsController => self.sync_endpoints_controller(),
            Task::Start(epoch) if self.alive(name, epoch) => self.start_instant(name, epoch),
            Task::Repair(epoch) if self.alive(name, epoch) => {
                let done_before = self.apiservers[name].hooks_done;
                self.with_apiserver(name, |a, st, _, _, _| a.run_repairs(st));
                self.mark(MarkKind::RepairRun, name);
                if !done_before && self.apiservers[name].hooks_done {
                    self.sync_endpoints_controller();
                }
                self.push(
                    self.now + self.cfg.repair_interval_ms,
                    name,
                    Task::Repair(epoch),
                );
            }
            Task::Namespaces(epoch) if self.alive(name, epoch) => {
                self.with_apiserver(name, |a, st, _, behavior, _| {
                    a.ensure_namespaces(st, behavior)
                });
                self.schedule_namespaces(name, epoch);
            }
            Task::Readyz(epoch) if self.alive(name, epoch) => {
                if self.apiservers[name].pending_remove && self.reachable(name) {
                    self.with_apiserver(name, |a, st, cfg, behavior, _| {
                        a.remove_stale_endpoint(st, cfg, behavior)
                    });
                }
                if self.ready(name) {
                    self.apiservers.get_mut(name).expect("alive").syncing = true;
                    self.push(self.now, name, Task::Sync(epoch));
                } else {
                    self.push(self.now + READYZ_POLL_MS, name, Task::Readyz(epoch));
                }
            }
            Task::Sync(epoch) if self.alive(name, epoch) => {
                let created = self.with_apiserver(name, |a, st, cfg, behavior, rng| {
                    a.sync_kubernetes_service(st, cfg, behavior, rng)
                });
                if created {
                    self.sync_endpoints_controller();
                }
                self.push(
                    self.now + self.cfg.endpoint_interval_ms,
                    name,
                    Task::Sync(epoch),
                );
            }
            Task::HookTimeout(epoch) if self.alive(name, epoch) => {
                if !self.apiservers[name].hooks_done {
                    self.log(name, format!("PostStartHook \"{REPAIR_HOOK}\" failed: unable to perform initial IP and Port allocation check"));
                    self.die(name, Status::Crashed);
                }
            }
            Task::StopTimeout(epoch) if self.alive(name, epoch) => {
                if self.apiservers[name].status == Status::Stopping {
                    self.log(name, "RemoveEndpoints() timed out".into());
                    self.die(name, Status::Stopped);
                }
            }
            // A timer of an earlier life of the apiserver.
            _ => {}
        }
    }

    fn log(&mut self, name: &str, message: String) {
        self.events.push(Event {
            time_ms: self.now,
            apiserver: name.to_string(),
            component: COMPONENT.into(),
            type_: "Log".into(),
            reason: String::new(),
            object: String::new(),
            message,
        });
    }

    fn start_instant(&mut self, name: &str, epoch: u64) {
        self.mark(MarkKind::Start, name);
        let started =
            self.with_apiserver(name, |a, st, cfg, behavior, _| a.start(st, cfg, behavior));
        self.mark(MarkKind::RepairRun, name);
        match started {
            Started::Fatal => {
                self.die(name, Status::Crashed);
                return;
            }
            Started::WaitingForRepair => self.push(
                self.now + REPAIR_HOOK_TIMEOUT_MS,
                name,
                Task::HookTimeout(epoch),
            ),
            Started::Ready => self.sync_endpoints_controller(),
        }
        self.push(
            self.now + self.cfg.repair_interval_ms,
            name,
            Task::Repair(epoch),
        );
        self.schedule_namespaces(name, epoch);
        self.push(self.now, name, Task::Readyz(epoch));
    }

    /// Every minute; while a 1.27+ informer has not seen the namespaces yet, it retries (its
    /// first sync follows the informer's as soon as etcd answers).
    fn schedule_namespaces(&mut self, name: &str, epoch: u64) {
        let waiting = !self.apiservers[name].namespaces_ok;
        let delay = if waiting {
            1_000
        } else {
            SYSTEM_NAMESPACES_INTERVAL_MS
        };
        self.push(self.now + delay, name, Task::Namespaces(epoch));
    }

    /// The process is gone: a new life starts with fresh memory.
    fn die(&mut self, name: &str, status: Status) {
        self.mark(
            if status == Status::Crashed {
                MarkKind::Crash
            } else {
                MarkKind::Stop
            },
            name,
        );
        let a = self.apiservers.get_mut(name).expect("known apiserver");
        let spec = a.spec.clone();
        let isolated_until = a.isolated_until;
        let epoch = a.epoch + 1;
        *a = Apiserver::new(spec, &self.cfg, self.behavior);
        a.status = status;
        a.epoch = epoch;
        a.isolated_until = isolated_until;
    }

    fn run_step(&mut self, i: usize) {
        let step = self.steps[i].clone();
        match &step.kind {
            StepKind::Do(action) => self.apply(action),
            StepKind::Expect(expect) => {
                let state =
                    serde_json::to_value(crate::state::State::of(self)).expect("state serialises");
                let mismatches = crate::expect::check(expect, &state, &self.events);
                self.expectations.push((i, mismatches));
            }
        }
    }

    fn action_failed(&mut self, apiserver: &str, object: &str, message: String) {
        self.events.push(Event {
            time_ms: self.now,
            apiserver: apiserver.to_string(),
            component: SIM_COMPONENT.into(),
            type_: "Warning".into(),
            reason: "action_failed".into(),
            object: object.to_string(),
            message,
        });
    }

    /// The apiserver that serves an API action: the one named, or the first ready one by name.
    fn server_for(&self, via: Option<&str>) -> Result<String, (String, String)> {
        match via {
            Some(name) if self.ready(name) => Ok(name.to_string()),
            Some(name) => {
                let a = &self.apiservers[name];
                let why = if !a.is_up() {
                    format!("apiserver {name} is not running")
                } else if !self.reachable(name) {
                    format!(
                        "apiserver {name} cannot reach etcd: {}",
                        crate::registry::UNREACHABLE
                    )
                } else {
                    format!("apiserver {name} is not ready")
                };
                Err((name.to_string(), why))
            }
            None => self
                .apiservers
                .keys()
                .find(|n| self.ready(n))
                .cloned()
                .ok_or_else(|| {
                    (
                        String::new(),
                        "no apiserver can serve the request".to_string(),
                    )
                }),
        }
    }

    fn apply(&mut self, action: &Action) {
        match action {
            Action::StartApiserver(r) => {
                let a = &self.apiservers[&r.apiserver];
                if matches!(
                    a.status,
                    Status::Running | Status::Starting | Status::Stopping
                ) {
                    let msg = format!(
                        "apiserver {} is already {}",
                        r.apiserver,
                        status_word(a.status)
                    );
                    self.action_failed(&r.apiserver, &r.apiserver, msg);
                } else {
                    let fresh = Apiserver::new(a.spec.clone(), &self.cfg, self.behavior);
                    let a = self.apiservers.get_mut(&r.apiserver).expect("known");
                    let (epoch, isolated) = (a.epoch, a.isolated_until);
                    *a = fresh;
                    a.epoch = epoch;
                    a.isolated_until = isolated;
                    self.schedule_start(&r.apiserver, self.now);
                }
            }
            Action::StopApiserver(r) => {
                let a = &self.apiservers[&r.apiserver];
                if !a.is_up() || a.status == Status::Stopping {
                    let msg = format!("apiserver {} is not running", r.apiserver);
                    self.action_failed(&r.apiserver, &r.apiserver, msg);
                    return;
                }
                let done = self.with_apiserver(&r.apiserver, |a, st, cfg, _, _| a.stop(st, cfg));
                if done {
                    self.die(&r.apiserver, Status::Stopped);
                } else {
                    let a = self.apiservers.get_mut(&r.apiserver).expect("known");
                    a.epoch += 1;
                    let epoch = a.epoch;
                    self.push(
                        self.now + 2 * self.cfg.endpoint_interval_ms,
                        &r.apiserver,
                        Task::StopTimeout(epoch),
                    );
                }
            }
            Action::CrashApiserver(r) => {
                let a = &self.apiservers[&r.apiserver];
                if matches!(a.status, Status::Stopped | Status::Crashed) {
                    let msg = format!("apiserver {} is not running", r.apiserver);
                    self.action_failed(&r.apiserver, &r.apiserver, msg);
                } else {
                    self.die(&r.apiserver, Status::Crashed);
                }
            }
            Action::AddApiserver(add) => {
                let Some(ip) = parse_ip(&add.advertise_address) else {
                    self.action_failed(
                        "",
                        &add.name,
                        format!("invalid IP address {:?}", add.advertise_address),
                    );
                    return;
                };
                if self.apiservers.contains_key(&add.name)
                    || self
                        .apiservers
                        .values()
                        .any(|a| a.spec.advertise_address == ip)
                {
                    self.action_failed(
                        "",
                        &add.name,
                        format!("apiserver {} or address {ip} already exists", add.name),
                    );
                    return;
                }
                let startup_delay = add
                    .startup_delay
                    .as_deref()
                    .and_then(|d| parse_ms(d).ok())
                    .unwrap_or(0);
                let spec = ApiserverSpec {
                    name: add.name.clone(),
                    advertise_address: ip,
                    start_at: Some(self.now),
                    startup_delay,
                };
                self.apiservers.insert(
                    add.name.clone(),
                    Apiserver::new(spec, &self.cfg, self.behavior),
                );
                self.schedule_start(&add.name, self.now);
            }
            Action::IsolateApiserver(iso) => {
                let until = self.now + parse_ms(&iso.for_).unwrap_or(0);
                self.mark(MarkKind::Isolation, &iso.apiserver);
                let a = self.apiservers.get_mut(&iso.apiserver).expect("validated");
                a.isolated_until = Some(a.isolated_until.map_or(until, |t| t.max(until)));
                self.push(until, "", Task::EndIsolation(iso.apiserver.clone()));
            }
            Action::EtcdOutage(o) => {
                let until = self.now + parse_ms(&o.for_).unwrap_or(0);
                self.mark(MarkKind::Outage, "");
                self.outage_until = Some(self.outage_until.map_or(until, |t| t.max(until)));
                self.push(until, "", Task::EndOutage);
            }
            Action::CreateService(c) => {
                let object = c.service.key();
                match self.server_for(c.via.as_deref()) {
                    Err((server, why)) => self.action_failed(&server, &object, why),
                    Ok(server) => {
                        let svc = c.service.clone();
                        let res = self.with_apiserver(&server, |a, st, _, _, rng| {
                            a.allocators.create_service(st, rng, svc)
                        });
                        match res {
                            Ok(_) => self.sync_endpoints_controller(),
                            Err(e) => self.action_failed(&server, &object, e),
                        }
                    }
                }
            }
            Action::DeleteService(o) => {
                let object = format!("{}/{}", o.namespace, o.name);
                match self.server_for(o.via.as_deref()) {
                    Err((server, why)) => self.action_failed(&server, &object, why),
                    Ok(server) => {
                        let res = self.with_apiserver(&server, |a, st, _, _, _| {
                            a.allocators.delete_service(st, &o.namespace, &o.name)
                        });
                        match res {
                            Ok(_) => self.sync_endpoints_controller(),
                            Err(e) => self.action_failed(&server, &object, e),
                        }
                    }
                }
            }
            Action::CreatePod(c) => {
                let pod = c.pod.clone();
                self.pod_write(
                    c.via.as_deref(),
                    &pod.namespace.clone(),
                    &pod.name.clone(),
                    move |etcd, now| {
                        if etcd
                            .get(&etcd::namespace_key(&pod.namespace), now)
                            .is_none()
                        {
                            return Err(format!("namespaces \"{}\" not found", pod.namespace));
                        }
                        let key = etcd::pod_key(&pod.namespace, &pod.name);
                        let name = pod.name.clone();
                        etcd.compare_and_put(&key, 0, Value::Pod(pod), now)
                            .map(|_| ())
                            .map_err(|_| format!("pods \"{name}\" already exists"))
                    },
                );
            }
            Action::DeletePod(o) => {
                let (ns, name) = (o.namespace.clone(), o.name.clone());
                self.pod_write(o.via.as_deref(), &o.namespace, &o.name, move |etcd, now| {
                    if etcd.delete(&etcd::pod_key(&ns, &name), now) {
                        Ok(())
                    } else {
                        Err(format!("pods \"{name}\" not found"))
                    }
                });
            }
            Action::SetPodReady(s) => {
                let (ns, name, ready) = (s.namespace.clone(), s.name.clone(), s.ready);
                self.pod_write(s.via.as_deref(), &s.namespace, &s.name, move |etcd, now| {
                    let key = etcd::pod_key(&ns, &name);
                    match etcd.get(&key, now).map(|e| e.value.clone()) {
                        Some(Value::Pod(mut pod)) => {
                            if pod.ready != ready {
                                pod.ready = ready;
                                etcd.put(&key, Value::Pod(pod), None, now);
                            }
                            Ok(())
                        }
                        _ => Err(format!("pods \"{name}\" not found")),
                    }
                });
            }
            Action::Corrupt(c) => self.corrupt(c),
        }
    }

    fn pod_write(
        &mut self,
        via: Option<&str>,
        ns: &str,
        name: &str,
        write: impl FnOnce(&mut Etcd, u64) -> Result<(), String>,
    ) {
        let object = format!("{ns}/{name}");
        match self.server_for(via) {
            Err((server, why)) => self.action_failed(&server, &object, why),
            Ok(server) => match write(&mut self.etcd, self.now) {
                Ok(()) => self.sync_endpoints_controller(),
                Err(e) => self.action_failed(&server, &object, e),
            },
        }
    }

    /// Storage writes behind the allocators' back.
    fn corrupt(&mut self, c: &Corruption) {
        let now = self.now;
        let edit_ip = |etcd: &mut Etcd,
                       cfg: &ClusterConfig,
                       behavior: Behavior,
                       ip: IpAddr,
                       set: bool|
         -> Result<(), String> {
            let secondary = cfg
                .service_ip_ranges
                .secondary
                .is_some_and(|n| crate::ipallocator::family_of(&n) == IpFamily::of(&ip));
            let key = if secondary {
                etcd::RANGE_SECONDARY_SERVICE_IPS
            } else {
                etcd::RANGE_SERVICE_IPS
            };
            let (snap, _) = etcd
                .range(key, now)
                .ok_or_else(|| format!("{key} is not initialised yet"))?;
            let mut r = Range::from_snapshot(snap, behavior).map_err(|e| e.to_string())?;
            if set {
                r.allocate(ip).map_err(|e| e.to_string())?;
            } else if r.has(ip) {
                r.release(ip);
            } else {
                return Err(format!("{ip} is not allocated"));
            }
            etcd.put(key, Value::Range(r.snapshot()), None, now);
            Ok(())
        };
        let edit_port =
            |etcd: &mut Etcd, behavior: Behavior, port: i32, set: bool| -> Result<(), String> {
                let (snap, _) = etcd
                    .range(etcd::RANGE_NODE_PORTS, now)
                    .ok_or("/ranges/servicenodeports is not initialised yet")?;
                let mut a =
                    PortAllocator::from_snapshot(snap, behavior).map_err(|e| e.to_string())?;
                if set {
                    a.allocate(port).map_err(|e| e.to_string())?;
                } else if a.has(port) {
                    a.release(port);
                } else {
                    return Err(format!("{port} is not allocated"));
                }
                etcd.put(
                    etcd::RANGE_NODE_PORTS,
                    Value::Range(a.snapshot()),
                    None,
                    now,
                );
                Ok(())
            };
        let ip = |s: &str| parse_ip(s).expect("validated");
        let (object, result) = match c {
            Corruption::LeakClusterIp { ip: s } => (
                s.clone(),
                edit_ip(&mut self.etcd, &self.cfg, self.behavior, ip(s), true),
            ),
            Corruption::UnallocateClusterIp { ip: s } => (
                s.clone(),
                edit_ip(&mut self.etcd, &self.cfg, self.behavior, ip(s), false),
            ),
            Corruption::LeakNodePort { port } => (
                port.to_string(),
                edit_port(&mut self.etcd, self.behavior, *port, true),
            ),
            Corruption::UnallocateNodePort { port } => (
                port.to_string(),
                edit_port(&mut self.etcd, self.behavior, *port, false),
            ),
            Corruption::ForceClusterIp {
                namespace,
                name,
                ip,
            } => (
                format!("{namespace}/{name}"),
                self.edit_service(namespace, name, |svc| {
                    svc.cluster_ip = ip.clone();
                    svc.cluster_ips = vec![ip.clone()];
                }),
            ),
            Corruption::ForceNodePort {
                namespace,
                name,
                port,
            } => (
                format!("{namespace}/{name}"),
                self.edit_service(namespace, name, |svc| match svc.ports.first_mut() {
                    Some(p) => p.node_port = *port,
                    None => svc.ports.push(crate::api::ServicePort {
                        port: 80,
                        node_port: *port,
                        ..Default::default()
                    }),
                }),
            ),
        };
        match result {
            Ok(()) => self.sync_endpoints_controller(),
            Err(e) => self.action_failed("", &object, e),
        }
    }

    fn edit_service(
        &mut self,
        ns: &str,
        name: &str,
        edit: impl FnOnce(&mut Service),
    ) -> Result<(), String> {
        let mut svc = self
            .etcd
            .service(ns, name, self.now)
            .cloned()
            .ok_or_else(|| format!("services \"{name}\" not found"))?;
        edit(&mut svc);
        self.etcd.put(
            &etcd::service_key(ns, name),
            Value::Service(svc),
            None,
            self.now,
        );
        Ok(())
    }

    /// kube-controller-manager's endpoints controller: level-based, so it simply brings every
    /// Endpoints object in line with Services and Pods. It writes through the apiservers, so it
    /// does nothing while none is ready.
    fn sync_endpoints_controller(&mut self) {
        if !self.apiservers.keys().any(|n| self.ready(n)) {
            return;
        }
        let now = self.now;
        let services: Vec<Service> = self.etcd.services(now).into_iter().cloned().collect();
        let pods: Vec<Pod> = self.etcd.pods(now).into_iter().cloned().collect();
        let existing: BTreeSet<String> = services.iter().map(Service::key).collect();
        for ep in self
            .etcd
            .endpoints(now)
            .into_iter()
            .cloned()
            .collect::<Vec<_>>()
        {
            if !existing.contains(&ep.key()) {
                self.etcd
                    .delete(&etcd::endpoints_key(&ep.namespace, &ep.name), now);
            }
        }
        for svc in &services {
            let Some(want) = endpoints_for_service(svc, &pods) else {
                continue;
            };
            let key = etcd::endpoints_key(&svc.namespace, &svc.name);
            let current = match self.etcd.get(&key, now).map(|e| &e.value) {
                Some(Value::Endpoints(ep)) => Some(ep),
                _ => None,
            };
            if current != Some(&want) {
                self.etcd.put(&key, Value::Endpoints(want), None, now);
            }
        }
    }

    /// The ClusterIP range of family `index` (0 = primary) as etcd stores it; the configured
    /// range, empty, until the first repair run writes it.
    pub fn stored_cluster_ips(&self, index: usize) -> Option<Range> {
        let net = *self.cfg.service_ip_ranges.networks().get(index)?;
        let key = [etcd::RANGE_SERVICE_IPS, etcd::RANGE_SECONDARY_SERVICE_IPS][index];
        let stored = self
            .etcd
            .range(key, self.now)
            .and_then(|(s, _)| Range::from_snapshot(s, self.behavior).ok());
        Some(stored.unwrap_or_else(|| Range::new(net, self.behavior)))
    }

    /// The NodePort range as etcd stores it (the configured one, empty, until written).
    pub fn stored_node_ports(&self) -> PortAllocator {
        self.etcd
            .range(etcd::RANGE_NODE_PORTS, self.now)
            .and_then(|(s, _)| PortAllocator::from_snapshot(s, self.behavior).ok())
            .unwrap_or_else(|| PortAllocator::new(self.cfg.node_ports, self.behavior))
    }
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Starting => "starting",
        Status::Running => "running",
        Status::Stopping => "stopping",
        Status::Stopped => "stopped",
        Status::Crashed => "crashed",
    }
}

/// One expectation's outcome in a run report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExpectationReport {
    pub at: String,
    pub passed: bool,
    pub mismatches: Vec<String>,
}

/// `bootstrap-sim run`'s output.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    pub scenario: String,
    pub seed: u64,
    pub expectations: Vec<ExpectationReport>,
    pub events: Vec<Event>,
    #[serde(rename = "final")]
    pub final_state: crate::state::State,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.expectations.iter().all(|e| e.passed)
    }
}

/// Runs a scenario to its `until` and reports.
pub fn run(scenario: &Scenario) -> Report {
    let mut w = World::new(scenario);
    w.run_until(scenario.until_ms);
    let expectations = w
        .expectations()
        .iter()
        .map(|(i, m)| ExpectationReport {
            at: scenario.steps[*i].at.clone(),
            passed: m.is_empty(),
            mismatches: m.clone(),
        })
        .collect();
    Report {
        scenario: scenario.name.clone(),
        seed: scenario.seed,
        expectations,
        events: w.events().to_vec(),
        final_state: crate::state::State::of(&w),
    }
}

/// The state at `t` (`bootstrap-sim state --at`).
pub fn state_at(scenario: &Scenario, t: u64) -> crate::state::State {
    let mut w = World::new(scenario);
    w.run_until(t);
    crate::state::State::of(&w)
}
