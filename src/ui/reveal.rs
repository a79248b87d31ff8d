//! What a tour step talks about comes into view, clear of what the lab itself lays over the
//! page (the time controls while they stick to the top, the tour strip docked at the bottom),
//! and only when it is not in view already. The lab's window scrolls by the distance needed (the
//! page, or a host page around a shadow root or a `mount()`ed instance); a window that does
//! not scroll (an iframe sized to the lab) has `scrollIntoView` scroll the page around it. A host
//! page's sticky or fixed header (or its `scroll-padding-top`) covers the top as the lab's own
//! time controls do: parts come out below it, and the time controls stick below it too.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use super::listener::EventListener;

/// Room kept between the part and what covers the viewport's edges (px).
const MARGIN: f64 = 8.0;

fn window_of(el: &Element) -> Option<web_sys::Window> {
    el.owner_document()?.default_view()
}

fn viewport_height(el: &Element) -> f64 {
    window_of(el).and_then(|w| w.inner_height().ok()).and_then(|h| h.as_f64()).unwrap_or(0.0)
}

/// `el`'s height when it sticks to an edge of the viewport (else 0), with its offset.
fn stuck_height(el: Option<Element>, edge: &str) -> f64 {
    let Some(el) = el else { return 0.0 };
    let Some(style) = window_of(&el).and_then(|w| w.get_computed_style(&el).ok().flatten()) else {
        return 0.0;
    };
    let position = style.get_property_value("position").unwrap_or_default();
    if position != "sticky" && position != "fixed" {
        return 0.0;
    }
    let offset = crate::ui::browser::css_px(&style, edge).unwrap_or(0.0);
    el.get_bounding_client_rect().height() + offset
}

/// How far down the host page covers the top of the viewport (px): its `scroll-padding-top`, or
/// the bottom of the lowest of the sticky or fixed bars stacked from the top edge that are not
/// the lab's nor hold it (a docs theme's navbar, its sticky tabs, a local nav under them).
/// 0 on the lab's own page and in a frame.
pub(crate) fn host_top(lab: &Element) -> f64 {
    let Some(host) = Host::of(lab) else { return 0.0 };
    let padding = host
        .doc
        .document_element()
        .and_then(|html| host.win.get_computed_style(&html).ok().flatten())
        .and_then(|s| crate::ui::browser::css_px(&s, "scroll-padding-top"))
        .unwrap_or(0.0);
    let mut inset = padding;
    // Down the edge: each bar found, look again just below it.
    let mut y = 1.0;
    while y < host.height / 2.0 {
        // A bar, not a cover: one reaching past the middle of the viewport is no header.
        let Some(bar) = host.bar_at(y, |r| r.bottom()).filter(|b| *b > y && *b < host.height / 2.0)
        else {
            break;
        };
        inset = inset.max(bar);
        y = bar + 1.0;
    }
    inset.max(0.0)
}

/// How far up the host page covers the bottom of the viewport (px): its sticky or fixed bars
/// stacked from the bottom edge (a cookie banner, a phone theme's bottom bar). 0 on the lab's own
/// page and in a frame.
fn host_bottom(lab: &Element) -> f64 {
    let Some(host) = Host::of(lab) else { return 0.0 };
    let mut y = host.height - 1.0;
    while y > host.height / 2.0 {
        let Some(bar) = host.bar_at(y, |r| r.top()).filter(|t| *t < y && *t > host.height / 2.0)
        else {
            break;
        };
        y = bar - 1.0;
    }
    (host.height - 1.0 - y).max(0.0)
}

/// The page a lab is embedded in, seen from the lab's column.
struct Host {
    win: web_sys::Window,
    doc: web_sys::Document,
    /// The element the page sees as the lab (the shadow root's host).
    outer: Element,
    x: f64,
    height: f64,
}

impl Host {
    /// None on the lab's own page, alone or framed: no host in this window.
    fn of(lab: &Element) -> Option<Self> {
        let (win, doc) = (window_of(lab)?, lab.owner_document()?);
        if doc.body().is_some_and(|b| b.has_attribute("data-kube-bootstrap-lab-page")) {
            return None;
        }
        // Inside a shadow root the page's elements see the lab as its host.
        let outer = lab
            .get_root_node()
            .dyn_into::<web_sys::ShadowRoot>()
            .map(|s| s.host())
            .unwrap_or_else(|_| lab.clone());
        let r = outer.get_bounding_client_rect();
        let width = win.inner_width().ok().and_then(|w| w.as_f64()).unwrap_or(0.0);
        let x = (r.left() + r.width() / 2.0).clamp(0.0, (width - 1.0).max(0.0));
        let height = viewport_height(lab);
        Some(Host { win, doc, outer, x, height })
    }

