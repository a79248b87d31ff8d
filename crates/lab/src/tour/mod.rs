//! Guided tours: narration over scenarios (shipped ones by name, or given in the tour file),
//! in English, Chinese or both. Each step waits for the simulation (a time, or a predicate
//! written like a scenario's `expect`), names the part of the UI it talks about, and is found
//! by running the scenario forward, so the narration can never say something the simulation
//! does not do. Going back restores the remembered instant of an earlier step through the
//! timeline's checkpoints: nothing replays. The file format is `docs/tour.md` (read by `file`);
//! `run` plays a tour through; `check_text` and `run_text` answer `tour check` and `tour run`
//! (`bootstrap-sim`'s, and the package's command on the page's wasm).
//!
//! ```json
//! {"name": "lease-heartbeats", "title": {"en": "…", "zh": "…"}, "scenario": "crash-vs-graceful-stop",
//!  "steps": [
//!    {"say": {"en": "…", "zh": "…"}, "highlight": ["leases"]},
//!    {"until": {"leases": [{"ip": "192.168.10.12", "ttl_left_ms": 1000}]}, "say": {…}},
//!    {"at": "70s", "say": {…}, "highlight": ["apiserver:apiserver-c"], "play": "20s"},
//!    {"scenario": "last-apiserver-shutdown-1-20", "say": {…}}
//!  ]}
//! ```

mod answer;
mod file;
mod run;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value as Json;

use crate::contract::expect;
use crate::contract::scenario::{self, Scenario};
use crate::lang::LocalizedText;
use crate::parts::Spot;
use crate::quote::quote;
use crate::share::Source;
use crate::sim::timeline::Timeline;

pub use answer::{check_text, run_text, Answer};
pub use file::parse;
pub(crate) use file::play_time;
pub use run::{run, StepRun, TourRun};

/// How long a step may wait for its predicate, in virtual time, before the tour is broken.
pub(crate) const WAIT_LIMIT_MS: u64 = 60 * 60 * 1000;
/// The longest a step may play on by itself once shown (`play`), in virtual time.
pub(crate) const MAX_PLAY_MS: u64 = 5 * 60 * 1000;

/// When a step is shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// Where the previous step left off (or the scenario's start).
    Now,
    /// At this virtual time (or at once, when the previous step is already later).
    At(u64),
    /// The first instant, from the previous step on, at which this `expect` holds.
    Until(Json),
}

/// One step of a tour.
#[derive(Clone, Debug, PartialEq)]
pub struct TourStep {
    /// The name of the scenario this step shows ([`Tour::scenario`]: the tour's own, else a
    /// shipped one); a change restarts at its time 0.
    pub scenario: String,
    /// When it is shown.
    pub wait: Wait,
    /// Its narration.
    pub say: LocalizedText,
    /// The parts it points at.
    pub highlight: Vec<Spot>,
    /// How long (virtual ms) the clock plays on once the step is shown, when its narration asks
    /// the reader to watch something happen (`"play": "20s"`): never past the next step.
    pub play: Option<u64>,
    /// A question the reader answers before the tour goes on (`"ask"`): the next step is the
    /// moment that answers it, and its card says which answer was right and why.
    pub ask: Option<Ask>,
}

/// Predict, then watch: a question with two to four answers, the index of the right one, and
/// why it is right (what Kubernetes does), each text localized.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The question.
    pub question: LocalizedText,
    /// The answers, in order.
    pub answers: Vec<LocalizedText>,
    /// The index of the right answer.
    pub right: usize,
    /// Why the right answer is right.
    pub why: LocalizedText,
}

/// How many answers a question offers.
pub const ANSWERS: std::ops::RangeInclusive<usize> = 2..=4;

/// A guided tour (`docs/tour.md`): narrated steps over one or more scenarios.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    /// Its name (for a shipped tour, its file's name in `tours/`).
    pub name: String,
    /// Its title.
    pub title: LocalizedText,
    /// Its steps, in order.
    pub steps: Vec<TourStep>,
    /// The scenarios the tour file gives inline, by their names.
    pub scenarios: BTreeMap<String, InlineScenario>,
}

/// A scenario written inside a tour file.
#[derive(Clone, Debug, PartialEq)]
pub struct InlineScenario {
    /// The scenario, read.
    pub scenario: Scenario,
    /// Its object as JSON text: a scenario file of its own, which a link to a moment of it
    /// carries (`#file=…`).
    pub text: String,
}

impl Tour {
    /// The scenario named `name` by a step: the tour's own first, else the shipped one.
    pub fn scenario(&self, name: &str) -> Option<Scenario> {
        match self.scenarios.get(name) {
            Some(s) => Some(s.scenario.clone()),
            None => crate::shipped::scenario(name),
        }
    }

    /// Where the scenario named `name` comes from, as a lab playing it says (and links to it).
    pub fn source(&self, name: &str) -> Source {
        match self.scenarios.get(name) {
            Some(s) => Source::Inline(s.text.clone()),
            None => Source::Builtin(name.to_string()),
        }
    }
}

/// Whether `until` holds in the world `timeline` shows now; the mismatches when not.
pub fn holds(until: &Json, timeline: &Timeline) -> Result<(), Vec<String>> {
    let w = timeline.world();
    let state = serde_json::to_value(w.state()).expect("state serialises");
    let out = expect::check(until, &state, w.events());
    if out.is_empty() {
        Ok(())
    } else {
        Err(out)
    }
}

