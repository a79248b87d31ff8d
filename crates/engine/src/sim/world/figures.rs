//! What a run with client pods measures (`docs/extensions.md`, "Extension: nodes and client
//! pods"): the windows in which a new connection could land on an apiserver that cannot take
//! it, the spans in which a kube-proxy listed no endpoint at all (its REJECT rule refuses every
//! new connection: under `none`, from the start), the share of connection attempts that failed,
//! and the longest a client waited.

use std::collections::{BTreeMap, BTreeSet};

/// One window: from the instant an address some kube-proxy lists stopped taking connections
/// (or was listed while it did not) until no kube-proxy lists it or it takes them again.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Window {
    /// The endpoint's address.
    pub address: String,
    /// The apiserver at that address; empty when none is.
    pub apiserver: String,
    /// When it opened (virtual ms).
    pub from_ms: u64,
    /// When it closed; `None` while still open at the end of the run.
    pub until_ms: Option<u64>,
    /// How long it lasted (to the end of the run when still open).
    pub duration_ms: u64,
}

/// A span in which a node's kube-proxy listed no endpoint of the Service, so that its REJECT
/// rule refused every new connection from the node: not a window of any address, as no
/// address is listed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rejecting {
    /// The node.
    pub node: String,
    /// When its list became empty (virtual ms).
    pub from_ms: u64,
    /// When it listed an endpoint again; `None` while still empty at the end of the run.
    pub until_ms: Option<u64>,
    /// How long it lasted (to the end of the run when still empty).
    pub duration_ms: u64,
}

/// The figures of a run with client pods, in `bootstrap-sim run`'s JSON as `clients`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ClientFigures {
    /// The windows, in the order they opened.
    pub windows: Vec<Window>,
    /// New connections the clients tried.
    pub attempts: u64,
    /// Those that failed (refused or timed out).
    pub failed: u64,
    /// The spans in which a kube-proxy listed no endpoint, in the order they began (left out
    /// of the JSON when there is none, as in every run before this figure).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rejecting: Vec<Rejecting>,
    /// Of `failed`, those refused by a kube-proxy's REJECT rule (no endpoint listed); left out
    /// of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub rejected: u64,
    /// `failed / attempts` (0 without attempts), rounded to 3 decimals.
    pub failed_share: f64,
    /// Established connections that broke (reset, GOAWAY, lost), with or without a request
    /// on them.
    pub broken: u64,
    /// GETs that client-go's REST client sent again on a new connection after the one under
    /// them broke (a job's; left out of the JSON when 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub retried: u64,
    /// The longest a client went from its first attempt to a connection (to the end of the
    /// run when it never got one).
    pub longest_wait_ms: u64,
    /// Which client that was (the first to wait that long); empty without attempts.
    pub longest_wait_client: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The running tally behind [`ClientFigures`].
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    /// Windows open now, by address: (apiserver, from).
    open: BTreeMap<String, (String, u64)>,
    closed: Vec<Window>,
    /// Nodes whose kube-proxy lists nothing now, since when.
    empty: BTreeMap<String, u64>,
    rejecting: Vec<Rejecting>,
    pub(super) attempts: u64,
    pub(super) failed: u64,
    pub(super) rejected: u64,
    pub(super) broken: u64,
    pub(super) retried: u64,
    longest: Option<(u64, String)>,
}

impl Tally {
    /// The addresses listed somewhere that cannot take a connection now (with their apiserver):
    /// windows open for the new ones and close for those no longer in the set.
    pub(super) fn observe(&mut self, now: u64, bad: BTreeMap<String, String>) {
        let ended: Vec<String> =
            self.open.keys().filter(|ip| !bad.contains_key(*ip)).cloned().collect();
        for ip in ended {
            let (apiserver, from) = self.open.remove(&ip).expect("open");
            let w = Window {
                address: ip,
                apiserver,
                from_ms: from,
                until_ms: Some(now),
                duration_ms: now - from,
            };
            self.closed.push(w);
        }
        for (ip, apiserver) in bad {
            self.open.entry(ip).or_insert((apiserver, now));
        }
    }

    /// The nodes whose kube-proxy lists no endpoint now: their spans begin, and end for those
    /// no longer in the set.
    pub(super) fn observe_empty(&mut self, now: u64, empty: BTreeSet<String>) {
        let ended: Vec<String> =
            self.empty.keys().filter(|n| !empty.contains(*n)).cloned().collect();
        for node in ended {
            let from = self.empty.remove(&node).expect("empty");
            let span =
                Rejecting { node, from_ms: from, until_ms: Some(now), duration_ms: now - from };
            self.rejecting.push(span);
        }
        for node in empty {
            self.empty.entry(node).or_insert(now);
        }
    }

    /// A client waited `ms` for a connection.
    pub(super) fn waited(&mut self, client: &str, ms: u64) {
        if self.longest.as_ref().is_none_or(|(l, _)| ms > *l) {
            self.longest = Some((ms, client.to_string()));
        }
    }

    /// The figures at `end`, counting what is still open (and `waiting`: each client's wait
    /// under way) up to it.
    pub(super) fn figures(&self, end: u64, waiting: &[(String, u64)]) -> ClientFigures {
        let mut windows = self.closed.clone();
        for (ip, (apiserver, from)) in &self.open {
            windows.push(Window {
                address: ip.clone(),
                apiserver: apiserver.clone(),
                from_ms: *from,
                until_ms: None,
                duration_ms: end.saturating_sub(*from),
            });
        }
        windows.sort_by(|a, b| (a.from_ms, &a.address).cmp(&(b.from_ms, &b.address)));
        let mut rejecting = self.rejecting.clone();
        rejecting.extend(self.empty.iter().map(|(node, from)| Rejecting {
            node: node.clone(),
            from_ms: *from,
            until_ms: None,
            duration_ms: end.saturating_sub(*from),
        }));
        rejecting.sort_by(|a, b| (a.from_ms, &a.node).cmp(&(b.from_ms, &b.node)));
        let mut tally = self.clone();
        for (client, since) in waiting {
            tally.waited(client, end.saturating_sub(*since));
        }
        let (longest_wait_ms, longest_wait_client) = tally.longest.unwrap_or_default();
        let share =
            if self.attempts == 0 { 0.0 } else { self.failed as f64 / self.attempts as f64 };
        ClientFigures {
            windows,
            attempts: self.attempts,
            failed: self.failed,
            rejecting,
            rejected: self.rejected,
            failed_share: (share * 1000.0).round() / 1000.0,
            broken: self.broken,
            retried: self.retried,
            longest_wait_ms,
            longest_wait_client,
        }
    }
}
