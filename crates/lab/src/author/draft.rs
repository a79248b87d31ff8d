//! A tour being written in the page, and the tour file (`docs/tour.md`) it makes: the same
//! file a trainer would write by hand, read back by the same parser before it is offered.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::contract::scenario::Action;
use crate::duration::format_ms;
use crate::lang::Lang;
use crate::share::Source;

/// A text in both of the lab's languages; an empty one is not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts {
    /// The English text.
    pub en: String,
    /// The Chinese text.
    pub zh: String,
}

impl Texts {
    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Zh => &self.zh,
        }
    }

    pub(super) fn set(&mut self, lang: Lang, text: String) {
        match lang {
            Lang::En => self.en = text,
            Lang::Zh => self.zh = text,
        }
    }

    /// The file's text: `{"en": …, "zh": …}` with the languages given (none given: `{}`, which
    /// the parser refuses by name). `placeholder` stands in for a missing text, for working out
    /// where the steps arrive before the narration is written.
    fn json(&self, placeholder: bool) -> Json {
        let mut m = Map::new();
        for (code, text) in [("en", &self.en), ("zh", &self.zh)] {
            if !text.trim().is_empty() {
                m.insert(code.into(), Json::from(text.trim()));
            }
        }
        if m.is_empty() && placeholder {
            m.insert("en".into(), Json::from("…"));
        }
        Json::Object(m)
    }
}

/// A scenario as the author played it: the one they started from, with their actions taken
/// at their instants. The actions become steps of the scenario, so the page shows while
/// writing exactly what the tour file plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Take {
    /// The scenario started from.
    pub base: Source,
    /// The author's actions, each at its instant (virtual ms).
    pub actions: Vec<(u64, Action)>,
}

impl Take {
    pub(super) fn new(base: Source) -> Self {
        Take { base, actions: Vec::new() }
    }

    /// Where the lab gets this take's scenario: its base untouched, or a file of its own under
    /// the base's name (the page still names the scenario the author picked; the tour file
    /// names it apart, [`Draft::json`]).
    pub(super) fn source(&self) -> Result<Source, String> {
        if self.actions.is_empty() {
            return Ok(self.base.clone());
        }
        Ok(Source::Inline(self.object(&self.base_name()?)?.to_string()))
    }

    fn base_name(&self) -> Result<String, String> {
        let file = self.base_file()?;
        Ok(file.get("name").and_then(Json::as_str).unwrap_or("scenario").to_string())
    }

    fn base_file(&self) -> Result<Map<String, Json>, String> {
        let text = match &self.base {
            Source::Builtin(name) => crate::catalogue::scenario_text(name)
                .ok_or_else(|| format!("there is no scenario {name:?}"))?
                .to_string(),
            Source::Inline(text) => text.clone(),
        };
        match serde_json::from_str(&text) {
            Ok(Json::Object(m)) => Ok(m),
            _ => Err("the scenario is not a JSON object".into()),
        }
    }

    /// The scenario file of this take, named `name`: the base's fields, its steps and then the
    /// author's actions (at one instant, a scenario's steps keep their file order), without
    /// the base's experiments (a tour does not offer them).
    fn object(&self, name: &str) -> Result<Json, String> {
        let mut file = self.base_file()?;
        file.remove("experiments");
        file.insert("name".into(), Json::from(name));
        let mut steps = match file.remove("steps") {
            Some(Json::Array(steps)) => steps,
            _ => Vec::new(),
        };
        for (at, action) in &self.actions {
            let mut step = match serde_json::to_value(action) {
                Ok(Json::Object(m)) => m,
                _ => return Err("an action did not serialise".into()),
            };
            step.insert("at".into(), Json::from(format_ms(*at)));
            steps.push(Json::Object(step));
        }
        file.insert("steps".into(), Json::Array(steps));
        Ok(Json::Object(file))
    }
}

/// How a written step waits.
#[derive(Clone, Debug, PartialEq)]
pub enum StepWait {
    /// The instant it was written at (`at`).
    Instant,
    /// A predicate that held when it was written (`until`), with its words.
    Until {
        /// The predicate in the lab's words.
        label: Texts,
        /// The predicate as the file's `until` writes it.
        until: Json,
    },
}

/// A step as written.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftStep {
    /// The take it shows (an index of [`Draft::takes`]).
    pub take: usize,
    /// The instant it was written at.
    pub at_ms: u64,
    /// How it waits.
    pub wait: StepWait,
    /// Its narration.
    pub say: Texts,
    /// The parts it points at, by name (`docs/tour.md` §5).
    pub highlight: Vec<String>,
    /// How long it plays on once shown (ms), if it does.
    pub play_ms: Option<u64>,
    /// A question the reader answers before the next step (`docs/tour.md` §6).
    pub ask: Option<DraftAsk>,
}

/// A step's question as written: 2 to 4 answers, the index of the right one, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct DraftAsk {
    /// The question.
    pub question: Texts,
    /// The answers, in order.
    pub answers: Vec<Texts>,
    /// The index of the right answer.
    pub right: usize,
    /// Why the right answer is right.
    pub why: Texts,
}

