//! DOM helpers the browser component tests share (`tests/web/main.rs`'s `mod dom`): find by id
//! (or by id inside one instance, or anything inside one root: [`within`]), wait until a render
//! lands, click, type, read a canvas pixel, mount an app that is removed with its root.
#![allow(dead_code)]

use wasm_bindgen::JsCast;
use web_sys::{
    CanvasRenderingContext2d, Element, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    HtmlSelectElement,
};

pub fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A new empty element at the end of the page's body, to mount an instance in.
pub fn new_root() -> Element {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    root
}

/// A host element with an open shadow root, and the element inside it the lab is mounted in
/// (as `static/embed.js` does).
pub fn shadow_root() -> (Element, Element) {
    let host = new_root();
    let shadow =
        host.attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open)).unwrap();
    let inner = document().create_element("div").unwrap();
    shadow.append_child(&inner).unwrap();
    (host, inner)
}

/// `mount()`'s options object: the URL parameters' keys and values.
pub fn options(pairs: &[(&str, &str)]) -> wasm_bindgen::JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&o, &(*k).into(), &(*v).into()).unwrap();
    }
    o.into()
}

pub fn by_id(id: &str) -> Element {
    document().get_element_by_id(id).unwrap_or_else(|| panic!("#{id} is not in the page"))
}

pub fn text(id: &str) -> String {
    by_id(id).text_content().unwrap_or_default()
}

pub fn exists(id: &str) -> bool {
    document().get_element_by_id(id).is_some()
}

/// `sel` with each `#id` in it as the instance in `root` names it: a later instance on a page
/// prefixes its ids (`src/ui/ids.rs`), read here from its language menu's id.
pub fn in_instance(root: &Element, sel: &str) -> String {
    let menu = root.query_selector(".lang-switch select").ok().flatten();
    let prefix = menu
        .map(|m| m.id())
        .and_then(|id| id.strip_suffix("lang").map(str::to_string))
        .unwrap_or_default();
    sel.replace('#', &format!("#{prefix}"))
}

pub async fn settle() {
    gloo_timers::future::TimeoutFuture::new(30).await;
}

/// Waits (up to 3 s) until `cond` holds: renders can lag behind on a loaded machine.
pub async fn until(what: &str, cond: impl Fn() -> bool) {
    wait(what, 150, cond).await
}

/// Waits up to 6 s, for what a whole instance does (mounting, importing) beside another one.
pub async fn until_long(what: &str, cond: impl Fn() -> bool) {
    wait(what, 300, cond).await
}

/// Checks `cond` every 20 ms, `tries` times, then fails naming `what`.
async fn wait(what: &str, tries: u32, cond: impl Fn() -> bool) {
    for _ in 0..tries {
        if cond() {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(20).await;
    }
    panic!("timed out waiting until {what}");
}

pub async fn click(el: Element) {
    el.dyn_into::<HtmlElement>().unwrap().click();
    settle().await;
}

/// A button inside `scope` (an element id) whose text contains `label`.
pub fn button_in(scope: &str, label: &str) -> Element {
    let list = by_id(scope).query_selector_all("button").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .find(|b| b.text_content().unwrap_or_default().contains(label))
        .unwrap_or_else(|| panic!("no button {label:?} in #{scope}"))
}

/// Sets an `<input>` or `<select>` and fires `event` (`input` or `change`) as a user would.
pub async fn set_input(id: &str, value: &str, event: &str) {
    let el = by_id(id);
    if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
        i.set_value(value);
    } else {
        el.dyn_ref::<HtmlSelectElement>().unwrap().set_value(value);
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&web_sys::Event::new_with_event_init_dict(event, &init).unwrap()).unwrap();
    settle().await;
}

/// A `keydown` of key `k`, bubbling and cancelable, as a reader's key press dispatches it.
pub fn keydown(k: &str) -> web_sys::KeyboardEvent {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap()
}

/// Moves the app's timeline scrubber to `ms`.
pub async fn seek(ms: u64) {
    set_input("scrubber", &ms.to_string(), "input").await;
}

