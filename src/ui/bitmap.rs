//! The ClusterIP / NodePort bitmap on a canvas.
//!
//! One `<canvas>` shows every cell of a range (up to 65,536 at a time), drawn from a persistent
//! RGBA buffer in which only the cells that changed are repainted, then copied with a single
//! `put_image_data`. Ranges larger than 65,536 cells (a /12 has 1,048,574) get an overview canvas
//! whose pixels summarise blocks of cells; the user picks a 65,536-cell window on it.
//!
//! Colours are Okabe–Ito and every non-free state also has a shape when cells are ≥ 4 px
//! (leaked: diagonal hatch, duplicate: cross, kubernetes: dot, not allocated: outline only).
//! All words about a cell come from [`BitmapView::describe`]; nothing here decides what a cell
//! means. The texts follow the instance's language ([`super::use_lang`]) and the colours its
//! theme (the nearest `data-theme`, see [`is_dark`]). The CSS lives in `static/bitmap.css`.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};
use yew::prelude::*;

use crate::inspect::{BitmapView, Cell};
use crate::lang::Lang;

/// Cells shown at full detail at once: a /16.
pub const WINDOW: usize = 65_536;
/// Columns of a full window (`layout(WINDOW).0`).
pub const WINDOW_COLS: usize = 256;
/// The largest cell, in canvas pixels (small ranges).
pub const MAX_CELL_PX: usize = 24;
/// The canvas is about this many pixels wide before CSS scaling.
const TARGET_PX: usize = 512;
/// Cells at least this big get a gap and a shape per state.
pub const PATTERN_MIN_PX: usize = 4;
/// How long one repair sweep takes, in real milliseconds.
pub const SWEEP_MS: f64 = 700.0;
/// The overview is at most this many pixels wide.
const OVERVIEW_PX: usize = 256;

const FREE: u8 = Cell::Free as u8;
const ALLOCATED: u8 = Cell::Allocated as u8;
const KUBERNETES: u8 = Cell::Kubernetes as u8;
const LEAKED: u8 = Cell::Leaked as u8;
const DUPLICATE: u8 = Cell::Duplicate as u8;
const UNALLOCATED: u8 = Cell::Unallocated as u8;
/// Not a cell (past the end of the range): painted as background.
const NONE: u8 = 0xFF;

// ---------------------------------------------------------------------------------------------
// Pure helpers (unit-tested natively and in the browser)
// ---------------------------------------------------------------------------------------------

fn ceil_sqrt(n: usize) -> usize {
    let mut c = (n as f64).sqrt() as usize;
    while c * c < n {
        c += 1;
    }
    while c > 1 && (c - 1) * (c - 1) >= n {
        c -= 1;
    }
    c.max(1)
}

/// The grid of the main canvas for a range of `size` cells: `(cols, rows, cell_px)`.
///
/// Square-ish: `cols = ceil(sqrt(n))`, rounded up to a multiple of 8 above 8 columns, where `n`
/// is at most one window (65,536 → 256 × 256). Cells are as big as fits in about 512 canvas
/// pixels, between 1 and [`MAX_CELL_PX`]: a /24 gets 24 px cells, the NodePort range 9 px, a /16 2 px.
pub fn layout(size: usize) -> (usize, usize, usize) {
    let n = size.clamp(1, WINDOW);
    let mut cols = ceil_sqrt(n);
    if cols > 8 {
        cols = cols.div_ceil(8) * 8;
    }
    let rows = n.div_ceil(cols);
    let cell_px = (TARGET_PX / cols).clamp(1, MAX_CELL_PX);
    (cols, rows, cell_px)
}

/// The cell under the point `(x, y)` of an element `width` × `height` (CSS pixels, relative to its
/// top-left corner) showing a `cols` × `rows` grid of which the first `count` cells are used.
/// The result is an index within the grid (add the window's first offset).
pub fn cell_at(
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    cols: usize,
    rows: usize,
    count: usize,
) -> Option<usize> {
    if !(width > 0.0 && height > 0.0)
        || cols == 0
        || rows == 0
        || !(0.0..width).contains(&x)
        || !(0.0..height).contains(&y)
    {
        return None;
    }
    let c = ((x / width * cols as f64) as usize).min(cols - 1);
    let r = ((y / height * rows as f64) as usize).min(rows - 1);
    let i = r * cols + c;
    (i < count).then_some(i)
}

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
    pub fn width(&self) -> usize {
        self.tile_cols * self.tile_px
    }

    pub fn height(&self) -> usize {
        self.tile_rows * self.tile_px
    }

    /// The overview pixel `(x, y)` that summarises cell `offset`.
    pub fn pixel_of(&self, offset: usize) -> (usize, usize) {
        let w = offset / WINDOW;
        let i = offset % WINDOW;
        let (tx, ty) = (w % self.tile_cols, w / self.tile_cols);
        (
            tx * self.tile_px + (i % WINDOW_COLS) / self.scale,
            ty * self.tile_px + (i / WINDOW_COLS) / self.scale,
        )
    }

    /// The cell offsets (below `size`) that pixel `(x, y)` summarises.
    pub fn cells_of(&self, x: usize, y: usize, size: usize) -> impl Iterator<Item = usize> {
        let (tx, ty) = (x / self.tile_px, y / self.tile_px);
        let w = ty * self.tile_cols + tx;
        let valid = tx < self.tile_cols && w < self.windows;
        let base = w * WINDOW;
        let (c0, r0) = (
            (x % self.tile_px) * self.scale,
            (y % self.tile_px) * self.scale,
        );
        let scale = if valid { self.scale } else { 0 };
        (0..scale)
            .flat_map(move |dr| (0..scale).map(move |dc| base + (r0 + dr) * WINDOW_COLS + c0 + dc))
            .filter(move |&o| o < size)
    }

    /// The tile `(x, y)` of window `w`.
    pub fn tile_of(&self, w: usize) -> (usize, usize) {
        (w % self.tile_cols, w / self.tile_cols)
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
    let scale = (tile_cols * WINDOW_COLS)
        .div_ceil(OVERVIEW_PX)
        .next_power_of_two()
        .min(WINDOW_COLS);
    Some(Overview {
        windows,
        tile_cols,
        tile_rows,
        tile_px: WINDOW_COLS / scale,
        scale,
    })
}

/// The window under the point `(x, y)` of the overview element (`width` × `height` CSS pixels).
pub fn overview_window_at(x: f64, y: f64, width: f64, height: f64, ov: &Overview) -> Option<usize> {
    cell_at(x, y, width, height, ov.tile_cols, ov.tile_rows, ov.windows)
}

/// How notable a state is when many cells share one overview pixel:
/// duplicate > leaked > unallocated > kubernetes > allocated > free.
pub fn priority(cell: u8) -> u8 {
    match cell {
        DUPLICATE => 5,
        LEAKED => 4,
        UNALLOCATED => 3,
        KUBERNETES => 2,
        ALLOCATED => 1,
        _ => 0,
    }
}

