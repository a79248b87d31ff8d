//! Tours never drift from the simulation: every step of every tour in `tours/` is reached, its
//! predicate holds at the instant the reader is shown, and its scenario's own expectations pass.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeMap;

use engine::contract::scenario;
use engine::sim::report;
use engine::sim::timeline::Timeline;
use lab::catalogue::{self, TOURS};
use lab::tour::{self, Guide, Wait};

fn scenario_of(name: &str) -> scenario::Scenario {
    catalogue::scenario(name).unwrap()
}

/// The scenario a step of tour `t` names: one the tour writes inline, else a shipped one.
fn scenario_in(t: &tour::Tour, name: &str) -> scenario::Scenario {
    t.scenario(name).unwrap_or_else(|| panic!("{}: no scenario {name}", t.name))
}

#[test]
fn every_tour_reaches_every_step_and_its_predicate_holds_there() {
    assert!(catalogue::tour_names().next().is_some());
    for stem in catalogue::tour_names() {
        let t = catalogue::tour(stem).unwrap().unwrap_or_else(|e| panic!("tours/{stem}.json: {e}"));
        assert_eq!(t.name, stem, "a tour's name is its file name");
        let mut guide = Guide::new(t.clone());
        let mut timelines: BTreeMap<String, Timeline> = BTreeMap::new();
        let mut last = BTreeMap::<String, u64>::new();
        for (i, step) in t.steps.iter().enumerate() {
            let tl = timelines
                .entry(step.scenario.clone())
                .or_insert_with(|| Timeline::new(&scenario_in(&t, &step.scenario)));
            let at = guide.time_of(i, tl).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                at >= *last.get(&step.scenario).unwrap_or(&0),
                "{stem} step {}: time goes back",
                i + 1
            );
            last.insert(step.scenario.clone(), at);
            // What the reader sees: a fresh timeline seeked to that instant.
            let mut fresh = Timeline::new(&scenario_in(&t, &step.scenario));
            fresh.seek(at);
            if let Wait::Until(until) = &step.wait {
                if let Err(why) = tour::holds(until, &fresh) {
                    panic!("{stem} step {}: at {at} ms: {}", i + 1, why.join("; "));
                }
            }
        }
    }
}

#[test]
fn every_tour_scenario_carries_expectations_that_pass() {
    for (stem, text) in TOURS {
        let t = tour::parse(text, catalogue::scenario_text).unwrap();
        let names: std::collections::BTreeSet<_> =
            t.steps.iter().map(|s| s.scenario.clone()).collect();
        for name in names {
            let s = scenario_in(&t, &name);
            let report = report::run(&s);
            assert!(!report.expectations.is_empty(), "{stem}: scenario {name} has no expect steps");
            assert!(report.passed(), "{stem}: scenario {name} fails its expectations");
        }
    }
}

#[test]
fn tours_going_back_restore_the_same_state_as_going_forward() {
    let t = tour::parse(TOURS[0].1, catalogue::scenario_text).unwrap();
    let s = scenario_of(&t.steps[0].scenario);
    let mut guide = Guide::new(t.clone());
    let mut tl = Timeline::new(&s);
    let n = t.steps.iter().take_while(|st| st.scenario == t.steps[0].scenario).count();
    let times: Vec<u64> = (0..n).map(|i| guide.time_of(i, &mut tl).unwrap()).collect();
    let states: Vec<_> = times
        .iter()
        .map(|&at| {
            let mut f = Timeline::new(&s);
            f.seek(at);
            f.world().state()
        })
        .collect();
    for i in (0..n).rev() {
        let at = guide.time_of(i, &mut tl).unwrap();
        tl.seek(at);
        assert_eq!(tl.world().state(), states[i], "step {}", i + 1);
    }
}

