//! The discrete-event world: a virtual clock in milliseconds, one seeded PRNG, one etcd, the
//! apiservers and the endpoints controller, driven by an ordered task queue (`queue`).
//!
//! The parts: `seed` puts a scenario's `initial` objects into etcd; `tasks` runs what the
//! queue hands out; `actions` applies one user action or scenario `do` step; `corrupt`
//! writes behind the allocators' back; `controller_manager` runs kube-controller-manager's
//! controllers; `snapshot` reads the contract's state out of it. After every task
//! and action, `settle` hands what changed in etcd to the controllers that watch it.

mod actions;
mod clients;
mod controller_manager;
mod corrupt;
mod figures;
pub mod queue;
mod refusals;
mod seed;

pub use figures::{ClientFigures, Rejecting, Window};
pub use refusals::ApiserverActions;
mod snapshot;
mod tasks;

use controller_manager::ControllerManager;

use std::collections::{BTreeMap, BTreeSet};

use crate::contract::scenario::{Scenario, Step};
use crate::k8s::api::Behavior;
use crate::k8s::controlplane::Apiserver;
use crate::k8s::controlplane::ClusterConfig;
use crate::k8s::etcd::{self, Etcd, Loop};
use crate::k8s::event::{Event, Recorder};
use crate::k8s::ipallocator::Range;
use crate::k8s::portallocator::PortAllocator;
use crate::k8s::registry::Storage;
use crate::rng::SimRng;

pub use queue::TaskKind;
use queue::{Queue, Task};

/// Moments a timeline marks and a UI animates; not Kubernetes events (which stay truthful), but
/// the simulation's own record of what happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    /// An apiserver's start instant.
    Start,
    /// An apiserver crashed.
    Crash,
    /// An apiserver stopped.
    Stop,
    /// An apiserver wrote its master lease.
    LeaseWrite,
    /// A master lease expired.
    LeaseExpiry,
    /// An apiserver's repair loops ran.
    RepairRun,
    /// The `kubernetes` Endpoints or EndpointSlice were rewritten.
    EndpointsRewrite,
    /// An etcd outage began.
    Outage,
    /// An apiserver was cut off from etcd.
    Isolation,
    /// A user action was applied.
    Action,
}

/// One moment the simulation marks.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mark {
    /// When (virtual ms).
    pub time_ms: u64,
    /// What happened.
    pub kind: MarkKind,
    /// The apiserver concerned, or the lease's IP for an expiry; empty when nobody in particular.
    pub subject: String,
}

/// The task the world just ran, for a UI or a test stepping from task to task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepped {
    /// When (virtual ms).
    pub time_ms: u64,
    /// What kind of task.
    pub task: TaskKind,
    /// The apiserver whose task it was; empty for the cluster's own tasks.
    pub apiserver: String,
}

impl std::fmt::Display for Stepped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.apiserver.as_str() {
            "" => write!(f, "{:?}", self.task),
            name => write!(f, "{:?} of {name}", self.task),
        }
    }
}

/// The simulated cluster on a virtual clock: etcd, the apiservers, the controllers and the tasks
/// queued for them.
#[derive(Clone, Debug)]
pub struct World {
    now: u64,
    rng: SimRng,
    behavior: Behavior,
    cfg: ClusterConfig,
    steps: Vec<Step>,
    etcd: Etcd,
    apiservers: BTreeMap<String, Apiserver>,
    queue: Queue,
    outage_until: Option<u64>,
    kcm: ControllerManager,
    events: Vec<Event>,
    marks: Vec<Mark>,
    /// Results of `expect` steps: (step index, mismatches).
    expectations: Vec<(usize, Vec<String>)>,
    /// Nodes, kube-proxies and client pods, when the scenario declares client pods.
    net: Option<Box<clients::Net>>,
    /// The graceful stops under way with a shutdown delay, by apiserver.
    shutdowns: BTreeMap<String, actions::Shutdown>,
}

/// The keys of the `default/kubernetes` Endpoints and EndpointSlice, read around every task:
/// spelled out rather than formatted each time (a test holds them to `etcd`'s key functions).
const KUBERNETES_ENDPOINTS_KEYS: [&str; 2] =
    ["/services/endpoints/default/kubernetes", "/endpointslices/default/kubernetes"];

