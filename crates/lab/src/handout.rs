//! A tour as a handout: every step with the picture of the lab at its instant, for print. The
//! steps are found by a lab of their own, moved the way a reader moves a tour (Next, without
//! animation), so each instant is the one the reader's tour shows, and the reader's lab is
//! never touched.

use crate::lang::LocalizedText;
use crate::parts::Spot;
use crate::tour::{Ask, Tour};

use super::{Lab, Msg, View};

/// Where a handout prints the answers to its questions (`answers=`): a trainer's choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnswersAt {
    /// On a page of their own after the last step.
    #[default]
    End,
    /// Under each question, upside down.
    UpsideDown,
}

impl AnswersAt {
    /// The value of `answers=` naming it.
    pub fn name(self) -> &'static str {
        match self {
            AnswersAt::End => "end",
            AnswersAt::UpsideDown => "upside-down",
        }
    }

    /// The placement `answers=` names with `value`, if any.
    pub fn parse(value: &str) -> Option<Self> {
        [AnswersAt::End, AnswersAt::UpsideDown].into_iter().find(|a| a.name() == value)
    }
}

/// One step of a handout.
#[derive(Clone)]
pub struct HandoutStep {
    /// From 0.
    pub index: usize,
    /// The scenario (a name of `scenarios/`) the step shows.
    pub scenario: String,
    /// The instant the reader's lab shows at this step, in virtual ms from its scenario's start:
    /// where its clock rests, after the step has played on for the reader to watch (`play`).
    pub time_ms: u64,
    /// Its narration.
    pub say: LocalizedText,
    /// The parts it points at.
    pub highlight: Vec<Spot>,
    /// The question the step asks, if it asks one (the next step is the moment that answers it).
    pub ask: Option<Ask>,
    /// The lab at that instant, as a view draws it.
    pub frame: View,
}

impl HandoutStep {
    /// The right answer to the step's question: its index among the answers, and its text.
    pub fn right_answer(&self) -> Option<(usize, &LocalizedText)> {
        self.ask.as_ref().map(|a| (a.right, &a.answers[a.right]))
    }
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
        lab.play_out_step();
        out.push(HandoutStep {
            index: i,
            scenario: step.scenario.clone(),
            time_ms: lab.now(),
            say: step.say.clone(),
            highlight: step.highlight.clone(),
            ask: step.ask.clone(),
            frame: lab.view(),
        });
    }
    Ok(out)
}

impl Lab {
    /// A step shown that plays on for the reader to watch (its `play`) is played out at once:
    /// the clock rests where the reader's stops at that step.
    fn play_out_step(&mut self) {
        let shown = self.taking.guide.as_ref().map(|g| g.index);
        if let Some(m) = self.taking.stop_at.filter(|m| Some(m.step) == shown) {
            self.taking.stop_at = None;
            self.playback.playing = false;
            self.playback.last_frame = None;
            self.seek(m.at);
            self.observe();
        }
    }
}
