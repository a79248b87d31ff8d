//! A tour played through every step, as `bootstrap-sim tour run` prints it: each step's instant
//! and whether its wait held there (`docs/tour.md`, "The CLI").

use serde::Serialize;

use super::{Guide, Tour, Wait};
use crate::duration::format_ms;
use crate::sim::timeline::Timeline;

/// A tour played through: whether every step arrived, and each step's run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TourRun {
    /// The tour's name.
    pub tour: String,
    /// Every step arrived.
    pub passed: bool,
    /// Each step's run, in order.
    pub steps: Vec<StepRun>,
}

/// One step of a tour played through.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepRun {
    /// From 1, as the reader counts.
    pub step: usize,
    /// The scenario it shows.
    pub scenario: String,
    /// `"now"`, `"at"` or `"until"`.
    pub wait: &'static str,
    /// The step's instant; for the step that never arrives, where the search gave up; `None`
    /// for the steps after it.
    pub at_ms: Option<u64>,
    /// `at_ms` as a duration (`"32s"`).
    pub at: Option<String>,
    /// The step arrived: its wait held at `at_ms`.
    pub held: bool,
    /// Why not: what did not match at `at_ms`, or which step was never reached.
    pub why: Vec<String>,
}

/// Plays `tour` through every step, as a reader pressing Next would, each scenario from its
/// time 0; the steps after one that never arrives are not reached.
pub fn run(tour: &Tour) -> TourRun {
    let mut guide = Guide::new(tour.clone());
    let mut current: Option<(&str, Timeline)> = None;
    let mut missed: Option<usize> = None;
    let mut steps = Vec::with_capacity(tour.steps.len());
    for (i, step) in tour.steps.iter().enumerate() {
        let wait = match step.wait {
            Wait::Now => "now",
            Wait::At(_) => "at",
            Wait::Until(_) => "until",
        };
        let mut row = StepRun {
            step: i + 1,
            scenario: step.scenario.clone(),
            wait,
            at_ms: None,
            at: None,
            held: false,
            why: Vec::new(),
        };
        if let Some(k) = missed {
            row.why.push(format!("not reached: step {} never arrived", k + 1));
            steps.push(row);
            continue;
        }
        if current.as_ref().is_none_or(|(name, _)| *name != step.scenario) {
            let s = tour.scenario(&step.scenario).expect("a parsed tour's scenarios exist");
            current = Some((&step.scenario, Timeline::new(&s)));
        }
        let (_, timeline) = current.as_mut().expect("set above");
        let at = match guide.arrival(i, timeline) {
            Ok(t) => {
                row.held = true;
                t
            }
            Err(miss) => {
                missed = Some(i);
                row.why = miss.why;
                miss.at_ms
            }
        };
        row.at_ms = Some(at);
        row.at = Some(format_ms(at));
        steps.push(row);
    }
    TourRun { tour: tour.name.clone(), passed: missed.is_none(), steps }
}
