//! The UI's effects that outlive one render, one hook a file: the lab as one reducible state
//! (`lab`), the play loop on animation frames (`play`), whether an instance is in view
//! (`in_view`), the tour's autoplay, keyboard shortcuts, the host page's sticky header
//! (`host_inset`) and the object picked to inspect. None imports a component back (see
//! `scripts/cycles.mjs`).

mod autoplay;
mod in_view;
mod kept;
mod lab;
mod picked;
mod play;
mod shortcuts;
mod tour_src;

pub(crate) use autoplay::use_tour_autoplay;
pub(crate) use in_view::use_in_view;
pub(crate) use kept::use_kept_clicks;
pub(crate) use lab::{use_lab, LabState};
pub(crate) use picked::use_picked;
pub(crate) use play::{use_play_loop, FrameLoop};
pub(crate) use shortcuts::use_shortcuts;
pub(crate) use tour_src::{use_fetched_tour, use_tour_src};
