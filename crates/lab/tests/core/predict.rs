//! Predict, then watch: a tour step that asks a question takes the reader's answer
//! (`Msg::Answer`), keeps it, moves on as Next does, and the step after it opens with the
//! verdict the lab decides; Next skips the question without one; a tour moving on by itself
//! stops at a question and waits for the reader.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use lab::{catalogue, Held, Lab, Msg, Opening, MAX_FRAME_MS};

/// lease-crash-vs-stop's fourth step (index 3) asks when 192.168.10.13 leaves the Endpoints
/// once apiserver-c stops gracefully (at once); another answer is wrong.
const TOUR: &str = "lease-crash-vs-stop";
const ASKING: usize = 3;
const RIGHT: usize = 0;
const WRONG: usize = 1;

fn step_of(lab: &Lab) -> usize {
    lab.view().touring.guide.expect("in a tour").index
}

fn open_at(step: usize, autoplay: bool) -> Lab {
    let (lab, notes) = Lab::open(Opening {
        tour: Some(TOUR),
        step: Some(step + 1),
        autoplay,
        ..Opening::default()
    });
    assert!(notes.is_empty(), "{notes:?}");
    lab
}

/// Plays 100 ms frames while the lab moves to a tour step.
fn play_until_still(lab: &mut Lab) {
    let mut ts = 0.0;
    lab.update(Msg::FramesStopped);
    while lab.view().touring.moving {
        lab.update(Msg::Frame { timestamp_ms: ts });
        ts += MAX_FRAME_MS;
        assert!(ts < 600_000.0, "still moving at t = {}", lab.view().player.now);
    }
}

fn answer(lab: &mut Lab, answer: usize) -> bool {
    lab.update(Msg::Answer { answer, animate: false })
}

#[test]
fn answering_keeps_the_answer_moves_on_and_the_next_step_says_whether_it_was_right() {
    let mut lab = open_at(ASKING, false);
    let g = lab.view().touring.guide.unwrap();
    let ask = g.asks().expect("the step asks").clone();
    assert_eq!(ask.right, RIGHT);
    assert!(g.verdict().is_none(), "the step before asked nothing");
    // Animated, as a reader's click: the card stays on the question while the clock plays to
    // the moment that answers it; a second pick meanwhile changes nothing.
    assert!(lab.update(Msg::Answer { answer: RIGHT, animate: true }));
    assert!(lab.view().touring.moving);
    assert_eq!(step_of(&lab), ASKING);
    assert!(!lab.update(Msg::Answer { answer: WRONG, animate: true }), "the first pick stands");
    play_until_still(&mut lab);
    assert_eq!(
        lab.view().player.now,
        70_000,
        "apiserver-c stops at 70s and its address leaves then"
    );
    let g = lab.view().touring.guide.unwrap();
    assert_eq!((g.index, g.answered(ASKING)), (ASKING + 1, Some(RIGHT)));
    let v = g.verdict().expect("a verdict");
    assert!(v.right());
    assert_eq!(
        (v.picked_answer(), v.right_answer(), v.why()),
        (&ask.answers[RIGHT], &ask.answers[RIGHT], &ask.why)
    );
    // Back shows the question with the answer picked, forward the verdict again.
    lab.update(Msg::TourBack);
    let g = lab.view().touring.guide.unwrap();
    assert_eq!((g.index, g.answered(ASKING)), (ASKING, Some(RIGHT)));
    assert!(g.verdict().is_none());
    lab.update(Msg::TourNext { animate: false });
    assert!(lab.view().touring.guide.unwrap().verdict().is_some_and(|v| v.right()));
}

#[test]
fn a_wrong_answer_gets_the_right_one_beside_it() {
    let mut lab = open_at(ASKING, false);
    assert!(answer(&mut lab, WRONG));
    let g = lab.view().touring.guide.unwrap();
    let v = g.verdict().expect("a verdict");
    assert_eq!((g.index, v.picked, v.right()), (ASKING + 1, WRONG, false));
    assert_eq!(v.right_answer(), &v.ask.answers[RIGHT]);
    assert_ne!(v.picked_answer(), v.right_answer());
    // Going back, the reader may answer again: the new pick is kept.
    lab.update(Msg::TourBack);
    assert!(answer(&mut lab, 2));
    assert_eq!(
        lab.view().touring.guide.unwrap().verdict().map(|v| (v.picked, v.right())),
        Some((2, false))
    );
}

#[test]
fn next_skips_the_question_without_a_verdict() {
    let mut lab = open_at(ASKING, false);
    lab.update(Msg::TourNext { animate: false });
    let g = lab.view().touring.guide.unwrap();
    assert_eq!((g.index, g.answered(ASKING)), (ASKING + 1, None));
    assert!(g.verdict().is_none());
}

/// The question's instant: lease-crash-vs-stop asks at 50s; its answer shows at 70s.
const ASKED_MS: u64 = 50_000;

#[test]
fn play_stops_at_an_unanswered_question_and_says_why() {
    // Play from the step before plays to the question and stops there, as at any step.
    let mut lab = open_at(ASKING - 1, false);
    lab.update(Msg::TogglePlay);
    play_until_still(&mut lab);
    assert_eq!((step_of(&lab), lab.view().player.now), (ASKING, ASKED_MS));
    // Play at the question would play on to the answer: the clock stays, and the lab says why.
    lab.update(Msg::TogglePlay);
    assert!(
        !lab.view().player.playing && !lab.view().touring.moving,
        "Play does not go past the question"
    );
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().touring.held),
        (ASKING, ASKED_MS, Some(Held::Play))
    );
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::Frame { timestamp_ms: 5_000.0 });
    assert_eq!(lab.view().player.now, ASKED_MS);
    // Answered, Play plays on (and the note is gone).
    assert!(answer(&mut lab, RIGHT));
    lab.update(Msg::TourBack);
    assert_eq!(step_of(&lab), ASKING);
    lab.update(Msg::TogglePlay);
    assert!(
        lab.view().player.playing && lab.view().touring.held.is_none(),
        "an answered question holds nothing"
    );
}

