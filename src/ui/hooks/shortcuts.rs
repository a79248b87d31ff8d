//! The keyboard shortcuts of one instance.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::lab::LabState;
use crate::lab::Msg;
use crate::ui::media::prefers_reduced_motion;

/// Whether `key`, pressed with focus on `el`, belongs to that element rather than to the
/// shortcuts: every key typed into a field (input, select, textarea, editable text); Space and
/// Enter on what they activate (a button, a link, a summary); the arrows and paging keys of a
/// widget that moves with them (a bitmap canvas, the overview slider).
fn key_is_the_elements(el: &web_sys::Element, key: &str) -> bool {
    let role = el.get_attribute("role").unwrap_or_default();
    let editable = el.dyn_ref::<web_sys::HtmlElement>().is_some_and(|h| h.is_content_editable());
    match el.tag_name().as_str() {
        "INPUT" | "SELECT" | "TEXTAREA" => true,
        _ if editable => true,
        "BUTTON" | "A" | "SUMMARY" => matches!(key, " " | "Enter"),
        _ if matches!(role.as_str(), "button" | "link" | "checkbox" | "switch" | "tab") => {
            matches!(key, " " | "Enter")
        }
        "CANVAS" => {
            key.starts_with("Arrow") || matches!(key, "Home" | "End" | "PageUp" | "PageDown")
        }
        _ if matches!(role.as_str(), "application" | "slider") => {
            key.starts_with("Arrow") || matches!(key, "Home" | "End" | "PageUp" | "PageDown")
        }
        _ => false,
    }
}

/// The keyboard shortcuts of one instance (its root's `keydown`, so that several instances on
/// a page do not all answer), wherever the focus is inside it: space plays, ←/→ step (in a
/// tour, move through its steps; → at a question that `waits` for its answer takes the focus
/// to it rather than skip it), `[` and `]` change the speed. A key that belongs to the
/// focused element ([`key_is_the_elements`]), or that it already handled, is left to it;
/// combinations with Ctrl, Meta or Alt are the browser's (AltGr, which types `[` and `]` on many
/// layouts, is not one).
#[hook]
pub(crate) fn use_shortcuts(
    in_tour: bool,
    waits: bool,
    lab: UseReducerDispatcher<LabState>,
) -> Callback<KeyboardEvent> {
    use_callback((in_tour, waits), move |e: KeyboardEvent, &(in_tour, waits)| {
        let key = e.key();
        let focused = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let theirs = focused.is_some_and(|el| key_is_the_elements(&el, &key));
        let chord =
            (e.ctrl_key() || e.meta_key() || e.alt_key()) && !e.get_modifier_state("AltGraph");
        if theirs || chord || e.default_prevented() {
            return;
        }
        let animate = !prefers_reduced_motion();
        if waits && key == "ArrowRight" {
            e.prevent_default();
            let root = e.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let ask = root.and_then(|r| r.query_selector(".tour-ask[data-waits]").ok().flatten());
            if let Some(ask) = ask.and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = ask.focus();
            }
            return;
        }
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
