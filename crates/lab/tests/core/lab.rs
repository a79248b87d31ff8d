//! The lab as a reader plays it, through its one writer `Lab::update`: opening (links, tours,
//! scenarios, with notes on what could not be opened), playing frame by frame, speed steps,
//! seeking and stepping, acting and what a refused action shows, tours moving forward by
//! playing and back by restoring, switching scenarios, and what carries across a switch.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario::{Action, ApiserverRef};
use engine::sim::timeline::Timeline;
use lab::share::Source;
use lab::Lang;
use lab::{
    Lab, Msg, Opening, DEFAULT_SCENARIO, MAX_FRAME_MS, SPEED_MAX_EXP, SPEED_MIN_EXP, SPEED_STEP_EXP,
};

fn step_of(lab: &Lab) -> usize {
    lab.view().touring.guide.expect("in a tour").index
}

fn open_default() -> Lab {
    Lab::open(Opening::default()).0
}

fn open_tour(name: &str) -> Lab {
    let (lab, notes) = Lab::open(Opening { tour: Some(name), ..Opening::default() });
    assert!(notes.is_empty(), "{notes:?}");
    lab
}

/// The speed chosen, in virtual ms per real ms (the player shows its log10).
fn speed(lab: &Lab) -> f64 {
    10f64.powf(lab.view().player.speed_exp)
}

fn crash(name: &str) -> Msg {
    Msg::Act(Action::CrashApiserver(ApiserverRef { apiserver: name.into() }))
}

/// Plays 100 ms frames, from a fresh start, while `going` holds.
fn play_while(lab: &mut Lab, going: fn(&Lab) -> bool) {
    let mut ts = 0.0;
    lab.update(Msg::FramesStopped);
    for _ in 0..100_000 {
        if !going(lab) {
            return;
        }
        lab.update(Msg::Frame { timestamp_ms: ts });
        ts += 100.0;
    }
    panic!("still going at t = {}", lab.view().player.now);
}

/// Plays until a tour step being moved to is reached.
fn play_until_still(lab: &mut Lab) {
    play_while(lab, |l| l.view().touring.moving);
}

