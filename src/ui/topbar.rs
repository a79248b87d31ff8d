//! The lab's top bar: the brand, the tour tools (the tour picker, "Print this tour", "Write a
//! tour"), the language switch and the configuration form. What each offers depends on what the
//! lab shows: a tour, the story, a tour being written or previewed.

use yew::prelude::*;

use super::config::ConfigForm;
use super::{handout, ids, tour, Settings, STORY};
use crate::lab::{Msg, View};
use crate::lang::Lang;

/// The brand, the tour and scenario pickers, the language switch and the configuration form.
pub(super) fn topbar(
    view: &View,
    send: &Callback<Msg>,
    ids: &ids::Ids,
    home: Option<&str>,
    minimal: bool,
) -> Html {
    let t = view.lang;
    let guide = view.touring.guide.as_ref();
    let on_lang = send.reform(|e: Event| {
        let picked =
            e.target_dyn_into::<web_sys::HtmlSelectElement>().and_then(|s| Lang::parse(&s.value()));
        Msg::SetLang(picked.unwrap_or_default())
    });
    html! {
        <div class="topbar">
            <div class="brand">
                <h1>{ "kube-bootstrap-lab" }</h1>
                if t == Lang::Zh {
                    <p class="lede">{ "kube-apiserver 如何让它自己的 " }<code>{ "default/kubernetes" }</code>
                        { " Service 一直存在。动手破坏，看它如何恢复。" }</p>
                } else {
                    <p class="lede">{ "How kube-apiserver keeps its own " }<code>{ "default/kubernetes" }</code>
                        { " Service alive. Break things and watch." }</p>
                }
            </div>
            <div class="tour-tools">
                <tour::TourPicker current={guide.map(|g| AttrValue::from(g.tour.name.clone()))}
                    own={guide.filter(|_| view.touring.own).map(|g| g.tour.title.clone())} lab={send.clone()} />
                { print_link(view, home) }
                if !minimal && !view.writing {
                    { write_button(view, send, ids) }
                }
            </div>
            <label class="lang-switch">
                <span class="sr-only">{ t.pick("Language", "语言") }</span>
                <select id={ids.id("lang")} onchange={on_lang} aria-label={t.pick("Language", "语言")}>
                    <option value="en" selected={t == Lang::En}>{ "English" }</option>
                    <option value="zh" selected={t == Lang::Zh}>{ "中文" }</option>
                </select>
            </label>
            <ConfigForm current={view.scenario.name.clone()} lab={send.clone()} running={Settings::of(&view.scenario)}
                current_title={view.scenario.title.as_ref().map(|title| AttrValue::from(title.get(t).to_string()))} />
        </div>
    }
}

/// "Write a tour" (or go on with the one written so far); in a tour, "Edit this tour": the
/// sandbox becomes the author's.
fn write_button(view: &View, send: &Callback<Msg>, ids: &ids::Ids) -> Html {
    use crate::lab::Authoring;
    let t = view.lang;
    let previewing = view.touring.previewing;
    let started = view.writer.as_ref().is_some_and(|w| !w.draft().steps.is_empty());
    // The story an untouched page plays is the lab's welcome: from it, one writes one's own.
    let guide = view.touring.guide.as_ref();
    let touring = guide.is_some_and(|g| g.tour.name != STORY || view.touring.own);
    let (msg, label, title) = match (touring && !previewing, started) {
        (true, _) => (
            Authoring::EditTour,
            t.pick("✎ Edit this tour", "✎ 编辑此导览"),
            match started {
                true => t.pick(
                    "Go on writing this tour in the page (it replaces the tour you were writing)",
                    "在页面中继续编写此导览（会替换你正在编写的导览）",
                ),
                false => t.pick(
                    "Go on writing this tour in the page, then download it or share its link",
                    "在页面中继续编写此导览，然后下载或分享链接",
                ),
            },
        ),
        (false, true) => (
            Authoring::Open,
            t.pick("✎ Go on writing", "✎ 继续编写"),
            t.pick("Back to the tour you are writing", "回到你正在编写的导览"),
        ),
        (false, false) => (
            Authoring::Open,
            t.pick("✎ Write a tour", "✎ 编写导览"),
            t.pick(
                "Write your own tour over what you play here, then download it or share its link",
                "在这里边操作边编写你自己的导览，然后下载或分享链接",
            ),
        ),
    };
    let onclick = send.reform(move |_: MouseEvent| Msg::Author(msg.clone()));
    html! { <button id={ids.id("write-tour")} class="small write-tour" {onclick} {title}>{ label }</button> }
}

/// "Print this tour": the handout of the tour being taken (`?tour=NAME&print`, a trainer's
/// `?tour-src=URL&print`), on the lab's own page; from an embed in a tab of its own, leaving the
/// host page where it is. None for a tour given inline (no address to open it by).
fn print_link(view: &View, home: Option<&str>) -> Html {
    // The story an untouched page plays is the lab's welcome, not a lesson to hand out.
    let touring = &view.touring;
    let story = touring.guide.as_ref().is_some_and(|g| g.tour.name == STORY) && !touring.own;
    let Some(query) = touring.print_query.clone().filter(|_| !story) else {
        return Html::default();
    };
    let t = view.lang;
    let href = handout::page_with(home, &query);
    html! {
        <a class="print-tour" {href} target={home.map(|_| "_blank")} rel={home.map(|_| "noopener")}
            title={t.pick("Every step of this tour with the stage at its moment, to print or save as PDF",
                "本导览的每一步及其时刻的舞台，可打印或另存为 PDF")}>
            // A narrow bar shows "Print" alone, on the tour menu's row.
            { t.pick("Print", "打印") }<span class="long">{ t.pick(" this tour", "此导览") }</span></a>
    }
}
