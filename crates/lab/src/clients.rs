//! What a view shows of the nodes, their kube-proxies and the client pods of a scenario that
//! declares them (`docs/extensions.md`, "Extension: nodes and client pods"): each kube-proxy's
//! list against the EndpointSlice, each pod's connection and every attempt it made, and the
//! run's figures so far. Computed here from the world, so the UI draws it and decides nothing.

use std::rc::Rc;

use crate::contract::state::State;
use crate::k8s::client::{Conn, Workload};
use crate::k8s::event::{Event, EventKind};
use crate::sim::world::World;

pub use crate::k8s::client::Failure;
pub use crate::sim::world::{ClientFigures, Rejecting, Window as ClientWindow};

/// The nodes, kube-proxies and client pods at the instant shown; a view has none for a
/// scenario without client pods.
#[derive(Clone, Debug, PartialEq)]
pub struct Clients {
    /// The `kubernetes` Service's ClusterIP (empty while the Service is gone).
    pub service_ip: String,
    /// The ready addresses of the `kubernetes` EndpointSlice, in its order.
    pub slice: Vec<Endpoint>,
    /// The nodes, by name.
    pub nodes: Vec<NodeView>,
    /// The client pods, by name.
    pub pods: Vec<Pod>,
    /// The figures up to the instant shown (at the scenario's end: `bootstrap-sim run`'s).
    pub figures: ClientFigures,
    /// The scenario's end: the strip of failures spans it.
    pub until_ms: u64,
}

/// An endpoint address and who answers there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The address.
    pub ip: String,
    /// The apiserver at it; empty when none is.
    pub apiserver: String,
    /// Whether a new connection to it gets through now (its apiserver's listener is open).
    pub answers: bool,
}

/// One node and its kube-proxy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// The node's name.
    pub name: String,
    /// What its iptables rules list now, in their order.
    pub listed: Vec<Endpoint>,
    /// Addresses the EndpointSlice lists that its rules do not (yet).
    pub missing: Vec<String>,
    /// Whether its rules differ from the EndpointSlice (kube-proxy has not caught up).
    pub lagging: bool,
    /// The fixed time each of its `iptables-restore` runs takes, when it is a slow one (a
    /// node's `proxy_apply_time`, or `slow_kube_proxy`).
    pub slow_apply_ms: Option<u64>,
}

/// A client pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pod {
    /// The pod's name.
    pub name: String,
    /// Its node.
    pub node: String,
    /// What it does with the API.
    pub workload: Workload,
    /// Its connection now.
    pub link: Link,
    /// Every new connection it tried and every connection that broke, in order.
    pub attempts: Vec<Attempt>,
}

/// A pod's connection now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// None open.
    Closed,
    /// A dial that nothing answers, failing at `until`.
    Dialing {
        /// Where kube-proxy sent it.
        to: Endpoint,
        /// When client-go's dialer gives up.
        until: u64,
    },
    /// Established since `since`.
    Up {
        /// Where kube-proxy sent it (conntrack keeps it).
        to: Endpoint,
        /// When it was established.
        since: u64,
    },
    /// An open request (a watch, a job's GET) going on after its apiserver's GOAWAY, until it
    /// ends or the server closes the connection at `until`.
    Draining {
        /// Where kube-proxy sent it.
        to: Endpoint,
        /// When the server closes it.
        until: u64,
    },
    /// Established, but its endpoint's host is down: no frame comes back until client-go's
    /// health check closes it at `closes_at`.
    Silent {
        /// Where kube-proxy sent it.
        to: Endpoint,
        /// When the unanswered ping times out.
        closes_at: u64,
    },
}

/// One attempt or break, as the lab's lines record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// When (virtual ms).
    pub time_ms: u64,
    /// The endpoint kube-proxy chose; `None` for its REJECT rule (no endpoint listed).
    pub ip: Option<String>,
    /// The apiserver at that address, if any.
    pub apiserver: String,
    /// What came of it.
    pub outcome: Outcome,
}