    /// The edge (`edge` of its rect) of the sticky or fixed elements at height `y` of the lab's
    /// column that are not the lab's nor hold it: the lowest bottom or highest top, by `edge`'s
    /// order (the caller filters which side of `y` counts).
    fn bar_at(&self, y: f64, edge: impl Fn(&web_sys::DomRect) -> f64) -> Option<f64> {
        let (body, html) = (self.doc.body(), self.doc.document_element());
        let mut found: Vec<f64> = Vec::new();
        for hit in self.doc.elements_from_point(self.x as f32, y as f32).iter() {
            let mut el = hit.dyn_into::<Element>().ok();
            while let Some(e) = el.filter(|e| {
                body.as_ref().is_none_or(|b| *e != *b.as_ref()) && html.as_ref() != Some(e)
            }) {
                if self.pinned(&e) {
                    if !e.contains(Some(&self.outer)) && !self.outer.contains(Some(&e)) {
                        found.push(edge(&e.get_bounding_client_rect()));
                    }
                    break;
                }
                el = e.parent_element();
            }
        }
        // The one farthest from the edge the walk started at.
        let from_top = y < self.height / 2.0;
        found.into_iter().reduce(|a, b| if from_top { a.max(b) } else { a.min(b) })
    }

    fn pinned(&self, e: &Element) -> bool {
        let position = self
            .win
            .get_computed_style(e)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("position").ok())
            .unwrap_or_default();
        position == "fixed" || position == "sticky"
    }
}

/// Keeps the lab's `--host-top` and `--host-bottom` (style.css and stage.css: the time controls
/// stick below the host page's bars, the docked tour card above them) at what the host page
/// covers: measured once laid out, and again when the window is resized or a scroll ends (a
/// theme's bar that hides or shows as the page scrolls).
#[hook]
pub(crate) fn use_host_top(root: NodeRef) {
    use_effect_with((), move |_| {
        let measure = {
            let root = root.clone();
            move || {
                let Some(lab) = root.cast::<HtmlElement>() else {
                    return;
                };
                let (top, bottom) = (host_top(&lab), host_bottom(&lab));
                let _ = lab.style().set_property("--host-top", &format!("{top}px"));
                let _ = lab.style().set_property("--host-bottom", &format!("{bottom}px"));
            }
        };
        let first = gloo_timers::callback::Timeout::new(150, measure.clone());
        let listeners = root.cast::<Element>().and_then(|lab| window_of(&lab)).map(|w| {
            ["resize", "scrollend"].map(|event| {
                EventListener::new(&w, event, Closure::<dyn FnMut()>::new(measure.clone()))
            })
        });
        move || drop((first, listeners))
    });
}

/// How much of the viewport is covered at its top and at its bottom (px): the host page's
/// header, the time controls while they stick (below that header), the docked tour strip and
/// the latest events docked above it (above the host page's bottom bars).
fn covered(lab: &Element) -> (f64, f64) {
    let top =
        stuck_height(lab.query_selector(".controls").ok().flatten(), "top").max(host_top(lab));
    let strip = stuck_height(lab.query_selector(".stage-row > .tour").ok().flatten(), "bottom");
    let events =
        stuck_height(lab.query_selector(".stage-row .stage-events").ok().flatten(), "bottom");
    // The strip docks at --host-bottom: its offset counts the host's bottom bars already.
    (top, strip.max(events).max(host_bottom(lab)))
}

