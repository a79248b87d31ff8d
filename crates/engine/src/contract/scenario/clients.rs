//! Nodes and client pods (`docs/extensions.md`, "Extension: nodes and client pods"): each node
//! runs a kube-proxy, each client pod a workload that reaches the API through the `kubernetes`
//! Service. Read from the file and checked, each refusal naming its field.

use std::collections::BTreeSet;

use super::file::{ClientFile, NodeFile};
use super::{duration, interval};
use crate::k8s::client::Workload;
use crate::quote::quote;

/// The most nodes a scenario may have.
pub const MAX_NODES: usize = 16;
/// The most client pods a scenario may have.
pub const MAX_CLIENTS: usize = 64;
/// The shortest polling period of a job.
const MIN_EVERY_MS: u64 = 1_000;
/// A job's `get_time` is under the apiserver's `--request-timeout` (60 s), which would end it.
const MAX_GET_MS: u64 = 60_000;

/// A node and its kube-proxy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSpec {
    /// The node's name.
    pub name: String,
    /// A fixed `iptables-restore` time for its kube-proxy, if the file gives one.
    pub proxy_apply_ms: Option<u64>,
}

/// A client pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientSpec {
    /// The pod's name.
    pub name: String,
    /// The node it runs on.
    pub node: String,
    /// What it does with the API.
    pub workload: Workload,
    /// When it starts (virtual ms).
    pub start_at_ms: u64,
}

/// `nodes` read and checked.
pub(super) fn nodes(files: &[NodeFile]) -> Result<Vec<NodeSpec>, String> {
    if files.len() > MAX_NODES {
        return Err(format!("nodes: more than {MAX_NODES} nodes, the most the lab runs"));
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let path = format!("nodes[{i}]");
        name(&format!("{path}.name"), &f.name, &mut names, "node")?;
        let apply = f.proxy_apply_time.as_deref();
        let proxy_apply_ms =
            apply.map(|s| duration(&format!("{path}.proxy_apply_time"), s)).transpose()?;
        out.push(NodeSpec { name: f.name.clone(), proxy_apply_ms });
    }
    Ok(out)
}

/// `clients` read and checked against the nodes.
pub(super) fn clients(files: &[ClientFile], nodes: &[NodeSpec]) -> Result<Vec<ClientSpec>, String> {
    if files.len() > MAX_CLIENTS {
        return Err(format!("clients: more than {MAX_CLIENTS} clients, the most the lab runs"));
    }
    let mut names = BTreeSet::new();
    let mut out = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let path = format!("clients[{i}]");
        name(&format!("{path}.name"), &f.name, &mut names, "client")?;
        if !nodes.iter().any(|n| n.name == f.node) {
            return Err(format!("{path}.node: unknown node {}", quote(&f.node)));
        }
        let every = f.every.as_deref();
        let workload = match (f.workload.as_str(), every) {
            ("controller", None) if f.get_time.is_some() => {
                return Err(format!("{path}.get_time: only a \"job\" sends GETs the lab times"));
            }
            ("controller", None) => Workload::Controller,
            ("controller", Some(_)) => {
                return Err(format!("{path}.every: only a \"job\" polls"));
            }
            ("job", None) => return Err(format!("{path}.every: missing field")),
            ("job", Some(e)) => Workload::Job {
                every_ms: interval(&format!("{path}.every"), Some(e), 0, MIN_EVERY_MS)?,
                get_ms: f
                    .get_time
                    .as_deref()
                    .map(|g| get_time(&format!("{path}.get_time"), g))
                    .transpose()?,
            },
            (w, _) => {
                let why = "expected \"controller\" or \"job\"";
                return Err(format!("{path}.workload: unknown workload {}, {why}", quote(w)));
            }
        };
        let start = f.start_at.as_deref().unwrap_or("0s");
        let start_at_ms = duration(&format!("{path}.start_at"), start)?;
        out.push(ClientSpec { name: f.name.clone(), node: f.node.clone(), workload, start_at_ms });
    }
    Ok(out)
}

/// A job's `get_time`: more than 0 and under the request timeout.
fn get_time(path: &str, given: &str) -> Result<u64, String> {
    let ms = interval(path, Some(given), 0, 1)?;
    if ms >= MAX_GET_MS {
        let why = "the apiserver's --request-timeout (60s) would end it";
        return Err(format!("{path}: {} is not under 60s: {why}", quote(given)));
    }
    Ok(ms)
}

/// A name: not empty and not taken.
fn name(path: &str, name: &str, taken: &mut BTreeSet<String>, what: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err(format!("{path}: must not be empty"));
    }
    if !taken.insert(name.to_string()) {
        return Err(format!("{path}: duplicate {what} name {}", quote(name)));
    }
    Ok(())
}
