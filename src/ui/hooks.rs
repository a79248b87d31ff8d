//! The UI's effects that outlive one render: animation frames, and the hooks built on them.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

type FrameFn = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// A chain of `requestAnimationFrame` callbacks: `frame(timestamp)` runs once a frame until it
/// returns `false` or the loop is dropped. The one animation loop of the UI (playing, the bitmap
/// sweep): dropping it cancels the queued frame and breaks the closure's reference to itself.
pub struct FrameLoop {
    handle: FrameFn,
    request: Rc<std::cell::Cell<Option<i32>>>,
}

impl FrameLoop {
    pub fn start(mut frame: impl FnMut(f64) -> bool + 'static) -> Self {
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
