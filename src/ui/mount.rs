//! The ways a page puts the lab in: the lab's own page (`index.html`, which also serves
//! iframes, where `static/page-height.js` reports its height to the host page), and `mount(element, options)` for
//! pages that load the build as a module (the `<kube-bootstrap-lab>` element of
//! `static/embed.js` uses it inside a shadow root). Each instance is its own Yew app with its
//! own state: nothing is shared between instances.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::lab::embed::{parse_live, parse_query, parse_settings};

use super::{App, AppProps};

/// One mounted instance, returned by `mount`.
#[wasm_bindgen]
pub struct Instance {
    app: Option<yew::AppHandle<App>>,
    /// The props it renders with: `set` changes them in place.
    props: AppProps,
    problems: Vec<String>,
    /// Tells the instance's element should the module fail.
    watch: Option<super::failure::Watch>,
}

#[wasm_bindgen]
impl Instance {
    /// Removes the instance from the page and stops everything it runs.
    pub fn unmount(&mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.watch = None;
    }

    /// Changes the instance's `theme` and `lang` (`{theme, lang}`) in place: the reader's tour
    /// step, clock and state stay. Returns what was ignored, and why, one line each; an invalid
    /// value changes nothing.
    pub fn set(&mut self, options: JsValue) -> Vec<String> {
        // A `link` too is no live setting: named with the others.
        let (mut pairs, link) = option_pairs(&options);
        pairs.extend(link.map(|l| ("link".to_string(), l)));
        let (live, problems) = parse_live(pairs, "option");
        if let Some(theme) = live.theme {
            self.props.theme = theme;
        }
        if let Some(lang) = live.lang {
            self.props.lang = lang;
        }
        if let Some(app) = self.app.as_mut() {
            app.update(self.props.clone());
        }
        problems
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

/// A JS options object as (key, text) pairs, and its `link` apart; unset keys are skipped.
fn option_pairs(options: &JsValue) -> (Vec<(String, String)>, Option<String>) {
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
    (pairs, link)
}

/// Mounts a lab into `element`. `options` takes the URL parameters' keys (`tour`, `step`, `scenario`,
/// `lang`, `theme`, `controls`, `autoplay`, `panels`, `print`) plus `link` (a moment's fragment);
/// `home` is the lab's own page, which links to a moment point to.
#[wasm_bindgen]
pub fn mount(element: web_sys::Element, options: JsValue, home: Option<String>) -> Instance {
    let (pairs, link) = option_pairs(&options);
    let (o, problems) = parse_settings(pairs, "option");
    // Before the first render: opening the lab is what may fail.
    let watch = Some(super::failure::watch(&element, o.lang));
    let mut props = AppProps::from_options(o, link, problems.clone());
    props.home = home.map(Into::into);
    // embed.js puts the first view beside the app's element.
    if let Some(beside) = element.parent_element() {
        props.stage_width = poster_stage_width(&beside);
        kept_clicks(&beside, &mut props);
    }
    let app = Some(yew::Renderer::<App>::with_root_and_props(element, props.clone()).render());
    Instance { app, props, problems, watch }
}

/// The lab's own page: renders into the element marked `data-kube-bootstrap-lab-page`, reading
/// the URL's parameters and fragment. Does nothing on other pages (those call `mount`).
pub fn mount_page() {
    let Some(window) = crate::ui::browser::window() else {
        return;
    };
    let Some(doc) = window.document() else { return };
    let Ok(Some(root)) = doc.query_selector("[data-kube-bootstrap-lab-page]") else {
        return;
    };
    let (options, problems) = parse_query(&window.location().search().unwrap_or_default());
    let link = window.location().hash().ok().filter(|h| h.len() > 1);
    if let (Some(theme), Some(html)) = (options.theme.forced(), doc.document_element()) {
        // The page around the lab follows the forced theme too.
        let _ = html.set_attribute("data-theme", theme);
    }
    if let Some(html) = doc.document_element() {
        let _ = html.set_attribute("lang", options.lang.code());
    }
    // The page lives as long as the module: so does its watch.
    std::mem::forget(super::failure::watch(&root, options.lang));
    let mut props = AppProps::from_options(options, link, problems);
    props.report_height = true;
    props.stage_width = poster_stage_width(&root);
    // The cluster imported in this tab, for a reload of `#imported` (read as any input is).
    props.imported = super::address::kept_import().map(Into::into);
    kept_clicks(&root, &mut props);
    yew::Renderer::<App>::with_root_and_props(root, props).render();
}

/// The clicks the first view under `scope` kept for the app (static/poster.js), and which button
/// had the focus.
fn kept_clicks(scope: &web_sys::Element, props: &mut AppProps) {
    let Ok(Some(poster)) = scope.query_selector(":scope > .lab-poster[data-kept]") else {
        return;
    };
    props.kept = poster.get_attribute("data-kept").map(Into::into);
    props.kept_focus = poster.get_attribute("data-kept-focus").map(Into::into);
}

/// The content width of the stage the first view under `scope` shows (src/ui/poster.rs draws
/// it several ways; CSS shows one), which the live stage will measure too.
fn poster_stage_width(scope: &web_sys::Element) -> Option<f64> {
    let stages = scope.query_selector_all(":scope > .lab-poster .stage").ok()?;
    let shown = (0..stages.length())
        .filter_map(|i| stages.item(i)?.dyn_into::<web_sys::Element>().ok())
        .find(|s| s.client_width() > 0)?;
    let style = crate::ui::browser::window()?.get_computed_style(&shown).ok()??;
    let pad = |side: &str| crate::ui::browser::css_px(&style, side);
    Some(shown.client_width() as f64 - pad("padding-left")? - pad("padding-right")?)
}
