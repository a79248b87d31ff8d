//! A tour as a handout: every step with the picture of the lab at its instant, for print. The
//! steps are found by a lab of their own, moved the way a reader moves a tour (Next, without
//! animation), so each instant is the one the reader's tour shows, and the reader's lab is
//! never touched.

use crate::lab::parts::Spot;
use crate::lab::tour::Tour;
use crate::lang::LocalizedText;

use super::{Lab, Msg, View};

/// One step of a handout.
#[derive(Clone)]
pub struct HandoutStep {
    /// From 0.
    pub index: usize,
    /// The scenario (a name of `scenarios/`) the step shows.
    pub scenario: String,
    /// The step's instant, in virtual ms from its scenario's start.
    pub time_ms: u64,
    pub say: LocalizedText,
    pub highlight: Vec<Spot>,
    /// The lab at that instant, as a view draws it.
    pub frame: View,
}

/// Every step of `tour`, in order, or why one cannot be reached (the tour no longer matches the
/// simulation). Deterministic: the same tour gives the same steps.
pub fn steps(tour: &Tour) -> Result<Vec<HandoutStep>, String> {
    let mut lab = Lab::tour(tour.clone())?;
    lab.observe_afresh();
    let mut out = Vec::with_capacity(tour.steps.len());
    for (i, step) in tour.steps.iter().enumerate() {
        if i > 0 {
            lab.update(Msg::TourNext { animate: false });
        }
        if let Some(e) = lab.tour_error() {
            return Err(e.to_string());
        }
        let shown = lab.guide().map(|g| g.index);
        if shown != Some(i) {
            return Err(format!("tour {:?}: step {} could not be shown", tour.name, i + 1));
        }
        out.push(HandoutStep {
            index: i,
            scenario: step.scenario.clone(),
            time_ms: lab.now(),
            say: step.say.clone(),
            highlight: step.highlight.clone(),
            frame: lab.view(),
        });
    }
    Ok(out)
}
