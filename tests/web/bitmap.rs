//! The bitmap component in headless Chromium: canvas sizes, pixels read back, incremental
//! redraws, the overview of large ranges, pointer and keyboard descriptions, the sweep.

use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, KeyboardEvent, KeyboardEventInit};
use yew::AppHandle;

use kube_bootstrap_lab::lab::inspect::{BitmapRange, BitmapView, Cell};
use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::bitmap::{
    background_colour, cell_at, cell_colour, centre_colour, key_target, layout, overview_layout,
    Bitmap, BitmapProps, Overview, WINDOW,
};
use kube_bootstrap_lab::ui::media::prefers_dark;

use crate::dom::{self, by_id, context2d, document, pixel, text};

fn canvas(id: &str) -> HtmlCanvasElement {
    by_id(id).dyn_into::<HtmlCanvasElement>().unwrap()
}

async fn settle() {
    gloo_timers::future::TimeoutFuture::new(40).await;
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// A view of `range` (of `size` cells) with `cells` set (offset, state, owner).
fn view(range: &str, size: usize, static_band: usize, cells: &[(usize, Cell, &str)]) -> BitmapView {
    let mut v = BitmapView::new(range.parse::<BitmapRange>().unwrap(), static_band);
    assert_eq!(v.size(), size, "{range}");
    for &(o, c, who) in cells {
        let owners: &[&str] = if who.is_empty() { &[] } else { &[who] };
        v.set(o, c, owners);
    }
    v
}

fn props(id: &str, v: &Rc<BitmapView>, sweep: u64) -> BitmapProps {
    BitmapProps {
        id: id.to_string().into(),
        title: format!("ClusterIP {}", v.range).into(),
        view: v.clone(),
        sweep,
    }
}

async fn mount(id: &str, v: &Rc<BitmapView>) -> AppHandle<Bitmap> {
    let root = document().create_element("div").unwrap();
    root.set_attribute("style", "width: 640px").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<Bitmap>::with_root_and_props(root, props(id, v, 0)).render();
    settle().await;
    handle
}

/// The centre pixel of cell `i` of the window shown.
fn cell_pixel(c: &HtmlCanvasElement, i: usize) -> [u8; 3] {
    let (cols, px) = (attr_usize(c, "data-cols"), attr_usize(c, "data-cell-px"));
    pixel(
        c,
        (i % cols) * px + px / 2 - usize::from(px >= 4),
        (i / cols) * px + px / 2 - usize::from(px >= 4),
    )
}

fn attr_usize(el: &Element, name: &str) -> usize {
    el.get_attribute(name).unwrap_or_else(|| panic!("no {name}")).parse().unwrap()
}

const BLUE: [u8; 3] = [0x00, 0x72, 0xb2];
const ORANGE: [u8; 3] = [0xe6, 0x9f, 0x00];

/// A pointer event at client coordinates (x, y) (PointerEventInit is not among the web-sys features).
fn pointer_event(kind: &str, x: f64, y: f64) -> web_sys::Event {
    let init = js_sys::Object::new();
    for (k, v) in [
        ("clientX", JsValue::from_f64(x)),
        ("clientY", JsValue::from_f64(y)),
        ("bubbles", JsValue::TRUE),
        ("isPrimary", JsValue::TRUE),
        ("pointerType", JsValue::from_str("mouse")),
        ("button", JsValue::from_f64(0.0)),
    ] {
        js_sys::Reflect::set(&init, &JsValue::from_str(k), &v).unwrap();
    }
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&web_sys::window().unwrap(), &JsValue::from_str("PointerEvent"))
            .unwrap()
            .unchecked_into();
    js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&JsValue::from_str(kind), &init))
        .unwrap()
        .unchecked_into()
}

