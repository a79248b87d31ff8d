//! Writing a tour in the page (`Msg::Author`): the author plays and acts in the sandbox and,
//! at any moment, adds a step there with its narration, the parts it points at (picked on the
//! stage) and its wait (this instant, or a predicate that holds now, from [`Choice`]s). The
//! actions become steps of the scenario as the author takes them ([`Take`]), so what the page
//! shows while writing is what the tour file plays. The file is the contract's (`docs/tour.md`)
//! and is offered only once the tour parser reads it back.

mod draft;
mod draft_edits;
mod edit;
mod menu;

use std::cell::RefCell;
use std::rc::Rc;

pub use draft::{Draft, DraftAsk, DraftStep, StepWait, Take, Texts};
pub use menu::Choice;

use super::share::{percent_encode, Moment, Source};
use super::{Lab, TourOrigin};
use crate::contract::scenario::Action;
use crate::lang::Lang;
use crate::tour;

/// What the author does (`Msg::Author`).
#[derive(Clone, Debug, PartialEq)]
pub enum Authoring {
    /// Start writing (or go on with the tour written so far) in the sandbox, at this moment.
    Open,
    /// Stop writing; the tour written so far is kept for the next `Open`.
    Close,
    /// Add a step at this moment, after the steps of the same scenario before it.
    AddStep,
    /// Edit a step (its scenario shown at its instant), or none.
    Select(Option<usize>),
    /// Delete this step.
    Delete(usize),
    /// Move step `from` to position `to`.
    Move {
        /// The step's index now.
        from: usize,
        /// Its index after the move.
        to: usize,
    },
    /// Write a step's narration in one language.
    Say {
        /// The step's index.
        step: usize,
        /// The narration's language.
        lang: Lang,
        /// The narration.
        text: String,
    },
    /// Write the tour's title in one language.
    Title {
        /// The title's language.
        lang: Lang,
        /// The title.
        text: String,
    },
    /// Name the tour (its file's `name`).
    Name(String),
    /// The step waits for this moment: its instant (`None`) or the predicate of this index
    /// among the view's [`wait_choices`](crate::View::wait_choices); either way the step now
    /// stands here.
    Wait {
        /// The step's index.
        step: usize,
        /// The predicate's index among the wait choices; `None`: the instant.
        choice: Option<usize>,
    },
    /// Point at (`on`) or no longer at a part of the page, by its name (`docs/tour.md` §5).
    Highlight {
        /// The step's index.
        step: usize,
        /// The part's name (`apiserver:apiserver-a`, `etcd`…).
        spot: String,
        /// Point at it (`true`) or no longer (`false`).
        on: bool,
    },
    /// How long the step plays on once shown, a duration (`"15s"`); empty: it does not.
    Play {
        /// The step's index.
        step: usize,
        /// The duration, as written.
        play: String,
    },
    /// Edit the step's question (`ask`): whether it asks, and its texts and answers.
    Ask {
        /// The step's index.
        step: usize,
        /// The edit.
        edit: AskEdit,
    },
    /// Go on writing the tour being taken (shipped, a trainer's, or one opened from its link),
    /// at the step shown: it replaces the tour written so far.
    EditTour,
    /// Take the tour written so far from its first step (writing waits meanwhile).
    Preview,
    /// Back from the preview to writing, at the selected step.
    Back,
}

/// An edit of a step's question.
#[derive(Clone, Debug, PartialEq)]
pub enum AskEdit {
    /// The step asks (with two empty answers to write), or no longer does.
    On(bool),
    /// The question's text in one language.
    Question(Lang, String),
    /// The text of this answer in one language.
    Answer(usize, Lang, String),
    /// One more answer (at most four).
    AddAnswer,
    /// Drop this answer (at least two stay).
    RemoveAnswer(usize),
    /// This answer is the right one.
    Right(usize),
    /// Why the right answer is right, in one language.
    Why(Lang, String),
}

/// How the author uses the writer now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Writing: the sandbox's actions become the scenario's steps.
    Writing,
    /// Taking the tour written so far, as a reader would.
    Previewing,
    /// Not writing; the draft is kept.
    Closed,
}

