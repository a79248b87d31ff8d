//! The legend under a bitmap: each state with a swatch painted like its cells, and how many cells
//! are in it (also read out as the canvas's fallback text).

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::layout::group;
use super::paint::{show, swatch, SWATCH_PX};
use super::theme::is_dark;
use crate::inspect::Cell;
use crate::lang::Lang;

/// The legend, in the order people look for things: (state, class, English, Chinese).
const LEGEND: [(Cell, &str, &str, &str); 6] = [
    (Cell::Allocated, "allocated", "allocated", "已分配"),
    (
        Cell::Kubernetes,
        "kubernetes",
        "kubernetes Service",
        "kubernetes Service",
    ),
    (
        Cell::Unallocated,
        "unallocated",
        "in use, bit not set",
        "在用，但位未设置",
    ),
    (
        Cell::Leaked,
        "leaked",
        "set, no Service",
        "已设置，无 Service",
    ),
    (Cell::Duplicate, "duplicate", "duplicate", "重复分配"),
    (Cell::Free, "free", "free", "空闲"),
];

/// How many cells are in each state, indexed by [`Cell::index`].
pub(crate) type Counts = [usize; Cell::ALL.len()];

pub(crate) fn counts(cells: &[Cell]) -> Counts {
    let mut n = [0; Cell::ALL.len()];
    for &c in cells {
        n[c.index()] += 1;
    }
    n
}

/// The counts in words, for screen readers: `allocated: 1, kubernetes Service: 1, …`.
pub(crate) fn summary(counted: &Counts, lang: Lang) -> String {
    LEGEND
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
            { for LEGEND.iter().map(|&(cell, class, en, zh)| key(Some(cell), class, lang.pick(en, zh), p.counted[cell.index()])) }
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

    #[test]
    fn counts_and_their_summary() {
        use Cell::*;
        let n = counts(&[Free, Allocated, Allocated, Leaked]);
        assert_eq!(n, [1, 2, 0, 1, 0, 0]);
        assert_eq!(
            summary(&n, Lang::En),
            "allocated: 2, kubernetes Service: 0, in use, bit not set: 0, set, no Service: 1, duplicate: 0, free: 1"
        );
        assert!(summary(&n, Lang::Zh).starts_with("已分配：2，kubernetes Service：0"));
        // Every state is in the legend once.
        let mut listed: Vec<Cell> = LEGEND.iter().map(|l| l.0).collect();
        listed.sort();
        assert_eq!(listed, Cell::ALL);
    }
}
