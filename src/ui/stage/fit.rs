//! Text that fits its room on the stage, measured as drawn (the real font, in either language)
//! rather than estimated: a text wider than its `data-fit` (stage units) is pressed to that
//! width with `textLength`, never cut. A row's key and value (`data-fit-pair` on their group)
//! share the row: the value keeps its width and the key takes the rest, down to 55 % of its own.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element};
use yew::prelude::*;

const GAP: f64 = 12.0;
/// Widths kept at most (a long play draws new TTLs and revisions): then measured afresh.
const MEASURED_MAX: usize = 4096;

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
}

/// Widths measured, by font and text.
type Widths = HashMap<(String, String), f64>;

thread_local! {
    /// A canvas to measure with, and the widths it measured, by font and text: a text measured
    /// once is never measured again (most renders redraw the same few texts).
    static MEASURE: RefCell<Option<(CanvasRenderingContext2d, Widths)>> = const { RefCell::new(None) };
}

/// The font a text is drawn in, as the canvas reads it (from its computed style).
fn font_of(el: &Element) -> Option<String> {
    let style = el.owner_document()?.default_view()?.get_computed_style(el).ok()??;
    let get = |p: &str| style.get_property_value(p).unwrap_or_default();
    Some(format!(
        "{} {} {} {}",
        get("font-style"),
        get("font-weight"),
        get("font-size"),
        get("font-family")
    ))
}

/// The drawn width of an SVG text, in its own units, as a canvas measures its text in its font:
/// `getComputedTextLength` would lay the page out on each seek (every stale text, every render);
/// reading fonts only recomputes style, and a canvas measures without any layout.
fn drawn_width(el: &Element, font: &str) -> f64 {
    let text = el.text_content().unwrap_or_default();
    MEASURE.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_none() {
            let canvas = el.owner_document().and_then(|d| d.create_element("canvas").ok());
            let ctx = canvas
                .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
                .and_then(|c| c.get_context("2d").ok().flatten())
                .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok());
            *m = ctx.map(|ctx| (ctx, HashMap::new()));
        }
        let Some((ctx, widths)) = m.as_mut() else { return 0.0 };
        let key = (font.to_string(), text);
        if let Some(&w) = widths.get(&key) {
            return w;
        }
        if widths.len() >= MEASURED_MAX {
            widths.clear();
        }
        ctx.set_font(font);
        let w = ctx.measure_text(&key.1).map(|t| t.width()).unwrap_or(0.0);
        widths.insert(key, w);
        w
    })
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

/// What a text was last fitted for (`data-fitted`): the stage's look, its room and its text.
/// A render that changes none of them leaves the text as it was fitted, unmeasured: measuring
/// forces a layout, and most renders (a seek, a frame of play) change few texts.
fn signature(look: &str, room: f64, texts: &[&Element]) -> String {
    let words: Vec<String> = texts.iter().map(|t| t.text_content().unwrap_or_default()).collect();
    format!("{look}|{room}|{}", words.join("|"))
}

/// Whether any of `els` (a text, or a pair's two) was not last fitted for `sig`: then all are
/// marked fitted for it. Each element carries the mark, so one Yew drew anew is fitted too.
fn stale(els: &[&Element], sig: &str) -> bool {
    if els.iter().all(|el| el.get_attribute("data-fitted").as_deref() == Some(sig)) {
        return false;
    }
    for el in els {
        let _ = el.set_attribute("data-fitted", sig);
    }
    true
}

/// A text whose font cannot be read is not styled (a stage not in the page yet): fitted again
/// next time.
fn measured(el: &Element) -> f64 {
    match font_of(el).filter(|f| !f.trim().is_empty()) {
        Some(font) => drawn_width(el, &font),
        None => {
            let _ = el.remove_attribute("data-fitted");
            0.0
        }
    }
}

