//! One kube-apiserver and its bootstrap controller, after `pkg/controlplane/controller.go`
//! (1.20) and `pkg/controlplane/controller/kubernetesservice/controller.go` (1.27+): removing a
//! stale endpoint at start, the repair loops gating readiness, creating the `kubernetes` Service
//! and reconciling its Endpoints, and the pre-shutdown hook.

use std::collections::BTreeMap;

use crate::api::{
    Behavior, EndpointPort, IntOrString, Protocol, Service, ServicePort, ServiceType,
};
use crate::etcd::{self, Value};
use crate::event::EventKind;
use crate::ipallocator::{family_of, Range};
use crate::portallocator::PortAllocator;
use crate::reconcilers::{ApiError, EndpointReconciler, ReconcileError};
use crate::registry::{Allocators, IpView, PortView, Storage, COMPONENT};
use crate::repair::{clusterip, nodeport, ClusterIpRepair, NodePortRepair};
use crate::rng::SimRng;
use crate::scenario::{ApiserverSpec, ClusterConfig};

/// The `kubernetes` Service's name; it lives in `default`.
pub const KUBERNETES: &str = "kubernetes";

/// The system namespaces the apiserver keeps (`systemnamespaces` controller, every minute).
pub const SYSTEM_NAMESPACES: [&str; 4] =
    ["kube-system", "kube-public", "default", "kube-node-lease"];
pub const SYSTEM_NAMESPACES_INTERVAL_MS: u64 = 60_000;
/// The kubernetes-service loop polls `/readyz` this often until it answers 200.
pub const READYZ_POLL_MS: u64 = 100;
/// 1.29: the post-start hook waits this long for the first successful repair runs.
pub const REPAIR_HOOK_TIMEOUT_MS: u64 = 60_000;
pub const REPAIR_HOOK: &str = "start-service-ip-repair-controllers";

