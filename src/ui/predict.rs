//! Predict, then watch, on the tour card: a step's question with its answers as a group of
//! buttons, and on the step after it the verdict. The lab keeps the answer and decides whether
//! it was right (`lab::predict`); this only shows them.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::tour::Ask;
use crate::lab::{Msg, Verdict};
use crate::lang::{Lang, LocalizedText};

use super::ids::use_ids;
use super::use_lang;

#[derive(Properties, PartialEq)]
pub(crate) struct AskProps {
    pub(crate) ask: Ask,
    /// The answer the reader picked before (going back to the question), if any.
    pub(crate) picked: Option<usize>,
    pub(crate) lab: Callback<Msg>,
}

/// The letter an answer is marked with: A, B, C, D.
fn key(k: usize) -> char {
    char::from(b'A' + k as u8)
}

/// Where the arrow keys, Home and End move the focus among `n` answers from answer `at`.
fn moved(key: &str, at: usize, n: usize) -> Option<usize> {
    match key {
        "ArrowDown" | "ArrowRight" => Some((at + 1) % n),
        "ArrowUp" | "ArrowLeft" => Some((at + n - 1) % n),
        "Home" => Some(0),
        "End" => Some(n - 1),
        _ => None,
    }
}

/// The question labels its group of answers; Tab reaches each answer, the arrows move among
/// them (and are kept from the lab's shortcuts, where → would skip the question), Enter or
/// Space picks one.
#[function_component(AskGroup)]
pub(crate) fn ask_group(p: &AskProps) -> Html {
    let lang = use_lang();
    let ids = use_ids();
    let n = p.ask.answers.len();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        let Some(button) = e.target_dyn_into::<web_sys::Element>().filter(|b| b.class_list().contains("answer")) else { return };
        let at = button.get_attribute("data-answer").and_then(|a| a.parse().ok()).unwrap_or(0);
        let Some(to) = moved(&e.key(), at, n) else { return };
        e.prevent_default();
        let next = button.parent_element().and_then(|g| g.query_selector(&format!("[data-answer=\"{to}\"]")).ok().flatten());
        if let Some(b) = next.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = b.focus();
        }
    });
    let animate = !super::media::prefers_reduced_motion();
    html! {
        <div class="tour-ask" role="group" aria-labelledby={ids.id("tour-question")}>
            <p class="tour-question" id={ids.id("tour-question")}>
                <span class="tour-predict">{ lang.pick("Predict", "先猜一猜") }</span>{ p.ask.question.get(lang) }</p>
            <div class="tour-answers" {onkeydown}>
                { for p.ask.answers.iter().enumerate().map(|(k, answer)| {
                    let cb = p.lab.clone();
                    let onclick = Callback::from(move |_: MouseEvent| cb.emit(Msg::Answer { answer: k, animate }));
                    html! {
                        <button class="answer" data-answer={k.to_string()} aria-pressed={(p.picked == Some(k)).to_string()} {onclick}>
                            <span class="answer-key" aria-hidden="true">{ key(k) }</span>
                            <span>{ answer.get(lang) }</span>
                        </button>
                    }
                }) }
            </div>
        </div>
    }
}

/// What the verdict shows, taken from the lab's [`Verdict`].
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shown {
    pub(crate) right: bool,
    pub(crate) picked: LocalizedText,
    pub(crate) answer: LocalizedText,
    pub(crate) why: LocalizedText,
}

impl From<Verdict<'_>> for Shown {
    fn from(v: Verdict<'_>) -> Self {
        Shown { right: v.right(), picked: v.picked_answer().clone(), answer: v.right_answer().clone(), why: v.why().clone() }
    }
}

fn quoted(lang: Lang, t: &LocalizedText) -> String {
    format!("“{}”", t.get(lang))
}

/// The verdict on the question before, inside a polite live region that is always there (a
/// region added with its text is often not read out).
pub(crate) fn verdict(lang: Lang, id: String, shown: Option<&Shown>) -> Html {
    let body = shown.map(|v| {
        let (mark, head) = match v.right {
            true => ("✓", lang.pick("Right.", "答对了。")),
            false => ("✗", lang.pick("Not quite.", "不对。")),
        };
        let picked = match lang {
            Lang::En => format!("You picked {}.", quoted(lang, &v.picked)),
            Lang::Zh => format!("你选了{}。", quoted(lang, &v.picked)),
        };
        let answer = (!v.right).then(|| match lang {
            Lang::En => format!(" The answer: {}.", quoted(lang, &v.answer)),
            Lang::Zh => format!("正确答案是{}。", quoted(lang, &v.answer)),
        });
        html! {
            <div class={classes!("tour-verdict", if v.right { "right" } else { "wrong" })}>
                <p class="verdict-head">
                    <span class="verdict-mark" aria-hidden="true">{ mark }</span>
                    <strong>{ head }</strong>{ " " }{ picked }{ answer.unwrap_or_default() }</p>
                <p class="verdict-why">{ v.why.get(lang) }</p>
            </div>
        }
    });
    html! { <div class="tour-verdict-live" {id} aria-live="polite">{ body.unwrap_or_default() }</div> }
}
