//! Things to try: the experiments the scenario offers ([`crate::lab::View::trying`]), one click
//! each, and what to watch in the one set up. The lab sets it up (`Msg::Try`); this offers, tells,
//! and brings what the experiment is about into view on the stage (on a phone it is a screen or
//! more above the list).

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::Msg;
use crate::lang::LocalizedText;

#[derive(Properties, PartialEq, Clone)]
pub(crate) struct ThingsToTryProps {
    /// Each experiment's title, in the scenario's order.
    pub(crate) titles: Vec<LocalizedText>,
    /// The one set up and what to watch in it.
    pub(crate) trying: Option<(usize, LocalizedText)>,
    /// What the one set up is about: the stage's `data-spot` tokens (`View::trying_subjects`).
    pub(crate) subjects: Vec<String>,
    pub(crate) lab: Callback<Msg>,
}

#[function_component(ThingsToTry)]
pub(crate) fn things_to_try(p: &ThingsToTryProps) -> Html {
    let lang = super::use_lang();
    let ids = super::ids::use_ids();
    let heading = ids.id("try-heading");
    let node = use_node_ref();
    // Each click, once the lab has set it up and drawn it: its subjects come into view.
    let clicks = use_state(|| 0u32);
    {
        let (node, subjects) = (node.clone(), p.subjects.clone());
        use_effect_with(*clicks, move |&n| {
            let timer = (n > 0)
                .then(|| gloo_timers::callback::Timeout::new(0, move || show(&node, &subjects)));
            move || drop(timer)
        });
    }
    let buttons = p.titles.iter().enumerate().map(|(i, title)| {
        let on = p.trying.as_ref().is_some_and(|(t, _)| *t == i);
        let onclick = {
            let (lab, clicks) = (p.lab.clone(), clicks.clone());
            Callback::from(move |_: MouseEvent| {
                lab.emit(Msg::Try(i));
                clicks.set(*clicks + 1);
            })
        };
        let label = if on { lang.pick("Start it again: ", "重新开始：") } else { "" };
        html! {
            <li><button class={classes!("small", on.then_some("on"))} aria-pressed={on.to_string()} {onclick}
                title={on.then(|| lang.pick("Set it up again from the start", "从头再设置一次"))}>
                <span class="sr-only">{ label }</span>{ title.get(lang) }</button></li>
        }
    });
    // A live region that is always there: a change of its text is announced.
    let watch = p.trying.as_ref().map(|(_, w)| w.get(lang).to_string());
    html! {
        <div class="try" role="group" aria-labelledby={heading.clone()} ref={node}>
            <h2 id={heading} class="try-heading">{ lang.pick("Things to try", "动手试试") }</h2>
            <ul class="try-list">{ for buttons }</ul>
            <p class="try-watch" role="status">
                if let Some(w) = watch {
                    <strong>{ lang.pick("Watch: ", "请看：") }</strong>{ w }
                }
            </p>
        </div>
    }
}

/// Brings the stage's pictures of `subjects` into view (`reveal`), from the list at `node`.
fn show(node: &NodeRef, subjects: &[String]) {
    let Some(lab) = node.cast::<web_sys::Element>().and_then(|n| n.closest(".lab").ok().flatten())
    else {
        return;
    };
    let els: Vec<web_sys::Element> = subjects
        .iter()
        .filter_map(|s| lab.query_selector_all(&format!(".stage [data-spot~=\"{s}\"]")).ok())
        .flat_map(|list| {
            (0..list.length())
                .filter_map(move |i| list.item(i)?.dyn_into::<web_sys::Element>().ok())
        })
        .filter(|e| e.get_bounding_client_rect().height() > 0.0)
        .collect();
    super::reveal::reveal(&lab, &els, !super::media::prefers_reduced_motion());
}

lazy_component!(pub(crate) LazyThingsToTry(lazy_things_to_try, load_things_to_try) = ThingsToTry [ThingsToTryProps] in panels);