/// The most notable of `cells` (free when empty).
pub fn most_notable(cells: impl IntoIterator<Item = u8>) -> u8 {
    cells.into_iter().fold(FREE, |best, c| {
        if priority(c) > priority(best) {
            c
        } else {
            best
        }
    })
}

/// Where a key moves the cursor from `cursor` in a grid of `size` cells and `cols` columns:
/// arrows by one cell or row, Home/End to the first/last cell, Page Up/Down by `page` cells.
/// `None` for keys that do not move it.
pub fn key_target(
    key: &str,
    cursor: usize,
    size: usize,
    cols: usize,
    page: usize,
) -> Option<usize> {
    let last = size.checked_sub(1)?;
    let c = cursor.min(last);
    Some(match key {
        "ArrowLeft" => c.saturating_sub(1),
        "ArrowRight" => (c + 1).min(last),
        "ArrowUp" if c >= cols => c - cols,
        "ArrowUp" => c,
        "ArrowDown" if c + cols <= last => c + cols,
        "ArrowDown" => c,
        "Home" => 0,
        "End" => last,
        "PageUp" => c.saturating_sub(page),
        "PageDown" => (c + page).min(last),
        _ => return None,
    })
}

/// Counts of each state in `cells`, indexed by the `Cell` byte (0..=5); other bytes are not counted.
pub fn counts(cells: &[u8]) -> [usize; 6] {
    let mut n = [0usize; 6];
    for &c in cells {
        if let Some(slot) = n.get_mut(c as usize) {
            *slot += 1;
        }
    }
    n
}

/// `1048574` → `1,048,574`.
pub fn group(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Colours and painting
// ---------------------------------------------------------------------------------------------

type Rgb = [u8; 3];

const fn hex(v: u32) -> Rgb {
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

struct Palette {
    /// The panel behind the grid, and the gaps between cells.
    bg: Rgb,
    free: Rgb,
    /// Free cells of every other 16 × 16 block when cells are too small for gaps (graph paper).
    free_alt: Rgb,
    /// A free cell in the static band.
    free_static: Rgb,
    /// The gaps around static-band cells (a tinted grid under the band).
    gap_static: Rgb,
    allocated: Rgb,
    kubernetes: Rgb,
    leaked: Rgb,
    duplicate: Rgb,
    unallocated: Rgb,
    hatch: Rgb,
    cross: Rgb,
    dot: Rgb,
    /// The sweep: the tint's rgb, its strongest alpha, and the leading edge.
    sweep: (&'static str, f64, &'static str),
}

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
    hatch: hex(0x5c3d00),
    cross: hex(0x4a2139),
    dot: hex(0xffffff),
    sweep: ("255,255,255", 0.4, "rgba(86,180,233,0.95)"),
};

fn palette(dark: bool) -> &'static Palette {
    if dark {
        &DARK
    } else {
        &LIGHT
    }
}

fn fill(cell: u8, in_static: bool, pal: &Palette) -> Rgb {
    match cell {
        FREE if in_static => pal.free_static,
        FREE => pal.free,
        ALLOCATED => pal.allocated,
        KUBERNETES => pal.kubernetes,
        LEAKED => pal.leaked,
        DUPLICATE => pal.duplicate,
        UNALLOCATED => pal.unallocated,
        _ => pal.bg,
    }
}

/// The main colour of a cell (what fills its centre, except the kubernetes dot and the outline-only
/// "not allocated" cells at ≥ 4 px), for tests and for anyone matching the canvas.
pub fn cell_colour(cell: u8, in_static_band: bool, dark: bool) -> [u8; 3] {
    fill(cell, in_static_band, palette(dark))
}

/// The canvas background (the panel colour) of a theme.
pub fn background_colour(dark: bool) -> [u8; 3] {
    palette(dark).bg
}

fn put(buf: &mut [u8], i: usize, rgb: Rgb) {
    if let Some(px) = buf.get_mut(i * 4..i * 4 + 4) {
        px.copy_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
    }
}

/// Whether grid cell `i` is in a shaded 16 × 16 block: only small cells without gaps (≥ 64 columns
/// of < 4 px), so that a /16 reads like graph paper.
fn shaded(i: usize, cols: usize, cell_px: usize) -> bool {
    cell_px < PATTERN_MIN_PX && cols >= 64 && ((i % cols) / 16 + (i / cols) / 16) % 2 == 1
}

/// The colour at the centre of grid cell `index` (of a grid `cols` wide with `cell_px` cells):
/// what a test reading the canvas back should find there.
pub fn centre_colour(
    cell: u8,
    index: usize,
    cols: usize,
    cell_px: usize,
    in_static_band: bool,
    dark: bool,
) -> [u8; 3] {
    let patterns = cell_px >= PATTERN_MIN_PX;
    let s = if patterns { cell_px - 1 } else { cell_px }.max(1);
    let mut buf = vec![0u8; s * s * 4];
    paint_cell(
        &mut buf,
        s,
        0,
        0,
        s,
        cell,
        in_static_band,
        patterns,
        shaded(index, cols, cell_px),
        palette(dark),
    );
    let i = ((s - 1) / 2 * s + (s - 1) / 2) * 4;
    [buf[i], buf[i + 1], buf[i + 2]]
}

/// Paints the `s` × `s` inside of a cell whose top-left pixel is `(x0, y0)` in a buffer `stride` pixels wide.
#[allow(clippy::too_many_arguments)]
fn paint_cell(
    buf: &mut [u8],
    stride: usize,
    x0: usize,
    y0: usize,
    s: usize,
    cell: u8,
    in_static: bool,
    patterns: bool,
    shade: bool,
    pal: &Palette,
) {
    let base = match cell {
        FREE if shade && !in_static => pal.free_alt,
        _ => fill(cell, in_static, pal),
    };
    let free = fill(FREE, in_static, pal);
    let thick = if s >= 12 { 2 } else { 1 };
    let period = if s >= 12 { 6 } else { 3 };
    let outline = if s >= 12 { 2 } else { 1 };
    let centre = (s as f64 - 1.0) / 2.0;
    let radius = (s as f64 * 0.22).max(0.6);
    for y in 0..s {
        for x in 0..s {
            let rgb = if !patterns {
                base
            } else {
                match cell {
                    LEAKED if (x + y) % period < thick => pal.hatch,
                    DUPLICATE if x.abs_diff(y) < thick || (x + y).abs_diff(s - 1) < thick => {
                        pal.cross
                    }
                    KUBERNETES
                        if (x as f64 - centre).powi(2) + (y as f64 - centre).powi(2)
                            <= radius * radius =>
                    {
                        pal.dot
                    }
                    UNALLOCATED
                        if x >= outline && y >= outline && x + outline < s && y + outline < s =>
                    {
                        free
                    }
                    _ => base,
                }
            };
            put(buf, (y0 + y) * stride + x0 + x, rgb);
        }
    }
}

/// Paints the one-pixel gap along the right and bottom edges of a `px` cell.
fn paint_gap(
    buf: &mut [u8],
    stride: usize,
    x0: usize,
    y0: usize,
    px: usize,
    in_static: bool,
    pal: &Palette,
) {
    let rgb = if in_static { pal.gap_static } else { pal.bg };
    for d in 0..px {
        put(buf, (y0 + d) * stride + x0 + px - 1, rgb);
        put(buf, (y0 + px - 1) * stride + x0 + d, rgb);
    }
}

