//! The ways a page puts the lab in: the lab's own page (`index.html`, which also serves
//! iframes and then reports its height to the host page), and `mount(element, options)` for
//! pages that load the build as a module (the `<kube-bootstrap-lab>` element of
//! `static/embed.js` uses it inside a shadow root). Each instance is its own Yew app with its
//! own state: nothing is shared between instances.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::embed::{parse_query, parse_settings};

use super::{App, AppProps};

/// The message an iframed lab posts to its host page when its height changes.
pub const HEIGHT_MESSAGE: &str = "kube-bootstrap-lab:height";
/// What a host page may send to the frame to be told the height again (its listener may have
/// started after the first report).
pub const HEIGHT_REQUEST: &str = "kube-bootstrap-lab:request-height";
/// Bumped when the messages' fields change; hosts check it.
pub const MESSAGE_VERSION: u32 = 1;

/// One mounted instance, returned by `mount`.
#[wasm_bindgen]
pub struct Instance {
    app: Option<yew::AppHandle<App>>,
    problems: Vec<String>,
}

#[wasm_bindgen]
impl Instance {
    /// Removes the instance from the page and stops everything it runs.
    pub fn unmount(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
    }

    /// The options that were ignored, and why (also shown inside the widget).
    #[wasm_bindgen(getter)]
    pub fn problems(&self) -> Vec<String> {
        self.problems.clone()
    }
}

/// A JS option value as the text a URL parameter would carry.
fn option_text(v: &JsValue) -> String {
    if let Some(b) = v.as_bool() {
        return b.to_string();
    }
    if let Some(a) = v.dyn_ref::<js_sys::Array>() {
        return a.iter().map(|x| option_text(&x)).collect::<Vec<_>>().join(",");
    }
    v.as_string().or_else(|| v.as_f64().map(|n| n.to_string())).unwrap_or_default()
}

/// Mounts a lab into `element`. `options` takes the URL parameters' keys (`tour`, `step`, `scenario`,
/// `lang`, `theme`, `controls`, `autoplay`, `panels`) plus `link` (a moment's fragment);
/// `home` is the lab's own page, which links to a moment point to.
#[wasm_bindgen]
pub fn mount(element: web_sys::Element, options: JsValue, home: Option<String>) -> Instance {
    let mut pairs = Vec::new();
    let mut link = None;
    if let Some(obj) = options.dyn_ref::<js_sys::Object>() {
        for entry in js_sys::Object::entries(obj).iter() {
            let entry: js_sys::Array = entry.unchecked_into();
            let key = entry.get(0).as_string().unwrap_or_default();
            let value = entry.get(1);
            if value.is_undefined() || value.is_null() {
                continue;
            }
            match key.as_str() {
                "link" => link = Some(option_text(&value)),
                _ => pairs.push((key, option_text(&value))),
            }
        }
    }
    let (o, problems) = parse_settings(pairs, "option");
    let mut props = AppProps::from_options(o, link, problems.clone());
    props.home = home.map(Into::into);
    Instance { app: Some(yew::Renderer::<App>::with_root_and_props(element, props).render()), problems }
}

/// The lab's own page: renders into the element marked `data-kube-bootstrap-lab-page`, reading
/// the URL's parameters and fragment. Does nothing on other pages (those call `mount`).
pub fn mount_page() {
    let Some(window) = web_sys::window() else { return };
    let Some(doc) = window.document() else { return };
    let Ok(Some(root)) = doc.query_selector("[data-kube-bootstrap-lab-page]") else { return };
    let (options, problems) = parse_query(&window.location().search().unwrap_or_default());
    let link = window.location().hash().ok().filter(|h| h.len() > 1);
    if let (Some(theme), Some(html)) = (options.theme.forced(), doc.document_element()) {
        // The page around the lab follows the forced theme too.
        let _ = html.set_attribute("data-theme", theme);
    }
    if let Some(html) = doc.document_element() {
        let _ = html.set_attribute("lang", options.lang.code());
    }
    yew::Renderer::<App>::with_root_and_props(root, AppProps::from_options(options, link, problems)).render();
    report_height_to_host(&window);
}

/// In an iframe, posts `{type, version, height}` to the host page whenever the page's height
/// changes, addressed to the host's origin only, so the host can size the frame and never jump.
fn report_height_to_host(window: &web_sys::Window) {
    let Ok(Some(parent)) = window.parent() else { return };
    if js_sys::Object::is(&parent, window) {
        return;
    }
    let origin = host_origin(window);
    let Some(html) = window.document().and_then(|d| d.document_element()) else { return };
    let last = std::rc::Rc::new(std::cell::Cell::new(0));
    let send = {
        let (parent, origin, last) = (parent.clone(), origin.clone(), last.clone());
        move |always: bool| {
            let Some(h) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()).map(|e| e.scroll_height()) else {
                return;
            };
            if h == last.replace(h) && !always {
                return;
            }
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"type".into(), &HEIGHT_MESSAGE.into());
            let _ = js_sys::Reflect::set(&msg, &"version".into(), &MESSAGE_VERSION.into());
            let _ = js_sys::Reflect::set(&msg, &"height".into(), &h.into());
            let _ = parent.post_message(&msg, &origin);
        }
    };
    let on_resize = {
        let send = send.clone();
        Closure::<dyn FnMut()>::new(move || send(false))
    };
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&html);
        if let Some(body) = window.document().and_then(|d| d.body()) {
            observer.observe(&body);
        }
    }
    // A request from the host page (and only from it, in a version we know): report again.
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
        let field = |k: &str| js_sys::Reflect::get(&e.data(), &k.into()).ok();
        let asks = field("type").and_then(|t| t.as_string()).as_deref() == Some(HEIGHT_REQUEST)
            && field("version").and_then(|v| v.as_f64()) == Some(MESSAGE_VERSION as f64);
        if from_parent && (origin == "*" || e.origin() == origin) && asks {
            send(true);
        }
    });
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    // The page lives as long as the frame.
    on_resize.forget();
    on_message.forget();
}

/// The host page's origin: from `location.ancestorOrigins` where the browser has it, else the
/// referrer's; `*` only when neither is known (the height is not a secret; hosts check the
/// message's origin themselves).
fn host_origin(window: &web_sys::Window) -> String {
    // Not in every browser (nor in web-sys): read it as a plain property.
    let from_ancestors = js_sys::Reflect::get(&window.location(), &"ancestorOrigins".into())
        .ok()
        .filter(|l| l.is_object())
        .and_then(|l| js_sys::Reflect::get(&l, &0.into()).ok())
        .and_then(|o| o.as_string());
    let from_referrer = || {
        let r = window.document()?.referrer();
        let url = web_sys::Url::new(&r).ok()?;
        Some(url.origin()).filter(|o| o != "null")
    };
    from_ancestors.filter(|o| o != "null").or_else(from_referrer).unwrap_or_else(|| "*".into())
}