/// The client coordinates of the centre of grid square (col, row) of an element `cols` × `rows`.
fn centre_of(el: &Element, cols: usize, rows: usize, col: usize, row: usize) -> (f64, f64) {
    let r = el.get_bounding_client_rect();
    (
        r.left() + (col as f64 + 0.5) * r.width() / cols as f64,
        r.top() + (row as f64 + 0.5) * r.height() / rows as f64,
    )
}

async fn point_at(id: &str, i: usize) {
    let c = canvas(&format!("{id}-canvas"));
    let (cols, rows) = (attr_usize(&c, "data-cols"), attr_usize(&c, "data-rows"));
    let (x, y) = centre_of(&c, cols, rows, i % cols, i / cols);
    c.dispatch_event(&pointer_event("pointermove", x, y)).unwrap();
    settle().await;
}

async fn key(el: &Element, k: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(k);
    init.set_bubbles(true);
    init.set_cancelable(true);
    el.dispatch_event(&KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap())
        .unwrap();
    settle().await;
}

fn slash24() -> BitmapView {
    view(
        "10.0.0.0/24",
        254,
        16,
        &[
            (0, Cell::Kubernetes, "default/kubernetes"),
            (20, Cell::Allocated, "default/web"),
            (40, Cell::Leaked, ""),
        ],
    )
}

fn slash16() -> BitmapView {
    view(
        "10.96.0.0/16",
        65_534,
        256,
        &[(0, Cell::Kubernetes, "default/kubernetes"), (40_000, Cell::Allocated, "default/web")],
    )
}

#[wasm_bindgen_test]
fn layouts_for_the_usual_ranges() {
    assert_eq!(layout(254), (16, 16, 24));
    assert_eq!(layout(2_768), (56, 50, 9));
    assert_eq!(layout(65_534), (256, 256, 2));
    assert_eq!(layout(1_048_574), (256, 256, 2));
    assert_eq!(cell_at(10.0, 10.0, 384.0, 384.0, 16, 16, 254), Some(0));
    assert_eq!(cell_at(383.0, 383.0, 384.0, 384.0, 16, 16, 254), None, "past the last cell");
    assert_eq!(key_target("ArrowDown", 1, 254, 16, 64), Some(17));
    assert_eq!(
        overview_layout(1_048_574),
        Some(Overview { windows: 16, tile_cols: 4, tile_rows: 4, tile_px: 64, scale: 4 })
    );
    assert_eq!(overview_layout(65_534), None);
}

#[wasm_bindgen_test]
async fn a_slash24_gets_big_cells_with_colours_and_shapes() {
    let v = Rc::new(slash24());
    let app = mount("b24", &v).await;
    let c = canvas("b24-canvas");
    assert_eq!((c.width(), c.height()), (16 * 24, 16 * 24));
    let dark = prefers_dark();
    assert_eq!(cell_pixel(&c, 20), BLUE, "allocated");
    assert_eq!(cell_pixel(&c, 30), cell_colour(Cell::Free, false, dark), "free, dynamic band");
    assert_eq!(cell_pixel(&c, 5), cell_colour(Cell::Free, true, dark), "free, static band");
    assert_ne!(cell_colour(Cell::Free, true, dark), cell_colour(Cell::Free, false, dark));
    // The kubernetes cell has a light dot in its middle and vermillion around it.
    assert_eq!(cell_pixel(&c, 0), [255, 255, 255]);
    assert_eq!(pixel(&c, 1, 1), [0xd5, 0x5e, 0x00]);
    // A leaked cell is hatched: orange and a darker stripe inside the same cell.
    let (x0, y0) = ((40 % 16) * 24, (40 / 16) * 24);
    let inside: Vec<[u8; 3]> = (0..23).map(|d| pixel(&c, x0 + d, y0 + 3)).collect();
    assert!(inside.contains(&ORANGE) && inside.iter().any(|p| *p != ORANGE), "{inside:?}");
    // The gap between cells is the background.
    assert_eq!(pixel(&c, 24 * 5 + 23, 24 * 5 + 10), background_colour(dark));
    // Legend counts come from the cells; the range and static band are written out.
    assert_eq!(text("b24-count-allocated"), "1");
    assert_eq!(text("b24-count-leaked"), "1");
    assert_eq!(text("b24-count-free"), "251");
    assert_eq!(text("b24-count-static"), "16");
    let meta = text("b24-meta");
    assert!(
        meta.contains("10.0.0.0/24")
            && meta.contains("254 addresses")
            && meta.contains("10.0.0.1 – 10.0.0.16"),
        "{meta}"
    );
    assert!(document().get_element_by_id("b24-overview").is_none());
    app.destroy();
}

