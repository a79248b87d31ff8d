//! Component tests of the inspector: for an object of each kind, its heading, a detail read from
//! the state, the link to the upstream file at the behaviour's tag (1.29 and 1.35), the
//! apiserver's actions named with it, and Escape or the close button closing it.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;
use yew::Callback;

use kube_bootstrap_lab::contract::event::Event;
use kube_bootstrap_lab::contract::scenario::{Action, ApiserverRef};
use kube_bootstrap_lab::lab::upstream::Subject;
use kube_bootstrap_lab::lab::{Lab, Msg, Opening};
use kube_bootstrap_lab::lab::{Loop, WireOp, Write};
use kube_bootstrap_lab::ui::inspector::{frame_of, Inspector, InspectorProps};

use crate::dom::{self, by_id, click, keydown, settle, text, Mounted};

/// A lab of `scenario` at `ms`.
fn lab_at(scenario: &str, ms: u64) -> Lab {
    let (mut lab, notes) = Lab::open(Opening { scenario: Some(scenario), ..Opening::default() });
    assert!(notes.is_empty(), "{notes:?}");
    lab.update(Msg::Seek(ms));
    lab
}

struct Opened {
    root: Mounted<Inspector>,
    sent: Rc<RefCell<Vec<Msg>>>,
    closed: Rc<RefCell<u32>>,
    picked: Rc<RefCell<Vec<Subject>>>,
}

async fn open(lab: &Lab, subject: Subject) -> Opened {
    let sent = Rc::new(RefCell::new(Vec::new()));
    let closed = Rc::new(RefCell::new(0));
    let picked = Rc::new(RefCell::new(Vec::new()));
    let props = InspectorProps {
        subject,
        frame: frame_of(lab),
        lab: {
            let sent = sent.clone();
            Callback::from(move |m| sent.borrow_mut().push(m))
        },
        on_close: {
            let closed = closed.clone();
            Callback::from(move |()| *closed.borrow_mut() += 1)
        },
        take_focus: true,
        wire: lab.view().wire.clone(),
        on_pick: {
            let picked = picked.clone();
            Callback::from(move |s| picked.borrow_mut().push(s))
        },
    };
    let root = Mounted::new(props);
    settle().await;
    Opened { root, sent, closed, picked }
}

fn hrefs() -> Vec<String> {
    let list = by_id("inspector-sources").query_selector_all("a").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .map(|n| {
            let a: Element = n.dyn_into().unwrap();
            let attr = |name: &str| a.get_attribute(name).unwrap_or_default();
            assert_eq!(
                (attr("target"), attr("rel")),
                ("_blank".to_string(), "noopener".to_string())
            );
            attr("href")
        })
        .collect()
}

fn has_link(tag: &str, path: &str) -> bool {
    let want = format!("https://github.com/kubernetes/kubernetes/blob/{tag}/{path}");
    hrefs().iter().any(|h| h.starts_with(&want))
}

fn details() -> String {
    text("inspector-details")
}

#[wasm_bindgen_test]
async fn an_apiserver_shows_its_state_links_and_actions_named_with_it() {
    let lab = lab_at("crash-vs-graceful-stop", 31_000);
    let o = open(&lab, Subject::Apiserver("apiserver-b".into())).await;
    assert_eq!(text("inspector-title"), "apiserver-b");
    let d = details();
    assert!(d.contains("192.168.10.12") && d.contains("running"), "{d}");
    assert!(d.contains("Lease TTL left14s"), "{d}");
    assert!(has_link("v1.29.0", "pkg/controlplane/controller/kubernetesservice/controller.go"));
    assert!(has_link("v1.29.0", "pkg/controlplane/reconcilers/lease.go"));
    assert!(text("inspector-note").contains("bootstrap controller"));
    let crash: Element = o
        .root
        .query_selector("button[aria-label='Crash apiserver-b']")
        .unwrap()
        .expect("a named Crash");
    assert!(o
        .root
        .query_selector("button[aria-label='Isolate for 30 s apiserver-b']")
        .unwrap()
        .is_some());
    click(crash).await;
    let sent = o.sent.borrow();
    assert!(
        matches!(sent.as_slice(), [Msg::Act(Action::CrashApiserver(ApiserverRef { apiserver }))] if apiserver == "apiserver-b"),
        "{sent:?}"
    );
    drop(sent);
    o.root.remove();
}

