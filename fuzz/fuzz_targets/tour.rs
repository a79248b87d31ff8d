//! `tour::parse` on a tour file (with the shipped scenarios), then the instant of every step
//! as the lab finds it (`Guide::time_of`): an `until` is looked for up to its ceiling
//! (`tour::WAIT_LIMIT_MS`, and never past the 2-hour one), so a tour cannot hang the page.
#![no_main]

use engine::contract::scenario::MAX_TIME_MS;
use engine::sim::timeline::Timeline;
use kube_bootstrap_lab_fuzz::{names_one_of, text, tour_rejection};
use lab::catalogue;
use lab::tour::{self, Guide};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = text(data) else { return };
    let t = match tour::parse(input, catalogue::scenario_text) {
        Ok(t) => t,
        Err(e) => return tour_rejection(&e),
    };
    let mut guide = Guide::new(t.clone());
    let mut current: Option<(&str, Timeline)> = None;
    for (i, step) in t.steps.iter().enumerate() {
        if current.as_ref().is_none_or(|(name, _)| *name != step.scenario) {
            let s = t.scenario(&step.scenario).expect("a tour names parsed scenarios");
            current = Some((&step.scenario, Timeline::new(&s)));
        }
        let (_, timeline) = current.as_mut().expect("set above");
        match guide.time_of(i, timeline) {
            Ok(at) => assert!(at <= MAX_TIME_MS, "step {i} at {at}"),
            Err(e) => names_one_of("tour step", &e, &["tour "]),
        }
    }
});