/// Where a written step arrives when the tour plays.
#[derive(Clone, Debug, PartialEq)]
pub enum Arrival {
    /// At this instant (virtual ms).
    At(u64),
    /// Its predicate never holds: why, where the search gave up.
    Never(String),
    /// A step before it never arrives.
    NotReached,
}

/// The tour being written and how the author writes it.
#[derive(Clone, Debug)]
pub struct Writer {
    draft: Draft,
    mode: Mode,
    /// The scenario the sandbox shows, as played so far, and its index among the draft's
    /// takes once a step shows it.
    current: Take,
    current_index: Option<usize>,
    selected: Option<usize>,
    /// The file, or the one line that says why it is not a tour yet.
    file: Result<String, String>,
    arrivals: Vec<Arrival>,
    /// The wait choices of the moment shown, by (generation, instant).
    choices: RefCell<Option<(Shown, Rc<Vec<Choice>>)>>,
}

/// A moment of a run: (generation, instant).
type Shown = (u64, u64);

impl Writer {
    fn new(base: Source) -> Self {
        Writer {
            draft: Draft::default(),
            mode: Mode::Writing,
            current: Take::new(base),
            current_index: None,
            selected: None,
            file: Err(String::new()),
            arrivals: Vec::new(),
            choices: RefCell::default(),
        }
    }

    /// The tour written so far, step by step.
    pub fn draft(&self) -> &Draft {
        &self.draft
    }

    /// Whether the author writes, previews or has closed the writer.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The step being edited, if any.
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The tour file, valid (`tour check` passes it), or why it is not yet.
    pub fn file(&self) -> Result<&str, &str> {
        self.file.as_deref().map_err(String::as_str)
    }

    /// The query that opens the tour written (`tour-file=…`) in `lang`, once it is a tour.
    pub fn query(&self, lang: Lang) -> Option<String> {
        let file = self.file().ok()?;
        Some(format!("tour-file={}{}", percent_encode(file), super::touring::lang_param(lang)))
    }

    /// Where each step arrives when the tour plays (the narration not yet written counts as
    /// written).
    pub fn arrivals(&self) -> &[Arrival] {
        &self.arrivals
    }

    /// Reads the draft back as the tour parser does; `arrivals` also plays it through.
    fn check(&mut self, arrivals: bool) {
        self.file = self.draft.file().and_then(|text| parse(&text).map(|_| text));
        if !arrivals {
            return;
        }
        let played = self.draft.text(true).and_then(|j| parse(&j)).map(|t| tour::run(&t));
        self.arrivals = match played {
            Ok(run) => run
                .steps
                .iter()
                .map(|s| match (s.held, s.at_ms) {
                    (true, Some(t)) => Arrival::At(t),
                    (false, Some(_)) => Arrival::Never(s.why.join("; ")),
                    _ => Arrival::NotReached,
                })
                .collect(),
            Err(_) => vec![Arrival::NotReached; self.draft.steps.len()],
        };
    }

    /// The take `k` as the sandbox will show it.
    fn enter(&mut self, k: usize) {
        self.current = self.draft.takes[k].clone();
        self.current_index = Some(k);
    }
}

fn parse(text: &str) -> Result<tour::Tour, String> {
    tour::parse(text, crate::catalogue::scenario_text)
}

/// A lab showing `take` at instant `at`.
fn take_lab(take: &Take, at: u64) -> Result<Lab, String> {
    let source = take.source()?;
    let moment = Moment { source, seed: None, time_ms: at, experiment: None, actions: Vec::new() };
    let (scenario, mut timeline) = moment.restore()?;
    timeline.record_wire();
    Ok(Lab::with_timeline(scenario, moment.source, timeline))
}

impl Lab {
    /// Whether the author is writing now (the sandbox takes actions as the scenario's steps).
    pub(crate) fn writing(&self) -> bool {
        self.writer.as_ref().is_some_and(|w| w.mode == Mode::Writing)
    }

    /// The predicates that hold at the moment shown, for a step's wait.
    pub(crate) fn wait_choices(&self) -> Rc<Vec<Choice>> {
        let Some(w) = &self.writer else { return Rc::default() };
        let key = (self.generation, self.now());
        let mut cache = w.choices.borrow_mut();
        if let Some((_, c)) = cache.as_ref().filter(|(k, _)| *k == key) {
            return c.clone();
        }
        let c = Rc::new(menu::choices(&self.observed.state, self.timeline.world().events()));
        *cache = Some((key, c.clone()));
        c
    }