#[wasm_bindgen_test]
async fn a_lease_key_shows_its_holder_and_ttl_and_links_to_update_lease() {
    let lab = lab_at("crash-vs-graceful-stop", 31_000);
    let o = open(&lab, Subject::Key("/masterleases/192.168.10.11".into())).await;
    assert_eq!(text("inspector-title"), "/masterleases/192.168.10.11");
    let d = details();
    assert!(d.contains("the lease of apiserver-a") && d.contains("TTL left14s"), "{d}");
    assert!(has_link("v1.29.0", "pkg/controlplane/reconcilers/lease.go"));
    o.root.remove();
}

#[wasm_bindgen_test]
async fn a_bounced_packet_shows_its_sender_loop_and_reason() {
    let lab = lab_at("crash-vs-graceful-stop", 31_000);
    let w = Write {
        time_ms: 31_000,
        key: "/masterleases/192.168.10.11".into(),
        op: WireOp::Bounce,
        sender: "apiserver-a".into(),
        via: Loop::EndpointReconciler,
        reason: Some("context deadline exceeded".into()),
    };
    let o = open(&lab, Subject::Packet(w)).await;
    assert_eq!(text("inspector-title"), "bounced /masterleases/192.168.10.11");
    let d = details();
    assert!(
        d.contains("apiserver-a")
            && d.contains("endpoint reconciler")
            && d.contains("context deadline exceeded"),
        "{d}"
    );
    assert!(text("inspector-note").contains("never reached etcd"));
    o.root.remove();
}

#[wasm_bindgen_test]
async fn allocation_cells_name_their_service_with_the_code_of_their_behaviour() {
    let lab = lab_at("crash-vs-graceful-stop", 31_000);
    let o = open(&lab, Subject::ClusterIp("10.96.0.1".into())).await;
    assert_eq!(text("inspector-title"), "ClusterIP 10.96.0.1");
    assert!(details().contains("default/kubernetes"));
    assert!(has_link("v1.29.0", "pkg/registry/core/service/ipallocator/bitmap.go"));
    assert!(has_link("v1.29.0", "pkg/registry/core/service/ipallocator/controller/repair.go"));
    o.root.remove();

    let lab = lab_at("ipaddress-fresh-cluster-1-35", 10_000);
    let o = open(&lab, Subject::IpAddress("10.96.0.1".into())).await;
    assert_eq!(text("inspector-title"), "IPAddress 10.96.0.1");
    assert!(details().contains("services/default/kubernetes"), "{}", details());
    assert!(has_link("v1.35.0", "pkg/registry/core/service/ipallocator/controller/repairip.go"));
    assert!(!hrefs().iter().any(|h| h.contains("/v1.29.0/")));
    o.root.remove();

    let o = open(&lab, Subject::NodePort(30080)).await;
    assert_eq!(text("inspector-title"), "NodePort 30080");
    assert!(has_link("v1.35.0", "pkg/registry/core/service/portallocator/controller/repair.go"));
    o.root.remove();
}

#[wasm_bindgen_test]
async fn an_event_shows_its_time_component_and_message() {
    let lab = lab_at("crash-vs-graceful-stop", 60_000);
    let e: Event = lab
        .view()
        .events
        .iter()
        .find(|e| !e.message.is_empty())
        .cloned()
        .expect("an event by 60 s");
    let o = open(&lab, Subject::Event(e.clone())).await;
    let d = details();
    assert!(d.contains(&e.component) && d.contains(&e.message), "{d}");
    assert!(hrefs().iter().all(|h| h.contains("/blob/v1.29.0/")));
    o.root.remove();
}

#[wasm_bindgen_test]
async fn escape_and_the_close_button_close_it() {
    let lab = lab_at("crash-vs-graceful-stop", 1_000);
    let o = open(&lab, Subject::Key("/ranges/serviceips".into())).await;
    // It takes the focus (a frame after it is drawn: later on a loaded machine); Escape pressed
    // there closes it.
    let close_focused =
        || dom::document().active_element().is_some_and(|e| e.class_name() == "inspector-close");
    dom::until("the inspector takes the focus, on its close button", close_focused).await;
    let focused = dom::document().active_element().expect("focus");
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    let esc = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    focused.dispatch_event(&esc).unwrap();
    settle().await;
    assert_eq!(*o.closed.borrow(), 1);
    click(o.root.query_selector(".inspector-close").unwrap().unwrap()).await;
    assert_eq!(*o.closed.borrow(), 2);
    assert!(o.sent.borrow().is_empty());
    o.root.remove();
}

