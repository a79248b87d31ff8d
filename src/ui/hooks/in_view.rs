//! Whether an instance can be seen: out of view it pauses.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::listener::EventListener;

fn document() -> Option<web_sys::Document> {
    crate::ui::browser::window().and_then(|w| w.document())
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
