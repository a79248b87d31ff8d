//! The editor of one written step: its narration in both languages, its wait, the parts it
//! points at (picked on the stage or from a list) and how long it plays on.

use std::rc::Rc;

use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::parts::{Part, Spot};
use crate::lab::{Authoring, Choice, DraftStep, Lang, Msg, StepWait};
use crate::ui::ids::use_ids;
use crate::ui::use_lang;

#[derive(Properties, PartialEq)]
pub(super) struct StepEditorProps {
    pub(super) index: usize,
    pub(super) step: DraftStep,
    pub(super) now: u64,
    pub(super) playing: bool,
    pub(super) choices: Rc<Vec<Choice>>,
    /// The apiservers of the moment shown, which a step may point at one by one.
    pub(super) apiservers: Rc<Vec<String>>,
    pub(super) picking: bool,
    pub(super) on_picking: Callback<bool>,
    pub(super) lab: Callback<Msg>,
}

fn send(lab: &Callback<Msg>, m: Authoring) {
    lab.emit(Msg::Author(m));
}

#[function_component(StepEditor)]
pub(super) fn step_editor(p: &StepEditorProps) -> Html {
    let t = use_lang();
    let ids = use_ids();
    let i = p.index;
    let say = |lang: Lang| {
        let lab = p.lab.clone();
        Callback::from(move |e: InputEvent| {
            let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() else { return };
            send(&lab, Authoring::Say { step: i, lang, text: area.value() });
        })
    };
    let play = {
        let lab = p.lab.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            send(&lab, Authoring::Play { step: i, play: input.value() });
        })
    };
    let heading = match t {
        Lang::En => format!("Step {}", i + 1),
        Lang::Zh => format!("第 {} 步", i + 1),
    };
    html! {
        <div class="writer-edit" role="group" aria-labelledby={ids.id("writer-edit-title")}>
            <h3 id={ids.id("writer-edit-title")}>{ heading }</h3>
            <label class="writer-field">{ t.pick("Narration (English)", "旁白（英文）") }
                <textarea id={ids.id("writer-say-en")} rows="3" value={p.step.say.en.clone()} oninput={say(Lang::En)} /></label>
            <label class="writer-field">{ t.pick("Narration (Chinese)", "旁白（中文）") }
                <textarea id={ids.id("writer-say-zh")} rows="3" value={p.step.say.zh.clone()} oninput={say(Lang::Zh)} /></label>
            { wait(p, t, &ids) }
            { highlights(p, t, &ids) }
            { super::ask::editor(i, p.step.ask.as_ref(), t, &ids, &p.lab) }
            <label class="writer-field writer-play">{ t.pick("Then plays on for (e.g. 15s; empty: stays)", "然后继续播放（如 15s；留空则停住）") }
                <input id={ids.id("writer-play")} type="text" inputmode="text" size="8" placeholder="15s"
                    value={p.step.play_ms.map(format_ms).unwrap_or_default()} onchange={play} /></label>
        </div>
    }
}