#[wasm_bindgen_test]
async fn a_slash16_shows_every_cell_in_one_canvas() {
    let v = Rc::new(slash16());
    let app = mount("b16", &v).await;
    let c = canvas("b16-canvas");
    assert_eq!((c.width(), c.height()), (512, 512));
    assert_eq!((attr_usize(&c, "data-cols"), attr_usize(&c, "data-rows")), (256, 256));
    assert_eq!(cell_pixel(&c, 40_000), BLUE);
    let free = |i: usize| centre_colour(Cell::Free, i, 256, 2, false, prefers_dark());
    assert_eq!(cell_pixel(&c, 40_001), free(40_001));
    assert_eq!(cell_pixel(&c, 65_533), free(65_533), "the last cell");
    // Free cells of every other 16 × 16 block are shaded, like graph paper.
    assert_ne!(free(0), free(4096));
    assert_eq!(cell_pixel(&c, 4096), free(4096));
    assert_eq!(cell_pixel(&c, 4096 + 16), free(0));
    assert_eq!(free(0), cell_colour(Cell::Free, false, prefers_dark()));
    assert_eq!(cell_pixel(&c, 65_534), background_colour(prefers_dark()), "past the range");
    assert_eq!(by_id("b16-canvas").get_attribute("data-draws").as_deref(), Some("1"));
    app.destroy();
}

#[wasm_bindgen_test]
async fn an_update_redraws_the_changed_cells_only() {
    let v = Rc::new(slash16());
    let mut app = mount("upd", &v).await;
    let c = canvas("upd-canvas");
    let free = |i: usize| centre_colour(Cell::Free, i, 256, 2, false, prefers_dark());
    assert_eq!(cell_pixel(&c, 1234), free(1234));
    let mut next = (*v).clone();
    next.set(1234, Cell::Duplicate, &["a/x", "b/y"]);
    next.set(40_000, Cell::Free, &[]);
    let next = Rc::new(next);
    app.update(props("upd", &next, 0));
    settle().await;
    assert_eq!(cell_pixel(&c, 1234), [0xcc, 0x79, 0xa7], "the duplicate");
    assert_eq!(cell_pixel(&c, 40_000), free(40_000), "freed");
    assert_eq!(c.get_attribute("data-draws").as_deref(), Some("2"));
    assert_eq!(text("upd-count-duplicate"), "1");
    // Same cells, other owners: nothing to draw.
    let mut same = (*next).clone();
    same.set(1234, Cell::Duplicate, &["a/x", "c/z"]);
    app.update(props("upd", &Rc::new(same), 0));
    settle().await;
    assert_eq!(c.get_attribute("data-draws").as_deref(), Some("2"));
    app.destroy();
}

#[wasm_bindgen_test]
async fn pointer_move_describes_the_cell() {
    let v = Rc::new(slash24());
    let app = mount("hov", &v).await;
    point_at("hov", 20).await;
    assert_eq!(text("hov-desc"), v.describe(20, Lang::En));
    assert!(text("hov-desc").contains("default/web"));
    assert_eq!(by_id("hov-desc").get_attribute("aria-live").as_deref(), Some("polite"));
    let tip = document()
        .query_selector("#hov-bitmap .bitmap-tip:not([hidden])")
        .unwrap()
        .expect("a tooltip");
    assert_eq!(tip.text_content().unwrap(), v.describe(20, Lang::En));
    point_at("hov", 40).await;
    assert_eq!(text("hov-desc"), v.describe(40, Lang::En));
    by_id("hov-canvas").dispatch_event(&pointer_event("pointerleave", 0.0, 0.0)).unwrap();
    settle().await;
    assert!(document().query_selector("#hov-bitmap .bitmap-tip:not([hidden])").unwrap().is_none());
    app.destroy();
}

