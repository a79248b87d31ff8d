//! Picking a step's highlights by clicking the stage: while on, a click on a drawn part of the
//! stage (an element with `data-spot` tokens) names that part instead of doing what it does.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::parts::Spot;
use crate::ui::listener::EventListener;

/// While `on`, clicks on this instance's stage (found from `card`, inside the same lab) are
/// taken as picks: `pick` gets the part's name. The lab is marked `picking` meanwhile (CSS).
/// Heard first, on the lab's root node (its shadow root or document) on the way down, and kept
/// from the stage: the press would focus (and so inspect) what it lands on, the click open it.
/// Enter or Space on a focused part picks it too.
#[hook]
pub(super) fn use_stage_pick(on: bool, card: NodeRef, pick: Callback<String>) {
    use_effect_with(on, move |&on| {
        let lab = card.cast::<web_sys::Element>().and_then(|c| c.closest(".lab").ok().flatten());
        let stage = lab.as_ref().and_then(|l| l.query_selector(".stage-wrap").ok().flatten());
        let mut listeners = Vec::new();
        if let (true, Some(lab), Some(stage)) = (on, &lab, stage) {
            let _ = lab.class_list().add_1("picking");
            let root: web_sys::EventTarget = lab.get_root_node().into();
            for event in ["pointerdown", "mousedown", "click", "keydown"] {
                let (stage, pick) = (stage.clone(), pick.clone());
                let heard = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
                    let target = e.composed_path().get(0).dyn_into::<web_sys::Element>().ok();
                    let Some(target) = target.filter(|t| stage.contains(Some(t))) else { return };
                    // From the keyboard, Enter or Space on a focused part picks it; other keys
                    // (Tab, the lab's shortcuts) go on as usual.
                    let key = e.dyn_ref::<web_sys::KeyboardEvent>().map(|k| k.key());
                    if key.as_deref().is_some_and(|k| k != "Enter" && k != " ") {
                        return;
                    }
                    let Some(name) = part_at(&target) else { return };
                    e.prevent_default();
                    e.stop_propagation();
                    if matches!(e.type_().as_str(), "click" | "keydown") {
                        pick.emit(name);
                    }
                });
                listeners.push(EventListener::capturing(&root, event, heard));
            }
        }
        move || {
            drop(listeners);
            if let Some(lab) = lab {
                let _ = lab.class_list().remove_1("picking");
            }
        }
    });
}

/// The part of the page `el` draws: the first `data-spot` token naming a part, on it or the
/// nearest element around it that has one (a lease row's `leases`, an apiserver's
/// `apiserver:NAME`; the namespaces row names no part, so its area does).
fn part_at(el: &web_sys::Element) -> Option<String> {
    let mut at = el.closest("[data-spot]").ok().flatten();
    while let Some(e) = at {
        let tokens = e.get_attribute("data-spot").unwrap_or_default();
        if let Some(t) = tokens.split_whitespace().find(|t| t.parse::<Spot>().is_ok()) {
            return Some(t.to_string());
        }
        at = e.parent_element().and_then(|p| p.closest("[data-spot]").ok().flatten());
    }
    None
}
