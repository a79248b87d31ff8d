//! The explainer UI (Yew function components). It holds a [`Timeline`] of the core, reads its
//! state and sends it actions; every rule stays in the core.

pub mod bitmap;
mod config;
mod controls;
mod panels;
pub mod mount;
pub mod tour;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::builtin::SCENARIOS;
use crate::inspect::{cluster_ip_bitmap, node_port_bitmap, BitmapView};
use crate::lang::Lang;
use crate::scenario::{self, Action, Scenario};
use crate::embed::Theme;
use crate::share::{Moment, Source};
use crate::state::State;
use crate::timeline::Timeline;
use crate::tour::{Guide, Tour};
use crate::world::{Mark, MarkKind};

pub use config::{cluster_scenario, ConfigForm, Settings};

/// The scenario the page opens with.
pub const DEFAULT_SCENARIO: &str = "crash-one-of-three";
/// Speeds offered, as powers of ten of "virtual seconds per real second": 1/10× … 100×.
pub const SPEED_MIN_EXP: f64 = -1.0;
pub const SPEED_MAX_EXP: f64 = 2.0;

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
    last_frame: Option<f64>,
}

/// How long (real ms) moving to the next tour step may take at most; longer waits play faster.
const TOUR_MOVE_MS: f64 = 2500.0;

impl Lab {
    pub fn new(scenario: Scenario, source: Source) -> Self {
        let mut timeline = Timeline::new(&scenario);
        timeline.run_until(0);
        Self::with_timeline(scenario, source, timeline)
    }