    pub(super) fn author(&mut self, m: Authoring) -> bool {
        match m {
            // From the preview, going on writing is going back to it.
            Authoring::Open if self.writer.as_ref().is_some_and(|w| w.mode == Mode::Previewing) => {
                self.back_to_writing()
            }
            Authoring::Open => self.open_writer(),
            Authoring::EditTour => self.edit_tour(),
            Authoring::Close => self.set_mode(Mode::Closed),
            Authoring::Preview => self.preview(),
            Authoring::Back => self.back_to_writing(),
            Authoring::AddStep => self.add_step(),
            Authoring::Select(i) => self.select(i),
            Authoring::Wait { step, choice } => self.set_wait(step, choice),
            edit => self.edit(edit),
        }
    }

    fn open_writer(&mut self) -> bool {
        self.leave_tour();
        self.trying = None;
        self.taking.tour_origin = TourOrigin::Shipped;
        let source = self.source.clone();
        let actions: Vec<(u64, Action)> = self.timeline.actions().to_vec();
        let w =
            Rc::make_mut(self.writer.get_or_insert_with(|| Rc::new(Writer::new(source.clone()))));
        w.mode = Mode::Writing;
        // Going on in the take shown, or starting one from what the sandbox shows: the
        // reader's actions so far become the take's, taken as the scenario's steps.
        let same = actions.is_empty() && w.current.source().as_ref() == Ok(&source);
        if !same {
            w.current = Take { base: source, actions };
            w.current_index = None;
            if !w.current.actions.is_empty() {
                self.rebuild(self.now());
            }
        }
        if let Some(w) = self.writer.as_mut().map(Rc::make_mut) {
            w.check(true);
        }
        true
    }

    fn edit_tour(&mut self) -> bool {
        let Some(g) = self.taking.guide.as_ref() else { return false };
        let (draft, at) = (edit::draft(&g.tour), g.index);
        let mut w = Writer::new(self.source.clone());
        w.draft = draft;
        self.writer = Some(Rc::new(w));
        self.leave_tour();
        self.trying = None;
        self.taking.tour_origin = TourOrigin::Shipped;
        self.select(Some(at));
        if let Some(w) = self.writer.as_mut().map(Rc::make_mut) {
            w.check(true);
        }
        true
    }

    fn set_mode(&mut self, mode: Mode) -> bool {
        match self.writer.as_mut().map(Rc::make_mut) {
            Some(w) if w.mode != mode => {
                w.mode = mode;
                true
            }
            _ => false,
        }
    }

    /// Replaces the lab by the current take at instant `at`, keeping whether it plays.
    fn rebuild(&mut self, at: u64) {
        let Some(w) = self.writer.as_ref() else { return };
        match take_lab(&w.current, at) {
            Ok(next) => {
                let playing = self.playback.playing;
                self.replace(next);
                self.playback.playing = playing;
            }
            Err(e) => self.notice = Some(e),
        }
    }

    /// An action while writing: refused as the world would refuse it, else one more step of
    /// the scenario at this instant (later ones are dropped, as acting in the past forks).
    pub(super) fn author_act(&mut self, action: Action) {
        // Refused as the reader's click would be (tried on a copy): told, and not written.
        let tried = action
            .validate()
            .and_then(|()| self.timeline.clone().act(action.clone()).map_err(|f| f.message));
        if let Err(why) = tried {
            self.notice = Some(why);
            return;
        }
        let now = self.now();
        let Some(w) = self.writer.as_mut().map(Rc::make_mut) else { return };
        let before = w.current.clone();
        w.current.actions.retain(|(at, _)| *at <= now);
        w.current.actions.push((now, action));
        if let Err(e) = w.current.source() {
            w.current = before;
            self.notice = Some(e);
            return;
        }
        if let Some(k) = w.current_index {
            w.draft.takes[k] = w.current.clone();
        }
        self.notice = None;
        self.rebuild(now);
        if let Some(w) = self.writer.as_mut().map(Rc::make_mut) {
            w.check(true);
        }
    }