/// Fits the texts under `root` whose text, room or stage `look` (what sets their fonts: the
/// language, portrait or not) changed since they were last fitted: those are released first,
/// then measured in one layout.
pub(super) fn fit(root: &Element, look: &str) {
    let singles: Vec<(Element, f64)> = all(root, "text[data-fit]")
        .into_iter()
        .filter_map(|el| {
            let room = number(&el, "data-fit")?;
            stale(&[&el], &signature(look, room, &[&el])).then_some((el, room))
        })
        .collect();
    let pairs: Vec<(f64, Element, Element)> = all(root, "[data-fit-pair]")
        .into_iter()
        .filter_map(|g| {
            let room = number(&g, "data-fit-pair")?;
            let key = g.query_selector("text.key").ok().flatten()?;
            let detail = g.query_selector("text.detail").ok().flatten()?;
            stale(&[&key, &detail], &signature(look, room, &[&key, &detail]))
                .then_some((room, key, detail))
        })
        .collect();
    for el in singles.iter().map(|(el, _)| el).chain(pairs.iter().flat_map(|(_, k, d)| [k, d])) {
        press(el, None);
    }
    // Every font read before any width is written: a write between two reads would restyle
    // the page again for the second.
    let single_widths: Vec<f64> = singles.iter().map(|(el, _)| measured(el)).collect();
    let pair_widths: Vec<(f64, f64)> =
        pairs.iter().map(|(_, k, d)| (measured(k), measured(d))).collect();
    for ((el, room), w) in singles.iter().zip(single_widths) {
        press(el, (w > *room).then_some(*room));
    }
    for ((room, key, detail), (k, d)) in pairs.iter().zip(pair_widths) {
        let (key_room, detail_room) = share(*room, k, d);
        press(key, key_room);
        press(detail, detail_room);
    }
}

/// The widths a row's key and value are pressed to when both do not fit in `room` (`None`: as
/// drawn): the value keeps its width and the key takes the rest, down to 55 % of its own.
pub(super) fn share(room: f64, key: f64, detail: f64) -> (Option<f64>, Option<f64>) {
    if key + GAP + detail <= room {
        return (None, None);
    }
    let key_room = (room - GAP - detail).max(key * 0.55).min(key);
    let detail_room = room - GAP - key_room;
    (Some(key_room), (detail > detail_room).then_some(detail_room.max(1.0)))
}

/// The width of `text` in a monospace font of `px` pixels, estimated: the first view is drawn
/// where nothing can be measured (src/ui/poster.rs). Latin glyphs of the stage's monospace
/// fonts advance 0.6 em (0.55 in Consolas); a CJK glyph, from the fallback font, about 1 em.
pub(super) fn mono_width(text: &str, px: f64) -> f64 {
    text.chars().map(|c| if c >= '\u{2e80}' { px } else { px * 0.6 }).sum()
}

/// The `textLength` a row's key and value are drawn with, as attributes: in the first view only,
/// from estimated widths, so that a long key does not run into its value before the lab
/// measures them (`fit`, which releases them first). The live stage never sets them here.
pub(super) fn first_view_pair(
    room: f64,
    key: (&str, f64),
    detail: (&str, f64),
) -> (Option<String>, Option<String>) {
    if cfg!(target_arch = "wasm32") {
        return (None, None);
    }
    let (k, d) = share(room, mono_width(key.0, key.1), mono_width(detail.0, detail.1));
    (k.map(|w| format!("{w:.1}")), d.map(|w| format!("{w:.1}")))
}

/// As [`first_view_pair`], for a text alone in its room.
pub(super) fn first_view_single(room: f64, text: &str, px: f64) -> Option<String> {
    let w = mono_width(text, px);
    (!cfg!(target_arch = "wasm32") && w > room).then(|| format!("{room:.1}"))
}

/// Fits the texts under `node` after every render (its texts may have changed, or the `look`
/// they are drawn in); only the changed ones are measured.
#[hook]
pub(super) fn use_fit(node: NodeRef, look: String) {
    use_effect(move || {
        if let Some(el) = node.cast::<Element>() {
            fit(&el, &look);
        }
    });
}