// ---------------------------------------------------------------------------------------------
// Browser glue
// ---------------------------------------------------------------------------------------------

fn media(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether the system prefers a dark theme (`prefers-color-scheme: dark`), read now.
pub fn prefers_dark() -> bool {
    media("(prefers-color-scheme: dark)")
}

/// Whether `el` is drawn in the dark theme, read now: the `data-theme` (`dark` or `light`) of the
/// nearest element that has one, `el` included (`closest`, so it stops at a shadow root: each
/// instance of the lab carries its own theme); without one, or with another value, the system's
/// preference.
pub fn is_dark(el: &web_sys::Element) -> bool {
    let theme = el
        .closest("[data-theme]")
        .ok()
        .flatten()
        .and_then(|e| e.get_attribute("data-theme"));
    match theme.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => prefers_dark(),
    }
}

/// [`is_dark`] of the element behind `node`; the system's preference before it is mounted.
fn dark_at(node: &NodeRef) -> bool {
    node.cast::<web_sys::Element>()
        .map_or_else(prefers_dark, |el| is_dark(&el))
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
    let window = web_sys::window()?;
    let ctor: Function = Reflect::get(&window, &JsValue::from_str("MutationObserver"))
        .ok()?
        .dyn_into()
        .ok()?;
    let observer = Reflect::construct(&ctor, &Array::of1(on_change)).ok()?;
    let options = Object::new();
    let set = |k: &str, v: &JsValue| Reflect::set(&options, &JsValue::from_str(k), v).ok();
    set("attributes", &JsValue::TRUE)?;
    set("subtree", &JsValue::TRUE)?;
    set(
        "attributeFilter",
        &Array::of1(&JsValue::from_str("data-theme")),
    )?;
    let observe: Function = Reflect::get(&observer, &JsValue::from_str("observe"))
        .ok()?
        .dyn_into()
        .ok()?;
    observe
        .call2(&observer, &el.get_root_node(), &options)
        .ok()?;
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

/// Whether the user asked for reduced motion.
pub fn prefers_reduced_motion() -> bool {
    media("(prefers-reduced-motion: reduce)")
}

fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()?
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

/// Gives the canvas the right pixel size; true when it had to change (which clears it).
fn size_canvas(canvas: &HtmlCanvasElement, w: usize, h: usize) -> bool {
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

/// An ImageData owning a copy of `buf`. (`ImageData::new_with_u8_clamped_array_and_sh` wraps a view
/// of wasm memory, which goes stale as soon as memory grows or the buffer is reused: fine for one
/// immediate put, wrong for the copy the sweep restores from.)
fn image_data(buf: &[u8], w: usize, h: usize) -> Option<ImageData> {
    let array = js_sys::Uint8ClampedArray::new_with_length(buf.len() as u32);
    array.copy_from(buf);
    ImageData::new_with_js_u8_clamped_array_and_sh(&array, w as u32, h as u32).ok()
}

fn cell_of(view: &BitmapView, offset: usize) -> u8 {
    if offset < view.size {
        view.cells.get(offset).copied().unwrap_or(NONE)
    } else {
        NONE
    }
}

/// What the main canvas shows; when it changes, everything is repainted.
#[derive(Clone, PartialEq)]
struct MainKey {
    first: usize,
    count: usize,
    cols: usize,
    rows: usize,
    px: usize,
    static_band: usize,
    dark: bool,
}

/// The main canvas's persistent state: what is painted, the RGBA buffer and its ImageData.
#[derive(Default)]
struct MainDrawn {
    key: Option<MainKey>,
    /// The state painted for each cell of the window.
    cells: Vec<u8>,
    buf: Vec<u8>,
    /// The buffer as last put on the canvas (the sweep restores from it).
    image: Option<ImageData>,
    canvas: Option<HtmlCanvasElement>,
    /// `put_image_data` calls made for updates (not counting sweep frames).
    draws: u32,
}

fn draw_main(
    d: &mut MainDrawn,
    canvas: &HtmlCanvasElement,
    view: &BitmapView,
    first: usize,
    dark: bool,
) {
    let pal = palette(dark);
    let (cols, rows, px) = layout(view.size);
    let count = view.size.saturating_sub(first).min(WINDOW);
    let key = MainKey {
        first,
        count,
        cols,
        rows,
        px,
        static_band: view.static_band,
        dark,
    };
    let (w, h) = (cols * px, rows * px);
    let patterns = px >= PATTERN_MIN_PX;
    let inner = if patterns { px - 1 } else { px };
    let full = d.key.as_ref() != Some(&key) || d.buf.len() != w * h * 4;
    if full {
        d.buf = vec![0; w * h * 4];
        for i in 0..w * h {
            put(&mut d.buf, i, pal.bg);
        }
        d.cells = vec![NONE; count];
        if patterns {
            for i in 0..count {
                paint_gap(
                    &mut d.buf,
                    w,
                    (i % cols) * px,
                    (i / cols) * px,
                    px,
                    first + i < view.static_band,
                    pal,
                );
            }
        }
        d.key = Some(key);
    }
    let mut changed = full;
    for i in 0..count {
        let c = cell_of(view, first + i);
        if full || d.cells[i] != c {
            paint_cell(
                &mut d.buf,
                w,
                (i % cols) * px,
                (i / cols) * px,
                inner,
                c,
                first + i < view.static_band,
                patterns,
                shaded(i, cols, px),
                pal,
            );
            d.cells[i] = c;
            changed = true;
        }
    }
    let resized = size_canvas(canvas, w, h);
    let moved = d.canvas.as_ref() != Some(canvas);
    if changed || d.image.is_none() {
        d.image = image_data(&d.buf, w, h);
    }
    if changed || resized || moved {
        if let (Some(ctx), Some(image)) = (context_2d(canvas), d.image.as_ref()) {
            let _ = ctx.put_image_data(image, 0.0, 0.0);
            d.draws += 1;
            let _ = canvas.set_attribute("data-draws", &d.draws.to_string());
        }
        d.canvas = Some(canvas.clone());
    }
}

/// The overview canvas's persistent state: one summary byte per pixel.
#[derive(Default)]
struct OverviewDrawn {
    key: Option<(Overview, usize, usize, bool)>,
    prev: Option<Rc<BitmapView>>,
    summary: Vec<u8>,
    /// Whether each pixel starts in the static band.
    in_static: Vec<bool>,
    buf: Vec<u8>,
    canvas: Option<HtmlCanvasElement>,
    draws: u32,
}

/// Paints the overview from its summary. Notable pixels are drawn 3 × 3 (clipped to their tile,
/// most notable on top) so that a lone Service in a million addresses still shows.
fn paint_overview(d: &mut OverviewDrawn, ov: &Overview, pal: &Palette) {
    let (w, h) = (ov.width(), ov.height());
    let mut notable = Vec::new();
    for p in 0..w * h {
        let s = d.summary[p];
        put(
            &mut d.buf,
            p,
            fill(if priority(s) > 0 { FREE } else { s }, d.in_static[p], pal),
        );
        if priority(s) > 0 {
            notable.push((priority(s), p));
        }
    }
    notable.sort_unstable();
    for (_, p) in notable {
        let (x, y) = (p % w, p / w);
        let (tx0, ty0) = (x / ov.tile_px * ov.tile_px, y / ov.tile_px * ov.tile_px);
        let rgb = fill(d.summary[p], false, pal);
        for ny in y.saturating_sub(1).max(ty0)..=(y + 1).min(ty0 + ov.tile_px - 1).min(h - 1) {
            for nx in x.saturating_sub(1).max(tx0)..=(x + 1).min(tx0 + ov.tile_px - 1).min(w - 1) {
                put(&mut d.buf, ny * w + nx, rgb);
            }
        }
    }
}

fn overview_pixel(ov: &Overview, view: &BitmapView, x: usize, y: usize) -> (u8, bool) {
    let mut cells = ov.cells_of(x, y, view.size).peekable();
    let in_static = cells.peek().is_some_and(|&o| o < view.static_band);
    let mut any = false;
    let notable = most_notable(cells.map(|o| {
        any = true;
        cell_of(view, o)
    }));
    (if any { notable } else { NONE }, in_static)
}

fn draw_overview(
    d: &mut OverviewDrawn,
    canvas: &HtmlCanvasElement,
    view: &Rc<BitmapView>,
    ov: Overview,
    dark: bool,
) {
    let pal = palette(dark);
    let (w, h) = (ov.width(), ov.height());
    let key = (ov, view.size, view.static_band, dark);
    let full = d.key != Some(key) || d.prev.is_none();
    let mut dirty: Vec<usize> = Vec::new();
    if full {
        d.buf = vec![0; w * h * 4];
        d.summary = vec![NONE; w * h];
        dirty.extend(0..w * h);
        d.key = Some(key);
    } else if let Some(prev) = d.prev.as_ref().filter(|p| !Rc::ptr_eq(p, view)) {
        for (o, (a, b)) in prev.cells.iter().zip(view.cells.iter()).enumerate() {
            if a != b {
                let (x, y) = ov.pixel_of(o);
                dirty.push(y * w + x);
            }
        }
        dirty.sort_unstable();
        dirty.dedup();
    }
    if full {
        d.in_static = (0..w * h)
            .map(|p| overview_pixel(&ov, view, p % w, p / w).1)
            .collect();
    }
    for &p in &dirty {
        d.summary[p] = overview_pixel(&ov, view, p % w, p / w).0;
    }
    if !dirty.is_empty() {
        paint_overview(d, &ov, pal);
    }
    d.prev = Some(view.clone());
    let resized = size_canvas(canvas, w, h);
    let moved = d.canvas.as_ref() != Some(canvas);
    if !dirty.is_empty() || resized || moved {
        if let (Some(ctx), Some(image)) = (context_2d(canvas), image_data(&d.buf, w, h)) {
            let _ = ctx.put_image_data(&image, 0.0, 0.0);
            d.draws += 1;
            let _ = canvas.set_attribute("data-draws", &d.draws.to_string());
        }
        d.canvas = Some(canvas.clone());
    }
}

// ---------------------------------------------------------------------------------------------
// Navigation state
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, Default, PartialEq)]
struct Nav {
    /// The focus cursor (a global offset).
    cursor: Option<usize>,
    /// The cell under the pointer (a global offset).
    hover: Option<usize>,
    /// The window shown in detail (ranges larger than [`WINDOW`]).
    window: usize,
    focused: bool,
    /// The window under the pointer on the overview.
    overview_hover: Option<usize>,
}

