//! The keyboard and the focus: the lab's shortcuts (scoped to the app, from any of its buttons,
//! never from a field), the scenario and tour menus that load on commit, and the focus, which
//! never falls to the page's body (the last tour step, leaving a tour, starting one, closing the
//! inspector).

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

use kube_bootstrap_lab::ui::{App, AppProps};

use crate::app::{click_id, mount};
use crate::dom::{
    button_in, by_id, document, exists, keydown, seek, set_input, settle, text, until, Mounted,
};

#[wasm_bindgen_test]
async fn keyboard_shortcuts_are_scoped_to_the_app() {
    let root = mount(None).await;
    let lab = root.query_selector(".lab").unwrap().unwrap();
    let key = |k: &str| {
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(k);
        init.set_bubbles(true);
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
    };
    // Each key is waited for: a loaded machine (or the bitmaps of the tests before, still
    // painting) can delay a render past a fixed pause.
    let pressed = || by_id("play").get_attribute("aria-pressed");
    let before = text("speed-label");
    lab.dispatch_event(&key("]")).unwrap();
    until("] speeds up", || text("speed-label") != before).await;
    lab.dispatch_event(&key("ArrowRight")).unwrap();
    until("→ steps to the next event", || text("clock") != "t = 0s").await;
    lab.dispatch_event(&key(" ")).unwrap();
    until("space plays", || pressed().as_deref() == Some("true")).await;
    lab.dispatch_event(&key(" ")).unwrap();
    until("space pauses", || pressed().as_deref() == Some("false")).await;
    // Outside the app the same keys do nothing.
    document().body().unwrap().dispatch_event(&key(" ")).unwrap();
    settle().await;
    assert_eq!(by_id("play").get_attribute("aria-pressed").as_deref(), Some("false"));
    root.remove();
}

/// Focuses `el` and presses `k` there (a keydown on the focused element, as a keyboard sends it).
fn press_on(el: &Element, k: &str) {
    el.dyn_ref::<web_sys::HtmlElement>().unwrap().focus().unwrap();
    el.dispatch_event(&keydown(k)).unwrap();
}

/// The id of the element with the focus.
fn focused_id() -> String {
    document().active_element().map(|e| e.id()).unwrap_or_default()
}

/// The id of the element the focus lands on, once it lands on one with an id: the app moves it
/// in an effect after a render, later than a fixed pause on a loaded machine (a fresh run read
/// the body's empty id there). Fails naming `what` when it never does.
async fn focus_lands(what: &str) -> String {
    until(what, || !focused_id().is_empty()).await;
    focused_id()
}

#[wasm_bindgen_test]
async fn shortcuts_work_with_the_focus_on_any_button_of_the_lab_but_not_in_a_field() {
    let root = mount(None).await;
    until("the app is mounted", || exists("kubernetes-ip")).await;
    let pressed = || by_id("play").get_attribute("aria-pressed");
    // Focus reached by Tab: a button of an apiserver's card, never clicked.
    let crash = button_in("apiserver-apiserver-a", "Crash");
    let before = text("speed-label");
    press_on(&crash, "]");
    until("] speeds up from a focused button", || text("speed-label") != before).await;
    press_on(&crash, "ArrowRight");
    until("→ steps from a focused button", || text("clock") != "t = 0s").await;
    // Space and Enter on a button are the button's: the lab does not play.
    press_on(&crash, " ");
    press_on(&crash, "Enter");
    settle().await;
    let after_space = pressed();
    // The card's own text (no control) leaves Space to the lab.
    let name = root.query_selector("#apiserver-apiserver-a strong").unwrap().unwrap();
    name.dispatch_event(&keydown(" ")).unwrap();
    until("space plays from the card's text", || pressed().as_deref() == Some("true")).await;
    click_id("play").await;
    // Typed into a field, the keys are the field's.
    let speed = text("speed-label");
    let clock = text("clock");
    press_on(&by_id("svc-name"), "]");
    press_on(&by_id("svc-name"), "ArrowRight");
    press_on(&by_id("svc-name"), " ");
    settle().await;
    let (speed_after, clock_after, playing) = (text("speed-label"), text("clock"), pressed());
    root.remove();
    assert_eq!(after_space.as_deref(), Some("false"), "space on a focused button is the button's");
    assert_eq!(
        (speed_after, clock_after),
        (speed, clock),
        "keys typed into a field are the field's"
    );
    assert_eq!(playing.as_deref(), Some("false"));
}

