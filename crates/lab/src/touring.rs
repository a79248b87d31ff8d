//! A guided tour in the lab: forward by playing there (the first time), back and to steps seen
//! before by restoring their instant, into other scenarios and out into the sandbox.

use std::rc::Rc;

use crate::contract::scenario::MAX_TIME_MS;
use crate::lang::Lang;
use crate::quote::quote;
use crate::tour::{Guide, Tour};

use super::{Lab, TourMove};

/// How long (real ms) moving to the next tour step may take at most; longer waits play faster.
const TOUR_MOVE_MS: f64 = 2500.0;

impl Lab {
    /// A lab taking `tour` (a shipped one, or any file read by [`crate::tour::parse`]) at
    /// its first step, or why that step cannot be shown.
    pub fn tour(tour: Tour) -> Result<Self, String> {
        let name = tour.steps[0].scenario.clone();
        let s = tour
            .scenario(&name)
            .ok_or_else(|| format!("tour {:?}: no scenario {name:?}", tour.name))?;
        let mut lab = Lab::new(s, tour.source(&name));
        lab.taking.guide = Some(Rc::new(Guide::new(tour)));
        lab.tour_goto(0, false);
        match lab.taking.tour_error.take() {
            Some(e) => Err(e),
            None => Ok(lab),
        }
    }

    /// Replaces the lab with the tour `name` of `tours/`, or says why it cannot.
    pub(super) fn pick_tour(&mut self, name: &str) {
        match crate::catalogue::tour(name).map(|t| t.and_then(Lab::tour)) {
            Some(Ok(next)) => self.replace(next),
            Some(Err(e)) => self.notice = Some(e),
            None => {
                self.notice = Some(match self.lang {
                    Lang::En => format!("There is no tour {}.", quote(name)),
                    Lang::Zh => format!("没有名为 {} 的导览。", quote(name)),
                })
            }
        }
    }

    /// Shows tour step `i`: the first time forward by playing there quickly (`animate`), else
    /// at once, by restoring the instant remembered for that step (never replaying to get back).
    pub(super) fn tour_goto(&mut self, i: usize, animate: bool) {
        self.tour_goto_in(i, animate, None);
    }

    /// [`Lab::tour_goto`]; with `story_ms`, a story moving on by itself: the clock plays to the
    /// next step's instant in that long (the present caption stays meanwhile), and a step at
    /// the same instant is left for the reading pause instead.
    fn tour_goto_in(&mut self, i: usize, animate: bool, story_ms: Option<f64>) {
        let Some(mut guide) = self.taking.guide.take().map(Rc::unwrap_or_clone) else {
            return;
        };
        let Some(step) = guide.tour.steps.get(i) else {
            self.taking.guide = Some(Rc::new(guide));
            return;
        };
        let source = guide.tour.source(&step.scenario);
        if self.source != source {
            match guide.tour.scenario(&step.scenario) {
                Some(s) => {
                    let autoplay = self.taking.tour_autoplay;
                    self.replace(Lab::new(s, source));
                    self.taking.tour_autoplay = autoplay;
                }
                None => {
                    self.taking.tour_error =
                        Some(format!("there is no scenario {:?}", step.scenario));
                    self.taking.guide = Some(Rc::new(guide));
                    return;
                }
            }
        }
        let now = self.now();
        let animate = animate && !guide.found(i);
        let mut shown = false;
        match guide.time_of(i, &mut self.timeline) {
            Ok(t) => {
                self.taking.tour_error = None;
                if story_ms.is_some() && t <= now {
                    self.timeline.seek(now);
                } else if animate && t > now {
                    // The present step stays until the clock reaches the next one's instant.
                    self.timeline.seek(now);
                    let speed = match story_ms {
                        Some(ms) => (t - now) as f64 / ms,
                        None => self.speed().max((t - now) as f64 / TOUR_MOVE_MS),
                    };
                    self.taking.stop_at = Some(TourMove { at: t, speed: Some(speed), step: i });
                    self.playback.playing = true;
                    self.playback.last_frame = None;
                } else {
                    guide.show(i);
                    self.timeline.seek(t);
                    self.taking.stop_at = None;
                    self.playback.playing = false;
                    shown = true;
                }
                self.playback.horizon = self.playback.horizon.max(t);
            }
            Err(e) => {
                self.timeline.seek(now);
                self.taking.tour_error = Some(e);
            }
        }
        self.taking.guide = Some(Rc::new(guide));
        if shown {
            self.watch();
        }
    }

    /// The instant of the step after the one shown when it is on the same clock (the same
    /// scenario), found by running ahead if need be; the clock is put back where it was.
    fn time_of_next(&mut self, guide: &mut Guide) -> Option<Result<u64, String>> {
        let i = guide.index + 1;
        if !guide.same_scenario(i) {
            return None;
        }
        let now = self.now();
        let t = guide.time_of(i, &mut self.timeline);
        self.timeline.seek(now);
        Some(t)
    }

    /// The clock reached the instant of step `i` it was moving to: the step shows now.
    pub(super) fn arrive(&mut self, i: usize) {
        if let Some(g) = self.taking.guide.as_mut().map(Rc::make_mut) {
            g.show(i);
        }
        self.watch();
        self.story_onward();
    }

