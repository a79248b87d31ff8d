//! Painting cells into an RGBA buffer, and putting buffers on canvases.
//!
//! The main canvas keeps a persistent buffer in which only the cells that changed are repainted,
//! then copied with a single `put_image_data`. Every non-free state also has a shape when cells
//! are ≥ 4 px (leaked: diagonal hatch, duplicate: cross, kubernetes: dot, not allocated: outline
//! only), so that colour is never the only cue.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

use super::layout::{Grid, PATTERN_MIN_PX};
use super::theme::{palette, Palette, Rgb};
use crate::lab::inspect::{BitmapView, Cell};

/// The fill of a cell in the state `cell` (`None`: no cell, past the end of the range).
pub(crate) fn fill(cell: Option<Cell>, in_static: bool, pal: &Palette) -> Rgb {
    match cell {
        Some(Cell::Free) if in_static => pal.free_static,
        Some(Cell::Free) => pal.free,
        Some(Cell::Allocated) => pal.allocated,
        Some(Cell::Kubernetes) => pal.kubernetes,
        Some(Cell::Leaked) => pal.leaked,
        Some(Cell::Duplicate) => pal.duplicate,
        Some(Cell::Unallocated) => pal.unallocated,
        Some(Cell::WrongReference) => pal.wrong,
        None => pal.bg,
    }
}

/// The main colour of a cell (what fills its centre, except the kubernetes dot and the outline-only
/// "not allocated" cells at ≥ 4 px), for tests and for anyone matching the canvas.
pub fn cell_colour(cell: Cell, in_static_band: bool, dark: bool) -> [u8; 3] {
    fill(Some(cell), in_static_band, palette(dark))
}

/// The canvas background (the panel colour) of a theme.
pub fn background_colour(dark: bool) -> [u8; 3] {
    palette(dark).bg
}

/// Whether grid cell `i` is in a shaded 16 × 16 block: only small cells without gaps (≥ 64 columns
/// of < 4 px), so that a /16 reads like graph paper.
fn shaded(i: usize, cols: usize, cell_px: usize) -> bool {
    cell_px < PATTERN_MIN_PX && cols >= 64 && ((i % cols) / 16 + (i / cols) / 16) % 2 == 1
}

/// How one cell looks, beside its state.
#[derive(Clone, Copy)]
pub(crate) struct Look {
    pub(crate) cell: Option<Cell>,
    pub(crate) in_static: bool,
    /// Draw the state's shape (cells ≥ [`PATTERN_MIN_PX`]).
    pub(crate) patterns: bool,
    /// A free cell in a graph-paper block.
    pub(crate) shade: bool,
}

/// The colour of pixel `(x, y)` of an `s` × `s` cell that looks like `look`.
fn cell_pixel(look: Look, s: usize, x: usize, y: usize, pal: &Palette) -> Rgb {
    let base = match look.cell {
        Some(Cell::Free) if look.shade && !look.in_static => pal.free_alt,
        c => fill(c, look.in_static, pal),
    };
    if !look.patterns {
        return base;
    }
    let thick = if s >= 12 { 2 } else { 1 };
    let period = if s >= 12 { 6 } else { 3 };
    let outline = if s >= 12 { 2 } else { 1 };
    let centre = (s as f64 - 1.0) / 2.0;
    let radius = (s as f64 * 0.22).max(0.6);
    match look.cell {
        Some(Cell::Leaked) if (x + y) % period < thick => pal.hatch,
        Some(Cell::Duplicate) if x.abs_diff(y) < thick || (x + y).abs_diff(s - 1) < thick => {
            pal.cross
        }
        Some(Cell::Kubernetes)
            if (x as f64 - centre).powi(2) + (y as f64 - centre).powi(2) <= radius * radius =>
        {
            pal.dot
        }
        Some(Cell::Unallocated)
            if x >= outline && y >= outline && x + outline < s && y + outline < s =>
        {
            fill(Some(Cell::Free), look.in_static, pal)
        }
        Some(Cell::WrongReference)
            if (y as f64 - centre).abs() < (s as f64 * 0.14).max(0.5) && x > 0 && x + 1 < s =>
        {
            pal.bar
        }
        _ => base,
    }
}

/// An RGBA buffer `width` × `height` pixels.
#[derive(Default)]
pub(crate) struct Pixels {
    data: Vec<u8>,
    pub(crate) width: usize,
    pub(crate) height: usize,
}

impl Pixels {
    /// A buffer filled with `bg`.
    pub fn new(width: usize, height: usize, bg: Rgb) -> Self {
        let mut p = Pixels { data: vec![0; width * height * 4], width, height };
        for i in 0..width * height {
            p.put(i, bg);
        }
        p
    }

    /// Sets pixel `i` (row-major); outside the buffer, nothing.
    pub(crate) fn put(&mut self, i: usize, rgb: Rgb) {
        if let Some(px) = self.data.get_mut(i * 4..i * 4 + 4) {
            px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
        }
    }

