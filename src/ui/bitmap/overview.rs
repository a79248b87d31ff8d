//! The overview of a range larger than one window (a /12 has 1,048,574 cells): a canvas whose
//! pixels summarise blocks of cells, on which the user picks the 65,536-cell window to show.

use std::rc::Rc;

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::layout::{ceil_sqrt, grid_box, WINDOW, WINDOW_COLS};
use super::navigation::{key_target, plain_key, pointer_in};
use super::paint::{fill, Pixels, Presented};
use super::theme::{palette, Palette};
use crate::lab::inspect::{BitmapView, Cell};
use crate::lang::Lang;

/// The overview is at most this many pixels wide.
const OVERVIEW_PX: usize = 256;

/// How the overview of a large range is laid out: one square tile per window of 65,536 cells,
/// tiles in a square-ish grid, each tile a `scale`× reduction of the 256 × 256 window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overview {
    /// Windows of [`WINDOW`] cells (the last may be partial).
    pub windows: usize,
    pub tile_cols: usize,
    pub tile_rows: usize,
    /// Pixels per tile edge.
    pub tile_px: usize,
    /// Cells per pixel edge: each pixel summarises `scale × scale` cells of its window.
    pub scale: usize,
}

impl Overview {
    pub(crate) fn width(&self) -> usize {
        self.tile_cols * self.tile_px
    }

    pub(crate) fn height(&self) -> usize {
        self.tile_rows * self.tile_px
    }

    /// The overview pixel `(x, y)` that summarises cell `offset`.
    pub fn pixel_of(&self, offset: usize) -> (usize, usize) {
        let w = offset / WINDOW;
        let i = offset % WINDOW;
        let (tx, ty) = self.tile_of(w);
        (
            tx * self.tile_px + (i % WINDOW_COLS) / self.scale,
            ty * self.tile_px + (i / WINDOW_COLS) / self.scale,
        )
    }

    /// The cell offsets (below `size`) that pixel `(x, y)` summarises, one by one.
    #[cfg(test)]
    fn cells_of(&self, x: usize, y: usize, size: usize) -> impl Iterator<Item = usize> {
        let (tx, ty) = (x / self.tile_px, y / self.tile_px);
        let w = ty * self.tile_cols + tx;
        let valid = tx < self.tile_cols && w < self.windows;
        let base = w * WINDOW;
        let (c0, r0) = ((x % self.tile_px) * self.scale, (y % self.tile_px) * self.scale);
        let scale = if valid { self.scale } else { 0 };
        (0..scale)
            .flat_map(move |dr| (0..scale).map(move |dc| base + (r0 + dr) * WINDOW_COLS + c0 + dc))
            .filter(move |&o| o < size)
    }

    /// The first cell offset pixel `(x, y)` summarises (`None` outside the tiles); it may lie
    /// past the range's end.
    pub(crate) fn first_cell(&self, x: usize, y: usize) -> Option<usize> {
        let (tx, ty) = (x / self.tile_px, y / self.tile_px);
        let w = ty * self.tile_cols + tx;
        (tx < self.tile_cols && w < self.windows).then(|| {
            w * WINDOW
                + (y % self.tile_px) * self.scale * WINDOW_COLS
                + (x % self.tile_px) * self.scale
        })
    }

    /// The runs of cells (first offset, length) below `size` that pixel `(x, y)` summarises:
    /// one run per grid row it covers.
    pub(crate) fn rows_of(
        &self,
        x: usize,
        y: usize,
        size: usize,
    ) -> impl Iterator<Item = (usize, usize)> {
        let first = self.first_cell(x, y);
        let scale = if first.is_some() { self.scale } else { 0 };
        let first = first.unwrap_or(0);
        (0..scale)
            .map(move |dr| first + dr * WINDOW_COLS)
            .filter(move |&o| o < size)
            .map(move |o| (o, scale.min(size - o)))
    }

    /// The tile `(x, y)` of window `w`.
    pub(crate) fn tile_of(&self, w: usize) -> (usize, usize) {
        (w % self.tile_cols, w / self.tile_cols)
    }

    /// The CSS box (in percent of the overview) over the tile of window `w`.
    fn tile_style(&self, w: usize) -> String {
        let (tx, ty) = self.tile_of(w);
        grid_box(tx, ty, self.tile_cols, self.tile_rows)
    }
}

