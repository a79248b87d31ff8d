//! Where everything stands on the stage, in the SVG's own units: apiservers on one side, etcd
//! and its keys in the middle, the `kubernetes` Service and the allocations on the other. Two
//! shapes: landscape (side by side) and portrait (stacked, for a phone or a narrow column: drawn
//! at one unit per CSS px, so that its text keeps its CSS size). Pure geometry, so that packets
//! know where to fly from and to.

/// A rectangle in stage units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rect {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
}

impl Rect {
    pub(crate) fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Rect { x, y, w, h }
    }

    pub(crate) fn mid_y(&self) -> f64 {
        self.y + self.h / 2.0
    }

    pub(crate) fn mid_x(&self) -> f64 {
        self.x + self.w / 2.0
    }

    pub(crate) fn right(&self) -> f64 {
        self.x + self.w
    }

    pub(crate) fn bottom(&self) -> f64 {
        self.y + self.h
    }
}

/// The stage's width beyond which it is laid out side by side (in CSS px of its container): a
/// 750 px docs column is still stacked, a desktop stage beside the tour card (~900 px) is not.
pub(crate) const PORTRAIT_BELOW_PX: f64 = 760.0;
/// Below this room (CSS px) an etcd row puts its value under its key: a key and its value at
/// 11.5 px need about 330 px side by side (the rest is pressed to fit, `fit.rs`).
const TWO_LINE_ROWS_BELOW_PX: f64 = 330.0;
/// A chip (an address of the Endpoints or EndpointSlice) on a portrait stage, and its gap.
pub(crate) const PORTRAIT_CHIP_W: f64 = 100.0;
pub(crate) const CHIP_GAP: f64 = 4.0;

/// What the Service card holds, for its height on a portrait stage: the addresses of the
/// Endpoints (with those leaving) and of the EndpointSlice, and the other Services listed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Card {
    pub(crate) endpoints: usize,
    pub(crate) slice: usize,
    pub(crate) others: usize,
}

/// How many chips of `chip_w` fit on a line of a card `card_w` wide.
pub(crate) fn chips_per_line(card_w: f64, chip_w: f64) -> usize {
    (((card_w - 16.0) / (chip_w + CHIP_GAP)) as usize).max(1)
}

