//! A violated invariant, the engine bugs the swarm knows about (counted, not failed on, unless
//! `SWARM_STRICT=1`), and what the observer is shown: one task of the world or one action.

use engine::contract::scenario::Action;
use engine::sim::world::Stepped;

/// Engine bugs found by this swarm and still present (see the findings at the end of
/// `main.rs`). Violations that match one of these classifiers are counted as "known" and do not
/// fail the test unless `SWARM_STRICT=1`; each classifier is as narrow as the bug it describes.
pub(crate) const KNOWN_ENGINE_BUGS: &[&str] = &[B2_NAMESPACES_BEFORE_INFORMER_SYNC];

/// B2 (behaviour 1.29, and 1.33 and 1.35, which share its start-up): an apiserver that starts
/// while etcd is unreachable runs its system namespaces loop at the start instant (which fails)
/// and then only every minute from there, so
/// on a fresh cluster it becomes ready — the repair hook passed — but cannot create the
/// `kubernetes` Service (`namespaces "default" not found`) for up to a minute. Upstream (1.27+,
/// `controller/systemnamespaces`) first waits for the namespace informer to sync — which also
/// gates `/readyz` through the `informer-sync` check — and then syncs at once
/// (`wait.UntilWithContext` runs immediately), so `default` exists by the time the
/// kubernetes-service loop's first readyz poll succeeds, or at the latest for its next sync.
/// Classified narrowly: 1.29 or later, `default` missing, and the last sync failure says so.
pub(crate) const B2_NAMESPACES_BEFORE_INFORMER_SYNC: &str =
    "B2 1.29+ system namespaces loop does not wait for the informer sync (default namespace missing after an outage at start)";

/// A violation that is an instance of the known engine bug `bug`.
pub(crate) fn known(
    bug: &'static str,
    invariant: &'static str,
    now: u64,
    message: String,
) -> Result<(), Violation> {
    Err(Violation { invariant, time_ms: now, message, bug: Some(bug) })
}

/// A violated invariant.
#[derive(Clone, Debug)]
pub(crate) struct Violation {
    pub(crate) invariant: &'static str,
    pub(crate) time_ms: u64,
    pub(crate) message: String,
    /// The known engine bug this is an instance of (see `KNOWN_ENGINE_BUGS`).
    pub(crate) bug: Option<&'static str>,
}

/// A violation of `invariant` at `now`.
pub(crate) fn fail<T>(invariant: &'static str, now: u64, message: String) -> Result<T, Violation> {
    Err(Violation { invariant, time_ms: now, message, bug: None })
}

/// What just happened: one task of the world, or one of our actions.
pub(crate) enum Ctx<'a> {
    Step(&'a Stepped),
    Act(&'a Action),
}

pub(crate) fn describe(ctx: &Ctx) -> String {
    match ctx {
        Ctx::Step(s) => format!("task {s}"),
        Ctx::Act(a) => format!("action {}", serde_json::to_string(a).unwrap()),
    }
}
