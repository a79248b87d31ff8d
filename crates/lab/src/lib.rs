//! The lab as a reader plays it: a [`Timeline`] of the world, how fast and whether it plays,
//! the guided tour being taken and what to tell the reader. It has one writer,
//! [`Lab::update`]: whatever shows it (the browser UI) sends a [`Msg`] and reads the lab back,
//! so the rules of playing, forking and touring live here, tested natively.
//!
//! A crate of its own above the engine and the import, and beneath the web app: the UI depends
//! on this crate alone, so it reaches the simulation only through what is `pub` here (the
//! [`View`], [`Msg`], and the re-exported data below); the world, the timeline and the model's
//! machinery are not re-exported and a UI path to them does not compile.

// What is `pub` is reachable from outside and documented: the crate's API, and nothing more
// (clippy -D warnings).
#![warn(unreachable_pub, missing_docs)]

// The crates beneath, under the paths the lab has always used; the model's macros are in scope.
#[macro_use]
extern crate k8s;
use engine::sim;
use k8s::quote;

// What the UI may name besides the lab's own types: the contract's data, the two languages, Go
// durations, the import, and of the model only the API objects and events a state holds.
pub use engine::{contract, duration, lang, sim::report};
pub use import;
pub use k8s::{api, event};

mod address;
mod allocations;
mod author;
pub mod clients;
mod experiments;
mod keys;
mod msg;
mod observe;
mod open;
mod predict;
mod touring;
mod view;

pub mod catalogue;
pub mod embed;
pub mod handout;
pub mod sandbox;
pub mod share;
mod shipped;
pub mod tour;
// What the UI draws from a view: the event notes, the inspector's bitmaps, the page's parts,
// the upstream links.
pub mod explain;
pub mod inspect;
pub mod parts;
pub mod upstream;

use std::cell::RefCell;
use std::rc::Rc;

use crate::contract::scenario::{Action, Scenario, MAX_TIME_MS};
use crate::duration::format_ms;
/// The language a lab speaks (`Msg::SetLang`).
pub use crate::lang::Lang;
use crate::share::{Moment, Source};
use crate::sim::timeline::Timeline;
use crate::tour::Guide;

pub use address::{names_import, page_address, IMPORTED};
pub use allocations::{Bar, BarKind};
pub use author::{
    Arrival, AskEdit, Authoring, Choice, Draft, DraftAsk, DraftStep, Mode as WriterMode, StepWait,
    Take, Texts, Writer,
};
pub use keys::key_summary;
pub use keys::none;
pub use msg::Msg;
pub use observe::EndpointsChange;
pub use open::{Opening, TourFile};
pub use predict::{Held, Verdict};
use touring::TourOrigin;
pub use touring::{lang_param, tour_param};
pub use view::{
    ApiserverActions, Bitmaps, CidrCanvas, Key, KeyKind, Keys, Loop, Mark, MarkKind, NsName,
    Player, RangeName, ReconcilerType, Touring, View, WireOp, Write, KUBERNETES,
};

/// The scenario the page opens with.
pub const DEFAULT_SCENARIO: &str = "crash-one-of-three";
/// The tour the untouched page and embeds open on, moving on by itself.
pub const STORY: &str = "story";
/// The slowest speed offered, as a power of ten of "virtual seconds per real second" (1/10×).
pub const SPEED_MIN_EXP: f64 = -1.0;
/// The fastest speed offered, as such a power of ten (100×).
pub const SPEED_MAX_EXP: f64 = 2.0;
/// What one press of `[` or `]` changes the speed's exponent by.
pub const SPEED_STEP_EXP: f64 = 0.25;
/// The speed a lab opens at (10^0.7 ≈ 5×).
const SPEED_START_EXP: f64 = 0.7;
/// The longest real time (ms) one animation frame may move the clock by: after a stall (a busy
/// tab, a breakpoint) playing goes on where it was instead of jumping ahead.
pub const MAX_FRAME_MS: f64 = 100.0;
/// The fastest test pace ([`Msg::SetPace`]).
pub const MAX_PACE: f64 = 100.0;

/// A move to tour step `step`: playing runs at `speed` (virtual ms per real ms; `None`: the
/// reader's) until `at`, and the step's narration appears when the clock gets there, not before.
/// A move to the step shown is the step playing on for the reader to watch (its `play`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TourMove {
    pub(crate) at: u64,
    pub(crate) speed: Option<f64>,
    pub(crate) step: usize,
}