#[wasm_bindgen_test]
async fn keys_move_a_focus_cursor() {
    let v = Rc::new(slash24());
    let app = mount("kb", &v).await;
    let c = by_id("kb-canvas");
    assert_eq!(c.get_attribute("tabindex").as_deref(), Some("0"));
    assert!(document()
        .query_selector("#kb-bitmap .bitmap-cursor:not([hidden])")
        .unwrap()
        .is_none());
    c.clone().dyn_into::<HtmlElement>().unwrap().focus().unwrap();
    settle().await;
    assert_eq!(text("kb-desc"), v.describe(0, Lang::En));
    assert!(by_id("kb-canvas") == c, "focusing keeps the same canvas element");
    key(&c, "ArrowRight").await;
    assert_eq!(text("kb-desc"), v.describe(1, Lang::En));
    key(&c, "ArrowDown").await;
    assert_eq!(text("kb-desc"), v.describe(17, Lang::En));
    key(&c, "ArrowDown").await;
    key(&c, "ArrowRight").await;
    key(&c, "ArrowRight").await;
    key(&c, "ArrowRight").await;
    assert_eq!(text("kb-desc"), v.describe(36, Lang::En));
    assert!(document()
        .query_selector("#kb-bitmap .bitmap-cursor:not([hidden])")
        .unwrap()
        .is_some());
    key(&c, "End").await;
    assert_eq!(text("kb-desc"), v.describe(253, Lang::En));
    key(&c, "ArrowDown").await;
    assert_eq!(text("kb-desc"), v.describe(253, Lang::En), "no row below");
    key(&c, "Home").await;
    assert_eq!(text("kb-desc"), v.describe(0, Lang::En));
    key(&c, "ArrowUp").await;
    assert_eq!(text("kb-desc"), v.describe(0, Lang::En));
    app.destroy();
}

