//! The lab's own page's address and the tab's storage: the UI writes what the core says
//! ([`View::address`], [`page_address`]) with `history.replaceState`, and keeps an imported
//! cluster's file in `sessionStorage` (this tab only, never sent anywhere) for a reload to open
//! again. Only on the lab's own page: an embed leaves its host page's address and storage alone.

use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::lab::{page_address, View};
use crate::lang::Lang;

/// Where the tab keeps the scenario file of the cluster imported last.
const IMPORTED_KEY: &str = "kube-bootstrap-lab:imported";

/// The tab's `sessionStorage`, when the page may use it (a sandboxed frame may not).
fn storage() -> Option<JsValue> {
    let w = crate::ui::browser::window()?;
    js_sys::Reflect::get(&w, &"sessionStorage".into()).ok().filter(|s| s.is_object())
}

/// Calls the storage's method `name` with `args`.
fn call(name: &str, args: &[&str]) -> Option<JsValue> {
    let s = storage()?;
    let f: js_sys::Function = js_sys::Reflect::get(&s, &name.into()).ok()?.dyn_into().ok()?;
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(&s, &args).ok()
}

/// The file of the cluster imported in this tab, as kept (the core reads it as any input).
pub(crate) fn kept_import() -> Option<String> {
    call("getItem", &[IMPORTED_KEY]).and_then(|v| v.as_string())
}

/// Keeps `file`, the scenario of a cluster just imported, for a reload (a file over the
/// storage's quota is not kept: the reload then says so).
pub(crate) fn keep_import(file: &str) {
    if call("setItem", &[IMPORTED_KEY, file]).is_none() {
        forget_import();
    }
}

/// Forgets the kept import (it could not be read back).
pub(crate) fn forget_import() {
    call("removeItem", &[IMPORTED_KEY]);
}

/// Writes `here` (what the lab shows: a query and a fragment) into the page's address, keeping
/// the page's path and its parameters of how the lab is shown. No reload, no history entry.
pub(crate) fn write(here: &str) {
    let Some(w) = crate::ui::browser::window() else { return };
    let location = w.location();
    let (path, query) =
        (location.pathname().unwrap_or_default(), location.search().unwrap_or_default());
    let url = format!("{path}{}", page_address(&query, here));
    if location.href().is_ok_and(|h| h.ends_with(&url)) {
        return;
    }
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// What the lab shows, as far as its address says it: another scenario, tour, step, experiment,
/// language or import.
pub(crate) fn shown(view: &View) -> Shown {
    let guide = view.touring.guide.as_ref().map(|g| (g.tour.name.clone(), g.index));
    (view.generation, guide, view.trying, view.lang, view.touring.autoplay, view.imported)
}

/// What [`shown`] tells apart.
pub(crate) type Shown = (u64, Option<(String, usize)>, Option<usize>, Lang, bool, bool);

/// On the lab's own page (`own`), the address follows what the lab shows (`shown`): after a
/// change, it is what [`View::address`] says (`read` gives it, and [`View::imported`]). Not at
/// opening: the address that opened the lab names it. A kept import the lab could not open
/// again (`opened_import`: the page gave it one) is forgotten, its one line in the lab's notice.
#[hook]
pub(crate) fn use_address(
    own: bool,
    shown: Shown,
    read: Callback<(), (Option<String>, bool)>,
    opened_import: bool,
) {
    let opened = use_mut_ref(|| false);
    use_effect_with(shown, move |_| {
        let first = !std::mem::replace(&mut *opened.borrow_mut(), true);
        let (address, imported) = read.emit(());
        match (own, first, address) {
            (true, true, _) if opened_import && !imported => forget_import(),
            (true, false, Some(here)) => write(&here),
            _ => {}
        }
    });
}
