//! One kube-apiserver and its bootstrap controller, after `pkg/controlplane/controller.go`
//! (1.20–1.27) and `pkg/controlplane/controller/kubernetesservice/controller.go` (1.28+): its lives
//! (start, stop, crash, partition) and its start instant here; the `kubernetes` Service and
//! Endpoints in `kubernetesservice`, the repair loops gating readiness in `repairhook`, the
//! system namespaces in `systemnamespaces`.

mod config;
mod defaultservicecidr;
mod kubernetesservice;
mod repairhook;
mod systemnamespaces;

use crate::api::{Behavior, RangeAllocation};
use crate::etcd;
use crate::event::EventKind;
use crate::ipallocator::{family_of, Range};
use crate::portallocator::PortAllocator;
use crate::reconcilers::EndpointReconciler;
use crate::registry::{Allocators, IpView, PortView, Storage, COMPONENT};
use crate::repair::{CleanRun, ClusterIpRepair, NodePortRepair};

/// The system namespaces the apiserver keeps (`systemnamespaces` controller, every minute).
pub(crate) const SYSTEM_NAMESPACES: [&str; 4] =
    ["kube-system", "kube-public", "default", "kube-node-lease"];
/// How often the system-namespaces controller makes sure they exist.
pub const SYSTEM_NAMESPACES_INTERVAL_MS: u64 = 60_000;
/// The kubernetes-service loop polls `/readyz` this often until it answers 200.
pub const READYZ_POLL_MS: u64 = 100;
/// 1.29: the post-start hook waits this long for the first successful repair runs.
pub const REPAIR_HOOK_TIMEOUT_MS: u64 = 60_000;
/// The generic apiserver's `ShutdownTimeout`, its `--request-timeout` (60 s): once the listener
/// has closed, how long `http.Server.Shutdown` waits for open requests, a watch among them, before
/// the process goes on to exit (`genericapiserver.go`, `secure_serving.go` `RunServer`).
pub const SHUTDOWN_TIMEOUT_MS: u64 = 60_000;
/// The post-start hook that waits for the first successful repair runs (behaviours after 1.20).
pub const REPAIR_HOOK: &str = "start-service-ip-repair-controllers";
pub use config::{ApiserverSpec, ClusterConfig};
pub use defaultservicecidr::DEFAULT_SERVICE_CIDR;
pub use defaultservicecidr::{DEFAULT_SERVICE_CIDR_INTERVAL_MS, DEFAULT_SERVICE_CIDR_POLL_MS};

string_enum! {
    /// The process: what a supervisor sees of one apiserver.
    pub enum Status {
        /// Started, within its `startup_delay`: not serving yet.
        Starting = "starting",
        /// Serving.
        Running = "running",
        /// Its pre-shutdown hook (`RemoveEndpoints`) runs; it exits when that ends or times out.
        Stopping = "stopping",
        /// Exited after a stop.
        Stopped = "stopped",
        /// Exited on a crash, a failed post-start hook or a fatal initial repair.
        Crashed = "crashed",
    }
}

/// One kube-apiserver process: its spec, its life, and what it holds in memory (allocators, repair
/// loops, endpoint reconciler).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apiserver {
    /// Its name, address and start.
    pub spec: ApiserverSpec,
    /// Its process status.
    pub status: Status,
    /// Bumped at every start, stop and crash: timers of an earlier life are ignored.
    pub epoch: u64,
    /// Post-start hooks done (1.29: the first repair runs succeeded).
    pub hooks_done: bool,
    /// The kubernetes-service loop found `/readyz` answering 200 and now runs every interval.
    pub syncing: bool,
    /// Cut off from etcd until this instant (virtual ms); the partition outlives restarts.
    pub isolated_until: Option<u64>,
    /// Its endpoint reconciler (`--endpoint-reconciler-type`).
    pub reconciler: EndpointReconciler,
    /// Its ClusterIP repair loop.
    pub ip_repair: ClusterIpRepair,
    /// Its NodePort repair loop.
    pub port_repair: NodePortRepair,
    /// The repair loops' last runs that found nothing (see [`CleanRun`]).
    pub(crate) ip_repair_clean: CleanRun<Vec<RangeAllocation>>,
    pub(crate) port_repair_clean: CleanRun<RangeAllocation>,
    pub(crate) ip_repair_ok: bool,
    pub(crate) port_repair_ok: bool,
    /// Its in-memory ClusterIP and NodePort allocators.
    pub allocators: Allocators,
    /// 1.27+: the system namespaces are known to exist (the informer synced); gates readiness.
    pub namespaces_ok: bool,
    /// 1.27+: the start-up RemoveEndpoints waits for the Service informer, i.e. for etcd.
    pub pending_remove: bool,
    /// 1.33+: the default-ServiceCIDR hook has synced once (readiness waits for it); always
    /// true before 1.33, which has no such hook.
    pub cidr_ok: bool,
    /// 1.35: the `KubernetesDefaultServiceCIDRInconsistent` event is recorded once per life.
    pub(crate) cidr_inconsistency_reported: bool,
}

