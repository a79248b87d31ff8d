//! Component tests: mount the app in headless Chromium, act on it, read the DOM.
#![cfg(all(target_arch = "wasm32", feature = "web"))]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlInputElement};

use kube_bootstrap_lab::ui::{facts, App};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn text(id: &str) -> String {
    document().get_element_by_id(id).unwrap().text_content().unwrap()
}

async fn mount() -> web_sys::Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    root
}

async fn settle() {
    gloo_timers::future::TimeoutFuture::new(20).await;
}

async fn submit(cidr: &str) {
    let input: HtmlInputElement = document().get_element_by_id("service-cidr").unwrap().dyn_into().unwrap();
    input.set_value(cidr);
    input.dispatch_event(&web_sys::InputEvent::new("input").unwrap()).unwrap();
    settle().await;
    document().get_element_by_id("apply").unwrap().dyn_into::<HtmlElement>().unwrap().click();
    settle().await;
}

#[wasm_bindgen_test]
async fn shows_the_default_range_and_rejects_a_bad_cidr_without_changing_anything() {
    let root = mount().await;
    assert_eq!(text("kubernetes-ip"), "10.0.0.1");
    assert_eq!(text("node-port-range"), "30000-32767");
    assert!(root.text_content().unwrap().contains("254 usable addresses"));

    submit("10.96.0.0/12").await;
    assert_eq!(text("kubernetes-ip"), "10.96.0.1");
    assert!(root.text_content().unwrap().contains("1048574 usable addresses"));
    assert!(root.text_content().unwrap().contains("static band: 10.96.0.1 – 10.96.1.0 (256 addresses)"));
    assert_eq!(text("flag-error"), "");

    submit("10.96.0.0/33").await;
    assert_eq!(text("flag-error"), "--service-cluster-ip-range: invalid CIDR \"10.96.0.0/33\"");
    assert_eq!(text("kubernetes-ip"), "10.96.0.1", "a rejected flag changes nothing");

    submit("10.0.0.0/30").await;
    assert!(text("flag-error").ends_with("the service cluster IP range must be at least 8 IP addresses"));
    root.remove();
}

#[wasm_bindgen_test]
fn facts_for_dual_stack() {
    let f = facts("fd00:10:96::/112,10.96.0.0/16", "30000-30099").unwrap();
    assert_eq!(f.kubernetes_ip, "fd00:10:96::1");
    assert_eq!(f.ranges.len(), 2);
    assert_eq!(f.ranges[1].size, 65534);
    assert_eq!(f.node_port_size, 100);
    assert_eq!(f.node_port_band, "30000 – 30015 (16 ports)");
    assert_eq!(facts("10.0.0.0/24", "1-2-3").unwrap_err(),
        "--service-node-port-range: strconv.Atoi: parsing \"2-3\": invalid syntax");
}
