//! The task queue: what runs when, in the one order every run follows.
//!
//! At one instant: scenario steps and user actions (in the order given), then etcd and the
//! network (lease expiries, healed partitions, the endpoints controller), then the apiservers'
//! controllers, apiservers by name and, for one apiserver, start → default ServiceCIDR → repair
//! → IPAddress rechecks → namespaces → readyz → kubernetes-service sync → shutdown timers; then
//! the client pods (kube-proxies are the network's, in class 1).

use std::collections::BTreeMap;

/// What a task does; apiserver tasks carry the epoch (life) of the apiserver that queued them,
/// so that the timers of an earlier life are ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Task {
    /// A scenario step, by index.
    Step(usize),
    EndOutage,
    EndIsolation(String),
    LeaseExpiry {
        key: String,
        rev: u64,
    },
    EndpointsController,
    /// kube-controller-manager's service-cidr-controller (1.33+), at a deletion's grace end.
    ServiceCidrController,
    Start(u64),
    /// The default-ServiceCIDR controller: 100 ms polls until its first sync, then every 10 s.
    DefaultServiceCidr(u64),
    Repair(u64),
    /// RepairIPAddress checks one IPAddress again when its orphan grace period ends.
    IpAddressRecheck(u64, String),
    Namespaces(u64),
    Readyz(u64),
    Sync(u64),
    HookTimeout(u64),
    StopTimeout(u64),
    /// A graceful stop's `--shutdown-delay-duration` has passed.
    ShutdownDelayEnd(u64),
    /// A node's kube-proxy informer receives the slice's addresses.
    ProxyDeliver(String, Vec<String>),
    /// A node's kube-proxy starts `syncProxyRules`.
    ProxySync(String),
    /// A node's kube-proxy rules are in place, listing these addresses.
    ProxyApplied(String, Vec<String>),
    /// A client pod's timer (its name and generation).
    Client(String, u64),
}

/// A task's kind without its data: what a UI or a test stepping from task to task reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaskKind {
    /// A scenario step.
    Step,
    /// An etcd outage ends.
    EndOutage,
    /// An apiserver's isolation ends.
    EndIsolation,
    /// A master lease's TTL runs out.
    LeaseExpiry,
    /// The endpoints controller syncs.
    EndpointsController,
    /// kube-controller-manager's service-cidr-controller, at a deletion's grace end (1.33+).
    ServiceCidrController,
    /// An apiserver's start instant.
    Start,
    /// An apiserver's default-ServiceCIDR controller (1.33+).
    DefaultServiceCidr,
    /// An apiserver's periodic repair run.
    Repair,
    /// RepairIPAddress checks one IPAddress again, its orphan grace over.
    IpAddressRecheck,
    /// An apiserver ensures the system namespaces.
    Namespaces,
    /// An apiserver's kubernetes-service loop polls its readyz.
    Readyz,
    /// An apiserver's kubernetes-service loop syncs the Service and its Endpoints.
    Sync,
    /// An apiserver's start-up repair hook times out (it crashes if it has not passed).
    HookTimeout,
    /// A graceful stop's RemoveEndpoints times out (the apiserver stops).
    StopTimeout,
    /// A graceful stop's `--shutdown-delay-duration` has passed (the listener may close).
    ShutdownDelayEnd,
    /// A kube-proxy's informer delivers a change of the `kubernetes` EndpointSlice.
    ProxyDeliver,
    /// A kube-proxy's sync starts.
    ProxySync,
    /// A kube-proxy's rules are in place.
    ProxyApplied,
    /// A client pod's timer (start, poll, retry, dial timeout).
    Client,
}

impl Task {
    pub(crate) fn kind(&self) -> TaskKind {
        match self {
            Task::Step(_) => TaskKind::Step,
            Task::EndOutage => TaskKind::EndOutage,
            Task::EndIsolation(_) => TaskKind::EndIsolation,
            Task::LeaseExpiry { .. } => TaskKind::LeaseExpiry,
            Task::EndpointsController => TaskKind::EndpointsController,
            Task::ServiceCidrController => TaskKind::ServiceCidrController,
            Task::Start(_) => TaskKind::Start,
            Task::DefaultServiceCidr(_) => TaskKind::DefaultServiceCidr,
            Task::Repair(_) => TaskKind::Repair,
            Task::IpAddressRecheck(..) => TaskKind::IpAddressRecheck,
            Task::Namespaces(_) => TaskKind::Namespaces,
            Task::Readyz(_) => TaskKind::Readyz,
            Task::Sync(_) => TaskKind::Sync,
            Task::HookTimeout(_) => TaskKind::HookTimeout,
            Task::StopTimeout(_) => TaskKind::StopTimeout,
            Task::ShutdownDelayEnd(_) => TaskKind::ShutdownDelayEnd,
            Task::ProxyDeliver(..) => TaskKind::ProxyDeliver,
            Task::ProxySync(_) => TaskKind::ProxySync,
            Task::ProxyApplied(..) => TaskKind::ProxyApplied,
            Task::Client(..) => TaskKind::Client,
        }
    }

    /// 0 = steps and actions, 1 = etcd and network, 2 = controllers, 3 = client pods (after
    /// what the apiservers did at the instant).
    fn class(&self) -> u8 {
        match self.kind() {
            TaskKind::Step => 0,
            TaskKind::ProxyDeliver | TaskKind::ProxySync | TaskKind::ProxyApplied => 1,
            TaskKind::Client => 3,
            TaskKind::EndOutage
            | TaskKind::EndIsolation
            | TaskKind::LeaseExpiry
            | TaskKind::EndpointsController
            | TaskKind::ServiceCidrController => 1,
            _ => 2,
        }
    }

    /// The order of one apiserver's controllers at one instant.
    fn order(&self) -> u8 {
        match self.kind() {
            TaskKind::Start => 0,
            TaskKind::DefaultServiceCidr => 1,
            TaskKind::Repair => 2,
            TaskKind::IpAddressRecheck => 3,
            TaskKind::Namespaces => 4,
            TaskKind::Readyz => 5,
            TaskKind::Sync => 6,
            TaskKind::HookTimeout | TaskKind::StopTimeout | TaskKind::ShutdownDelayEnd => 7,
            _ => 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    time: u64,
    class: u8,
    apiserver: String,
    order: u8,
    /// Ties keep the order of queueing.
    seq: u64,
}

/// Tasks ordered by (time, class, apiserver, order, queueing order).
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    seq: u64,
    tasks: BTreeMap<Key, Task>,
}

impl Queue {
    /// Queues `task` for `apiserver` (empty for the cluster's own tasks) at `time`.
    pub(crate) fn push(&mut self, time: u64, apiserver: &str, task: Task) {
        self.seq += 1;
        let key = Key {
            time,
            class: task.class(),
            apiserver: apiserver.to_string(),
            order: task.order(),
            seq: self.seq,
        };
        self.tasks.insert(key, task);
    }

    pub(crate) fn next_time(&self) -> Option<u64> {
        self.tasks.keys().next().map(|k| k.time)
    }

    /// The next task: its time, its apiserver and the task.
    pub(crate) fn pop(&mut self) -> Option<(u64, String, Task)> {
        let (key, task) = self.tasks.pop_first()?;
        Some((key.time, key.apiserver, task))
    }
}
