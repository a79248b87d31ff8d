//! The legend under a bitmap: each state with a swatch painted like its cells, and how many cells
//! are in it (also read out as the canvas's fallback text).

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::layout::group;
use super::paint::{show, swatch, SWATCH_PX};
use super::theme::is_dark;
use crate::lab::inspect::{Cell, ViewKind};
use crate::lang::Lang;

/// One legend entry: (state, class, English, Chinese).
type Key = (Cell, &'static str, &'static str, &'static str);

/// The legend of a bitmap, in the order people look for things.
const BITMAP: [Key; 6] = [
    (Cell::Allocated, "allocated", "allocated", "已分配"),
    (Cell::Kubernetes, "kubernetes", "kubernetes Service", "kubernetes Service"),
    (Cell::Unallocated, "unallocated", "in use, bit not set", "在用，但位未设置"),
    (Cell::Leaked, "leaked", "set, no Service", "已设置，无 Service"),
    (Cell::Duplicate, "duplicate", "duplicate", "重复分配"),
    (Cell::Free, "free", "free", "空闲"),
];

/// The legend of the IPAddress objects over a ServiceCIDR.
const IP_ADDRESSES: [Key; 7] = [
    (Cell::Allocated, "allocated", "IPAddress of its Service", "属于其 Service 的 IPAddress"),
    (Cell::Kubernetes, "kubernetes", "kubernetes Service", "kubernetes Service"),
    (Cell::Unallocated, "unallocated", "ClusterIP, no IPAddress", "有 ClusterIP，无 IPAddress"),
    (Cell::Leaked, "leaked", "orphan: its Service is gone", "孤儿：它的 Service 已不存在"),
    (Cell::WrongReference, "wrong-reference", "wrong reference", "引用错误"),
    (Cell::Duplicate, "duplicate", "duplicate ClusterIP", "重复的 ClusterIP"),
    (Cell::Free, "free", "free", "空闲"),
];

/// The states a view of `kind` can show, with their names.
fn keys(kind: ViewKind) -> &'static [Key] {
    match kind {
        ViewKind::Bitmap | ViewKind::DualWrite => &BITMAP,
        ViewKind::IpAddresses => &IP_ADDRESSES,
    }
}

/// How many cells are in each state, indexed by [`Cell::index`].
pub(crate) type Counts = [usize; Cell::ALL.len()];

/// The counts in words, for screen readers: `allocated: 1, kubernetes Service: 1, …`.
pub(crate) fn summary(counted: &Counts, kind: ViewKind, lang: Lang) -> String {
    keys(kind)
        .iter()
        .map(|&(cell, _, en, zh)| {
            let n = group(counted[cell.index()]);
            format!("{}{}{n}", lang.pick(en, zh), lang.pick(": ", "："))
        })
        .collect::<Vec<_>>()
        .join(lang.pick(", ", "，"))
}

#[derive(Properties, PartialEq)]
pub(crate) struct LegendProps {
    /// The DOM id prefix of the bitmap.
    pub(crate) id: AttrValue,
    pub(crate) counted: Counts,
    pub(crate) kind: ViewKind,
    /// Cells in the static band.
    pub(crate) static_band: usize,
    pub(crate) dark: bool,
}

#[function_component(Legend)]
pub(crate) fn legend(p: &LegendProps) -> Html {
    let lang = super::super::use_lang();
    let id = &p.id;
    let dark = p.dark;
    let key = |cell: Option<Cell>, class: &str, name: &str, n: usize| {
        html! {
            <li class={classes!("bitmap-key", format!("bm-{class}"), (cell.is_some() && n == 0).then_some("none"))}>
                <Swatch {cell} {dark} />
                <span class="bitmap-key-name">{ name.to_string() }</span>
                <span class="bitmap-count" id={format!("{id}-count-{class}")}>{ group(n) }</span>
            </li>
        }
    };
    html! {
        <ul class="bitmap-legend" aria-label={lang.pick("Legend", "图例")}>
            { for keys(p.kind).iter().map(|&(cell, class, en, zh)| key(Some(cell), class, lang.pick(en, zh), p.counted[cell.index()])) }
            { key(None, "static", lang.pick("static band", "静态段"), p.static_band) }
        </ul>
    }
}

#[derive(Properties, PartialEq)]
struct SwatchProps {
    /// The state shown; `None`: the static band.
    cell: Option<Cell>,
    dark: bool,
}

/// A legend swatch painted by the very code that paints the cells.
#[function_component(Swatch)]
fn swatch_view(props: &SwatchProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with((props.cell, props.dark), move |&(cell, _)| {
            if let Some(canvas) = node.cast::<HtmlCanvasElement>() {
                if let Some(image) = swatch(cell, is_dark(&canvas)).image() {
                    show(&canvas, &image);
                }
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
    use crate::lab::inspect::BitmapView;

    #[test]
    fn counts_and_their_summary() {
        use Cell::*;
        let mut v = BitmapView::new("10.0.0.0/29".parse().unwrap(), 0);
        v.set(1, Allocated, &["default/a"]);
        v.set(2, Allocated, &["default/b"]);
        v.set(3, Leaked, &[]);
        let n = v.counts();
        assert_eq!(n, [3, 2, 0, 1, 0, 0, 0]);
        assert_eq!(
            summary(&n, ViewKind::Bitmap, Lang::En),
            "allocated: 2, kubernetes Service: 0, in use, bit not set: 0, set, no Service: 1, duplicate: 0, free: 3"
        );
        assert!(
            summary(&n, ViewKind::Bitmap, Lang::Zh).starts_with("已分配：2，kubernetes Service：0")
        );
        assert!(summary(&n, ViewKind::IpAddresses, Lang::En)
            .contains("orphan: its Service is gone: 1, wrong reference: 0"));
        // A bitmap can show every state but a wrong reference; IPAddresses every state.
        let listed = |kind| {
            let mut l: Vec<Cell> = keys(kind).iter().map(|k| k.0).collect();
            l.sort();
            l
        };
        assert_eq!(listed(ViewKind::IpAddresses), Cell::ALL);
        let no_wrong: Vec<Cell> = Cell::ALL.into_iter().filter(|&c| c != WrongReference).collect();
        assert_eq!(listed(ViewKind::Bitmap), no_wrong);
    }
}
