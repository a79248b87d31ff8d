//! The question a written step may ask (`docs/tour.md` §6): whether it asks, the question, two
//! to four answers with the right one marked, and why, each in English and Chinese.

use yew::prelude::*;

use crate::lab::{AskEdit, Authoring, DraftAsk, Lang, Msg, Texts};
use crate::ui::ids::Ids;

/// A callback sending `edit` of step `step`'s question, made from the field's new text.
fn edit(
    lab: &Callback<Msg>,
    step: usize,
    make: impl Fn(String) -> AskEdit + 'static,
) -> Callback<InputEvent> {
    let lab = lab.clone();
    Callback::from(move |e: InputEvent| {
        let value = e
            .target_dyn_into::<web_sys::HtmlInputElement>()
            .map(|i| i.value())
            .or_else(|| e.target_dyn_into::<web_sys::HtmlTextAreaElement>().map(|a| a.value()));
        if let Some(v) = value {
            lab.emit(Msg::Author(Authoring::Ask { step, edit: make(v) }));
        }
    })
}

/// A callback (a click, a radio's change) sending `e` of step `step`'s question.
fn send<E: 'static>(lab: &Callback<Msg>, step: usize, e: AskEdit) -> Callback<E> {
    super::author(lab, Authoring::Ask { step, edit: e })
}

/// One text in both languages, as two labelled inputs.
fn texts(
    t: &Texts,
    label: (&str, &str),
    id: String,
    on: impl Fn(Lang) -> Callback<InputEvent>,
) -> Html {
    html! {
        <div class="writer-pair">
            { for Lang::ALL.iter().map(|&lang| {
                let name = match lang { Lang::En => "English", Lang::Zh => "中文" };
                html! {
                    <input id={format!("{id}-{}", lang.code())} type="text" value={t.get(lang).to_string()} oninput={on(lang)}
                        aria-label={format!("{} ({name})", label.0)} placeholder={format!("{} ({name})", label.1)} lang={lang.code()} />
                }
            }) }
        </div>
    }
}

/// The step's question editor: a switch, then the question's fields when it asks.
pub(super) fn editor(
    step: usize,
    ask: Option<&DraftAsk>,
    t: Lang,
    ids: &Ids,
    lab: &Callback<Msg>,
) -> Html {
    let on = ask.is_some();
    let toggle = send::<Event>(lab, step, AskEdit::On(!on));
    let Some(a) = ask else {
        return html! {
            <label class="writer-check-box"><input id={ids.id("writer-ask")} type="checkbox" checked=false onchange={toggle} />
                { t.pick("Ask the reader to predict first", "先请读者预测") }</label>
        };
    };
    let n = a.answers.len();
    html! {
        <fieldset class="writer-ask">
            <legend><label class="writer-check-box"><input id={ids.id("writer-ask")} type="checkbox" checked=true onchange={toggle} />
                { t.pick("Ask the reader to predict first", "先请读者预测") }</label></legend>
            <p class="writer-hint">{ t.pick("The next step is the moment that answers it.", "下一步就是揭晓答案的时刻。") }</p>
            { texts(&a.question, (t.pick("Question", "问题"), t.pick("Question", "问题")), ids.id("writer-question"),
                |lang| edit(lab, step, move |v| AskEdit::Question(lang, v))) }
            <ol class="writer-answers">
                { for a.answers.iter().enumerate().map(|(k, answer)| html! {
                    <li>
                        <label class="writer-right"><input type="radio" name={ids.id("writer-right")} checked={a.right == k}
                            onchange={send::<Event>(lab, step, AskEdit::Right(k))} />
                            <span class="sr-only">{ t.pick("the right answer", "正确答案") }</span></label>
                        { texts(answer, (t.pick("Answer", "答案"), t.pick("Answer", "答案")), ids.id(&format!("writer-answer-{k}")),
                            |lang| edit(lab, step, move |v| AskEdit::Answer(k, lang, v))) }
                        <button class="small quiet" disabled={n <= 2} aria-label={t.pick("Remove the answer", "移除此答案")}
                            onclick={send::<MouseEvent>(lab, step, AskEdit::RemoveAnswer(k))}>{ "✕" }</button>
                    </li>
                }) }
            </ol>
            if n < 4 {
                <button id={ids.id("writer-add-answer")} class="small" onclick={send::<MouseEvent>(lab, step, AskEdit::AddAnswer)}>
                    { t.pick("+ An answer", "+ 添加答案") }</button>
            }
            { texts(&a.why, (t.pick("Why (what Kubernetes did)", "原因（Kubernetes 做了什么）"), t.pick("Why", "原因")), ids.id("writer-why"),
                |lang| edit(lab, step, move |v| AskEdit::Why(lang, v))) }
        </fieldset>
    }
}
