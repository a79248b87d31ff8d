//! kube-bootstrap-lab's web app: the browser explainer of how kube-apiserver keeps its own
//! `kubernetes` Service alive, built on the lab beneath it.
//!
//! The layers are crates, each depending only on those beneath it: `crates/k8s` (the
//! Kubernetes model and the shared leaves), `crates/engine` (the scenario contract and the
//! simulation), `crates/import` (a real cluster's `kubectl` output made a scenario) and
//! `crates/lab` (the lab as a reader plays it, its tours, links and writer, and the
//! `bootstrap-sim` CLI). This package depends on the lab alone: with feature `web`, [`ui`] reads
//! the lab's `View` and sends it `Msg`s, and a path to the world, the timeline or the model's
//! machinery does not compile here. The façades below are the lab's, under the paths the UI
//! has always used.

/// The lab a reader plays (`crates/lab`).
pub use ::lab;
/// The scenario contract, the run report and the import, as the lab re-exports them.
pub use lab::{contract, import, report};
#[cfg(feature = "web")]
use lab::{duration, lang};

/// Of the Kubernetes model, what the UI draws: the API objects and events a state holds.
#[cfg(feature = "web")]
mod k8s {
    pub(crate) use lab::{api, event};
}

/// The browser app (Yew).
#[cfg(feature = "web")]
pub mod ui;
