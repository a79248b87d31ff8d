//! kube-bootstrap-lab: a deterministic model of how kube-apiserver keeps its own `kubernetes`
//! Service alive, and the browser explainer built on it.
//!
//! The core modules below import no web crate; they follow the Kubernetes files they are named
//! after. The `ui` module (feature `web`) only reads the core's state and sends it actions.

pub mod allocator;
pub mod api;
pub mod endpoints;
pub mod event;
pub mod ipallocator;
pub mod options;
pub mod portallocator;
pub mod reconcilers;
pub mod repair;
pub mod rng;
#[doc(hidden)]
pub mod workloads;

#[cfg(feature = "web")]
pub mod ui;