    /// A step whose narration asks the reader to watch something (its `play`) plays on at the
    /// reader's speed for that long once shown, never past the next step's instant. A story
    /// moving by itself needs no such push.
    fn watch(&mut self) {
        if self.taking.tour_autoplay {
            return;
        }
        let Some(mut guide) = self.taking.guide.take().map(Rc::unwrap_or_clone) else { return };
        if let Some(play) = guide.step().play {
            let now = self.now();
            let mut end = now.saturating_add(play).min(MAX_TIME_MS);
            if let Some(Ok(t)) = self.time_of_next(&mut guide) {
                end = end.min(t);
            }
            if end > now {
                self.taking.stop_at = Some(TourMove { at: end, speed: None, step: guide.index });
                self.playback.playing = true;
                self.playback.last_frame = None;
            }
        }
        self.taking.guide = Some(Rc::new(guide));
    }

    /// Play in a tour: the narration moves with the clock. Steps whose instant has passed show
    /// at once; then the clock plays at the reader's speed to the next step and shows it there
    /// (a step in another scenario is not on this clock: playing goes on past it).
    pub(super) fn tour_play(&mut self) {
        self.tour_follow();
        if self.taking.tour_error.is_some() {
            return;
        }
        if self.taking.guide.as_deref().is_some_and(Guide::waits) {
            // Playing on would show the answer: the clock stays at the question.
            self.playback.playing = false;
            self.taking.held = Some(super::Held::Play);
            return;
        }
        let Some(mut guide) = self.taking.guide.take().map(Rc::unwrap_or_clone) else { return };
        let now = self.now();
        while let Some(found) = self.time_of_next(&mut guide) {
            let next = guide.index + 1;
            match found {
                Ok(t) if t <= now => guide.show(next),
                Ok(t) => {
                    self.taking.stop_at = Some(TourMove { at: t, speed: None, step: next });
                    break;
                }
                Err(e) => {
                    self.taking.tour_error = Some(e);
                    break;
                }
            }
        }
        self.taking.guide = Some(Rc::new(guide));
    }

    /// After the clock was moved by hand (the scrubber, a step), the narration shows the last
    /// step already found whose instant is now or before, among the steps on this clock, never
    /// past an unanswered question: the clock is taken back to it ([`Lab::hold_at_question`]).
    pub(super) fn tour_follow(&mut self) {
        let now = self.now();
        let back = |g: &Guide| {
            g.index > 0
                && g.same_scenario(g.index - 1)
                && g.found_time(g.index).is_some_and(|t| t > now)
        };
        let on = |g: &Guide| {
            !g.waits()
                && g.same_scenario(g.index + 1)
                && g.found_time(g.index + 1).is_some_and(|t| t <= now)
        };
        // The guide is shared with the views drawn: copied only when a step changes (a drag of
        // the scrubber seeks many times).
        if let Some(shared) = self.taking.guide.as_mut().filter(|g| back(g) || on(g)) {
            let g = Rc::make_mut(shared);
            while back(g) {
                g.show(g.index - 1);
            }
            while on(g) {
                g.show(g.index + 1);
            }
        }
        self.hold_at_question();
    }

    /// A story (a tour that moves on by itself) starts playing to its next step at once, over
    /// the time its caption takes to read: the clock never stands still while the reader
    /// reads. A next step at the same instant waits for [`Lab::autoplay_wait_ms`] instead; a
    /// step that asks waits for the reader's answer.
    pub(super) fn story_onward(&mut self) {
        let Some(i) = self.taking.guide.as_ref().filter(|g| !g.is_last()).map(|g| g.index) else {
            return;
        };
        if self.taking.tour_autoplay && !self.moving() && !self.waits_for_answer() {
            let ms = self.reading_ms() as f64;
            self.tour_goto_in(i + 1, true, Some(ms));
        }
    }

    /// The reader takes over a story: it stops where it is, on the step shown.
    pub(super) fn take_over(&mut self) -> bool {
        if !self.taking.tour_autoplay {
            return false;
        }
        self.taking.tour_autoplay = false;
        if self.taking.stop_at.take().is_some() {
            self.playback.playing = false;
        }
        true
    }

    /// Moves the tour by one step. Going forward while still moving to the next step lands on
    /// it at once: one press, one step.
    pub(super) fn tour_move(&mut self, forward: bool, animate: bool) {
        let shown = self.taking.guide.as_ref().map(|g| g.index);
        if let Some(m) = self.taking.stop_at.take() {
            self.playback.playing = false;
            // A step playing on for the reader to watch stops where it is: Next goes on from there.
            if Some(m.step) != shown {
                self.seek(m.at);
                self.arrive(m.step);
                if forward {
                    return;
                }
            }
        }
        let Some(i) = self.taking.guide.as_ref().map(|g| g.index) else {
            return;
        };
        match forward {
            true => self.tour_goto(i + 1, animate),
            false if i > 0 => self.tour_goto(i - 1, false),
            false => {}
        }
    }

