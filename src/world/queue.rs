//! The task queue: what runs when, in the one order every run follows.
//!
//! At one instant: scenario steps and user actions (in the order given), then etcd and the
//! network (lease expiries, healed partitions, the endpoints controller), then the apiservers'
//! controllers, apiservers by name and, for one apiserver, start → repair → namespaces → readyz
//! → kubernetes-service sync → shutdown timers.

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
    Start(u64),
    Repair(u64),
    Namespaces(u64),
    Readyz(u64),
    Sync(u64),
    HookTimeout(u64),
    StopTimeout(u64),
}

/// A task's kind without its data: what a UI or a test stepping from task to task reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaskKind {
    Step,
    EndOutage,
    EndIsolation,
    LeaseExpiry,
    EndpointsController,
    Start,
    Repair,
    Namespaces,
    Readyz,
    Sync,
    HookTimeout,
    StopTimeout,
}

impl Task {
    pub fn kind(&self) -> TaskKind {
        match self {
            Task::Step(_) => TaskKind::Step,
            Task::EndOutage => TaskKind::EndOutage,
            Task::EndIsolation(_) => TaskKind::EndIsolation,
            Task::LeaseExpiry { .. } => TaskKind::LeaseExpiry,
            Task::EndpointsController => TaskKind::EndpointsController,
            Task::Start(_) => TaskKind::Start,
            Task::Repair(_) => TaskKind::Repair,
            Task::Namespaces(_) => TaskKind::Namespaces,
            Task::Readyz(_) => TaskKind::Readyz,
            Task::Sync(_) => TaskKind::Sync,
            Task::HookTimeout(_) => TaskKind::HookTimeout,
            Task::StopTimeout(_) => TaskKind::StopTimeout,
        }
    }

    /// 0 = steps and actions, 1 = etcd and network, 2 = controllers.
    fn class(&self) -> u8 {
        match self.kind() {
            TaskKind::Step => 0,
            TaskKind::EndOutage
            | TaskKind::EndIsolation
            | TaskKind::LeaseExpiry
            | TaskKind::EndpointsController => 1,
            _ => 2,
        }
    }

    /// The order of one apiserver's controllers at one instant.
    fn order(&self) -> u8 {
        match self.kind() {
            TaskKind::Start => 0,
            TaskKind::Repair => 1,
            TaskKind::Namespaces => 2,
            TaskKind::Readyz => 3,
            TaskKind::Sync => 4,
            TaskKind::HookTimeout | TaskKind::StopTimeout => 5,
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
    tasks: BTreeMap<Key, (String, Task)>,
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
        self.tasks.insert(key, (apiserver.to_string(), task));
    }

    pub(crate) fn next_time(&self) -> Option<u64> {
        self.tasks.keys().next().map(|k| k.time)
    }

    /// The next task: its time, its apiserver and the task.
    pub(crate) fn pop(&mut self) -> Option<(u64, String, Task)> {
        let (key, (name, task)) = self.tasks.pop_first()?;
        Some((key.time, name, task))
    }
}
