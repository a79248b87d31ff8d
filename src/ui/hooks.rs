//! The UI's effects that outlive one render: the lab as one reducible state, animation frames
//! and the play loop on them, whether an instance is in view, the tour's autoplay and
//! highlights, keyboard shortcuts and the height reports to a host page.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::mount::{HEIGHT_MESSAGE, HEIGHT_REQUEST, MESSAGE_VERSION};
use crate::lab::{Lab, Msg, Opening};
use crate::upstream::Subject;

type FrameFn = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// A chain of `requestAnimationFrame` callbacks: `frame(timestamp)` runs once a frame until it
/// returns `false` or the loop is dropped. The one animation loop of the UI (playing, the bitmap
/// sweep): dropping it cancels the queued frame and breaks the closure's reference to itself.
pub(crate) struct FrameLoop {
    handle: FrameFn,
    request: Rc<std::cell::Cell<Option<i32>>>,
}

impl FrameLoop {
    pub(crate) fn start(mut frame: impl FnMut(f64) -> bool + 'static) -> Self {
        let handle: FrameFn = Rc::new(RefCell::new(None));
        let request = Rc::new(std::cell::Cell::new(None::<i32>));
        let (h, req) = (handle.clone(), request.clone());
        *handle.borrow_mut() = Some(Closure::new(move |ts: f64| {
            req.set(None);
            if frame(ts) {
                schedule(&h, &req);
            }
        }));
        schedule(&handle, &request);
        FrameLoop { handle, request }
    }
}

fn schedule(handle: &FrameFn, request: &std::cell::Cell<Option<i32>>) {
    if let (Some(w), Some(cb)) = (web_sys::window(), handle.borrow().as_ref()) {
        request.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let (Some(w), Some(id)) = (web_sys::window(), self.request.take()) {
            let _ = w.cancel_animation_frame(id);
        }
        // Dropping the closure after a queued frame was cancelled; a running frame holds its own
        // borrow only while it runs, and a loop is never dropped from inside its own frame.
        if let Ok(mut h) = self.handle.try_borrow_mut() {
            h.take();
        }
    }
}

/// A listener for `event` on `target`, removed when dropped (the page's visibility, a host
/// page's messages).
pub(crate) struct EventListener<F: ?Sized> {
    target: web_sys::EventTarget,
    event: &'static str,
    callback: Closure<F>,
}

impl<F: ?Sized + wasm_bindgen::closure::WasmClosure> EventListener<F> {
    pub(crate) fn new(
        target: &web_sys::EventTarget,
        event: &'static str,
        callback: Closure<F>,
    ) -> Self {
        let _ = target.add_event_listener_with_callback(event, callback.as_ref().unchecked_ref());
        let target = target.clone();
        EventListener {
            target,
            event,
            callback,
        }
    }
}

impl<F: ?Sized> Drop for EventListener<F> {
    fn drop(&mut self) {
        let callback: &js_sys::Function = self.callback.as_ref().unchecked_ref();
        let _ = self
            .target
            .remove_event_listener_with_callback(self.event, callback);
    }
}

/// The lab as yew's one reducible state: every change is a [`Msg`] through [`Lab::update`].
/// The lab is updated in place (cloning a timeline every animation frame would cost more than
/// the frame), and a new handle, which re-renders, is made only when something changed.
pub(crate) struct LabState {
    lab: Rc<RefCell<Lab>>,
}

impl LabState {
    /// The lab, to read while rendering (never held across a dispatch).
    pub(crate) fn get(&self) -> Ref<'_, Lab> {
        self.lab.borrow()
    }
}

impl Reducible for LabState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        if self.lab.borrow_mut().update(msg) {
            Rc::new(LabState {
                lab: self.lab.clone(),
            })
        } else {
            self
        }
    }
}