#[test]
fn opening_says_what_could_not_be_opened_and_what_opened_instead() {
    let lab = open_tour("kubernetes-service");
    assert_eq!(step_of(&lab), 0);
    assert_eq!(lab.view().notice.as_deref(), None);
    let (lab, notes) = Lab::open(Opening { tour: Some("nope"), ..Opening::default() });
    assert!(lab.view().touring.guide.is_none());
    assert_eq!(lab.view().scenario.name, DEFAULT_SCENARIO);
    assert_eq!(notes, ["There is no tour \"nope\".", "Showing the default scenario."]);
    let (lab, notes) = Lab::open(Opening {
        scenario: Some("nodeport-duplicate"),
        tour: Some("nope"),
        lang: Lang::Zh,
        ..Opening::default()
    });
    assert_eq!(lab.view().scenario.name, "nodeport-duplicate");
    assert_eq!(notes, ["没有名为 \"nope\" 的导览。", "显示场景 \"nodeport-duplicate\"。"]);
    assert_eq!(lab.view().lang, Lang::Zh);
    // The lab tells its own notes (the page's problems are the UI's to list).
    assert_eq!(
        lab.view().notice.as_deref(),
        Some("没有名为 \"nope\" 的导览。 显示场景 \"nodeport-duplicate\"。")
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
fn a_link_past_the_time_ceiling_is_refused_and_an_anchor_is_no_link() {
    let (lab, notes) = Lab::open(Opening {
        link: Some("#scenario=crash-one-of-three&t=1000000s"),
        ..Opening::default()
    });
    assert_eq!(lab.view().scenario.name, DEFAULT_SCENARIO);
    assert_eq!(lab.view().player.now, 0);
    assert!(notes[0].starts_with("This link could not be opened (link: t: "), "{notes:?}");
    assert_eq!(notes[1], "Showing the default scenario.");
    for anchor in ["#install", "#", "  "] {
        let (lab, notes) = Lab::open(Opening {
            link: Some(anchor),
            scenario: Some("nodeport-duplicate"),
            ..Opening::default()
        });
        assert!(notes.is_empty(), "{anchor:?}: {notes:?}");
        assert_eq!(lab.view().notice.as_deref(), None);
        assert_eq!(lab.view().scenario.name, "nodeport-duplicate");
    }
}

#[test]
fn autoplay_plays_a_scenario_and_moves_a_tour_on_by_itself() {
    let (lab, _) = Lab::open(Opening { autoplay: true, ..Opening::default() });
    assert!(lab.view().player.playing && !lab.view().touring.autoplay);
    assert_eq!(lab.view().touring.autoplay_wait_ms, None);
    // A tour with autoplay is a story: the clock plays at once towards the next step, over the
    // time the present caption takes to read, and the caption stays until it gets there.
    let (mut lab, _) =
        Lab::open(Opening { tour: Some("story"), autoplay: true, ..Opening::default() });
    assert!(lab.view().player.playing && lab.view().touring.autoplay && lab.view().touring.moving);
    assert_eq!((step_of(&lab), lab.view().player.now), (0, 0));
    assert_eq!(lab.view().touring.autoplay_wait_ms, None, "nothing waits at t = 0");
    let mut real = 0.0;
    lab.update(Msg::Frame { timestamp_ms: real });
    while step_of(&lab) == 0 {
        real += MAX_FRAME_MS;
        lab.update(Msg::Frame { timestamp_ms: real });
        assert!(real < 30_000.0, "stuck at {}", lab.view().player.now);
    }
    assert_eq!(lab.view().player.now, 32_000, "step 2 shows when the crash happens");
    assert!((4_000.0..=20_000.0).contains(&real), "read for {real} ms");
    assert!(lab.view().touring.moving && lab.view().touring.autoplay, "and goes on by itself");
    // One click hands over: the story stops where it is.
    assert!(lab.update(Msg::TakeOver));
    assert!(
        !lab.view().player.playing && !lab.view().touring.moving && !lab.view().touring.autoplay
    );
    assert_eq!(step_of(&lab), 1);
    assert_eq!(lab.view().touring.autoplay_wait_ms, None);
    assert!(!lab.update(Msg::TourAutoNext { animate: false }));
    assert!(!lab.update(Msg::TakeOver), "only once");
}

#[test]
fn pause_pauses_a_story_that_moves_by_itself() {
    let (mut lab, _) =
        Lab::open(Opening { tour: Some("story"), autoplay: true, ..Opening::default() });
    assert!(lab.view().player.playing && lab.view().touring.autoplay && lab.view().touring.moving);
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::Frame { timestamp_ms: MAX_FRAME_MS });
    assert!(lab.update(Msg::TogglePlay));
    assert!(
        !lab.view().player.playing && !lab.view().touring.autoplay,
        "Pause hands the story over, paused"
    );
    let at = lab.view().player.now;
    lab.update(Msg::Frame { timestamp_ms: 2.0 * MAX_FRAME_MS });
    lab.update(Msg::Frame { timestamp_ms: 3.0 * MAX_FRAME_MS });
    assert_eq!(lab.view().player.now, at, "the clock stays");
    assert!(lab.update(Msg::TogglePlay));
    assert!(
        lab.view().player.playing && !lab.view().touring.autoplay,
        "and Play plays, the reader's"
    );
}

#[test]
fn speed_steps_stay_within_their_bounds() {
    let mut lab = open_default();
    let start = lab.view().player.speed_exp;
    assert!(lab.update(Msg::Faster));
    assert_eq!(lab.view().player.speed_exp, start + SPEED_STEP_EXP);
    assert!(lab.update(Msg::Slower));
    assert!(lab.update(Msg::Slower));
    assert_eq!(lab.view().player.speed_exp, start - SPEED_STEP_EXP);
    for _ in 0..20 {
        lab.update(Msg::Faster);
    }
    assert_eq!(lab.view().player.speed_exp, SPEED_MAX_EXP);
    assert!(!lab.update(Msg::Faster), "nothing changes at the top");
    for _ in 0..20 {
        lab.update(Msg::Slower);
    }
    assert_eq!(lab.view().player.speed_exp, SPEED_MIN_EXP);
    assert!(!lab.update(Msg::Slower), "nothing changes at the bottom");
    lab.update(Msg::SetSpeed(7.0));
    assert_eq!(lab.view().player.speed_exp, SPEED_MAX_EXP);
    lab.update(Msg::SetSpeed(0.0));
    assert_eq!(speed(&lab), 1.0);
}

#[test]
fn frames_move_time_by_the_real_time_between_them_clamped() {
    let mut lab = open_default();
    lab.update(Msg::SetSpeed(0.0));
    // Paused: frames move nothing.
    assert!(!lab.update(Msg::Frame { timestamp_ms: 1000.0 }));
    assert_eq!(lab.view().player.now, 0);
    lab.update(Msg::TogglePlay);
    assert!(lab.view().player.playing);
    // The first frame only starts the clock.
    assert!(!lab.update(Msg::Frame { timestamp_ms: 5000.0 }));
    assert!(lab.update(Msg::Frame { timestamp_ms: 5016.0 }));
    assert_eq!(lab.view().player.now, 16);
    // A stall of five seconds moves the clock by one frame's worth at most.
    lab.update(Msg::Frame { timestamp_ms: 10_016.0 });
    assert_eq!(lab.view().player.now, 16 + MAX_FRAME_MS as u64);
    // A clock that goes backwards moves nothing.
    assert!(!lab.update(Msg::Frame { timestamp_ms: 9_000.0 }));
    assert_eq!(lab.view().player.now, 116);
    // The speed multiplies: 10× for 50 ms is half a second.
    lab.update(Msg::SetSpeed(1.0));
    lab.update(Msg::Frame { timestamp_ms: 9_050.0 });
    assert_eq!(lab.view().player.now, 616);
    // After the frames stopped (a hidden tab), the next one starts the clock afresh.
    assert!(!lab.update(Msg::FramesStopped));
    assert!(!lab.update(Msg::Frame { timestamp_ms: 60_000.0 }));
    assert_eq!(lab.view().player.now, 616);
    // Pausing and playing again starts afresh too.
    lab.update(Msg::TogglePlay);
    lab.update(Msg::TogglePlay);
    lab.update(Msg::Frame { timestamp_ms: 90_000.0 });
    assert_eq!(lab.view().player.now, 616);
    assert_eq!(lab.view().horizon, 616);
}

#[test]
fn seeking_and_stepping() {
    let mut lab = open_default();
    lab.update(Msg::TogglePlay);
    // Where the engine's own timeline of the scenario shown next does something.
    let mut timeline = Timeline::new(&lab.view().scenario);
    timeline.run_until(0);
    let next = timeline.world().next_time().expect("something happens");
    lab.update(Msg::Step);
    assert!(!lab.view().player.playing, "stepping pauses");
    assert_eq!(lab.view().player.now, next);
    lab.update(Msg::Seek(30_000));
    assert_eq!((lab.view().player.now, lab.view().horizon), (30_000, 30_000));
    // Back goes to the previous marked moment, and the horizon stays.
    let prev =
        lab.view().marks.iter().map(|m| m.time_ms).filter(|&t| t < 30_000).max().unwrap_or(0);
    lab.update(Msg::StepBack);
    assert_eq!((lab.view().player.now, lab.view().horizon), (prev, 30_000));
    lab.update(Msg::Seek(10_000));
    assert_eq!((lab.view().player.now, lab.view().horizon), (10_000, 30_000));
}

#[test]
fn a_refused_action_is_shown_until_the_next_one_is_accepted() {
    let mut lab = open_default();
    lab.update(crash("apiserver-z"));
    assert_eq!(lab.view().notice.as_deref(), Some("unknown apiserver \"apiserver-z\""));
    lab.update(Msg::Seek(1_000));
    assert!(lab.view().notice.as_deref().is_some(), "time moving does not hide it");
    lab.update(crash("apiserver-a"));
    assert_eq!(lab.view().notice.as_deref(), None);
    assert!(!lab.view().player.forked, "acting at the horizon is no fork");
}

#[test]
fn acting_in_the_past_forks_the_timeline() {
    let mut lab = open_default();
    lab.update(Msg::Seek(40_000));
    lab.update(Msg::Seek(20_000));
    lab.update(crash("apiserver-b"));
    assert!(lab.view().player.forked);
    assert_eq!(lab.view().horizon, 20_000, "the later history is gone");
    let link = lab.view().link_to_here;
    assert!(link.contains("actions="), "{link}");
}

#[test]
fn acting_ends_a_tour_and_autoplay() {
    let (mut lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        autoplay: true,
        ..Opening::default()
    });
    lab.update(crash("apiserver-a"));
    assert!(lab.view().touring.guide.is_none() && !lab.view().touring.autoplay);
}

