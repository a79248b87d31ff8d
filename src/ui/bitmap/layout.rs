//! Where cells go: the grid of the main canvas, hit testing, and the CSS boxes laid over it.
//! Pure arithmetic, tested natively.

/// Cells shown at full detail at once: a /16.
pub const WINDOW: usize = 65_536;
/// Columns of a full window (`layout(WINDOW).0`).
pub(crate) const WINDOW_COLS: usize = 256;
/// The largest cell, in canvas pixels (small ranges).
const MAX_CELL_PX: usize = 24;
/// The canvas is about this many pixels wide before CSS scaling.
const TARGET_PX: usize = 512;
/// Cells at least this big get a gap and a shape per state.
pub(crate) const PATTERN_MIN_PX: usize = 4;

pub(crate) fn ceil_sqrt(n: usize) -> usize {
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

/// The window of a range the main canvas shows: its grid and the offsets it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub(crate) cols: usize,
    pub(crate) rows: usize,
    /// Canvas pixels per cell edge.
    pub(crate) px: usize,
    /// The offset of the first cell shown.
    pub(crate) first: usize,
    /// Cells shown (the last window of a range may be partial).
    pub(crate) count: usize,
}

impl Grid {
    /// Window `window` of a range of `size` cells, clamped to the last window.
    pub fn of(size: usize, window: usize) -> Self {
        let (cols, rows, px) = layout(size);
        let windows = size.div_ceil(WINDOW).max(1);
        let first = window.min(windows - 1) * WINDOW;
        Grid { cols, rows, px, first, count: size.saturating_sub(first).min(WINDOW) }
    }

    /// The index of the window shown.
    pub fn window(&self) -> usize {
        self.first / WINDOW
    }

    /// The canvas size in pixels.
    pub fn pixels(&self) -> (usize, usize) {
        (self.cols * self.px, self.rows * self.px)
    }

    /// The last offset shown (the first when the range is empty).
    pub fn last(&self) -> usize {
        self.first + self.count.max(1) - 1
    }

    pub fn contains(&self, offset: usize) -> bool {
        (self.first..self.first + self.count).contains(&offset)
    }

    /// The offset under `(x, y)` of the canvas drawn `width` × `height` CSS pixels.
    pub fn hit(&self, x: f64, y: f64, width: f64, height: f64) -> Option<usize> {
        cell_at(x, y, width, height, self.cols, self.rows, self.count).map(|i| self.first + i)
    }

    /// `(column, row)` of `offset`, which must be shown.
    fn place(&self, offset: usize) -> (usize, usize) {
        let i = offset - self.first;
        (i % self.cols, i / self.cols)
    }

    /// The CSS box (in percent of the canvas) over the cell at `offset`.
    pub(crate) fn box_style(&self, offset: usize) -> String {
        let (c, r) = self.place(offset);
        grid_box(c, r, self.cols, self.rows)
    }

    /// Where the tooltip of `offset` goes: its alignment class, whether it hangs below the cell
    /// (near the top edge), and its CSS position.
    pub fn tip(&self, offset: usize) -> (&'static str, bool, String) {
        let (c, r) = self.place(offset);
        let x = (c as f64 + 0.5) / self.cols as f64;
        let below = (r as f64) < self.rows as f64 * 0.2;
        let y = (if below { r + 1 } else { r }) as f64 / self.rows as f64;
        let align = if x < 0.25 {
            "tip-start"
        } else if x > 0.75 {
            "tip-end"
        } else {
            "tip-mid"
        };
        (align, below, format!("left:{};top:{}", pct(x), pct(y)))
    }
}

/// The CSS box of square `(c, r)` of a `cols` × `rows` grid, in percent of the whole.
pub(crate) fn grid_box(c: usize, r: usize, cols: usize, rows: usize) -> String {
    format!(
        "left:{};top:{};width:{};height:{}",
        pct(c as f64 / cols as f64),
        pct(r as f64 / rows as f64),
        pct(1.0 / cols as f64),
        pct(1.0 / rows as f64)
    )
}

fn pct(n: f64) -> String {
    format!("{:.4}%", n * 100.0)
}

/// `1048574` → `1,048,574`.
pub(crate) fn group(n: usize) -> String {
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
    fn windows_of_a_large_range() {
        let g = Grid::of(1_048_574, 99);
        assert_eq!((g.window(), g.first, g.count, g.last()), (15, 15 * WINDOW, 65_534, 1_048_573));
        assert!(g.contains(15 * WINDOW) && !g.contains(15 * WINDOW - 1));
        assert_eq!(g.hit(0.0, 0.0, 512.0, 512.0), Some(15 * WINDOW));
        let small = Grid::of(254, 0);
        assert_eq!((small.pixels(), small.last()), ((384, 384), 253));
        assert_eq!(Grid::of(0, 0).last(), 0);
        assert_eq!(small.box_style(17), "left:6.2500%;top:6.2500%;width:6.2500%;height:6.2500%");
        // Near the top the tooltip hangs below its cell; at the right it is aligned to its end.
        assert_eq!(small.tip(15), ("tip-end", true, "left:96.8750%;top:6.2500%".to_string()));
        assert_eq!(
            small.tip(8 * 16),
            ("tip-start", false, "left:3.1250%;top:50.0000%".to_string())
        );
    }

    #[test]
    fn grouping() {
        assert_eq!(group(1_048_574), "1,048,574");
        assert_eq!(group(254), "254");
        assert_eq!(group(0), "0");
    }
}