/// The overview of a range larger than one window; `None` when one window shows it all.
pub fn overview_layout(size: usize) -> Option<Overview> {
    if size <= WINDOW {
        return None;
    }
    let windows = size.div_ceil(WINDOW);
    let tile_cols = ceil_sqrt(windows);
    let tile_rows = windows.div_ceil(tile_cols);
    let scale =
        (tile_cols * WINDOW_COLS).div_ceil(OVERVIEW_PX).next_power_of_two().min(WINDOW_COLS);
    Some(Overview { windows, tile_cols, tile_rows, tile_px: WINDOW_COLS / scale, scale })
}

/// The window under the point `(x, y)` of the overview element (`width` × `height` CSS pixels).
pub(crate) fn overview_window_at(
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    ov: &Overview,
) -> Option<usize> {
    super::layout::cell_at(x, y, width, height, ov.tile_cols, ov.tile_rows, ov.windows)
}

/// How notable a state is when many cells share one overview pixel:
/// duplicate > wrong reference > leaked > unallocated > kubernetes > allocated > free.
pub(crate) fn priority(cell: Cell) -> u8 {
    match cell {
        Cell::Duplicate => 6,
        Cell::WrongReference => 5,
        Cell::Leaked => 4,
        Cell::Unallocated => 3,
        Cell::Kubernetes => 2,
        Cell::Allocated => 1,
        Cell::Free => 0,
    }
}

/// The most notable of `cells`; `None` when there are none.
pub(crate) fn most_notable(cells: impl IntoIterator<Item = Cell>) -> Option<Cell> {
    cells.into_iter().fold(None, |best, c| match best {
        Some(b) if priority(b) >= priority(c) => Some(b),
        _ => Some(c),
    })
}

/// The overview canvas's persistent state: one summary per pixel.
#[derive(Default)]
struct OverviewDrawn {
    key: Option<(Overview, usize, usize, bool)>,
    prev: Option<Rc<BitmapView>>,
    /// The most notable state of each pixel's cells (`None`: no cells).
    summary: Vec<Option<Cell>>,
    /// Whether each pixel starts in the static band.
    in_static: Vec<bool>,
    pixels: Pixels,
    presented: Presented,
}

impl super::Drawn for OverviewDrawn {
    type Layout = Overview;
    fn paint(
        &mut self,
        canvas: &HtmlCanvasElement,
        view: &Rc<BitmapView>,
        ov: Overview,
        dark: bool,
    ) {
        self.draw(canvas, view, ov, dark);
    }
    fn presented(&mut self) -> &mut Presented {
        &mut self.presented
    }
}

impl OverviewDrawn {
    /// Repaints the pixels whose cells changed since the last view (all of them when the layout,
    /// the band or the theme changed), then puts the buffer on `canvas`.
    fn draw(
        &mut self,
        canvas: &HtmlCanvasElement,
        view: &Rc<BitmapView>,
        ov: Overview,
        dark: bool,
    ) {
        let (w, h) = (ov.width(), ov.height());
        let key = (ov, view.size(), view.static_band(), dark);
        let full = self.key != Some(key) || self.prev.is_none();
        let mut dirty: Vec<usize> = Vec::new();
        if full {
            self.pixels = Pixels::new(w, h, [0; 3]);
            // Free wherever the pixel has cells, then the marked cells on top: the work is the
            // pixels plus the allocations, however large the range.
            let first = |p: usize| ov.first_cell(p % w, p / w);
            self.summary = (0..w * h)
                .map(|p| first(p).filter(|&o| o < view.size()).map(|_| Cell::Free))
                .collect();
            self.in_static =
                (0..w * h).map(|p| first(p).is_some_and(|o| o < view.static_band())).collect();
            for (o, cell) in view.marked() {
                let (x, y) = ov.pixel_of(o);
                let slot = &mut self.summary[y * w + x];
                *slot = most_notable(slot.iter().copied().chain([cell]));
            }
            dirty.extend(0..w * h);
            self.key = Some(key);
        } else if let Some(prev) = self.prev.as_ref().filter(|p| !Rc::ptr_eq(p, view)) {
            for o in view.changed(prev) {
                let (x, y) = ov.pixel_of(o);
                dirty.push(y * w + x);
            }
            dirty.sort_unstable();
            dirty.dedup();
            for &p in &dirty {
                self.summary[p] = summarise(&ov, view, p % w, p / w);
            }
        }
        if !dirty.is_empty() {
            self.paint(&ov, palette(dark));
        }
        self.prev = Some(view.clone());
        self.presented.update(canvas, &self.pixels, !dirty.is_empty());
    }

