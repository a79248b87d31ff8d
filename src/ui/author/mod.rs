//! "Write a tour": the card of the tour being written (`lab::author`). The steps with where
//! each arrives, the selected step's editor, the tour's title and file name, whether the file
//! reads as a tour (the tour parser's one line when not), Preview, Download and a link.

mod ask;
mod pick;
mod step;

use std::rc::Rc;

use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::{Arrival, Authoring, Choice, Lang, Msg, StepWait, Writer};
use crate::ui::ids::use_ids;
use crate::ui::use_lang;

/// The writer as the lab holds it: the same one, not an equal one, is no change.
#[derive(Clone)]
pub(crate) struct Shared(pub(crate) Rc<Writer>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq, Clone)]
pub(crate) struct WriterProps {
    pub(crate) writer: Shared,
    pub(crate) now: u64,
    pub(crate) playing: bool,
    /// The predicates that hold at the moment shown (none while playing).
    pub(crate) choices: Rc<Vec<Choice>>,
    pub(crate) apiservers: Rc<Vec<String>>,
    /// The lab's own page, when this instance is embedded in another one (the link goes there).
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
    pub(crate) lab: Callback<Msg>,
}

/// A callback (a click, a change) that sends `m` to the lab.
fn author<E: 'static>(lab: &Callback<Msg>, m: Authoring) -> Callback<E> {
    let lab = lab.clone();
    Callback::from(move |_: E| lab.emit(Msg::Author(m.clone())))
}

#[function_component(WriterCard)]
pub(crate) fn writer_card(p: &WriterProps) -> Html {
    let t = use_lang();
    let ids = use_ids();
    let card = use_node_ref();
    // The step that picking was turned on for: a pick names a part for it, and another step
    // (or none) ends picking. Derived at render, not reset by an effect: yew runs effects late
    // on a busy page, and a late reset undid a reader's later "Pick on the stage".
    let picking_for = use_state(|| None::<usize>);
    let w = &p.writer.0;
    let selected = w.selected();
    let picking = picking_for.is_some() && *picking_for == selected;
    if picking_for.is_some() && !picking {
        picking_for.set(None);
    }
    let on_pick = {
        let lab = p.lab.clone();
        Callback::from(move |spot: String| {
            if let Some(step) = selected {
                lab.emit(Msg::Author(Authoring::Highlight { step, spot, on: true }));
            }
        })
    };
    pick::use_stage_pick(picking, card.clone(), on_pick);
    let on_picking = Callback::from({
        let picking_for = picking_for.clone();
        move |on: bool| picking_for.set(if on { selected } else { None })
    });
    let add = match t {
        Lang::En => format!("+ Add a step here, at {}", format_ms(p.now)),
        Lang::Zh => format!("+ 在此刻（{}）添加一步", format_ms(p.now)),
    };
    html! {
        <div role="region" class="writer" aria-labelledby={ids.id("writer-title")} ref={card}>
            <div class="writer-head">
                <h2 id={ids.id("writer-title")}>{ t.pick("Write a tour", "编写导览") }</h2>
                <button id={ids.id("writer-close")} class="small quiet" onclick={author(&p.lab, Authoring::Close)}>
                    { t.pick("Close", "关闭") }</button>
            </div>
            <p class="writer-how">{ t.pick(
                "Play, pause and act on the cluster as you like: what you do becomes part of the tour's scenario. At any moment, add a step there and say what the reader sees.",
                "随意播放、暂停、操作集群：你的操作会成为导览场景的一部分。在任何时刻都可以在那里添加一步，写下读者看到的内容。") }</p>
            <button id={ids.id("writer-add")} class="primary" onclick={author(&p.lab, Authoring::AddStep)}>{ add }</button>
            { steps(w, t, &p.lab) }
            if let Some(i) = selected.filter(|i| *i < w.draft().steps.len()) {
                <step::StepEditor index={i} step={w.draft().steps[i].clone()} now={p.now} playing={p.playing} choices={p.choices.clone()}
                    apiservers={p.apiservers.clone()} {picking} {on_picking} lab={p.lab.clone()} />
            }
            { tour_fields(w, t, &ids, &p.lab) }
            { outputs(p, t, &ids) }
        </div>
    }
}

