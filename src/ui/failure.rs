//! A failure shows a message, never a blank page. A panic is a bug of the lab: the module cannot
//! go on after it, so the panic hook writes a readable notice into every instance on the page
//! (`static/embed.js` and `index.html` do the same for a trap that is no panic, such as memory
//! running out).

use std::cell::RefCell;

use crate::lang::Lang;

/// The class of the notice; a root that has one is not told twice.
pub(crate) const FAILURE_CLASS: &str = "lab-failure";

thread_local! {
    /// The elements instances were mounted into, with their language, by registration number.
    static ROOTS: RefCell<Vec<(u64, web_sys::Element, Lang)>> = const { RefCell::new(Vec::new()) };
    static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// An instance's registration for the failure notice; dropping it (unmounting) ends it.
pub(crate) struct Watch(u64);

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = ROOTS.try_with(|r| {
            if let Ok(mut r) = r.try_borrow_mut() {
                r.retain(|(id, _, _)| *id != self.0);
            }
        });
    }
}

/// Shows a failure notice in `root` (in `lang`) should the module panic, from now on.
pub(crate) fn watch(root: &web_sys::Element, lang: Lang) -> Watch {
    install();
    let id = NEXT.with(|n| n.replace(n.get() + 1));
    ROOTS.with(|r| r.borrow_mut().push((id, root.clone(), lang)));
    Watch(id)
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
}

/// Sets the panic hook once, through yew (which otherwise puts its own, a console message only,
/// in place of any hook when it first renders), and keeps the one before it (a test runner's).
fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        yew::set_custom_panic_hook(Box::new(move |info| {
            let message = info.to_string();
            show(&message);
            console_error(&message);
            previous(info);
        }));
    });
}

/// What a reader is told, with what the panic said.
pub(crate) fn failure_text(lang: Lang, detail: &str) -> String {
    match lang {
        Lang::En => format!(
            "The lab stopped because of an internal error; reload the page to start it again. ({detail})"
        ),
        Lang::Zh => format!("实验室因内部错误而停止；请重新加载页面。（{detail}）"),
    }
}

/// Writes the notice at the top of every instance still on the page. Called from the panic
/// hook: it must not panic itself, nor wait for anything the panicking code may hold.
fn show(detail: &str) {
    let roots: Vec<(web_sys::Element, Lang)> = ROOTS
        .try_with(|r| {
            r.try_borrow()
                .map(|r| r.iter().map(|(_, el, l)| (el.clone(), *l)).collect())
                .unwrap_or_default()
        })
        .unwrap_or_default();
    for (root, lang) in roots {
        let told = root.query_selector(&format!(".{FAILURE_CLASS}")).ok().flatten().is_some();
        if !root.is_connected() || told {
            continue;
        }
        let Some(doc) = root.owner_document() else { continue };
        let Ok(p) = doc.create_element("p") else { continue };
        p.set_class_name(FAILURE_CLASS);
        let _ = p.set_attribute("role", "alert");
        p.set_text_content(Some(&failure_text(lang, detail)));
        let _ = root.prepend_with_node_1(&p);
    }
}