    /// Paints the overview from its summary. Notable pixels are drawn 3 × 3 (clipped to their
    /// tile, most notable on top) so that a lone Service in a million addresses still shows.
    fn paint(&mut self, ov: &Overview, pal: &Palette) {
        let (w, h) = (ov.width(), ov.height());
        let mut notable = Vec::new();
        for p in 0..w * h {
            let s = self.summary[p];
            let rank = s.map_or(0, priority);
            let under = if rank > 0 { Some(Cell::Free) } else { s };
            self.pixels.put(p, fill(under, self.in_static[p], pal));
            if rank > 0 {
                notable.push((rank, p));
            }
        }
        notable.sort_unstable();
        for (_, p) in notable {
            let (x, y) = (p % w, p / w);
            let (tx0, ty0) = (x / ov.tile_px * ov.tile_px, y / ov.tile_px * ov.tile_px);
            let rgb = fill(self.summary[p], false, pal);
            for ny in y.saturating_sub(1).max(ty0)..=(y + 1).min(ty0 + ov.tile_px - 1).min(h - 1) {
                for nx in
                    x.saturating_sub(1).max(tx0)..=(x + 1).min(tx0 + ov.tile_px - 1).min(w - 1)
                {
                    self.pixels.put(ny * w + nx, rgb);
                }
            }
        }
    }
}

/// The summary of pixel `(x, y)`: the most notable of its cells (`None` when it has none).
fn summarise(ov: &Overview, view: &BitmapView, x: usize, y: usize) -> Option<Cell> {
    most_notable(ov.rows_of(x, y, view.size()).flat_map(|(first, n)| view.window(first, n)))
}

#[derive(Properties, PartialEq)]
pub(crate) struct OverviewProps {
    /// The DOM id prefix of the bitmap.
    pub(crate) id: AttrValue,
    pub(crate) title: AttrValue,
    pub(crate) view: Rc<BitmapView>,
    pub(crate) ov: Overview,
    /// The window shown in detail.
    pub(crate) window: usize,
    /// The window under the pointer.
    pub(crate) hover: Option<usize>,
    /// Which cells the window holds, in words.
    pub(crate) window_text: AttrValue,
    /// The theme epoch of the bitmap (see `use_theme_epoch`).
    pub(crate) theme: u32,
    pub(crate) on_window: Callback<usize>,
    pub(crate) on_hover: Callback<Option<usize>>,
}

