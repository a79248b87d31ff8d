//! `bootstrap-sim run` and `state`: a scenario run to its end, reported as the contract prints it.

use crate::contract::scenario::Scenario;
use crate::contract::state::State;
use crate::k8s::event::Event;
use crate::sim::world::{ClientFigures, World};

/// One expectation's outcome in a run report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ExpectationReport {
    /// The step's `at`, as written.
    pub at: String,
    /// Whether it held.
    pub passed: bool,
    /// Why not, one line each.
    pub mismatches: Vec<String>,
}

/// `bootstrap-sim run`'s output.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    /// The scenario's name.
    pub scenario: String,
    /// The seed it ran with.
    pub seed: u64,
    /// Each `expect` step's outcome, in order.
    pub expectations: Vec<ExpectationReport>,
    /// Every event recorded.
    pub events: Vec<Event>,
    /// The state at `until`.
    #[serde(rename = "final")]
    pub final_state: State,
    /// What the client pods saw (`docs/extensions.md`); absent without client pods.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clients: Option<ClientFigures>,
}

impl Report {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.expectations.iter().all(|e| e.passed)
    }
}

/// Runs a scenario to its `until` and reports.
pub fn run(scenario: &Scenario) -> Report {
    let mut w = World::new(scenario);
    w.run_until(scenario.until_ms);
    let expectations = w
        .expectations()
        .iter()
        .map(|(i, m)| ExpectationReport {
            at: scenario.steps[*i].at.clone(),
            passed: m.is_empty(),
            mismatches: m.clone(),
        })
        .collect();
    Report {
        scenario: scenario.name.clone(),
        seed: scenario.seed,
        expectations,
        events: w.events().to_vec(),
        final_state: w.state(),
        clients: w.client_figures(scenario.until_ms),
    }
}

/// The state at `t` (`bootstrap-sim state --at`).
pub fn state_at(scenario: &Scenario, t: u64) -> State {
    let mut w = World::new(scenario);
    w.run_until(t);
    w.state()
}
