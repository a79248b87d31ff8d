//! The scenario contract (`docs/scenario.md`) that outside checks rely on: scenario files, the
//! state snapshot and the `expect` checks.

// The checker of a step's `expect`: the world and the tours run it; outside, a run's report
// carries its verdicts.
pub mod expect;
pub mod scenario;
pub mod state;

/// The Kubernetes objects and the events the state and the run report carry.
pub use crate::k8s::{api, event};
