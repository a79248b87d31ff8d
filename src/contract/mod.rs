//! The scenario contract (`docs/scenario.md`) that outside checks rely on: scenario files, the
//! state snapshot and the `expect` checks.

pub mod expect;
pub mod scenario;
pub mod state;

/// The Kubernetes objects and the events the state and the run report carry.
pub use crate::k8s::{api, event};
