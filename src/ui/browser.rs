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