/// The vertical extent (client px) of the elements that are drawn and scroll with the page,
/// within `room` px: when they do not all fit, the stretch that holds the most spots whole.
fn extent(els: &[Element], room: f64) -> Option<(f64, f64)> {
    let mut boxes: Vec<(f64, f64, String)> = els
        .iter()
        .filter(|e| stuck_height(Some((*e).clone()), "bottom") == 0.0)
        .map(|e| {
            (e.get_bounding_client_rect(), e.get_attribute("data-tour-spot").unwrap_or_default())
        })
        .filter(|(r, _)| r.width() > 0.0 && r.height() > 0.0)
        .map(|(r, spot)| (r.top(), r.bottom(), spot))
        .collect();
    boxes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let all = boxes.iter().fold(None, |acc: Option<(f64, f64)>, (t, b, _)| {
        Some(acc.map_or((*t, *b), |(t0, b0)| (t0.min(*t), b0.max(*b))))
    });
    if all.is_none_or(|(t, b)| b - t <= room) {
        return all;
    }
    // Each part's top as the stretch's top: how many spots have every part whole in it.
    let whole = |top: f64| {
        let inside = |t: f64, b: f64| t >= top && b <= top + room;
        let mut spots: Vec<&String> = boxes.iter().map(|(_, _, s)| s).collect();
        spots.sort();
        spots.dedup();
        spots
            .iter()
            .filter(|s| boxes.iter().filter(|(_, _, o)| o == **s).all(|(t, b, _)| inside(*t, *b)))
            .count()
    };
    let best = boxes.iter().map(|(t, _, _)| *t).max_by_key(|&t| (whole(t), -(t as i64)))?;
    let bottom = boxes
        .iter()
        .filter(|(t, b, _)| *t >= best && *b <= best + room)
        .map(|(_, b, _)| *b)
        .fold(best, f64::max);
    Some((best, bottom))
}

/// Scrolls `els` (all of them, or as many as fit whole) into the part of the viewport `lab`
/// leaves clear; nothing when they are there already.
pub(crate) fn reveal(lab: &Element, els: &[Element], smooth: bool) {
    let (over, under) = covered(lab);
    let (lo, hi) = (over + MARGIN, viewport_height(lab) - under - MARGIN);
    let Some((top, bottom)) = extent(els, hi - lo) else {
        return;
    };
    if top >= lo && bottom <= hi {
        return;
    }
    let tall = bottom - top > hi - lo;
    let delta = if tall || top < lo { top - lo } else { bottom - hi };
    if let Some(w) = window_of(lab).filter(scrolls) {
        // By the distance itself: the page's `scroll-padding` (kept for focus) is no part of it.
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"top".into(), &delta.into());
        let _ = js_sys::Reflect::set(
            &options,
            &"behavior".into(),
            &(if smooth { "smooth" } else { "instant" }).into(),
        );
        if let Ok(f) = js_sys::Reflect::get(&w, &"scrollBy".into())
            .and_then(|f| f.dyn_into::<js_sys::Function>())
        {
            let _ = f.call1(&w, &options);
        }
        return;
    }
    let Some(proxy) = lab.owner_document().and_then(|d| d.create_element("div").ok()) else {
        return;
    };
    let Ok(proxy) = proxy.dyn_into::<HtmlElement>() else {
        return;
    };
    // `.lab` contains its layout (a container), so it is the box `top` counts from.
    let origin = lab.get_bounding_client_rect().top() + lab.client_top() as f64;
    let style = proxy.style();
    for (k, v) in [
        ("position", "absolute".to_string()),
        ("left", "0".into()),
        ("width", "1px".into()),
        ("top", format!("{}px", top - origin)),
        ("height", format!("{}px", bottom - top)),
        ("scroll-margin", format!("{lo}px 0 {}px", under + MARGIN)),
        ("opacity", "0".into()),
        ("pointer-events", "none".into()),
    ] {
        let _ = style.set_property(k, &v);
    }
    let _ = proxy.set_attribute("aria-hidden", "true");
    if lab.append_child(&proxy).is_err() {
        return;
    }
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(if tall {
        web_sys::ScrollLogicalPosition::Start
    } else {
        web_sys::ScrollLogicalPosition::Nearest
    });
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    options.set_behavior(if smooth {
        web_sys::ScrollBehavior::Smooth
    } else {
        web_sys::ScrollBehavior::Auto
    });
    proxy.scroll_into_view_with_scroll_into_view_options(&options);
    // A smooth scroll has taken its target already; the stand-in can go.
    proxy.remove();
}