    fn rgb(&self, x: usize, y: usize) -> Rgb {
        let i = (y * self.width + x) * 4;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }

    /// Paints the `s` × `s` inside of a cell whose top-left pixel is `(x0, y0)`.
    pub fn cell(&mut self, x0: usize, y0: usize, s: usize, look: Look, pal: &Palette) {
        for y in 0..s {
            for x in 0..s {
                let rgb = cell_pixel(look, s, x, y, pal);
                self.put((y0 + y) * self.width + x0 + x, rgb);
            }
        }
    }

    /// Paints the one-pixel gap along the right and bottom edges of a `px` cell.
    pub fn gap(&mut self, x0: usize, y0: usize, px: usize, in_static: bool, pal: &Palette) {
        let rgb = if in_static { pal.gap_static } else { pal.bg };
        for d in 0..px {
            self.put((y0 + d) * self.width + x0 + px - 1, rgb);
            self.put((y0 + px - 1) * self.width + x0 + d, rgb);
        }
    }

    /// An ImageData owning a copy of the buffer. (`ImageData::new_with_u8_clamped_array_and_sh`
    /// wraps a view of wasm memory, which goes stale as soon as memory grows or the buffer is
    /// reused: fine for one immediate put, wrong for the copy the sweep restores from.)
    pub(crate) fn image(&self) -> Option<ImageData> {
        let array = js_sys::Uint8ClampedArray::new_with_length(self.data.len() as u32);
        array.copy_from(&self.data);
        ImageData::new_with_js_u8_clamped_array_and_sh(
            &array,
            self.width as u32,
            self.height as u32,
        )
        .ok()
    }
}

/// The colour at the centre of grid cell `index` (of a grid `cols` wide with `cell_px` cells):
/// what a test reading the canvas back should find there.
pub fn centre_colour(
    cell: Cell,
    index: usize,
    cols: usize,
    cell_px: usize,
    in_static_band: bool,
    dark: bool,
) -> [u8; 3] {
    let patterns = cell_px >= PATTERN_MIN_PX;
    let s = if patterns { cell_px - 1 } else { cell_px }.max(1);
    let look = Look {
        cell: Some(cell),
        in_static: in_static_band,
        patterns,
        shade: shaded(index, cols, cell_px),
    };
    let mut p = Pixels::new(s, s, [0; 3]);
    p.cell(0, 0, s, look, palette(dark));
    p.rgb((s - 1) / 2, (s - 1) / 2)
}

pub(crate) fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok().flatten()?.dyn_into::<CanvasRenderingContext2d>().ok()
}

/// Gives the canvas the right pixel size; true when it had to change (which clears it).
pub(crate) fn size_canvas(canvas: &HtmlCanvasElement, w: usize, h: usize) -> bool {
    let mut changed = false;
    if canvas.width() != w as u32 {
        canvas.set_width(w as u32);
        changed = true;
    }
    if canvas.height() != h as u32 {
        canvas.set_height(h as u32);
        changed = true;
    }
    changed
}

/// Sizes `canvas` to `image` and puts it there.
pub(crate) fn show(canvas: &HtmlCanvasElement, image: &ImageData) {
    size_canvas(canvas, image.width() as usize, image.height() as usize);
    if let Some(ctx) = context_2d(canvas) {
        let _ = ctx.put_image_data(image, 0.0, 0.0);
    }
}

/// What a canvas was last given: the image (kept: the sweep and a replaced canvas element restore
/// from it), the element, and how many updates were put on it (its `data-draws`; sweep frames
/// and re-puts on a replaced element are not counted).
#[derive(Default)]
pub(crate) struct Presented {
    image: Option<ImageData>,
    canvas: Option<HtmlCanvasElement>,
    draws: u32,
}

impl Presented {
    pub(crate) fn image(&self) -> Option<&ImageData> {
        self.image.as_ref()
    }

    /// Puts `pixels` on `canvas` when they `changed`, or the canvas is new or was resized.
    pub fn update(&mut self, canvas: &HtmlCanvasElement, pixels: &Pixels, changed: bool) {
        if changed || self.image.is_none() {
            self.image = pixels.image();
        }
        let resized = size_canvas(canvas, pixels.width, pixels.height);
        let moved = self.canvas.as_ref() != Some(canvas);
        if !(changed || resized || moved) {
            return;
        }
        if let (Some(ctx), Some(image)) = (context_2d(canvas), self.image.as_ref()) {
            let _ = ctx.put_image_data(image, 0.0, 0.0);
            self.draws += 1;
            let _ = canvas.set_attribute("data-draws", &self.draws.to_string());
        }
        self.canvas = Some(canvas.clone());
    }

    /// If Yew replaced the canvas element without anything to redraw, puts the last image on
    /// the new one.
    pub(crate) fn rebind(&mut self, canvas: HtmlCanvasElement) {
        if self.canvas.as_ref().is_some_and(|c| *c != canvas) {
            if let Some(image) = &self.image {
                show(&canvas, image);
            }
            self.canvas = Some(canvas);
        }
    }
}