impl Card {
    /// Title and ClusterIP, the two lines of chips, and up to three other Services (the card
    /// says how many more there are), as `service::service_card` draws them.
    fn height(self, card_w: f64) -> f64 {
        let per_line = chips_per_line(card_w, PORTRAIT_CHIP_W);
        let lines = |n: usize| n.div_ceil(per_line).max(1) as f64;
        let listed = self.others.min(3) as f64 + 1.0;
        62.0 + (lines(self.endpoints) + lines(self.slice)) * 22.0
            + 22.0
            + 18.0
            + listed * 16.0
            + 8.0
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Layout {
    pub(crate) portrait: bool,
    /// Stacked in one column (a phone): the card and the strip are under etcd, not beside it.
    pub(crate) one_column: bool,
    /// Each etcd row shows its value on a second line.
    pub(crate) two_line: bool,
    pub(crate) width: f64,
    pub(crate) height: f64,
    /// The column (or row) of apiservers, with its title.
    pub(crate) apiserver_area: Rect,
    pub(crate) apiservers: Vec<Rect>,
    pub(crate) kcm: Rect,
    /// etcd's body; its title band is at the top.
    pub(crate) etcd: Rect,
    pub(crate) rows: Vec<Rect>,
    /// The `default/kubernetes` Service card (ClusterIP, Endpoints, EndpointSlice, Services).
    pub(crate) service: Rect,
    /// The allocation strip (ClusterIP / IPAddress and NodePort).
    pub(crate) strip: Rect,
}

const ROW_H: f64 = 24.0;
const ROW_GAP: f64 = 4.0;
const ETCD_HEAD: f64 = 40.0;

impl Layout {
    /// The stage for `apiservers` apiservers, `rows` keys in etcd and the Service `card`,
    /// `width` CSS px wide.
    pub(crate) fn new(width: f64, apiservers: usize, rows: usize, card: Card) -> Self {
        if width < PORTRAIT_BELOW_PX {
            Self::portrait(width, apiservers, rows, card)
        } else {
            Self::landscape(apiservers, rows)
        }
    }

    fn rows_in(etcd: Rect, rows: usize, head: f64) -> Vec<Rect> {
        // Rows shrink (never below 12 units) when there are many keys.
        let gap = if rows > 14 { 2.0 } else { ROW_GAP };
        let room = etcd.h - head - 8.0;
        let h =
            ((room - gap * rows.saturating_sub(1) as f64) / rows.max(1) as f64).clamp(12.0, ROW_H);
        (0..rows)
            .map(|i| {
                let y = etcd.y + head + i as f64 * (h + gap);
                Rect::new(etcd.x + 10.0, y, etcd.w - 20.0, h)
            })
            .collect()
    }

    fn landscape(n: usize, rows: usize) -> Self {
        // As tall as the busiest column needs, within 400…540 units.
        let width = 960.0;
        let keys = 16.0 + ETCD_HEAD + 8.0 + rows as f64 * (ROW_H + ROW_GAP);
        let nodes = 8.0 + 26.0 + n as f64 * 76.0 + 64.0;
        let height = keys.max(nodes).clamp(400.0, 540.0);
        let area = Rect::new(8.0, 8.0, 230.0, height - 80.0);
        let top = area.y + 26.0;
        let gap = if n > 6 { 4.0 } else { 8.0 };
        let h =
            ((area.bottom() - top - gap * n.saturating_sub(1) as f64) / n.max(1) as f64).min(68.0);
        let apiservers =
            (0..n).map(|i| Rect::new(area.x, top + i as f64 * (h + gap), area.w, h)).collect();
        let kcm = Rect::new(8.0, height - 60.0, 230.0, 52.0);
        let etcd = Rect::new(290.0, 8.0, 356.0, height - 16.0);
        let service = Rect::new(684.0, 8.0, 268.0, height - 150.0);
        let strip = Rect::new(684.0, height - 134.0, 268.0, 126.0);
        Layout {
            portrait: false,
            one_column: false,
            two_line: false,
            width,
            height,
            apiserver_area: area,
            apiservers,
            kcm,
            rows: Self::rows_in(etcd, rows, ETCD_HEAD),
            etcd,
            service,
            strip,
        }
    }

    /// One unit per CSS px of `width`: the apiservers on top (as many abreast as fit at 176 px
    /// each), then etcd with the controller-manager as a band at its left, then the Service card
    /// and the allocation strip. From 600 px the card and the strip stand beside etcd (a docs
    /// column); narrower (a phone), everything is one under the other.
    fn portrait(width: f64, n: usize, rows: usize, card: Card) -> Self {
        let width = width.max(280.0);
        let per_line = (((width + 6.0) / 176.0) as usize).clamp(1, 4).min(n.max(1));
        let lines = n.div_ceil(per_line).max(1);
        let node_h = if lines > 2 { 40.0 } else { 58.0 };
        let area = Rect::new(6.0, 6.0, width - 12.0, 20.0 + lines as f64 * (node_h + 6.0));
        let w = (area.w - 6.0 * (per_line - 1) as f64) / per_line as f64;
        let apiservers = (0..n)
            .map(|i| {
                let (line, col) = (i / per_line, i % per_line);
                let y = area.y + 20.0 + line as f64 * (node_h + 6.0);
                Rect::new(area.x + col as f64 * (w + 6.0), y, w, node_h)
            })
            .collect();
        let beside = width >= 600.0;
        let side_w = if beside { (width * 0.38).clamp(250.0, 300.0) } else { 0.0 };
        let top = area.bottom() + 10.0;
        let etcd_x = if beside { 34.0 } else { 40.0 };
        let etcd_w = width - etcd_x - 6.0 - if beside { side_w + 10.0 } else { 0.0 };
        // A key and its value side by side need about 330 px at 11.5 px.
        let two_line = etcd_w - 16.0 < TWO_LINE_ROWS_BELOW_PX;
        let row_h = if two_line { 30.0 } else { 22.0 };
        let etcd_h = 30.0 + 8.0 + rows.max(1) as f64 * (row_h + ROW_GAP);
        let card_w = if beside { side_w } else { width - 12.0 };
        let service = Rect::new(
            if beside { width - 6.0 - side_w } else { 6.0 },
            top,
            card_w,
            card.height(card_w),
        );
        let (service, strip) = if beside {
            (service, Rect::new(service.x, service.bottom() + 10.0, card_w, 124.0))
        } else {
            let service = Rect::new(6.0, top + etcd_h + 10.0, card_w, service.h);
            (service, Rect::new(6.0, service.bottom() + 10.0, card_w, 124.0))
        };
        // Beside the card and the strip, etcd is at least as tall as they are.
        let etcd_h = if beside { etcd_h.max(strip.bottom() - top) } else { etcd_h };
        let etcd = Rect::new(etcd_x, top, etcd_w, etcd_h);
        let kcm = Rect::new(6.0, etcd.y, etcd_x - 12.0, etcd.h);
        let height = strip.bottom().max(etcd.bottom()) + 6.0;
        let rows = (0..rows)
            .map(|i| {
                Rect::new(
                    etcd.x + 8.0,
                    etcd.y + 30.0 + i as f64 * (row_h + ROW_GAP),
                    etcd.w - 16.0,
                    row_h,
                )
            })
            .collect();
        Layout {
            portrait: true,
            one_column: !beside,
            two_line,
            width,
            height,
            apiserver_area: area,
            apiservers,
            kcm,
            rows,
            etcd,
            service,
            strip,
        }
    }

    /// Where a packet from apiserver `i` leaves.
    pub(crate) fn apiserver_port(&self, i: usize) -> (f64, f64) {
        let r = self.apiservers.get(i).copied().unwrap_or(self.apiserver_area);
        if self.portrait {
            (r.mid_x(), r.bottom())
        } else {
            (r.right(), r.mid_y())
        }
    }

    /// Where the controller-manager's packets leave: its right edge in both orientations (in
    /// portrait too it stands left of etcd, at etcd's height).
    pub(crate) fn kcm_port(&self) -> (f64, f64) {
        (self.kcm.right(), self.kcm.mid_y())
    }

    /// Where a packet to row `i` lands (its near edge).
    pub(crate) fn row_port(&self, i: usize, from: (f64, f64)) -> (f64, f64) {
        let r = self.rows.get(i).copied().unwrap_or(self.etcd);
        if self.portrait && from.1 < r.y {
            (from.0.clamp(r.x + 8.0, r.right() - 8.0), r.y)
        } else {
            (r.x, r.mid_y())
        }
    }

    /// Where the lab's own writes (corruption) come from: the allocation strip.
    pub(crate) fn lab_port(&self) -> (f64, f64) {
        if self.portrait {
            (self.strip.mid_x(), self.strip.y)
        } else {
            (self.strip.x, self.strip.mid_y())
        }
    }

    /// The viewBox attribute.
    pub(crate) fn view_box(&self) -> String {
        format!("0 0 {} {}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inside(inner: Rect, outer: Rect) -> bool {
        inner.x >= outer.x - 0.01
            && inner.y >= outer.y - 0.01
            && inner.right() <= outer.right() + 0.01
            && inner.bottom() <= outer.bottom() + 0.01
    }

    fn overlap(a: Rect, b: Rect) -> bool {
        a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
    }

    #[test]
    fn everything_fits_the_view_and_nothing_overlaps() {
        for width in [960.0, 700.0, 390.0, 300.0] {
            let portrait = width < PORTRAIT_BELOW_PX;
            for n in 1..=16 {
                for rows in [1, 8, 14, 24] {
                    let l =
                        Layout::new(width, n, rows, Card { endpoints: n, slice: n, others: rows });
                    let view = Rect::new(0.0, 0.0, l.width, l.height);
                    let boxes = [l.apiserver_area, l.kcm, l.etcd, l.service, l.strip];
                    for b in boxes.iter().chain(&l.apiservers).chain(&l.rows) {
                        assert!(inside(*b, view), "{portrait} {n} {rows}: {b:?}");
                    }
                    for r in &l.rows {
                        assert!(inside(*r, l.etcd), "{portrait} {n} {rows}: {r:?}");
                    }
                    for (i, a) in l.apiservers.iter().enumerate() {
                        assert!(inside(*a, l.apiserver_area));
                        for b in &l.apiservers[i + 1..] {
                            assert!(!overlap(*a, *b), "{portrait} {n}: {a:?} {b:?}");
                        }
                    }
                    for (i, a) in boxes.iter().enumerate().skip(1) {
                        for b in &boxes[i + 1..] {
                            assert!(!overlap(*a, *b), "{portrait} {n} {rows}: {a:?} {b:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_narrow_stage_is_stacked_at_one_unit_per_px() {
        let card = Card { endpoints: 3, slice: 3, others: 0 };
        // A phone: everything one under the other, the etcd values under their keys.
        let phone = Layout::new(366.0, 3, 10, card);
        assert!(phone.portrait && phone.one_column && phone.two_line);
        assert_eq!(phone.width, 366.0);
        assert!(
            phone.apiserver_area.bottom() < phone.etcd.y && phone.etcd.bottom() < phone.service.y
        );
        assert!(phone.service.bottom() < phone.strip.y);
        // A 750 px docs column: the card and the strip beside etcd, keys and values on one line.
        let column = Layout::new(704.0, 3, 10, card);
        assert!(column.portrait && !column.one_column && !column.two_line);
        assert!(column.etcd.right() < column.service.x && column.service.bottom() < column.strip.y);
        // A desktop stage beside the tour card keeps its landscape picture.
        assert!(!Layout::new(900.0, 3, 10, card).portrait);
    }

    #[test]
    fn packets_fly_towards_etcd() {
        for width in [960.0, 390.0] {
            let portrait = width < PORTRAIT_BELOW_PX;
            let l = Layout::new(width, 3, 10, Card::default());
            let from = l.apiserver_port(1);
            let to = l.row_port(4, from);
            if portrait {
                assert!(to.1 > from.1);
            } else {
                assert!(to.0 > from.0);
            }
        }
    }
}
