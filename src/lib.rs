//! kube-bootstrap-lab: a deterministic model of how kube-apiserver keeps its own `kubernetes`
//! Service alive, and the browser explainer built on it.
//!
//! The core modules below import no web crate; they follow the Kubernetes files they are named
//! after. Two façades: [`sim::world::World`] (the simulation: `act`, `run_until`, `step`, `state`,
//! `events`) and [`lab::Lab`] (the simulation as a reader plays it, changed only through
//! `Lab::update(Msg)`). The `ui` module (feature `web`) reads a `Lab` and sends it messages; it
//! never writes its fields and never decides from a message text or a status string.

#[macro_use]
mod string_enum;
#[macro_use]
mod json_object;

// The layers, one folder each: the upstream model, the scenario contract, the simulation, the
// lab a reader plays, a real cluster's import, and (feature `web`) the browser UI.
pub mod contract;
pub mod import;
// The model's insides: public for this crate's own tests, benchmarks and fuzzers only, not an
// API (the objects and events the contract carries are `contract::{api, event}`).
#[doc(hidden)]
pub mod k8s;
pub mod lab;
pub mod sim;

pub mod duration;
pub mod lang;
pub mod quote;
pub mod rng;
#[doc(hidden)]
pub mod workloads;

#[cfg(feature = "web")]
pub mod ui;
