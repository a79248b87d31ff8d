//! The tour's highlight, applied after every render (the marking itself is the tour's).

use yew::prelude::*;

use crate::ui::tour::highlight;

/// Marks the parts of the UI the tour's step talks about, after every render (a render may
/// rewrite an element's class, or create it anew).
#[hook]
pub(crate) fn use_tour_highlight(root: NodeRef, spots: Vec<crate::lab::parts::Spot>) {
    use_effect(move || {
        if let Some(el) = root.cast::<web_sys::Element>() {
            highlight(&el, &spots);
        }
    });
}