impl Default for DraftAsk {
    fn default() -> Self {
        DraftAsk {
            question: Texts::default(),
            answers: vec![Texts::default(); 2],
            right: 0,
            why: Texts::default(),
        }
    }
}

impl DraftAsk {
    fn out(&self, placeholder: bool) -> AskOut {
        AskOut {
            question: self.question.json(placeholder),
            answers: self.answers.iter().map(|a| a.json(placeholder)).collect(),
            right: self.right,
            why: self.why.json(placeholder),
        }
    }
}

// The file as written, its fields in the order `docs/tour.md` gives them (a trainer reads it).
#[derive(Serialize)]
struct TourOut {
    name: String,
    title: Json,
    scenario: Json,
    steps: Vec<StepOut>,
}

#[derive(Serialize)]
struct StepOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    scenario: Option<Json>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    until: Option<Json>,
    say: Json,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    highlight: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    play: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ask: Option<AskOut>,
}

#[derive(Serialize)]
struct AskOut {
    question: Json,
    answers: Vec<Json>,
    right: usize,
    why: Json,
}

/// A tour being written: its name, title, steps, and the scenarios they show.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    /// The tour's name (its file's `name`).
    pub name: String,
    /// The tour's title.
    pub title: Texts,
    /// The steps, in order.
    pub steps: Vec<DraftStep>,
    /// The scenarios the steps show, as played.
    pub takes: Vec<Take>,
}

impl Default for Draft {
    fn default() -> Self {
        let title = Texts { en: "My tour".into(), zh: "我的导览".into() };
        Draft { name: "my-tour".into(), title, steps: Vec::new(), takes: Vec::new() }
    }
}

impl Draft {
    /// The tour file, pretty-printed (what Download saves and the CLI checks).
    pub fn file(&self) -> Result<String, String> {
        Ok(serde_json::to_string_pretty(&self.out(false)?).expect("JSON serialises"))
    }

    /// The tour file as one line; `placeholder` fills texts not yet written (for working out
    /// where the steps arrive, never offered to the reader).
    pub(super) fn text(&self, placeholder: bool) -> Result<String, String> {
        Ok(serde_json::to_string(&self.out(placeholder)?).expect("JSON serialises"))
    }

    fn out(&self, placeholder: bool) -> Result<TourOut, String> {
        let names = self.take_names()?;
        let mut shown: Vec<usize> = Vec::new();
        let mut reference = |take: usize| -> Result<Json, String> {
            let first = !shown.contains(&take);
            shown.push(take);
            let t = &self.takes[take];
            Ok(match (&t.base, first, names[take] == self.base_name(take)?) {
                // A shipped scenario, untouched and under its own name, is named.
                (Source::Builtin(_), _, true) if t.actions.is_empty() => {
                    Json::from(names[take].clone())
                }
                (_, true, _) => t.object(&names[take])?,
                (_, false, _) => Json::from(names[take].clone()),
            })
        };
        let mut steps = Vec::with_capacity(self.steps.len());
        let mut top = Json::Null;
        for (i, s) in self.steps.iter().enumerate() {
            let mut scenario = None;
            if i == 0 {
                top = reference(s.take)?;
            } else if self.steps[i - 1].take != s.take {
                scenario = Some(reference(s.take)?);
            }
            let (at, until) = match &s.wait {
                StepWait::Instant if s.at_ms > 0 => (Some(format_ms(s.at_ms)), None),
                StepWait::Instant => (None, None),
                StepWait::Until { until, .. } => (None, Some(until.clone())),
            };
            steps.push(StepOut {
                scenario,
                at,
                until,
                say: s.say.json(placeholder),
                highlight: s.highlight.clone(),
                play: s.play_ms.map(format_ms),
                ask: s.ask.as_ref().map(|a| a.out(placeholder)),
            });
        }
        if steps.is_empty() {
            return Err("steps: a tour needs at least one step: add one".into());
        }
        Ok(TourOut {
            name: self.name.trim().to_string(),
            title: self.title.json(placeholder),
            scenario: top,
            steps,
        })
    }

    fn base_name(&self, take: usize) -> Result<String, String> {
        self.takes[take].base_name().map(|n| match self.takes[take].actions.is_empty() {
            true => n,
            false => format!("{n}-as-played"),
        })
    }

    /// One name per take, as the file names its scenarios: each take's own name, with a number
    /// after it when an earlier take already has that name (a name means one scenario).
    fn take_names(&self) -> Result<Vec<String>, String> {
        let mut names: Vec<String> = Vec::with_capacity(self.takes.len());
        for k in 0..self.takes.len() {
            let base = self.base_name(k)?;
            let mut name = base.clone();
            let mut n = 2;
            while names.contains(&name) {
                name = format!("{base}-{n}");
                n += 1;
            }
            names.push(name);
        }
        Ok(names)
    }
}