/// A reader's place in a tour, with the instant each step was found at (found once, then
/// remembered, so going back and forth is a seek).
#[derive(Clone, Debug)]
pub struct Guide {
    /// The tour taken.
    pub tour: Tour,
    /// The step shown (the lab moves it, remembering how far the reader got).
    pub index: usize,
    times: Vec<Option<u64>>,
    /// The furthest step shown so far: going forward up to it is a restore.
    reached: usize,
    /// The answer the reader picked at each step that asks (`lab::predict`), kept for going back and forth.
    answers: Vec<Option<usize>>,
}

impl Guide {
    /// A guide at the tour's first step, with no instant found yet.
    pub fn new(tour: Tour) -> Self {
        let n = tour.steps.len();
        Guide { tour, index: 0, times: vec![None; n], reached: 0, answers: vec![None; n] }
    }

    /// The step shown.
    pub fn step(&self) -> &TourStep {
        &self.tour.steps[self.index]
    }

    /// Whether the reader has been at step `i` (its instant is known).
    pub fn found(&self, i: usize) -> bool {
        i <= self.reached && self.found_time(i).is_some()
    }

    /// The answer picked to step `i`'s question, if the reader answered it.
    pub fn answered(&self, i: usize) -> Option<usize> {
        self.answers.get(i).copied().flatten()
    }

    /// Keeps `answer` as the reader's pick for step `i`'s question (checked by the caller).
    pub(crate) fn record(&mut self, i: usize, answer: usize) {
        self.answers[i] = Some(answer);
    }

    /// Shows step `i`.
    pub(crate) fn show(&mut self, i: usize) {
        self.index = i;
        self.reached = self.reached.max(i);
    }

    /// Step `i`'s instant if it is already known.
    pub(crate) fn found_time(&self, i: usize) -> Option<u64> {
        self.times.get(i).copied().flatten()
    }

    /// Whether step `i` shows the same scenario as the step shown, so that playing the clock
    /// can reach it.
    pub(crate) fn same_scenario(&self, i: usize) -> bool {
        self.tour.steps.get(i).is_some_and(|s| s.scenario == self.step().scenario)
    }

    pub(crate) fn is_last(&self) -> bool {
        self.index + 1 == self.tour.steps.len()
    }

    /// The instant step `i` shows, running `timeline` (which must be of step `i`'s scenario)
    /// forward from the previous step as far as needed. The timeline is left anywhere.
    pub fn time_of(&mut self, i: usize, timeline: &mut Timeline) -> Result<u64, String> {
        self.arrival(i, timeline).map_err(|m| m.to_string())
    }

    /// [`Guide::time_of`], saying where and why a step that never arrives was given up on.
    pub fn arrival(&mut self, i: usize, timeline: &mut Timeline) -> Result<u64, Miss> {
        if let Some(t) = self.times[i] {
            return Ok(t);
        }
        let step = &self.tour.steps[i];
        let same_scenario = i > 0 && self.tour.steps[i - 1].scenario == step.scenario;
        let from = if same_scenario { self.arrival(i - 1, timeline)? } else { 0 };
        let step = self.tour.steps[i].clone();
        let t = match &step.wait {
            Wait::Now => from,
            Wait::At(at) => from.max(*at),
            Wait::Until(until) => self.wait_until(i, until, from, timeline)?,
        };
        self.times[i] = Some(t);
        Ok(t)
    }

    /// The first instant from `from` on at which step `i`'s `until` holds, looked for within
    /// [`WAIT_LIMIT_MS`] and the ceiling of virtual time.
    fn wait_until(
        &self,
        i: usize,
        until: &Json,
        from: u64,
        timeline: &mut Timeline,
    ) -> Result<u64, Miss> {
        let deadline = (from + WAIT_LIMIT_MS).min(scenario::MAX_TIME_MS.max(from));
        timeline.seek(from);
        loop {
            let why = match holds(until, timeline) {
                Ok(()) => return Ok(timeline.world().now()),
                Err(why) => why,
            };
            let limit = if timeline.world().now() >= deadline {
                Some(deadline - from)
            } else if timeline.step().is_none() {
                None
            } else {
                continue;
            };
            let tour = self.tour.name.clone();
            return Err(Miss { tour, step: i, at_ms: timeline.world().now(), why, limit });
        }
    }
}

/// Why a step never arrives: its `until` did not hold by the instant the search gave up at.
#[derive(Clone, Debug, PartialEq)]
pub struct Miss {
    tour: String,
    /// The step (from 0).
    pub step: usize,
    /// Where the search gave up: its wait's limit, or the end of the simulation.
    pub at_ms: u64,
    /// What did not match there.
    pub why: Vec<String>,
    /// How long it looked, when it gave up at its limit (`None`: the simulation stopped).
    limit: Option<u64>,
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, n) = (quote(&self.tour), self.step + 1);
        match self.limit {
            Some(ms) => write!(
                f,
                "tour {name} step {n}: \"until\" did not hold within {} of virtual time: {}",
                crate::duration::format_ms(ms),
                self.why.join("; ")
            ),
            None => write!(f, "tour {name} step {n}: the simulation stopped before \"until\" held"),
        }
    }
}