/// What the world must do after a start instant.
#[derive(Debug, PartialEq, Eq)]
pub enum Started {
    /// Its post-start hooks are done: nothing to wait for.
    Ready,
    /// 1.29: still waiting for a repair run to succeed (the hook times out after a minute).
    WaitingForRepair,
    /// 1.20: the synchronous repair failed and `Start()` called `klog.Fatalf`.
    Fatal,
}

impl Apiserver {
    /// A process with fresh memory: allocators, repair controllers and reconciler all new.
    pub fn new(spec: ApiserverSpec, cfg: &ClusterConfig, behavior: Behavior) -> Self {
        let keys = [(etcd::RANGE_SERVICE_IPS), (etcd::RANGE_SECONDARY_SERVICE_IPS)];
        let bitmaps = if behavior.cluster_ip_bitmap() {
            cfg.service_ip_ranges.networks()
        } else {
            Vec::new()
        };
        let ips = bitmaps
            .into_iter()
            .zip(keys)
            .map(|(net, key)| IpView {
                alloc: Range::new(net, behavior),
                key,
                resource: "serviceipallocations",
                last: None,
            })
            .collect();
        let ports = PortView {
            alloc: PortAllocator::new(cfg.node_ports, behavior),
            key: etcd::RANGE_NODE_PORTS,
            resource: "servicenodeportallocations",
            last: None,
        };
        Apiserver {
            status: Status::Stopped,
            epoch: 0,
            hooks_done: false,
            syncing: false,
            isolated_until: None,
            reconciler: EndpointReconciler::new(cfg.reconciler, cfg.apiserver_count, behavior),
            ip_repair: ClusterIpRepair::new(cfg.service_ip_ranges.networks(), behavior),
            port_repair: NodePortRepair::new(cfg.node_ports, behavior),
            ip_repair_clean: CleanRun::default(),
            port_repair_clean: CleanRun::default(),
            ip_repair_ok: false,
            port_repair_ok: false,
            allocators: Allocators {
                ips,
                ports,
                families: cfg.service_ip_ranges.networks().iter().map(family_of).collect(),
                behavior,
            },
            namespaces_ok: behavior.legacy(),
            pending_remove: false,
            cidr_ok: !behavior.ip_addresses(),
            cidr_inconsistency_reported: false,
            spec,
        }
    }

    /// A start is under way (after its start-up delay, the start instant): a new life, whose
    /// epoch the start's timers carry.
    pub fn begin_start(&mut self) -> u64 {
        self.status = Status::Starting;
        self.new_epoch()
    }

    /// Timers queued before now belong to an earlier life and will be ignored.
    pub fn new_epoch(&mut self) -> u64 {
        self.epoch += 1;
        self.epoch
    }

    /// Started again by hand: fresh memory, the same identity, life and partition.
    pub fn restart(&mut self, cfg: &ClusterConfig, behavior: Behavior) {
        let (epoch, isolated_until) = (self.epoch, self.isolated_until);
        *self =
            Apiserver { epoch, isolated_until, ..Apiserver::new(self.spec.clone(), cfg, behavior) };
    }

