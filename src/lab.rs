//! The lab as a reader plays it: a [`Timeline`] of the world, how fast and whether it plays,
//! and the guided tour being taken. Whatever shows it (the browser UI) only calls these
//! methods, so the rules of playing, forking and touring live here, tested natively.

use crate::lang::Lang;
use crate::scenario::{Action, Scenario};
use crate::share::{Moment, Source};
use crate::timeline::Timeline;
use crate::tour::{Guide, Tour};

/// The scenario the page opens with.
pub const DEFAULT_SCENARIO: &str = "crash-one-of-three";
/// Speeds offered, as powers of ten of "virtual seconds per real second": 1/10× … 100×.
pub const SPEED_MIN_EXP: f64 = -1.0;
pub const SPEED_MAX_EXP: f64 = 2.0;

/// What a page asks to open (validated settings plus a link's fragment).
#[derive(Clone, Copy, Debug, Default)]
pub struct Opening<'a> {
    pub scenario: Option<&'a str>,
    pub tour: Option<&'a str>,
    /// The tour step to open at, from 1.
    pub step: Option<usize>,
    /// A moment's fragment; wins over the rest.
    pub link: Option<&'a str>,
    /// The language of the notes on what could not be opened.
    pub lang: Lang,
}

/// The model behind the page: a timeline plus how it is being played.
pub struct Lab {
    pub scenario: Scenario,
    /// Where the scenario came from, for links to a moment.
    pub source: Source,
    pub timeline: Timeline,
    pub playing: bool,
    /// log10 of the speed (virtual ms per real ms).
    pub speed_exp: f64,
    /// The furthest virtual time reached on this timeline, for the scrubber.
    pub horizon: u64,
    /// Set when an action forked the timeline in the past.
    pub forked: bool,
    /// The guided tour being taken, if any.
    pub guide: Option<Guide>,
    /// Why the tour cannot go on (it no longer matches the simulation).
    pub tour_error: Option<String>,
    /// Playing stops at this instant (a tour step), at this speed (virtual ms per real ms).
    stop_at: Option<(u64, f64)>,
    /// The tour moves on by itself after a reading pause (`autoplay` with a tour), until the
    /// reader takes over.
    pub tour_autoplay: bool,
    /// The timestamp of the last animation frame while playing (the UI's clock, not virtual).
    pub last_frame: Option<f64>,
}

/// How long (real ms) moving to the next tour step may take at most; longer waits play faster.
const TOUR_MOVE_MS: f64 = 2500.0;

impl Lab {
    pub fn new(scenario: Scenario, source: Source) -> Self {
        let mut timeline = Timeline::new(&scenario);
        timeline.run_until(0);
        Self::with_timeline(scenario, source, timeline)
    }

    pub fn with_timeline(scenario: Scenario, source: Source, timeline: Timeline) -> Self {
        let horizon = timeline.world().now();
        Lab {
            scenario,
            source,
            timeline,
            playing: false,
            speed_exp: 0.7,
            horizon,
            forked: false,
            guide: None,
            tour_error: None,
            stop_at: None,
            tour_autoplay: false,
            last_frame: None,
        }
    }

    /// Starts `tour` at its first step.
    pub fn tour(tour: Tour) -> Result<Self, String> {
        let name = tour.steps[0].scenario.clone();
        let s = builtin_scenario(&name)
            .ok_or_else(|| format!("tour {:?}: no scenario {name:?}", tour.name))?;
        let mut lab = Lab::new(s, Source::Builtin(name));
        lab.guide = Some(Guide::new(tour));
        lab.tour_goto(0, false);
        match lab.tour_error.take() {
            Some(e) => Err(e),
            None => Ok(lab),
        }
    }

