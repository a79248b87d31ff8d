//! kube-bootstrap-lab: a deterministic model of how kube-apiserver keeps its own `kubernetes`
//! Service alive, and the browser explainer built on it.
//!
//! The surface is the façades: [`contract`] (a scenario file and the state a run reports, with
//! the API objects and events they carry), [`report`] (a scenario run to its end, as the CLI
//! prints it), [`lab`] (the simulation as a reader plays it, changed only through
//! `Lab::update(Msg)`, with its share links, embed settings and catalogue), [`import`] (a real
//! cluster's `kubectl` output made a scenario) and, with feature `web`, `ui`, which reads a
//! `Lab` and sends it messages: it never writes its fields and never decides from a message text
//! or a status string. The Kubernetes model and the shared leaves beneath it are their own
//! crate (`crates/k8s`, package `kbl-k8s`, lib `k8s`), the contract and the simulation are the
//! engine's (`crates/engine`) and the import is `crates/import`, all named here under their old
//! paths; the world and its timeline (`sim`) and the shared helpers are not re-exported; this
//! crate's own tests, benchmarks and fuzzers reach them through the hidden `testing` module,
//! which is no API.

// The layer beneath: the Kubernetes model, its own crate (crates/k8s), under its old path
// `crate::k8s`, with the shared leaves it holds under theirs; its macros (`string_enum!`,
// `objects_only!`) are in scope everywhere.
#[macro_use]
extern crate k8s;
use k8s::{quote, rng};

// The layers still in this crate: the lab a reader plays and (feature `web`) the browser UI.
pub mod lab;
#[cfg(feature = "web")]
pub mod ui;

// The crates beneath, under their old paths: the engine (crates/engine: the scenario contract
// and the simulation) and the import (crates/import: a real cluster's kubectl output made a
// scenario).
pub use engine::contract;
use engine::{duration, lang, sim};
pub use import;

/// The run report: the simulation's one façade outside the lab.
pub use engine::sim::report;

#[doc(hidden)]
pub mod testing;
