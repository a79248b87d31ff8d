//! Predict, then watch, in headless Chromium: the tour card of a step that asks shows the
//! question labelling a group of answers, the arrow keys move among them without moving the
//! tour, an answer picked from the keyboard moves on and the next step opens with the verdict
//! (in a polite live region), and back shows the pick; in English and in Chinese.
#![cfg(all(target_arch = "wasm32", feature = "web"))]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use kube_bootstrap_lab::lab::tour::Ask;
use kube_bootstrap_lab::lab::{catalogue, Lang};
use kube_bootstrap_lab::ui::{App, AppProps};

wasm_bindgen_test_configure!(run_in_browser);

#[path = "support/dom.rs"]
mod dom;
use dom::{by_id, document, exists, settle, text, until, until_long, Mounted};

const TOUR: &str = "lease-crash-vs-stop";

/// The tour's question and the 0-based step that asks it.
fn question() -> (usize, Ask) {
    let tour = catalogue::tour(TOUR).unwrap().unwrap();
    tour.steps.iter().enumerate().find_map(|(i, s)| s.ask.clone().map(|a| (i, a))).expect("the tour asks")
}

fn progress(lang: Lang, i: usize) -> String {
    match lang {
        Lang::En => format!("Step {} of 6", i + 1),
        Lang::Zh => format!("第 {} 步，共 6 步", i + 1),
    }
}

fn answers() -> Vec<Element> {
    let found = document().query_selector_all(".tour-ask button.answer").unwrap();
    (0..found.length()).map(|i| found.item(i).unwrap().dyn_into().unwrap()).collect()
}

/// Presses `k` on the focused element, as a keyboard sends it.
fn press(k: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let e = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().active_element().unwrap().dispatch_event(&e).unwrap();
}

fn focused_answer() -> Option<String> {
    document().active_element().and_then(|e| e.get_attribute("data-answer"))
}

async fn asks_and_answers_by_keyboard(lang: Lang) {
    let (i, ask) = question();
    let root = Mounted::<App>::new(yew::props!(AppProps {
        tour: Some(yew::AttrValue::from(TOUR)),
        step: Some(i + 1),
        lang,
    }));
    until("the tour opens at the question", || exists("tour-progress") && text("tour-progress") == progress(lang, i)).await;
    // The question labels the group of answers, each in the reader's language.
    let group = document().query_selector(".tour-ask").unwrap().expect("the card asks");
    assert_eq!(group.get_attribute("role").as_deref(), Some("group"));
    let label = by_id(&group.get_attribute("aria-labelledby").unwrap());
    assert!(label.text_content().unwrap().contains(ask.question.get(lang)));
    let buttons = answers();
    assert_eq!(buttons.len(), ask.answers.len());
    for (b, a) in buttons.iter().zip(&ask.answers) {
        assert!(b.text_content().unwrap().contains(a.get(lang)));
        assert_eq!(b.get_attribute("aria-pressed").as_deref(), Some("false"));
    }
    let skip = text("tour-next");
    assert!(skip.contains(lang.pick("Skip", "跳过")), "{skip}");
    // The arrows move among the answers (wrapping), Home and End to the ends: never the tour.
    buttons[0].dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
    press("ArrowUp");
    assert_eq!(focused_answer(), Some((ask.answers.len() - 1).to_string()));
    press("Home");
    for _ in 0..ask.right {
        press("ArrowRight");
    }
    assert_eq!(focused_answer(), Some(ask.right.to_string()));
    settle().await;
    assert_eq!(text("tour-progress"), progress(lang, i), "an arrow on an answer does not skip the question");
    // Enter on the focused answer (its click): the tour moves on, the verdict opens the next step.
    press("Enter");
    document().active_element().unwrap().dyn_into::<HtmlElement>().unwrap().click();
    until_long("the next step", || text("tour-progress") == progress(lang, i + 1)).await;
    let live = document().query_selector(".tour-verdict-live").unwrap().expect("the verdict's live region");
    assert_eq!(live.get_attribute("aria-live").as_deref(), Some("polite"));
    let verdict = live.text_content().unwrap();
    assert!(verdict.contains(lang.pick("Right.", "答对了")), "{verdict}");
    assert!(verdict.contains(ask.answers[ask.right].get(lang)) && verdict.contains(ask.why.get(lang)), "{verdict}");
    assert!(!exists("tour-question"), "the next step asks nothing");
    // Back: the question again, with the pick.
    by_id("tour-back").dyn_into::<HtmlElement>().unwrap().click();
    until("back at the question", || text("tour-progress") == progress(lang, i)).await;
    let pressed: Vec<_> = answers().iter().map(|b| b.get_attribute("aria-pressed").unwrap()).collect();
    let next = text("tour-next");
    let empty = live.text_content().unwrap();
    root.remove();
    assert_eq!(pressed.iter().position(|p| p == "true"), Some(ask.right), "{pressed:?}");
    assert!(next.contains(lang.pick("Next", "下一步")), "answered, Next is Next: {next}");
    assert!(empty.is_empty(), "no verdict on the question's own step: {empty}");
}

#[wasm_bindgen_test]
async fn the_card_asks_and_an_answer_picked_by_keyboard_moves_on_to_the_verdict() {
    asks_and_answers_by_keyboard(Lang::En).await;
}

#[wasm_bindgen_test]
async fn in_chinese_too() {
    asks_and_answers_by_keyboard(Lang::Zh).await;
}