/// The messages that change how the lab is read (speed, language, pace, frames stopping), not
/// its world: they keep a held question held and observe nothing new.
fn reads_only(msg: &Msg) -> bool {
    matches!(
        msg,
        Msg::SetSpeed(_)
            | Msg::Faster
            | Msg::Slower
            | Msg::SetLang(_)
            | Msg::FramesStopped
            | Msg::SetPace(_)
    )
}

/// How the reader plays the timeline: whether it plays and how fast, how far it reached and
/// whether an action forked it, and the last animation frame's timestamp.
struct Playback {
    playing: bool,
    /// log10 of the speed (virtual ms per real ms).
    speed_exp: f64,
    /// The furthest virtual time reached on this timeline, for the scrubber.
    horizon: u64,
    /// Set when an action forked the timeline in the past.
    forked: bool,
    /// The timestamp of the last animation frame while playing (the UI's clock, not virtual).
    last_frame: Option<f64>,
    /// How many times faster than real time the lab's clock and its reading pauses run: 1 for
    /// every reader; only end-to-end tests set more ([`Msg::SetPace`]).
    pace: f64,
}

/// The guided tour being taken, and how: moving to a step, held at a question, moving on by
/// itself, where it came from.
struct Taking {
    /// The guided tour being taken, if any.
    guide: Option<Rc<Guide>>,
    /// Why the tour cannot go on (it no longer matches the simulation).
    tour_error: Option<String>,
    /// Playing towards a tour step: it stops there and shows the step then.
    stop_at: Option<TourMove>,
    /// Why the last move stopped at the unanswered question shown (`lab::predict`).
    held: Option<Held>,
    /// The tour moves on by itself after a reading pause (`autoplay` with a tour), until the
    /// reader takes over.
    tour_autoplay: bool,
    /// Where the tour being taken came from: links to its steps name it by that.
    tour_origin: TourOrigin,
}

/// The model behind the page: a timeline plus how it is being played.
pub struct Lab {
    scenario: Rc<Scenario>,
    /// Where the scenario came from, for links to a moment.
    source: Source,
    timeline: Timeline,
    /// How the reader plays the timeline.
    playback: Playback,
    /// The guided tour being taken, if any, and how.
    taking: Taking,
    /// The language of the lab's own notices and reading pauses.
    lang: Lang,
    /// What the reader should be told: what could not be opened, or why an action was refused.
    notice: Option<String>,
    /// What the lab observed of the world after its last move, for every reader.
    observed: observe::Observed,
    /// Bumped whenever another scenario replaces the one shown.
    generation: u64,
    /// What [`Lab::view`] and [`Lab::bitmaps`] keep between renders.
    views: RefCell<view::ViewCache>,
    /// The experiment set up (`Msg::Try`), until the reader acts or opens something else.
    trying: Option<usize>,
    /// A tour being written in the page (`Msg::Author`), kept across the scenarios it shows.
    writer: Option<Rc<author::Writer>>,
    /// The scenario is a cluster imported in the page (`Msg::Import`): the page's address names
    /// it, not its file ([`Lab::address`]).
    imported: bool,
}

impl Lab {
    pub(crate) fn new(scenario: Scenario, source: Source) -> Self {
        let mut timeline = Timeline::new(&scenario);
        timeline.record_wire();
        timeline.run_until(0);
        Self::with_timeline(scenario, source, timeline)
    }

    fn with_timeline(scenario: Scenario, source: Source, timeline: Timeline) -> Self {
        let horizon = timeline.world().now();
        let observed = observe::Observed::new(timeline.state());
        Lab {
            scenario: Rc::new(scenario),
            source,
            timeline,
            playback: Playback {
                playing: false,
                speed_exp: SPEED_START_EXP,
                horizon,
                forked: false,
                last_frame: None,
                pace: 1.0,
            },
            taking: Taking {
                guide: None,
                tour_error: None,
                stop_at: None,
                held: None,
                tour_autoplay: false,
                tour_origin: TourOrigin::Shipped,
            },
            lang: Lang::default(),
            notice: None,
            observed,
            generation: 0,
            views: RefCell::default(),
            trying: None,
            writer: None,
            imported: false,
        }
    }

