//! The lab as one reducible state, opened once per instance.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use yew::prelude::*;

use crate::lab::{Lab, Msg, Opening, TourFile};

/// The lab as yew's one reducible state: every change is a [`Msg`] through [`Lab::update`].
/// The lab is updated in place (cloning a timeline every animation frame would cost more than
/// the frame), and a new handle, which re-renders, is made only when something changed.
pub(crate) struct LabState {
    lab: Rc<RefCell<Lab>>,
}

impl LabState {
    /// The lab, to read while rendering (never held across a dispatch).
    pub(crate) fn get(&self) -> Ref<'_, Lab> {
        self.lab.borrow()
    }
}

impl Reducible for LabState {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        if self.lab.borrow_mut().update(msg) {
            Rc::new(LabState { lab: self.lab.clone() })
        } else {
            self
        }
    }
}

/// The lab this instance opens with (once: later props do not reopen it).
#[hook]
pub(crate) fn use_lab(props: &crate::ui::AppProps) -> UseReducerHandle<LabState> {
    let (scenario, tour, link) = (props.scenario.clone(), props.tour.clone(), props.link.clone());
    let (file, imported) = (props.tour_file.clone(), props.imported.clone());
    let (step, lang, autoplay) = (props.step, props.lang, props.autoplay);
    use_reducer(move || {
        // A tour at an address opens once fetched (`use_tour_src`); one given inline, at once.
        let tour_file = file.as_deref().map(|text| TourFile { text: Ok(text), src: None });
        let (mut lab, _) = Lab::open(Opening {
            scenario: scenario.as_deref(),
            tour: tour.as_deref(),
            tour_file,
            step,
            link: link.as_deref(),
            imported: imported.as_deref(),
            lang,
            autoplay,
        });
        if let Some(pace) = crate::ui::browser::test_pace() {
            lab.update(Msg::SetPace(pace));
        }
        LabState { lab: Rc::new(RefCell::new(lab)) }
    })
}
