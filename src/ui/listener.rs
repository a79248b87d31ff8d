//! An event listener that removes itself when dropped: not a hook, a handle hooks and effects keep
//! (the page's visibility, a host page's messages, a scroll's end).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A listener for `event` on `target`, removed when dropped (the page's visibility, a host
/// page's messages).
pub(crate) struct EventListener<F: ?Sized> {
    target: web_sys::EventTarget,
    event: &'static str,
    /// Heard on the way down (before the target's own listeners), not on the way up.
    capture: bool,
    callback: Closure<F>,
}

impl<F: ?Sized + wasm_bindgen::closure::WasmClosure> EventListener<F> {
    pub(crate) fn new(
        target: &web_sys::EventTarget,
        event: &'static str,
        callback: Closure<F>,
    ) -> Self {
        Self::with_capture(target, event, callback, false)
    }

    /// A listener that hears `event` before the elements inside `target` do (and may stop it).
    pub(crate) fn capturing(
        target: &web_sys::EventTarget,
        event: &'static str,
        callback: Closure<F>,
    ) -> Self {
        Self::with_capture(target, event, callback, true)
    }

    fn with_capture(
        target: &web_sys::EventTarget,
        event: &'static str,
        callback: Closure<F>,
        capture: bool,
    ) -> Self {
        let _ = target.add_event_listener_with_callback_and_bool(
            event,
            callback.as_ref().unchecked_ref(),
            capture,
        );
        let target = target.clone();
        EventListener { target, event, capture, callback }
    }
}

impl<F: ?Sized> Drop for EventListener<F> {
    fn drop(&mut self) {
        let callback: &js_sys::Function = self.callback.as_ref().unchecked_ref();
        let _ = self.target.remove_event_listener_with_callback_and_bool(
            self.event,
            callback,
            self.capture,
        );
    }
}
