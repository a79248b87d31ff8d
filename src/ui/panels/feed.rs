//! The feed of Kubernetes events and log lines, newest first, each with what it means.

use std::rc::Rc;

use yew::prelude::*;

use crate::duration::format_ms;
use crate::k8s::event::Event;
use crate::lab::explain::explain;
use crate::lang::Lang;

/// The events so far: the lab's shared log, replaced only when it grew.
#[derive(Properties)]
pub(crate) struct FeedProps {
    pub(crate) events: Rc<Vec<Event>>,
}

impl PartialEq for FeedProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.events, &other.events)
    }
}

#[function_component(EventFeed)]
pub(crate) fn event_feed(p: &FeedProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let latest = p
        .events
        .iter()
        .rev()
        .find_map(|e| explain(e, lang).map(|x| format!("{}: {x}", format_ms(e.time_ms))));
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Events);
    let live = crate::ui::live::use_politeness();
    html! {
        <div role="region" class={classes!("panel", "feed", spot.class())} data-tour-spot={spot.attr()} aria-labelledby={ids.id("h-feed")}>
            <h2 id={ids.id("h-feed")}>{ lang.pick("Events and logs", "事件与日志") }<span class="sub">{ match lang {
                Lang::En => format!("{} so far", p.events.len()),
                Lang::Zh => format!("共 {} 条", p.events.len()),
            } }</span></h2>
            <p class="sr-only" aria-live={live} id={ids.id("feed-live")}>{ latest.unwrap_or_default() }</p>
            // The list scrolls (.feed's max-height): focusable, so a keyboard can scroll it.
            <ol class="events" id={ids.id("events")} tabindex="0" aria-labelledby={ids.id("h-feed")}>
                { for p.events.iter().rev().take(60).map(|e| html! {
                    <li class={classes!("event", e.type_.to_lowercase())}>
                        <div class="meta">
                            <span class="time">{ format_ms(e.time_ms) }</span>
                            if !e.apiserver.is_empty() { <span class="who">{ &e.apiserver }</span> }
                            <span class="component">{ &e.component }</span>
                            if !e.reason.is_empty() { <span class={classes!("badge", e.type_.to_lowercase())}>{ &e.reason }</span> }
                            if !e.object.is_empty() { <code>{ &e.object }</code> }
                        </div>
                        <div class="message"><code>{ &e.message }</code></div>
                        if let Some(x) = explain(e, lang) { <div class="explain">{ x }</div> }
                    </li>
                }) }
            </ol>
        </div>
    }
}
