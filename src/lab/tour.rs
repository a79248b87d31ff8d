//! Guided tours: narration over a scenario of `scenarios/`, in English and Chinese. Each step
//! waits for the simulation (a time, or a predicate written like a scenario's `expect`), names
//! the part of the UI it talks about, and is found by running the scenario forward, so the
//! narration can never say something the simulation does not do. Going back restores the
//! remembered instant of an earlier step through the timeline's checkpoints: nothing replays.
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

use serde::Deserialize;
use serde_json::Value as Json;

use crate::contract::expect;
use crate::lang::{Lang, LocalizedText};
use crate::lab::parts::{not_a_spot, Spot};
use crate::quote::quote;
use crate::contract::scenario::{self, Scenario};
use crate::sim::timeline::Timeline;

/// How long a step may wait for its predicate, in virtual time, before the tour is broken.
pub(crate) const WAIT_LIMIT_MS: u64 = 60 * 60 * 1000;
/// The longest a step may play on by itself once shown (`play`), in virtual time.
pub(crate) const MAX_PLAY_MS: u64 = 5 * 60 * 1000;

#[derive(Clone, Debug, PartialEq)]
pub enum Wait {
    /// Where the previous step left off (or the scenario's start).
    Now,
    /// At this virtual time (or at once, when the previous step is already later).
    At(u64),
    /// The first instant, from the previous step on, at which this `expect` holds.
    Until(Json),
}

#[derive(Clone, Debug, PartialEq)]
pub struct TourStep {
    /// The scenario (a name of `scenarios/`) this step shows; a change restarts at its time 0.
    pub scenario: String,
    pub wait: Wait,
    pub say: LocalizedText,
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
    pub question: LocalizedText,
    pub answers: Vec<LocalizedText>,
    pub right: usize,
    pub why: LocalizedText,
}

/// How many answers a question offers.
pub const ANSWERS: std::ops::RangeInclusive<usize> = 2..=4;

#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    pub name: String,
    pub title: LocalizedText,
    pub steps: Vec<TourStep>,
}