/// Whether the window's own document scrolls (it is taller than the window).
fn scrolls(w: &web_sys::Window) -> bool {
    let height = w.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    w.document()
        .and_then(|d| d.scrolling_element())
        .is_some_and(|e| e.scroll_height() as f64 > height + 1.0)
}

/// The highlighted parts of the tour region (the stage and its card, the time controls): the
/// details below are the reader's to scroll to ("Look at").
pub(crate) fn spots_in_region(lab: &Element, name: Option<&str>) -> Vec<Element> {
    let selector = ".stage-row .tour-spot, .controls.tour-spot, .controls .tour-spot";
    let Ok(list) = lab.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
        .filter(|e| name.is_none_or(|n| e.get_attribute("data-tour-spot").as_deref() == Some(n)))
        .collect()
}

/// Whether the reader is at the tour: some of its region is in the viewport.
fn region_in_view(lab: &Element) -> bool {
    let region = lab
        .query_selector(".stage-row")
        .ok()
        .flatten()
        .or_else(|| lab.query_selector(".tour").ok().flatten());
    let Some(r) = region.map(|r| r.get_bounding_client_rect()) else {
        return false;
    };
    r.top() < viewport_height(lab) && r.bottom() > 0.0
}

/// The lab is its page's only content (not framed, not embedded): it may scroll at once.
fn own_page(lab: &Element) -> bool {
    let framed = window_of(lab)
        .is_some_and(|w| w.top().ok().flatten().is_some_and(|t| !js_sys::Object::is(&t, &w)));
    let marked = lab
        .owner_document()
        .and_then(|d| d.body())
        .is_some_and(|b| b.has_attribute("data-kube-bootstrap-lab-page"));
    marked && !framed && lab.get_root_node().dyn_ref::<web_sys::ShadowRoot>().is_none()
}

fn try_reveal(lab: &Element) -> bool {
    if !lab.is_connected() || !region_in_view(lab) {
        return false;
    }
    let spots = spots_in_region(lab, None);
    leave_room(lab, &spots);
    reveal(lab, &spots, !super::media::prefers_reduced_motion());
    true
}

/// The room a step's parts leave the tour strip docked under them (`--tour-room` on the lab,
/// px): the viewport less what covers its top, the parts' extent and the latest events docked
/// above the strip. The strip grows into it to show the step's whole narration, which pages
/// within it past that (stage.css, `ui::pager`); beside the stage nothing is set.
fn leave_room(lab: &Element, spots: &[Element]) {
    let Ok(lab) = lab.clone().dyn_into::<HtmlElement>() else {
        return;
    };
    let strip = lab.query_selector(".stage-row > .tour").ok().flatten();
    let strip_h = strip.as_ref().map_or(0.0, |s| s.get_bounding_client_rect().height());
    if stuck_height(strip, "bottom") == 0.0 {
        let _ = lab.style().remove_property("--tour-room");
        return;
    }
    let (over, _) = covered(&lab);
    let events = lab.query_selector(".stage-row .stage-events.tour-spot").ok().flatten();
    let events_h = (stuck_height(events, "bottom") - strip_h).max(0.0);
    let parts = extent(spots, f64::INFINITY).map_or(0.0, |(top, bottom)| bottom - top);
    let room = viewport_height(&lab) - over - parts - events_h - 2.0 * MARGIN;
    let _ = lab.style().set_property("--tour-room", &format!("{}px", room.floor()));
}