    /// The process is gone (`Crashed`, or `Stopped` after its pre-shutdown hook): its memory
    /// with it. The partition it sat behind outlives it.
    pub fn exit(&mut self, status: Status, cfg: &ClusterConfig, behavior: Behavior) {
        self.restart(cfg, behavior);
        self.status = status;
        self.new_epoch();
    }

    /// Cut off from etcd until `until` (the later end, when already cut off).
    pub fn isolate(&mut self, until: u64) {
        self.isolated_until = Some(self.isolated_until.map_or(until, |t| t.max(until)));
    }

    /// The partition heals if its time has come; returns whether it did.
    pub fn end_isolation(&mut self, now: u64) -> bool {
        let ends = self.isolated_until.is_some_and(|t| t <= now);
        if ends {
            self.isolated_until = None;
        }
        ends
    }

    /// Its advertise address, as text.
    pub fn ip(&self) -> String {
        self.spec.advertise_address.to_string()
    }

    /// The process serves: `Running`, or `Stopping` while its pre-shutdown hook runs.
    pub fn is_up(&self) -> bool {
        matches!(self.status, Status::Running | Status::Stopping)
    }

    /// `/readyz`: post-start hooks done, informers synced and etcd reachable.
    pub fn ready(&self, reachable: bool) -> bool {
        self.status == Status::Running
            && self.hooks_done
            && self.namespaces_ok
            && self.cidr_ok
            && reachable
    }

    /// 1.33 at start: "kube-apiserver started with IP allocator and dual write enabled but
    /// bitmap allocator does not exist, recreating it ...": an empty bitmap is written where
    /// none is stored (nothing else would: no repair loop keeps it any more). Upstream does it
    /// while building its storage and exits when etcd does not answer; the lab's apiserver
    /// instead retries with the default-ServiceCIDR hook, which readiness waits for.
    pub(crate) fn init_dual_write_bitmaps(&mut self, st: &mut Storage) {
        if !st.reachable {
            return;
        }
        for view in &mut self.allocators.ips {
            if view.stored(st).1.is_none() {
                st.rec.log(COMPONENT, EventKind::ServiceCidrLog, "kube-apiserver started with IP allocator and dual write enabled but bitmap allocator does not exist, recreating it ...".to_string());
                let empty = Range::new(view.alloc.cidr(), Behavior::V1_33).snapshot();
                view.create_or_update(st, empty, None);
            }
        }
    }

    /// The start instant: remove a stale endpoint of ours, run the first repair passes.
    pub fn start(&mut self, st: &mut Storage, cfg: &ClusterConfig, behavior: Behavior) -> Started {
        self.status = Status::Running;
        for warning in cfg.startup_warnings() {
            st.rec.log(COMPONENT, EventKind::StartupWarning, warning);
        }
        if !behavior.legacy() && !st.reachable {
            // The kubernetes-service controller first waits for its Service informer.
            self.pending_remove = true;
        } else {
            self.remove_stale_endpoint(st, cfg, behavior);
        }
        self.ensure_namespaces(st, behavior);
        if behavior.ip_addresses() {
            self.sync_default_service_cidr(st, cfg, behavior);
        }
        match behavior.legacy() {
            true => {
                // Start() runs each RunOnce synchronously and dies if one fails; then the loops
                // start, and their first run is immediate.
                let initial = |a: &mut Self, st: &mut Storage| {
                    a.repair_cluster_ips(st).map_err(|e| {
                        format!("Unable to perform initial IP allocation check: {e}")
                    })?;
                    a.repair_node_ports(st).map_err(|e| {
                        format!("Unable to perform initial service nodePort check: {e}")
                    })
                };
                if let Err(line) = initial(self, st) {
                    st.rec.log(COMPONENT, EventKind::InitialCheckFailed, line);
                    return Started::Fatal;
                }
                self.run_repairs(st);
                self.hooks_done = true;
                Started::Ready
            }
            false => {
                self.run_repairs(st);
                if self.hooks_done {
                    Started::Ready
                } else {
                    Started::WaitingForRepair
                }
            }
        }
    }
}