#[test]
fn loading_a_scenario_keeps_only_how_the_reader_reads() {
    let (mut lab, _) =
        Lab::open(Opening { tour: Some("nope"), lang: Lang::Zh, ..Opening::default() });
    lab.update(Msg::Faster);
    lab.update(Msg::Seek(40_000));
    lab.update(Msg::Seek(20_000));
    lab.update(crash("apiserver-b"));
    let (speed, generation) = (lab.view().player.speed_exp, lab.view().generation);
    let s = lab::catalogue::scenario("nodeport-duplicate").unwrap();
    assert!(lab.update(Msg::Load(s, Source::Builtin("nodeport-duplicate".into()))));
    assert_eq!(lab.view().scenario.name, "nodeport-duplicate");
    assert_eq!(
        (lab.view().player.now, lab.view().horizon, lab.view().player.forked),
        (0, 0, false)
    );
    assert_eq!((lab.view().player.speed_exp, lab.view().lang), (speed, Lang::Zh));
    assert_eq!(lab.view().notice.as_deref(), None, "the opening's notice is over");
    assert!(lab.view().generation > generation);
    assert_eq!(lab.view().state.time_ms, 0);
}

#[test]
fn picking_a_tour_starts_it_or_says_why_not() {
    let mut lab = open_default();
    lab.update(Msg::SetLang(Lang::Zh));
    lab.update(Msg::PickTour("nope".into()));
    assert_eq!(lab.view().notice.as_deref(), Some("没有名为 \"nope\" 的导览。"));
    assert!(lab.view().touring.guide.is_none());
    lab.update(Msg::Slower);
    lab.update(Msg::PickTour("lease-crash-vs-stop".into()));
    assert_eq!(step_of(&lab), 0);
    assert_eq!(lab.view().notice.as_deref(), None);
    assert_eq!(lab.view().player.speed_exp, 0.7 - SPEED_STEP_EXP, "the speed carries over");
    assert_eq!(lab.view().link_to_here, "?tour=lease-crash-vs-stop&step=1&lang=zh");
}

