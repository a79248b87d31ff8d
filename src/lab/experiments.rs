//! Things to try: one click sets up an experiment the scenario offers (`contract::scenario::
//! Experiment`) as a reader would by hand: its actions taken at their instants on the scenario's
//! own timeline, the clock put back a little before the first, playing. A link to a moment of it
//! carries those actions like any other.

use super::share::Moment;
use super::Lab;

impl Lab {
    /// Sets up experiment `i` of the scenario shown; `false` when it has none of that index.
    pub(super) fn try_experiment(&mut self, i: usize) -> bool {
        let Some(e) = self.scenario.experiments.get(i) else { return false };
        let (start, actions) = (e.start_ms(), e.actions());
        let last = actions.last().map_or(0, |(at, _)| *at);
        let moment = Moment { source: self.source.clone(), seed: None, time_ms: last, actions };
        let Ok((scenario, mut timeline)) = moment.restore() else { return false };
        timeline.record_wire();
        self.replace(Lab::with_timeline(scenario, moment.source, timeline));
        self.seek(start);
        self.playing = true;
        self.trying = Some(i);
        true
    }

    /// The experiment set up last (its index and itself), while the reader has not acted or
    /// opened anything since.
    pub fn trying(&self) -> Option<(usize, &crate::contract::scenario::Experiment)> {
        let i = self.trying?;
        Some((i, self.scenario.experiments.get(i)?))
    }
}
