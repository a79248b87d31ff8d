//! kube-bootstrap-lab: a deterministic model of how kube-apiserver keeps its own `kubernetes`
//! Service alive, and the browser explainer built on it.
//!
//! The core modules below import no web crate; they follow the Kubernetes files they are named
//! after. Two façades: [`world::World`] (the simulation: `act`, `run_until`, `step`, `state`,
//! `events`) and [`lab::Lab`] (the simulation as a reader plays it, changed only through
//! `Lab::update(Msg)`). The `ui` module (feature `web`) reads a `Lab` and sends it messages; it
//! never writes its fields and never decides from a message text or a status string.

#[macro_use]
mod string_enum;
#[macro_use]
mod json_object;

pub mod allocator;
pub mod api;
pub mod catalogue;
pub mod controlplane;
pub mod duration;
pub mod embed;
pub mod endpoints;
pub mod etcd;
pub mod event;
pub mod expect;
pub mod explain;
pub mod inspect;
pub mod kubectl;
pub mod lab;
pub mod ipallocator;
pub mod lang;
pub mod names;
pub mod options;
pub mod parts;
pub mod quote;
pub mod portallocator;
pub mod reconcilers;
pub mod registry;
pub mod repair;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod share;
pub mod state;
pub mod timeline;
pub mod tour;
pub mod upstream;
#[doc(hidden)]
pub mod workloads;
pub mod world;

#[cfg(feature = "web")]
pub mod ui;