/// The steps in tour order: each one's instant and wait, where it arrives when the tour plays
/// (when that is not where it was written), its first words, and its buttons.
fn steps(w: &Writer, t: Lang, lab: &Callback<Msg>) -> Html {
    let n = w.draft().steps.len();
    if n == 0 {
        return html! { <p class="writer-empty">{ t.pick("No step yet.", "还没有步骤。") }</p> };
    }
    html! {
        <ol class="writer-steps">
            { for w.draft().steps.iter().enumerate().map(|(i, s)| {
                let current = w.selected() == Some(i);
                let wait = match &s.wait {
                    StepWait::Instant => format!("{} {}", t.pick("at", "于"), format_ms(s.at_ms)),
                    StepWait::Until { label, .. } => format!("{} {}", t.pick("when", "当"), label.get(t)),
                };
                let arrival = arrival(w.arrivals().get(i), s.at_ms, t);
                let words = [s.say.get(t), s.say.en.as_str(), s.say.zh.as_str()].into_iter().find(|x| !x.trim().is_empty());
                let select = author(lab, Authoring::Select(if current { None } else { Some(i) }));
                html! {
                    <li class={classes!(current.then_some("current"))} data-step={i.to_string()}>
                        <button class="writer-step" aria-expanded={current.to_string()} onclick={select}>
                            <span class="writer-n">{ format!("{}.", i + 1) }</span>
                            <span class="writer-wait">{ wait }</span>
                            <span class="writer-words">{ words.map(str::to_string).unwrap_or_else(|| t.pick("(no narration yet)", "（还没有旁白）").to_string()) }</span>
                        </button>
                        { arrival }
                        <span class="writer-moves">
                            <button class="small quiet" disabled={i == 0} aria-label={t.pick("Move up", "上移")}
                                onclick={author(lab, Authoring::Move { from: i, to: i.saturating_sub(1) })}>{ "↑" }</button>
                            <button class="small quiet" disabled={i + 1 == n} aria-label={t.pick("Move down", "下移")}
                                onclick={author(lab, Authoring::Move { from: i, to: (i + 1).min(n - 1) })}>{ "↓" }</button>
                            <button class="small quiet" aria-label={t.pick("Delete the step", "删除此步")}
                                onclick={author(lab, Authoring::Delete(i))}>{ "✕" }</button>
                        </span>
                    </li>
                }
            }) }
        </ol>
    }
}

/// Where a step arrives when it is not where it was written: earlier (its predicate already
/// held), later (a step before it is later), or never.
fn arrival(a: Option<&Arrival>, written: u64, t: Lang) -> Html {
    let (class, text) = match a {
        Some(Arrival::At(at)) if *at == written => return Html::default(),
        Some(Arrival::At(at)) => {
            ("writer-arrives", format!("{} {}", t.pick("plays at", "播放于"), format_ms(*at)))
        }
        Some(Arrival::Never(why)) => {
            ("writer-never", format!("{} {why}", t.pick("never arrives:", "永远不会出现：")))
        }
        Some(Arrival::NotReached) | None => {
            ("writer-never", t.pick("not reached", "无法到达").to_string())
        }
    };
    html! { <span class={classes!("writer-arrival", class)}>{ text }</span> }
}

/// The tour's title in both languages and its file name.
fn tour_fields(w: &Writer, t: Lang, ids: &crate::ui::ids::Ids, lab: &Callback<Msg>) -> Html {
    let title = |lang: Lang| {
        let lab = lab.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            lab.emit(Msg::Author(Authoring::Title { lang, text: input.value() }));
        })
    };
    let name = {
        let lab = lab.clone();
        Callback::from(move |e: InputEvent| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            lab.emit(Msg::Author(Authoring::Name(input.value())));
        })
    };
    let d = w.draft();
    html! {
        <div class="writer-tour" role="group" aria-label={t.pick("The tour", "导览")}>
            <label class="writer-field">{ t.pick("Title (English)", "标题（英文）") }
                <input id={ids.id("writer-title-en")} type="text" value={d.title.en.clone()} oninput={title(Lang::En)} /></label>
            <label class="writer-field">{ t.pick("Title (Chinese)", "标题（中文）") }
                <input id={ids.id("writer-title-zh")} type="text" value={d.title.zh.clone()} oninput={title(Lang::Zh)} /></label>
            <label class="writer-field">{ t.pick("Name (of the file)", "名称（文件名）") }
                <input id={ids.id("writer-name")} type="text" value={d.name.clone()} oninput={name} spellcheck="false" /></label>
        </div>
    }
}

/// Whether the file reads as a tour, and what to do with it: Preview, Download, the link.
fn outputs(p: &WriterProps, t: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let w = &p.writer.0;
    let file = match w.file() {
        Ok(file) => file,
        Err(_) if w.draft().steps.is_empty() => {
            return html! { <p class="writer-check" role="status">{ t.pick("Add a step to make a tour.", "添加一步即可组成导览。") }</p> };
        }
        Err(why) => {
            let line = match t {
                Lang::En => format!("Not a tour yet: {why}"),
                Lang::Zh => format!("还不是有效的导览：{why}"),
            };
            return html! { <p class="writer-check bad" role="status">{ line }</p> };
        }
    };
    let name = w.draft().name.trim().to_string();
    let download = format!("{}.json", name.replace(['/', '\\'], "-"));
    let href =
        format!("data:application/json;charset=utf-8,{}", crate::lab::share::percent_encode(file));
    let link = w.query(t).map(|q| crate::ui::handout::page_with(p.home.as_deref(), &q));
    html! {
        <>
            <p class="writer-check ok" role="status">{ t.pick("✓ Reads as a tour (what bootstrap-sim tour check accepts).", "✓ 是有效的导览（bootstrap-sim tour check 接受）。") }</p>
            <div class="writer-out">
                <button id={ids.id("writer-preview")} class="primary" onclick={author(&p.lab, Authoring::Preview)}>
                    { t.pick("Preview from the start", "从头预览") }</button>
                <a id={ids.id("writer-download")} class="button" {href} download={download.clone()}>
                    { format!("{} {download}", t.pick("Download", "下载")) }</a>
                if let Some(href) = link {
                    <a id={ids.id("writer-link")} class="button" {href} target="_blank" rel="noopener">
                        { t.pick("Open its link", "打开它的链接") }</a>
                }
            </div>
        </>
    }
}

lazy_component!(pub(crate) LazyWriterCard(lazy_writer_card, load_writer_card) = WriterCard [WriterProps] in panels);
