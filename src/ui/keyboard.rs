//! The keyboard's way through one instance: a skip link to the tour's step, the focus never
//! dropped to the page's body, and the inspector closed by Escape from anywhere in the lab and
//! when the focus leaves the stage (the focus going back to the object that opened it). Inside
//! this instance only: several may share a page, each in its shadow root.

use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::ids::{use_ids, Ids};
use super::tour::{focus_first, focused};

/// Focuses what moves the tour on at the step shown, inside `lab`: the question when it waits
/// for an answer, else Next, else the last step's first button, else the card's heading.
pub(crate) fn focus_step(lab: &Element, ids: &Ids) {
    focus_first(
        lab,
        &[
            ".tour-ask[data-waits]",
            &ids.sel("tour-next"),
            ".tour-buttons .primary",
            &ids.sel("tour-title"),
        ],
    );
}

/// The first stop of a lab in a tour: a link (shown when it has the focus) to the step's
/// question or Next, past the top bar, the clock and the stage.
#[function_component(SkipToStep)]
pub(crate) fn skip_to_step() -> Html {
    let lang = super::use_lang();
    let ids = use_ids();
    let onclick = {
        let ids = ids.clone();
        Callback::from(move |e: MouseEvent| {
            let lab = e.target_dyn_into::<Element>().and_then(|b| b.closest(".lab").ok().flatten());
            if let Some(lab) = lab {
                focus_step(&lab, &ids);
            }
        })
    };
    html! {
        <button class="skip-link" id={ids.id("skip-to-step")} {onclick}>
            { lang.pick("Skip to the tour's step (→ moves on)", "跳到导览的当前步骤（→ 键前进）") }</button>
    }
}

/// Whether `el` takes the keys typed into it (a field, a select, editable text).
fn types(el: &Element) -> bool {
    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || el.dyn_ref::<web_sys::HtmlElement>().is_some_and(|h| h.is_content_editable())
}

/// The lab's keys: Escape closes the inspector from anywhere in this instance (not from a
/// field, whose Escape is its own), every other key goes to `shortcuts`.
#[hook]
pub(crate) fn use_lab_keys(
    open: bool,
    close: Callback<()>,
    shortcuts: Callback<KeyboardEvent>,
) -> Callback<KeyboardEvent> {
    use_callback((open, close, shortcuts), |e: KeyboardEvent, (open, close, shortcuts)| {
        let field = e.target_dyn_into::<Element>().is_some_and(|t| types(&t));
        if *open && e.key() == "Escape" && !field && !e.default_prevented() {
            e.prevent_default();
            close.emit(());
            return;
        }
        shortcuts.emit(e);
    })
}

/// The `focusout` of `wrap` (the stage and its inspector): when the keyboard takes the focus
/// out of it, the inspector closes. A click elsewhere (a mouse reader pressing Play to watch
/// what the inspector shows) leaves it open, as does the window losing the focus.
pub(crate) fn close_on_leaving(wrap: NodeRef, close: Callback<()>) -> Callback<FocusEvent> {
    Callback::from(move |_: FocusEvent| {
        let Some(wrap) = wrap.cast::<Element>() else { return };
        let close = close.clone();
        gloo_timers::callback::Timeout::new(0, move || {
            let Some(now) = focused(&wrap) else { return };
            let by_keyboard = now.matches(":focus-visible").unwrap_or(false);
            if !wrap.contains(Some(&now)) && by_keyboard {
                close.emit(());
            }
        })
        .forget();
    })
}

/// The focus is never dropped to the page's body: when what held it inside the lab goes (the
/// "Start the guided tour" button once the tour starts, the inspector once closed, …), it goes
/// to the tour's step, else to the tour menu, else to the lab itself, where the shortcuts still
/// answer.
#[hook]
pub(crate) fn use_focus_held(root: NodeRef, touring: bool) {
    let ids = use_ids();
    let had = use_mut_ref(|| false);
    // Read while rendering, before the changes reach the page.
    *had.borrow_mut() =
        root.cast::<Element>().is_some_and(|r| focused(&r).is_some_and(|f| r.contains(Some(&f))));
    use_effect(move || {
        let Some(lab) = root.cast::<Element>() else { return };
        if *had.borrow() && focused(&lab).is_none() {
            match touring {
                true => focus_step(&lab, &ids),
                // Out of a tour (left, or ended): the tour menu, where another one starts.
                false => focus_first(&lab, &[&ids.sel("tour-pick")]),
            }
        }
    });
}
