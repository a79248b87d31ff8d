//! The ClusterIP / NodePort bitmap on a canvas.
//!
//! One `<canvas>` shows every cell of a range, up to 65,536 at a time (module `layout`), painted
//! incrementally (`paint`); ranges larger than that get an `overview` on which the user picks
//! the window to show. The pointer, the keyboard and the window are `navigation`; the colours
//! follow the instance's `theme`; a repair run `sweep`s a band over the cells; the `legend`
//! counts the states.
//!
//! All words about a cell come from [`BitmapView::describe`]; nothing here decides what a cell
//! means. The texts follow the instance's language ([`super::use_lang`]). The CSS lives in
//! `static/bitmap.css`.

mod layout;
mod legend;
mod navigation;
mod overview;
mod paint;
mod sweep;
mod theme;

use std::rc::Rc;

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

pub(crate) use layout::group;
pub use layout::{cell_at, layout, WINDOW};
pub use navigation::key_target;
pub use overview::{overview_layout, Overview};
pub use paint::{background_colour, cell_colour, centre_colour};

use crate::lab::inspect::{BitmapRange, BitmapView, Cell, ViewKind};
use crate::lang::Lang;
use layout::Grid;
use legend::{summary, Legend};
use navigation::{cell_events, Nav, NavAction};
use overview::OverviewNav;
use paint::MainDrawn;
use theme::{dark_at, is_dark, use_theme_epoch};

#[derive(Properties, PartialEq)]
pub struct BitmapProps {
    /// DOM id prefix, e.g. "cluster-ip" → canvas id "cluster-ip-canvas", description id "cluster-ip-desc".
    pub id: AttrValue,
    pub title: AttrValue,
    pub view: Rc<BitmapView>,
    /// Increments each time a repair run happens: starts a sweep across the cells (a moving band
    /// over ~700 ms, on animation frames); skipped when the user prefers reduced motion.
    #[prop_or_default]
    pub sweep: u64,
}

/// What a canvas keeps between paints of a view laid out as `Layout` (the main grid, the
/// overview).
trait Drawn: Default + 'static {
    type Layout: Copy + PartialEq + 'static;
    fn paint(
        &mut self,
        canvas: &HtmlCanvasElement,
        view: &Rc<BitmapView>,
        layout: Self::Layout,
        dark: bool,
    );
    fn presented(&mut self) -> &mut paint::Presented;
}

/// Paints `view` as `layout` on the canvas of `node` whenever either (or the theme) changes,
/// and puts the painting back if Yew ever replaces the canvas element. Returns what is painted.
#[hook]
fn use_drawn_canvas<D: Drawn>(
    node: &NodeRef,
    view: &Rc<BitmapView>,
    layout: D::Layout,
    theme: u32,
) -> Rc<std::cell::RefCell<D>> {
    let drawn = use_mut_ref(D::default);
    {
        let (node, drawn) = (node.clone(), drawn.clone());
        use_effect_with((view.clone(), layout, theme), move |(view, layout, _)| {
            if let Some(canvas) = node.cast::<HtmlCanvasElement>() {
                let dark = is_dark(&canvas);
                drawn.borrow_mut().paint(&canvas, view, *layout, dark);
            }
        });
    }
    {
        let (node, drawn) = (node.clone(), drawn.clone());
        use_effect(move || {
            if let Some(canvas) = node.cast::<HtmlCanvasElement>() {
                drawn.borrow_mut().presented().rebind(canvas);
            }
        });
    }
    drawn
}

impl Drawn for MainDrawn {
    type Layout = Grid;
    fn paint(&mut self, canvas: &HtmlCanvasElement, view: &Rc<BitmapView>, grid: Grid, dark: bool) {
        self.draw(canvas, view, grid, dark);
    }
    fn presented(&mut self) -> &mut paint::Presented {
        &mut self.presented
    }
}