impl World {
    /// A world at time 0 with the scenario's initial objects and its steps queued.
    pub fn new(scenario: &Scenario) -> Self {
        let mut w = World {
            now: 0,
            rng: SimRng::new(scenario.seed),
            behavior: scenario.behavior,
            cfg: scenario.cluster.clone(),
            steps: scenario.steps.clone(),
            etcd: Etcd::new(scenario.behavior.ip_addresses()),
            apiservers: BTreeMap::new(),
            queue: Queue::default(),
            outage_until: None,
            kcm: ControllerManager::default(),
            events: Vec::new(),
            marks: Vec::new(),
            expectations: Vec::new(),
            net: None,
            shutdowns: BTreeMap::new(),
        };
        w.seed(scenario);
        w.seed_net(scenario);
        for spec in &scenario.cluster.apiservers {
            let a = Apiserver::new(spec.clone(), &w.cfg, w.behavior);
            w.apiservers.insert(spec.name.clone(), a);
            if let Some(t) = spec.start_at {
                w.schedule_start(&spec.name, t);
            }
        }
        for (i, step) in scenario.steps.iter().enumerate() {
            w.queue.push(step.at_ms, "", Task::Step(i));
        }
        w.queue.push(0, "", Task::EndpointsController);
        w
    }

    // ---- reading -------------------------------------------------------------------------

    /// The present instant (virtual ms).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Which Kubernetes release's rules run.
    pub fn behavior(&self) -> Behavior {
        self.behavior
    }

    /// The cluster's configuration.
    pub fn config(&self) -> &ClusterConfig {
        &self.cfg
    }

    /// etcd, with everything it stores.
    pub fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    /// The apiservers, by name.
    pub fn apiservers(&self) -> impl Iterator<Item = &Apiserver> {
        self.apiservers.values()
    }

    /// The event log so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The marks so far.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The `expect` steps run so far: (step index, mismatches).
    pub fn expectations(&self) -> &[(usize, Vec<String>)] {
        &self.expectations
    }

    /// Whether no etcd outage is on now.
    pub fn etcd_available(&self) -> bool {
        self.outage_until.is_none()
    }

    /// Whether apiserver `name` can reach etcd now.
    pub fn reachable(&self, name: &str) -> bool {
        self.etcd_available()
            && self.apiservers.get(name).is_some_and(|a| a.isolated_until.is_none())
    }

    /// `/readyz` of apiserver `name`.
    pub fn ready(&self, name: &str) -> bool {
        self.apiservers.get(name).is_some_and(|a| a.ready(self.reachable(name)))
    }

