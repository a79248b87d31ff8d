//! Things to try: every shipped scenario offers three to six experiments in both languages,
//! each set up as the page sets it up (its actions taken as a reader's at their instants), and
//! what its `watch` says is held to the simulation by its `expect` steps.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario::{self, Action, ApiserverRef, Experiment};
use engine::sim::timeline::Timeline;
use lab::catalogue;
use lab::share::{Moment, Source};
use lab::tour;
use lab::Opening;
use lab::{Lab, Lang, Msg};

/// A text in both languages, each its own (not one copied into the other).
fn both_languages(get: impl Fn(Lang) -> String) -> bool {
    !get(Lang::En).trim().is_empty()
        && !get(Lang::Zh).trim().is_empty()
        && get(Lang::En) != get(Lang::Zh)
}

/// Experiment `e` of shipped scenario `name` set up as the page sets it up (its actions a
/// reader's, at their instants), its timeline at `time_ms`.
pub(crate) fn set_up(name: &str, e: &Experiment, time_ms: u64) -> Timeline {
    let moment = Moment {
        source: Source::Builtin(name.into()),
        seed: None,
        time_ms,
        experiment: None,
        actions: e.actions(),
    };
    let (_, mut timeline) = moment.restore().unwrap();
    timeline.seek(time_ms);
    timeline
}

#[test]
fn every_scenario_offers_three_to_six_experiments_in_both_languages() {
    for name in catalogue::scenario_names() {
        let s = catalogue::scenario(name).unwrap();
        assert!(
            (3..=6).contains(&s.experiments.len()),
            "{name}: {} experiments",
            s.experiments.len()
        );
        for (i, e) in s.experiments.iter().enumerate() {
            assert!(
                both_languages(|l| e.title.get(l).into())
                    && both_languages(|l| e.watch.get(l).into()),
                "{name} experiments[{i}]: en and zh"
            );
            assert!(
                e.expects().next().is_some(),
                "{name} experiments[{i}]: an expect holds `watch` to the simulation"
            );
        }
    }
}

/// The lab calls itself 实验 in its experiment texts, as the tours do (factcheck 2026-11-27 C:
/// three watch texts said 实验室, "laboratory").
#[test]
fn the_chinese_experiment_texts_call_the_lab_one_name() {
    for name in catalogue::scenario_names() {
        let s = catalogue::scenario(name).unwrap();
        for (i, e) in s.experiments.iter().enumerate() {
            for text in [e.title.get(Lang::Zh), e.watch.get(Lang::Zh)] {
                assert!(
                    !text.contains("实验室"),
                    "{name} experiments[{i}]: 实验, not 实验室: {text}"
                );
            }
        }
    }
}

#[test]
fn every_experiment_shows_what_it_says_to_watch() {
    for name in catalogue::scenario_names() {
        let s = catalogue::scenario(name).unwrap();
        for (i, e) in s.experiments.iter().enumerate() {
            let last = e.actions().last().map_or(0, |(at, _)| *at);
            let mut timeline = set_up(name, e, last);
            for (at, expect) in e.expects() {
                timeline.seek(at);
                if let Err(why) = tour::holds(expect, &timeline) {
                    panic!("{name} experiments[{i}] at {at} ms: {}", why.join("; "));
                }
            }
        }
    }
}

#[test]
fn one_click_sets_an_experiment_up_and_acting_leaves_it() {
    let (mut lab, _) =
        Lab::open(Opening { scenario: Some("crash-vs-graceful-stop"), ..Opening::default() });
    let e = lab.view().scenario.experiments[0].clone();
    assert!(lab.update(Msg::Try(0)));
    assert_eq!(lab.view().trying, Some(0));
    assert_eq!(lab.view().player.now, e.start_ms());
    assert!(lab.view().player.playing, "it plays at once");
    assert!(lab.view().link_to_here.contains("try=0"), "a link to a moment of it names it");
    let generation = lab.view().generation;
    assert!(!lab.update(Msg::Try(99)), "no such experiment: nothing changes");
    assert_eq!((lab.view().generation, lab.view().trying), (generation, Some(0)));
    lab.update(Msg::Act(Action::CrashApiserver(ApiserverRef { apiserver: "apiserver-a".into() })));
    assert_eq!(lab.view().trying, None, "the reader's own action leaves the experiment");
}