    /// Shows tour step `i`: the first time forward by playing there quickly (`animate`), else
    /// at once, by restoring the instant remembered for that step (never replaying to get back).
    pub fn tour_goto(&mut self, i: usize, animate: bool) {
        let Some(mut guide) = self.guide.take() else {
            return;
        };
        let Some(step) = guide.tour.steps.get(i) else {
            self.guide = Some(guide);
            return;
        };
        let source = Source::Builtin(step.scenario.clone());
        if self.source != source {
            match builtin_scenario(&step.scenario) {
                Some(s) => {
                    *self = Lab {
                        speed_exp: self.speed_exp,
                        ..Lab::new(s, source)
                    }
                }
                None => {
                    self.tour_error = Some(format!("there is no scenario {:?}", step.scenario));
                    self.guide = Some(guide);
                    return;
                }
            }
        }
        let now = self.now();
        let animate = animate && !guide.found(i);
        match guide.time_of(i, &mut self.timeline) {
            Ok(t) => {
                guide.index = i;
                self.tour_error = None;
                if animate && t > now {
                    self.timeline.seek(now);
                    self.stop_at = Some((t, self.speed().max((t - now) as f64 / TOUR_MOVE_MS)));
                    self.playing = true;
                    self.last_frame = None;
                } else {
                    self.timeline.seek(t);
                    self.stop_at = None;
                    self.playing = false;
                }
                self.horizon = self.horizon.max(t);
            }
            Err(e) => {
                self.timeline.seek(now);
                self.tour_error = Some(e);
            }
        }
        self.guide = Some(guide);
    }

    /// Moves the tour by one step. Going forward while still moving to a step first lands on it.
    pub fn tour_move(&mut self, forward: bool, animate: bool) {
        let Some(i) = self.guide.as_ref().map(|g| g.index) else {
            return;
        };
        if let Some((t, _)) = self.stop_at.take() {
            self.seek(t);
            self.playing = false;
            if forward {
                return;
            }
        }
        match forward {
            true => self.tour_goto(i + 1, animate),
            false if i > 0 => self.tour_goto(i - 1, false),
            false => {}
        }
    }

    /// The URL query that reopens the tour at the present step (`tour=…&step=…`).
    pub fn tour_query(&self) -> Option<String> {
        let g = self.guide.as_ref()?;
        Some(format!(
            "tour={}&step={}",
            crate::share::percent_encode(&g.tour.name),
            g.index + 1
        ))
    }

    /// Whether playing is on its way to a tour step.
    pub fn moving(&self) -> bool {
        self.stop_at.is_some()
    }

    /// How long a reader needs for the current step's narration, in ms (for autoplay).
    pub fn reading_ms(&self, lang: Lang) -> u32 {
        let Some(g) = &self.guide else { return 0 };
        let chars = g.step().say.get(lang).chars().count() as u32;
        // About 20 characters a second in English, 7 in Chinese, plus a look at the change.
        let per_char = match lang {
            Lang::En => 50,
            Lang::Zh => 150,
        };
        (2000 + chars * per_char).clamp(4000, 20000)
    }

    /// Ends the tour: the sandbox, with the state it reached.
    pub fn leave_tour(&mut self) {
        self.tour_autoplay = false;
        self.guide = None;
        self.tour_error = None;
        self.stop_at = None;
    }

