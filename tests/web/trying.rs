//! Component test of Things to try: a scenario's experiments are offered one click each under
//! the stage; a click sets one up (the clock a little before its first action, playing) and says
//! what to watch, in the reader's language; the reader's own action leaves it; a tour offers none.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

use kube_bootstrap_lab::lab::share::percent_encode;
use kube_bootstrap_lab::ui::mount::mount;

use crate::dom::within::{all, text};
use crate::dom::{new_root, options, until_long as until};

/// Two apiservers, and two experiments: crash one at 20s, stop it at 20s.
const FILE: &str = r#"{"name": "try-me", "seed": 1, "cluster": {"apiservers": [
  {"name": "apiserver-a", "advertise_address": "192.168.10.11"},
  {"name": "apiserver-b", "advertise_address": "192.168.10.12"}]},
 "experiments": [
  {"title": {"en": "Crash apiserver-b", "zh": "让 apiserver-b 崩溃"}, "watch": {"en": "Its lease stays.", "zh": "它的租约还在。"},
   "steps": [{"at": "20s", "do": "crash_apiserver", "apiserver": "apiserver-b"}]},
  {"title": {"en": "Stop apiserver-b", "zh": "停止 apiserver-b"}, "watch": {"en": "Its lease goes at once.", "zh": "它的租约立刻消失。"},
   "steps": [{"at": "20s", "do": "stop_apiserver", "apiserver": "apiserver-b"}]}]}"#;

fn scrubber(root: &Element) -> u64 {
    let input: HtmlInputElement =
        root.query_selector("input[id$=scrubber]").unwrap().unwrap().dyn_into().unwrap();
    input.value().parse().unwrap()
}

#[wasm_bindgen_test]
async fn an_experiment_is_set_up_by_one_click_and_says_what_to_watch() {
    let root = new_root();
    let link = format!("file={}", percent_encode(FILE));
    let _lab = mount(root.clone(), options(&[("link", &link)]), None);
    until("the experiments are offered", || all(&root, ".try-list button").len() == 2).await;
    let buttons = all(&root, ".try-list button");
    assert_eq!(buttons[0].text_content().unwrap(), "Crash apiserver-b");
    assert_eq!(text(&root, ".try-watch"), "", "nothing to watch before one is set up");
    buttons[1].dyn_ref::<HtmlElement>().unwrap().click();
    until("it says what to watch", || {
        text(&root, ".try-watch") == "Watch: Its lease goes at once."
    })
    .await;
    let on = all(&root, ".try-list button[aria-pressed=true]");
    assert_eq!(on.len(), 1);
    assert!(on[0].text_content().unwrap().ends_with("Stop apiserver-b"));
    assert!(scrubber(&root) >= 17_000, "the clock starts 3 s before the action, playing on");
    // The reader's own action leaves it (the apiservers' buttons act on the lab).
    let crash = root
        .query_selector("button[aria-label='Crash apiserver-a']")
        .unwrap()
        .expect("the apiservers panel offers a crash");
    crash.dyn_ref::<HtmlElement>().unwrap().click();
    until("acting leaves the experiment", || text(&root, ".try-watch").is_empty()).await;
    assert!(all(&root, ".try-list button[aria-pressed=true]").is_empty());
}

#[wasm_bindgen_test]
async fn in_chinese_and_never_in_a_tour() {
    let root = new_root();
    let link = format!("file={}", percent_encode(FILE));
    let _lab = mount(root.clone(), options(&[("link", &link), ("lang", "zh")]), None);
    until("offered in Chinese", || {
        all(&root, ".try-list button").first().and_then(|b| b.text_content()).as_deref()
            == Some("让 apiserver-b 崩溃")
    })
    .await;
    assert_eq!(text(&root, ".try-heading"), "动手试试");
    all(&root, ".try-list button")[0].dyn_ref::<HtmlElement>().unwrap().click();
    until("what to watch, in Chinese", || text(&root, ".try-watch") == "请看：它的租约还在。")
        .await;

    let toured = new_root();
    let _tour = mount(toured.clone(), options(&[("tour", "lease-crash-vs-stop")]), None);
    until("the tour opens", || toured.query_selector(".tour").unwrap().is_some()).await;
    assert!(
        all(&toured, ".try").is_empty(),
        "a tour tells its own story: no experiments beside it"
    );
}