#[test]
fn bad_experiments_are_refused_naming_the_field() {
    let base = catalogue::scenario_text("crash-one-of-three").unwrap();
    let with = |experiments: &str| {
        let at = base.rfind('}').unwrap();
        format!("{}, \"experiments\": {experiments}}}", &base[..at])
    };
    let ok = r#"[{"title": {"en": "a", "zh": "甲"}, "watch": {"en": "w", "zh": "看"}, "steps": [{"at": "5s", "do": "crash_apiserver", "apiserver": "apiserver-a"}]}]"#;
    assert_eq!(scenario::parse(&with(ok)).unwrap().experiments.len(), 1);
    let cases = [
        (
            ok.replace("apiserver-a", "apiserver-z"),
            "experiments[0].steps[0].apiserver: unknown apiserver \"apiserver-z\"",
        ),
        (
            ok.replace(r#""en": "a", "zh": "甲""#, r#""en": " ""#),
            "experiments[0].title: must not be empty",
        ),
        (
            ok.replace(r#""do": "crash_apiserver", "apiserver": "apiserver-a""#, r#""expect": {}"#),
            "experiments[0].steps: an experiment needs at least one `do` step",
        ),
        (
            ok.replace(r#""at": "5s""#, r#""at": "3h""#),
            "experiments[0].steps[0].at: \"3h\" exceeds 2h0m0s",
        ),
        (ok.replace(r#""watch""#, r#""see""#), "experiments[0].see: unknown field"),
    ];
    for (bad, want) in cases {
        let err = scenario::parse(&with(&bad)).unwrap_err();
        assert!(err.starts_with(want), "{err:?} should start with {want:?}");
    }
}

#[test]
fn a_link_names_the_experiment_set_up_and_reopens_it() {
    let (mut lab, _) =
        Lab::open(Opening { scenario: Some("crash-vs-graceful-stop"), ..Opening::default() });
    lab.update(Msg::Try(1));
    let e = lab.view().scenario.experiments[1].clone();
    let link = lab.view().link_to_here;
    assert!(link.contains("try=1") && !link.contains("actions="), "{link}");
    // Opened elsewhere: the same moment, the experiment set up, its actions ahead replaying on.
    let (mut other, notes) = Lab::open(Opening { link: Some(&link), ..Opening::default() });
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((other.view().player.now, other.view().trying), (lab.view().player.now, Some(1)));
    let last = e.actions().last().unwrap().0;
    lab.update(Msg::Seek(last));
    other.update(Msg::Seek(last));
    assert_eq!(*lab.view().state, *other.view().state, "both run the experiment's actions");
    let bad = link.replace("try=1", "try=9");
    let (_, notes) = Lab::open(Opening { link: Some(&bad), ..Opening::default() });
    assert!(notes[0].contains("link: try: the scenario offers"), "{notes:?}");
    let bad = link.replace("try=1", "try=x");
    let (_, notes) = Lab::open(Opening { link: Some(&bad), ..Opening::default() });
    assert!(notes[0].contains("link: try: \"x\" is not the number of an experiment"), "{notes:?}");
}

/// The figures the client pods' things to try quote are the run's: each experiment set up as
/// the page sets it up and played to the scenario's end, its windows (to 0.1 s) and its
/// longest wait are what its `watch` says.
#[test]
fn the_client_experiments_quote_their_runs_figures() {
    let name = "clients-crash-one-of-three";
    let s = catalogue::scenario(name).unwrap();
    // As the texts write them: "70.6 s", "63 s".
    let secs = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0).replace(".0 s", " s");
    for (i, e) in s.experiments.iter().enumerate() {
        let timeline = set_up(name, e, s.until_ms);
        let f = timeline.world().client_figures(s.until_ms).unwrap();
        let watch = e.watch.get(Lang::En);
        // Every window that closed: its end, when the text gives one, is the run's.
        let ends: Vec<String> = f.windows.iter().filter_map(|w| w.until_ms.map(secs)).collect();
        for w in &f.windows {
            let until = w.until_ms.map_or(String::new(), secs);
            let said = watch.contains(&until) || watch.contains(&secs(w.duration_ms));
            let dropped = w.duration_ms < 1_000; // under a second: "half a second", not quoted
            assert!(
                said || dropped,
                "{name} experiments[{i}]: window {w:?} ({ends:?}) not in {watch:?}"
            );
        }
        if f.longest_wait_ms >= 30_000 {
            let wait = format!("{} s", f.longest_wait_ms / 1000);
            assert!(
                watch.contains(&wait),
                "{name} experiments[{i}]: longest wait {wait} not in {watch:?}"
            );
        }
    }
}