#[test]
fn the_endpoints_change_belongs_to_the_scenario_shown() {
    let mut lab = open_default();
    lab.update(Msg::Seek(20_000));
    lab.update(crash("apiserver-b"));
    lab.update(Msg::Seek(36_000));
    let change = lab.view().change.clone();
    assert_eq!(change.removed, ["192.168.10.12"], "{change:?}");
    assert!(change.added.is_empty());
    // The change stays until the next one.
    lab.update(Msg::Seek(37_000));
    assert_eq!(lab.view().change, change);
    // Another scenario starts with no change, though its addresses differ from the old ones.
    lab.update(Msg::PickTour("kubernetes-service".into()));
    assert!(lab.view().change.removed.is_empty() && lab.view().change.added.is_empty());
    assert!(lab.view().change.seq >= change.seq);
    // Going to the next step of the tour shows the change the reader sees happen.
    let before = lab.view().state.endpoints.clone();
    while lab.view().state.endpoints == before {
        lab.update(Msg::TourNext { animate: false });
    }
    assert!(!lab.view().change.added.is_empty(), "{:?}", lab.view().change);
}

#[test]
fn opening_a_tour_at_a_later_step_shows_no_change_yet() {
    let (lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        step: Some(4),
        ..Opening::default()
    });
    assert!(lab.view().player.now > 0);
    assert!(lab.view().change.removed.is_empty() && lab.view().change.added.is_empty());
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
    walked.update(Msg::TourNext { animate: false });
    walked.update(Msg::TourNext { animate: false });
    let (lab, notes) = open(3);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((step_of(&lab), lab.view().player.now), (2, walked.view().player.now));
    assert!(!lab.view().touring.moving && !lab.view().player.playing);
    // Back from there is a restore of step 2, found on the way.
    let mut lab = lab;
    lab.update(Msg::TourBack);
    walked.update(Msg::TourBack);
    assert_eq!((step_of(&lab), lab.view().player.now), (1, walked.view().player.now));
    let (lab, notes) = open(99);
    assert_eq!(step_of(&lab), 0);
    assert_eq!(notes, ["The tour \"lease-crash-vs-stop\" has 6 steps, not 99; showing the first."]);
}

