//! A tour file as written (`docs/tour.md`), read and checked into a [`Tour`]: every refusal is
//! one line naming its field, like a scenario file's.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value as Json;

use super::{Ask, InlineScenario, Tour, TourStep, Wait, ANSWERS, MAX_PLAY_MS};
use crate::contract::scenario::{self, Scenario};
use crate::lang::{Lang, LocalizedText};
use crate::parts::{not_a_spot, Spot};
use crate::quote::quote;

// Read from JSON objects only (`crate::json_object`).
objects_only!(File, StepFile, AskFile);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
struct File {
    name: String,
    title: LocalizedText,
    /// A scenario's name, or a scenario file's object: kept as its text, which a scenario is
    /// read from as a scenario file is (one reader for both).
    scenario: Box<RawValue>,
    steps: Vec<StepFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
struct StepFile {
    #[serde(default)]
    scenario: Option<Box<RawValue>>,
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

/// Reads a tour; `scenario_text` finds the text of a shipped scenario it names by name (the
/// shipped ones: `catalogue::scenario_text`, which reads tours with this function).
pub fn parse(
    text: &str,
    scenario_text: impl Fn(&str) -> Option<&'static str>,
) -> Result<Tour, String> {
    let f: File = scenario::read_text(text)?;
    if f.name.is_empty() {
        return Err("name: must not be empty".into());
    }
    check_text(&f.title, "title")?;
    if f.steps.is_empty() {
        return Err("steps: a tour needs at least one step".into());
    }
    let mut scenarios =
        Scenarios { shipped: scenario_text, inline: BTreeMap::new(), used: Vec::new() };
    let mut current = scenarios.read("scenario", &f.scenario)?;
    let mut steps = Vec::new();
    let count = f.steps.len();
    for (i, s) in f.steps.into_iter().enumerate() {
        if let Some(raw) = &s.scenario {
            current = scenarios.read(&format!("steps[{i}].scenario"), raw)?;
        }
        steps.push(read_step(i, s, &current, i + 1 == count)?);
    }
    Ok(Tour { name: f.name, title: f.title, steps, scenarios: scenarios.inline })
}

/// Step `i` over the scenario `current` (its name and itself); `last` says whether no step
/// follows it.
fn read_step(
    i: usize,
    s: StepFile,
    current: &(String, Scenario),
    last: bool,
) -> Result<TourStep, String> {
    let field = |k: &str| format!("steps[{i}].{k}");
    check_text(&s.say, &field("say"))?;
    let wait = match (s.at, s.until) {
        (Some(_), Some(_)) => {
            return Err(format!("steps[{i}]: give \"at\" or \"until\", not both"))
        }
        (Some(at), None) => {
            Wait::At(scenario::parse_time(&at).map_err(|e| format!("{}: {e}", field("at")))?)
        }
        (None, Some(until)) => {
            scenario::check_predicate(&field("until"), &until)?;
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
        Some(a) => Some(read_ask(a, &field("ask"), last)?),
    };
    Ok(TourStep { scenario: current.0.clone(), wait, say: s.say, highlight, play, ask })
}

/// The scenarios a tour file names: those it gives inline (so far), else the shipped ones.
struct Scenarios<F> {
    shipped: F,
    inline: BTreeMap<String, InlineScenario>,
    /// Every name a step has shown so far: one name, one scenario, in a tour.
    used: Vec<String>,
}

impl<F: Fn(&str) -> Option<&'static str>> Scenarios<F> {
    /// The scenario at `field`: a name (the tour's own scenarios first, then the shipped ones)
    /// or a scenario file's object, which the tour keeps by its name.
    fn read(&mut self, field: &str, raw: &RawValue) -> Result<(String, Scenario), String> {
        let (name, s) = match raw.get().as_bytes().first() {
            Some(b'"') => {
                let name: String = serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
                let s = self.named(field, &name)?;
                (name, s)
            }
            Some(b'{') => {
                let s = scenario::parse_at(field, raw.get())?;
                // The object's text as it always was kept: compact, keys in order (a link to
                // a moment of it carries this text).
                let text =
                    serde_json::from_str::<Json>(raw.get()).map_err(|e| e.to_string())?.to_string();
                if s.name.is_empty() {
                    return Err(format!(
                        "{field}.name: an inline scenario needs a name, by which steps name it"
                    ));
                }
                if self.used.contains(&s.name) {
                    return Err(format!(
                        "{field}.name: {} already names a scenario of this tour: give this one another name",
                        quote(&s.name)
                    ));
                }
                let inline = InlineScenario { scenario: s.clone(), text };
                self.inline.insert(s.name.clone(), inline);
                (s.name.clone(), s)
            }
            _ => return Err(format!("{field}: must be a scenario's name or a scenario object")),
        };
        if !self.used.contains(&name) {
            self.used.push(name.clone());
        }
        Ok((name, s))
    }

    fn named(&self, field: &str, name: &str) -> Result<Scenario, String> {
        if let Some(s) = self.inline.get(name) {
            return Ok(s.scenario.clone());
        }
        let text = (self.shipped)(name)
            .ok_or_else(|| format!("{field}: there is no scenario {}", quote(name)))?;
        scenario::parse(text).map_err(|e| format!("{field}: scenario {name:?}: {e}"))
    }
}

/// A step's question, checked; `field` names the step's `ask` and `last` says whether no step
/// follows to answer it.
fn read_ask(a: AskFile, field: &str, last: bool) -> Result<Ask, String> {
    if last {
        return Err(format!(
            "{field}: the last step cannot ask: the next step is the moment that answers"
        ));
    }
    check_text(&a.question, &format!("{field}.question"))?;
    if !ANSWERS.contains(&a.answers.len()) {
        return Err(format!(
            "{field}.answers: give {} to {} answers, not {}",
            ANSWERS.start(),
            ANSWERS.end(),
            a.answers.len()
        ));
    }
    for (k, answer) in a.answers.iter().enumerate() {
        check_text(answer, &format!("{field}.answers[{k}]"))?;
    }
    if a.right >= a.answers.len() {
        return Err(format!(
            "{field}.right: {} is not the index of an answer (0 to {})",
            a.right,
            a.answers.len() - 1
        ));
    }
    check_text(&a.why, &format!("{field}.why"))?;
    Ok(Ask { question: a.question, answers: a.answers, right: a.right, why: a.why })
}

/// A text of the tour in one language or both: a plain string (the same text for every
/// reader), or an object of `"en"` and/or `"zh"`, each given one non-empty. A reader of a
/// language the text lacks reads the other (`LocalizedText::get`).
fn check_text(t: &LocalizedText, field: &str) -> Result<(), String> {
    let m = match t {
        LocalizedText::Plain(s) if s.trim().is_empty() => {
            return Err(format!("{field}: must not be empty"))
        }
        LocalizedText::Plain(_) => return Ok(()),
        LocalizedText::ByLanguage(m) => m,
    };
    if let Some(code) = m.keys().find(|k| !Lang::ALL.iter().any(|l| l.code() == k.as_str())) {
        return Err(format!("{field}.{code}: unknown language: use \"en\" or \"zh\""));
    }
    if let Some((code, _)) = m.iter().find(|(_, s)| s.trim().is_empty()) {
        return Err(format!("{field}.{code}: must not be empty"));
    }
    if m.is_empty() {
        return Err(format!("{field}: give an \"en\" or a \"zh\" text, or both"));
    }
    Ok(())
}

/// A step's `play`: more than nothing, and at most [`MAX_PLAY_MS`] (a step to watch, not a
/// scenario to sit through).
pub(crate) fn play_time(s: &str) -> Result<u64, String> {
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
        scenario::StepKind::Do(a) => match a.as_ref() {
            scenario::Action::AddApiserver(a) => Some(a.name.as_str()),
            _ => None,
        },
        scenario::StepKind::Expect(_) => None,
    });
    s.cluster.apiservers.iter().map(|a| a.name.as_str()).chain(added)
}