#[wasm_bindgen_test]
async fn a_key_lists_the_requests_that_just_reached_it_each_opening_its_packet() {
    // At 20 s every apiserver renews its lease: the lab keeps the requests of that instant.
    let lab = lab_at("crash-vs-graceful-stop", 20_000);
    let key = "/masterleases/192.168.10.12";
    let renewal =
        lab.view().wire.iter().find(|w| w.key == key).cloned().expect("a renewal at 20 s");
    assert_eq!(
        (renewal.sender.as_str(), renewal.op, renewal.via),
        ("apiserver-b", WireOp::Put, Loop::EndpointReconciler)
    );
    let o = open(&lab, Subject::Key(key.into())).await;
    let list = by_id("inspector-requests");
    let buttons = list.query_selector_all("button").unwrap();
    assert_eq!(buttons.length(), 1, "{}", list.text_content().unwrap_or_default());
    let words = text("inspector-requests");
    assert!(
        words.contains("20s")
            && words.contains("apiserver-b")
            && words.contains("PUT")
            && words.contains("endpoint reconciler"),
        "{words}"
    );
    click(buttons.item(0).unwrap().dyn_into::<Element>().unwrap()).await;
    assert_eq!(*o.picked.borrow(), vec![Subject::Packet(renewal)]);
    o.root.remove();
    // A key no request reached just now lists none.
    let o = open(&lab, Subject::Key("/ranges/servicenodeports".into())).await;
    assert!(!dom::exists("inspector-requests"));
    o.root.remove();
}

#[wasm_bindgen_test]
async fn a_grouped_row_lists_the_objects_it_stands_for() {
    let lab = lab_at("crash-vs-graceful-stop", 5_000);
    let o = open(&lab, Subject::Key("/namespaces/*".into())).await;
    let d = details();
    assert!(
        d.contains("default") && d.contains("kube-system") && !d.contains("not in etcd"),
        "{d}"
    );
    o.root.remove();
}

/// Focuses `el`, an HTML or an SVG element (both have `focus()`).
fn focus(el: &Element) {
    el.unchecked_ref::<web_sys::HtmlElement>().focus().unwrap();
}

fn open_now() -> bool {
    dom::document().query_selector(".inspector").unwrap().is_some()
}

#[wasm_bindgen_test]
async fn in_the_lab_it_opens_on_enter_not_on_focus_and_closes_on_escape_from_anywhere_and_when_the_focus_leaves_the_stage(
) {
    use kube_bootstrap_lab::ui::{App, AppProps};
    let root = Mounted::<App>::new(yew::props!(AppProps {
        scenario: Some(yew::AttrValue::from("crash-vs-graceful-stop"))
    }));
    dom::until("the stage", || root.query_selector(".stage [tabindex=\"0\"]").unwrap().is_some())
        .await;
    dom::seek(12_000).await;
    let object = root.query_selector(".stage [tabindex=\"0\"]").unwrap().unwrap();
    let play = by_id("play");
    // Tabbing onto a stage object opens nothing.
    focus(&object);
    settle().await;
    let on_focus = open_now();
    // Enter opens it, with the moment on the clock.
    object.dispatch_event(&keydown("Enter")).unwrap();
    settle().await;
    let on_enter = open_now();
    let now = if dom::exists("inspector-now") { text("inspector-now") } else { String::new() };
    // Escape from anywhere in the lab (here the clock's Play) closes it.
    focus(&play);
    play.dispatch_event(&keydown("Escape")).unwrap();
    settle().await;
    let after_escape = open_now();
    // Opened again, the focus leaving the stage for another part of the lab closes it.
    object.dispatch_event(&keydown("Enter")).unwrap();
    settle().await;
    let reopened = open_now();
    focus(&play);
    for _ in 0..20 {
        if !open_now() {
            break;
        }
        settle().await;
    }
    let after_leaving = open_now();
    root.remove();
    settle().await;
    assert!(!on_focus, "focus alone opens no inspector");
    assert!(on_enter, "Enter opens it");
    assert_eq!(now, "at t = 12s");
    assert!(!after_escape, "Escape on Play closes it");
    assert!(reopened);
    assert!(!after_leaving, "the focus leaving the stage closes it");
}
