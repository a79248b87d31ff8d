//! Moving around a bitmap: the focus cursor, the cell under the pointer and the window shown,
//! as one reducer, and the pointer and keyboard events that drive it.

use std::rc::Rc;

use yew::prelude::*;

use super::layout::{Grid, WINDOW};

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

/// The key of `e` when no modifier is held (Ctrl, Meta and Alt combinations belong to the
/// browser).
pub(crate) fn plain_key(e: &KeyboardEvent) -> Option<String> {
    (!(e.ctrl_key() || e.meta_key() || e.alt_key())).then(|| e.key())
}

/// `(x, y)` of a pointer event relative to the element of `node`, and the element's CSS size.
/// (Yew delegates events, so `current_target` is not the canvas.)
pub(crate) fn pointer_in(e: &MouseEvent, node: &NodeRef) -> Option<(f64, f64, f64, f64)> {
    let el = node.cast::<web_sys::Element>()?;
    let r = el.get_bounding_client_rect();
    Some((e.client_x() as f64 - r.left(), e.client_y() as f64 - r.top(), r.width(), r.height()))
}

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Nav {
    /// The focus cursor (a global offset).
    pub(crate) cursor: Option<usize>,
    /// The cell under the pointer (a global offset).
    pub(crate) hover: Option<usize>,
    /// The window shown in detail (ranges larger than [`WINDOW`]).
    pub(crate) window: usize,
    pub(crate) focused: bool,
    /// The window under the pointer on the overview.
    pub(crate) overview_hover: Option<usize>,
}

impl Nav {
    /// The focus cursor, if it is in a range of `size` cells (it may be left from a larger one).
    pub(crate) fn cursor_in(&self, size: usize) -> Option<usize> {
        self.cursor.filter(|&c| c < size)
    }

    /// The cell under the pointer, if it is in a range of `size` cells.
    pub(crate) fn hover_in(&self, size: usize) -> Option<usize> {
        self.hover.filter(|&c| c < size)
    }
}

pub(crate) enum NavAction {
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
            NavAction::Key { key, size, cols, page } => {
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

/// The handlers of the main canvas.
pub(crate) struct CellEvents {
    pub(crate) on_move: Callback<PointerEvent>,
    pub(crate) on_down: Callback<PointerEvent>,
    pub(crate) on_leave: Callback<PointerEvent>,
    pub(crate) on_key: Callback<KeyboardEvent>,
    pub(crate) on_focus: Callback<FocusEvent>,
    pub(crate) on_blur: Callback<FocusEvent>,
}

/// The main canvas's handlers for a range of `size` cells shown as `grid` on the element of
/// `node`: pointing describes a cell, a press selects it, keys move the cursor (Page Up/Down by a
/// window in large ranges, else by a quarter of the rows).
pub(crate) fn cell_events(
    nav: &UseReducerDispatcher<Nav>,
    node: &NodeRef,
    grid: Grid,
    size: usize,
) -> CellEvents {
    let at = {
        let node = node.clone();
        move |e: &PointerEvent| pointer_in(e, &node).and_then(|(x, y, w, h)| grid.hit(x, y, w, h))
    };
    let on_move = {
        let (nav, at) = (nav.clone(), at.clone());
        Callback::from(move |e: PointerEvent| nav.dispatch(NavAction::Hover(at(&e))))
    };
    let on_down = {
        let nav = nav.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(o) = at(&e).filter(|_| e.button() == 0) {
                nav.dispatch(NavAction::Select(o));
            }
        })
    };
    let page = if size > WINDOW { WINDOW } else { grid.cols * (grid.rows / 4).max(1) };
    let on_key = {
        let nav = nav.clone();
        Callback::from(move |e: KeyboardEvent| {
            // Only the keys that move the cursor are taken from the browser.
            let Some(key) = plain_key(&e).filter(|k| key_target(k, 0, 2, 1, 1).is_some()) else {
                return;
            };
            e.prevent_default();
            nav.dispatch(NavAction::Key { key, size, cols: grid.cols, page });
        })
    };
    let focus = |on: bool| {
        let nav = nav.clone();
        Callback::from(move |_: FocusEvent| nav.dispatch(NavAction::Focus { on, size }))
    };
    let leave = nav.clone();
    CellEvents {
        on_move,
        on_down,
        on_leave: Callback::from(move |_: PointerEvent| leave.dispatch(NavAction::Hover(None))),
        on_key,
        on_focus: focus(true),
        on_blur: focus(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(key_target("ArrowDown", 250, 254, 16, 64), Some(250));
        assert_eq!(key_target("ArrowDown", 3, 254, 16, 64), Some(19));
        assert_eq!(key_target("ArrowLeft", 0, 254, 16, 64), Some(0));
        assert_eq!(key_target("End", 0, 254, 16, 64), Some(253));
        assert_eq!(key_target("PageDown", 200, 254, 16, 64), Some(253));
        assert_eq!(key_target("x", 0, 254, 16, 64), None);
        assert_eq!(key_target("Home", 0, 0, 16, 64), None);
    }

    fn after(n: Nav, actions: impl IntoIterator<Item = NavAction>) -> Nav {
        let mut n = Rc::new(n);
        for a in actions {
            n = n.reduce(a);
        }
        (*n).clone()
    }

    #[test]
    fn focusing_puts_the_cursor_on_the_window_and_keys_move_it() {
        let size = 1_048_574;
        let n = after(
            Nav::default(),
            [NavAction::Window { window: 3, size }, NavAction::Focus { on: true, size }],
        );
        assert_eq!((n.cursor, n.focused), (Some(3 * WINDOW), true));
        let key = |k: &str| NavAction::Key { key: k.into(), size, cols: 256, page: WINDOW };
        let n = after(n, [NavAction::Hover(Some(7)), key("PageUp")]);
        assert_eq!((n.cursor, n.window, n.hover), (Some(2 * WINDOW), 2, None));
        // Another window keeps the cursor's place in it; the last window is partial.
        let n = after(n, [NavAction::Window { window: 99, size }]);
        assert_eq!((n.window, n.cursor), (15, Some(15 * WINDOW)));
        // A cursor left over from a larger range starts again in the window shown.
        let n = after(
            n,
            [NavAction::Focus { on: false, size }, NavAction::Focus { on: true, size: 254 }],
        );
        assert_eq!(n.cursor, Some(253));
    }

    #[test]
    fn a_tap_selects_and_an_unchanged_state_is_the_same_state() {
        let n = after(Nav::default(), [NavAction::Select(WINDOW + 5)]);
        assert_eq!((n.cursor, n.hover, n.window), (Some(WINDOW + 5), Some(WINDOW + 5), 1));
        let same = Rc::new(n);
        assert!(Rc::ptr_eq(&same, &same.clone().reduce(NavAction::OverviewHover(None))));
    }
}