#[wasm_bindgen_test]
async fn a_slash12_gets_an_overview_and_windows() {
    let size = 1_048_574;
    let v = Rc::new(view(
        "10.96.0.0/12",
        size,
        256,
        &[
            (0, Cell::Kubernetes, "default/kubernetes"),
            (WINDOW + 300, Cell::Allocated, "default/web"),
            (5 * WINDOW + 7, Cell::Leaked, ""),
        ],
    ));
    let mut app = mount("big", &v).await;
    let main = canvas("big-canvas");
    assert_eq!((main.width(), main.height()), (512, 512));
    let ov = canvas("big-overview");
    assert_eq!((ov.width(), ov.height()), (256, 256));
    assert_eq!(main.get_attribute("data-first").as_deref(), Some("0"));
    let label = text("big-window");
    assert!(
        label.contains("10.96.0.1") && label.contains("10.97.0.0") && label.contains("1,048,574"),
        "{label}"
    );
    // The overview pixel of window 5's leaked cell is orange; one of window 1 blue.
    let layout = overview_layout(size).unwrap();
    let (x, y) = layout.pixel_of(5 * WINDOW + 7);
    // A /12's overview is painted after the first render; on a loaded machine that lags.
    dom::until("the overview is painted", || pixel(&ov, x, y) == ORANGE).await;
    assert_eq!(pixel(&ov, x + 1, y + 1), ORANGE, "notable pixels are enlarged");
    assert_eq!(pixel(&ov, x + 2, y + 2), cell_colour(Cell::Free, false, prefers_dark()));
    let (x, y) = layout.pixel_of(WINDOW + 300);
    assert_eq!(pixel(&ov, x, y), BLUE);
    // Tap window 1 on the overview: the main canvas shows it in full detail.
    let (x, y) = centre_of(&by_id("big-overview"), 4, 4, 1, 0);
    by_id("big-overview").dispatch_event(&pointer_event("pointerdown", x, y)).unwrap();
    settle().await;
    assert_eq!(main.get_attribute("data-first").as_deref(), Some("65536"));
    assert!(text("big-window").contains(&v.label(WINDOW)), "{}", text("big-window"));
    assert_eq!(cell_pixel(&main, 300), BLUE);
    point_at("big", 300).await;
    assert_eq!(text("big-desc"), v.describe(WINDOW + 300, Lang::En));
    // The buttons and the overview's keys move the window.
    by_id("big-next").dyn_into::<HtmlElement>().unwrap().click();
    settle().await;
    assert_eq!(main.get_attribute("data-first").as_deref(), Some(&*(2 * WINDOW).to_string()));
    key(&by_id("big-overview"), "ArrowDown").await;
    assert_eq!(main.get_attribute("data-first").as_deref(), Some(&*(6 * WINDOW).to_string()));
    key(&by_id("big-overview"), "End").await;
    assert_eq!(main.get_attribute("data-first").as_deref(), Some(&*(15 * WINDOW).to_string()));
    assert_eq!(main.get_attribute("data-count").as_deref(), Some("65534"));
    assert!(by_id("big-next").has_attribute("disabled"));
    // Page Up on the main canvas goes back one window, keeping the cursor's place.
    key(&by_id("big-canvas"), "PageUp").await;
    assert_eq!(main.get_attribute("data-first").as_deref(), Some(&*(14 * WINDOW).to_string()));
    // An update repaints the overview.
    let mut next = (*v).clone();
    next.set(15 * WINDOW + 1, Cell::Duplicate, &["a/x", "b/y"]);
    app.update(props("big", &Rc::new(next), 0));
    settle().await;
    let (x, y) = layout.pixel_of(15 * WINDOW + 1);
    assert_eq!(pixel(&ov, x, y), [0xcc, 0x79, 0xa7]);
    app.destroy();
}

#[wasm_bindgen_test]
async fn node_ports_and_out_of_range_services() {
    let mut v = view("30000-32767", 2_768, 86, &[(80, Cell::Allocated, "default/web")]);
    v.flag_out_of_range("default/web", "10.97.0.5");
    let v = Rc::new(v);
    let app = mount("np", &v).await;
    let c = canvas("np-canvas");
    assert_eq!((c.width(), c.height()), (56 * 9, 50 * 9));
    point_at("np", 80).await;
    assert!(text("np-desc").starts_with("30080"), "{}", text("np-desc"));
    assert_eq!(text("np-desc"), v.describe(80, Lang::En));
    let oor = text("np-oor");
    assert!(
        oor.contains("Flagged out of range:")
            && oor.contains("default/web")
            && oor.contains("10.97.0.5"),
        "{oor}"
    );
    assert!(text("np-meta").contains("2,768 ports"));
    app.destroy();
}

fn all_pixels(c: &HtmlCanvasElement) -> Vec<u8> {
    context2d(c).get_image_data(0.0, 0.0, c.width() as f64, c.height() as f64).unwrap().data().0
}