#[test]
fn a_tour_moves_forward_by_playing_and_back_by_restoring() {
    let mut lab = open_tour("lease-crash-vs-stop");
    let t0 = lab.view().player.now;
    // Animated: it plays toward the step's instant and stops exactly there; the step's
    // narration appears when the clock gets there, not before.
    lab.update(Msg::TourNext { animate: true });
    assert_eq!(step_of(&lab), 0, "step 2 speaks of 32s: it is not shown at t = {t0}");
    assert!(
        lab.view().touring.moving && lab.view().player.playing,
        "step 2 lies later than step 1"
    );
    assert!(lab.view().player.play_speed >= speed(&lab), "a far step is reached faster");
    play_until_still(&mut lab);
    assert!(!lab.view().touring.moving && !lab.view().player.playing);
    assert_eq!(step_of(&lab), 1, "shown on arrival");
    let t1 = lab.view().player.now;
    assert!(t1 > t0);
    // Not animated: at once.
    lab.update(Msg::TourNext { animate: false });
    assert_eq!(step_of(&lab), 2);
    assert!(!lab.view().touring.moving && !lab.view().player.playing);
    let t2 = lab.view().player.now;
    // Back restores the earlier instant; forward to a step seen before is a restore as well.
    lab.update(Msg::TourBack);
    assert_eq!((step_of(&lab), lab.view().player.now), (1, t1));
    lab.update(Msg::TourNext { animate: true });
    assert_eq!((step_of(&lab), lab.view().player.now, lab.view().touring.moving), (2, t2, false));
    // Leaving keeps the state: the sandbox.
    lab.update(Msg::LeaveTour);
    assert!(lab.view().touring.guide.is_none());
    assert_eq!(lab.view().player.now, t2);
    assert!(lab.view().link_to_here.starts_with('#'), "a moment, not a tour step");
}

#[test]
fn next_always_moves_to_the_next_step() {
    let mut lab = open_tour("lease-crash-vs-stop");
    lab.update(Msg::TourNext { animate: true });
    assert!(lab.view().touring.moving, "step 2 lies later than step 1");
    assert_eq!(step_of(&lab), 0, "still step 1 while the clock plays towards step 2");
    // Impatient: a second press lands on step 2 at once, at its instant.
    lab.update(Msg::TourNext { animate: true });
    assert!(!lab.view().touring.moving);
    assert_eq!(step_of(&lab), 1, "one press, one step: step 2 is shown");
    let t1 = lab.view().player.now;
    // The next press goes on to step 3 (it does not stop again on step 2).
    lab.update(Msg::TourNext { animate: true });
    play_until_still(&mut lab);
    assert_eq!(step_of(&lab), 2);
    assert!(lab.view().player.now > t1);
}

#[test]
fn a_tour_switches_scenarios_and_back() {
    let mut lab = open_tour("master-count-vs-lease");
    let first = lab.view().scenario.name.clone();
    let n = lab.view().touring.guide.unwrap().tour.steps.len();
    let mut seen = vec![(first.clone(), lab.view().player.now)];
    for _ in 1..n {
        lab.update(Msg::TourNext { animate: false });
        assert!(lab.view().touring.error.is_none(), "{:?}", lab.view().touring.error);
        seen.push((lab.view().scenario.name.clone(), lab.view().player.now));
    }
    assert!(seen.iter().any(|(s, _)| *s != first), "the tour uses more than one scenario");
    for i in (0..n - 1).rev() {
        lab.update(Msg::TourBack);
        assert_eq!(
            (lab.view().scenario.name.clone(), lab.view().player.now),
            seen[i],
            "step {}",
            i + 1
        );
    }
}

/// Playing, seeking and stepping stop at the ceiling of virtual time that files and links share,
/// so that "Link to this moment" always gives a link that opens.
#[test]
fn time_stops_at_the_ceiling_of_virtual_time() {
    let max = engine::contract::scenario::MAX_TIME_MS;
    let mut lab = open_default();
    lab.update(Msg::Seek(max + 60_000));
    assert_eq!(lab.view().player.now, max);
    lab.update(Msg::Seek(max - 100));
    lab.update(Msg::SetSpeed(2.0));
    lab.update(Msg::TogglePlay);
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::Frame { timestamp_ms: 50.0 });
    assert_eq!(lab.view().player.now, max);
    assert!(!lab.view().player.playing, "playing stops at the ceiling");
    assert_eq!(
        lab.view().notice.as_deref(),
        Some("The lab runs at most 2h0m0s of virtual time; time stops here.")
    );
    lab.update(Msg::Step);
    assert_eq!(lab.view().player.now, max, "no event past the ceiling");
    let link = lab.view().link_to_here;
    assert!(lab::share::Moment::decode(&link).is_ok(), "{link}");
}

/// Plays until the clock stands still (a move or a step's own playing ended).
fn play_until_stopped(lab: &mut Lab) {
    play_while(lab, |l| l.view().player.playing);
}