    /// The page's opening state: a link's moment, else the named tour, else the named scenario,
    /// else the default one. Says, in `lang`, what could not be opened and what opened instead.
    pub fn open(o: Opening) -> (Self, Vec<String>) {
        let Opening {
            scenario,
            tour,
            step,
            link,
            lang,
        } = o;
        let mut notes = Vec::new();
        let say = |en: String, zh: String| match lang {
            Lang::En => en,
            Lang::Zh => zh,
        };
        if let Some(link) = link
            .map(str::trim)
            .filter(|l| !l.trim_start_matches('#').is_empty())
        {
            match Moment::decode(link).and_then(|m| m.restore().map(|r| (m, r))) {
                Ok((m, (s, tl))) => return (Lab::with_timeline(s, m.source, tl), notes),
                Err(e) => notes.push(say(
                    format!("This link could not be opened ({e})."),
                    format!("无法打开这个链接（{e}）。"),
                )),
            }
        } else if let Some(name) = tour {
            match crate::tour::builtin(name).map(|t| t.and_then(Lab::tour)) {
                Some(Ok(mut lab)) => {
                    let len = lab.guide.as_ref().map_or(0, |g| g.tour.steps.len());
                    match step {
                        None | Some(1) => {}
                        Some(n) if (1..=len).contains(&n) => {
                            lab.tour_goto(n - 1, false);
                            if let Some(e) = lab.tour_error.take() {
                                notes.push(say(
                                    format!("Step {n} could not be shown ({e})."),
                                    format!("无法显示第 {n} 步（{e}）。"),
                                ));
                            }
                        }
                        Some(n) => notes.push(say(
                            format!(
                                "The tour {name:?} has {len} steps, not {n}; showing the first."
                            ),
                            format!("导览 {name:?} 只有 {len} 步，没有第 {n} 步；显示第一步。"),
                        )),
                    }
                    return (lab, notes);
                }
                Some(Err(e)) => notes.push(say(
                    format!("The tour {name:?} could not be opened ({e})."),
                    format!("无法打开导览 {name:?}（{e}）。"),
                )),
                None => notes.push(say(
                    format!("There is no tour {name:?}."),
                    format!("没有名为 {name:?} 的导览。"),
                )),
            }
        }
        let known = scenario.filter(|n| builtin_scenario(n).is_some());
        if let (Some(n), None) = (scenario, known) {
            notes.push(say(
                format!("There is no scenario {n:?}."),
                format!("没有名为 {n:?} 的场景。"),
            ));
        }
        let name = known.unwrap_or(DEFAULT_SCENARIO);
        if !notes.is_empty() {
            notes.push(match known {
                Some(n) => say(
                    format!("Showing the scenario {n:?}."),
                    format!("显示场景 {n:?}。"),
                ),
                None => say(
                    "Showing the default scenario.".into(),
                    "显示默认场景。".into(),
                ),
            });
        }
        let lab = Lab::new(
            builtin_scenario(name).expect("the default scenario parses"),
            Source::Builtin(name.to_string()),
        );
        (lab, notes)
    }

    /// A link to the present moment (the fragment, without `#`).
    pub fn link(&self) -> String {
        let actions = self
            .timeline
            .actions()
            .iter()
            .filter(|(at, _)| *at <= self.now())
            .cloned()
            .collect();
        Moment {
            source: self.source.clone(),
            seed: None,
            time_ms: self.now(),
            actions,
        }
        .encode()
    }

    pub fn now(&self) -> u64 {
        self.timeline.world().now()
    }

    pub fn speed(&self) -> f64 {
        10f64.powf(self.speed_exp)
    }

    /// The speed playing runs at now: faster while moving to a far tour step.
    pub fn play_speed(&self) -> f64 {
        self.stop_at.map_or_else(|| self.speed(), |(_, s)| s)
    }

    /// Moves time forward by `ms` of virtual time (stopping at a tour step being moved to).
    pub fn advance(&mut self, ms: u64) {
        let mut t = self.now() + ms;
        if let Some((stop, _)) = self.stop_at {
            if t >= stop {
                t = stop;
                self.stop_at = None;
                self.playing = false;
            }
        }
        self.timeline.run_until(t);
        self.horizon = self.horizon.max(t);
    }

    /// Jumps to the next event of the simulation.
    pub fn step(&mut self) {
        if let Some(t) = self.timeline.step() {
            self.horizon = self.horizon.max(t);
        }
    }

    /// Jumps back to the previous marked moment.
    pub fn step_back(&mut self) {
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

    pub fn seek(&mut self, t: u64) {
        self.timeline.seek(t);
        self.horizon = self.horizon.max(t);
    }

    /// Acting ends a tour (its later steps assume the scenario alone moves the cluster).
    pub fn act(&mut self, action: Action) {
        self.leave_tour();
        if self.now() < self.horizon {
            self.forked = true;
            self.horizon = self.now();
        }
        self.timeline.act(action);
    }
}

/// A scenario of `scenarios/`, parsed.
pub fn builtin_scenario(name: &str) -> Option<Scenario> {
    crate::catalogue::scenario(name)
}
