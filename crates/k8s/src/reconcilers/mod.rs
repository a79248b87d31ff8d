//! Endpoint reconcilers for the `default/kubernetes` Service, after
//! `pkg/controlplane/reconcilers/{reconcilers,lease,instancecount,none,endpointsadapter}.go`.
//!
//! A reconciler talks to storage only through [`ReconcilerApi`], which the world implements for
//! one apiserver at one instant (with its reachability), and tests implement in memory. It writes
//! the Endpoints only through [`endpointsadapter`], which writes the EndpointSlice beside them.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Deref, DerefMut};

use crate::api::{Behavior, EndpointPort, EndpointSlice, EndpointSubset, Endpoints};
use crate::event::EventKind;

pub mod endpointsadapter;
mod lease;
mod mastercount;
mod none;

pub use lease::LeaseReconciler;
pub use mastercount::{reset_line, MasterCountReconciler};
pub use none::NoneReconciler;

/// A storage or API error as the reconcilers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// `endpoints "kubernetes" not found`, or a missing lease key.
    NotFound(String),
    /// The object exists already (a create).
    AlreadyExists(String),
    /// A guaranteed update lost its race.
    Conflict(String),
    /// etcd cannot be reached (isolation or outage); the text is what the caller would see.
    Unavailable(String),
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::NotFound(t)
            | ApiError::AlreadyExists(t)
            | ApiError::Conflict(t)
            | ApiError::Unavailable(t) => f.write_str(t),
        }
    }
}

/// What a reconciler can do, through its own apiserver's storage.
pub trait ReconcilerApi {
    /// `default/<name>` Endpoints; `NotFound` when absent.
    fn get_endpoints(&mut self, name: &str) -> Result<Endpoints, ApiError>;
    /// `AlreadyExists` when present.
    fn create_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError>;
    /// `NotFound` when absent.
    fn update_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError>;
    /// Reads the EndpointSlice `namespace/name` in place (`each` is called once); `NotFound`
    /// when absent. The adapter keeps only a comparison, never a copy (it reads every round of
    /// every apiserver).
    fn get_endpoint_slice(
        &mut self,
        namespace: &str,
        name: &str,
        each: &mut dyn FnMut(&EndpointSlice),
    ) -> Result<(), ApiError>;
    /// `AlreadyExists` when present.
    fn create_endpoint_slice(&mut self, slice: &EndpointSlice) -> Result<(), ApiError>;
    /// `NotFound` when absent.
    fn update_endpoint_slice(&mut self, slice: &EndpointSlice) -> Result<(), ApiError>;
    /// `NotFound` when absent.
    fn delete_endpoint_slice(&mut self, namespace: &str, name: &str) -> Result<(), ApiError>;
    /// IPs of the live (unexpired) keys under `/masterleases/`, in key order.
    fn list_leases(&mut self) -> Result<Vec<String>, ApiError>;
    /// Creates or refreshes `/masterleases/<ip>` with the lease TTL.
    fn update_lease(&mut self, ip: &str) -> Result<(), ApiError>;
    /// Deletes `/masterleases/<ip>`; `NotFound` when it does not exist.
    fn remove_lease(&mut self, ip: &str) -> Result<(), ApiError>;
    /// A log line of the reconciler: `Resetting endpoints …`, the only one they print.
    fn log(&mut self, kind: EventKind, line: String);
}

string_enum! {
    /// `--endpoint-reconciler-type`, by its flag value.
    pub enum ReconcilerType {
        /// `lease`: every apiserver keeps a TTL'd lease, and the Endpoints list the live ones.
        Lease = "lease",
        /// `master-count`: every apiserver adds itself, and trims the Endpoints to at most
        /// `--apiserver-count` addresses.
        MasterCount = "master-count",
        /// `none`: the Endpoints are left to whoever runs the cluster.
        None = "none",
    }
}

/// Why a Reconcile/Remove call failed.
///
/// Upstream returns a plain Go `error`; callers only ever log its text, except the bootstrap
/// controller at start, which stays silent when `RemoveEndpoints` fails with a storage NotFound
/// (the normal lease case: no lease of ours is left from a previous run). So the API error is
/// kept as is, and `Display` gives exactly the text upstream would log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReconcileError {
    /// An error from storage or the API, passed through.
    Api(ApiError),
    /// The lease reconciler saw zero leases and would not erase every endpoint
    /// ([`NO_LEASES_V1_29`] or [`NO_LEASES_V1_20`]).
    Refused(String),
}

impl ReconcileError {
    /// A storage NotFound, on which the start-up `RemoveEndpoints` stays silent.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReconcileError::Api(ApiError::NotFound(_)))
    }
}

impl From<ApiError> for ReconcileError {
    fn from(e: ApiError) -> Self {
        ReconcileError::Api(e)
    }
}

impl fmt::Display for ReconcileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReconcileError::Api(e) => e.fmt(f),
            ReconcileError::Refused(t) => f.write_str(t),
        }
    }
}

