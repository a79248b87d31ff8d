//! An event listener that removes itself when dropped: not a hook, a handle hooks and effects keep
//! (the page's visibility, a host page's messages, a scroll's end).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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