#[wasm_bindgen_test]
async fn a_repair_run_sweeps_then_puts_every_pixel_back() {
    let big = Rc::new(view(
        "10.96.0.0/12",
        1_048_574,
        256,
        &[(0, Cell::Kubernetes, "default/kubernetes")],
    ));
    for (id, v) in [("sw24", Rc::new(slash24())), ("sw16", Rc::new(slash16())), ("sw12", big)] {
        let mut app = mount(id, &v).await;
        let c = canvas(&format!("{id}-canvas"));
        let before = all_pixels(&c);
        app.update(props(id, &v, 1));
        sleep(250).await;
        let reduced = web_sys::window()
            .unwrap()
            .match_media("(prefers-reduced-motion: reduce)")
            .unwrap()
            .unwrap()
            .matches();
        if !reduced {
            assert_eq!(c.get_attribute("data-sweeping").as_deref(), Some("true"));
            assert_ne!(before, all_pixels(&c), "the band is visible");
        }
        // The sweep ends, and its last frame puts every pixel back (on a loaded machine a frame
        // or more after the flag is down).
        let over = || c.get_attribute("data-sweeping").as_deref() != Some("true");
        dom::until_long(&format!("{id}: the sweep is over, every pixel back"), || {
            over() && before == all_pixels(&c)
        })
        .await;
        assert_eq!(
            c.get_attribute("data-draws").as_deref(),
            Some("1"),
            "sweep frames are not redraws"
        );
        // A lower count (seeking back) does not sweep.
        app.update(props(id, &v, 0));
        sleep(100).await;
        assert_ne!(c.get_attribute("data-sweeping").as_deref(), Some("true"));
        // Unmounting in the middle of a sweep stops it cleanly.
        app.update(props(id, &v, 3));
        sleep(100).await;
        app.destroy();
        sleep(300).await;
        assert!(document().get_element_by_id(&format!("{id}-canvas")).is_none());
    }
}

/// Issue 9, 5d: after Configure the lab starts again at t = 0 with another cluster, so the new
/// views come at the same time and repair count as the old ones. Whatever the bitmap shows must
/// come from the view it is given on that very render: range, size, band, labels, cells.
#[wasm_bindgen_test]
async fn another_range_at_the_same_moment_is_shown_at_once() {
    let v = Rc::new(slash24());
    let mut app = mount("cfg", &v).await;
    point_at("cfg", 20).await;
    assert!(text("cfg-desc").starts_with("10.0.0.21 "), "{}", text("cfg-desc"));
    let other = Rc::new(view(
        "172.16.0.0/20",
        4_094,
        256,
        &[
            (0, Cell::Kubernetes, "default/kubernetes"),
            (20, Cell::Allocated, "default/web"),
            (300, Cell::Allocated, "default/db"),
        ],
    ));
    app.update(props("cfg", &other, 0));
    settle().await;
    let meta = text("cfg-meta");
    assert!(
        meta.contains("172.16.0.0/20")
            && meta.contains("4,094 addresses")
            && meta.contains("172.16.0.1 – 172.16.1.0")
            && !meta.contains("10.0.0."),
        "{meta}"
    );
    let c = canvas("cfg-canvas");
    assert_eq!((c.width(), c.height()), (512, 512), "the /20's grid: 64 × 64 cells of 8 px");
    assert_eq!(cell_pixel(&c, 300), BLUE);
    assert_eq!(text("cfg-desc"), other.describe(20, Lang::En));
    assert!(text("cfg-desc").starts_with("172.16.0.21 "));
    assert_eq!(text("cfg-count-allocated"), "2");
    // A range of the same size elsewhere: not one pixel changes, every word does.
    let draws = c.get_attribute("data-draws");
    let moved = Rc::new(view(
        "192.168.64.0/20",
        4_094,
        256,
        &[
            (0, Cell::Kubernetes, "default/kubernetes"),
            (20, Cell::Allocated, "default/web"),
            (300, Cell::Allocated, "default/db"),
        ],
    ));
    app.update(props("cfg", &moved, 0));
    settle().await;
    assert!(text("cfg-meta").contains("192.168.64.0/20 · 4,094 addresses"), "{}", text("cfg-meta"));
    assert_eq!(text("cfg-desc"), moved.describe(20, Lang::En));
    assert!(text("cfg-desc").starts_with("192.168.64.21 "));
    assert_eq!(c.get_attribute("data-draws"), draws, "same cells: nothing to repaint");
    app.destroy();
}
