//! Kubernetes events and log lines, as the scenario contract (`docs/scenario.md`) prints them,
//! each with a typed kind.

use serde::{Deserialize, Serialize};

/// `{"time_ms", "apiserver", "component", "type", "reason", "object", "message"}`; log lines that
/// Kubernetes prints rather than records have `type` `Log` and an empty `reason`.
///
/// `kind` says what happened, so that the UI and the explanations never read the message text,
/// which stays Kubernetes' own, verbatim. It is not part of the contract's JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When it happened (virtual ms).
    pub time_ms: u64,
    /// The apiserver it came from; empty when none did (a lease's expiry, a refusal no apiserver
    /// served).
    pub apiserver: String,
    /// The controller or loop that recorded or printed it.
    pub component: String,
    /// `Warning`, or `Log` for a printed line.
    #[serde(rename = "type")]
    pub type_: String,
    /// The event's reason; empty for a log line.
    pub reason: String,
    /// What it is about (`namespace/name`, an IP, a port); empty for a log line.
    pub object: String,
    /// Kubernetes' text, verbatim.
    pub message: String,
    /// What happened, typed (not part of the contract's JSON).
    #[serde(skip)]
    pub kind: EventKind,
}

/// What an event or log line reports. Variants that Kubernetes records as events carry their
/// reason (`reason()`); the rest are log lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EventKind {
    // The repair loops' events (`repair.go`), one per reason.
    /// `ClusterIPNotValid`: a Service's ClusterIP does not parse, or is of a family no longer
    /// configured.
    ClusterIpNotValid,
    /// `ClusterIPNotAllocated`: a Service's ClusterIP was not allocated (no bit, no IPAddress);
    /// repaired.
    ClusterIpNotAllocated,
    /// `ClusterIPAlreadyAllocated`: two Services hold the same ClusterIP.
    ClusterIpAlreadyAllocated,
    /// `ClusterIPOutOfRange`: a Service's ClusterIP lies outside the service CIDR (1.33+: outside
    /// every ServiceCIDR).
    ClusterIpOutOfRange,
    /// RepairIPAddress (1.33+): a Service's IPAddress names another parent; recreated.
    ClusterIpWrongReference,
    /// RepairIPAddress: an orphan IPAddress past its grace period, deleted.
    IpAddressLeaked,
    /// RepairIPAddress: an IPAddress whose parent is not a Service, deleted.
    IpAddressModified,
    /// RepairIPAddress: an IPAddress whose Service does not hold its address, deleted.
    IpAddressWrongReference,
    /// The default-ServiceCIDR controller: the `kubernetes` ServiceCIDR differs from the flags.
    DefaultServiceCidrInconsistent,
    /// The default-ServiceCIDR controller could not create or mark it.
    DefaultServiceCidrError,
    /// Log lines of the ServiceCIDR machinery (allocator set-up, deletions).
    ServiceCidrLog,
    /// `ServiceCIDRFull`: the ClusterIP repair found no room left in the range for a Service's
    /// address.
    ServiceCidrFull,
    /// `PortNotAllocated`: a Service's NodePort was missing from the allocation; repaired.
    PortNotAllocated,
    /// `PortAlreadyAllocated`: two Services hold the same NodePort.
    PortAlreadyAllocated,
    /// `PortOutOfRange`: a Service's NodePort lies outside `--service-node-port-range`.
    PortOutOfRange,
    /// `PortRangeFull`: the NodePort repair found no room left in the range for a Service's port.
    PortRangeFull,
    /// `UnknownError`, of either repair loop.
    RepairUnknownError,
    /// The log line that accompanies a repair event.
    RepairDetail,
    /// `checkLeaked`: a leftover allocation seen for the first time.
    LeakFlagged,
    /// `checkLeaked`: the run that frees it.
    LeakCleanedUp,
    /// `checkLeaked`: a suspected leak outside the configured range.
    LeakNotAllocatable,
    /// A repair run could not complete (etcd unreachable, a full range).
    RepairFailed,
    /// Releasing a deleted Service's IP or port failed (the registry logs and goes on).
    ReleaseFailed,
    /// A warning about the flags, printed at start.
    StartupWarning,
    /// 1.20 `Start()` or the 1.29 post-start hook gave up on the first repair runs.
    InitialCheckFailed,
    /// At start, an endpoint left by an earlier life of this apiserver was removed.
    StaleEndpointRemoved,
    /// Removing our endpoint (at start or in the pre-shutdown hook) failed.
    RemoveEndpointsFailed,
    /// The pre-shutdown hook ran out of time.
    RemoveEndpointsTimedOut,
    /// The system-namespaces controller could not create a namespace.
    NamespaceCreateFailed,
    /// The pre-shutdown hook began: no more reconciling.
    ReconcilerShutdown,
    /// A reconciler rewrote `default/kubernetes` Endpoints to these addresses.
    EndpointsReset {
        /// The addresses the Endpoints now list.
        addresses: Vec<String>,
    },
    /// The lease reconciler saw no lease at all and kept the Endpoints as they were.
    RefusedToEraseEndpoints,
    /// The kubernetes-service loop failed this round.
    SyncFailed,
    /// etcd deleted a `/masterleases/` key whose TTL ran out: a note of the lab's own (etcd logs
    /// nothing), under `SIM_COMPONENT`.
    LeaseExpired {
        /// The IP of the apiserver whose lease expired.
        ip: String,
    },
    /// A client pod dialed 10.96.0.1:443, kube-proxy sent it to `ip`, and it got through: a
    /// line of the lab's own, under `SIM_COMPONENT`.
    ClientConnected {
        /// The client pod's name.
        client: String,
        /// The apiserver address kube-proxy chose.
        ip: String,
    },
    /// A client pod dialed 10.96.0.1:443, kube-proxy sent it to `ip`, and nothing answers yet
    /// (its dial times out later): a line of the lab's own, under `SIM_COMPONENT`.
    ClientDialing {
        /// The client pod's name.
        client: String,
        /// The address kube-proxy chose, where nothing answers.
        ip: String,
    },
    /// A client pod's idle connection to `ip` closed with no request open (a graceful GOAWAY,
    /// a crashed peer's close, a failed health check): no error reaches client-go, and its next
    /// request dials anew. A line of the lab's own.
    ClientClosed {
        /// The client pod's name.
        client: String,
        /// The apiserver address it was connected to.
        ip: String,
    },
    /// A job's connection to `ip` broke under its GET with `failure`, and client-go's REST
    /// client sends the GET again 1 s later on a new connection (the error does not reach the
    /// job): a line of the lab's own, under `SIM_COMPONENT`.
    ClientRetrying {
        /// The client pod's name.
        client: String,
        /// The address of the connection that broke.
        ip: String,
        /// How it broke.
        failure: crate::client::Failure,
    },
    /// A client pod's attempt or connection failed, with client-go's error: a line of the lab's
    /// own, under `SIM_COMPONENT`, whose message says the cause.
    ClientFailed {
        /// The client pod's name.
        client: String,
        /// The address of the attempt or connection (none when kube-proxy REJECTed the dial).
        ip: Option<String>,
        /// How it failed.
        failure: crate::client::Failure,
    },
    /// The lab refused a user action (`reason` `action_failed`); not a Kubernetes event.
    ActionFailed,
    /// Anything else (events read back from JSON have no kind).
    #[default]
    Other,
}