#[wasm_bindgen_test]
async fn the_scenario_and_tour_menus_load_on_commit_not_on_each_arrow_key() {
    let root = mount(None).await;
    until("the app is mounted", || exists("kubernetes-ip")).await;
    seek(10_000).await;
    // The focus moves on, as Tab takes it: the menu gets a real `focusout`.
    let leave_menu =
        || by_id("configure").dyn_into::<web_sys::HtmlElement>().unwrap().focus().unwrap();
    // Arrow keys move the choice (a browser fires `change` for each): nothing loads yet.
    press_on(&by_id("scenario-pick"), "ArrowDown");
    set_input("scenario-pick", "crash-vs-graceful-stop", "change").await;
    settle().await;
    let pending = text("clock");
    // Enter loads it.
    press_on(&by_id("scenario-pick"), "Enter");
    until("Enter loads the scenario", || text("clock") == "t = 0s").await;
    // Leaving the menu with another value loads it too.
    seek(10_000).await;
    press_on(&by_id("scenario-pick"), "ArrowDown");
    set_input("scenario-pick", "etcd-outage-and-recovery", "change").await;
    settle().await;
    let pending_again = text("clock");
    leave_menu();
    until("leaving the menu loads the scenario", || text("clock") == "t = 0s").await;
    // Escape puts back the loaded one.
    press_on(&by_id("scenario-pick"), "ArrowUp");
    set_input("scenario-pick", "crash-one-of-three", "change").await;
    press_on(&by_id("scenario-pick"), "Escape");
    let select =
        || by_id("scenario-pick").dyn_into::<web_sys::HtmlSelectElement>().unwrap().value();
    let restored = select();
    leave_menu();
    // The tour menu: an arrow key keeps the choice pending, Enter starts the tour.
    press_on(&by_id("tour-pick"), "ArrowDown");
    set_input("tour-pick", "kubernetes-service", "change").await;
    settle().await;
    let tour_pending = exists("tour-title");
    press_on(&by_id("tour-pick"), "Enter");
    until("Enter starts the tour", || exists("tour-title")).await;
    root.remove();
    assert_eq!(pending, "t = 10s", "an arrow key's change loads nothing");
    assert_eq!(pending_again, "t = 10s");
    assert_eq!(restored, "etcd-outage-and-recovery", "Escape puts back the loaded scenario");
    assert!(!tour_pending, "an arrow key's change starts no tour");
}

#[wasm_bindgen_test]
async fn the_focus_stays_in_the_lab_on_the_last_tour_step_and_after_leaving() {
    let props = yew::props!(AppProps {
        tour: Some(yew::AttrValue::from("lease-crash-vs-stop")),
        step: Some(5),
    });
    let root = Mounted::<App>::new(props);
    until("the tour opens at step 5", || {
        exists("tour-progress") && text("tour-progress") == "Step 5 of 6"
    })
    .await;
    // Next from the keyboard: the first press may play the clock to the step's instant, a
    // second one lands at once; the button goes away on the last step.
    for _ in 0..2 {
        if exists("tour-next") {
            let next = by_id("tour-next").dyn_into::<web_sys::HtmlElement>().unwrap();
            next.focus().unwrap();
            next.click();
            for _ in 0..100 {
                if !exists("tour-next") {
                    break;
                }
                gloo_timers::future::TimeoutFuture::new(20).await;
            }
        }
    }
    until("the last step", || text("tour-progress") == "Step 6 of 6").await;
    let on_last = focus_lands("the focus lands on the last step").await;
    // Leaving: the focus goes to the tour menu, not to the page's body.
    by_id("tour-leave").dyn_into::<web_sys::HtmlElement>().unwrap().click();
    until("the tour is left", || !exists("tour-title")).await;
    let after_leaving = focus_lands("the focus lands after leaving").await;
    root.remove();
    assert_eq!(on_last, "tour-leave", "Next's place is taken by the way out");
    assert_eq!(after_leaving, "tour-pick");
}

#[wasm_bindgen_test]
async fn the_focus_is_never_dropped_to_the_body_starting_a_tour_or_closing_the_inspector() {
    let root = mount(None).await;
    until("the app is mounted", || exists("tour-start")).await;
    // "Start the guided tour" goes away once the tour starts: the focus goes to its Next.
    let start = by_id("tour-start").dyn_into::<web_sys::HtmlElement>().unwrap();
    start.focus().unwrap();
    start.click();
    until("the tour starts", || exists("tour-progress")).await;
    let after_start = focus_lands("the focus lands after Start").await;
    // The inspector opened from a stage object and closed with Escape: the focus goes back there.
    let object = root.query_selector(".stage [tabindex=\"0\"]").unwrap().unwrap();
    object.unchecked_ref::<web_sys::HtmlElement>().focus().unwrap();
    object.dispatch_event(&keydown("Enter")).unwrap();
    until("the inspector opens", || exists("inspector")).await;
    // The inspector opened by Enter takes the focus (in an effect after its render).
    until("the focus is in the inspector", || {
        document()
            .active_element()
            .is_some_and(|a| a.closest(".inspector").ok().flatten().is_some())
    })
    .await;
    document().active_element().unwrap().dispatch_event(&keydown("Escape")).unwrap();
    until("the inspector closes", || !exists("inspector")).await;
    // Escape gives the focus back to the object that opened it.
    until("the focus is back on the object", || {
        document().active_element().is_some_and(|b| b == object)
    })
    .await;
    root.remove();
    assert_eq!(after_start, "tour-next", "after Start the focus is on the tour's Next");
}