    /// The one writer: applies `msg`. Returns whether anything the lab shows changed (a view
    /// redraws only then: most animation frames of a slow speed move no virtual millisecond).
    pub fn update(&mut self, msg: Msg) -> bool {
        let generation = self.generation;
        let before = self.now();
        let world_moves = !reads_only(&msg);
        if world_moves && !matches!(msg, Msg::Frame { .. }) {
            self.taking.held = None;
        }
        let changed = match msg {
            Msg::TogglePlay => {
                // Play/Pause on a story that moves by itself hands it over too (its pointerdown
                // is not taken as a click anywhere): Pause pauses, Play plays; in a tour, Play
                // plays to the next step and shows it there.
                let was = self.playback.playing;
                self.take_over();
                self.taking.stop_at = None;
                self.playback.playing = !was;
                self.playback.last_frame = None;
                if self.playback.playing {
                    self.tour_play();
                }
                true
            }
            Msg::Frame { timestamp_ms } => self.frame(timestamp_ms),
            Msg::FramesStopped => {
                self.playback.last_frame = None;
                false
            }
            Msg::Seek(t) => {
                self.seek(t);
                self.tour_follow();
                true
            }
            Msg::Step => {
                self.playback.playing = false;
                self.step();
                self.tour_follow();
                true
            }
            Msg::StepBack => {
                self.playback.playing = false;
                self.step_back();
                self.tour_follow();
                true
            }
            Msg::SetSpeed(e) => self.set_speed(e),
            Msg::SetPace(pace) => self.set_pace(pace),
            Msg::Faster => self.set_speed(self.playback.speed_exp + SPEED_STEP_EXP),
            Msg::Slower => self.set_speed(self.playback.speed_exp - SPEED_STEP_EXP),
            Msg::Act(action) if self.writing() => {
                self.author_act(action);
                true
            }
            Msg::Act(action) => {
                self.act(action);
                true
            }
            Msg::TourNext { animate } => {
                self.taking.tour_autoplay = false;
                self.tour_move(true, animate);
                true
            }
            Msg::TourBack => {
                self.taking.tour_autoplay = false;
                self.tour_move(false, false);
                true
            }
            Msg::Answer { answer, animate } => self.answer(answer, animate),
            Msg::TourAutoNext { animate } => {
                let due = self.autoplay_wait_ms().is_some();
                if due {
                    self.tour_move(true, animate);
                    self.story_onward();
                }
                due
            }
            Msg::TakeOver => self.take_over(),
            Msg::LeaveTour
            | Msg::Load(..)
            | Msg::Import(..)
            | Msg::PickTour(_)
            | Msg::Try(_)
            | Msg::OpenTourFile { .. }
            | Msg::Author(_) => self.open_other(msg),
            Msg::SetLang(lang) => {
                let changed = self.lang != lang;
                self.lang = lang;
                changed
            }
        };
        if self.generation != generation {
            self.observe_afresh();
        } else if changed && world_moves {
            self.observe();
            self.take_wire(before);
        }
        changed
    }

    /// The messages that put something else in place: out of a tour, another scenario, tour or
    /// experiment, the author's writer. Opening anything but a scenario stops the writing (the
    /// draft is kept); the preview's way out is back to writing.
    fn open_other(&mut self, msg: Msg) -> bool {
        match msg {
            Msg::LeaveTour
                if self.writer.as_ref().is_some_and(|w| w.mode() == author::Mode::Previewing) =>
            {
                self.author(Authoring::Back)
            }
            Msg::LeaveTour => {
                self.leave_tour();
                true
            }
            Msg::Load(scenario, source) => {
                self.replace(Lab::new(scenario, source));
                self.author_loaded();
                true
            }
            Msg::Import(scenario, text) => {
                self.replace(Lab::new(scenario, Source::Inline(text)));
                self.imported = true;
                self.author_loaded();
                true
            }
            Msg::PickTour(name) => {
                self.author(Authoring::Close);
                self.pick_tour(&name);
                true
            }
            Msg::Try(i) => {
                self.author(Authoring::Close);
                self.try_experiment(i)
            }
            Msg::OpenTourFile { text, src, step } => {
                self.author(Authoring::Close);
                self.open_tour_file_now(text, src, step)
            }
            Msg::Author(a) => self.author(a),
            _ => false,
        }
    }

    /// Shows `next` (another scenario) in place of this one, keeping how the reader reads:
    /// the speed and the language. Nothing else of the old scenario carries over.
    fn replace(&mut self, next: Lab) {
        *self = Lab {
            playback: Playback {
                speed_exp: self.playback.speed_exp,
                pace: self.playback.pace,
                ..next.playback
            },
            lang: self.lang,
            generation: self.generation + 1,
            writer: self.writer.take(),
            observed: self.observed.after(next.observed),
            ..next
        };
    }

    fn frame(&mut self, timestamp_ms: f64) -> bool {
        if !self.playback.playing {
            self.playback.last_frame = None;
            return false;
        }
        let dt = self
            .playback
            .last_frame
            .map_or(0.0, |last| (timestamp_ms - last).clamp(0.0, MAX_FRAME_MS));
        self.playback.last_frame = Some(timestamp_ms);
        let ms = (dt * self.playback.pace * self.play_speed()).round() as u64;
        if ms == 0 {
            return false;
        }
        self.advance(ms);
        true
    }

