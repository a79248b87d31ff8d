//! What the panels render from: the lab's [`View`] once per render, and the same view kept
//! while only time moved, for the panels that change with etcd or the logs alone.

use std::rc::Rc;

use yew::prelude::*;

use crate::lab::View;

/// Everything a panel needs to render one frame: the lab's view.
pub type Frame = View;

/// This render's frame, and the same frame kept while only time moved (for the panels that
/// show what changes with etcd or the logs only, which then skip the other renders).
#[hook]
pub(crate) fn use_frame(frame: View) -> (Frame, Rc<Frame>) {
    let key = (frame.generation, frame.state.etcd.revision, frame.events.len(), frame.marks.len());
    let slow = {
        let frame = frame.clone();
        use_memo(key, move |_| frame)
    };
    (frame, slow)
}
