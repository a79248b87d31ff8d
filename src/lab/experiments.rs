//! Things to try: one click sets up an experiment the scenario offers (`contract::scenario::
//! Experiment`) as a reader would by hand: its actions taken at their instants on the scenario's
//! own timeline, the clock put back a little before the first, playing. A link to a moment of it
//! names it (`try=N`, `share::Moment::experiment`): its actions may lie ahead of the moment.

use super::share::Moment;
use super::Lab;

impl Lab {
    /// Sets up experiment `i` of the scenario shown; `false` when it has none of that index.
    pub(super) fn try_experiment(&mut self, i: usize) -> bool {
        let Some(e) = self.scenario.experiments.get(i) else { return false };
        let (start, source) = (e.start_ms(), self.source.clone());
        let moment = Moment { source, seed: None, time_ms: start, experiment: Some(i), actions: Vec::new() };
        let Ok((scenario, mut timeline)) = moment.restore() else { return false };
        timeline.record_wire();
        self.replace(Lab::with_timeline(scenario, moment.source, timeline));
        self.playing = true;
        self.set_trying(Some(i));
        true
    }

    /// Marks experiment `i` as set up (a click, or a link naming it): the scrubber reaches as
    /// far as its actions were run.
    pub(super) fn set_trying(&mut self, i: Option<usize>) {
        self.trying = i;
        let last = self.trying().and_then(|(_, e)| e.actions().last().map(|(at, _)| *at));
        self.horizon = self.horizon.max(last.unwrap_or(0));
    }

    /// The experiment set up last (its index and itself), while the reader has not acted or
    /// opened anything since.
    pub fn trying(&self) -> Option<(usize, &crate::contract::scenario::Experiment)> {
        let i = self.trying?;
        Some((i, self.scenario.experiments.get(i)?))
    }
}