/// The overview canvas with the window marked on it, and the buttons that step through windows.
#[function_component(OverviewNav)]
pub(crate) fn overview_nav(p: &OverviewProps) -> Html {
    let lang = super::super::use_lang();
    let node = use_node_ref();
    super::use_drawn_canvas::<OverviewDrawn>(&node, &p.view, p.ov, p.theme);
    let (ov, window, id) = (p.ov, p.window, &p.id);
    let at = {
        let node = node.clone();
        move |e: &PointerEvent| {
            pointer_in(e, &node).and_then(|(x, y, w, h)| overview_window_at(x, y, w, h, &ov))
        }
    };
    let pick = {
        let (at, on_window) = (at.clone(), p.on_window.clone());
        Callback::from(move |e: PointerEvent| {
            if let Some(w) = at(&e).filter(|_| e.button() == 0) {
                on_window.emit(w);
            }
        })
    };
    let drag = {
        let (on_window, on_hover) = (p.on_window.clone(), p.on_hover.clone());
        Callback::from(move |e: PointerEvent| {
            let w = at(&e);
            on_hover.emit(w);
            if let (Some(w), true) = (w, e.buttons() & 1 == 1) {
                on_window.emit(w);
            }
        })
    };
    let leave = p.on_hover.reform(|_: PointerEvent| None);
    let keys = {
        let on_window = p.on_window.clone();
        Callback::from(move |e: KeyboardEvent| {
            let to = plain_key(&e)
                .and_then(|k| key_target(&k, window, ov.windows, ov.tile_cols, ov.tile_cols));
            if let Some(w) = to {
                e.prevent_default();
                on_window.emit(w);
            }
        })
    };
    let go = |w: usize| p.on_window.reform(move |_: MouseEvent| w);
    let hover_tile = p.hover.filter(|&w| w != window && w < ov.windows);
    html! {
        <div class="bitmap-nav">
            <div class="bitmap-ov-stage" style={format!("--tc:{};--tr:{}", ov.tile_cols, ov.tile_rows)}>
                <canvas ref={node} id={format!("{id}-overview")} class="bitmap-overview"
                    width={ov.width().to_string()} height={ov.height().to_string()}
                    data-windows={ov.windows.to_string()} data-tile-cols={ov.tile_cols.to_string()} data-tile-rows={ov.tile_rows.to_string()}
                    tabindex="0" role="slider" aria-label={match lang {
                        Lang::En => format!("{}: overview, choose the 65,536 cells to show", p.title),
                        Lang::Zh => format!("{}：概览，选择要显示的 65,536 格", p.title),
                    }}
                    aria-valuemin="1" aria-valuemax={ov.windows.to_string()} aria-valuenow={(window + 1).to_string()}
                    aria-valuetext={p.window_text.clone()}
                    onpointerdown={pick} onpointermove={drag} onpointerleave={leave} onkeydown={keys}>
                </canvas>
                <div class="bitmap-ov-grid" aria-hidden="true"></div>
                <div class="bitmap-ov-hover" hidden={hover_tile.is_none()} style={hover_tile.map(|w| ov.tile_style(w))} aria-hidden="true"></div>
                <div class="bitmap-ov-window" style={ov.tile_style(window)} aria-hidden="true"></div>
            </div>
            <div class="bitmap-window">
                <button class="small" id={format!("{id}-prev")} disabled={window == 0} onclick={go(window.saturating_sub(1))}
                    aria-label={lang.pick("Previous 65,536 cells", "前 65,536 格")}>{ "‹" }</button>
                <span id={format!("{id}-window")} class="bitmap-window-label" aria-live="polite">{ p.window_text.clone() }</span>
                <button class="small" id={format!("{id}-next")} disabled={window + 1 >= ov.windows} onclick={go(window + 1)}
                    aria-label={lang.pick("Next 65,536 cells", "后 65,536 格")}>{ "›" }</button>
            </div>
            <p class="bitmap-hint">{ match lang {
                Lang::En => format!("Each overview pixel sums up {}×{} cells and shows the most notable, enlarged so that lone cells stand out.", ov.scale, ov.scale),
                Lang::Zh => format!("概览中的每个像素汇总 {}×{} 格，显示其中最值得注意的状态，并放大绘制，让零星的格子也能显现出来。", ov.scale, ov.scale),
            } }</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overview() {
        let ov = overview_layout(1_048_574).unwrap();
        assert_eq!(ov, Overview { windows: 16, tile_cols: 4, tile_rows: 4, tile_px: 64, scale: 4 });
        assert_eq!((ov.width(), ov.height()), (256, 256));
        assert_eq!(ov.pixel_of(0), (0, 0));
        assert_eq!(ov.pixel_of(WINDOW + 5), (65, 0));
        assert_eq!(ov.pixel_of(5 * WINDOW + 256 * 8 + 9), (64 + 2, 64 + 2));
        assert_eq!(ov.cells_of(0, 0, 1_048_574).count(), 16);
        // The runs of a pixel are the cells it sums up.
        for (x, y) in [(0, 0), (65, 0), (66, 66), (255, 255), (130, 200)] {
            let runs: Vec<usize> =
                ov.rows_of(x, y, 1_048_574).flat_map(|(o, n)| o..o + n).collect();
            let cells: Vec<usize> = ov.cells_of(x, y, 1_048_574).collect();
            assert_eq!(runs, cells, "({x}, {y})");
            assert_eq!(ov.first_cell(x, y), cells.first().copied());
        }
        assert_eq!(ov.cells_of(255, 255, 1_048_574).count(), 14);
        assert!(overview_layout(65_536).is_none());
        let two = overview_layout(131_070).unwrap();
        assert_eq!((two.tile_cols, two.tile_rows, two.width(), two.height()), (2, 1, 256, 128));
        assert_eq!(overview_window_at(200.0, 10.0, 256.0, 128.0, &two), Some(1));
        assert_eq!(two.tile_style(1), "left:50.0000%;top:0.0000%;width:50.0000%;height:100.0000%");
    }

    #[test]
    fn the_most_notable_state_wins_a_pixel() {
        use Cell::*;
        assert_eq!(most_notable([Free, Allocated, Kubernetes]), Some(Kubernetes));
        assert_eq!(most_notable([Unallocated, Leaked, Allocated]), Some(Leaked));
        assert_eq!(most_notable([Leaked, Duplicate]), Some(Duplicate));
        assert_eq!(most_notable([Free, Free]), Some(Free));
        assert_eq!(most_notable([]), None);
        let mut ranked = Cell::ALL;
        ranked.sort_by_key(|&c| priority(c));
        assert_eq!(
            ranked,
            [Free, Allocated, Kubernetes, Unallocated, Leaked, WrongReference, Duplicate]
        );
    }
}
