//! The upstream model: what kube-apiserver, etcd and kube-controller-manager do, one module per
//! `kubernetes/kubernetes` package it follows (`pkg/registry/core/service/ipallocator`,
//! `pkg/controlplane/reconcilers`, …), with the API types and the apiserver's flags, and the
//! shared leaves beneath every layer (the seeded PRNG, the quoting of user input in messages,
//! objects read from JSON objects only, enums with one string form each).
//!
//! The lowest layer of kube-bootstrap-lab, and a crate of its own so that the compiler holds
//! that: it depends on no crate of the lab (it knows nothing of scenarios, timelines or pages),
//! and never on a browser crate. What is `pub` here is what the layers above use.

// What is `pub` is reachable from outside and documented: the crate's API, and nothing more
// (clippy -D warnings).
#![warn(unreachable_pub, missing_docs)]

#[macro_use]
mod string_enum;
#[macro_use]
pub mod json_object;

pub mod allocator;
pub mod api;
pub mod client;
pub mod controlplane;
pub mod endpoints;
pub mod etcd;
pub mod event;
pub mod ipallocator;
pub mod names;
pub mod options;
pub mod portallocator;
pub mod proxy;
pub mod reconcilers;
pub mod registry;
pub mod repair;
pub mod servicecidrs;

pub mod quote;
pub mod rng;
