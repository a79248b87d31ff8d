//! The object the reader picked to inspect.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use crate::lab::upstream::Subject;

/// The element that has the focus in the document or shadow root of `near`.
fn active(near: &Element) -> Option<Element> {
    let root = near.get_root_node();
    match root.dyn_ref::<web_sys::ShadowRoot>() {
        Some(shadow) => shadow.active_element(),
        None => root.dyn_ref::<web_sys::Document>()?.active_element(),
    }
}

/// What [`use_picked`] gives: the subject picked, if any, and the callbacks that pick and close.
type Picked = (Option<(Subject, bool)>, Callback<(Subject, bool)>, Callback<()>);

/// The object the reader picked to inspect (and whether the inspector takes the focus), with
/// the callbacks that pick one and close the inspector (the same ones every render). `wrap`
/// holds the stage and the inspector: the object that had the focus there when one was picked
/// gets it back when the inspector closes with the focus inside it, so that it is never dropped.
#[hook]
pub(crate) fn use_picked(wrap: NodeRef) -> Picked {
    let picked = use_state(|| None::<(Subject, bool)>);
    let opener = use_mut_ref(|| None::<Element>);
    let on_pick = {
        let (picked, opener, wrap) = (picked.clone(), opener.clone(), wrap.clone());
        use_callback((), move |s: (Subject, bool), _| {
            if let Some(w) = wrap.cast::<Element>() {
                let from = active(&w).filter(|a| {
                    w.contains(Some(a)) && a.closest(".inspector").ok().flatten().is_none()
                });
                if from.is_some() {
                    *opener.borrow_mut() = from;
                }
            }
            picked.set(Some(s))
        })
    };
    let on_close = {
        let picked = picked.clone();
        use_callback((), move |(), _| {
            let w = wrap.cast::<Element>();
            let inside = w
                .as_ref()
                .and_then(active)
                .is_some_and(|a| a.closest(".inspector").ok().flatten().is_some());
            let back = opener.borrow_mut().take().filter(|o| o.is_connected());
            // An SVG object of the stage has `focus()` too.
            if let Some(o) = back.filter(|_| inside) {
                let _ = o.unchecked_ref::<HtmlElement>().focus();
            }
            picked.set(None)
        })
    };
    ((*picked).clone(), on_pick, on_close)
}
