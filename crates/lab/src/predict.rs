//! Predict, then watch: a tour step may ask a question (`tour::Ask`). The reader's pick is kept
//! per step in the guide, the tour moves on as Next does (playing to the moment that answers
//! it), and the step after the question shows the verdict. Which answer is right is decided
//! here, never by what shows it.

use crate::lang::LocalizedText;
use crate::tour::{Ask, Guide};

use super::Lab;

/// The reader's answer to the question of the step before the one shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict<'a> {
    /// The question asked.
    pub ask: &'a Ask,
    /// The index of the answer picked.
    pub picked: usize,
}

impl<'a> Verdict<'a> {
    /// Whether the answer picked is the right one.
    pub fn right(&self) -> bool {
        self.picked == self.ask.right
    }

    /// The answer picked.
    pub fn picked_answer(&self) -> &'a LocalizedText {
        &self.ask.answers[self.picked]
    }

    /// The right answer.
    pub fn right_answer(&self) -> &'a LocalizedText {
        &self.ask.answers[self.ask.right]
    }

    /// Why the right answer is right (what Kubernetes did).
    pub fn why(&self) -> &'a LocalizedText {
        &self.ask.why
    }
}

impl Guide {
    /// The question of the step shown, if it asks one.
    pub fn asks(&self) -> Option<&Ask> {
        self.step().ask.as_ref()
    }

    /// What the step shown opens with: the verdict on the previous step's question, when the
    /// reader answered it (a skipped question has none).
    pub fn verdict(&self) -> Option<Verdict<'_>> {
        let i = self.index.checked_sub(1)?;
        let ask = self.tour.steps[i].ask.as_ref()?;
        let picked = self.answered(i)?;
        Some(Verdict { ask, picked })
    }
}

impl Lab {
    /// The reader picks `answer` to the question of the step shown: it is kept, and the tour
    /// moves to the next step as Next does. Refused, changing nothing, when the step asks no
    /// such answer, or while the clock already moves on to the next step (the pick that set
    /// it moving stands).
    pub(super) fn answer(&mut self, answer: usize, animate: bool) -> bool {
        let Some(g) = self.taking.guide.as_mut().map(std::rc::Rc::make_mut) else { return false };
        let i = g.index;
        let offered = g.asks().is_some_and(|a| answer < a.answers.len());
        let moving_on = self.taking.stop_at.is_some_and(|m| m.step != i);
        if !offered || moving_on {
            return false;
        }
        g.record(i, answer);
        self.taking.tour_autoplay = false;
        self.tour_move(true, animate);
        true
    }

    /// Whether the step shown waits for the reader's answer: a tour moving on by itself stops there.
    pub(super) fn waits_for_answer(&self) -> bool {
        self.taking.guide.as_ref().is_some_and(|g| g.asks().is_some())
    }
}

/// Why the clock stopped at the unanswered question shown: playing on, or moving it by hand
/// past the question's instant, would show the answer before the reader gave one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Play was pressed at the question: the clock stays there.
    Play,
    /// The clock was moved (the scrubber, a step) past the question's instant, or back to a
    /// question after it: it was taken back to that instant.
    Seek,
}

impl Guide {
    /// Whether the step shown asks a question the reader has neither answered nor skipped
    /// (skipping moves on): the clock waits there.
    pub fn waits(&self) -> bool {
        self.asks().is_some() && self.answered(self.index).is_none()
    }

    /// The question's instant: the step's own, with the time it plays on once shown (`play`).
    fn question_ms(&self) -> Option<u64> {
        Some(self.found_time(self.index)?.saturating_add(self.step().play.unwrap_or(0)))
    }
}

impl Lab {
    /// The clock moved past the instant of the unanswered question shown (a seek, a step, Play
    /// from a later step): it is taken back to that instant and stops there.
    pub(super) fn hold_at_question(&mut self) {
        let Some(at) =
            self.taking.guide.as_deref().filter(|g| g.waits()).and_then(Guide::question_ms)
        else {
            return;
        };
        if self.now() > at {
            self.seek(at);
            self.taking.stop_at = None;
            self.playback.playing = false;
            self.taking.held = Some(Held::Seek);
        }
    }

    /// Why the last move stopped at the question shown, if it did.
    pub(crate) fn held(&self) -> Option<Held> {
        self.taking.held
    }
}