#[test]
fn bad_tours_are_refused_naming_the_field() {
    let ok = r#"{"name":"x","title":{"en":"X","zh":"X"},"scenario":"crash-one-of-three","steps":[{"say":{"en":"a","zh":"甲"}}]}"#;
    assert!(tour::parse(ok, catalogue::scenario_text).is_ok());
    let cases = [
        (ok.replace("crash-one-of-three", "nope"), "scenario: there is no scenario \"nope\""),
        (ok.replace(r#""zh":"甲""#, r#""zh":"""#), "steps[0].say.zh: must not be empty"),
        (ok.replace(r#"{"say""#, r#"{"at":"soon","say""#), "steps[0].at: "),
        (
            ok.replace(r#"{"say""#, r#"{"highlight":["moon"],"say""#),
            "steps[0].highlight[0]: \"moon\" is not a part of the UI",
        ),
        (
            ok.replace(r#"{"say""#, r#"{"highlight":["apiserver:apiserver-z"],"say""#),
            "steps[0].highlight[0]",
        ),
        (
            ok.replace(r#"{"say""#, r#"{"at":"1s","until":{},"say""#),
            "steps[0]: give \"at\" or \"until\", not both",
        ),
        (ok.replace(r#"{"say""#, r#"{"until":[],"say""#), "steps[0].until: must be an object"),
        (
            ok.replace(r#"{"say""#, r#"{"play":"0s","say""#),
            "steps[0].play: \"0s\" plays nothing: give a positive duration",
        ),
        (
            ok.replace(r#"{"say""#, r#"{"play":"6m","say""#),
            "steps[0].play: \"6m\" is longer than 5m0s, the most a step plays on",
        ),
        (ok.replace(r#"{"say""#, r#"{"play":"soon","say""#), "steps[0].play: "),
        (ok.replace(r#"{"say""#, r#"{"play":5,"say""#), "steps[0].play: invalid type"),
        (ok.replace(r#"{"say""#, r#"{"sai":1,"say""#), "steps[0].sai: unknown field `sai`"),
        (
            ok.replace(
                r#"[{"say":{"en":"a","zh":"甲"}}]"#,
                r#"[[null, null, null, {"en":"a","zh":"甲"}, []]]"#,
            ),
            "steps[0]: invalid type: sequence, expected a JSON object",
        ),
        (
            r#"["x", {"en":"X","zh":"X"}, "crash-one-of-three", [{"say":{"en":"a","zh":"甲"}}]]"#
                .to_string(),
            "invalid type: sequence, expected a JSON object",
        ),
        ("".to_string(), "invalid JSON: EOF while parsing a value at line 1 column 0"),
        ("{".to_string(), "invalid JSON: EOF while parsing an object at line 1 column 1"),
        (format!("{ok} x"), "invalid JSON: trailing characters"),
        (ok.replace(r#""name":"x","#, ""), "name: missing field"),
        (
            ok.replace(r#""steps":[{"say":{"en":"a","zh":"甲"}}]"#, r#""steps":[]"#),
            "steps: a tour needs at least one step",
        ),
    ];
    for (text, want) in cases {
        let err = tour::parse(&text, catalogue::scenario_text).unwrap_err();
        assert!(err.starts_with(want), "{err:?} should start with {want:?}");
    }
}

#[test]
fn an_apiserver_added_by_a_step_can_be_highlighted() {
    let text = r#"{"name":"x","title":{"en":"X","zh":"X"},"scenario":"master-count-right-count",
        "steps":[{"say":{"en":"a","zh":"甲"},"highlight":["apiserver:apiserver-d"]}]}"#;
    assert!(tour::parse(text, catalogue::scenario_text).is_ok());
}

#[test]
fn a_predicate_that_never_holds_is_reported() {
    let text = r#"{"name":"x","title":{"en":"X","zh":"X"},"scenario":"crash-one-of-three",
        "steps":[{"until":{"apiservers":[{"name":"apiserver-a","status":"on the moon"}]},"say":{"en":"a","zh":"甲"}}]}"#;
    let t = tour::parse(text, catalogue::scenario_text).unwrap();
    let mut g = Guide::new(t);
    let mut tl = Timeline::new(&scenario_of("crash-one-of-three"));
    let err = g.time_of(0, &mut tl).unwrap_err();
    assert!(err.contains("did not hold within 1h0m0s"), "{err}");
}

/// A two-step tour whose first step asks `ask` (JSON).
fn asking(ask: &str) -> String {
    format!(
        r#"{{"name":"x","title":{{"en":"X","zh":"X"}},"scenario":"crash-one-of-three","steps":[{{"say":{{"en":"a","zh":"甲"}},"ask":{ask}}},{{"say":{{"en":"b","zh":"乙"}}}}]}}"#
    )
}

const T: &str = r#"{"en":"t","zh":"题"}"#;

#[test]
fn a_step_asks_a_question_with_two_to_four_answers_and_the_right_one() {
    let ask = format!(r#"{{"question":{T},"answers":[{T},{T},{T}],"right":2,"why":{T}}}"#);
    let t = tour::parse(&asking(&ask), catalogue::scenario_text).unwrap();
    let a = t.steps[0].ask.as_ref().expect("the first step asks");
    assert_eq!((a.answers.len(), a.right), (3, 2));
    assert!(t.steps[1].ask.is_none());
    let cases = [
        (
            format!(r#"{{"question":{T},"answers":[{T}],"right":0,"why":{T}}}"#),
            "steps[0].ask.answers: give 2 to 4 answers, not 1",
        ),
        (
            format!(r#"{{"question":{T},"answers":[{T},{T},{T},{T},{T}],"right":0,"why":{T}}}"#),
            "steps[0].ask.answers: give 2 to 4 answers, not 5",
        ),
        (
            format!(r#"{{"question":{T},"answers":[{T},{T}],"right":2,"why":{T}}}"#),
            "steps[0].ask.right: 2 is not the index of an answer (0 to 1)",
        ),
        (
            format!(r#"{{"question":{T},"answers":[{T},{T}],"right":-1,"why":{T}}}"#),
            "steps[0].ask.right: invalid value",
        ),
        (
            format!(
                r#"{{"question":{T},"answers":[{T},{{"en":"","zh":"乙"}}],"right":0,"why":{T}}}"#
            ),
            "steps[0].ask.answers[1].en: must not be empty",
        ),
        (
            format!(r#"{{"question":{T},"answers":[{T},{T}],"right":0}}"#),
            "steps[0].ask.why: missing field",
        ),
        (
            format!(r#"{{"question":{T},"answers":[{T},{T}],"right":0,"why":{T},"hint":1}}"#),
            "steps[0].ask.hint: unknown field",
        ),
    ];
    for (ask, want) in cases {
        let err = tour::parse(&asking(&ask), catalogue::scenario_text).unwrap_err();
        assert!(err.starts_with(want), "{err:?} should start with {want:?}");
    }
    // The last step has no next step to answer it.
    let last = asking(&format!(r#"{{"question":{T},"answers":[{T},{T}],"right":0,"why":{T}}}"#))
        .replace(r#",{"say":{"en":"b","zh":"乙"}}"#, "");
    let err = tour::parse(&last, catalogue::scenario_text).unwrap_err();
    assert!(err.starts_with("steps[0].ask: the last step cannot ask"), "{err}");
}

/// What a reader's lab shows at each step of `t`: Next (the right answer at a question), then
/// frames until its clock stands still; the instant on its clock there.
fn reader_instants(t: &tour::Tour) -> Vec<u64> {
    use lab::{Lab, Msg};
    let mut lab = Lab::tour(t.clone()).unwrap();
    let mut out = Vec::new();
    for i in 0..t.steps.len() {
        if i > 0 {
            let ask = t.steps[i - 1].ask.as_ref();
            lab.update(match ask {
                Some(a) => Msg::Answer { answer: a.right, animate: true },
                None => Msg::TourNext { animate: true },
            });
        }
        lab.update(Msg::FramesStopped);
        let mut ts = 0.0;
        while lab.view().player.playing {
            lab.update(Msg::Frame { timestamp_ms: ts });
            ts += 100.0;
            assert!(
                ts < 1e7,
                "{} step {}: still playing at {}",
                t.name,
                i + 1,
                lab.view().player.now
            );
        }
        assert_eq!(
            lab.view().touring.guide.as_ref().map(|g| g.index),
            Some(i),
            "{} step {}",
            t.name,
            i + 1
        );
        out.push(lab.view().player.now);
    }
    out
}

/// The handout of every shipped tour: one entry per step, at the instant the reader's tour
/// shows it (where the reader's clock rests there, a step that plays on for the reader to watch
/// included), with the state of that instant and the step's question.
#[test]
fn every_tour_prints_one_handout_entry_per_step_at_its_instant() {
    use lab::handout;
    for t in catalogue::tours() {
        let steps = handout::steps(&t).unwrap_or_else(|e| panic!("{}: {e}", t.name));
        assert_eq!(steps.len(), t.steps.len(), "{}", t.name);
        let shown = reader_instants(&t);
        for (i, (s, step)) in steps.iter().zip(&t.steps).enumerate() {
            let at = shown[i];
            let what = format!("{} step {}", t.name, i + 1);
            assert_eq!(
                (s.index, s.time_ms, &s.scenario),
                (i, at, &step.scenario),
                "{what}: the lab's clock shows {at}"
            );
            assert_eq!(
                (&s.say, &s.highlight, &s.ask),
                (&step.say, &step.highlight, &step.ask),
                "{what}"
            );
            assert_eq!(
                s.right_answer().map(|(i, _)| i),
                step.ask.as_ref().map(|a| a.right),
                "{what}"
            );
            // The picture is of that instant: the state a fresh timeline has there.
            let mut fresh = Timeline::new(&scenario_in(&t, &step.scenario));
            fresh.seek(at);
            assert_eq!(s.frame.state.time_ms, at, "{what}");
            assert_eq!(*s.frame.state, fresh.state(), "{what}");
        }
    }
    // Step 1 of tour 2 plays on for 25 s: the handout says 25s, as the lab's clock does.
    let t = catalogue::tour("lease-crash-vs-stop").unwrap().unwrap();
    assert_eq!(handout::steps(&t).unwrap()[0].time_ms, 25_000);
    // Deterministic: twice the same.
    let times = |_| {
        handout::steps(&t)
            .unwrap()
            .iter()
            .map(|s| (s.time_ms, (*s.frame.state).clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(times(0), times(1));
}

/// "Print this tour" opens the handout by what names the tour: a shipped tour's name, a
/// trainer's address; a file given inline has none.
#[test]
fn a_tour_prints_by_the_query_that_names_it() {
    use lab::{Lab, Lang, Opening, TourFile};
    let (lab, _) = Lab::open(Opening {
        tour: Some("lease-crash-vs-stop"),
        lang: Lang::Zh,
        ..Opening::default()
    });
    assert_eq!(
        lab.view().touring.print_query.as_deref(),
        Some("tour=lease-crash-vs-stop&print&lang=zh")
    );
    let (lab, _) =
        Lab::open(Opening { scenario: Some("crash-one-of-three"), ..Opening::default() });
    assert_eq!(lab.view().touring.print_query, None, "no tour, nothing to print");
    let text = catalogue::TOURS.iter().find(|(n, _)| *n == "lease-crash-vs-stop").unwrap().1;
    let file =
        |src| Opening { tour_file: Some(TourFile { text: Ok(text), src }), ..Opening::default() };
    let (lab, _) = Lab::open(file(Some("https://example.com/t.json")));
    assert_eq!(
        lab.view().touring.print_query.as_deref(),
        Some("tour-src=https%3A%2F%2Fexample.com%2Ft.json&print")
    );
    let (lab, _) = Lab::open(file(None));
    assert!(
        lab.view().touring.guide.is_some() && lab.view().touring.print_query.is_none(),
        "inline: no address prints it"
    );
}