#[test]
fn the_scrubber_stops_at_an_unanswered_question_and_takes_a_reader_back_to_it() {
    // Scrubbed past the question (to where the stage shows the answer): the clock stops at it.
    let mut lab = open_at(ASKING, false);
    lab.update(Msg::Seek(80_000));
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().touring.held),
        (ASKING, ASKED_MS, Some(Held::Seek))
    );
    // Stepping the clock does the same; before the question the clock is free.
    lab.update(Msg::Step);
    assert!(
        lab.view().player.now <= ASKED_MS,
        "a step stays at the question: {}",
        lab.view().player.now
    );
    lab.update(Msg::Seek(45_000));
    assert_eq!((lab.view().player.now, lab.view().touring.held), (45_000, None));
    // A reader who skipped it and comes back past its instant is taken back to the question.
    let mut lab = open_at(ASKING, false);
    lab.update(Msg::TourNext { animate: false });
    assert_eq!((step_of(&lab), lab.view().player.now), (ASKING + 1, 70_000));
    lab.update(Msg::Seek(60_000));
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().touring.held),
        (ASKING, ASKED_MS, Some(Held::Seek))
    );
    // Answered, the scrubber goes where it is taken.
    assert!(answer(&mut lab, WRONG));
    lab.update(Msg::Seek(60_000));
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().touring.held),
        (ASKING, 60_000, None)
    );
}

#[test]
fn an_answer_the_step_does_not_offer_changes_nothing() {
    let mut lab = open_at(ASKING, false);
    let (t, n) =
        (lab.view().player.now, lab.view().touring.guide.unwrap().asks().unwrap().answers.len());
    assert!(!answer(&mut lab, n), "no answer {n}");
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().touring.guide.unwrap().answered(ASKING)),
        (ASKING, t, None)
    );
    // A step that asks nothing takes no answer.
    let mut lab = open_at(0, false);
    assert!(lab.view().touring.guide.unwrap().asks().is_none());
    assert!(!answer(&mut lab, 0));
    assert_eq!(step_of(&lab), 0);
    // Nor does the sandbox.
    let mut lab = Lab::open(Opening::default()).0;
    assert!(!answer(&mut lab, 0));
}

#[test]
fn a_tour_moving_on_by_itself_stops_at_a_question_and_waits_for_the_reader() {
    let mut lab = open_at(0, true);
    assert!(lab.view().touring.autoplay && lab.view().touring.moving);
    let mut ts = 0.0;
    while lab.view().touring.moving || lab.view().touring.autoplay_wait_ms.is_some() {
        match lab.view().touring.autoplay_wait_ms {
            Some(_) => lab.update(Msg::TourAutoNext { animate: true }),
            None => lab.update(Msg::Frame { timestamp_ms: ts }),
        };
        ts += MAX_FRAME_MS;
        assert!(ts < 600_000.0, "still going at t = {}", lab.view().player.now);
    }
    assert_eq!(step_of(&lab), ASKING, "it stops at the question");
    assert!(
        lab.view().touring.autoplay
            && !lab.view().player.playing
            && lab.view().touring.autoplay_wait_ms.is_none()
    );
    assert!(!lab.update(Msg::TourAutoNext { animate: false }), "and does not move on by itself");
    assert_eq!(step_of(&lab), ASKING);
    // The answer is the reader's: the tour is theirs from there.
    assert!(answer(&mut lab, RIGHT));
    assert_eq!(step_of(&lab), ASKING + 1);
    assert!(!lab.view().touring.autoplay);
    // Opened at the question with autoplay, it does not start moving.
    let lab = open_at(ASKING, true);
    assert!(
        !lab.view().touring.moving
            && !lab.view().player.playing
            && lab.view().touring.autoplay_wait_ms.is_none()
    );
}

#[test]
fn at_least_four_tours_ask_and_every_question_is_answered_by_its_next_step() {
    let mut asking = Vec::new();
    for tour in catalogue::tours() {
        for (i, step) in tour.steps.iter().enumerate() {
            let Some(ask) = &step.ask else { continue };
            asking.push(tour.name.clone());
            // The moment that answers it is on the same clock: playing gets there.
            assert_eq!(tour.steps[i + 1].scenario, step.scenario, "{} step {}", tour.name, i + 1);
            let (mut lab, notes) = Lab::open(Opening {
                tour: Some(&tour.name),
                step: Some(i + 1),
                ..Opening::default()
            });
            assert!(notes.is_empty(), "{notes:?}");
            for (k, _) in ask.answers.iter().enumerate() {
                if k > 0 {
                    lab.update(Msg::TourBack);
                }
                assert!(answer(&mut lab, k), "{} step {}", tour.name, i + 1);
                assert!(lab.view().touring.error.is_none(), "{:?}", lab.view().touring.error);
                let g = lab.view().touring.guide.unwrap();
                let v = g.verdict().expect("a verdict");
                assert_eq!(v.right(), k == ask.right, "{} step {} answer {k}", tour.name, i + 1);
            }
        }
    }
    asking.dedup();
    assert!(!asking.iter().any(|n| n == "story"), "the story asks nothing");
    assert!(asking.len() >= 4, "tours that ask: {asking:?}");
}