/// The 2D context of a canvas, to read back what was drawn.
pub fn context2d(c: &HtmlCanvasElement) -> CanvasRenderingContext2d {
    c.get_context("2d").unwrap().unwrap().dyn_into::<CanvasRenderingContext2d>().unwrap()
}

/// The RGB of canvas pixel (x, y).
pub fn pixel(c: &HtmlCanvasElement, x: usize, y: usize) -> [u8; 3] {
    let d = context2d(c).get_image_data(x as f64, y as f64, 1.0, 1.0).unwrap().data();
    [d[0], d[1], d[2]]
}

/// An app mounted on its own root in the page. `remove` destroys the app (its hooks' loops and
/// listeners with it) before taking the root out, so that one test's app never runs into the
/// next test.
pub struct Mounted<C: yew::BaseComponent> {
    pub root: Element,
    app: yew::AppHandle<C>,
}

impl<C: yew::BaseComponent> Mounted<C> {
    pub fn new(props: C::Properties) -> Self {
        let root = document().create_element("div").unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let app = yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
        Mounted { root, app }
    }

    /// Mounted in a column `width` px wide.
    pub fn new_in_width(props: C::Properties, width: u32) -> Self {
        let root = document().create_element("div").unwrap();
        root.set_attribute("style", &format!("width: {width}px")).unwrap();
        document().body().unwrap().append_child(&root).unwrap();
        let app = yew::Renderer::<C>::with_root_and_props(root.clone(), props).render();
        Mounted { root, app }
    }

    pub fn remove(self) {
        self.app.destroy();
        self.root.remove();
    }
}

impl<C: yew::BaseComponent> std::ops::Deref for Mounted<C> {
    type Target = Element;
    fn deref(&self) -> &Element {
        &self.root
    }
}

/// The same helpers inside one root (an instance's element, or the element in a shadow root),
/// never through the document: for the tests that put several instances on the page.
pub mod within {
    use wasm_bindgen::JsCast;
    use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

    /// The first element matching `sel` inside `root`.
    pub fn find(root: &Element, sel: &str) -> Option<Element> {
        root.query_selector(sel).unwrap()
    }

    /// The first element matching `sel` inside `root`, which must be there.
    pub fn get(root: &Element, sel: &str) -> Element {
        find(root, sel).unwrap_or_else(|| panic!("no {sel}"))
    }

    /// Every element matching `sel` inside `root`.
    pub fn all(root: &Element, sel: &str) -> Vec<Element> {
        let list = root.query_selector_all(sel).unwrap();
        (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
    }

    /// The text of the first `sel` inside `root` (empty when there is none).
    pub fn text(root: &Element, sel: &str) -> String {
        find(root, sel).and_then(|e| e.text_content()).unwrap_or_default()
    }

    /// The value of the `<input>` or `<select>` `sel` inside `root`.
    pub fn value(root: &Element, sel: &str) -> String {
        let el = get(root, sel);
        match el.dyn_ref::<HtmlInputElement>() {
            Some(i) => i.value(),
            None => el.dyn_into::<HtmlSelectElement>().unwrap().value(),
        }
    }

    /// A pause long enough for a render after an event, in an instance beside others.
    pub async fn settle() {
        gloo_timers::future::TimeoutFuture::new(60).await;
    }

    /// Clicks `sel` (a submit button submits its form, as a reader's click does), then settles.
    pub async fn press(root: &Element, sel: &str) {
        get(root, sel).dyn_into::<HtmlElement>().unwrap().click();
        settle().await;
    }

    /// Types `value` into the field `sel` (an input, a select or a textarea), fires `event`
    /// (`input` or `change`) and settles.
    pub async fn put(root: &Element, sel: &str, value: &str, event: &str) {
        let el = get(root, sel);
        if let Some(i) = el.dyn_ref::<HtmlInputElement>() {
            i.set_value(value);
        } else if let Some(s) = el.dyn_ref::<HtmlSelectElement>() {
            s.set_value(value);
        } else {
            el.dyn_ref::<HtmlTextAreaElement>().unwrap().set_value(value);
        }
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        el.dispatch_event(&web_sys::Event::new_with_event_init_dict(event, &init).unwrap())
            .unwrap();
        settle().await;
    }
}
