//! The height reports an iframed lab posts to its host page.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::listener::EventListener;

/// The message an iframed lab posts to its host page when its height changes.
const HEIGHT_MESSAGE: &str = "kube-bootstrap-lab:height";
/// What a host page may send to the frame to be told the height again (its listener may have
/// started after the first report).
const HEIGHT_REQUEST: &str = "kube-bootstrap-lab:request-height";
/// Bumped when the messages' fields change; hosts check it.
const MESSAGE_VERSION: u32 = 1;

/// In an iframe (and when `enabled`: the lab's own page), posts `{type, version, height}` to
/// the host page whenever the page's height changes, addressed to the host's origin only, so
/// the host can size the frame and never jump; and again when the host asks.
#[hook]
pub(crate) fn use_height_reports(enabled: bool) {
    use_effect_with(enabled, |&enabled| {
        let reports = enabled.then(HeightReports::start).flatten();
        move || drop(reports)
    });
}

struct HeightReports {
    observer: Option<web_sys::ResizeObserver>,
    _on_resize: Closure<dyn FnMut()>,
    _on_message: EventListener<dyn FnMut(web_sys::MessageEvent)>,
}

impl HeightReports {
    fn start() -> Option<Self> {
        let window = crate::ui::browser::window()?;
        let parent = window.parent().ok().flatten()?;
        if js_sys::Object::is(&parent, &window) {
            return None;
        }
        let origin = host_origin(&window);
        let doc = window.document()?;
        let last = Rc::new(std::cell::Cell::new(0));
        let send = {
            let (parent, origin, doc) = (parent.clone(), origin.clone(), doc.clone());
            move |always: bool| {
                let Some(h) = doc.document_element().map(|e| e.scroll_height()) else {
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
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
        if let Some(o) = &observer {
            for el in [doc.document_element(), doc.body().map(Into::into)]
                .into_iter()
                .flatten()
            {
                o.observe(&el);
            }
        }
        // A request from the host page (and only from it, in a version we know): report again.
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                let from_parent = e.source().is_some_and(|s| js_sys::Object::is(&s, &parent));
                let field = |k: &str| js_sys::Reflect::get(&e.data(), &k.into()).ok();
                let asks = field("type").and_then(|t| t.as_string()).as_deref()
                    == Some(HEIGHT_REQUEST)
                    && field("version").and_then(|v| v.as_f64()) == Some(MESSAGE_VERSION as f64);
                if from_parent && (origin == "*" || e.origin() == origin) && asks {
                    send(true);
                }
            });
        Some(HeightReports {
            observer,
            _on_resize: on_resize,
            _on_message: EventListener::new(&window, "message", on_message),
        })
    }
}

impl Drop for HeightReports {
    fn drop(&mut self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
    }
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
    from_ancestors
        .filter(|o| o != "null")
        .or_else(from_referrer)
        .unwrap_or_else(|| "*".into())
}
