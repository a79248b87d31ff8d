//! Text that fits its room on the stage, measured as drawn (the real font, in either language)
//! rather than estimated: a text wider than its `data-fit` (stage units) is pressed to that
//! width with `textLength`, never cut. A row's key and value (`data-fit-pair` on their group)
//! share the row: the value keeps its width and the key takes the rest, down to 55 % of its own.

use wasm_bindgen::JsCast;
use web_sys::Element;

const GAP: f64 = 12.0;

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
}

/// The drawn width of an SVG text, in its own units (`getComputedTextLength`).
fn drawn_width(el: &Element) -> f64 {
    js_sys::Reflect::get(el, &"getComputedTextLength".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(el).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

fn number(el: &Element, attr: &str) -> Option<f64> {
    el.get_attribute(attr)?.parse().ok()
}

/// Sets (or clears, with `None`) the width `el` is pressed to.
fn press(el: &Element, width: Option<f64>) {
    match width {
        Some(w) => {
            let _ = el.set_attribute("textLength", &format!("{w:.1}"));
            let _ = el.set_attribute("lengthAdjust", "spacingAndGlyphs");
        }
        None => {
            let _ = el.remove_attribute("textLength");
            let _ = el.remove_attribute("lengthAdjust");
        }
    }
}

/// Fits every text under `root`: all are released first, then measured in one layout.
pub(super) fn fit(root: &Element) {
    let singles = all(root, "text[data-fit]");
    let pairs = all(root, "[data-fit-pair]");
    let pair_texts: Vec<(Element, Option<Element>, Option<Element>)> = pairs
        .into_iter()
        .map(|g| {
            let key = g.query_selector("text.key").ok().flatten();
            let detail = g.query_selector("text.detail").ok().flatten();
            (g, key, detail)
        })
        .collect();
    for el in singles.iter().chain(pair_texts.iter().flat_map(|(_, k, d)| k.iter().chain(d))) {
        press(el, None);
    }
    let len = drawn_width;
    for el in &singles {
        let (Some(room), w) = (number(el, "data-fit"), len(el)) else { continue };
        press(el, (w > room).then_some(room));
    }
    for (g, key, detail) in &pair_texts {
        let (Some(room), Some(key), Some(detail)) = (number(g, "data-fit-pair"), key, detail) else { continue };
        let (k, d) = (len(key), len(detail));
        if k + GAP + d <= room {
            continue;
        }
        let key_room = (room - GAP - d).max(k * 0.55).min(k);
        press(key, Some(key_room));
        let detail_room = room - GAP - key_room;
        press(detail, (d > detail_room).then_some(detail_room.max(1.0)));
    }
}
