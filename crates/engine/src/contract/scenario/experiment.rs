//! Things to try (`docs/extensions.md`): the experiments a scenario offers its reader. Each is
//! actions at instants, taken as a reader would take them on top of the scenario's own steps,
//! and what to watch; its `expect` steps say what the lab then shows, so that a test holds the
//! words of `watch` to the simulation (the page does not show them).

use serde_json::Value as Json;

use super::action::Action;
use super::cluster::Taken;
use super::file::ExperimentFile;
use super::step::{self, Step, StepKind};
use crate::k8s::api::Behavior;
use crate::k8s::controlplane::ClusterConfig;
use crate::lang::LocalizedText;

/// The most steps an experiment has: a few clicks a reader could make, and their checks.
pub(crate) const MAX_STEPS: usize = 12;

/// A thing to try: a few actions a reader could take, set up with one click.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// What it is called.
    pub title: LocalizedText,
    /// What the reader should look at once it is set up.
    pub watch: LocalizedText,
    /// In time order; steps at one instant in file order.
    pub steps: Vec<Step>,
}

impl Experiment {
    /// The actions a reader would take, at their instants, in order.
    pub fn actions(&self) -> Vec<(u64, Action)> {
        let acts = self.steps.iter().filter_map(|s| match &s.kind {
            StepKind::Do(a) => Some((s.at_ms, a.as_ref().clone())),
            StepKind::Expect(_) => None,
        });
        acts.collect()
    }

    /// The checks, at their instants.
    pub fn expects(&self) -> impl Iterator<Item = (u64, &Json)> {
        self.steps.iter().filter_map(|s| match &s.kind {
            StepKind::Expect(e) => Some((s.at_ms, e)),
            StepKind::Do(_) => None,
        })
    }

    /// The instant to set it up at: a little before its first action, so that the reader sees
    /// the cluster as it was, then the action.
    pub fn start_ms(&self) -> u64 {
        let first = self.actions().first().map_or(0, |(at, _)| *at);
        first.saturating_sub(LEAD_MS)
    }
}

/// How long before its first action an experiment opens.
const LEAD_MS: u64 = 3_000;

/// Some text, in at least one language, none of them empty.
fn said(t: &LocalizedText, path: &str) -> Result<(), String> {
    let empty = match t {
        LocalizedText::Plain(s) => s.trim().is_empty(),
        LocalizedText::ByLanguage(m) => m.is_empty() || m.values().any(|s| s.trim().is_empty()),
    };
    if empty {
        return Err(format!("{path}: must not be empty"));
    }
    Ok(())
}

/// Experiment `path` (`experiments[1]`), its steps read as the scenario's are, against the
/// cluster as the scenario's own steps leave it (`taken`).
pub(super) fn read(
    path: &str,
    f: &ExperimentFile,
    cluster: &ClusterConfig,
    behavior: Behavior,
    taken: &Taken,
) -> Result<Experiment, String> {
    said(&f.title, &format!("{path}.title"))?;
    said(&f.watch, &format!("{path}.watch"))?;
    if f.steps.len() > MAX_STEPS {
        return Err(format!("{path}.steps: at most {MAX_STEPS} steps, not {}", f.steps.len()));
    }
    let mut taken = taken.clone();
    let mut steps = Vec::with_capacity(f.steps.len());
    for (i, raw) in f.steps.iter().enumerate() {
        steps.push(step::step(&format!("{path}.steps[{i}]"), raw, cluster, behavior, &mut taken)?);
    }
    if !steps.iter().any(|s| matches!(s.kind, StepKind::Do(_))) {
        return Err(format!("{path}.steps: an experiment needs at least one `do` step"));
    }
    // Stable: steps at one instant keep their order.
    steps.sort_by_key(|s| s.at_ms);
    Ok(Experiment { title: f.title.clone(), watch: f.watch.clone(), steps })
}
