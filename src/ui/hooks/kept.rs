//! The clicks a reader gave the first view's Play and Next before the app arrived
//! (static/poster.js keeps them; src/ui/mount.rs reads them): carried out once the lab has
//! opened, in their order, as the buttons themselves would have; focus then goes to the button
//! the reader pressed last by keyboard.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::lab::LabState;
use crate::lab::Msg;
use crate::ui::media::prefers_reduced_motion;

/// What the kept clicks do, in order, from a lab that opened playing or not: Next sends its
/// message after the click elsewhere a story playing by itself takes as the reader taking over
/// (`Msg::TakeOver`); Play and Pause (the poster's Play reads Pause while its step plays by
/// itself) leave the lab playing or paused as the button they pressed would have.
fn messages(kept: &str, mut playing: bool) -> Vec<Msg> {
    let mut out = Vec::new();
    for action in kept.split_whitespace() {
        match action {
            "next" => {
                out.extend([Msg::TakeOver, Msg::TourNext { animate: !prefers_reduced_motion() }])
            }
            "play" | "pause" => {
                let play = action == "play";
                out.push(if play == playing { Msg::TakeOver } else { Msg::TogglePlay });
                playing = play;
            }
            _ => {}
        }
    }
    out
}

/// Carries out `kept` (actions separated by spaces) once, after the first render; then focuses
/// `focus` (a selector inside `root`), the button the reader's focus was on.
/// `playing`: whether the lab plays as it opens.
#[hook]
pub(crate) fn use_kept_clicks(
    kept: Option<AttrValue>,
    playing: bool,
    focus: Option<String>,
    root: NodeRef,
    lab: UseReducerDispatcher<LabState>,
) {
    use_effect_with((), move |_| {
        for msg in messages(kept.as_deref().unwrap_or_default(), playing) {
            lab.dispatch(msg);
        }
        // After the render the messages bring.
        let timer = focus.map(|sel| {
            gloo_timers::callback::Timeout::new(0, move || {
                let button = root
                    .cast::<web_sys::Element>()
                    .and_then(|r| r.query_selector(&sel).ok().flatten());
                if let Some(b) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = b.focus();
                }
            })
        });
        move || drop(timer)
    });
}