    /// The next task's time, if any.
    pub fn next_time(&self) -> Option<u64> {
        self.queue.next_time()
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

    /// Keeps every request to etcd from now on, for [`World::take_wire`] (a UI's packets).
    pub fn record_wire(&mut self) {
        self.etcd.record_wire();
    }

    /// The requests to etcd since the last call, in order: who sent which write to which key,
    /// and the ones that bounced.
    pub fn take_wire(&mut self) -> Vec<etcd::Write> {
        self.etcd.take_wire()
    }

    // ---- checkpoints ---------------------------------------------------------------------

    /// A copy without the event log and marks (which only grow): what a checkpoint keeps,
    /// with the length of each log then.
    pub fn checkpoint(&self) -> (World, usize, usize) {
        let mut cp = World {
            now: self.now,
            rng: self.rng.clone(),
            behavior: self.behavior,
            cfg: self.cfg.clone(),
            steps: self.steps.clone(),
            etcd: self.etcd.clone(),
            apiservers: self.apiservers.clone(),
            queue: self.queue.clone(),
            outage_until: self.outage_until,
            kcm: self.kcm.clone(),
            events: Vec::new(),
            marks: Vec::new(),
            expectations: self.expectations.clone(),
            net: self.net.clone(),
            shutdowns: self.shutdowns.clone(),
        };
        // Requests not yet taken belong to the present, not to a replay from here.
        cp.etcd.take_wire();
        (cp, self.events.len(), self.marks.len())
    }

    /// Moves the logs out (the world is about to be dropped).
    pub(crate) fn take_logs(&mut self) -> (Vec<Event>, Vec<Mark>) {
        (std::mem::take(&mut self.events), std::mem::take(&mut self.marks))
    }

    /// Restores a checkpoint's logs from a longer history of the same timeline.
    pub(crate) fn restore_logs(&mut self, events: &[Event], marks: &[Mark]) {
        self.events = events.to_vec();
        self.marks = marks.to_vec();
    }

    // ---- running -------------------------------------------------------------------------

    /// Processes every task due at or before `t`, then sets the clock to `t`.
    pub fn run_until(&mut self, t: u64) {
        while self.next_time().is_some_and(|next| next <= t) {
            self.process_next();
        }
        self.now = self.now.max(t);
    }

    /// Processes the next task; `None` when nothing is queued.
    pub fn step(&mut self) -> Option<Stepped> {
        self.process_next()
    }

    fn process_next(&mut self) -> Option<Stepped> {
        let (time, name, task) = self.queue.pop()?;
        self.now = time;
        let stepped = Stepped { time_ms: time, task: task.kind(), apiserver: name.clone() };
        self.marking_rewrites(&name, |w| w.run_task(&name, task));
        Some(stepped)
    }

    /// Runs `f`, marking a rewrite of the `kubernetes` Endpoints or EndpointSlice by `who` if it
    /// made one (the slice alone is rewritten when it went missing or wrong).
    fn marking_rewrites<T>(&mut self, who: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let before = self.kubernetes_endpoints_revisions();
        let out = f(self);
        self.settle();
        self.observe_net();
        if self.kubernetes_endpoints_revisions() != before {
            self.mark(MarkKind::EndpointsRewrite, who);
        }
        out
    }

    /// The watches: what changed in etcd goes to the controllers that follow it (1.33+: the
    /// ServiceCIDR controller, and every apiserver's RepairIPAddress, Services first), until
    /// their own writes change nothing more they watch.
    fn settle(&mut self) {
        const ROUNDS: usize = 16;
        for _ in 0..ROUNDS {
            let changes = self.etcd.take_changes();
            let mut services = BTreeSet::new();
            let mut ips = BTreeSet::new();
            let mut cidrs = false;
            // Every change is sorted here on each settle: by its prefix, without taking it apart.
            for key in &changes {
                match etcd::Kind::split(key) {
                    Some((etcd::Kind::Service, nn)) => {
                        services.insert(nn.to_string());
                    }
                    Some((etcd::Kind::IpAddress, ip)) => {
                        ips.insert(ip.to_string());
                        cidrs = true;
                    }
                    Some((etcd::Kind::ServiceCidr, _)) => cidrs = true,
                    _ => {}
                }
            }
            if services.is_empty() && !cidrs {
                return;
            }
            if cidrs {
                self.sync_service_cidrs();
            }
            let services: Vec<String> = services.into_iter().collect();
            let ips: Vec<String> = ips.into_iter().collect();
            let names: Vec<String> = self.apiservers.keys().cloned().collect();
            for name in names {
                self.with_apiserver(&name, |a, st, _, _, _| a.repair_changed(st, &services, &ips));
            }
        }
    }

    /// The mod revisions of the `default/kubernetes` Endpoints and EndpointSlice.
    fn kubernetes_endpoints_revisions(&self) -> [Option<u64>; 2] {
        KUBERNETES_ENDPOINTS_KEYS.map(|key| self.etcd.get(key, self.now).map(|e| e.mod_revision))
    }

    fn mark(&mut self, kind: MarkKind, subject: &str) {
        self.marks.push(Mark { time_ms: self.now, kind, subject: subject.to_string() });
    }

    /// Runs `f` on apiserver `name` with its storage at this instant (with its reachability);
    /// keeps the events it recorded and queues the expiry of every lease it wrote.
    fn with_apiserver<T>(
        &mut self,
        name: &str,
        f: impl FnOnce(&mut Apiserver, &mut Storage, &ClusterConfig, Behavior, &mut SimRng) -> T,
    ) -> T {
        let reachable = self.reachable(name);
        // Its own controllers unless the code it runs says which loop it is in.
        self.etcd.sending(name, Loop::Bootstrap);
        let mut rec = Recorder::new(self.now, name);
        let a = self.apiservers.get_mut(name).expect("known apiserver");
        let mut st = Storage {
            etcd: &mut self.etcd,
            now: self.now,
            reachable,
            lease_ttl_ms: self.cfg.lease_ttl_ms,
            rec: &mut rec,
            lease_writes: Vec::new(),
            ip_rechecks: Vec::new(),
        };
        let epoch = a.epoch;
        let out = f(a, &mut st, &self.cfg, self.behavior, &mut self.rng);
        let leases = std::mem::take(&mut st.lease_writes);
        for (ip, at) in std::mem::take(&mut st.ip_rechecks) {
            self.queue.push(at, name, Task::IpAddressRecheck(epoch, ip));
        }
        self.events.extend(rec.events);
        if !leases.is_empty() {
            self.mark(MarkKind::LeaseWrite, name);
        }
        for (key, rev) in leases {
            let at = self.now + self.cfg.lease_ttl_ms;
            self.queue.push(at, "", Task::LeaseExpiry { key, rev });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_kubernetes_endpoints_keys_are_etcds() {
        let kubernetes = crate::k8s::api::KUBERNETES;
        assert_eq!(
            super::KUBERNETES_ENDPOINTS_KEYS,
            [
                super::etcd::endpoints_key("default", kubernetes).as_str(),
                super::etcd::endpoint_slice_key("default", kubernetes).as_str(),
            ]
        );
    }
}