#[function_component(Bitmap)]
pub fn bitmap(props: &BitmapProps) -> Html {
    let lang = super::use_lang();
    let view = &props.view;
    let id = props.id.as_str();
    let size = view.size();
    let nav = use_reducer_eq(Nav::default);
    let canvas_ref = use_node_ref();
    let theme = use_theme_epoch(&canvas_ref);
    let grid = Grid::of(size, nav.window);
    let drawn = use_drawn_canvas::<MainDrawn>(&canvas_ref, view, grid, theme);
    sweep::use_sweep(props.sweep, &canvas_ref, &drawn);
    let counted = use_memo(view.clone(), |v| v.counts());
    // This instance's theme now (the system's until the canvas is mounted), for the swatches.
    let dark = dark_at(&canvas_ref);
    let events = cell_events(&nav.dispatcher(), &canvas_ref, grid, size);
    let overview = overview_layout(size);
    let desc = match nav.hover_in(size).or(nav.cursor_in(size)) {
        Some(o) => view.describe(o, lang),
        None => lang
            .pick(
                "Point at a cell, or focus the bitmap and use the arrow keys.",
                "把指针移到某一格上，或聚焦位图后用方向键移动。",
            )
            .to_string(),
    };
    let nav_html = overview.map(|ov| {
        let actions = nav.dispatcher().to_callback();
        let on_window = actions.reform(move |window| NavAction::Window { window, size });
        let on_hover = actions.reform(NavAction::OverviewHover);
        html! {
            <OverviewNav id={props.id.clone()} title={props.title.clone()} view={view.clone()} {ov}
                window={grid.window()} hover={nav.overview_hover} window_text={window_text(view, grid, lang)}
                {theme} {on_window} {on_hover} />
        }
    });
    let (cols, rows) = (grid.cols, grid.rows);
    let (width, height) = grid.pixels();
    let desc_id = format!("{id}-desc");
    let title_id = format!("{id}-title");
    html! {
        <figure class={classes!("bitmap", overview.is_some().then_some("bitmap-large"))} id={format!("{id}-bitmap")}
            aria-labelledby={title_id.clone()}>
            <figcaption class="bitmap-head">
                <h3 id={title_id}>{ props.title.clone() }</h3>
                <span class="bitmap-meta" id={format!("{id}-meta")}>
                    <code>{ view.range.to_string() }</code>{ meta(view, lang) }
                </span>
            </figcaption>
            <div class="bitmap-body">
                { nav_html.unwrap_or_default() }
                <div class="bitmap-main">
                    <div class="bitmap-stage" style={format!("max-width:{}px", (width * 3 / 2).max(320))}>
                        <canvas ref={canvas_ref} id={format!("{id}-canvas")} class="bitmap-canvas"
                            width={width.to_string()} height={height.to_string()}
                            data-cols={cols.to_string()} data-rows={rows.to_string()} data-first={grid.first.to_string()}
                            data-count={grid.count.to_string()} data-cell-px={grid.px.to_string()}
                            tabindex="0" role="application" aria-roledescription={lang.pick("allocation bitmap", "分配位图")}
                            aria-label={canvas_label(&props.title, size, lang)}
                            aria-describedby={desc_id.clone()}
                            onpointermove={events.on_move} onpointerdown={events.on_down} onpointerleave={events.on_leave}
                            onkeydown={events.on_key} onfocus={events.on_focus} onblur={events.on_blur}>
                            { summary(&counted, view.kind(), lang) }
                        </canvas>
                        { overlays(view, grid, &nav, lang) }
                        { rings(view, grid) }
                    </div>
                    <p id={desc_id} class="bitmap-desc" aria-live="polite">{ desc }</p>
                </div>
            </div>
            <Legend id={props.id.clone()} counted={*counted} kind={view.kind()} static_band={view.static_band().min(size)} {dark} />
            if !view.out_of_range().is_empty() {
                <div class="bitmap-oor" id={format!("{id}-oor")} role="note">
                    <span class="bitmap-oor-title">{ lang.pick("Flagged out of range:", "被标记为超出范围：") }</span>
                    <ul>
                        { for view.out_of_range().iter().map(|(svc, value)| html! {
                            <li><code>{ svc.clone() }</code>{ " " }<code>{ value.clone() }</code></li>
                        }) }
                    </ul>
                </div>
            }
        </figure>
    }
}

/// The hover and cursor boxes and the tooltip over the canvas. They are always in the DOM
/// (hidden when unused): Yew reconciles unkeyed children from the end, so children that come
/// and go would make it rebuild the canvas.
fn overlays(view: &BitmapView, grid: Grid, nav: &Nav, lang: Lang) -> Html {
    let (cursor, hover) = (nav.cursor_in(view.size()), nav.hover_in(view.size()));
    let cursor_at = cursor.filter(|&o| grid.contains(o));
    let hover_at = hover.filter(|&o| grid.contains(o)).filter(|&h| Some(h) != cursor);
    let tip_at = hover.or(cursor.filter(|_| nav.focused)).filter(|&o| grid.contains(o));
    let (tip_class, tip_style, tip_text) = match tip_at {
        Some(o) => {
            let (align, below, style) = grid.tip(o);
            (classes!(align, below.then_some("tip-below")), Some(style), view.describe(o, lang))
        }
        None => (classes!(), None, String::new()),
    };
    html! {
        <>
            <div class="bitmap-hover" hidden={hover_at.is_none()} style={hover_at.map(|o| grid.box_style(o))} aria-hidden="true"></div>
            <div class={classes!("bitmap-cursor", nav.focused.then_some("focused"))} hidden={cursor_at.is_none()}
                style={cursor_at.map(|o| grid.box_style(o))} aria-hidden="true"></div>
            <div class={classes!("bitmap-tip", tip_class)} aria-hidden="true" hidden={tip_at.is_none()} style={tip_style}>{ tip_text }</div>
        </>
    }
}