/// The step's wait: its instant, or a predicate that holds at the moment shown.
fn wait(p: &StepEditorProps, t: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let i = p.index;
    let onchange = {
        let lab = p.lab.clone();
        Callback::from(move |e: Event| {
            let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else { return };
            let choice = s.value().parse::<usize>().ok();
            send(&lab, Authoring::Wait { step: i, choice });
        })
    };
    let chosen = match &p.step.wait {
        StepWait::Until { until, .. } => {
            p.choices.iter().position(|c| &c.until == until).map(|k| k.to_string())
        }
        StepWait::Instant if p.step.at_ms == p.now => Some("now".to_string()),
        StepWait::Instant => None,
    };
    let here = format_ms(p.now);
    let kept = match &p.step.wait {
        StepWait::Until { label, .. } => format!("{} {}", t.pick("when", "当"), label.get(t)),
        StepWait::Instant => format!("{} {}", t.pick("at", "于"), format_ms(p.step.at_ms)),
    };
    html! {
        <div class="writer-field">
            <label for={ids.id("writer-wait")}>{ t.pick("Shows", "出现于") }</label>
            <select id={ids.id("writer-wait")} {onchange}>
                if chosen.is_none() {
                    <option value="" selected=true disabled=true>{ kept }</option>
                }
                <option value="now" selected={chosen.as_deref() == Some("now")}>
                    { format!("{} {here} ({})", t.pick("at", "于"), t.pick("this instant", "此刻")) }</option>
                { for p.choices.iter().enumerate().map(|(k, c)| html! {
                    <option value={k.to_string()} selected={chosen.as_deref() == Some(k.to_string().as_str())}>
                        { format!("{} {}", t.pick("when", "当"), c.label.get(t)) }</option>
                }) }
            </select>
            if p.playing {
                <p class="writer-hint">{ t.pick("Pause to choose a condition that holds at that moment.", "暂停后即可选择此刻成立的条件。") }</p>
            } else if p.step.at_ms != p.now {
                <p class="writer-hint">{ match t {
                    Lang::En => format!("The clock is at {here}: a wait chosen now moves the step here."),
                    Lang::Zh => format!("时钟在 {here}：现在选择的等待条件会把这一步移到此刻。"),
                } }</p>
            }
        </div>
    }
}

/// The parts the step points at, each removable; more picked on the stage or from a list.
fn highlights(p: &StepEditorProps, t: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let i = p.index;
    let toggle = |spot: String, on: bool| {
        let lab = p.lab.clone();
        Callback::from(move |_: MouseEvent| {
            send(&lab, Authoring::Highlight { step: i, spot: spot.clone(), on })
        })
    };
    let add = {
        let lab = p.lab.clone();
        Callback::from(move |e: Event| {
            let Some(s) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else { return };
            if !s.value().is_empty() {
                send(&lab, Authoring::Highlight { step: i, spot: s.value(), on: true });
                s.set_value("");
            }
        })
    };
    let picking = p.picking;
    let pick = p.on_picking.reform(move |_: MouseEvent| !picking);
    let label =
        |name: &str| name.parse::<Spot>().map(|s| s.label(t)).unwrap_or_else(|_| name.to_string());
    let parts = Part::ALL
        .iter()
        .map(|p| p.to_string())
        .chain(p.apiservers.iter().map(|a| format!("apiserver:{a}")));
    let parts: Vec<String> = parts.filter(|n| !p.step.highlight.contains(n)).collect();
    html! {
        <div class="writer-field" role="group" aria-labelledby={ids.id("writer-spots")}>
            <span id={ids.id("writer-spots")}>{ t.pick("Points at", "指向") }</span>
            <ul class="writer-chips">
                { for p.step.highlight.iter().map(|name| html! {
                    <li><span>{ label(name) }</span>
                        <button class="small quiet" aria-label={format!("{} {}", t.pick("Remove", "移除"), label(name))}
                            onclick={toggle(name.clone(), false)}>{ "✕" }</button></li>
                }) }
            </ul>
            <div class="writer-row">
                <button id={ids.id("writer-pick")} class="small" aria-pressed={picking.to_string()} onclick={pick}>
                    { if picking { t.pick("Done picking", "完成选取") } else { t.pick("Pick on the stage", "在舞台上选取") } }</button>
                <select id={ids.id("writer-add-spot")} onchange={add} aria-label={t.pick("Add a part", "添加部件")}>
                    <option value="" selected=true>{ t.pick("Add a part…", "添加部件…") }</option>
                    { for parts.iter().map(|n| html! { <option value={n.clone()}>{ label(n) }</option> }) }
                </select>
            </div>
            if picking {
                <p class="writer-hint" role="status">{ t.pick("Click a part of the stage to point at it.", "点击舞台上的部件来指向它。") }</p>
            }
        </div>
    }
}
