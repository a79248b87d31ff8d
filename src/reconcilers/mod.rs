//! Endpoint reconcilers for the `default/kubernetes` Service, after
//! `pkg/controlplane/reconcilers/{reconcilers,lease,instancecount,none}.go`.
//!
//! A reconciler talks to storage only through [`ReconcilerApi`], which the world implements for
//! one apiserver at one instant (with its reachability), and tests implement in memory.

use std::fmt;

use crate::api::{EndpointPort, Endpoints};

/// A storage or API error as the reconcilers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// `endpoints "kubernetes" not found`, or a missing lease key.
    NotFound(String),
    AlreadyExists(String),
    /// A guaranteed update lost its race.
    Conflict(String),
    /// etcd cannot be reached (isolation or outage); the text is what the caller would see.
    Unavailable(String),
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::NotFound(t) | ApiError::AlreadyExists(t) | ApiError::Conflict(t) | ApiError::Unavailable(t) => {
                f.write_str(t)
            }
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
    /// IPs of the live (unexpired) keys under `/masterleases/`, in key order.
    fn list_leases(&mut self) -> Result<Vec<String>, ApiError>;
    /// Creates or refreshes `/masterleases/<ip>` with the lease TTL.
    fn update_lease(&mut self, ip: &str) -> Result<(), ApiError>;
    /// Deletes `/masterleases/<ip>`; `NotFound` when it does not exist.
    fn remove_lease(&mut self, ip: &str) -> Result<(), ApiError>;
    /// A log line of the reconciler.
    fn log(&mut self, line: String);
}

/// `--endpoint-reconciler-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReconcilerType {
    Lease,
    MasterCount,
    None,
}
