//! Component test of writing a tour in the page, two labs side by side in shadow roots: "Write a
//! tour" opens the writer's card; a step is added at the moment shown and narrated; "Pick on the
//! stage" takes a click on the stage's apiserver (or Enter on a part) as a pick, in this lab only
//! (the other lab untouched), rather than inspecting it; the file reads as a tour, and its
//! download and link are offered; in Chinese the card speaks Chinese and a step's bad `play` is
//! told by field.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlTextAreaElement};

use kube_bootstrap_lab::ui::mount::mount;

use crate::dom::within::{find, text};
use crate::dom::{options, until_long as until};

/// The element inside a new shadow root that a lab is mounted in.
fn shadow_root() -> Element {
    crate::dom::shadow_root().1
}

fn click(root: &Element, sel: &str) {
    find(root, sel).unwrap_or_else(|| panic!("no {sel}")).dyn_ref::<HtmlElement>().unwrap().click();
}

/// Types `value` into the field `sel` as a reader would (`event`: `input` or `change`).
fn type_in(root: &Element, sel: &str, value: &str, event: &str) {
    let el = find(root, sel).unwrap_or_else(|| panic!("no {sel}"));
    match el.dyn_ref::<HtmlTextAreaElement>() {
        Some(a) => a.set_value(value),
        None => el.dyn_ref::<HtmlInputElement>().unwrap().set_value(value),
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&web_sys::Event::new_with_event_init_dict(event, &init).unwrap()).unwrap();
}

/// A click as a pointer makes it: press, release, click, each bubbling and crossing the shadow
/// root, on the element's middle.
fn press(el: &Element) {
    for kind in ["pointerdown", "mousedown", "click"] {
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init.set_composed(true);
        init.set_cancelable(true);
        el.dispatch_event(&web_sys::Event::new_with_event_init_dict(kind, &init).unwrap()).unwrap();
    }
}

#[wasm_bindgen_test]
async fn a_step_is_written_with_a_part_picked_on_the_stage_of_this_lab_only() {
    let (one, two) = (shadow_root(), shadow_root());
    let _a = mount(one.clone(), options(&[("scenario", "crash-one-of-three")]), None);
    let _b = mount(two.clone(), options(&[("scenario", "crash-one-of-three")]), None);
    until("the labs are drawn", || {
        find(&one, "#write-tour").is_some() && find(&two, "#write-tour").is_some()
    })
    .await;
    click(&one, "#write-tour");
    until("the writer's card opens", || find(&one, ".writer").is_some()).await;
    assert_eq!(text(&one, ".writer-check"), "Add a step to make a tour.");
    assert!(find(&two, ".writer").is_none(), "the other lab is not writing");
    click(&one, "#writer-add");
    until("a step at 0s", || text(&one, ".writer-steps li .writer-wait") == "at 0s").await;
    type_in(&one, "#writer-say-en", "Three apiservers.", "input");
    until("the file reads", || find(&one, ".writer-check.ok").is_some()).await;
    assert!(
        find(&one, "#writer-download").and_then(|a| a.get_attribute("download")).as_deref()
            == Some("my-tour.json")
    );
    let link = find(&one, "#writer-link").and_then(|a| a.get_attribute("href")).unwrap_or_default();
    assert!(link.contains("?tour-file=%7B"), "{link}");

    click(&one, "#writer-pick");
    until("picking", || find(&one, ".lab.picking").is_some()).await;
    let apiserver = find(&one, ".stage [data-spot='apiserver:apiserver-b']")
        .expect("the stage draws apiserver-b");
    press(&apiserver);
    until("the pick is a chip", || text(&one, ".writer-chips").contains("apiserver-b")).await;
    assert!(find(&one, ".inspector").is_none(), "a pick inspects nothing");
    assert!(
        find(&one, ".stage .tour-spot[data-spot='apiserver:apiserver-b']").is_some(),
        "the stage marks the pick"
    );
    // The other lab's stage is its own: a click there is a click, not a pick.
    assert!(find(&two, ".lab.picking").is_none());
    let other = find(&two, ".stage [data-spot='apiserver:apiserver-b']").unwrap();
    press(&other);
    until("the other lab inspects it", || find(&two, ".inspector").is_some()).await;
    assert!(!text(&one, ".writer-chips").contains("apiserver-a"));
    // From the keyboard: Enter on a focused part of the stage picks it. A render may replace
    // the row (the clock plays on): an Enter sent to a row no longer in the page is sent again
    // to the one that is, never twice to the same row (a second pick would unpick it).
    let enter = |row: &Element| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key("Enter");
        init.set_bubbles(true);
        init.set_composed(true);
        init.set_cancelable(true);
        let key = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init);
        row.dispatch_event(&key.unwrap()).unwrap();
    };
    let lease_row = || find(&one, ".stage [data-spot='leases']").expect("a lease row");
    let mut lease = lease_row();
    enter(&lease);
    for _ in 0..300 {
        if text(&one, ".writer-chips").contains("leases in etcd") {
            break;
        }
        if !lease.is_connected() {
            lease = lease_row();
            enter(&lease);
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    until("Enter picks the lease row", || text(&one, ".writer-chips").contains("leases in etcd"))
        .await;
    click(&one, "#writer-pick");
    until("picking ends", || find(&one, ".lab.picking").is_none()).await;
}

#[wasm_bindgen_test]
async fn in_chinese_the_card_speaks_chinese_and_a_bad_play_is_told_by_field() {
    let root = shadow_root();
    let _lab =
        mount(root.clone(), options(&[("scenario", "crash-one-of-three"), ("lang", "zh")]), None);
    until("drawn", || find(&root, "#write-tour").is_some()).await;
    assert_eq!(text(&root, "#write-tour"), "✎ 编写导览");
    click(&root, "#write-tour");
    until("the card", || find(&root, ".writer").is_some()).await;
    assert_eq!(text(&root, ".writer-head h2"), "编写导览");
    click(&root, "#writer-add");
    until("the step's editor", || find(&root, "#writer-play").is_some()).await;
    assert_eq!(
        text(&root, ".writer-check"),
        "还不是有效的导览：steps[0].say: give an \"en\" or a \"zh\" text, or both"
    );
    type_in(&root, "#writer-play", "abc", "change");
    until("the notice names the field", || text(&root, ".notice").contains("play: ")).await;
    type_in(&root, "#writer-say-zh", "三个 apiserver。", "input");
    until("the file reads", || find(&root, ".writer-check.ok").is_some()).await;
    click(&root, "#writer-preview");
    until("the preview shows the step", || text(&root, "#tour-say") == "三个 apiserver。").await;
    click(&root, "#tour-write");
    until("back to writing", || find(&root, ".writer").is_some()).await;
}
