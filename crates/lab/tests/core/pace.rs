//! The test pace (`Msg::SetPace`): the end-to-end tests run the lab's clock faster than real
//! time, and a tour shows the very same steps at the very same instants.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use lab::{Lab, Msg, Opening, MAX_PACE};

fn step_of(lab: &Lab) -> usize {
    lab.view().touring.guide.expect("in a tour").index
}

fn story(autoplay: bool) -> Lab {
    Lab::open(Opening { tour: Some("story"), autoplay, ..Opening::default() }).0
}

/// Plays 50 ms frames until the tour has arrived at a step after `from`: the frames it took,
/// and where it arrived (virtual ms, step).
fn frames_past(lab: &mut Lab, from: usize) -> (u32, u64, usize) {
    let mut frames = 0;
    while lab.view().touring.moving || step_of(lab) == from {
        frames += 1;
        lab.update(Msg::Frame { timestamp_ms: f64::from(frames) * 50.0 });
        assert!(frames < 10_000, "stuck at {}", lab.view().player.now);
    }
    (frames, lab.view().player.now, step_of(lab))
}

#[test]
fn a_test_pace_runs_the_clock_faster_to_the_very_same_steps() {
    let (mut plain, mut paced, mut refused) = (story(false), story(false), story(false));
    assert!(!paced.update(Msg::SetPace(10.0)), "nothing the lab shows changes");
    for wrong in [0.5, 0.0, -3.0, MAX_PACE + 1.0, f64::NAN, f64::INFINITY] {
        refused.update(Msg::SetPace(wrong));
    }
    let [a, b, c] = [&mut plain, &mut paced, &mut refused].map(|lab| {
        lab.update(Msg::TourNext { animate: true });
        frames_past(lab, 0)
    });
    assert_eq!((a.1, a.2), (b.1, b.2), "the same step at the same instant");
    assert!(b.0 * 5 <= a.0, "in a tenth of the frames or so: {} against {}", b.0, a.0);
    assert_eq!(a, c, "a pace out of 1 to {MAX_PACE} is ignored");
}

#[test]
fn a_test_pace_shortens_a_storys_reading_alike() {
    let (mut plain, mut paced) = (story(true), story(true));
    paced.update(Msg::SetPace(10.0));
    let [a, b] = [&mut plain, &mut paced].map(|lab| frames_past(lab, 0));
    assert_eq!((a.1, a.2), (b.1, b.2), "the same step at the same instant");
    assert!(b.0 * 5 <= a.0, "in a tenth of the frames or so: {} against {}", b.0, a.0);
    // Where a story waits on a step (the next one is at the same instant), a tenth as long.
    let open = || {
        Lab::open(Opening {
            tour: Some("kubernetes-service"),
            autoplay: true,
            ..Opening::default()
        })
        .0
    };
    let (plain, mut paced) = (open(), open());
    paced.update(Msg::SetPace(10.0));
    let waits = [&plain, &paced].map(|lab| lab.view().touring.autoplay_wait_ms);
    assert_eq!(waits, [Some(20_000), Some(2_000)]);
}