#[test]
fn a_step_that_asks_to_watch_plays_its_interval() {
    // Step 1 says "watch the blue circles fly": it plays on by itself from t = 0, at the
    // reader's speed, and stops after its `play` with the same narration.
    let mut lab = open_tour("lease-crash-vs-stop");
    assert_eq!(lab.view().touring.guide.unwrap().step().play, Some(25_000));
    assert!(lab.view().player.playing && lab.view().touring.moving);
    assert_eq!(lab.view().player.play_speed, speed(&lab), "at the reader's speed");
    play_until_stopped(&mut lab);
    assert_eq!((step_of(&lab), lab.view().player.now), (0, 25_000));
    // Next from there moves exactly one step, to the crash at 32s.
    lab.update(Msg::TourNext { animate: false });
    assert_eq!((step_of(&lab), lab.view().player.now), (1, 32_000));
    // Next while it still plays stops the playing and moves one step.
    let mut lab = open_tour("lease-crash-vs-stop");
    lab.update(Msg::FramesStopped);
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::Frame { timestamp_ms: 100.0 });
    lab.update(Msg::TourNext { animate: false });
    assert_eq!(
        (step_of(&lab), lab.view().player.now, lab.view().player.playing),
        (1, 32_000, false)
    );
    // Back to it plays it again; a story moving by itself needs no push (it plays anyway).
    lab.update(Msg::TourBack);
    assert!(lab.view().player.playing && step_of(&lab) == 0 && lab.view().player.now == 0);
}

#[test]
fn every_step_that_says_watch_plays() {
    for tour in lab::catalogue::tours() {
        let last = tour.steps.len() - 1;
        for (i, step) in tour.steps.iter().enumerate().take(last) {
            let says = step.say.get(Lang::En).to_lowercase();
            if says.contains("watch") || says.contains("flaps") {
                assert!(
                    step.play.is_some(),
                    "tour {} step {} asks the reader to watch but stands still",
                    tour.name,
                    i + 1
                );
            }
        }
    }
}

#[test]
fn play_in_a_tour_moves_the_narration_with_the_clock() {
    let mut lab = open_tour("lease-crash-vs-stop");
    play_until_stopped(&mut lab);
    // Play plays to the next step at the reader's speed and shows it there.
    lab.update(Msg::TogglePlay);
    assert!(
        lab.view().player.playing
            && lab.view().touring.moving
            && lab.view().player.play_speed == speed(&lab)
    );
    assert_eq!(step_of(&lab), 0, "step 2 shows when the clock gets to it");
    play_until_stopped(&mut lab);
    assert_eq!((step_of(&lab), lab.view().player.now), (1, 32_000));
    lab.update(Msg::TogglePlay);
    play_until_stopped(&mut lab);
    assert_eq!((step_of(&lab), lab.view().player.now), (2, 45_000));
    // Pause while moving: the clock and the narration stay.
    lab.update(Msg::TogglePlay);
    lab.update(Msg::FramesStopped);
    lab.update(Msg::Frame { timestamp_ms: 0.0 });
    lab.update(Msg::Frame { timestamp_ms: 100.0 });
    lab.update(Msg::TogglePlay);
    assert!(!lab.view().player.playing && !lab.view().touring.moving);
    assert_eq!(step_of(&lab), 2);
    // The scrubber takes the narration along, to the steps already found.
    lab.update(Msg::Seek(40_000));
    assert_eq!(step_of(&lab), 1);
    lab.update(Msg::Seek(5_000));
    assert_eq!(step_of(&lab), 0);
    lab.update(Msg::Seek(46_000));
    assert_eq!(step_of(&lab), 2);
    lab.update(Msg::Seek(69_000));
    assert_eq!(step_of(&lab), 3, "the rewrite at 50s, found when Play moved towards it");
    // It asks: unanswered, the clock stops at its instant (crates/lab/tests/core/predict.rs); answered, the
    // tour is at the moment that answers it (70s).
    assert_eq!(lab.view().player.now, 50_000);
    lab.update(Msg::Answer { answer: 0, animate: false });
    // Past steps not found yet, Play shows them at once; on the last step it plays on.
    lab.update(Msg::Seek(75_000));
    assert_eq!(step_of(&lab), 4);
    lab.update(Msg::TogglePlay);
    assert_eq!(step_of(&lab), 5, "the stop at 70s and the last step");
    assert!(lab.view().player.playing && !lab.view().touring.moving);
}