/// What came of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Connected.
    Connected,
    /// Sent to an address where nothing answers: it times out later.
    Dialing,
    /// Failed (refused, timed out) or, for an established connection, broke.
    Failed(Failure),
    /// An idle connection closed (its apiserver's GOAWAY, crash or silence), with no error to
    /// client-go.
    Closed,
    /// A job's connection broke under its GET, which client-go sends again 1 s later.
    Retried(Failure),
}

impl Outcome {
    /// Whether it is a failure a reader counts: refused or timed out (a break is not an attempt).
    pub fn failed_attempt(self) -> bool {
        matches!(self, Outcome::Failed(Failure::Refused | Failure::Timeout))
    }
}

/// The clients of world `w` at its instant, with `state` its snapshot, `events` its log and
/// `until_ms` the scenario's end; `None` without clients.
pub(crate) fn clients_of(
    w: &World,
    state: &State,
    events: &[Event],
    until_ms: u64,
) -> Option<Rc<Clients>> {
    let figures = w.client_figures(w.now())?;
    let endpoint = |ip: &str| {
        let a = state.apiservers.iter().find(|a| a.advertise_address == ip);
        Endpoint {
            ip: ip.to_string(),
            apiserver: a.map_or_else(String::new, |a| a.name.clone()),
            answers: w.accepts(ip),
        }
    };
    let slice = w.slice_addresses();
    let mut sorted_slice = slice.clone();
    sorted_slice.sort();
    let nodes = w
        .proxies()
        .map(|(name, p)| {
            let mut listed = p.listed.clone();
            listed.sort();
            NodeView {
                name: name.clone(),
                listed: p.listed.iter().map(|ip| endpoint(ip)).collect(),
                missing: slice.iter().filter(|ip| !p.listed.contains(ip)).cloned().collect(),
                lagging: listed != sorted_slice,
                slow_apply_ms: p.apply_ms,
            }
        })
        .collect();
    let pods = w
        .clients()
        .map(|c| Pod {
            name: c.name.clone(),
            node: c.node.clone(),
            workload: c.workload.clone(),
            link: match &c.conn {
                Conn::Closed => Link::Closed,
                Conn::Dialing { ip, until } => Link::Dialing { to: endpoint(ip), until: *until },
                Conn::Up { ip, since, .. } => Link::Up { to: endpoint(ip), since: *since },
                Conn::Draining { ip, until, .. } => {
                    Link::Draining { to: endpoint(ip), until: *until }
                }
                Conn::Silent { ip, closes_at } => {
                    Link::Silent { to: endpoint(ip), closes_at: *closes_at }
                }
            },
            attempts: attempts(&c.name, events, &endpoint),
        })
        .collect();
    let service_ip = state
        .services
        .iter()
        .find(|s| s.namespace == "default" && s.name == crate::k8s::api::KUBERNETES)
        .map_or_else(String::new, |s| s.cluster_ip.clone());
    Some(Rc::new(Clients {
        service_ip,
        slice: slice.iter().map(|ip| endpoint(ip)).collect(),
        nodes,
        pods,
        figures,
        until_ms,
    }))
}

/// Pod `name`'s attempts and breaks, read from the lab's lines about it.
fn attempts(name: &str, events: &[Event], endpoint: &dyn Fn(&str) -> Endpoint) -> Vec<Attempt> {
    let at = |time_ms, ip: Option<&String>, outcome| Attempt {
        time_ms,
        ip: ip.cloned(),
        apiserver: ip.map_or_else(String::new, |ip| endpoint(ip).apiserver),
        outcome,
    };
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ClientConnected { client, ip } if client == name => {
                Some(at(e.time_ms, Some(ip), Outcome::Connected))
            }
            EventKind::ClientDialing { client, ip } if client == name => {
                Some(at(e.time_ms, Some(ip), Outcome::Dialing))
            }
            EventKind::ClientFailed { client, ip, failure } if client == name => {
                Some(at(e.time_ms, ip.as_ref(), Outcome::Failed(*failure)))
            }
            EventKind::ClientClosed { client, ip } if client == name => {
                Some(at(e.time_ms, Some(ip), Outcome::Closed))
            }
            EventKind::ClientRetrying { client, ip, failure } if client == name => {
                Some(at(e.time_ms, Some(ip), Outcome::Retried(*failure)))
            }
            _ => None,
        })
        .collect()
}