impl EventKind {
    /// The Kubernetes event reason, for kinds recorded as events.
    pub fn reason(&self) -> Option<&'static str> {
        Some(match self {
            EventKind::ClusterIpNotValid => "ClusterIPNotValid",
            EventKind::ClusterIpNotAllocated => "ClusterIPNotAllocated",
            EventKind::ClusterIpAlreadyAllocated => "ClusterIPAlreadyAllocated",
            EventKind::ClusterIpOutOfRange => "ClusterIPOutOfRange",
            EventKind::ServiceCidrFull => "ServiceCIDRFull",
            EventKind::ClusterIpWrongReference => "ClusterIPNotAllocated",
            EventKind::IpAddressLeaked | EventKind::IpAddressModified => "IPAddressNotAllocated",
            EventKind::IpAddressWrongReference => "IPAddressWrongReference",
            EventKind::DefaultServiceCidrInconsistent => "KubernetesDefaultServiceCIDRInconsistent",
            EventKind::DefaultServiceCidrError => "KubernetesDefaultServiceCIDRError",
            EventKind::PortNotAllocated => "PortNotAllocated",
            EventKind::PortAlreadyAllocated => "PortAlreadyAllocated",
            EventKind::PortOutOfRange => "PortOutOfRange",
            EventKind::PortRangeFull => "PortRangeFull",
            EventKind::RepairUnknownError => "UnknownError",
            EventKind::ActionFailed => ACTION_FAILED,
            _ => return None,
        })
    }
}