    /// Ends the tour: the sandbox, with the state it reached.
    pub(super) fn leave_tour(&mut self) {
        self.taking.tour_autoplay = false;
        self.taking.guide = None;
        self.taking.tour_error = None;
        self.taking.stop_at = None;
    }

    /// The tour being taken, if any.
    pub(crate) fn guide(&self) -> Option<&Guide> {
        self.taking.guide.as_deref()
    }

    /// Why the tour cannot go on (it no longer matches the simulation).
    pub(crate) fn tour_error(&self) -> Option<&str> {
        self.taking.tour_error.as_deref()
    }

    /// Whether the tour moves on by itself.
    pub(crate) fn tour_autoplay(&self) -> bool {
        self.taking.tour_autoplay
    }

    /// Whether playing is on its way to a tour step.
    pub(crate) fn moving(&self) -> bool {
        self.taking.stop_at.is_some()
    }

    /// How long an autoplaying tour waits on this step before it moves on by itself (real ms),
    /// when it will: not while moving to the step, nor on the last one, nor on a step that
    /// asks (it waits for the reader's answer).
    pub(crate) fn autoplay_wait_ms(&self) -> Option<u32> {
        let g = self.taking.guide.as_ref()?;
        (self.taking.tour_autoplay && !self.moving() && !g.is_last() && !self.waits_for_answer())
            .then(|| (f64::from(self.reading_ms()) / self.playback.pace) as u32)
    }

    /// How long a reader needs for the current step's narration, in ms.
    pub(crate) fn reading_ms(&self) -> u32 {
        let Some(g) = &self.taking.guide else { return 0 };
        let chars = g.step().say.get(self.lang).chars().count() as u32;
        // About 20 characters a second in English, 7 in Chinese, plus a look at the change.
        let per_char = match self.lang {
            Lang::En => 50,
            Lang::Zh => 150,
        };
        (2000 + chars * per_char).clamp(4000, 20000)
    }

    /// What a link to this moment adds to the lab's page: in a tour, the query that reopens it
    /// at this step (`?tour=…&step=…`, in the reader's language); else the moment's fragment
    /// (`#scenario=…&t=…&actions=…`), after the reader's language (`?lang=zh#…`).
    pub(crate) fn link_to_here(&self) -> String {
        match self.tour_query() {
            Some(q) => format!("?{q}{}", lang_param(self.lang)),
            None => format!("{}#{}", lang_param(self.lang).replacen('&', "?", 1), self.link()),
        }
    }

    /// Whether the tour being taken is a trainer's own (`tour-src`, `tour-file`), not a shipped one.
    pub(crate) fn own_tour(&self) -> bool {
        self.taking.guide.is_some() && self.taking.tour_origin != TourOrigin::Shipped
    }

    /// The URL query that reopens the tour at the present step (`tour=…&step=…`). A trainer's
    /// tour reopens from its address (`tour-src=…&step=…`); one given inline has none, and a
    /// link to its moment is the moment's fragment.
    pub(crate) fn tour_query(&self) -> Option<String> {
        let g = self.taking.guide.as_ref()?;
        Some(format!("{}&step={}", self.tour_key()?, g.index + 1))
    }

    /// The query that opens this tour as a handout (`tour=…&print`, `tour-src=…&print`), in the
    /// reader's language; none for a tour given inline.
    pub(crate) fn print_query(&self) -> Option<String> {
        Some(format!("{}&print{}", self.tour_key()?, lang_param(self.lang)))
    }

    /// What names the tour in a query: `tour=NAME`, or `tour-src=URL` for a trainer's file.
    fn tour_key(&self) -> Option<String> {
        let g = self.taking.guide.as_ref()?;
        match &self.taking.tour_origin {
            TourOrigin::Shipped => tour_param(Some(&g.tour.name), None),
            TourOrigin::Fetched(src) => tour_param(None, Some(src)),
            TourOrigin::Inline | TourOrigin::Preview => None,
        }
    }
}

/// Where the tour being taken came from, which is what a link to its steps names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TourOrigin {
    /// Shipped with the lab (`tour=NAME`), or no tour at all.
    Shipped,
    /// A trainer's file fetched from its address (`tour-src=URL`).
    Fetched(String),
    /// A trainer's file given inline (`tour-file`): it has no address.
    Inline,
    /// The tour being written, previewed by its author: no address either.
    Preview,
}

/// What a page's query adds for a reader of `lang` (`&lang=zh`): nothing for English, the
/// page's default.
pub fn lang_param(lang: Lang) -> String {
    match lang {
        Lang::En => String::new(),
        other => format!("&lang={}", other.code()),
    }
}

/// What names a tour in a page's query: `tour=NAME` for a shipped one, else `tour-src=URL` for a
/// trainer's file fetched from `URL`; none for a file given inline (it has no address).
pub fn tour_param(shipped: Option<&str>, src: Option<&str>) -> Option<String> {
    let encode = crate::share::percent_encode;
    match (shipped, src) {
        (Some(name), _) => Some(format!("tour={}", encode(name))),
        (None, Some(src)) => Some(format!("tour-src={}", encode(src))),
        (None, None) => None,
    }
}