/// The lab this instance opens with (once: later props do not reopen it).
#[hook]
pub(crate) fn use_lab(props: &super::AppProps) -> UseReducerHandle<LabState> {
    let (scenario, tour, link) = (
        props.scenario.clone(),
        props.tour.clone(),
        props.link.clone(),
    );
    let (step, lang, autoplay) = (props.step, props.lang, props.autoplay);
    use_reducer(move || {
        let (lab, _) = Lab::open(Opening {
            scenario: scenario.as_deref(),
            tour: tour.as_deref(),
            step,
            link: link.as_deref(),
            lang,
            autoplay,
        });
        LabState {
            lab: Rc::new(RefCell::new(lab)),
        }
    })
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

fn document_hidden() -> bool {
    document().is_some_and(|d| d.hidden())
}

/// Whether the instance under `root` can be seen: its tab is visible and some of it is in the
/// viewport. An instance out of view pauses (several on one page must stay cheap).
#[hook]
pub(crate) fn use_in_view(root: NodeRef) -> bool {
    let visible = use_state_eq(|| !document_hidden());
    let on_screen = use_state_eq(|| true);
    {
        let visible = visible.clone();
        use_effect_with((), move |_| {
            let listener = document().map(|d| {
                let on_change =
                    Closure::<dyn FnMut()>::new(move || visible.set(!document_hidden()));
                EventListener::new(&d, "visibilitychange", on_change)
            });
            move || drop(listener)
        });
    }
    {
        let on_screen = on_screen.clone();
        use_effect_with((), move |_| {
            let callback =
                Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    if let Some(last) = entries.iter().last() {
                        let entry: web_sys::IntersectionObserverEntry = last.unchecked_into();
                        on_screen.set(entry.is_intersecting());
                    }
                });
            let observer =
                web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref()).ok();
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
    *visible && *on_screen
}

fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Frame durations (ms) of the play loop, for the end-to-end test's figures.
fn record_frame_time(ms: f64) {
    let Some(w) = web_sys::window() else { return };
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

/// The play loop: one frame message per animation frame while the lab plays and is in view.
#[hook]
pub(crate) fn use_play_loop(playing: bool, in_view: bool, lab: UseReducerDispatcher<LabState>) {
    use_effect_with((playing, in_view), move |&(playing, in_view)| {
        let frames = (playing && in_view).then(|| {
            // Whatever time passed out of view is not played.
            lab.dispatch(Msg::FramesStopped);
            FrameLoop::start(move |ts: f64| {
                let start = performance_now();
                lab.dispatch(Msg::Frame { timestamp_ms: ts });
                record_frame_time(performance_now() - start);
                true
            })
        });
        move || drop(frames)
    });
}

/// An autoplaying tour moves to its next step after a reading pause: counted while in view only
/// (coming back re-arms it), again for each step and each tour.
#[hook]
pub(crate) fn use_tour_autoplay(
    wait_ms: Option<u32>,
    step: Option<usize>,
    generation: u64,
    in_view: bool,
    lab: UseReducerDispatcher<LabState>,
) {
    use_effect_with(
        (wait_ms, step, generation, in_view),
        move |&(wait, _, _, in_view)| {
            let timer = wait.filter(|_| in_view).map(|ms| {
                gloo_timers::callback::Timeout::new(ms, move || {
                    let animate = !super::bitmap::prefers_reduced_motion();
                    lab.dispatch(Msg::TourAutoNext { animate });
                })
            });
            move || drop(timer)
        },
    );
}

/// Whether `key`, pressed with focus on `el`, belongs to that element rather than to the
/// shortcuts: every key typed into a field (input, select, textarea, editable text); Space and
/// Enter on what they activate (a button, a link, a summary); the arrows and paging keys of a
/// widget that moves with them (a bitmap canvas, the overview slider).
fn key_is_the_elements(el: &web_sys::Element, key: &str) -> bool {
    let role = el.get_attribute("role").unwrap_or_default();
    let editable = el
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable());
    match el.tag_name().as_str() {
        "INPUT" | "SELECT" | "TEXTAREA" => true,
        _ if editable => true,
        "BUTTON" | "A" | "SUMMARY" => matches!(key, " " | "Enter"),
        _ if matches!(role.as_str(), "button" | "link" | "checkbox" | "switch" | "tab") => {
            matches!(key, " " | "Enter")
        }
        "CANVAS" => key.starts_with("Arrow") || matches!(key, "Home" | "End" | "PageUp" | "PageDown"),
        _ if matches!(role.as_str(), "application" | "slider") => {
            key.starts_with("Arrow") || matches!(key, "Home" | "End" | "PageUp" | "PageDown")
        }
        _ => false,
    }
}

/// The keyboard shortcuts of one instance (its root's `keydown`, so that several instances on
/// a page do not all answer), wherever the focus is inside it: space plays, ←/→ step (in a
/// tour, move through its steps), `[` and `]` change the speed. A key that belongs to the
/// focused element ([`key_is_the_elements`]), or that it already handled, is left to it;
/// combinations with Ctrl, Meta or Alt are the browser's (AltGr, which types `[` and `]` on many
/// layouts, is not one).
#[hook]
pub(crate) fn use_shortcuts(
    in_tour: bool,
    lab: UseReducerDispatcher<LabState>,
) -> Callback<KeyboardEvent> {
    use_callback(in_tour, move |e: KeyboardEvent, &in_tour| {
        let key = e.key();
        let focused = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let theirs = focused.is_some_and(|el| key_is_the_elements(&el, &key));
        let chord = (e.ctrl_key() || e.meta_key() || e.alt_key()) && !e.get_modifier_state("AltGraph");
        if theirs || chord || e.default_prevented() {
            return;
        }
        let animate = !super::bitmap::prefers_reduced_motion();
        let msg = match key.as_str() {
            "ArrowRight" if in_tour => Msg::TourNext { animate },
            "ArrowLeft" if in_tour => Msg::TourBack,
            " " => Msg::TogglePlay,
            "ArrowRight" => Msg::Step,
            "ArrowLeft" => Msg::StepBack,
            "]" => Msg::Faster,
            "[" => Msg::Slower,
            _ => return,
        };
        e.prevent_default();
        lab.dispatch(msg);
    })
}

/// Marks the parts of the UI the tour's step talks about, after every render (a render may
/// rewrite an element's class, or create it anew).
#[hook]
pub(crate) fn use_tour_highlight(root: NodeRef, spots: Vec<crate::parts::Spot>) {
    use_effect(move || {
        if let Some(el) = root.cast::<web_sys::Element>() {
            super::tour::highlight(&el, &spots);
        }
    });
}

/// In an iframe (and when `enabled`: the lab's own page), posts `{type, version, height}` to
/// the host page whenever the page's height changes, addressed to the host's origin only, so
/// the host can size the frame and never jump; and again when the host asks.
#[hook]
pub(crate) fn use_height_reports(enabled: bool) {
    use_effect_with(enabled, |&enabled| {
        let reports = enabled.then(HeightReports::start).flatten();
        move || drop(reports)
    });
}

struct HeightReports {
    observer: Option<web_sys::ResizeObserver>,
    _on_resize: Closure<dyn FnMut()>,
    _on_message: EventListener<dyn FnMut(web_sys::MessageEvent)>,
}

impl HeightReports {
    fn start() -> Option<Self> {
        let window = web_sys::window()?;
        let parent = window.parent().ok().flatten()?;
        if js_sys::Object::is(&parent, &window) {
            return None;
        }
        let origin = host_origin(&window);
        let doc = window.document()?;
        let last = Rc::new(std::cell::Cell::new(0));
        let send = {
            let (parent, origin, doc) = (parent.clone(), origin.clone(), doc.clone());
            move |always: bool| {
                let Some(h) = doc.document_element().map(|e| e.scroll_height()) else {
                    return;
                };
                if h == last.replace(h) && !always {
                    return;
                }
                let msg = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
                let _ = js_sys::Reflect::set(&msg, &"version".into(), &MESSAGE_VERSION.into());
                let _ = js_sys::Reflect::set(&msg, &"height".into(), &h.into());
                let _ = parent.post_message(&msg, &origin);
            }
        };
        let on_resize = {
            let send = send.clone();
            Closure::<dyn FnMut()>::new(move || send(false))
        };
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let Some(o) = &observer {
            for el in [doc.document_element(), doc.body().map(Into::into)]
                .into_iter()
                .flatten()
            {
                o.observe(&el);
            }
        }
        // A request from the host page (and only from it, in a version we know): report again.
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
                let field = |k: &str| js_sys::Reflect::get(&e.data(), &k.into()).ok();
                let asks = field("type").and_then(|t| t.as_string()).as_deref()
                    == Some(HEIGHT_REQUEST)
                    && field("version").and_then(|v| v.as_f64()) == Some(MESSAGE_VERSION as f64);
                if from_parent && (origin == "*" || e.origin() == origin) && asks {
                    send(true);
                }
            });
        Some(HeightReports {
            observer,
            _on_resize: on_resize,
            _on_message: EventListener::new(&window, "message", on_message),
        })
    }
}