/// The reason of the lab's own refusals, and the component of every line the lab writes itself.
pub(crate) const ACTION_FAILED: &str = "action_failed";
/// The component of the lines the lab writes itself (lease expiries, refused actions).
pub const SIM_COMPONENT: &str = "bootstrap-sim";

/// A user action the lab refused; the world is unchanged. Also recorded as an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionFailed {
    /// The apiserver that refused it, empty when none could serve it.
    pub apiserver: String,
    /// `namespace/name`, an apiserver's name, an IP or a port.
    pub object: String,
    /// What the reader is told, in Kubernetes' words where it has some.
    pub message: String,
}

impl std::fmt::Display for ActionFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Event {
    /// A log line at `time_ms` (`klog` / `runtime.HandleError`, or a note of the lab's own under
    /// `SIM_COMPONENT`).
    pub fn log(
        time_ms: u64,
        apiserver: &str,
        component: &str,
        kind: EventKind,
        message: String,
    ) -> Self {
        Event::warning(time_ms, apiserver, component, kind, "", message).into_log()
    }

    /// A `Warning` event about `object`, with the kind's reason.
    pub fn warning(
        time_ms: u64,
        apiserver: &str,
        component: &str,
        kind: EventKind,
        object: &str,
        message: String,
    ) -> Self {
        Event {
            time_ms,
            apiserver: apiserver.to_string(),
            component: component.to_string(),
            type_: "Warning".into(),
            reason: kind.reason().unwrap_or_default().to_string(),
            object: object.to_string(),
            message,
            kind,
        }
    }

    /// Printed, not recorded: no type of event, no reason, no object.
    fn into_log(mut self) -> Self {
        self.type_ = "Log".into();
        self.reason.clear();
        self.object.clear();
        self
    }

    /// The event that records a refused action.
    pub fn action_failed(time_ms: u64, f: &ActionFailed) -> Self {
        Event::warning(
            time_ms,
            &f.apiserver,
            SIM_COMPONENT,
            EventKind::ActionFailed,
            &f.object,
            f.message.clone(),
        )
    }
}

/// Collects what controllers record during one instant of one apiserver.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// The instant the events are recorded at (virtual ms).
    pub time_ms: u64,
    /// The apiserver recording them.
    pub apiserver: String,
    /// The events and log lines recorded, in order.
    pub events: Vec<Event>,
}

impl Recorder {
    /// A recorder for `apiserver` at `time_ms`, empty.
    pub fn new(time_ms: u64, apiserver: impl Into<String>) -> Self {
        Recorder { time_ms, apiserver: apiserver.into(), events: Vec::new() }
    }

    /// A `Warning` event about `object` (`namespace/name`); its reason is the kind's.
    pub fn warning(&mut self, component: &str, kind: EventKind, object: &str, message: String) {
        debug_assert!(kind.reason().is_some(), "{kind:?} is not an event");
        let e = Event::warning(self.time_ms, &self.apiserver, component, kind, object, message);
        self.events.push(e);
    }

    /// A log line (`klog` / `runtime.HandleError`).
    pub fn log(&mut self, component: &str, kind: EventKind, message: String) {
        let e = Event::log(self.time_ms, &self.apiserver, component, kind, message);
        self.events.push(e);
    }
}
