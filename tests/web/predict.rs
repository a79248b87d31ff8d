//! Predict, then watch, in headless Chromium: the tour card of a step that asks shows the
//! question labelling a group of answers, the arrow keys move among them without moving the
//! tour, an answer picked from the keyboard moves on and the next step opens with the verdict
//! (in a polite live region), and back shows the pick; in English and in Chinese.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement};

use kube_bootstrap_lab::lab::tour::Ask;
use kube_bootstrap_lab::lab::{catalogue, Lang};
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::{by_id, document, exists, settle, text, until, until_long, Mounted};

const TOUR: &str = "lease-crash-vs-stop";

/// The tour's question and the 0-based step that asks it.
fn question() -> (usize, Ask) {
    let tour = catalogue::tour(TOUR).unwrap().unwrap();
    tour.steps
        .iter()
        .enumerate()
        .find_map(|(i, s)| s.ask.clone().map(|a| (i, a)))
        .expect("the tour asks")
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
    until("the tour opens at the question", || {
        exists("tour-progress") && text("tour-progress") == progress(lang, i)
    })
    .await;
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
    assert_eq!(
        text("tour-progress"),
        progress(lang, i),
        "an arrow on an answer does not skip the question"
    );
    // Enter on the focused answer (its click): the tour moves on, the verdict opens the next step.
    press("Enter");
    document().active_element().unwrap().dyn_into::<HtmlElement>().unwrap().click();
    until_long("the next step", || text("tour-progress") == progress(lang, i + 1)).await;
    let live = document()
        .query_selector(".tour-verdict-live")
        .unwrap()
        .expect("the verdict's live region");
    assert_eq!(live.get_attribute("aria-live").as_deref(), Some("polite"));
    let verdict = live.text_content().unwrap();
    assert!(verdict.contains(lang.pick("Right.", "答对了")), "{verdict}");
    assert!(
        verdict.contains(ask.answers[ask.right].get(lang)) && verdict.contains(ask.why.get(lang)),
        "{verdict}"
    );
    assert!(!exists("tour-question"), "the next step asks nothing");
    // Back: the question again, with the pick.
    by_id("tour-back").dyn_into::<HtmlElement>().unwrap().click();
    until("back at the question", || text("tour-progress") == progress(lang, i)).await;
    let pressed: Vec<_> =
        answers().iter().map(|b| b.get_attribute("aria-pressed").unwrap()).collect();
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

/// Starts recording, in `root`, which live regions change and in which batch of changes (one
/// MutationObserver callback: what a render put on the page at once): a region whose
/// `aria-live` is `off` at that moment is said by no screen reader and is not counted.
fn record_live(root: &Element) {
    let install = js_sys::Function::new_with_args(
        "root",
        "window.__live = []; let batch = 0;
         new MutationObserver((records) => {
           batch += 1;
           for (const r of records) {
             const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
             const region = el && el.closest('[aria-live], [role=status], [role=alert], [role=log]');
             if (!region || region.getAttribute('aria-live') === 'off') continue;
             const name = region.id || region.className;
             const last = window.__live[window.__live.length - 1];
             if (!last || last[0] !== batch || last[1] !== name) window.__live.push([batch, name]);
           }
         }).observe(root, { subtree: true, childList: true, characterData: true });",
    );
    install.call1(&wasm_bindgen::JsValue::NULL, root).unwrap();
}

/// The live regions that changed, as (batch, id or class), in order.
fn live_changes() -> Vec<(u32, String)> {
    let list = js_sys::Reflect::get(&web_sys::window().unwrap(), &"__live".into()).unwrap();
    js_sys::Array::from(&list)
        .iter()
        .map(|e| {
            let pair = js_sys::Array::from(&e);
            (pair.get(0).as_f64().unwrap() as u32, pair.get(1).as_string().unwrap())
        })
        .collect()
}

/// Presses Enter on the focused element as a browser does: a keydown, then (unless taken) the
/// click of the button it is on.
fn enter() {
    press("Enter");
    let el = document().active_element().unwrap();
    if el.tag_name() == "BUTTON" {
        el.dyn_into::<HtmlElement>().unwrap().click();
    }
}

#[wasm_bindgen_test]
async fn at_a_question_the_focus_is_on_it_enter_does_not_skip_it_and_the_verdict_is_said_first_and_alone(
) {
    let (i, ask) = question();
    let lang = Lang::En;
    let root = Mounted::<App>::new(yew::props!(AppProps {
        tour: Some(yew::AttrValue::from(TOUR)),
        step: Some(i),
        lang
    }));
    until("the step before the question", || {
        exists("tour-progress") && text("tour-progress") == progress(lang, i - 1)
    })
    .await;
    // Next pressed from the keyboard: the step that asks takes the focus to its question.
    by_id("tour-next").dyn_into::<HtmlElement>().unwrap().focus().unwrap();
    enter();
    until_long("the question", || text("tour-progress") == progress(lang, i)).await;
    settle().await;
    let focused = document().active_element().unwrap();
    let on = format!("{}.{}", focused.tag_name(), focused.class_name());
    let group = focused.class_list().contains("tour-ask");
    let described = focused
        .get_attribute("aria-describedby")
        .map(|d| by_id(&d).text_content().unwrap_or_default());
    // One more Enter, as on every step before: nothing is skipped.
    enter();
    settle().await;
    let still = text("tour-progress");
    // The answer, from the keyboard; the step after it opens with the verdict.
    record_live(&root);
    answers()[ask.right].dyn_ref::<HtmlElement>().unwrap().focus().unwrap();
    enter();
    until_long("the verdict", || text("tour-progress") == progress(lang, i + 1)).await;
    settle().await;
    let changes = live_changes();
    let verdict = document().query_selector(".tour-verdict-live").unwrap().unwrap().id();
    root.remove();
    assert!(group, "the focus is on the question, not on {on}");
    assert!(
        described.is_some_and(|d| ask.answers.iter().all(|a| d.contains(a.get(lang)))),
        "the question is said with its answers"
    );
    assert_eq!(still, progress(lang, i), "Enter at the question does not skip it");
    let at =
        changes.iter().find(|(_, r)| *r == verdict).map(|(b, _)| *b).expect("the verdict is said");
    let batch: Vec<&String> = changes.iter().filter(|(b, _)| *b == at).map(|(_, r)| r).collect();
    assert_eq!(
        batch,
        [&verdict],
        "the verdict is said first and alone when its step opens: {changes:?}"
    );
}
