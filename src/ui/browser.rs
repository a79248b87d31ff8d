//! The browser's window, when there is one: none while the first view is rendered natively
//! into the page at build time (`src/bin/poster.rs`), where `web_sys::window()` would panic.
//! Everything that reads the window at render time takes it from here and falls back to the
//! untouched page's defaults.

pub(crate) fn window() -> Option<web_sys::Window> {
    if cfg!(target_arch = "wasm32") {
        web_sys::window()
    } else {
        None
    }
}

/// A computed style's length in px (`"12.5px"`), if `property` has one.
pub(crate) fn css_px(style: &web_sys::CssStyleDeclaration, property: &str) -> Option<f64> {
    style.get_property_value(property).ok()?.trim_end_matches("px").parse().ok()
}

/// The pace an end-to-end test set for the page's labs (`window.__kubeBootstrapLabTestPace`,
/// a number, before the lab opens): their clocks then run that many times faster than real
/// time ([`Msg::SetPace`](crate::lab::Msg::SetPace)). No page for readers sets it.
pub(crate) fn test_pace() -> Option<f64> {
    // The window first: natively (the poster) there is none, and no JsValue may be made.
    let window = window()?;
    let key = wasm_bindgen::JsValue::from_str("__kubeBootstrapLabTestPace");
    js_sys::Reflect::get(&window.into(), &key).ok()?.as_f64()
}