/// The zero-leases refusal as the 1.29 code words it.
pub const NO_LEASES_V1_29: &str =
    "no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service";
/// The zero-leases refusal as the 1.20 code words it.
pub const NO_LEASES_V1_20: &str =
    "no master IPs were listed in storage, refusing to erase all endpoints for the kubernetes service";

/// The label that keeps the EndpointSliceMirroring controller away from `default/kubernetes`.
pub const SKIP_MIRROR_LABEL: &str = "endpointslice.kubernetes.io/skip-mirror";

/// `EndpointReconciler` of `reconcilers.go`: what the bootstrap controller asks of whichever
/// reconciler `--endpoint-reconciler-type` chose. (`Destroy` is left out: it shuts down the lease
/// reconciler's own storage client, which the model does not have.)
pub trait Reconciler {
    /// `ReconcileEndpoints`: run every endpoint interval by the kubernetes-service loop.
    fn reconcile_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        ports: &[EndpointPort],
        reconcile_ports: bool,
    ) -> Result<(), ReconcileError>;

    /// `RemoveEndpoints`: at start (stale entry of a crashed run) and in the pre-shutdown hook.
    fn remove_endpoints(
        &mut self,
        api: &mut dyn ReconcilerApi,
        service_name: &str,
        ip: &str,
        ports: &[EndpointPort],
    ) -> Result<(), ReconcileError>;

    /// `StopReconciling`: later `reconcile_endpoints` calls do nothing.
    fn stop_reconciling(&mut self);

    /// Whether `stop_reconciling` was called (always false for `none`, which keeps no state).
    fn stopped(&self) -> bool;
}

/// The reconciler one apiserver runs, chosen by `--endpoint-reconciler-type`.
///
/// An enum rather than a `Box<dyn Reconciler>`: the apiserver that holds it must stay `Clone`,
/// `PartialEq` and `Debug` (checkpoints, snapshots, tests), which a boxed trait object is not
/// without hand-written cloning and comparing. It derefs to the trait object, so every
/// [`Reconciler`] method is called on it directly and is dispatched by one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndpointReconciler {
    /// The lease reconciler.
    Lease(LeaseReconciler),
    /// The master-count reconciler.
    MasterCount(MasterCountReconciler),
    /// The no-op reconciler.
    None(NoneReconciler),
}

impl EndpointReconciler {
    /// `master_count` (`--apiserver-count`) is used only by master-count; `behavior` only by lease.
    pub fn new(kind: ReconcilerType, master_count: u32, behavior: Behavior) -> Self {
        match kind {
            ReconcilerType::Lease => EndpointReconciler::Lease(LeaseReconciler::new(behavior)),
            ReconcilerType::MasterCount => {
                EndpointReconciler::MasterCount(MasterCountReconciler::new(master_count))
            }
            ReconcilerType::None => EndpointReconciler::None(NoneReconciler),
        }
    }

    /// The `--endpoint-reconciler-type` it was made for.
    pub fn kind(&self) -> ReconcilerType {
        match self {
            EndpointReconciler::Lease(_) => ReconcilerType::Lease,
            EndpointReconciler::MasterCount(_) => ReconcilerType::MasterCount,
            EndpointReconciler::None(_) => ReconcilerType::None,
        }
    }
}

impl Deref for EndpointReconciler {
    type Target = dyn Reconciler;

    fn deref(&self) -> &Self::Target {
        match self {
            EndpointReconciler::Lease(r) => r,
            EndpointReconciler::MasterCount(r) => r,
            EndpointReconciler::None(r) => r,
        }
    }
}

impl DerefMut for EndpointReconciler {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match self {
            EndpointReconciler::Lease(r) => r,
            EndpointReconciler::MasterCount(r) => r,
            EndpointReconciler::None(r) => r,
        }
    }
}

/// `setSkipMirrorTrue`: sets the skip-mirror label; true when that changed the object.
fn set_skip_mirror_true(e: &mut Endpoints) -> bool {
    let changed = e.labels.get(SKIP_MIRROR_LABEL).map(String::as_str) != Some("true");
    if changed {
        e.labels.insert(SKIP_MIRROR_LABEL.to_string(), "true".to_string());
    }
    changed
}

/// A new, empty `default/<name>` Endpoints.
fn new_endpoints(name: &str) -> Endpoints {
    Endpoints {
        namespace: "default".to_string(),
        name: name.to_string(),
        labels: BTreeMap::new(),
        subsets: Vec::new(),
    }
}

/// The port check shared by both reconcilers: when `reconcile_ports` is false ports always count as
/// correct (the bootstrap controller passes false since 1.17, so a hand-edited port list stays).
/// Otherwise an order-sensitive, element-wise comparison.
fn ports_correct(sub: &EndpointSubset, ports: &[EndpointPort], reconcile_ports: bool) -> bool {
    !reconcile_ports || sub.ports == ports
}
