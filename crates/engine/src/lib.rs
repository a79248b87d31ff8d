//! The engine of kube-bootstrap-lab: the scenario contract (`../shared/spec/scenario.md`: a
//! scenario file, the state a run reports, the API objects and events they carry) and the
//! deterministic simulation that runs it (`sim`: the world on a virtual clock, its timeline with
//! checkpoints, and the run report the CLI prints).
//!
//! A crate of its own above the Kubernetes model (`crates/k8s`) and below the lab, so that the
//! compiler holds the order: nothing here can name a tour, a page or a browser crate. What is
//! `pub` here is what the lab (and through it the UI) uses.

// What is `pub` is reachable from outside and documented: the crate's API, and nothing more
// (clippy -D warnings).
#![warn(unreachable_pub, missing_docs)]

// The layer beneath, under the paths the engine has always used (`crate::k8s::…`,
// `crate::quote`, `crate::rng`); its macros (`string_enum!`, `objects_only!`) are in scope.
#[macro_use]
extern crate k8s;
use k8s::{quote, rng};

pub mod contract;
pub mod duration;
pub mod lang;
pub mod sim;