/// The most rings drawn over one window.
const MAX_RINGS: usize = 64;

/// Rings around the IPAddress objects RepairIPAddress is about to delete (orphans, wrong
/// references) and duplicated ClusterIPs, when cells are too small to find by eye. One wrapper
/// always there, its children keyed, so that the canvas before it is never rebuilt.
fn rings(view: &BitmapView, grid: Grid) -> Html {
    let wanted = view.kind() == ViewKind::IpAddresses && grid.px < RING_BELOW_PX;
    let notable = |&(o, c): &(usize, Cell)| {
        grid.contains(o) && matches!(c, Cell::Leaked | Cell::WrongReference | Cell::Duplicate)
    };
    let marks: Vec<(usize, Cell)> =
        if wanted { view.marked().filter(notable).take(MAX_RINGS).collect() } else { Vec::new() };
    html! {
        <div class="bitmap-rings" aria-hidden="true">
            { for marks.iter().map(|&(o, c)| html! {
                <div key={o} class={classes!("bitmap-ring", ring_class(c))} style={grid.box_style(o)}></div>
            }) }
        </div>
    }
}

/// Cells smaller than this (in canvas pixels) get rings.
const RING_BELOW_PX: usize = 8;

fn ring_class(c: Cell) -> &'static str {
    match c {
        Cell::WrongReference => "ring-wrong",
        Cell::Duplicate => "ring-duplicate",
        _ => "ring-orphan",
    }
}

/// ` · 254 addresses · static band: first 16 (10.96.0.1 – 10.96.0.16)`, after the range.
fn meta(view: &BitmapView, lang: Lang) -> String {
    let size = view.size();
    let noun = match (view.range, lang) {
        (BitmapRange::Cidr(_), Lang::En) => " addresses",
        (BitmapRange::Ports(_), Lang::En) => " ports",
        (BitmapRange::Cidr(_), Lang::Zh) => " 个地址",
        (BitmapRange::Ports(_), Lang::Zh) => " 个端口",
    };
    let band = match (view.static_band().min(size), lang) {
        (0, _) => lang.pick("no static band", "无静态段").to_string(),
        (n, Lang::En) => {
            format!("static band: first {} ({} – {})", group(n), view.label(0), view.label(n - 1))
        }
        (n, Lang::Zh) => {
            format!("静态段：前 {} 个（{} – {}）", group(n), view.label(0), view.label(n - 1))
        }
    };
    format!(" · {}{noun} · {band}", group(size))
}

/// Which cells the window shown holds: `Cells 0–65,535 of 1,048,574 · 10.96.0.1 – 10.97.0.0`.
fn window_text(view: &BitmapView, grid: Grid, lang: Lang) -> AttrValue {
    let (first, last) = (grid.first, grid.last());
    let (from, to) = (view.label(first), view.label(last));
    let (first, last, size) = (group(first), group(last), group(view.size()));
    match lang {
        Lang::En => format!("Cells {first}–{last} of {size} · {from} – {to}"),
        Lang::Zh => format!("第 {first}–{last} 格（共 {size} 格）· {from} – {to}"),
    }
    .into()
}

/// What the canvas is and which keys move on it.
fn canvas_label(title: &str, size: usize, lang: Lang) -> String {
    let large = size > WINDOW;
    match lang {
        Lang::En => format!(
            "{title}: {} cells. Arrow keys move by one cell or row, Home and End jump to the first and last cell{}.",
            group(size),
            if large { ", Page Up and Page Down by 65,536 cells" } else { "" }
        ),
        Lang::Zh => format!(
            "{title}：共 {} 格。方向键按格或按行移动，Home 和 End 跳到第一格和最后一格{}。",
            group(size),
            if large { "，Page Up 和 Page Down 一次移动 65,536 格" } else { "" }
        ),
    }
}
