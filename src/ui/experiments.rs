//! Things to try: the experiments the scenario offers ([`crate::lab::Lab::trying`]), one click
//! each, and what to watch in the one set up. The lab sets it up (`Msg::Try`); this only offers
//! and tells.

use yew::prelude::*;

use crate::lab::Msg;
use crate::lang::LocalizedText;

#[derive(Properties, PartialEq)]
pub(crate) struct ThingsToTryProps {
    /// Each experiment's title, in the scenario's order.
    pub(crate) titles: Vec<LocalizedText>,
    /// The one set up and what to watch in it.
    pub(crate) trying: Option<(usize, LocalizedText)>,
    pub(crate) lab: Callback<Msg>,
}

#[function_component(ThingsToTry)]
pub(crate) fn things_to_try(p: &ThingsToTryProps) -> Html {
    let lang = super::use_lang();
    let ids = super::ids::use_ids();
    let heading = ids.id("try-heading");
    let buttons = p.titles.iter().enumerate().map(|(i, title)| {
        let on = p.trying.as_ref().is_some_and(|(t, _)| *t == i);
        let onclick = p.lab.reform(move |_: MouseEvent| Msg::Try(i));
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
        <div class="try" role="group" aria-labelledby={heading.clone()}>
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
