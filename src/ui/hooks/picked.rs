//! The object the reader picked to inspect.

use yew::prelude::*;

use crate::lab::upstream::Subject;

/// The object the reader picked to inspect (and whether the inspector takes the focus), with
/// the callbacks that pick one and close the inspector (the same ones every render).
#[hook]
pub(crate) fn use_picked() -> (Option<(Subject, bool)>, Callback<(Subject, bool)>, Callback<()>) {
    let picked = use_state(|| None::<(Subject, bool)>);
    let on_pick = {
        let picked = picked.clone();
        use_callback((), move |s: (Subject, bool), _| picked.set(Some(s)))
    };
    let on_close = {
        let picked = picked.clone();
        use_callback((), move |(), _| picked.set(None))
    };
    ((*picked).clone(), on_pick, on_close)
}
