//! The bilingual app in headless Chromium: an instance opened in Chinese labels every panel in
//! Chinese while Kubernetes' own texts stay verbatim, the language switch turns it back, and each
//! bitmap takes its theme from the nearest `data-theme` (also inside a shadow root).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlCanvasElement, HtmlSelectElement};

use kube_bootstrap_lab::lab::inspect::{BitmapView, Cell};
use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::bitmap::{background_colour, cell_colour, Bitmap, BitmapProps};
use kube_bootstrap_lab::ui::media::prefers_dark;
use kube_bootstrap_lab::ui::{App, AppProps};

use crate::dom::{
    button_in, by_id, click, document, exists, pixel, seek, set_input, text, until, Mounted,
};

/// The app, opened in `lang` on the default scenario.
async fn mount(l: Lang) -> Mounted<App> {
    let root = Mounted::new(yew::props!(AppProps { lang: l }));
    until("the app is mounted", || exists("kubernetes-ip")).await;
    root
}

/// The text of the option selected in `<select id>`.
fn selected_option(id: &str) -> String {
    let s = by_id(id).dyn_into::<HtmlSelectElement>().unwrap();
    s.selected_options().item(0).and_then(|o| o.text_content()).unwrap_or_default()
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[wasm_bindgen_test]
async fn an_instance_opened_in_chinese_labels_every_panel_in_chinese() {
    let root = mount(Lang::Zh).await;
    let lab = root.query_selector(".lab").unwrap().unwrap();
    assert_eq!(lab.get_attribute("lang").as_deref(), Some("zh"));
    assert_eq!(by_id("lang").dyn_into::<HtmlSelectElement>().unwrap().value(), "zh");
    // Time controls.
    assert!(text("play").contains("播放"), "{}", text("play"));
    assert!(text("step").contains("下一个事件"));
    assert!(text("speed-label").contains('×') && has_han(&text("speed-label")));
    // apiservers: status words, readiness and buttons.
    let b = text("apiserver-apiserver-b");
    assert!(b.contains("运行中") && b.contains("就绪"), "{b}");
    button_in("apiserver-apiserver-b", "崩溃");
    button_in("apiserver-apiserver-b", "停止");
    assert!(by_id("add-apiserver").text_content().unwrap().contains("添加"));
    // etcd, the kubernetes Service, the feed, Services, Pods.
    assert!(text("h-etcd").contains("修订版本"), "{}", text("h-etcd"));
    assert!(text("h-kubernetes").contains("由 apiserver 自己写入"));
    assert!(text("delete-kubernetes").contains("删除 kubernetes Service"));
    assert!(text("h-feed").contains("事件与日志"));
    assert!(text("svc-create").contains("创建 Service"));
    assert_eq!(by_id("svc-ip").get_attribute("placeholder").as_deref(), Some("clusterIP（自动）"));
    assert!(text("h-pods").contains("Pod 及其 Endpoints"));
    assert!(text("corrupt").contains("写入 etcd"));
    // The bitmaps: meta line, the description before any cell is chosen, the legend.
    let meta = text("cluster-ip-meta");
    assert!(meta.contains("个地址") && meta.contains("静态段"), "{meta}");
    assert_eq!(text("cluster-ip-desc"), "把指针移到某一格上，或聚焦位图后用方向键移动。");
    assert!(by_id("cluster-ip-bitmap").text_content().unwrap().contains("已分配"));
    // The scenario picker shows the scenario's Chinese title, and its Chinese description.
    assert_eq!(selected_option("scenario-pick"), "一个 apiserver 崩溃");
    // The configuration form: flags stay verbatim, the rest is Chinese.
    click(by_id("configure")).await;
    until("the form opens", || exists("config-form")).await;
    let form = text("config-form");
    assert!(form.contains("--service-cluster-ip-range") && form.contains("随机种子"));
    assert!(text("cfg-apply").contains("启动这个集群"));
    root.remove();
}

#[wasm_bindgen_test]
async fn kubernetes_texts_stay_verbatim_in_chinese() {
    let root = mount(Lang::Zh).await;
    seek(20_000).await;
    click(button_in("apiserver-apiserver-b", "崩溃")).await;
    until("b shows 已崩溃", || text("apiserver-apiserver-b").contains("已崩溃")).await;
    seek(36_000).await;
    until("t = 36 s", || text("clock") == "t = 36s").await;
    let events = text("events");
    // Kubernetes' messages and reasons, exactly as Kubernetes prints them, and the lab's own
    // note of the lease expiry in its own (English) words...
    assert!(
        events.contains(
            "lab note: the lease of /masterleases/192.168.10.12 expired and etcd deleted the key"
        ),
        "{events}"
    );
    assert!(events.contains("Resetting endpoints for master service \"kubernetes\" to"));
    // ...each with its explanation in Chinese.
    assert!(events.contains("etcd 删除了租约 192.168.10.12，因为在 TTL 内没有人续约"), "{events}");
    assert!(events.contains("重写了 kubernetes 的 Endpoints"));
    // Who left the Endpoints and why, in Chinese, around the verbatim message.
    let written = text("written-by");
    assert!(written.contains("最近一次重写"), "{written}");
    assert!(written.contains("− 192.168.10.12：已崩溃：它的租约已过期"), "{written}");
    // A refused Service: Kubernetes' own error text.
    set_input("svc-name", "web", "input").await;
    set_input("svc-ip", "10.200.0.5", "input").await;
    click(by_id("svc-create")).await;
    until("the refusal shows", || exists("action-error")).await;
    assert!(text("action-error").contains(
        "the provided IP (10.200.0.5) is not in the valid range. The range of valid IPs is 10.96.0.0/12"
    ));
    root.remove();
}

/// Submits the corrupt form with `what` and `value`, and returns what it says.
async fn corrupt_refusal(what: &str, value: &str) -> String {
    let before = exists("corrupt-error").then(|| text("corrupt-error"));
    set_input("corrupt-what", what, "change").await;
    set_input("corrupt-value", value, "input").await;
    click(button_in("corrupt", "写入 etcd")).await;
    until("the refusal shows", || exists("corrupt-error") && Some(text("corrupt-error")) != before)
        .await;
    text("corrupt-error")
}

#[wasm_bindgen_test]
async fn the_corrupt_forms_refusals_are_in_the_readers_language() {
    let root = mount(Lang::Zh).await;
    assert_eq!(corrupt_refusal("leak_node_port", "x1").await, "IP 或端口：\"x1\" 不是端口号");
    assert_eq!(
        corrupt_refusal("leak_node_port", "70000").await,
        "IP 或端口：70000 不是端口号（1-65535）"
    );
    assert_eq!(
        corrupt_refusal("leak_cluster_ip", "10.96.0.300").await,
        "IP 或端口：\"10.96.0.300\" 不是 IP 地址"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn the_language_switch_turns_the_labels_back_and_forth() {
    let root = mount(Lang::Zh).await;
    assert!(text("h-feed").contains("事件与日志"));
    set_input("lang", "en", "change").await;
    until("the labels are English", || text("h-feed").contains("Events and logs")).await;
    let lab = root.query_selector(".lab").unwrap().unwrap();
    assert_eq!(lab.get_attribute("lang").as_deref(), Some("en"));
    assert!(text("play").contains("Play"));
    assert!(text("h-etcd").contains("revision"));
    assert!(text("apiserver-apiserver-a").contains("running"));
    assert_eq!(
        text("cluster-ip-desc"),
        "Point at a cell, or focus the bitmap and use the arrow keys."
    );
    assert_eq!(selected_option("scenario-pick"), "An apiserver crashes");
    for sel in [".controls", ".grid", ".config"] {
        let t = root.query_selector(sel).unwrap().unwrap().text_content().unwrap_or_default();
        assert!(!has_han(&t), "no Chinese left in {sel}: {t}");
    }
    set_input("lang", "zh", "change").await;
    until("the labels are Chinese again", || text("h-feed").contains("事件与日志")).await;
    assert!(text("play").contains("播放"));
    root.remove();
}

// ---------------------------------------------------------------------------------------------
// The bitmap's theme
// ---------------------------------------------------------------------------------------------

/// A /24 with one allocated cell.
fn slash24() -> Rc<BitmapView> {
    let mut v = BitmapView::new("10.0.0.0/24".parse().unwrap(), 16);
    v.set(20, Cell::Allocated, &["default/web"]);
    Rc::new(v)
}

fn props(id: &str) -> BitmapProps {
    BitmapProps {
        id: id.to_string().into(),
        title: "ClusterIP 10.0.0.0/24".into(),
        view: slash24(),
        sweep: 0,
    }
}

/// (a free cell's centre, the gap beside it) of a /24 canvas (16 columns of 24 px): cell 30,
/// column 14 of row 1.
fn free_and_gap(c: &HtmlCanvasElement) -> ([u8; 3], [u8; 3]) {
    let (x0, y0) = (14 * 24, 24);
    (pixel(c, x0 + 11, y0 + 11), pixel(c, x0 + 23, y0 + 10))
}

fn theme_pixels(dark: bool) -> ([u8; 3], [u8; 3]) {
    (cell_colour(Cell::Free, false, dark), background_colour(dark))
}

/// A `<div data-theme=…>` (none for `None`) in the body, with a Bitmap mounted inside.
async fn mount_bitmap_in(theme: Option<&str>, id: &str) -> Element {
    let wrapper = document().create_element("div").unwrap();
    if let Some(t) = theme {
        wrapper.set_attribute("data-theme", t).unwrap();
    }
    let root = document().create_element("div").unwrap();
    root.set_attribute("style", "width: 640px").unwrap();
    wrapper.append_child(&root).unwrap();
    document().body().unwrap().append_child(&wrapper).unwrap();
    yew::Renderer::<Bitmap>::with_root_and_props(root, props(id)).render();
    until("the bitmap is drawn", || {
        document()
            .get_element_by_id(&format!("{id}-canvas"))
            .is_some_and(|c| c.has_attribute("data-draws"))
    })
    .await;
    wrapper
}

fn canvas(id: &str) -> HtmlCanvasElement {
    by_id(&format!("{id}-canvas")).dyn_into().unwrap()
}

#[wasm_bindgen_test]
async fn a_bitmap_takes_the_theme_of_its_nearest_data_theme() {
    assert_ne!(theme_pixels(true), theme_pixels(false));
    let dark = mount_bitmap_in(Some("dark"), "th-dark").await;
    let light = mount_bitmap_in(Some("light"), "th-light").await;
    let system = mount_bitmap_in(None, "th-system").await;
    assert_eq!(free_and_gap(&canvas("th-dark")), theme_pixels(true), "dark");
    assert_eq!(free_and_gap(&canvas("th-light")), theme_pixels(false), "light");
    assert_eq!(
        free_and_gap(&canvas("th-system")),
        theme_pixels(prefers_dark()),
        "no data-theme: the system's"
    );
    // Two instances on one page differ; one switching its theme redraws it alone.
    dark.set_attribute("data-theme", "light").unwrap();
    until("the dark instance turns light", || {
        free_and_gap(&canvas("th-dark")) == theme_pixels(false)
    })
    .await;
    light.set_attribute("data-theme", "dark").unwrap();
    until("the light instance turns dark", || {
        free_and_gap(&canvas("th-light")) == theme_pixels(true)
    })
    .await;
    assert_eq!(free_and_gap(&canvas("th-dark")), theme_pixels(false));
    for w in [dark, light, system] {
        w.remove();
    }
}

#[wasm_bindgen_test]
async fn inside_a_shadow_root_the_theme_comes_from_inside() {
    // A host outside and, inside its shadow root, a `.lab`-like wrapper: both marked with the
    // theme the system does not prefer, so that each step tells the three sources apart.
    let system = prefers_dark();
    let other = if system { "light" } else { "dark" };
    let host = document().create_element("div").unwrap();
    host.set_attribute("data-theme", other).unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"mode".into(), &"open".into()).unwrap();
    let attach: js_sys::Function =
        js_sys::Reflect::get(&host, &"attachShadow".into()).unwrap().unchecked_into();
    let shadow = attach.call1(&host, &init).unwrap();
    let wrapper = document().create_element("div").unwrap();
    wrapper.set_attribute("data-theme", other).unwrap();
    let root = document().create_element("div").unwrap();
    wrapper.append_child(&root).unwrap();
    let append: js_sys::Function =
        js_sys::Reflect::get(&shadow, &"appendChild".into()).unwrap().unchecked_into();
    append.call1(&shadow, &wrapper).unwrap();
    yew::Renderer::<Bitmap>::with_root_and_props(root.clone(), props("th-shadow")).render();
    let find = move || -> Option<HtmlCanvasElement> {
        root.query_selector("canvas.bitmap-canvas").ok().flatten().and_then(|c| c.dyn_into().ok())
    };
    until("the bitmap is drawn in the shadow root", || {
        find().is_some_and(|c| c.has_attribute("data-draws"))
    })
    .await;
    assert_eq!(free_and_gap(&find().unwrap()), theme_pixels(!system), "the wrapper inside");
    // Without a theme inside, the host's outside does not reach in: the system's preference.
    wrapper.remove_attribute("data-theme").unwrap();
    until("the bitmap follows the system", || {
        free_and_gap(&find().unwrap()) == theme_pixels(system)
    })
    .await;
    host.remove();
}
