//! The explainer UI (Yew function components). It holds a [`Lab`] of the core, reads its
//! state and sends it actions; every rule stays in the core.

pub mod bitmap;
mod config;
mod controls;
pub mod hooks;
mod panels;
pub mod mount;
pub mod tour;

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::embed::Theme;
use crate::inspect::{cluster_ip_bitmap, node_port_bitmap, BitmapView};
use crate::lang::Lang;
use crate::scenario::{Action, Scenario};
use crate::share::Source;
use crate::state::State;
use crate::world::{Mark, MarkKind};

pub use crate::lab::{builtin_scenario, Lab, Opening, DEFAULT_SCENARIO, SPEED_MAX_EXP, SPEED_MIN_EXP};

pub use config::{cluster_scenario, ConfigForm, Settings};


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
    /// The tour step to open at, from 1.
    #[prop_or_default]
    pub step: Option<usize>,
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
            step: o.step,
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
        let (autoplay, problems, tour, step, lang) = (props.autoplay, props.problems.clone(), props.tour.clone(), props.step, props.lang);
        use_mut_ref(move || {
            let (mut lab, msg) = Lab::open(Opening {
                scenario: scenario.as_deref(),
                tour: tour.as_deref(),
                step,
                link: link.as_deref(),
                lang,
            });
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
            let frames = playing.then(|| {
                hooks::FrameLoop::start(move |ts: f64| {
                    if document_hidden() || !*on_screen.borrow() {
                        lab.borrow_mut().last_frame = None;
                        return false;
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
                    true
                })
            });
            move || drop(frames)
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
    // In a tour, the link reopens the tour at this step (`?tour=…&step=…`); otherwise it is
    // the moment (`#scenario=…&t=…&actions=…`).
    let on_share = {
        let (lab, share, home, lang) = (lab.clone(), share.clone(), props.home.clone(), lang.clone());
        Callback::from(move |_: MouseEvent| {
            let relative = match lab.borrow().tour_query() {
                Some(q) if *lang == Lang::En => format!("?{q}"),
                Some(q) => format!("?{q}&lang={}", lang.code()),
                None => format!("#{}", lab.borrow().link()),
            };
            if let Some(home) = &home {
                let page = home.split(['?', '#']).next().unwrap_or_default();
                share.set(Some(format!("{page}{relative}")));
                return;
            }
            let mut url = String::new();
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&relative));
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
                Some(Ok(mut new)) => {
                    new.speed_exp = lab.borrow().speed_exp;
                    *lab.borrow_mut() = new;
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