    /// Another scenario loaded while writing: steps added from now on show it.
    pub(super) fn author_loaded(&mut self) {
        let source = self.source.clone();
        if let Some(w) = self.writer.as_mut().map(Rc::make_mut).filter(|w| w.mode == Mode::Writing)
        {
            w.current = Take::new(source);
            w.current_index = None;
            w.selected = None;
        }
    }

    fn add_step(&mut self) -> bool {
        let now = self.now();
        let Some(w) = self.writer.as_mut().map(Rc::make_mut) else { return false };
        let k = match w.current_index {
            Some(k) => k,
            None => {
                w.draft.takes.push(w.current.clone());
                w.current_index = Some(w.draft.takes.len() - 1);
                w.draft.takes.len() - 1
            }
        };
        let steps = &w.draft.steps;
        let at = steps.iter().rposition(|s| s.take == k && s.at_ms <= now).map(|p| p + 1);
        let at = at
            .or_else(|| steps.iter().position(|s| s.take == k && s.at_ms > now))
            .unwrap_or(steps.len());
        let step = DraftStep {
            take: k,
            at_ms: now,
            wait: StepWait::Instant,
            say: Texts::default(),
            highlight: Vec::new(),
            play_ms: None,
            ask: None,
        };
        w.draft.steps.insert(at, step);
        w.selected = Some(at);
        w.check(true);
        true
    }

    fn select(&mut self, i: Option<usize>) -> bool {
        let now = self.now();
        let Some(w) = self.writer.as_mut().map(Rc::make_mut) else { return false };
        let Some(i) = i.filter(|i| *i < w.draft.steps.len()) else {
            w.selected = None;
            return true;
        };
        w.selected = Some(i);
        let DraftStep { take, at_ms, .. } = w.draft.steps[i];
        self.playback.playing = false;
        if w.current_index != Some(take) {
            w.enter(take);
            self.rebuild(at_ms);
        } else if now != at_ms {
            self.seek(at_ms);
        }
        true
    }

    fn set_wait(&mut self, step: usize, choice: Option<usize>) -> bool {
        let now = self.now();
        let chosen = match choice {
            None => Some(StepWait::Instant),
            Some(c) => self
                .wait_choices()
                .get(c)
                .map(|c| StepWait::Until { label: c.label.clone(), until: c.until.clone() }),
        };
        let Some(w) = self.writer.as_mut().map(Rc::make_mut) else { return false };
        let (Some(s), Some(wait)) = (w.draft.steps.get_mut(step), chosen) else { return false };
        // A wait is of the moment shown: of the step's own scenario.
        if w.current_index != Some(s.take) {
            self.notice = Some(
                self.lang
                    .pick(
                        "That wait is not of this step's scenario: select the step first.",
                        "这个等待条件不属于该步骤的场景：请先选中该步骤。",
                    )
                    .into(),
            );
            return false;
        }
        s.wait = wait;
        s.at_ms = now;
        w.check(true);
        true
    }

    /// The tour written so far, taken from its first step as a reader would.
    fn preview(&mut self) -> bool {
        let Some(text) = self.writer.as_ref().and_then(|w| w.file().ok()).map(str::to_string)
        else {
            return false;
        };
        match parse(&text).and_then(Lab::tour) {
            Ok(next) => {
                self.replace(next);
                self.taking.tour_origin = TourOrigin::Preview;
                self.set_mode(Mode::Previewing)
            }
            Err(e) => {
                self.notice = Some(e);
                true
            }
        }
    }

    fn back_to_writing(&mut self) -> bool {
        let Some(w) = self.writer.as_mut().map(Rc::make_mut).filter(|w| w.mode == Mode::Previewing)
        else {
            return false;
        };
        w.mode = Mode::Writing;
        let i = w.selected.or(w.draft.steps.len().checked_sub(1));
        self.leave_tour();
        self.taking.tour_origin = TourOrigin::Shipped;
        if let Some(i) = i {
            if let Some(w) = self.writer.as_mut().map(Rc::make_mut) {
                w.current_index = None;
            }
            self.select(Some(i));
        }
        true
    }
}
