//! The animation loop of the UI and the play loop on it: one frame message per animation frame.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::lab::LabState;
use crate::lab::Msg;

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
    if let (Some(w), Some(cb)) = (crate::ui::browser::window(), handle.borrow().as_ref()) {
        request.set(w.request_animation_frame(cb.as_ref().unchecked_ref()).ok());
    }
}

impl Drop for FrameLoop {
    fn drop(&mut self) {
        if let (Some(w), Some(id)) = (crate::ui::browser::window(), self.request.take()) {
            let _ = w.cancel_animation_frame(id);
        }
        // Dropping the closure after a queued frame was cancelled; a running frame holds its own
        // borrow only while it runs, and a loop is never dropped from inside its own frame.
        if let Ok(mut h) = self.handle.try_borrow_mut() {
            h.take();
        }
    }
}

fn performance_now() -> f64 {
    crate::ui::browser::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Frame durations (ms) of the play loop, for the end-to-end test's figures.
fn record_frame_time(ms: f64) {
    let Some(w) = crate::ui::browser::window() else { return };
    let key = wasm_bindgen::JsValue::from_str("__labFrameTimes");
    let arr = js_sys::Reflect::get(&w, &key).ok().filter(|v| v.is_object()).unwrap_or_else(|| {
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