/// What the main canvas shows; when it changes, everything is repainted.
#[derive(Clone, Copy, PartialEq)]
struct MainKey {
    grid: Grid,
    static_band: usize,
    dark: bool,
}

/// The main canvas's persistent state: what is painted, and the buffer it is painted in.
#[derive(Default)]
pub(crate) struct MainDrawn {
    key: Option<MainKey>,
    /// The state painted for each cell of the window.
    cells: Vec<Option<Cell>>,
    pixels: Pixels,
    pub(crate) presented: Presented,
}

impl MainDrawn {
    /// The size of the cells painted, in canvas pixels.
    pub(crate) fn cell_px(&self) -> Option<usize> {
        self.key.map(|k| k.grid.px)
    }

    /// Paints the cells of `view` shown in `grid` that changed since the last call (all of them
    /// when the grid, the band or the theme changed), then puts the buffer on `canvas` once.
    pub fn draw(&mut self, canvas: &HtmlCanvasElement, view: &BitmapView, grid: Grid, dark: bool) {
        let pal = palette(dark);
        let key = MainKey { grid, static_band: view.static_band(), dark };
        let Grid { cols, px, first, .. } = grid;
        let patterns = px >= PATTERN_MIN_PX;
        let full = self.key != Some(key);
        if full {
            let (w, h) = grid.pixels();
            self.pixels = Pixels::new(w, h, pal.bg);
            self.cells = vec![None; grid.count];
            if patterns {
                for i in 0..grid.count {
                    let in_static = first + i < view.static_band();
                    self.pixels.gap((i % cols) * px, (i / cols) * px, px, in_static, pal);
                }
            }
            self.key = Some(key);
        }
        let mut changed = full;
        let window = view.window(first, grid.count);
        for (i, &cell) in window.iter().enumerate() {
            let cell = Some(cell);
            if full || self.cells[i] != cell {
                let look = Look {
                    cell,
                    in_static: first + i < view.static_band(),
                    patterns,
                    shade: shaded(i, cols, px),
                };
                let inner = if patterns { px - 1 } else { px };
                self.pixels.cell((i % cols) * px, (i / cols) * px, inner, look, pal);
                self.cells[i] = cell;
                changed = true;
            }
        }
        self.presented.update(canvas, &self.pixels, changed);
    }
}

/// Pixels per swatch edge (a cell inside of 13 px plus its gap, as cells ≥ 12 px are painted).
pub(crate) const SWATCH_PX: usize = 14;

/// A legend swatch: one cell of `cell` (`None`: a free cell of the static band, with its gap),
/// painted by the very code that paints the cells.
pub(crate) fn swatch(cell: Option<Cell>, dark: bool) -> Pixels {
    let pal = palette(dark);
    let mut p = Pixels::new(SWATCH_PX, SWATCH_PX, pal.bg);
    let look = |cell, in_static| Look { cell: Some(cell), in_static, patterns: true, shade: false };
    match cell {
        Some(c) => p.cell(0, 0, SWATCH_PX, look(c, false), pal),
        None => {
            p.cell(0, 0, SWATCH_PX - 1, look(Cell::Free, true), pal);
            p.gap(0, 0, SWATCH_PX, true, pal);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_have_shapes_when_big_enough() {
        let pal = palette(false);
        let look =
            |cell, patterns| Look { cell: Some(cell), in_static: false, patterns, shade: false };
        // A kubernetes cell: a dot in the middle, vermillion at the corner.
        let mut p = Pixels::new(23, 23, pal.bg);
        p.cell(0, 0, 23, look(Cell::Kubernetes, true), pal);
        assert_eq!((p.rgb(11, 11), p.rgb(0, 0)), (pal.dot, pal.kubernetes));
        // Not allocated: an outline around a free inside.
        p.cell(0, 0, 23, look(Cell::Unallocated, true), pal);
        assert_eq!((p.rgb(11, 11), p.rgb(0, 11)), (pal.free, pal.unallocated));
        // A wrong reference: a dark bar across a yellow cell.
        p.cell(0, 0, 23, look(Cell::WrongReference, true), pal);
        assert_eq!((p.rgb(11, 11), p.rgb(11, 2)), (pal.bar, pal.wrong));
        // Without patterns, one flat colour.
        p.cell(0, 0, 23, look(Cell::Kubernetes, false), pal);
        assert_eq!(p.rgb(11, 11), pal.kubernetes);
        assert_eq!(fill(None, true, pal), pal.bg, "no cell: background");
    }

    #[test]
    fn small_cells_of_a_wide_grid_read_like_graph_paper() {
        assert!(!shaded(0, 256, 2) && shaded(16, 256, 2) && shaded(16 * 256, 256, 2));
        assert!(!shaded(16, 256, 4), "big cells have gaps instead");
        assert!(!shaded(16, 32, 2), "narrow grids are not shaded");
        assert_ne!(
            centre_colour(Cell::Free, 16, 256, 2, false, false),
            centre_colour(Cell::Free, 0, 256, 2, false, false)
        );
    }
}