string_enum! {
    /// The process: what a supervisor sees of one apiserver.
    pub enum Status {
        Starting = "starting",
        Running = "running",
        Stopping = "stopping",
        Stopped = "stopped",
        Crashed = "crashed",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apiserver {
    pub spec: ApiserverSpec,
    pub status: Status,
    /// Bumped at every start, stop and crash: timers of an earlier life are ignored.
    pub epoch: u64,
    /// Post-start hooks done (1.29: the first repair runs succeeded).
    pub hooks_done: bool,
    /// The kubernetes-service loop found `/readyz` answering 200 and now runs every interval.
    pub syncing: bool,
    pub isolated_until: Option<u64>,
    pub reconciler: EndpointReconciler,
    pub ip_repair: ClusterIpRepair,
    pub port_repair: NodePortRepair,
    pub ip_repair_ok: bool,
    pub port_repair_ok: bool,
    pub allocators: Allocators,
    /// 1.27+: the system namespaces are known to exist (the informer synced); gates readiness.
    pub namespaces_ok: bool,
    /// 1.27+: the start-up RemoveEndpoints waits for the Service informer, i.e. for etcd.
    pub pending_remove: bool,
}

/// What the world must do after a start instant.
#[derive(Debug, PartialEq, Eq)]
pub enum Started {
    Ready,
    /// 1.29: still waiting for a repair run to succeed (the hook times out after a minute).
    WaitingForRepair,
    /// 1.20: the synchronous repair failed and `Start()` called `klog.Fatalf`.
    Fatal,
}

impl Apiserver {
    /// A process with fresh memory: allocators, repair controllers and reconciler all new.
    pub fn new(spec: ApiserverSpec, cfg: &ClusterConfig, behavior: Behavior) -> Self {
        let keys = [
            (etcd::RANGE_SERVICE_IPS),
            (etcd::RANGE_SECONDARY_SERVICE_IPS),
        ];
        let ips = cfg
            .service_ip_ranges
            .networks()
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
            ip_repair_ok: false,
            port_repair_ok: false,
            allocators: Allocators { ips, ports },
            namespaces_ok: behavior == Behavior::V1_20,
            pending_remove: false,
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
        *self = Apiserver {
            epoch,
            isolated_until,
            ..Apiserver::new(self.spec.clone(), cfg, behavior)
        };
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

    pub fn ip(&self) -> String {
        self.spec.advertise_address.to_string()
    }

    pub fn is_up(&self) -> bool {
        matches!(self.status, Status::Running | Status::Stopping)
    }

    /// `/readyz`: post-start hooks done, informers synced and etcd reachable.
    pub fn ready(&self, reachable: bool) -> bool {
        self.status == Status::Running && self.hooks_done && self.namespaces_ok && reachable
    }

    fn endpoint_ports(cfg: &ClusterConfig) -> Vec<EndpointPort> {
        vec![EndpointPort {
            name: "https".into(),
            port: cfg.secure_port,
            protocol: Protocol::TCP,
        }]
    }

    /// The start instant: remove a stale endpoint of ours, run the first repair passes.
    pub fn start(&mut self, st: &mut Storage, cfg: &ClusterConfig, behavior: Behavior) -> Started {
        self.status = Status::Running;
        for warning in cfg.startup_warnings() {
            st.rec.log(COMPONENT, EventKind::StartupWarning, warning);
        }
        if behavior == Behavior::V1_29 && !st.reachable {
            // The kubernetes-service controller first waits for its Service informer.
            self.pending_remove = true;
        } else {
            self.remove_stale_endpoint(st, cfg, behavior);
        }
        self.ensure_namespaces(st, behavior);
        match behavior {
            Behavior::V1_20 => {
                // Start() runs each RunOnce synchronously and dies if one fails; then the loops
                // start, and their first run is immediate.
                if let Err(e) = self.repair_cluster_ips(st) {
                    st.rec.log(
                        COMPONENT,
                        EventKind::InitialCheckFailed,
                        format!("Unable to perform initial IP allocation check: {e}"),
                    );
                    return Started::Fatal;
                }
                if let Err(e) = self.repair_node_ports(st) {
                    st.rec.log(
                        COMPONENT,
                        EventKind::InitialCheckFailed,
                        format!("Unable to perform initial service nodePort check: {e}"),
                    );
                    return Started::Fatal;
                }
                self.run_repairs(st);
                self.hooks_done = true;
                Started::Ready
            }
            Behavior::V1_29 => {
                self.run_repairs(st);
                if self.hooks_done {
                    Started::Ready
                } else {
                    Started::WaitingForRepair
                }
            }
        }
    }

    /// RemoveEndpoints of our own address at start, in case an earlier life did not exit cleanly.
    pub fn remove_stale_endpoint(
        &mut self,
        st: &mut Storage,
        cfg: &ClusterConfig,
        behavior: Behavior,
    ) {
        self.pending_remove = false;
        let ip = self.ip();
        match self.reconciler.remove_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg)) {
            Ok(()) => st.rec.log(COMPONENT, EventKind::StaleEndpointRemoved,
                "Found stale data, removed previous endpoints on kubernetes service, apiserver didn't exit successfully previously".into()),
            Err(e) if e.is_not_found() => {}
            Err(e) => st.rec.log(COMPONENT, EventKind::RemoveEndpointsFailed, match behavior {
                Behavior::V1_20 => format!("Unable to remove old endpoints from kubernetes service: {e}"),
                Behavior::V1_29 => format!("Error removing old endpoints from kubernetes service: {e}"),
            }),
        }
    }

    /// One run of both repair loops (each logs its own failure and tries again next interval).
    /// The first success of both completes the post-start hook.
    pub fn run_repairs(&mut self, st: &mut Storage) {
        match self.repair_cluster_ips(st) {
            Ok(()) => self.ip_repair_ok = true,
            Err(e) => st.rec.log(clusterip::COMPONENT, EventKind::RepairFailed, e),
        }
        match self.repair_node_ports(st) {
            Ok(()) => self.port_repair_ok = true,
            Err(e) => st.rec.log(nodeport::COMPONENT, EventKind::RepairFailed, e),
        }
        if self.ip_repair_ok && self.port_repair_ok {
            self.hooks_done = true;
        }
    }

    fn repair_cluster_ips(&mut self, st: &mut Storage) -> Result<(), String> {
        st.check()
            .map_err(|e| format!("unable to refresh the service IP block: {e}"))?;
        let read: Vec<_> = self
            .allocators
            .ips
            .iter()
            .map(|v| {
                st.etcd
                    .range(v.key, st.now)
                    .map_or((Default::default(), None), |(r, rev)| {
                        (r.clone(), Some(rev))
                    })
            })
            .collect();
        let snapshots: Vec<_> = read.iter().map(|(r, _)| r.clone()).collect();
        let services = st.etcd.services(st.now);
        let written = self.ip_repair.run_once(&snapshots, &services, st.rec)?;
        for ((view, snapshot), (_, read_rev)) in
            self.allocators.ips.iter_mut().zip(written).zip(read)
        {
            st.etcd
                .put(view.key, Value::Range(snapshot.clone()), None, st.now);
            // CreateOrUpdate restores memory and remembers the version it read, not the new one.
            if view
                .alloc
                .restore_raw(&snapshot.range, &snapshot.data)
                .is_ok()
            {
                view.last = read_rev;
            }
        }
        Ok(())
    }

    fn repair_node_ports(&mut self, st: &mut Storage) -> Result<(), String> {
        st.check()
            .map_err(|e| format!("unable to refresh the port allocations: {e}"))?;
        let view = &mut self.allocators.ports;
        let (snapshot, read_rev) = st
            .etcd
            .range(view.key, st.now)
            .map_or((Default::default(), None), |(r, rev)| {
                (r.clone(), Some(rev))
            });
        let services = st.etcd.services(st.now);
        let written = self.port_repair.run_once(&snapshot, &services, st.rec)?;
        st.etcd
            .put(view.key, Value::Range(written.clone()), None, st.now);
        if view
            .alloc
            .restore_raw(&written.range, &written.data)
            .is_ok()
        {
            view.last = read_rev;
        }
        Ok(())
    }

    /// The system namespaces loop: create whichever is missing. 1.27+ checks an informer cache
    /// first, so nothing is asked of etcd while they all exist; 1.20 GETs each one through the
    /// API (failing while etcd is unreachable) and leaves `default` to the kubernetes-service loop.
    pub fn ensure_namespaces(&mut self, st: &mut Storage, behavior: Behavior) {
        let (names, text): (&[&str], &str) = match behavior {
            Behavior::V1_29 => (&SYSTEM_NAMESPACES, "Namespace"),
            Behavior::V1_20 => (
                &["kube-system", "kube-public", "kube-node-lease"],
                "namespace",
            ),
        };
        let mut ok = true;
        for ns in names {
            if let Err(e) = ensure_namespace(st, ns, behavior) {
                ok = false;
                st.rec.log(
                    COMPONENT,
                    EventKind::NamespaceCreateFailed,
                    format!("unable to create required kubernetes system {text} {ns}: {e}"),
                );
            }
        }
        // 1.20 does not gate readiness on them; 1.27+ waits for its informer to have seen them.
        self.namespaces_ok |= ok;
    }

    /// The `kubernetes` Service as this apiserver would create it.
    pub fn kubernetes_service(cfg: &ClusterConfig) -> Service {
        let node_port = cfg.kubernetes_service_node_port;
        Service {
            namespace: "default".into(),
            name: KUBERNETES.into(),
            type_: if node_port > 0 {
                ServiceType::NodePort
            } else {
                ServiceType::ClusterIP
            },
            cluster_ip: cfg.service_ip_ranges.kubernetes_service_ip().to_string(),
            labels: BTreeMap::from([
                ("component".to_string(), "apiserver".to_string()),
                ("provider".to_string(), "kubernetes".to_string()),
            ]),
            ports: vec![ServicePort {
                name: "https".into(),
                protocol: Protocol::TCP,
                port: cfg.kubernetes_service_port,
                target_port: Some(IntOrString::Int(cfg.secure_port)),
                node_port,
            }],
            ip_families: vec![family_of(&cfg.service_ip_ranges.primary)],
            ip_family_policy: Some("SingleStack".into()),
            ..Service::default()
        }
    }

    /// `UpdateKubernetesService(false)`: create the Service if missing (never correct it), then
    /// reconcile the Endpoints. Returns whether the Service was created.
    pub fn sync_kubernetes_service(
        &mut self,
        st: &mut Storage,
        cfg: &ClusterConfig,
        behavior: Behavior,
        rng: &mut SimRng,
    ) -> bool {
        let result = (|| -> Result<bool, (EventKind, String)> {
            let failed = |e: String| (EventKind::SyncFailed, e);
            st.check().map_err(|e| failed(e.to_string()))?;
            if behavior == Behavior::V1_20 {
                ensure_namespace(st, "default", behavior).map_err(failed)?;
            }
            let mut created = false;
            if st.etcd.service("default", KUBERNETES, st.now).is_none() {
                self.allocators
                    .create_service(st, rng, Self::kubernetes_service(cfg))
                    .map_err(failed)?;
                created = true;
            }
            let ip = self.ip();
            self.reconciler
                .reconcile_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg), false)
                .map_err(|e| match e {
                    ReconcileError::Refused(_) => {
                        (EventKind::RefusedToEraseEndpoints, e.to_string())
                    }
                    ReconcileError::Api(_) => failed(e.to_string()),
                })?;
            Ok(created)
        })();
        result.unwrap_or_else(|(kind, e)| {
            st.rec.log(
                COMPONENT,
                kind,
                format!("unable to sync kubernetes service: {e}"),
            );
            false
        })
    }

    /// The pre-shutdown hook: stop reconciling and remove our endpoint. Returns whether the
    /// removal finished (otherwise the hook waits until its 2× interval timeout).
    pub fn stop(&mut self, st: &mut Storage, cfg: &ClusterConfig) -> bool {
        self.status = Status::Stopping;
        self.syncing = false;
        st.rec.log(
            COMPONENT,
            EventKind::ReconcilerShutdown,
            "Shutting down kubernetes service endpoint reconciler".into(),
        );
        self.reconciler.stop_reconciling();
        let ip = self.ip();
        match self
            .reconciler
            .remove_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg))
        {
            Ok(()) => true,
            Err(ReconcileError::Api(ApiError::Unavailable(_))) => false,
            Err(e) => {
                st.rec.log(
                    COMPONENT,
                    EventKind::RemoveEndpointsFailed,
                    format!("Unable to remove endpoints from kubernetes service: {e}"),
                );
                true
            }
        }
    }
}

/// `createNamespaceIfNeeded`; under 1.29 an existing namespace is known without asking etcd.
fn ensure_namespace(st: &mut Storage, ns: &str, behavior: Behavior) -> Result<(), String> {
    let key = etcd::namespace_key(ns);
    if behavior == Behavior::V1_29 && st.etcd.get(&key, st.now).is_some() {
        return Ok(());
    }
    st.check().map_err(|e| e.to_string())?;
    if st.etcd.get(&key, st.now).is_none() {
        st.etcd.put(&key, Value::Namespace, None, st.now);
    }
    Ok(())
}