/// Each step (`step` changes) brings its parts clear into view when the reader is at the tour,
/// and again once the lab has moved to the step (`moving` ends): the clock's run to the step's
/// moment can grow a part (an etcd row appears) after the first reveal. The opening step of an
/// embedded lab waits for the reader to scroll to it (a page is not moved at load for a lab
/// further down); so does a step that appears out of view.
#[hook]
pub(crate) fn use_step_reveal<K: PartialEq + Clone + 'static>(
    root: NodeRef,
    step: Option<K>,
    moving: bool,
) {
    // The step the lab opened on, until it leaves it.
    let opening = use_mut_ref(|| Some(step.clone()));
    use_effect_with((step, moving), move |(step, _)| {
        let initial = {
            let mut opening = opening.borrow_mut();
            if opening.as_ref() != Some(step) {
                *opening = None;
            }
            opening.is_some()
        };
        // No step: nothing to reveal, ever (an instant long past).
        let revealed: Revealed = Rc::new(Cell::new(step.is_none().then_some(f64::NEG_INFINITY)));
        let lab = root.cast::<Element>();
        // After this render (it draws the marks), once laid out; the first time, again once
        // the stage has laid itself out for its width (it knows it a frame after it is drawn,
        // later on a slow machine). A part in view already does not move the page.
        let delays: &[u32] = if initial { &[150, 700] } else { &[0] };
        let timers: Vec<_> = lab
            .clone()
            .filter(|_| revealed.get().is_none())
            .into_iter()
            .flat_map(|lab| delays.iter().map(move |&ms| (lab.clone(), ms)))
            .map(|(lab, ms)| {
                let revealed = revealed.clone();
                gloo_timers::callback::Timeout::new(ms, move || {
                    if !initial || own_page(&lab) {
                        reveal_first(&lab, &revealed);
                    }
                })
            })
            .collect();
        let watch = lab.filter(|_| revealed.get().is_none()).and_then(|lab| {
            let window = window_of(&lab)?;
            let on_end = {
                let (lab, revealed) = (lab.clone(), revealed.clone());
                let top = Cell::new(f64::NAN);
                Closure::<dyn FnMut()>::new(move || {
                    let now = host_top(&lab);
                    // A host's bar that stuck as the page scrolled to the parts (VitePress's
                    // local nav on a phone), or a header that hid: what covers the top changed,
                    // so the parts come out again below it while the step settles.
                    if settling(&lab, &revealed) && now != top.get() {
                        try_reveal(&lab);
                    }
                    reveal_first(&lab, &revealed);
                    top.set(now);
                })
            };
            let scrolled = EventListener::new(&window, "scrollend", on_end);
            Some((scrolled, Settling::watch(&lab, &window, revealed)))
        });
        move || drop((timers, watch))
    });
}

/// When the step's parts were first brought into view (the page's clock, ms), once they were.
type Revealed = Rc<Cell<Option<f64>>>;

fn page_now(lab: &Element) -> f64 {
    window_of(lab).and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Brings the step's parts into view if the reader is at the tour and they were not yet.
fn reveal_first(lab: &Element, revealed: &Revealed) {
    if revealed.get().is_none() && try_reveal(lab) {
        revealed.set(Some(page_now(lab)));
    }
}

/// How long after a step's parts were first revealed they are kept in view while the stage
/// settles (ms).
const SETTLING_MS: f64 = 1500.0;

/// Whether the step's parts were revealed, and not longer than SETTLING_MS ago.
fn settling(lab: &Element, revealed: &Revealed) -> bool {
    revealed.get().is_some_and(|t| page_now(lab) - t <= SETTLING_MS)
}

/// While a step's stage settles (its rows and texts fitted a frame or more after it is drawn,
/// the card's text wrapped, a host page's script sizing the lab's iframe to the viewport), each
/// change of the stage's or the card's size, or of the lab's window, brings the step's parts
/// into view again, for a while after they were first revealed: a part that grows or a frame
/// that shrinks after the reveal would otherwise leave a part under the docked card. The while
/// starts at the reveal, not at the step: an embedded lab's opening step is revealed only when
/// the reader scrolls to it.
struct Settling {
    observer: web_sys::ResizeObserver,
    _on_resize: Closure<dyn FnMut()>,
    _window_resized: EventListener<dyn FnMut()>,
}

impl Settling {
    fn watch(lab: &Element, window: &web_sys::Window, revealed: Revealed) -> Option<Self> {
        let again: Rc<dyn Fn()> = {
            let lab = lab.clone();
            Rc::new(move || {
                if settling(&lab, &revealed) {
                    try_reveal(&lab);
                }
            })
        };
        let on_resize = {
            let again = again.clone();
            Closure::<dyn FnMut()>::new(move || again())
        };
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
        for selector in [".stage-row .stage", ".stage-row > .tour"] {
            if let Some(el) = lab.query_selector(selector).ok().flatten() {
                observer.observe(&el);
            }
        }
        let on_window = Closure::<dyn FnMut()>::new(move || again());
        let window_resized = EventListener::new(window, "resize", on_window);
        Some(Settling { observer, _on_resize: on_resize, _window_resized: window_resized })
    }
}

impl Drop for Settling {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}
