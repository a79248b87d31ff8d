//! The colours of the two themes, and which one an instance is drawn in: the nearest
//! `data-theme`, else the system's preference, followed as either changes.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::ui::media::{self, prefers_dark, PREFERS_DARK};

pub(crate) type Rgb = [u8; 3];

const fn hex(v: u32) -> Rgb {
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

pub(crate) struct Palette {
    /// The panel behind the grid, and the gaps between cells.
    pub(crate) bg: Rgb,
    pub(crate) free: Rgb,
    /// Free cells of every other 16 × 16 block when cells are too small for gaps (graph paper).
    pub(crate) free_alt: Rgb,
    /// A free cell in the static band.
    pub(crate) free_static: Rgb,
    /// The gaps around static-band cells (a tinted grid under the band).
    pub(crate) gap_static: Rgb,
    pub(crate) allocated: Rgb,
    pub(crate) kubernetes: Rgb,
    pub(crate) leaked: Rgb,
    pub(crate) duplicate: Rgb,
    pub(crate) unallocated: Rgb,
    /// An IPAddress with a wrong reference, and the bar across it.
    pub(crate) wrong: Rgb,
    pub(crate) bar: Rgb,
    pub(crate) hatch: Rgb,
    pub(crate) cross: Rgb,
    pub(crate) dot: Rgb,
    /// The sweep: the tint's rgb, its strongest alpha, and the leading edge.
    pub(crate) sweep: (&'static str, f64, &'static str),
}

// Okabe–Ito for the states, the same in both themes; only the background and free cells differ.
const LIGHT: Palette = Palette {
    bg: hex(0xffffff),
    free: hex(0xe3e7ee),
    free_alt: hex(0xdce1e9),
    free_static: hex(0xf1e3c4),
    gap_static: hex(0xe3b75a),
    allocated: hex(0x0072b2),
    kubernetes: hex(0xd55e00),
    leaked: hex(0xe69f00),
    duplicate: hex(0xcc79a7),
    unallocated: hex(0x56b4e9),
    wrong: hex(0xf0e442),
    bar: hex(0x1a1a1a),
    hatch: hex(0x7a5200),
    cross: hex(0x5e2f4b),
    dot: hex(0xffffff),
    sweep: ("255,255,255", 0.6, "rgba(0,114,178,0.95)"),
};

const DARK: Palette = Palette {
    bg: hex(0x161c26),
    free: hex(0x2a3241),
    free_alt: hex(0x262d3b),
    free_static: hex(0x3f3624),
    gap_static: hex(0x6b5322),
    allocated: hex(0x0072b2),
    kubernetes: hex(0xd55e00),
    leaked: hex(0xe69f00),
    duplicate: hex(0xcc79a7),
    unallocated: hex(0x56b4e9),
    wrong: hex(0xf0e442),
    bar: hex(0x1a1a1a),
    hatch: hex(0x5c3d00),
    cross: hex(0x4a2139),
    dot: hex(0xffffff),
    sweep: ("255,255,255", 0.4, "rgba(86,180,233,0.95)"),
};

pub(crate) fn palette(dark: bool) -> &'static Palette {
    if dark {
        &DARK
    } else {
        &LIGHT
    }
}

/// Whether `el` is drawn in the dark theme, read now: the `data-theme` (`dark` or `light`) of the
/// nearest element that has one, `el` included (`closest`, so it stops at a shadow root: each
/// instance of the lab carries its own theme); without one, or with another value, the system's
/// preference.
pub(crate) fn is_dark(el: &web_sys::Element) -> bool {
    let theme =
        el.closest("[data-theme]").ok().flatten().and_then(|e| e.get_attribute("data-theme"));
    match theme.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => prefers_dark(),
    }
}

/// [`is_dark`] of the element behind `node`; the system's preference before it is mounted.
pub(crate) fn dark_at(node: &NodeRef) -> bool {
    node.cast::<web_sys::Element>().map_or_else(prefers_dark, |el| is_dark(&el))
}

/// Calls `on_change` whenever a `data-theme` attribute changes in the tree (document or shadow
/// root) that holds `el`. A MutationObserver, reached through `js_sys` so as not to need more
/// `web-sys` features; the returned observer must be given to [`unwatch_theme`].
fn watch_theme(
    el: &web_sys::Element,
    on_change: &js_sys::Function,
) -> Option<wasm_bindgen::JsValue> {
    use js_sys::{Array, Function, Object, Reflect};
    use wasm_bindgen::JsValue;
    let window = crate::ui::browser::window()?;
    let ctor: Function =
        Reflect::get(&window, &JsValue::from_str("MutationObserver")).ok()?.dyn_into().ok()?;
    let observer = Reflect::construct(&ctor, &Array::of1(on_change)).ok()?;
    let options = Object::new();
    let set = |k: &str, v: &JsValue| Reflect::set(&options, &JsValue::from_str(k), v).ok();
    set("attributes", &JsValue::TRUE)?;
    set("subtree", &JsValue::TRUE)?;
    set("attributeFilter", &Array::of1(&JsValue::from_str("data-theme")))?;
    let observe: Function =
        Reflect::get(&observer, &JsValue::from_str("observe")).ok()?.dyn_into().ok()?;
    observe.call2(&observer, &el.get_root_node(), &options).ok()?;
    Some(observer)
}

fn unwatch_theme(observer: &wasm_bindgen::JsValue) {
    if let Some(disconnect) = js_sys::Reflect::get(observer, &"disconnect".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = disconnect.call0(observer);
    }
}

/// Bumped whenever the theme may have changed (the system's scheme flipped, a `data-theme`
/// attribute changed): the canvases are then redrawn in the theme they read from the DOM.
#[derive(Default, PartialEq)]
struct ThemeEpoch(u32);

impl Reducible for ThemeEpoch {
    type Action = ();

    fn reduce(self: Rc<Self>, _: ()) -> Rc<Self> {
        Rc::new(ThemeEpoch(self.0.wrapping_add(1)))
    }
}

/// A number that changes whenever the theme of the element behind `node` may have changed: when
/// prefers-color-scheme flips or a `data-theme` attribute changes in its tree. Effects that paint
/// depend on it and read the theme itself with [`is_dark`].
#[hook]
pub(crate) fn use_theme_epoch(node: &NodeRef) -> u32 {
    let theme = use_reducer(ThemeEpoch::default);
    {
        let (theme, node) = (theme.dispatcher(), node.clone());
        use_effect_with((), move |_| {
            let mql = media::query(PREFERS_DARK);
            let listener = Closure::<dyn FnMut()>::new(move || theme.dispatch(()));
            if let Some(m) = &mql {
                let _ =
                    m.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
            }
            let observer = node
                .cast::<web_sys::Element>()
                .and_then(|c| watch_theme(&c, listener.as_ref().unchecked_ref()));
            move || {
                if let Some(o) = &observer {
                    unwatch_theme(o);
                }
                if let Some(m) = mql {
                    let _ = m.remove_event_listener_with_callback(
                        "change",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    theme.0
}