// Read from JSON objects only (`crate::json_object`).
objects_only!(File, StepFile, AskFile);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
struct File {
    name: String,
    title: LocalizedText,
    scenario: String,
    steps: Vec<StepFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
struct StepFile {
    #[serde(default)]
    scenario: Option<String>,
    #[serde(default)]
    at: Option<String>,
    #[serde(default)]
    until: Option<Json>,
    say: LocalizedText,
    #[serde(default)]
    highlight: Vec<String>,
    #[serde(default)]
    play: Option<String>,
    #[serde(default)]
    ask: Option<AskFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
struct AskFile {
    question: LocalizedText,
    answers: Vec<LocalizedText>,
    right: usize,
    why: LocalizedText,
}

/// A step's question, checked; `field` names the step's `ask` and `last` says whether no step
/// follows to answer it.
fn read_ask(a: AskFile, field: &str, last: bool) -> Result<Ask, String> {
    if last {
        return Err(format!("{field}: the last step cannot ask: the next step is the moment that answers"));
    }
    check_text(&a.question, &format!("{field}.question"))?;
    if !ANSWERS.contains(&a.answers.len()) {
        return Err(format!("{field}.answers: give {} to {} answers, not {}", ANSWERS.start(), ANSWERS.end(), a.answers.len()));
    }
    for (k, answer) in a.answers.iter().enumerate() {
        check_text(answer, &format!("{field}.answers[{k}]"))?;
    }
    if a.right >= a.answers.len() {
        return Err(format!("{field}.right: {} is not the index of an answer (0 to {})", a.right, a.answers.len() - 1));
    }
    check_text(&a.why, &format!("{field}.why"))?;
    Ok(Ask { question: a.question, answers: a.answers, right: a.right, why: a.why })
}

/// Both languages, non-empty: a tour is read in either.
fn check_text(t: &LocalizedText, field: &str) -> Result<(), String> {
    match t {
        LocalizedText::ByLanguage(m)
            if Lang::ALL
                .iter()
                .all(|l| m.get(l.code()).is_some_and(|s| !s.trim().is_empty())) =>
        {
            Ok(())
        }
        _ => Err(format!("{field}: needs non-empty \"en\" and \"zh\" texts")),
    }
}

/// Reads a tour; `scenario_text` finds the text of a scenario it names (the shipped ones:
/// `catalogue::scenario_text`, which reads tours with this function).
pub fn parse(
    text: &str,
    scenario_text: impl Fn(&str) -> Option<&'static str>,
) -> Result<Tour, String> {
    let f: File = scenario::read_json(text)?;
    if f.name.is_empty() {
        return Err("name: must not be empty".into());
    }
    check_text(&f.title, "title")?;
    if f.steps.is_empty() {
        return Err("steps: a tour needs at least one step".into());
    }
    let load = |name: &str, field: &str| -> Result<Scenario, String> {
        let text = scenario_text(name)
            .ok_or_else(|| format!("{field}: there is no scenario {}", quote(name)))?;
        scenario::parse(text).map_err(|e| format!("{field}: scenario {name:?}: {e}"))
    };
    let mut current = (f.scenario.clone(), load(&f.scenario, "scenario")?);
    let mut steps = Vec::new();
    let count = f.steps.len();
    for (i, s) in f.steps.into_iter().enumerate() {
        let field = |k: &str| format!("steps[{i}].{k}");
        if let Some(name) = s.scenario {
            let sc = load(&name, &field("scenario"))?;
            current = (name, sc);
        }
        check_text(&s.say, &field("say"))?;
        let wait = match (s.at, s.until) {
            (Some(_), Some(_)) => {
                return Err(format!("steps[{i}]: give \"at\" or \"until\", not both"))
            }
            (Some(at), None) => {
                Wait::At(scenario::parse_time(&at).map_err(|e| format!("{}: {e}", field("at")))?)
            }
            (None, Some(until)) => {
                if !until.is_object() {
                    return Err(format!(
                        "{}: must be an object, like a scenario's expect",
                        field("until")
                    ));
                }
                Wait::Until(until)
            }
            (None, None) => Wait::Now,
        };
        let mut highlight = Vec::new();
        for (j, text) in s.highlight.iter().enumerate() {
            let not_a_part = |e: String| format!("{}[{j}]: {e}", field("highlight"));
            let spot: Spot = text.parse().map_err(not_a_part)?;
            if let Spot::Apiserver(name) = &spot {
                if !apiserver_names(&current.1).any(|n| n == name) {
                    return Err(not_a_part(not_a_spot(text)));
                }
            }
            highlight.push(spot);
        }
        let play = match s.play {
            None => None,
            Some(p) => Some(play_time(&p).map_err(|e| format!("{}: {e}", field("play")))?),
        };
        let ask = match s.ask {
            None => None,
            Some(a) => Some(read_ask(a, &field("ask"), i + 1 == count)?),
        };
        steps.push(TourStep {
            scenario: current.0.clone(),
            wait,
            say: s.say,
            highlight,
            play,
            ask,
        });
    }
    Ok(Tour {
        name: f.name,
        title: f.title,
        steps,
    })
}

/// A step's `play`: more than nothing, and at most [`MAX_PLAY_MS`] (a step to watch, not a
/// scenario to sit through).
fn play_time(s: &str) -> Result<u64, String> {
    match scenario::parse_time(s)? {
        0 => Err(format!("{} plays nothing: give a positive duration", quote(s))),
        ms if ms > MAX_PLAY_MS => Err(format!(
            "{} is longer than {}, the most a step plays on",
            quote(s),
            crate::duration::format_ms(MAX_PLAY_MS)
        )),
        ms => Ok(ms),
    }
}

/// The apiservers a scenario has: those of its cluster and those its steps add.
fn apiserver_names(s: &Scenario) -> impl Iterator<Item = &str> {
    let added = s.steps.iter().filter_map(|step| match &step.kind {
        scenario::StepKind::Do(scenario::Action::AddApiserver(a)) => Some(a.name.as_str()),
        _ => None,
    });
    s.cluster
        .apiservers
        .iter()
        .map(|a| a.name.as_str())
        .chain(added)
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
    pub fn new(tour: Tour) -> Self {
        let n = tour.steps.len();
        Guide {
            tour,
            index: 0,
            times: vec![None; n],
            reached: 0,
            answers: vec![None; n],
        }
    }

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
        if let Some(t) = self.times[i] {
            return Ok(t);
        }
        let step = &self.tour.steps[i];
        let same_scenario = i > 0 && self.tour.steps[i - 1].scenario == step.scenario;
        let from = if same_scenario {
            self.time_of(i - 1, timeline)?
        } else {
            0
        };
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
    ) -> Result<u64, String> {
        let deadline = (from + WAIT_LIMIT_MS).min(scenario::MAX_TIME_MS.max(from));
        let name = quote(&self.tour.name);
        timeline.seek(from);
        loop {
            match holds(until, timeline) {
                Ok(()) => return Ok(timeline.world().now()),
                Err(why) if timeline.world().now() >= deadline => {
                    return Err(format!(
                        "tour {name} step {}: \"until\" did not hold within {} of virtual time: {}",
                        i + 1,
                        crate::duration::format_ms(deadline - from),
                        why.join("; ")
                    ))
                }
                Err(_) => {
                    if timeline.step().is_none() {
                        return Err(format!(
                            "tour {name} step {}: the simulation stopped before \"until\" held",
                            i + 1
                        ));
                    }
                }
            }
        }
    }
}
