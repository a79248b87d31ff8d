//! What one apiserver does against etcd (`pkg/registry`): the storage-backed allocators
//! (`allocator`: `pkg/registry/core/service/allocator/storage`), the Service REST paths that use
//! them (`service`: `pkg/registry/core/service/storage`), and the storage the reconcilers talk
//! through (`endpoint`: Endpoints, EndpointSlices and the master leases).

mod allocator;
mod endpoint;
mod service;

pub use allocator::{IpView, PortView, View};
pub use service::Allocators;

use crate::etcd::{Etcd, Loop};
use crate::event::Recorder;
use crate::reconcilers::ApiError;

pub use crate::etcd::UNREACHABLE;

/// The component name of kube-apiserver's own log lines.
pub const COMPONENT: &str = "kube-apiserver";

/// One apiserver's access to etcd at one instant.
pub struct Storage<'a> {
    /// The cluster's etcd.
    pub etcd: &'a mut Etcd,
    /// The instant (virtual ms).
    pub now: u64,
    /// Whether this apiserver reaches etcd now; requests fail with [`UNREACHABLE`] when not.
    pub reachable: bool,
    /// The master leases' TTL (`DefaultEndpointReconcilerTTL` unless configured).
    pub lease_ttl_ms: u64,
    /// Where its events and log lines go.
    pub rec: &'a mut Recorder,
    /// Lease keys written, with their revision, so the world can schedule their expiry.
    pub lease_writes: Vec<(String, u64)>,
    /// IPAddresses RepairIPAddress wants to check again, and when (its `AddAfter`).
    pub ip_rechecks: Vec<(String, u64)>,
}

impl Storage<'_> {
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        if self.reachable {
            Ok(())
        } else {
            Err(ApiError::Unavailable(UNREACHABLE.to_string()))
        }
    }

    /// [`Storage::check`] for a request about `key`: one that cannot reach etcd bounces.
    pub(crate) fn reach(&mut self, key: &str) -> Result<(), ApiError> {
        self.check().inspect_err(|_| self.etcd.bounce(key, self.now, UNREACHABLE))
    }

    /// A request of the endpoint reconciler about `key`.
    fn reconciler(&mut self, key: &str) -> Result<(), ApiError> {
        self.etcd.sending_from(Loop::EndpointReconciler);
        self.reach(key)
    }
}