impl Drop for HeightReports {
    fn drop(&mut self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
    }
}

/// The host page's origin: from `location.ancestorOrigins` where the browser has it, else the
/// referrer's; `*` only when neither is known (the height is not a secret; hosts check the
/// message's origin themselves).
fn host_origin(window: &web_sys::Window) -> String {
    // Not in every browser (nor in web-sys): read it as a plain property.
    let from_ancestors = js_sys::Reflect::get(&window.location(), &"ancestorOrigins".into())
        .ok()
        .filter(|l| l.is_object())
        .and_then(|l| js_sys::Reflect::get(&l, &0.into()).ok())
        .and_then(|o| o.as_string());
    let from_referrer = || {
        let r = window.document()?.referrer();
        let url = web_sys::Url::new(&r).ok()?;
        Some(url.origin()).filter(|o| o != "null")
    };
    from_ancestors
        .filter(|o| o != "null")
        .or_else(from_referrer)
        .unwrap_or_else(|| "*".into())
}

/// The object the reader picked to inspect (and whether the inspector takes the focus), with
/// the callbacks that pick one and close the inspector (the same ones every render).
#[hook]
pub(crate) fn use_picked() -> (Option<(Subject, bool)>, Callback<(Subject, bool)>, Callback<()>) {
    let picked = use_state(|| None::<(Subject, bool)>);
    let on_pick = {
        let picked = picked.clone();
        use_callback((), move |s: (Subject, bool), _| picked.set(Some(s)))
    };
    let on_close = {
        let picked = picked.clone();
        use_callback((), move |(), _| picked.set(None))
    };
    ((*picked).clone(), on_pick, on_close)
}