    fn with_timeline(scenario: Scenario, source: Source, timeline: Timeline) -> Self {
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
        let s = builtin_scenario(&name).ok_or_else(|| format!("tour {:?}: no scenario {name:?}", tour.name))?;
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
        let Some(mut guide) = self.guide.take() else { return };
        let Some(step) = guide.tour.steps.get(i) else {
            self.guide = Some(guide);
            return;
        };
        if step.scenario != self.scenario.name {
            let Some(s) = builtin_scenario(&step.scenario) else { return };
            let source = Source::Builtin(step.scenario.clone());
            *self = Lab { speed_exp: self.speed_exp, ..Lab::new(s, source) };
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
        let Some(i) = self.guide.as_ref().map(|g| g.index) else { return };
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
    pub fn open(scenario: Option<&str>, tour: Option<&str>, link: Option<&str>, lang: Lang) -> (Self, Vec<String>) {
        let mut notes = Vec::new();
        let say = |en: String, zh: String| match lang {
            Lang::En => en,
            Lang::Zh => zh,
        };
        if let Some(link) = link.map(str::trim).filter(|l| !l.trim_start_matches('#').is_empty()) {
            match Moment::decode(link).and_then(|m| m.restore(SCENARIOS).map(|r| (m, r))) {
                Ok((m, (s, tl))) => return (Lab::with_timeline(s, m.source, tl), notes),
                Err(e) => notes.push(say(format!("This link could not be opened ({e})."), format!("无法打开这个链接（{e}）。"))),
            }
        } else if let Some(name) = tour {
            match crate::tour::builtin(name).map(|t| t.and_then(Lab::tour)) {
                Some(Ok(lab)) => return (lab, notes),
                Some(Err(e)) => notes.push(say(format!("The tour {name:?} could not be opened ({e})."), format!("无法打开导览 {name:?}（{e}）。"))),
                None => notes.push(say(format!("There is no tour {name:?}."), format!("没有名为 {name:?} 的导览。"))),
            }
        }
        let known = scenario.filter(|n| builtin_scenario(n).is_some());
        if let (Some(n), None) = (scenario, known) {
            notes.push(say(format!("There is no scenario {n:?}."), format!("没有名为 {n:?} 的场景。")));
        }
        let name = known.unwrap_or(DEFAULT_SCENARIO);
        if !notes.is_empty() {
            notes.push(match known {
                Some(n) => say(format!("Showing the scenario {n:?}."), format!("显示场景 {n:?}。")),
                None => say("Showing the default scenario.".into(), "显示默认场景。".into()),
            });
        }
        let lab = Lab::new(builtin_scenario(name).expect("the default scenario parses"), Source::Builtin(name.to_string()));
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
    fn play_speed(&self) -> f64 {
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

/// Everything a panel needs to render one frame.
#[derive(Clone)]
pub struct Frame {
    pub state: Rc<State>,
    pub events: Rc<Vec<crate::event::Event>>,
    pub marks: Rc<Vec<Mark>>,
    pub horizon: u64,
    pub lease_ttl_ms: u64,
    pub interval_ms: u64,
    pub reconciler: &'static str,
    pub behavior: &'static str,
}

/// The logs only grow while playing: copy them for the panels only when they changed.
#[derive(Default)]
struct LogCache {
    key: (usize, usize, u64),
    events: Rc<Vec<crate::event::Event>>,
    marks: Rc<Vec<Mark>>,
}

impl PartialEq for Frame {
    /// The logs are shared and only replaced when they change: compare them by identity.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events)
            && Rc::ptr_eq(&self.marks, &other.marks)
            && self.state == other.state
            && (self.horizon, self.lease_ttl_ms, self.interval_ms)
                == (other.horizon, other.lease_ttl_ms, other.interval_ms)
            && (self.reconciler, self.behavior) == (other.reconciler, other.behavior)
    }
}

fn frame_of(lab: &Lab, cache: &mut LogCache) -> Frame {
    let w = lab.timeline.world();
    let cfg = w.config();
    let key = (
        w.events().len(),
        w.marks().len(),
        w.marks().last().map_or(0, |m| m.time_ms),
    );
    if cache.key != key || cache.events.len() != key.0 {
        *cache = LogCache {
            key,
            events: Rc::new(w.events().to_vec()),
            marks: Rc::new(w.marks().to_vec()),
        };
    }
    Frame {
        state: Rc::new(State::of(w)),
        events: cache.events.clone(),
        marks: cache.marks.clone(),
        horizon: lab.horizon.max(w.now()),
        lease_ttl_ms: cfg.lease_ttl_ms,
        interval_ms: cfg.endpoint_interval_ms,
        reconciler: match cfg.reconciler {
            crate::reconcilers::ReconcilerType::Lease => "lease",
            crate::reconcilers::ReconcilerType::MasterCount => "master-count",
            crate::reconcilers::ReconcilerType::None => "none",
        },
        behavior: match w.behavior() {
            crate::api::Behavior::V1_20 => "1.20",
            crate::api::Behavior::V1_29 => "1.29",
        },
    }
}

/// The bitmaps change only when etcd does, or when repair counters move.
fn bitmaps(lab: &Lab) -> (Vec<Rc<BitmapView>>, Rc<BitmapView>) {
    let w = lab.timeline.world();
    let ips = (0..w.config().service_ip_ranges.networks().len())
        .filter_map(|i| cluster_ip_bitmap(w, i))
        .map(Rc::new)
        .collect();
    (ips, Rc::new(node_port_bitmap(w)))
}

pub fn builtin_scenario(name: &str) -> Option<Scenario> {
    SCENARIOS
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, text)| scenario::parse(text).ok())
}

fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn document_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// Frame durations (ms) of the play loop, for the end-to-end test's figures.
fn record_frame_time(ms: f64) {
    if let Some(w) = web_sys::window() {
        let key = wasm_bindgen::JsValue::from_str("__labFrameTimes");
        let arr = js_sys::Reflect::get(&w, &key)
            .ok()
            .filter(|v| v.is_object())
            .unwrap_or_else(|| {
                let a = js_sys::Array::new();
                let _ = js_sys::Reflect::set(&w, &key, &a);
                a.into()
            });
        if let Ok(arr) = arr.dyn_into::<js_sys::Array>() {
            if arr.length() < 10_000 {
                arr.push(&wasm_bindgen::JsValue::from_f64(ms));
            }
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// The scenario to open (a name of `scenarios/`); the default one when absent or unknown.
    #[prop_or_default]
    pub scenario: Option<AttrValue>,
    /// A link fragment (`#scenario=…&t=…&actions=…`) to open at that moment.
    #[prop_or_default]
    pub link: Option<AttrValue>,
    /// Start playing at once.
    #[prop_or_default]
    pub autoplay: bool,
    /// The story without the editing controls (`?controls=minimal`).
    #[prop_or_default]
    pub minimal: bool,
    /// What was wrong with the page's URL parameters, to show.
    #[prop_or_default]
    pub problems: Vec<AttrValue>,
    /// The language the lab opens in; the reader can switch it.
    #[prop_or_default]
    pub lang: Lang,
    /// A guided tour (a name of `tours/`) to start; wins over `scenario`.
    #[prop_or_default]
    pub tour: Option<AttrValue>,
    /// A forced theme, for this instance only.
    #[prop_or_default]
    pub theme: Theme,
    /// The panels to show (names of [`crate::embed::PANELS`]); all when absent.
    #[prop_or_default]
    pub panels: Option<Rc<Vec<String>>>,
    /// The lab's own page, when this instance is embedded in another one: links to a moment
    /// point there, and the host page's address is left alone.
    #[prop_or_default]
    pub home: Option<AttrValue>,
}

impl AppProps {
    /// The props for validated settings (URL parameters, `mount` options or attributes).
    pub fn from_options(o: crate::embed::PageOptions, link: Option<String>, problems: Vec<String>) -> Self {
        AppProps {
            scenario: o.scenario.map(Into::into),
            link: link.map(Into::into),
            autoplay: o.autoplay,
            minimal: o.minimal,
            problems: problems.into_iter().map(Into::into).collect(),
            lang: o.lang,
            tour: o.tour.map(Into::into),
            theme: o.theme,
            panels: o.panels.map(Rc::new),
            home: None,
        }
    }

    fn shows(&self, panel: &str) -> bool {
        crate::embed::shows(self.panels.as_deref().map(Vec::as_slice), panel)
    }
}

/// The language of this instance, for every component under [`App`] (a context, not a global,
/// so that two instances on one page can differ).
#[hook]
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    // Opened once: the lab, and what to say if the URL asked for something that does not exist.
    let opening_notice = use_mut_ref(|| None::<String>);
    let lab = {
        let (n, scenario, link) = (
            opening_notice.clone(),
            props.scenario.clone(),
            props.link.clone(),
        );
        let (autoplay, problems, tour, lang) = (props.autoplay, props.problems.clone(), props.tour.clone(), props.lang);
        use_mut_ref(move || {
            let (mut lab, msg) = Lab::open(scenario.as_deref(), tour.as_deref(), link.as_deref(), lang);
            // A tour autoplays by moving through its steps; a scenario by playing.
            lab.tour_autoplay = autoplay && lab.guide.is_some();
            lab.playing = autoplay && lab.guide.is_none();
            let all: Vec<String> = problems.iter().map(|p| p.to_string()).chain(msg).collect();
            *n.borrow_mut() = (!all.is_empty()).then(|| all.join(" "));
            lab
        })
    };
    let redraw = use_force_update();
    let lang = use_state_eq(|| props.lang);
    let notice = use_state(|| opening_notice.borrow().clone());
    let share = use_state(|| None::<String>);
    let root = use_node_ref();
    // Bumped when the tab becomes visible again, so that the play loop restarts.
    let visible_epoch = use_mut_ref(|| 0u32);
    // Whether any of this instance is in the viewport: an instance scrolled away pauses.
    let on_screen = use_mut_ref(|| true);
    // The play loop: one requestAnimationFrame chain while playing and the tab is visible.
    let playing = lab.borrow().playing;
    {
        let lab = lab.clone();
        let redraw = redraw.clone();
        let epoch = *visible_epoch.borrow();
        let on_screen = on_screen.clone();
        use_effect_with((playing, epoch), move |&(playing, _)| {
            let handle: Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>> = Rc::new(RefCell::new(None));
            let request = Rc::new(std::cell::Cell::new(None::<i32>));
            if playing {
                let (h, req) = (handle.clone(), request.clone());
                *handle.borrow_mut() = Some(Closure::new(move |ts: f64| {
                    req.set(None);
                    if document_hidden() || !*on_screen.borrow() {
                        lab.borrow_mut().last_frame = None;
                        return;
                    }
                    let start = performance_now();
                    {
                        let mut l = lab.borrow_mut();
                        let dt = l
                            .last_frame
                            .map_or(0.0, |last| (ts - last).clamp(0.0, 100.0));
                        l.last_frame = Some(ts);
                        let ms = (dt * l.play_speed()).round() as u64;
                        if ms > 0 {
                            l.advance(ms);
                        }
                    }
                    redraw.force_update();
                    record_frame_time(performance_now() - start);
                    if let (Some(w), Some(cb)) = (web_sys::window(), h.borrow().as_ref()) {
                        req.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
                    }
                }));
                if let (Some(w), Some(cb)) = (web_sys::window(), handle.borrow().as_ref()) {
                    request.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
                }
            }
            move || {
                // Cancel the queued frame, then drop the closure (which also breaks its self-reference).
                if let (Some(w), Some(id)) = (web_sys::window(), request.get()) {
                    let _ = w.cancel_animation_frame(id);
                }
                handle.borrow_mut().take();
            }
        });
    }
    // Resume after the tab becomes visible again.
    {
        let redraw = redraw.clone();
        let visible_epoch = visible_epoch.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut()>::new(move || {
                if !document_hidden() {
                    *visible_epoch.borrow_mut() += 1;
                    redraw.force_update();
                }
            });
            let doc = web_sys::window().and_then(|w| w.document());
            if let Some(d) = &doc {
                let _ = d.add_event_listener_with_callback(
                    "visibilitychange",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(d) = doc {
                    let _ = d.remove_event_listener_with_callback(
                        "visibilitychange",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }

    // Pause while scrolled out of view (several instances on one page must stay cheap).
    {
        let (redraw, visible_epoch, on_screen, root) = (redraw.clone(), visible_epoch.clone(), on_screen.clone(), root.clone());
        use_effect_with((), move |_| {
            let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                let Some(last) = entries.iter().last() else { return };
                let visible = last.unchecked_into::<web_sys::IntersectionObserverEntry>().is_intersecting();
                let was = std::mem::replace(&mut *on_screen.borrow_mut(), visible);
                if visible && !was {
                    *visible_epoch.borrow_mut() += 1;
                    redraw.force_update();
                }
            });
            let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(el)) = (&observer, root.cast::<web_sys::Element>()) {
                o.observe(&el);
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(callback);
            }
        });
    }

    // An autoplaying tour moves to its next step after a reading pause (not while hidden or
    // scrolled away: coming back re-arms it).
    {
        let (lab, redraw, on_screen) = (lab.clone(), redraw.clone(), on_screen.clone());
        let key = {
            let l = lab.borrow();
            let armed = l.tour_autoplay && !l.moving() && l.guide.as_ref().is_some_and(|g| !g.is_last());
            (armed.then(|| l.reading_ms(*lang)), l.guide.as_ref().map(|g| g.index), *visible_epoch.borrow())
        };
        use_effect_with(key, move |&(wait, _, _)| {
            let timer = wait.map(|ms| {
                gloo_timers::callback::Timeout::new(ms, move || {
                    if document_hidden() || !*on_screen.borrow() {
                        return;
                    }
                    lab.borrow_mut().tour_move(true, !bitmap::prefers_reduced_motion());
                    redraw.force_update();
                })
            });
            move || drop(timer)
        });
    }

    let log_cache = use_mut_ref(LogCache::default);
    let frame = frame_of(&lab.borrow(), &mut log_cache.borrow_mut());
    let revision = (
        frame.state.etcd.revision,
        frame.marks.len(),
        lab.borrow().now() == 0,
    );
    let maps = {
        let lab = lab.clone();
        use_memo(revision, move |_| bitmaps(&lab.borrow()))
    };
    // What only changes with etcd or the logs: the panels that show it skip the other frames.
    let slow = {
        let frame = frame.clone();
        use_memo((revision, frame.events.len()), move |_| frame)
    };
    let repair_runs = frame
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::RepairRun)
        .count() as u64;

    // Stable across renders, so that panels whose data did not change are not re-rendered.
    let on_action = {
        let (lab, redraw, notice) = (lab.clone(), redraw.clone(), notice.clone());
        use_callback((), move |action: Action, _| {
            let failure = {
                let mut l = lab.borrow_mut();
                let before = l.timeline.world().events().len();
                l.act(action);
                let failure = l.timeline.world().events()[before..]
                    .iter()
                    .rev()
                    .find(|e| e.reason == "action_failed")
                    .map(|e| e.message.clone());
                failure
            };
            notice.set(failure);
            redraw.force_update();
        })
    };
    let on_control = {
        let (lab, redraw) = (lab.clone(), redraw.clone());
        Callback::from(move |c: controls::Control| {
            {
                let mut l = lab.borrow_mut();
                match c {
                    controls::Control::TogglePlay => {
                        l.playing = !l.playing;
                        l.last_frame = None;
                    }
                    controls::Control::Step => {
                        l.playing = false;
                        l.step();
                    }
                    controls::Control::Back => {
                        l.playing = false;
                        l.step_back();
                    }
                    controls::Control::Seek(t) => l.seek(t),
                    controls::Control::Speed(e) => {
                        l.speed_exp = e.clamp(SPEED_MIN_EXP, SPEED_MAX_EXP)
                    }
                    controls::Control::Faster => {
                        l.speed_exp = (l.speed_exp + 0.25).min(SPEED_MAX_EXP)
                    }
                    controls::Control::Slower => {
                        l.speed_exp = (l.speed_exp - 0.25).max(SPEED_MIN_EXP)
                    }
                }
            }
            redraw.force_update();
        })
    };
    let on_load = {
        let (lab, redraw, notice) = (lab.clone(), redraw.clone(), notice.clone());
        Callback::from(move |(s, source): (Scenario, Source)| {
            *lab.borrow_mut() = Lab::new(s, source);
            notice.set(None);
            redraw.force_update();
        })
    };
    // Puts a link to this moment in the address bar (no reload) and shows it for copying.
    let on_share = {
        let (lab, share, home) = (lab.clone(), share.clone(), props.home.clone());
        Callback::from(move |_: MouseEvent| {
            let fragment = lab.borrow().link();
            if let Some(home) = &home {
                share.set(Some(format!("{}#{fragment}", home.split('#').next().unwrap_or_default())));
                return;
            }
            let mut url = String::new();
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&format!("#{fragment}")),
                    );
                }
                url = w.location().href().unwrap_or_default();
            }
            share.set(Some(url));
        })
    };
    let on_tour = {
        let (lab, redraw) = (lab.clone(), redraw.clone());
        Callback::from(move |c: tour::TourControl| {
            {
                let mut l = lab.borrow_mut();
                let animate = !bitmap::prefers_reduced_motion();
                // The reader takes over.
                l.tour_autoplay = false;
                match c {
                    tour::TourControl::Next => l.tour_move(true, animate),
                    tour::TourControl::Back => l.tour_move(false, animate),
                    tour::TourControl::Leave => l.leave_tour(),
                }
            }
            redraw.force_update();
        })
    };
    let on_pick_tour = {
        let (lab, redraw, notice, lang) = (lab.clone(), redraw.clone(), notice.clone(), lang.clone());
        Callback::from(move |name: String| {
            match crate::tour::builtin(&name).map(|t| t.and_then(Lab::tour)) {
                Some(Ok(new)) => {
                    let speed = lab.borrow().speed_exp;
                    *lab.borrow_mut() = Lab { speed_exp: speed, ..new };
                    notice.set(None);
                }
                Some(Err(e)) => notice.set(Some(e)),
                None => notice.set(Some(match *lang {
                    Lang::En => format!("There is no tour {name:?}."),
                    Lang::Zh => format!("没有名为 {name:?} 的导览。"),
                })),
            }
            redraw.force_update();
        })
    };
    let onkeydown = {
        let (on_control, on_tour, lab) = (on_control.clone(), on_tour.clone(), lab.clone());
        Callback::from(move |e: KeyboardEvent| {
            let typing = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    matches!(
                        el.tag_name().as_str(),
                        "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON" | "CANVAS"
                    )
                });
            // In a tour, the arrows move through its steps.
            if !typing && lab.borrow().guide.is_some() {
                let step = match e.key().as_str() {
                    "ArrowRight" => Some(tour::TourControl::Next),
                    "ArrowLeft" => Some(tour::TourControl::Back),
                    _ => None,
                };
                if let Some(step) = step {
                    e.prevent_default();
                    on_tour.emit(step);
                    return;
                }
            }
            let control = match e.key().as_str() {
                " " if !typing => controls::Control::TogglePlay,
                "ArrowRight" if !typing => controls::Control::Step,
                "ArrowLeft" if !typing => controls::Control::Back,
                "]" if !typing => controls::Control::Faster,
                "[" if !typing => controls::Control::Slower,
                _ => return,
            };
            e.prevent_default();
            on_control.emit(control);
        })
    };

    // The parts of the UI the tour's step talks about.
    let spots: Vec<String> = lab.borrow().guide.as_ref().map(|g| g.step().highlight.clone()).unwrap_or_default();
    {
        let root = root.clone();
        // After every render: a re-render may rewrite an element's class, or create it anew.
        use_effect(move || {
            if let Some(el) = root.cast::<web_sys::Element>() {
                tour::highlight(&el, &spots);
            }
        });
    }

    let l = lab.borrow();
    let (ip_maps, port_map) = &*maps;
    let on_lang = {
        let lang = lang.clone();
        Callback::from(move |e: Event| {
            if let Some(l) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| Lang::parse(&s.value()))
            {
                lang.set(l);
            }
        })
    };
    let t = *lang;
    let guide = l.guide.as_ref();
    let shows = |panel: &str| props.shows(panel);
    html! {
        <ContextProvider<Lang> context={t}>
        <div class={classes!("lab", props.minimal.then_some("minimal"), guide.is_some().then_some("touring"))}
            lang={t.code()} data-theme={props.theme.forced()} data-moving={l.moving().then_some("true")}
            tabindex="-1" {onkeydown} ref={root.clone()}>
            <header class="topbar">
                <div class="brand">
                    <h1>{ "kube-bootstrap-lab" }</h1>
                    if t == Lang::Zh {
                        <p class="lede">{ "kube-apiserver 如何让它自己的 " }<code>{ "default/kubernetes" }</code>
                            { " Service 一直存在。动手破坏，看它如何恢复。" }</p>
                    } else {
                        <p class="lede">{ "How kube-apiserver keeps its own " }<code>{ "default/kubernetes" }</code>
                            { " Service alive. Break things and watch." }</p>
                    }
                </div>
                <tour::TourPicker current={guide.map(|g| AttrValue::from(g.tour.name.clone()))} on_pick={on_pick_tour} />
                <label class="lang-switch">
                    <span class="sr-only">{ t.pick("Language", "语言") }</span>
                    <select id="lang" onchange={on_lang} aria-label={t.pick("Language", "语言")}>
                        <option value="en" selected={t == Lang::En}>{ "English" }</option>
                        <option value="zh" selected={t == Lang::Zh}>{ "中文" }</option>
                    </select>
                </label>
                <ConfigForm current={l.scenario.name.clone()} on_load={on_load} />
            </header>
            <controls::TimeControls
                now={l.now()} horizon={frame.horizon} playing={l.playing} speed_exp={l.speed_exp}
                forked={l.forked} marks={frame.marks.clone()} on_control={on_control} />
            if let Some(msg) = &*notice {
                <p class="notice" role="alert" id="action-error">{ msg.clone() }</p>
            }
            if let Some(g) = guide {
                <tour::TourCard title={g.tour.title.clone()} index={g.index} len={g.tour.steps.len()} auto={l.tour_autoplay}
                    spots={g.step().highlight.clone()}
                    say={g.step().say.clone()} error={l.tour_error.clone().map(AttrValue::from)} on_control={on_tour} />
            }
            <div class="share">
                <button id="share" onclick={on_share} title={t.pick("A link that reopens exactly this moment", "一个能重新打开此刻状态的链接")}>
                    { t.pick("Link to this moment", "此刻的链接") }</button>
                if let Some(url) = &*share {
                    <input id="share-link" readonly=true value={url.clone()} aria-label={t.pick("Link to this moment", "此刻的链接")} />
                }
            </div>
            <main class="grid">
                if shows("apiservers") { <panels::Apiservers frame={frame.clone()} on_action={on_action.clone()} /> }
                if shows("kubernetes-service") { <panels::KubernetesService frame={frame.clone()} on_action={on_action.clone()} /> }
                if shows("etcd") { <panels::Etcd frame={frame.clone()} on_action={on_action.clone()} /> }
                if shows("events") { <panels::EventFeed frame={(*slow).clone()} /> }
                if shows("bitmaps") {
                    <section class="panel bitmaps" aria-label={t.pick("Allocation bitmaps", "分配位图")}>
                        <h2>{ t.pick("Allocation bitmaps in etcd", "etcd 中的分配位图") }</h2>
                        { for ip_maps.iter().enumerate().map(|(i, v)| html! {
                            <div data-tour={if i == 0 { "cluster-ip" } else { "cluster-ip-secondary" }}>
                                <bitmap::Bitmap id={if i == 0 { "cluster-ip" } else { "cluster-ip-secondary" }}
                                    title={format!("ClusterIP {}", v.range)} view={v.clone()} sweep={repair_runs} />
                            </div>
                        }) }
                        <div data-tour="node-port">
                            <bitmap::Bitmap id="node-port" title={format!("NodePort {}", port_map.range)} view={port_map.clone()} sweep={repair_runs} />
                        </div>
                        <panels::Corrupt on_action={on_action.clone()} />
                    </section>
                }
                if shows("services") { <panels::Services frame={(*slow).clone()} on_action={on_action.clone()} /> }
                if shows("pods") { <panels::Pods frame={(*slow).clone()} on_action={on_action.clone()} /> }
            </main>
        </div>
        </ContextProvider<Lang>>
    }
}
