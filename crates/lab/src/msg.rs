//! The messages the lab takes (`Lab::update`): every change to it is one of them.

use super::author::Authoring;
use super::share::Source;
use crate::contract::scenario::{Action, Scenario};
use crate::lang::Lang;

/// Everything that changes the lab.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Play, or pause (in a tour, Play plays to the next step).
    TogglePlay,
    /// An animation frame at `timestamp_ms` (the UI's clock, not virtual time): while playing,
    /// time moves by the real time since the previous frame times the speed.
    Frame {
        /// The frame's timestamp (ms).
        timestamp_ms: f64,
    },
    /// Frames stopped coming (a hidden tab, a lab scrolled away): the next frame starts anew.
    FramesStopped,
    /// Go to this virtual instant (ms).
    Seek(u64),
    /// Jump to the next event of the simulation.
    Step,
    /// Jump back to the previous marked moment.
    StepBack,
    /// Set the speed's exponent (clamped to [`SPEED_MIN_EXP`](super::SPEED_MIN_EXP)…[`SPEED_MAX_EXP`](super::SPEED_MAX_EXP)).
    SetSpeed(f64),
    /// Test-only: the lab's clock and an autoplaying tour's reading pauses run this many times
    /// faster than real time (1 to [`MAX_PACE`](super::MAX_PACE); anything else is ignored), so
    /// that the end-to-end tests walk every step of every tour without waiting in real time.
    /// The UI sends it only when a test asked for it (`window.__kubeBootstrapLabTestPace`);
    /// what the lab shows at each step is the same.
    SetPace(f64),
    /// One speed step faster (`]`).
    Faster,
    /// One speed step slower (`[`).
    Slower,
    /// Act on the cluster (ends a tour; in the past, forks the timeline).
    Act(Action),
    /// The reader moves the tour on (`animate`: by playing there quickly the first time).
    TourNext {
        /// Play there quickly the first time, rather than jump.
        animate: bool,
    },
    /// The reader moves the tour back a step (restoring its instant).
    TourBack,
    /// The reader picks this answer (an index) to the question of the step shown: the tour
    /// moves on as with `TourNext`, and the next step shows the verdict.
    Answer {
        /// The answer's index.
        answer: usize,
        /// Play to the next step quickly the first time, rather than jump.
        animate: bool,
    },
    /// An autoplaying tour moves on by itself after the reading pause
    /// ([`Touring::autoplay_wait_ms`](super::Touring::autoplay_wait_ms)).
    TourAutoNext {
        /// Play to the next step quickly the first time, rather than jump.
        animate: bool,
    },
    /// Leave the tour for the sandbox, where it stands (from the preview: back to writing).
    LeaveTour,
    /// The reader takes over a tour that was moving on by itself (any click in the lab).
    TakeOver,
    /// Run this scenario from its start (a shipped one picked, or a configured cluster).
    Load(Scenario, Source),
    /// Run a cluster imported in the page from its start: the scenario and its file (a
    /// [`Source::Inline`] that the page's address names but does not carry).
    Import(Scenario, String),
    /// Start the tour of this name (of `tours/`) at its first step.
    PickTour(String),
    /// Set up the scenario's experiment of this index (Things to try).
    Try(usize),
    /// Open a trainer's tour file (`tour-src` once fetched): its text or why it could not be
    /// fetched, its address, and the step to open at (from 1).
    OpenTourFile {
        /// The file's text, or why it could not be fetched.
        text: Result<String, String>,
        /// Its address (`tour-src`), if it has one.
        src: Option<String>,
        /// The step to open at (from 1).
        step: Option<usize>,
    },
    /// Speak this language.
    SetLang(Lang),
    /// Write a tour in the page (`lab::author`).
    Author(Authoring),
}