    /// A pace out of 1 to [`MAX_PACE`] is ignored; nothing shown changes either way.
    fn set_pace(&mut self, pace: f64) -> bool {
        if (1.0..=MAX_PACE).contains(&pace) {
            self.playback.pace = pace;
        }
        false
    }

    fn set_speed(&mut self, exp: f64) -> bool {
        let exp = exp.clamp(SPEED_MIN_EXP, SPEED_MAX_EXP);
        let changed = exp != self.playback.speed_exp;
        self.playback.speed_exp = exp;
        changed
    }

    /// Moves time forward by `ms` of virtual time (stopping at a tour step being moved to, and
    /// at the ceiling of virtual time, which links and files share).
    fn advance(&mut self, ms: u64) {
        let mut t = self.now().saturating_add(ms);
        if t >= MAX_TIME_MS {
            t = MAX_TIME_MS;
            self.playback.playing = false;
            self.notice = Some(self.at_the_ceiling());
        }
        let arrived = self.taking.stop_at.filter(|m| t >= m.at);
        if let Some(m) = arrived {
            t = m.at;
            self.taking.stop_at = None;
            self.playback.playing = false;
        }
        self.timeline.run_until(t);
        self.playback.horizon = self.playback.horizon.max(t);
        // The end of a step's own playing (its `play`) shows nothing new.
        if let Some(m) =
            arrived.filter(|m| Some(m.step) != self.taking.guide.as_ref().map(|g| g.index))
        {
            self.arrive(m.step);
        }
    }

    fn step(&mut self) {
        if self.timeline.world().next_time().is_some_and(|t| t > MAX_TIME_MS) {
            self.notice = Some(self.at_the_ceiling());
            return;
        }
        if let Some(t) = self.timeline.step() {
            self.playback.horizon = self.playback.horizon.max(t);
        }
    }

    fn step_back(&mut self) {
        let now = self.now();
        let prev = self
            .timeline
            .world()
            .marks()
            .iter()
            .rev()
            .map(|m| m.time_ms)
            .find(|&t| t < now)
            .unwrap_or(0);
        self.timeline.seek(prev);
    }

    fn seek(&mut self, t: u64) {
        let t = t.min(MAX_TIME_MS);
        self.timeline.seek(t);
        self.playback.horizon = self.playback.horizon.max(t);
    }

    fn at_the_ceiling(&self) -> String {
        let max = format_ms(MAX_TIME_MS);
        match self.lang {
            Lang::En => format!("The lab runs at most {max} of virtual time; time stops here."),
            Lang::Zh => format!("实验室最多运行 {max} 的虚拟时间；时间到此为止。"),
        }
    }

    /// Acting ends a tour (its later steps assume the scenario alone moves the cluster). A
    /// refused action is kept to show; an accepted one clears the notice.
    fn act(&mut self, action: Action) {
        // Bad input (a name Kubernetes refuses) is told and changes nothing: no tour left, no
        // fork, nothing in the timeline.
        if let Err(e) = action.validate() {
            self.notice = Some(e);
            return;
        }
        self.leave_tour();
        self.trying = None;
        if self.now() < self.playback.horizon {
            self.playback.forked = true;
            self.playback.horizon = self.now();
        }
        self.notice = self.timeline.act(action).err().map(|e| e.message);
    }

    /// A link to the present moment (the fragment, without `#`).
    pub(crate) fn link(&self) -> String {
        // An experiment set up, untouched since, is named: its actions may lie ahead.
        let actions = match self.trying {
            Some(_) => Vec::new(),
            None => self
                .timeline
                .actions()
                .iter()
                .filter(|(at, _)| *at <= self.now())
                .cloned()
                .collect(),
        };
        Moment {
            source: self.source.clone(),
            seed: None,
            time_ms: self.now(),
            experiment: self.trying,
            actions,
        }
        .encode()
    }

    pub(crate) fn now(&self) -> u64 {
        self.timeline.world().now()
    }

    /// The speed chosen, in virtual ms per real ms.
    pub(crate) fn speed(&self) -> f64 {
        10f64.powf(self.playback.speed_exp)
    }

    /// The speed playing runs at now: faster while moving to a far tour step.
    pub(crate) fn play_speed(&self) -> f64 {
        self.taking.stop_at.and_then(|m| m.speed).unwrap_or_else(|| self.speed())
    }

    /// The furthest instant reached on this timeline (at least now).
    pub(crate) fn horizon(&self) -> u64 {
        self.playback.horizon.max(self.now())
    }

    pub(crate) fn lang(&self) -> Lang {
        self.lang
    }
}
