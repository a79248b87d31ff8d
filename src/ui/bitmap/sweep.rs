//! The repair sweep: when a repair run happens, a band moves down the cells over ~700 ms, drawn
//! over the canvas on animation frames and wiped by putting back the cells beneath it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

use super::paint::{context_2d, MainDrawn};
use super::theme::{is_dark, palette};
use crate::ui::hooks::FrameLoop;
use crate::ui::media::prefers_reduced_motion;

/// How long one repair sweep takes, in real milliseconds.
const SWEEP_MS: f64 = 700.0;

/// Rows of pixels `(top, height)` of the canvas that a band frame covered.
type Band = Rc<Cell<Option<(f64, f64)>>>;

/// Sweeps the canvas of `node` whenever `sweep` grows (not when it falls: seeking back), unless
/// the user prefers reduced motion. The canvas carries `data-sweeping="true"` meanwhile.
#[hook]
pub(crate) fn use_sweep(sweep: u64, node: &NodeRef, drawn: &Rc<RefCell<MainDrawn>>) {
    let last = use_mut_ref(|| sweep);
    let (node, drawn) = (node.clone(), drawn.clone());
    use_effect_with(sweep, move |&sweep| {
        let grew = sweep > last.replace(sweep);
        // The band drawn last, to put back from the image of the cells.
        let band: Band = Rc::default();
        let restore = {
            let (node, drawn, band) = (node.clone(), drawn.clone(), band.clone());
            move || restore_band(&node, &drawn.borrow(), &band)
        };
        let started =
            node.cast::<HtmlCanvasElement>().filter(|_| grew && !prefers_reduced_motion());
        let frames = started.as_ref().map(|canvas| {
            let _ = canvas.set_attribute("data-sweeping", "true");
            let restore = restore.clone();
            let mut start = None::<f64>;
            FrameLoop::start(move |ts| {
                restore();
                let Some(canvas) = node.cast::<HtmlCanvasElement>() else {
                    return false;
                };
                let t = ((ts - *start.get_or_insert(ts)) / SWEEP_MS).clamp(0.0, 1.0);
                if t >= 1.0 {
                    let _ = canvas.set_attribute("data-sweeping", "false");
                    return false;
                }
                let (Some(ctx), Some(px)) = (context_2d(&canvas), drawn.borrow().cell_px()) else {
                    return false;
                };
                band.set(paint_band(&ctx, &canvas, t, px));
                true
            })
        });
        move || {
            // Stop the frames first, then put the cells back.
            drop(frames);
            restore();
            if let Some(canvas) = started {
                let _ = canvas.set_attribute("data-sweeping", "false");
            }
        }
    });
}

/// Puts back the rows the last band frame covered, from the image of the cells.
fn restore_band(node: &NodeRef, drawn: &MainDrawn, band: &Band) {
    let (Some(canvas), Some((y, h))) = (node.cast::<HtmlCanvasElement>(), band.take()) else {
        return;
    };
    if let (Some(ctx), Some(image)) = (context_2d(&canvas), drawn.presented.image()) {
        let _ = ctx.put_image_data_with_dirty_x_and_dirty_y_and_dirty_width_and_dirty_height(
            image,
            0.0,
            0.0,
            0.0,
            y,
            image.width() as f64,
            h,
        );
    }
}

/// Draws the band at progress `t` (0..1) over a canvas of `px`-pixel cells; returns the rows
/// to put back next frame: the band plus a row either side.
fn paint_band(
    ctx: &CanvasRenderingContext2d,
    canvas: &HtmlCanvasElement,
    t: f64,
    px: usize,
) -> Option<(f64, f64)> {
    let (w, hgt) = (canvas.width() as f64, canvas.height() as f64);
    let bh = (hgt / 5.0).max(2.0 * px as f64).round();
    // Ease out: quick start, gentle arrival.
    let eased = 1.0 - (1.0 - t).powi(2);
    let y = (-bh + (hgt + bh) * eased).round();
    let (rgb, alpha, edge) = palette(is_dark(canvas)).sweep;
    // A stepped gradient on whole pixel rows, brightest at the leading edge.
    const STRIPS: usize = 8;
    let row = |k: usize| y + (bh * k as f64 / STRIPS as f64).round();
    for k in 0..STRIPS {
        let a = alpha * (k + 1) as f64 / STRIPS as f64;
        ctx.set_fill_style_str(&format!("rgba({rgb},{a:.3})"));
        ctx.fill_rect(0.0, row(k), w, row(k + 1) - row(k));
    }
    let edge_h = (px as f64 / 2.0).clamp(2.0, 4.0).round();
    ctx.set_fill_style_str(edge);
    ctx.fill_rect(0.0, y + bh - edge_h, w, edge_h);
    let (top, bottom) = ((y - 1.0).max(0.0), (y + bh + 1.0).min(hgt));
    (bottom > top).then_some((top, bottom - top))
}