enum NavAction {
    Hover(Option<usize>),
    /// A tap or click on a cell.
    Select(usize),
    Key {
        key: String,
        size: usize,
        cols: usize,
        page: usize,
    },
    Window {
        window: usize,
        size: usize,
    },
    Focus {
        on: bool,
        size: usize,
    },
    OverviewHover(Option<usize>),
}

impl Reducible for Nav {
    type Action = NavAction;

    fn reduce(self: Rc<Self>, action: NavAction) -> Rc<Self> {
        let mut n = (*self).clone();
        match action {
            NavAction::Hover(h) => n.hover = h,
            NavAction::Select(o) => {
                n.cursor = Some(o);
                n.hover = Some(o);
                n.window = o / WINDOW;
            }
            NavAction::Key {
                key,
                size,
                cols,
                page,
            } => {
                let from = n.cursor.filter(|&c| c < size).unwrap_or(n.window * WINDOW);
                if let Some(to) = key_target(&key, from, size, cols, page) {
                    n.cursor = Some(to);
                    n.window = to / WINDOW;
                    n.hover = None;
                }
            }
            NavAction::Window { window, size } => {
                let windows = size.div_ceil(WINDOW).max(1);
                n.window = window.min(windows - 1);
                if let Some(c) = n.cursor {
                    n.cursor = Some((n.window * WINDOW + c % WINDOW).min(size.saturating_sub(1)));
                }
                n.hover = None;
            }
            NavAction::Focus { on, size } => {
                n.focused = on;
                if on && n.cursor.is_none_or(|c| c >= size) && size > 0 {
                    n.cursor = Some((n.window * WINDOW).min(size - 1));
                }
            }
            NavAction::OverviewHover(w) => n.overview_hover = w,
        }
        if n == *self {
            self
        } else {
            Rc::new(n)
        }
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

/// A requestAnimationFrame callback that re-queues itself; dropped (breaking the cycle) on cleanup.
type FrameCallback = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// `(x, y)` of a pointer event relative to the element of `node`, and the element's CSS size.
/// (Yew delegates events, so `current_target` is not the canvas.)
fn pointer_in(e: &MouseEvent, node: &NodeRef) -> Option<(f64, f64, f64, f64)> {
    let el = node.cast::<web_sys::Element>()?;
    let r = el.get_bounding_client_rect();
    Some((
        e.client_x() as f64 - r.left(),
        e.client_y() as f64 - r.top(),
        r.width(),
        r.height(),
    ))
}

fn pct(n: f64) -> String {
    format!("{:.4}%", n * 100.0)
}

// ---------------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------------

#[derive(Properties, PartialEq)]
pub struct BitmapProps {
    /// DOM id prefix, e.g. "cluster-ip" → canvas id "cluster-ip-canvas", description id "cluster-ip-desc".
    pub id: AttrValue,
    pub title: AttrValue,
    pub view: Rc<BitmapView>,
    /// Increments each time a repair run happens: starts a sweep across the cells (a moving band
    /// over ~700 ms, via requestAnimationFrame); skipped when the user prefers reduced motion.
    #[prop_or_default]
    pub sweep: u64,
}

/// The legend, in the order people look for things: (state, class, English, Chinese).
const LEGEND: [(u8, &str, &str, &str); 6] = [
    (ALLOCATED, "allocated", "allocated", "已分配"),
    (
        KUBERNETES,
        "kubernetes",
        "kubernetes Service",
        "kubernetes Service",
    ),
    (
        UNALLOCATED,
        "unallocated",
        "in use, bit not set",
        "在用，但位未设置",
    ),
    (LEAKED, "leaked", "set, no Service", "已设置，无 Service"),
    (DUPLICATE, "duplicate", "duplicate", "重复分配"),
    (FREE, "free", "free", "空闲"),
];

#[function_component(Bitmap)]
pub fn bitmap(props: &BitmapProps) -> Html {
    let lang = super::use_lang();
    let view = &props.view;
    let id = props.id.as_str();
    let size = view.size;
    let (cols, rows, px) = layout(size);
    let overview = overview_layout(size);
    let windows = size.div_ceil(WINDOW).max(1);

    let nav = use_reducer_eq(Nav::default);
    let theme = use_reducer(ThemeEpoch::default);
    let canvas_ref = use_node_ref();
    let overview_ref = use_node_ref();
    let main_drawn = use_mut_ref(MainDrawn::default);
    let overview_drawn = use_mut_ref(OverviewDrawn::default);
    let last_sweep = use_mut_ref(|| props.sweep);
    // This instance's theme now (the system's until the canvas is mounted); the canvases read it
    // from the DOM when they draw.
    let dark = dark_at(&canvas_ref);

    let window = nav.window.min(windows - 1);
    let first = window * WINDOW;
    let count = size.saturating_sub(first).min(WINDOW);
    let cursor = nav.cursor.filter(|&c| c < size);
    let hover = nav.hover.filter(|&c| c < size);

    // Follow the theme of this instance: its nearest `data-theme`, else the system's. Redraw when
    // prefers-color-scheme flips or a `data-theme` attribute changes.
    {
        let (theme, canvas_ref) = (theme.dispatcher(), canvas_ref.clone());
        use_effect_with((), move |_| {
            let mql = web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
            let canvas = canvas_ref.cast::<web_sys::Element>();
            let listener = Closure::<dyn FnMut()>::new(move || theme.dispatch(()));
            if let Some(m) = &mql {
                let _ =
                    m.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
            }
            let observer = canvas.and_then(|c| watch_theme(&c, listener.as_ref().unchecked_ref()));
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

    // The main canvas: repaint the cells that changed, then one put_image_data.
    {
        let (canvas_ref, drawn) = (canvas_ref.clone(), main_drawn.clone());
        use_effect_with((view.clone(), first, theme.0), move |(view, first, _)| {
            if let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() {
                let dark = is_dark(&canvas);
                draw_main(&mut drawn.borrow_mut(), &canvas, view, *first, dark);
            }
        });
    }

    // The overview of a large range.
    {
        let (overview_ref, drawn) = (overview_ref.clone(), overview_drawn.clone());
        use_effect_with((view.clone(), theme.0), move |(view, _)| {
            if let (Some(ov), Some(canvas)) = (
                overview_layout(view.size),
                overview_ref.cast::<HtmlCanvasElement>(),
            ) {
                let dark = is_dark(&canvas);
                draw_overview(&mut drawn.borrow_mut(), &canvas, view, ov, dark);
            } else {
                *drawn.borrow_mut() = OverviewDrawn::default();
            }
        });
    }

    // If Yew ever replaces a canvas element without the view changing, put the buffer on the new one.
    {
        let (canvas_ref, overview_ref) = (canvas_ref.clone(), overview_ref.clone());
        let (main_drawn, overview_drawn) = (main_drawn.clone(), overview_drawn.clone());
        use_effect(move || {
            if let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() {
                let mut d = main_drawn.borrow_mut();
                if d.canvas.as_ref().is_some_and(|c| *c != canvas) {
                    if let (Some(ctx), Some(image)) = (context_2d(&canvas), d.image.as_ref()) {
                        size_canvas(&canvas, image.width() as usize, image.height() as usize);
                        let _ = ctx.put_image_data(image, 0.0, 0.0);
                    }
                    d.canvas = Some(canvas);
                }
            }
            if let Some(canvas) = overview_ref.cast::<HtmlCanvasElement>() {
                let mut d = overview_drawn.borrow_mut();
                if d.canvas.as_ref().is_some_and(|c| *c != canvas) {
                    let (w, h) = d.key.map_or((0, 0), |k| (k.0.width(), k.0.height()));
                    if let (Some(ctx), Some(image)) =
                        (context_2d(&canvas), image_data(&d.buf, w, h))
                    {
                        size_canvas(&canvas, w, h);
                        let _ = ctx.put_image_data(&image, 0.0, 0.0);
                    }
                    d.canvas = Some(canvas);
                }
            }
        });
    }

    // The repair sweep: a band moving down the cells, one requestAnimationFrame chain while it runs.
    {
        let (canvas_ref, drawn) = (canvas_ref.clone(), main_drawn.clone());
        use_effect_with(props.sweep, move |&sweep| {
            let grew = sweep > *last_sweep.borrow();
            *last_sweep.borrow_mut() = sweep;
            let handle: FrameCallback = Rc::new(RefCell::new(None));
            let request = Rc::new(std::cell::Cell::new(None::<i32>));
            // The band drawn last, (y, height) in canvas pixels, to restore from the ImageData.
            let band = Rc::new(std::cell::Cell::new(None::<(f64, f64)>));
            let restore = {
                let (canvas_ref, drawn, band) = (canvas_ref.clone(), drawn.clone(), band.clone());
                move || {
                    let (Some(canvas), Some((y, h))) =
                        (canvas_ref.cast::<HtmlCanvasElement>(), band.take())
                    else {
                        return;
                    };
                    if let (Some(ctx), Some(image)) =
                        (context_2d(&canvas), drawn.borrow().image.as_ref())
                    {
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
            };
            let canvas = canvas_ref.cast::<HtmlCanvasElement>();
            let started = canvas.clone().filter(|_| grew && !prefers_reduced_motion());
            if let Some(canvas) = canvas.filter(|_| started.is_some()) {
                let _ = canvas.set_attribute("data-sweeping", "true");
                let (h, req, band, restore) = (
                    handle.clone(),
                    request.clone(),
                    band.clone(),
                    restore.clone(),
                );
                let start = std::cell::Cell::new(None::<f64>);
                *handle.borrow_mut() = Some(Closure::new(move |ts: f64| {
                    req.set(None);
                    restore();
                    let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() else {
                        return;
                    };
                    let t0 = start.get().unwrap_or(ts);
                    start.set(Some(t0));
                    let t = ((ts - t0) / SWEEP_MS).clamp(0.0, 1.0);
                    if t >= 1.0 {
                        let _ = canvas.set_attribute("data-sweeping", "false");
                        return;
                    }
                    let (Some(ctx), Some(px)) = (
                        context_2d(&canvas),
                        drawn.borrow().key.as_ref().map(|k| k.px),
                    ) else {
                        return;
                    };
                    let (w, hgt) = (canvas.width() as f64, canvas.height() as f64);
                    let bh = (hgt / 5.0).max(2.0 * px as f64).round();
                    // Ease out: quick start, gentle arrival.
                    let eased = 1.0 - (1.0 - t).powi(2);
                    let y = (-bh + (hgt + bh) * eased).round();
                    let (rgb, alpha, edge) = palette(is_dark(&canvas)).sweep;
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
                    // What to put back next frame: the band plus a row either side.
                    let (top, bottom) = ((y - 1.0).max(0.0), (y + bh + 1.0).min(hgt));
                    if bottom > top {
                        band.set(Some((top, bottom - top)));
                    }
                    if let (Some(win), Some(cb)) = (web_sys::window(), h.borrow().as_ref()) {
                        req.set(
                            win.request_animation_frame(cb.as_ref().unchecked_ref())
                                .ok(),
                        );
                    }
                }));
                if let (Some(win), Some(cb)) = (web_sys::window(), handle.borrow().as_ref()) {
                    request.set(
                        win.request_animation_frame(cb.as_ref().unchecked_ref())
                            .ok(),
                    );
                }
            }
            move || {
                // Cancel the queued frame, put the cells back, then drop the closure (breaking its self-reference).
                if let (Some(w), Some(id)) = (web_sys::window(), request.take()) {
                    let _ = w.cancel_animation_frame(id);
                }
                restore();
                if let Some(canvas) = started {
                    let _ = canvas.set_attribute("data-sweeping", "false");
                }
                handle.borrow_mut().take();
            }
        });
    }

    // ----- events -----
    let on_move = {
        let (nav, node) = (nav.dispatcher(), canvas_ref.clone());
        Callback::from(move |e: PointerEvent| {
            let hit = pointer_in(&e, &node)
                .and_then(|(x, y, w, h)| cell_at(x, y, w, h, cols, rows, count));
            nav.dispatch(NavAction::Hover(hit.map(|i| first + i)));
        })
    };
    let on_down = {
        let (nav, node) = (nav.dispatcher(), canvas_ref.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            if let Some(i) = pointer_in(&e, &node)
                .and_then(|(x, y, w, h)| cell_at(x, y, w, h, cols, rows, count))
            {
                nav.dispatch(NavAction::Select(first + i));
            }
        })
    };
    let on_leave = {
        let nav = nav.dispatcher();
        Callback::from(move |_: PointerEvent| nav.dispatch(NavAction::Hover(None)))
    };
    let on_key = {
        let nav = nav.dispatcher();
        let page = if size > WINDOW {
            WINDOW
        } else {
            cols * (rows / 4).max(1)
        };
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            if key_target(&e.key(), 0, 2, 1, 1).is_some() {
                e.prevent_default();
                nav.dispatch(NavAction::Key {
                    key: e.key(),
                    size,
                    cols,
                    page,
                });
            }
        })
    };
    let on_focus = {
        let nav = nav.dispatcher();
        Callback::from(move |_: FocusEvent| nav.dispatch(NavAction::Focus { on: true, size }))
    };
    let on_blur = {
        let nav = nav.dispatcher();
        Callback::from(move |_: FocusEvent| nav.dispatch(NavAction::Focus { on: false, size }))
    };

    // ----- derived text -----
    let noun = match (view.range.contains('/'), lang) {
        (true, Lang::En) => " addresses",
        (false, Lang::En) => " ports",
        (true, Lang::Zh) => " 个地址",
        (false, Lang::Zh) => " 个端口",
    };
    let band_text = match (view.static_band.min(size), lang) {
        (0, _) => lang.pick("no static band", "无静态段").to_string(),
        (n, Lang::En) => format!(
            "static band: first {} ({} – {})",
            group(n),
            view.label(0),
            view.label(n - 1)
        ),
        (n, Lang::Zh) => format!(
            "静态段：前 {} 个（{} – {}）",
            group(n),
            view.label(0),
            view.label(n - 1)
        ),
    };
    let counted = {
        let view = view.clone();
        use_memo(view, |v| counts(&v.cells))
    };
    let shown = hover.or(cursor);
    let desc = match shown {
        Some(o) => view.describe(o, lang),
        None => lang
            .pick(
                "Point at a cell, or focus the bitmap and use the arrow keys.",
                "把指针移到某一格上，或聚焦位图后用方向键移动。",
            )
            .to_string(),
    };
    let canvas_id = format!("{id}-canvas");
    let desc_id = format!("{id}-desc");
    let title_id = format!("{id}-title");
    let window_id = format!("{id}-window");
    let max_width = (cols * px * 3 / 2).max(320);

    let box_style = |o: usize| {
        let i = o - first;
        let (c, r) = (i % cols, i / cols);
        format!(
            "left:{};top:{};width:{};height:{}",
            pct(c as f64 / cols as f64),
            pct(r as f64 / rows as f64),
            pct(1.0 / cols as f64),
            pct(1.0 / rows as f64)
        )
    };
    let in_window = |o: &usize| (first..first + count).contains(o);
    // The overlays are always in the DOM (hidden when unused): Yew reconciles unkeyed children
    // from the end, so children that come and go would make it rebuild the canvas.
    let cursor_at = cursor.filter(in_window);
    let hover_at = hover.filter(in_window).filter(|&h| Some(h) != cursor);
    let cursor_box = html! {
        <div class={classes!("bitmap-cursor", nav.focused.then_some("focused"))} hidden={cursor_at.is_none()}
            style={cursor_at.map(&box_style)} aria-hidden="true"></div>
    };
    let hover_box = html! {
        <div class="bitmap-hover" hidden={hover_at.is_none()} style={hover_at.map(&box_style)} aria-hidden="true"></div>
    };
    let tip_cell = hover.or(cursor.filter(|_| nav.focused)).filter(in_window);
    let tip = {
        let (class, style, text) = match tip_cell {
            Some(o) => {
                let i = o - first;
                let (c, r) = (i % cols, i / cols);
                let x = (c as f64 + 0.5) / cols as f64;
                let below = (r as f64) < rows as f64 * 0.2;
                let y = if below {
                    (r + 1) as f64 / rows as f64
                } else {
                    r as f64 / rows as f64
                };
                let align = if x < 0.25 {
                    "tip-start"
                } else if x > 0.75 {
                    "tip-end"
                } else {
                    "tip-mid"
                };
                (
                    classes!(align, below.then_some("tip-below")),
                    Some(format!("left:{};top:{}", pct(x), pct(y))),
                    view.describe(o, lang),
                )
            }
            None => (classes!(), None, String::new()),
        };
        html! {
            <div class={classes!("bitmap-tip", class)} aria-hidden="true" hidden={tip_cell.is_none()} {style}>{ text }</div>
        }
    };

    let last = first + count.max(1) - 1;
    let window_text = match lang {
        Lang::En => format!(
            "Cells {}–{} of {} · {} – {}",
            group(first),
            group(last),
            group(size),
            view.label(first),
            view.label(last)
        ),
        Lang::Zh => format!(
            "第 {}–{} 格（共 {} 格）· {} – {}",
            group(first),
            group(last),
            group(size),
            view.label(first),
            view.label(last)
        ),
    };
    let nav_html = overview.map(|ov| {
        let go = |w: usize| {
            let nav = nav.dispatcher();
            Callback::from(move |_: MouseEvent| nav.dispatch(NavAction::Window { window: w, size }))
        };
        let pick = {
            let (nav, node) = (nav.dispatcher(), overview_ref.clone());
            Callback::from(move |e: PointerEvent| {
                if e.button() != 0 {
                    return;
                }
                if let Some(w) = pointer_in(&e, &node).and_then(|(x, y, wd, h)| overview_window_at(x, y, wd, h, &ov)) {
                    nav.dispatch(NavAction::Window { window: w, size });
                }
            })
        };
        let drag = {
            let (nav, node) = (nav.dispatcher(), overview_ref.clone());
            Callback::from(move |e: PointerEvent| {
                let w = pointer_in(&e, &node).and_then(|(x, y, wd, h)| overview_window_at(x, y, wd, h, &ov));
                nav.dispatch(NavAction::OverviewHover(w));
                if let (Some(w), true) = (w, e.buttons() & 1 == 1) {
                    nav.dispatch(NavAction::Window { window: w, size });
                }
            })
        };
        let leave = {
            let nav = nav.dispatcher();
            Callback::from(move |_: PointerEvent| nav.dispatch(NavAction::OverviewHover(None)))
        };
        let keys = {
            let nav = nav.dispatcher();
            Callback::from(move |e: KeyboardEvent| {
                if e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                if let Some(w) = key_target(&e.key(), window, ov.windows, ov.tile_cols, ov.tile_cols) {
                    e.prevent_default();
                    nav.dispatch(NavAction::Window { window: w, size });
                }
            })
        };
        let tile_style = |w: usize| {
            let (tx, ty) = ov.tile_of(w);
            format!(
                "left:{};top:{};width:{};height:{}",
                pct(tx as f64 / ov.tile_cols as f64),
                pct(ty as f64 / ov.tile_rows as f64),
                pct(1.0 / ov.tile_cols as f64),
                pct(1.0 / ov.tile_rows as f64)
            )
        };
        let hover_tile = nav.overview_hover.filter(|&w| w != window && w < ov.windows);
        html! {
            <div class="bitmap-nav">
                <div class="bitmap-ov-stage" style={format!("--tc:{};--tr:{}", ov.tile_cols, ov.tile_rows)}>
                    <canvas ref={overview_ref.clone()} id={format!("{id}-overview")} class="bitmap-overview"
                        width={ov.width().to_string()} height={ov.height().to_string()}
                        data-windows={ov.windows.to_string()} data-tile-cols={ov.tile_cols.to_string()} data-tile-rows={ov.tile_rows.to_string()}
                        tabindex="0" role="slider" aria-label={match lang {
                            Lang::En => format!("{}: overview, choose the 65,536 cells to show", props.title),
                            Lang::Zh => format!("{}：概览，选择要显示的 65,536 格", props.title),
                        }}
                        aria-valuemin="1" aria-valuemax={ov.windows.to_string()} aria-valuenow={(window + 1).to_string()}
                        aria-valuetext={window_text.clone()}
                        onpointerdown={pick} onpointermove={drag} onpointerleave={leave} onkeydown={keys}>
                    </canvas>
                    <div class="bitmap-ov-grid" aria-hidden="true"></div>
                    <div class="bitmap-ov-hover" hidden={hover_tile.is_none()} style={hover_tile.map(&tile_style)} aria-hidden="true"></div>
                    <div class="bitmap-ov-window" style={tile_style(window)} aria-hidden="true"></div>
                </div>
                <div class="bitmap-window">
                    <button class="small" id={format!("{id}-prev")} disabled={window == 0} onclick={go(window.saturating_sub(1))}
                        aria-label={lang.pick("Previous 65,536 cells", "前 65,536 格")}>{ "‹" }</button>
                    <span id={window_id.clone()} class="bitmap-window-label" aria-live="polite">{ window_text.clone() }</span>
                    <button class="small" id={format!("{id}-next")} disabled={window + 1 >= windows} onclick={go(window + 1)}
                        aria-label={lang.pick("Next 65,536 cells", "后 65,536 格")}>{ "›" }</button>
                </div>
                <p class="bitmap-hint">{ match lang {
                    Lang::En => format!("Each overview pixel sums up {}×{} cells and shows the most notable, enlarged so that lone cells stand out.", ov.scale, ov.scale),
                    Lang::Zh => format!("概览中的每个像素汇总 {}×{} 格，显示其中最值得注意的状态，并放大绘制，让零星的格子也能显现出来。", ov.scale, ov.scale),
                } }</p>
            </div>
        }
    });

    let legend = LEGEND.iter().map(|&(cell, class, en, zh)| {
        let name = lang.pick(en, zh);
        let n = counted.get(cell as usize).copied().unwrap_or(0);
        html! {
            <li class={classes!("bitmap-key", format!("bm-{class}"), (n == 0).then_some("none"))}>
                <Swatch kind={SwatchKind::Cell(cell)} {dark} />
                <span class="bitmap-key-name">{ name }</span>
                <span class="bitmap-count" id={format!("{id}-count-{class}")}>{ group(n) }</span>
            </li>
        }
    });
    let summary = LEGEND
        .iter()
        .map(|&(cell, _, en, zh)| {
            format!(
                "{}{}{}",
                lang.pick(en, zh),
                lang.pick(": ", "："),
                group(counted.get(cell as usize).copied().unwrap_or(0))
            )
        })
        .collect::<Vec<_>>()
        .join(lang.pick(", ", "，"));

    html! {
        <figure class={classes!("bitmap", overview.is_some().then_some("bitmap-large"))} id={format!("{id}-bitmap")}
            aria-labelledby={title_id.clone()}>
            <figcaption class="bitmap-head">
                <h3 id={title_id}>{ props.title.clone() }</h3>
                <span class="bitmap-meta" id={format!("{id}-meta")}>
                    <code>{ view.range.clone() }</code>{ format!(" · {}{noun} · {band_text}", group(size)) }
                </span>
            </figcaption>
            <div class="bitmap-body">
                { nav_html.unwrap_or_default() }
                <div class="bitmap-main">
                    <div class="bitmap-stage" style={format!("max-width:{max_width}px")}>
                        <canvas ref={canvas_ref} id={canvas_id} class="bitmap-canvas"
                            width={(cols * px).to_string()} height={(rows * px).to_string()}
                            data-cols={cols.to_string()} data-rows={rows.to_string()} data-first={first.to_string()}
                            data-count={count.to_string()} data-cell-px={px.to_string()}
                            tabindex="0" role="application" aria-roledescription={lang.pick("allocation bitmap", "分配位图")}
                            aria-label={match lang {
                                Lang::En => format!("{}: {} cells. Arrow keys move by one cell or row, Home and End jump to the first and last cell{}.",
                                    props.title, group(size), if overview.is_some() { ", Page Up and Page Down by 65,536 cells" } else { "" }),
                                Lang::Zh => format!("{}：共 {} 格。方向键按格或按行移动，Home 和 End 跳到第一格和最后一格{}。",
                                    props.title, group(size), if overview.is_some() { "，Page Up 和 Page Down 一次移动 65,536 格" } else { "" }),
                            }}
                            aria-describedby={desc_id.clone()}
                            onpointermove={on_move} onpointerdown={on_down} onpointerleave={on_leave}
                            onkeydown={on_key} onfocus={on_focus} onblur={on_blur}>
                            { summary }
                        </canvas>
                        { hover_box }
                        { cursor_box }
                        { tip }
                    </div>
                    <p id={desc_id} class="bitmap-desc" aria-live="polite">{ desc }</p>
                </div>
            </div>
            <ul class="bitmap-legend" aria-label={lang.pick("Legend", "图例")}>
                { for legend }
                <li class="bitmap-key bm-static">
                    <Swatch kind={SwatchKind::StaticBand} {dark} />
                    <span class="bitmap-key-name">{ lang.pick("static band", "静态段") }</span>
                    <span class="bitmap-count" id={format!("{id}-count-static")}>{ group(view.static_band.min(size)) }</span>
                </li>
            </ul>
            if !view.out_of_range.is_empty() {
                <div class="bitmap-oor" id={format!("{id}-oor")} role="note">
                    <span class="bitmap-oor-title">{ lang.pick("Flagged out of range:", "被标记为超出范围：") }</span>
                    <ul>
                        { for view.out_of_range.iter().map(|(svc, value)| html! {
                            <li><code>{ svc.clone() }</code>{ " " }<code>{ value.clone() }</code></li>
                        }) }
                    </ul>
                </div>
            }
        </figure>
    }
}

/// What a legend swatch shows.
#[derive(Clone, Copy, PartialEq)]
enum SwatchKind {
    Cell(u8),
    StaticBand,
}

#[derive(Properties, PartialEq)]
struct SwatchProps {
    kind: SwatchKind,
    dark: bool,
}

/// Pixels per swatch edge (a cell inside of 13 px plus its gap, as cells ≥ 12 px are painted).
const SWATCH_PX: usize = 14;

/// A legend swatch painted by the very code that paints the cells.
#[function_component(Swatch)]
fn swatch(props: &SwatchProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((props.kind, props.dark), move |&(kind, _)| {
            let Some(canvas) = node.cast::<HtmlCanvasElement>() else {
                return;
            };
            let pal = palette(is_dark(&canvas));
            let mut buf = vec![0u8; SWATCH_PX * SWATCH_PX * 4];
            for i in 0..SWATCH_PX * SWATCH_PX {
                put(&mut buf, i, pal.bg);
            }
            match kind {
                SwatchKind::Cell(c) => paint_cell(
                    &mut buf, SWATCH_PX, 0, 0, SWATCH_PX, c, false, true, false, pal,
                ),
                SwatchKind::StaticBand => {
                    paint_cell(
                        &mut buf,
                        SWATCH_PX,
                        0,
                        0,
                        SWATCH_PX - 1,
                        FREE,
                        true,
                        true,
                        false,
                        pal,
                    );
                    paint_gap(&mut buf, SWATCH_PX, 0, 0, SWATCH_PX, true, pal);
                }
            }
            size_canvas(&canvas, SWATCH_PX, SWATCH_PX);
            if let (Some(ctx), Some(image)) =
                (context_2d(&canvas), image_data(&buf, SWATCH_PX, SWATCH_PX))
            {
                let _ = ctx.put_image_data(&image, 0.0, 0.0);
            }
        });
    }
    html! {
        <canvas ref={node} class="bitmap-swatch" width={SWATCH_PX.to_string()} height={SWATCH_PX.to_string()} aria-hidden="true"></canvas>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        assert_eq!(layout(254), (16, 16, 24));
        assert_eq!(layout(2768), (56, 50, 9));
        assert_eq!(layout(65534), (256, 256, 2));
        assert_eq!(layout(65536), (256, 256, 2));
        assert_eq!(layout(1_048_574), (256, 256, 2));
        assert_eq!(layout(14), (4, 4, 24));
        assert_eq!(layout(0), (1, 1, 24));
        for n in 1..3000 {
            let (c, r, _) = layout(n);
            assert!(c * r >= n && c * (r - 1) < n, "{n}");
        }
    }

    #[test]
    fn hit_testing() {
        assert_eq!(cell_at(0.0, 0.0, 100.0, 100.0, 16, 16, 254), Some(0));
        assert_eq!(cell_at(99.9, 0.0, 100.0, 100.0, 16, 16, 254), Some(15));
        assert_eq!(cell_at(99.9, 99.9, 100.0, 100.0, 16, 16, 254), None);
        assert_eq!(cell_at(-1.0, 5.0, 100.0, 100.0, 16, 16, 254), None);
        assert_eq!(cell_at(50.0, 50.0, 0.0, 100.0, 16, 16, 254), None);
    }

    #[test]
    fn overview() {
        let ov = overview_layout(1_048_574).unwrap();
        assert_eq!(
            ov,
            Overview {
                windows: 16,
                tile_cols: 4,
                tile_rows: 4,
                tile_px: 64,
                scale: 4
            }
        );
        assert_eq!((ov.width(), ov.height()), (256, 256));
        assert_eq!(ov.pixel_of(0), (0, 0));
        assert_eq!(ov.pixel_of(WINDOW + 5), (65, 0));
        assert_eq!(ov.pixel_of(5 * WINDOW + 256 * 8 + 9), (64 + 2, 64 + 2));
        assert_eq!(ov.cells_of(0, 0, 1_048_574).count(), 16);
        assert_eq!(ov.cells_of(255, 255, 1_048_574).count(), 14);
        assert!(overview_layout(65_536).is_none());
        let two = overview_layout(131_070).unwrap();
        assert_eq!(
            (two.tile_cols, two.tile_rows, two.width(), two.height()),
            (2, 1, 256, 128)
        );
        assert_eq!(overview_window_at(200.0, 10.0, 256.0, 128.0, &two), Some(1));
    }

    #[test]
    fn priorities_and_keys() {
        assert_eq!(most_notable([FREE, ALLOCATED, KUBERNETES]), KUBERNETES);
        assert_eq!(most_notable([UNALLOCATED, LEAKED, ALLOCATED]), LEAKED);
        assert_eq!(most_notable([LEAKED, DUPLICATE]), DUPLICATE);
        assert_eq!(most_notable([]), FREE);
        assert_eq!(key_target("ArrowDown", 250, 254, 16, 64), Some(250));
        assert_eq!(key_target("ArrowDown", 3, 254, 16, 64), Some(19));
        assert_eq!(key_target("ArrowLeft", 0, 254, 16, 64), Some(0));
        assert_eq!(key_target("End", 0, 254, 16, 64), Some(253));
        assert_eq!(key_target("x", 0, 254, 16, 64), None);
        assert_eq!(key_target("Home", 0, 0, 16, 64), None);
        assert_eq!(group(1_048_574), "1,048,574");
        assert_eq!(group(254), "254");
        assert_eq!(counts(&[0, 1, 1, 3, 9]), [1, 2, 0, 1, 0, 0]);
    }
}
