//! The tour file as a contract (`docs/tour.md`): narration in one language or both, scenarios
//! given inline and played by the lab, predicates checked like a scenario's `expect`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use serde_json::Value as Json;

use engine::contract::scenario;
use engine::sim::timeline::Timeline;
use lab::catalogue;
use lab::share::{Moment, Source};
use lab::tour::{self, Guide, Tour};
use lab::{Lab, Lang, Msg};

fn parse(text: &str) -> Result<Tour, String> {
    tour::parse(text, catalogue::scenario_text)
}

fn refused(text: &str, want: &str) {
    let err = parse(text).unwrap_err();
    assert!(err.starts_with(want), "{err:?} should start with {want:?}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// A one-step tour of `crash-one-of-three` titled `title` saying `say` (JSON texts).
fn one_step(title: &str, say: &str) -> String {
    format!(
        r#"{{"name":"x","title":{title},"scenario":"crash-one-of-three","steps":[{{"say":{say}}}]}}"#
    )
}

#[test]
fn narration_in_one_language_is_read_in_the_other() {
    let en_only = parse(&one_step(r#"{"en":"Title"}"#, r#"{"en":"Hello"}"#)).unwrap();
    assert_eq!(en_only.title.get(Lang::Zh), "Title");
    assert_eq!(en_only.steps[0].say.get(Lang::Zh), "Hello");
    let zh_only = parse(&one_step(r#"{"zh":"标题"}"#, r#"{"zh":"你好"}"#)).unwrap();
    assert_eq!(zh_only.title.get(Lang::En), "标题");
    assert_eq!(zh_only.steps[0].say.get(Lang::En), "你好");
    // A plain string is the same text for every reader.
    let plain = parse(&one_step(r#""Title""#, r#""Hello""#)).unwrap();
    assert_eq!(plain.steps[0].say.get(Lang::En), "Hello");
    assert_eq!(plain.steps[0].say.get(Lang::Zh), "Hello");
    let both = parse(&one_step(r#"{"en":"T","zh":"题"}"#, r#"{"en":"a","zh":"甲"}"#)).unwrap();
    assert_eq!((both.steps[0].say.get(Lang::En), both.steps[0].say.get(Lang::Zh)), ("a", "甲"));
}

#[test]
fn a_text_without_a_language_of_ours_or_with_an_empty_one_is_refused() {
    let say = |s: &str| one_step(r#"{"en":"T"}"#, s);
    refused(
        &say(r#"{"en":"a","fr":"b"}"#),
        r#"steps[0].say.fr: unknown language: use "en" or "zh""#,
    );
    refused(&say(r#"{"fr":"b"}"#), r#"steps[0].say.fr: unknown language: use "en" or "zh""#);
    refused(&say(r#"{}"#), r#"steps[0].say: give an "en" or a "zh" text, or both"#);
    refused(&say(r#"{"en":"a","zh":" "}"#), "steps[0].say.zh: must not be empty");
    refused(&say(r#""""#), "steps[0].say: must not be empty");
    refused(&say(r#"5"#), "steps[0].say: ");
    refused(&one_step(r#"{"EN":"T"}"#, r#""a""#), r#"title.EN: unknown language"#);
    let ask = r#"{"question":"q","answers":["a","b"],"right":0,"why":{"en":"w","de":"w"}}"#;
    let text = format!(
        r#"{{"name":"x","title":"T","scenario":"crash-one-of-three","steps":[{{"say":"a","ask":{ask}}},{{"say":"b"}}]}}"#
    );
    refused(&text, "steps[0].ask.why.de: unknown language");
}

/// The texts of the tours shipped in `tours/`: each in English and in Chinese, non-empty.
#[test]
fn every_shipped_tour_speaks_english_and_chinese_everywhere() {
    let both = |field: &str, text: Json| {
        for code in ["en", "zh"] {
            let s = text.get(code).and_then(Json::as_str).unwrap_or_default();
            assert!(!s.trim().is_empty(), "{field}: no {code:?} text in {text}");
        }
    };
    let json = |t: &_| serde_json::to_value(t).unwrap();
    for name in catalogue::tour_names() {
        let t = catalogue::tour(name).unwrap().unwrap();
        both(&format!("{name}: title"), json(&t.title));
        for (i, step) in t.steps.iter().enumerate() {
            both(&format!("{name}: steps[{i}].say"), json(&step.say));
            if let Some(a) = &step.ask {
                both(&format!("{name}: steps[{i}].ask.question"), json(&a.question));
                both(&format!("{name}: steps[{i}].ask.why"), json(&a.why));
                for (k, answer) in a.answers.iter().enumerate() {
                    both(&format!("{name}: steps[{i}].ask.answers[{k}]"), json(answer));
                }
            }
        }
    }
}

#[test]
fn an_until_is_checked_as_an_expect_is() {
    let until = |u: &str| {
        format!(
            r#"{{"name":"x","title":"T","scenario":"crash-one-of-three","steps":[{{"until":{u},"say":"a"}}]}}"#
        )
    };
    refused(&until(r#"{"servicez":[]}"#), "steps[0].until.servicez: unknown field");
    refused(&until(r#"[]"#), "steps[0].until: must be an object");
    assert!(parse(&until(r#"{"events_include":[],"events_exclude":[],"absent":{},"time_ms":0}"#))
        .is_ok());
}

/// Two apiservers; apiserver-b crashes at 20s and its address leaves the Endpoints at 30s.
const TWO: &str = r#"{"name":"two","cluster":{"apiservers":[
    {"name":"apiserver-a","advertise_address":"10.0.0.1"},{"name":"apiserver-b","advertise_address":"10.0.0.2"}]},
    "steps":[{"at":"20s","do":"crash_apiserver","apiserver":"apiserver-b"}],"until":"2m"}"#;

const GONE: &str =
    r#"{"endpoints":[{"name":"kubernetes","subsets":[{"addresses":["10.0.0.1"]}]}]}"#;

/// A tour over the inline scenario `TWO`, then a shipped one, then `TWO` again by its name.
fn inline_tour() -> String {
    format!(
        r#"{{"name":"mine","title":{{"en":"Mine"}},"scenario":{TWO},"steps":[
        {{"say":"start","highlight":["apiserver:apiserver-b"]}},
        {{"until":{GONE},"say":"gone"}},
        {{"scenario":"crash-one-of-three","say":"shipped"}},
        {{"scenario":"two","at":"10s","say":"back"}}]}}"#
    )
}

#[test]
fn a_tour_may_give_its_scenario_inline_and_name_it_again() {
    let t = parse(&inline_tour()).unwrap();
    let names: Vec<&str> = t.steps.iter().map(|s| s.scenario.as_str()).collect();
    assert_eq!(names, ["two", "two", "crash-one-of-three", "two"]);
    assert_eq!(t.scenarios.keys().collect::<Vec<_>>(), ["two"]);
    let two = t.scenario("two").unwrap();
    assert_eq!(two.cluster.apiservers.len(), 2);
    assert_eq!(two, scenario::parse(TWO).unwrap(), "read as the scenario file it is");
    assert!(matches!(t.source("two"), Source::Inline(_)));
    assert_eq!(t.source("crash-one-of-three"), Source::Builtin("crash-one-of-three".into()));
    // Played as the lab finds its steps.
    let mut g = Guide::new(t.clone());
    let mut tl = Timeline::new(&two);
    assert_eq!(g.time_of(1, &mut tl), Ok(30_000));
    let run = tour::run(&t);
    assert!(run.passed, "{run:?}");
    let at: Vec<Option<u64>> = run.steps.iter().map(|s| s.at_ms).collect();
    assert_eq!(at, [Some(0), Some(30_000), Some(0), Some(10_000)]);
}

#[test]
fn an_inline_scenario_is_refused_by_its_field_below_the_tour() {
    let tour = inline_tour();
    refused(
        &tour.replace(r#""advertise_address":"10.0.0.2""#, r#""advertise_address":"10.0.0.300""#),
        r#"scenario.cluster.apiservers[1].advertise_address: "#,
    );
    let step2 =
        |s: &str| tour.replace(r#""scenario":"crash-one-of-three""#, &format!(r#""scenario":{s}"#));
    refused(
        &step2(r#"{"name":"z","cluster":{"apiservers":[]}}"#),
        "steps[2].scenario.cluster.apiservers: at least one apiserver is required",
    );
    refused(
        &step2(
            r#"{"name":"z","cluster":{"apiservers":[{"name":"a","advertise_address":"10.0.0.1"}]},"colour":1}"#,
        ),
        "steps[2].scenario.colour: unknown field",
    );
    refused(
        &step2(r#"{"cluster":{"apiservers":[{"name":"a","advertise_address":"10.0.0.1"}]}}"#),
        "steps[2].scenario.name: an inline scenario needs a name",
    );
    refused(&step2(TWO), r#"steps[2].scenario.name: "two" already names a scenario of this tour"#);
    refused(&step2("5"), "steps[2].scenario: must be a scenario's name or a scenario object");
    refused(&step2(r#""nope""#), r#"steps[2].scenario: there is no scenario "nope""#);
    // One name, one scenario: a shipped scenario shown cannot be redefined later.
    let shadow = TWO.replace(r#""name":"two""#, r#""name":"crash-one-of-three""#);
    let text = format!(
        r#"{{"name":"x","title":"T","scenario":"crash-one-of-three","steps":[{{"say":"a"}},{{"scenario":{shadow},"say":"b"}}]}}"#
    );
    refused(
        &text,
        r#"steps[1].scenario.name: "crash-one-of-three" already names a scenario of this tour"#,
    );
    // Highlights name the inline scenario's apiservers.
    refused(
        &tour.replace("apiserver:apiserver-b", "apiserver:apiserver-c"),
        "steps[0].highlight[0]: ",
    );
}

/// An inline scenario is read from its text as a scenario file is: a key given twice counts
/// once, the last (as the contract reads a file), and the tour keeps its object as compact JSON
/// with its keys in order, whatever the spacing of the tour file (the text a link carries).
#[test]
fn an_inline_scenario_is_read_from_its_text_and_kept_compact() {
    let spaced = TWO.replace(r#""until":"2m""#, r#""until" : "1m",  "until": "2m""#);
    let tour = inline_tour().replace(TWO, &format!("\n  {spaced}\n"));
    let t = parse(&tour).unwrap();
    assert_eq!(t.scenario("two").unwrap(), scenario::parse(TWO).unwrap(), "the last until counts");
    let compact = serde_json::from_str::<serde_json::Value>(TWO).unwrap().to_string();
    assert_eq!(t.source("two"), Source::Inline(compact));
}

/// A tour's own scenario wins over a shipped one of the same name (a scenario shipped later
/// breaks no trainer's file).
#[test]
fn an_inline_scenario_named_as_a_shipped_one_is_the_tours() {
    let shadow = TWO.replace(r#""name":"two""#, r#""name":"crash-one-of-three""#);
    let text = format!(
        r#"{{"name":"x","title":"T","scenario":{shadow},"steps":[{{"say":"a"}},{{"scenario":"crash-one-of-three","say":"b"}}]}}"#
    );
    let t = parse(&text).unwrap();
    assert_eq!(t.scenario("crash-one-of-three").unwrap().cluster.apiservers.len(), 2);
    assert!(matches!(t.source("crash-one-of-three"), Source::Inline(_)));
}

#[test]
fn the_lab_plays_a_tour_over_an_inline_scenario_and_links_to_its_moments() {
    let t = parse(&inline_tour()).unwrap();
    let mut lab = Lab::tour(t.clone()).unwrap();
    assert_eq!(*lab.view().scenario, t.scenario("two").unwrap(), "the tour's own");
    lab.update(Msg::TourNext { animate: false });
    assert_eq!((lab.view().touring.guide.unwrap().index, lab.view().player.now), (1, 30_000));
    lab.update(Msg::TourNext { animate: false });
    assert_eq!(*lab.view().scenario, lab::catalogue::scenario("crash-one-of-three").unwrap());
    lab.update(Msg::TourNext { animate: false });
    assert_eq!((lab.view().scenario.name.as_str(), lab.view().player.now), ("two", 10_000));
    assert!(lab.view().touring.error.is_none());
    // Out in the sandbox, a link to this moment carries the scenario itself.
    lab.update(Msg::LeaveTour);
    let link = lab.view().link_to_here;
    let (s, tl) = Moment::decode(&link).unwrap().restore().unwrap();
    assert_eq!(s.name, "two");
    assert_eq!(tl.world().state(), lab.view().state.as_ref().clone());
}
