//! The upstream model: what kube-apiserver, etcd and kube-controller-manager do, one module per
//! `kubernetes/kubernetes` package it follows (`pkg/registry/core/service/ipallocator`,
//! `pkg/controlplane/reconcilers`, …), with the API types and the apiserver's flags. It knows
//! nothing of scenarios, timelines or pages.

pub mod allocator;
pub mod api;
pub mod controlplane;
pub mod endpoints;
pub mod etcd;
pub mod event;
pub mod ipallocator;
pub mod names;
pub mod options;
pub mod portallocator;
pub mod reconcilers;
pub mod registry;
pub mod repair;
pub mod servicecidrs;
