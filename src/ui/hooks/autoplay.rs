//! The autoplaying tour's reading pause.

use yew::prelude::*;

use super::lab::LabState;
use crate::lab::Msg;
use crate::ui::media::prefers_reduced_motion;

/// An autoplaying tour moves to its next step after a reading pause: counted while in view only
/// (coming back re-arms it), again for each step and each tour.
#[hook]
pub(crate) fn use_tour_autoplay(
    wait_ms: Option<u32>,
    step: Option<usize>,
    generation: u64,
    in_view: bool,
    lab: UseReducerDispatcher<LabState>,
) {
    use_effect_with((wait_ms, step, generation, in_view), move |&(wait, _, _, in_view)| {
        let timer = wait.filter(|_| in_view).map(|ms| {
            gloo_timers::callback::Timeout::new(ms, move || {
                let animate = !prefers_reduced_motion();
                lab.dispatch(Msg::TourAutoNext { animate });
            })
        });
        move || drop(timer)
    });
}
