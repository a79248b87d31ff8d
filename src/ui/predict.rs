//! Predict, then watch, on the tour card: a step's question with its answers as a group of
//! buttons, and on the step after it the verdict. The lab keeps the answer and decides whether
//! it was right (`lab::predict`); this only shows them.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::tour::Ask;
use crate::lab::{Held, Msg, Verdict};
use crate::lang::{Lang, LocalizedText};

use super::ids::use_ids;
use super::use_lang;

#[derive(Properties, PartialEq)]
pub(crate) struct AskProps {
    pub(crate) ask: Ask,
    /// The answer the reader picked before (going back to the question), if any.
    pub(crate) picked: Option<usize>,
    /// Why the clock stopped at the question (Play, the scrubber), if it did.
    #[prop_or_default]
    pub(crate) held: Option<Held>,
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

/// The question labels its group of answers, which describe it: the group takes the focus
/// when the step opens (a screen reader says the question with its answers; Enter there picks
/// nothing and skips nothing). Tab reaches each answer, the arrows move among them (from the
/// group, to the first or the last; kept from the lab's shortcuts, where → would move on),
/// Enter or Space picks one. While it waits for an answer, a polite note says why the clock
/// stopped there.
#[function_component(AskGroup)]
pub(crate) fn ask_group(p: &AskProps) -> Html {
    let lang = use_lang();
    let ids = use_ids();
    let n = p.ask.answers.len();
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        let Some(el) = e.target_dyn_into::<web_sys::Element>() else { return };
        let (group, at) = match el.class_list().contains("answer") {
            true => (
                el.closest(".tour-ask").ok().flatten(),
                el.get_attribute("data-answer").and_then(|a| a.parse().ok()).unwrap_or(0),
            ),
            // From the group itself, → and ↓ go to the first answer, ← and ↑ to the last.
            false if el.class_list().contains("tour-ask") => (Some(el), n - 1),
            false => return,
        };
        let Some(to) = moved(&e.key(), at, n) else { return };
        e.prevent_default();
        let next =
            group.and_then(|g| g.query_selector(&format!("[data-answer=\"{to}\"]")).ok().flatten());
        if let Some(b) = next.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = b.focus();
        }
    });
    let animate = !super::media::prefers_reduced_motion();
    let waits = p.picked.is_none();
    html! {
        <div class="tour-ask" role="group" aria-labelledby={ids.id("tour-question")} aria-describedby={ids.id("tour-answers")}
            tabindex="-1" data-waits={waits.then_some("true")} {onkeydown}>
            <p class="tour-question" id={ids.id("tour-question")}>
                <span class="tour-predict">{ lang.pick("Predict", "先猜一猜") }</span>{ p.ask.question.get(lang) }</p>
            <p class="tour-held" id={ids.id("tour-held")} role="status">{ held(lang, p.held.filter(|_| waits)) }</p>
            <div class="tour-answers" id={ids.id("tour-answers")}>
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

/// Why the clock stands at the question, when the reader tried to move it on.
fn held(lang: Lang, held: Option<Held>) -> &'static str {
    match held {
        None => "",
        Some(Held::Play) => lang.pick(
            "The clock waits here: playing on would show the answer. Answer first, or skip the question.",
            "时钟停在这里：继续播放就会揭晓答案。请先作答，或跳过此题。",
        ),
        Some(Held::Seek) => lang.pick(
            "The clock went back to the question: what comes after it shows the answer. Answer first, or skip the question.",
            "时钟回到了提问的时刻：之后的画面会揭晓答案。请先作答，或跳过此题。",
        ),
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
        Shown {
            right: v.right(),
            picked: v.picked_answer().clone(),
            answer: v.right_answer().clone(),
            why: v.why().clone(),
        }
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
