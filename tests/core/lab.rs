//! The lab as a reader plays it: opening (links, tours, scenarios, with notes on what could not
//! be opened), tours moving forward by playing and back by restoring, scenario switches inside
//! a tour, acting ends a tour.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use kube_bootstrap_lab::lab::{Lab, Opening, DEFAULT_SCENARIO};
use kube_bootstrap_lab::lang::Lang;
use kube_bootstrap_lab::scenario::{Action, ApiserverRef};
use kube_bootstrap_lab::share::Source;

fn step_of(lab: &Lab) -> usize {
    lab.guide.as_ref().expect("in a tour").index
}

#[test]
fn opening_says_what_could_not_be_opened_and_what_opened_instead() {
    let (lab, notes) = Lab::open(Opening {
        tour: Some("kubernetes-service"),
        ..Opening::default()
    });
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(step_of(&lab), 0);
    let (lab, notes) = Lab::open(Opening {
        tour: Some("nope"),
        ..Opening::default()
    });
    assert!(lab.guide.is_none());
    assert_eq!(lab.source, Source::Builtin(DEFAULT_SCENARIO.into()));
    assert_eq!(
        notes,
        [
            "There is no tour \"nope\".",
            "Showing the default scenario."
        ]
    );
    let (lab, notes) = Lab::open(Opening {
        scenario: Some("nodeport-duplicate"),
        tour: Some("nope"),
        lang: Lang::Zh,
        ..Opening::default()
    });
    assert_eq!(lab.source, Source::Builtin("nodeport-duplicate".into()));
    assert_eq!(
        notes,
        [
            "没有名为 \"nope\" 的导览。",
            "显示场景 \"nodeport-duplicate\"。"
        ]
    );
    // A link wins over a tour; a broken one says so.
    let (_, notes) = Lab::open(Opening {
        tour: Some("kubernetes-service"),
        link: Some("#scenario=nope&t=0"),
        ..Opening::default()
    });
    assert_eq!(
        notes[0],
        "This link could not be opened (link: scenario: unknown scenario \"nope\")."
    );
}

#[test]
fn a_tour_opens_at_the_step_asked_for() {
    let open = |step| {
        Lab::open(Opening {
            tour: Some("lease-crash-vs-stop"),
            step: Some(step),
            ..Opening::default()
        })
    };
    // Step 3 is where going through steps 1 and 2 leads.
    let (mut walked, _) = open(1);
    walked.tour_move(true, false);
    walked.tour_move(true, false);
    let (lab, notes) = open(3);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((step_of(&lab), lab.now()), (2, walked.now()));
    assert!(!lab.moving() && !lab.playing);
    // Back from there is a restore of step 2, found on the way.
    let mut lab = lab;
    lab.tour_move(false, true);
    walked.tour_move(false, true);
    assert_eq!((step_of(&lab), lab.now()), (1, walked.now()));
    let (lab, notes) = open(99);
    assert_eq!(step_of(&lab), 0);
    assert_eq!(
        notes,
        ["The tour \"lease-crash-vs-stop\" has 6 steps, not 99; showing the first."]
    );
}

#[test]
fn a_tour_moves_forward_by_playing_and_back_by_restoring() {
    let (mut lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        ..Opening::default()
    });
    let t0 = lab.now();
    // Animated: it plays toward the step's instant and stops exactly there.
    lab.tour_move(true, true);
    assert_eq!(step_of(&lab), 1);
    assert!(lab.moving() && lab.playing, "step 2 lies later than step 1");
    for _ in 0..10_000 {
        if !lab.moving() {
            break;
        }
        lab.advance(700);
    }
    assert!(!lab.moving() && !lab.playing);
    let t1 = lab.now();
    assert!(t1 > t0);
    // Not animated: at once.
    lab.tour_move(true, false);
    assert_eq!(step_of(&lab), 2);
    assert!(!lab.moving() && !lab.playing);
    let t2 = lab.now();
    // Back restores the earlier instant; forward to a step seen before is a restore as well.
    lab.tour_move(false, true);
    assert_eq!((step_of(&lab), lab.now()), (1, t1));
    lab.tour_move(true, true);
    assert_eq!((step_of(&lab), lab.now(), lab.moving()), (2, t2, false));
    // Leaving keeps the state: the sandbox.
    lab.leave_tour();
    assert!(lab.guide.is_none());
    assert_eq!(lab.now(), t2);
}

#[test]
fn forward_while_moving_lands_on_the_step_first() {
    let (mut lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        ..Opening::default()
    });
    lab.tour_move(true, true);
    assert!(lab.moving(), "step 2 lies later than step 1");
    lab.tour_move(true, true);
    assert!(!lab.moving());
    assert_eq!(
        step_of(&lab),
        1,
        "the first press lands on the step being moved to"
    );
}

#[test]
fn a_tour_switches_scenarios_and_back() {
    let (mut lab, _) = Lab::open(Opening {
        tour: Some("master-count-vs-lease"),
        ..Opening::default()
    });
    let first = lab.source.clone();
    let n = lab.guide.as_ref().unwrap().tour.steps.len();
    let mut seen = vec![(first.clone(), lab.now())];
    for _ in 1..n {
        lab.tour_move(true, false);
        assert!(lab.tour_error.is_none(), "{:?}", lab.tour_error);
        seen.push((lab.source.clone(), lab.now()));
    }
    assert!(
        seen.iter().any(|(s, _)| *s != first),
        "the tour uses more than one scenario"
    );
    for i in (0..n - 1).rev() {
        lab.tour_move(false, false);
        assert_eq!((lab.source.clone(), lab.now()), seen[i], "step {}", i + 1);
    }
}

#[test]
fn acting_ends_a_tour_and_autoplay() {
    let (mut lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        ..Opening::default()
    });
    lab.tour_autoplay = true;
    let ms = lab.reading_ms(Lang::Zh);
    assert!((4000..=20000).contains(&ms), "{ms}");
    lab.act(Action::CrashApiserver(ApiserverRef {
        apiserver: "apiserver-a".into(),
    }));
    assert!(lab.guide.is_none() && !lab.tour_autoplay);
}
