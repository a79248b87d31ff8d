//! A tour step's narration, docked in the strip under a narrow stage, grows into the room the
//! step's highlighted parts leave it (`--tour-room`, `reveal::leave_room`); past that it pages
//! within the strip: this button beside Next says which part is shown ("▾ 1/2") and turns to the
//! next, from the last back to the first. Beside a wide stage the card shows it all (stage.css
//! hides the button).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::lang::use_lang;
use super::listener::EventListener;
use crate::lang::Lang;

#[derive(Properties, PartialEq)]
pub(crate) struct PagerProps {
    /// The narration's box, which scrolls when it is taller than its room.
    pub(crate) body: NodeRef,
    /// The step shown: each starts on its first part.
    pub(crate) step: usize,
}

/// How far one part goes on: the box's height less a line, which is shown again for context.
fn part_step(height: f64) -> f64 {
    (height - 24.0).max(height / 2.0).max(1.0)
}

/// The part `el` shows and how many there are.
fn parts(el: &Element) -> (usize, usize) {
    let (h, full, top) =
        (el.client_height() as f64, el.scroll_height() as f64, el.scroll_top() as f64);
    if h <= 0.0 || full <= h + 1.0 {
        return (0, 1);
    }
    let step = part_step(h);
    let count = 1 + ((full - h) / step).ceil() as usize;
    let shown = if top + h >= full - 1.0 { count - 1 } else { (top / step).round() as usize };
    (shown.min(count - 1), count)
}

#[function_component(NarrationPager)]
pub(crate) fn narration_pager(p: &PagerProps) -> Html {
    let lang = use_lang();
    let state = use_state(|| (0usize, 1usize));
    {
        let (body, state) = (p.body.clone(), state.clone());
        use_effect_with(p.step, move |_| {
            let watch = body.cast::<Element>().and_then(|el| {
                let measure = {
                    let (el, state) = (el.clone(), state.clone());
                    move || state.set(parts(&el))
                };
                measure();
                let on_resize = Closure::<dyn FnMut()>::new(measure.clone());
                let observer =
                    web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
                observer.observe(&el);
                // The narration's own height changes with its text (another language).
                let kids = el.children();
                for i in 0..kids.length() {
                    if let Some(k) = kids.item(i) {
                        observer.observe(&k);
                    }
                }
                let on_scroll =
                    EventListener::new(&el, "scroll", Closure::<dyn FnMut()>::new(measure));
                Some((observer, on_resize, on_scroll))
            });
            move || {
                if let Some((observer, _, _)) = &watch {
                    observer.disconnect();
                }
                drop(watch);
            }
        });
    }
    let (shown, count) = *state;
    let onclick = {
        let body = p.body.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(el) = body.cast::<Element>() else { return };
            let (shown, count) = parts(&el);
            let h = el.client_height() as f64;
            let top = if shown + 1 < count {
                ((shown + 1) as f64 * part_step(h)).min(el.scroll_height() as f64 - h)
            } else {
                0.0
            };
            el.set_scroll_top(top.round() as i32);
        })
    };
    let last = shown + 1 == count;
    let label = match lang {
        Lang::En if last => format!("Narration, part {} of {count}: back to the start", shown + 1),
        Lang::En => format!("Narration, part {} of {count}: read on", shown + 1),
        Lang::Zh if last => format!("解说第 {} 部分，共 {count} 部分：回到开头", shown + 1),
        Lang::Zh => format!("解说第 {} 部分，共 {count} 部分：继续阅读", shown + 1),
    };
    html! {
        <button class="small quiet tour-page" hidden={count <= 1} aria-label={label} {onclick}>
            { format!("{} {}/{count}", if last { "▴" } else { "▾" }, shown + 1) }</button>
    }
}
