//! Writing a tour in the page (`Msg::Author`): what the author saw at each step is what the
//! file plays; the file is the contract's and reads back; bad edits change nothing.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use engine::contract::scenario::Action;
use lab::{tour, Arrival, Authoring, Lab, Lang, Msg, Opening, StepWait, TourFile, WriterMode};
use serde_json::{json, Value as Json};

fn sandbox(scenario: &str) -> Lab {
    Lab::open(Opening { scenario: Some(scenario), ..Opening::default() }).0
}

fn act(lab: &mut Lab, action: Json) {
    lab.update(Msg::Act(Action::from_json("action", action).unwrap()));
}

fn author(lab: &mut Lab, m: Authoring) -> bool {
    lab.update(Msg::Author(m))
}

/// The query that opens the tour written (`tour-file=…`), in the reader's language, as the
/// writer's panel links to it.
fn written_query(lab: &Lab) -> Option<String> {
    let view = lab.view();
    view.writer?.query(view.lang)
}

fn state(lab: &Lab) -> Json {
    serde_json::to_value(&*lab.view().state).unwrap()
}

/// Adds a step at the moment shown with narration in both languages; returns its index and
/// the state the author sees there.
fn add(lab: &mut Lab, en: &str) -> (usize, Json) {
    author(lab, Authoring::AddStep);
    let i = lab.view().writer.unwrap().selected().unwrap();
    author(lab, Authoring::Say { step: i, lang: Lang::En, text: en.into() });
    author(lab, Authoring::Say { step: i, lang: Lang::Zh, text: format!("{en}（中文）") });
    (i, state(lab))
}

/// The state at each step of the file, opened as the page opens a link's `tour-file`, as a
/// reader pressing Next sees it.
fn played(file: &str) -> Vec<Json> {
    let n =
        tour::parse(file, lab::catalogue::scenario_text).expect("the file reads back").steps.len();
    let (mut lab, notes) = Lab::open(Opening {
        tour_file: Some(TourFile { text: Ok(file), src: None }),
        ..Opening::default()
    });
    assert!(notes.is_empty(), "{notes:?}");
    let mut out = vec![state(&lab)];
    for _ in 1..n {
        lab.update(Msg::TourNext { animate: false });
        out.push(state(&lab));
    }
    out
}

/// The story of `docs/tour.md` written in the page: a crash taken while writing, a step that
/// waits for the Endpoints, and the file plays exactly what the author saw.
fn written() -> (Lab, Vec<Json>) {
    let mut lab = sandbox("crash-one-of-three");
    author(&mut lab, Authoring::Open);
    assert!(lab.view().writing);
    author(&mut lab, Authoring::Title { lang: Lang::En, text: "Mine".into() });
    let mut seen = vec![add(&mut lab, "Three apiservers.").1];
    lab.update(Msg::Seek(20_000));
    act(&mut lab, json!({"do": "crash_apiserver", "apiserver": "apiserver-a"}));
    seen.push(add(&mut lab, "apiserver-a crashes.").1);
    author(
        &mut lab,
        Authoring::Highlight { step: 1, spot: "apiserver:apiserver-a".into(), on: true },
    );
    lab.update(Msg::Seek(60_000));
    let choices = lab.view().wait_choices.expect("offered while writing, paused");
    let k = choices
        .iter()
        .position(|c| {
            c.label.en == "the kubernetes Endpoints list exactly 192.168.10.12, 192.168.10.13"
        })
        .expect("offered");
    let (i, s) =
        add(&mut lab, "Its address left; apiserver-b crashed at 60s as the scenario says.");
    author(&mut lab, Authoring::Wait { step: i, choice: Some(k) });
    author(&mut lab, Authoring::Highlight { step: i, spot: "endpoints".into(), on: true });
    seen.push(s);
    (lab, seen)
}

#[test]
fn a_tour_written_in_the_page_plays_what_the_author_saw() {
    let (lab, seen) = written();
    let w = lab.view().writer.unwrap();
    let file = w.file().expect("a tour");
    let f: Json = serde_json::from_str(file).unwrap();
    // The crash is a step of the scenario, written inline; the shipped scenario's own steps stay.
    let steps = f["scenario"]["steps"].as_array().unwrap();
    assert_eq!(f["scenario"]["name"], "crash-one-of-three-as-played");
    assert_eq!(
        steps.last().unwrap(),
        &json!({"at": "20s", "do": "crash_apiserver", "apiserver": "apiserver-a"})
    );
    assert!(f["scenario"].get("experiments").is_none(), "a tour offers no experiments");
    assert_eq!(f["steps"][1]["at"], "20s");
    assert_eq!(
        f["steps"][1]["say"],
        json!({"en": "apiserver-a crashes.", "zh": "apiserver-a crashes.（中文）"})
    );
    assert_eq!(
        f["steps"][2]["until"]["endpoints"][0]["subsets"],
        json!([{"addresses": ["192.168.10.12", "192.168.10.13"]}])
    );
    // Where the steps arrive: the Endpoints lose the crashed address before 60s already.
    let run = tour::run(&tour::parse(file, lab::catalogue::scenario_text).unwrap());
    assert!(run.passed);
    let arrivals = w.arrivals();
    assert_eq!(&arrivals[..2], &[Arrival::At(0), Arrival::At(20_000)]);
    let Arrival::At(t) = arrivals[2] else { panic!("{arrivals:?}") };
    assert!(t > 20_000 && t <= 60_000, "{t}");
    // Played from the file, the first two steps show exactly what the author saw.
    let states = played(file);
    assert_eq!(&states[..2], &seen[..2]);
    assert_eq!(states[2]["endpoints"], seen[2]["endpoints"]);
}

#[test]
fn preview_takes_the_tour_and_back_returns_to_writing_at_the_step() {
    let (mut lab, _) = written();
    author(&mut lab, Authoring::Select(Some(1)));
    author(&mut lab, Authoring::Preview);
    assert_eq!(lab.view().writer.unwrap().mode(), WriterMode::Previewing);
    let g = lab.view().touring.guide.expect("previewing the tour");
    assert_eq!((g.index, g.tour.title.get(Lang::En)), (0, "Mine"));
    assert!(lab.view().touring.own, "the author's own tour, not a shipped one");
    // It has no address: a link names the moment, and there is no handout to print.
    let view = lab.view();
    assert!(view.link_to_here.starts_with('#'), "{}", view.link_to_here);
    assert_eq!(view.touring.print_query, None);
    lab.update(Msg::TourNext { animate: false });
    assert_eq!(lab.view().player.now, 20_000);
    lab.update(Msg::LeaveTour);
    let w = lab.view().writer.unwrap();
    assert_eq!(
        (w.mode(), w.selected(), lab.view().player.now),
        (WriterMode::Writing, Some(1), 20_000)
    );
    assert!(lab.view().touring.guide.is_none());
    assert_eq!(w.draft().steps.len(), 3, "the draft is kept");
}

#[test]
fn bad_edits_are_refused_by_field_and_change_nothing() {
    let (mut lab, _) = written();
    let before = lab.view().writer.unwrap().draft().clone();
    author(&mut lab, Authoring::Highlight { step: 0, spot: "moon".into(), on: true });
    assert!(
        lab.view()
            .notice
            .as_deref()
            .unwrap()
            .starts_with("highlight: \"moon\" is not a part of the UI"),
        "{:?}",
        lab.view().notice.as_deref()
    );
    author(&mut lab, Authoring::Play { step: 0, play: "abc".into() });
    assert!(
        lab.view().notice.as_deref().unwrap().starts_with("play: "),
        "{:?}",
        lab.view().notice.as_deref()
    );
    author(&mut lab, Authoring::Play { step: 0, play: "10m".into() });
    assert!(
        lab.view().notice.as_deref().unwrap().contains("longer than 5m"),
        "{:?}",
        lab.view().notice.as_deref()
    );
    assert!(!author(&mut lab, Authoring::Delete(9)));
    assert!(!author(&mut lab, Authoring::Wait { step: 0, choice: Some(999) }));
    assert_eq!(lab.view().writer.unwrap().draft(), &before);
    // A step with no narration is no tour yet: the file says so by field, and nothing is offered.
    author(&mut lab, Authoring::AddStep);
    let w = lab.view().writer.unwrap();
    assert_eq!(w.file().unwrap_err(), "steps[3].say: give an \"en\" or a \"zh\" text, or both");
    assert_eq!(written_query(&lab), None);
}

#[test]
fn an_action_the_world_refuses_is_told_and_not_written() {
    let mut lab = sandbox("crash-one-of-three");
    author(&mut lab, Authoring::Open);
    lab.update(Msg::Seek(10_000));
    act(&mut lab, json!({"do": "start_apiserver", "apiserver": "apiserver-a"}));
    assert!(lab.view().notice.as_deref().is_some());
    act(&mut lab, json!({"do": "crash_apiserver", "apiserver": "nobody"}));
    assert!(lab.view().notice.as_deref().is_some());
    // Refused only once tried: the kubernetes Service holds 10.96.0.1.
    act(
        &mut lab,
        json!({"do": "create_service", "service": {"namespace": "default", "name": "web", "cluster_ip": "10.96.0.1"}}),
    );
    assert!(
        lab.view().notice.as_deref().is_some_and(|n| n.contains("10.96.0.1")),
        "{:?}",
        lab.view().notice.as_deref()
    );
    add(&mut lab, "Nothing happened.");
    let f: Json = serde_json::from_str(lab.view().writer.unwrap().file().unwrap()).unwrap();
    assert_eq!(f["scenario"], "crash-one-of-three", "untouched: named, not written out");
}

#[test]
fn acting_in_the_past_drops_the_later_actions_and_another_scenario_restarts_the_clock() {
    let mut lab = sandbox("crash-one-of-three");
    author(&mut lab, Authoring::Open);
    lab.update(Msg::Seek(30_000));
    act(&mut lab, json!({"do": "crash_apiserver", "apiserver": "apiserver-a"}));
    lab.update(Msg::Seek(10_000));
    act(&mut lab, json!({"do": "stop_apiserver", "apiserver": "apiserver-c"}));
    let (_, seen_a) = add(&mut lab, "c stops at 10s; a is running.");
    assert_eq!(seen_a["apiservers"][0]["status"], "running");
    // Another scenario: the next step shows it from its own time 0.
    let s = lab::catalogue::scenario("crash-vs-graceful-stop").unwrap();
    lab.update(Msg::Load(s, lab::share::Source::Builtin("crash-vs-graceful-stop".into())));
    assert!(lab.view().writing);
    lab.update(Msg::Seek(5_000));
    let (_, seen_b) = add(&mut lab, "Another cluster.");
    let w = lab.view().writer.unwrap();
    let file = w.file().unwrap();
    let f: Json = serde_json::from_str(file).unwrap();
    let actions: Vec<&Json> = f["scenario"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s.get("do").is_some())
        .collect();
    assert_eq!(actions.last().unwrap()["do"], "stop_apiserver", "the crash at 30s was forked away");
    assert_eq!(f["steps"][1]["scenario"], "crash-vs-graceful-stop");
    assert_eq!(w.arrivals(), &[Arrival::At(10_000), Arrival::At(5_000)]);
    assert_eq!(played(file), vec![seen_a, seen_b]);
}

#[test]
fn steps_reorder_and_waits_move_a_step_to_the_moment_shown() {
    let (mut lab, _) = written();
    author(&mut lab, Authoring::Select(Some(2)));
    author(&mut lab, Authoring::Move { from: 2, to: 0 });
    let w = lab.view().writer.unwrap();
    assert_eq!(w.selected(), Some(0));
    assert!(w.draft().steps[0].say.en.starts_with("Its address left"));
    // The predicate step first: it now waits from time 0 on, and the others follow it.
    assert!(w.file().is_ok());
    assert!(matches!(w.arrivals()[0], Arrival::At(_)));
    lab.update(Msg::Seek(25_000));
    author(&mut lab, Authoring::Wait { step: 0, choice: None });
    let w = lab.view().writer.unwrap();
    let s = &w.draft().steps[0];
    assert_eq!((s.at_ms, &s.wait), (25_000, &StepWait::Instant));
}

#[test]
fn every_choice_offered_holds_now_and_reads_as_a_tour_wait() {
    let (mut lab, _) = written();
    for t in [0, 5_000, 20_000, 61_000, 90_000] {
        lab.update(Msg::Seek(t));
        let choices = lab.view().wait_choices.expect("offered while writing, paused");
        assert!(choices.len() >= 6, "{t}: {choices:?}");
        for c in choices.iter() {
            assert!(!c.label.en.is_empty() && !c.label.zh.is_empty());
            let file = json!({"name": "x", "title": "x", "scenario": "crash-one-of-three",
                "steps": [{"until": c.until, "say": "x"}]});
            tour::parse(&file.to_string(), lab::catalogue::scenario_text)
                .unwrap_or_else(|e| panic!("{}: {e}", c.label.en));
        }
    }
}

#[test]
fn the_link_opens_the_written_tour() {
    let (mut lab, _) = written();
    lab.update(Msg::SetLang(Lang::Zh));
    let q = written_query(&lab).expect("a tour");
    assert!(q.starts_with("tour-file=%7B") && q.ends_with("&lang=zh"), "{q}");
    let (o, problems) = lab::embed::parse_query(&format!("?{q}"));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.tour_file.as_deref(), lab.view().writer.unwrap().file().ok());
}

#[test]
fn a_written_step_asks_the_reader_and_the_preview_asks_it() {
    use lab::AskEdit;
    let (mut lab, _) = written();
    let ask = |lab: &mut Lab, edit: AskEdit| author(lab, Authoring::Ask { step: 1, edit });
    ask(&mut lab, AskEdit::On(true));
    assert_eq!(
        lab.view().writer.unwrap().file().unwrap_err(),
        "steps[1].ask.question: give an \"en\" or a \"zh\" text, or both"
    );
    ask(
        &mut lab,
        AskEdit::Question(Lang::En, "When does 192.168.10.11 leave the Endpoints?".into()),
    );
    ask(&mut lab, AskEdit::AddAnswer);
    ask(&mut lab, AskEdit::AddAnswer);
    ask(&mut lab, AskEdit::AddAnswer);
    assert_eq!(
        lab.view().writer.unwrap().draft().steps[1].ask.as_ref().unwrap().answers.len(),
        4,
        "four at most"
    );
    for (k, a) in
        ["At once", "When its lease expires", "Never", "After a minute"].iter().enumerate()
    {
        ask(&mut lab, AskEdit::Answer(k, Lang::En, a.to_string()));
    }
    ask(&mut lab, AskEdit::Right(3));
    ask(&mut lab, AskEdit::RemoveAnswer(3));
    ask(&mut lab, AskEdit::Right(1));
    ask(&mut lab, AskEdit::Why(Lang::En, "Its lease, last written at 10s, expires at 25s.".into()));
    let w = lab.view().writer.unwrap();
    let f: Json = serde_json::from_str(w.file().expect("a tour")).unwrap();
    assert_eq!(f["steps"][1]["ask"]["answers"].as_array().unwrap().len(), 3);
    assert_eq!(f["steps"][1]["ask"]["right"], 1);
    author(&mut lab, Authoring::Preview);
    lab.update(Msg::TourNext { animate: false });
    assert!(lab.view().touring.guide.unwrap().asks().is_some(), "the preview's step 2 asks");
    lab.update(Msg::Answer { answer: 1, animate: false });
    assert!(lab.view().touring.guide.unwrap().verdict().is_some_and(|v| v.right()));
    // The last step cannot ask: the file says so, by field.
    lab.update(Msg::LeaveTour);
    author(&mut lab, Authoring::Ask { step: 2, edit: AskEdit::On(true) });
    assert!(lab
        .view()
        .writer
        .unwrap()
        .file()
        .unwrap_err()
        .starts_with("steps[2].ask: the last step cannot ask"));
}

#[test]
fn every_shipped_tour_opens_in_the_writer_and_writes_back_the_same_tour() {
    use lab::catalogue;
    for t in catalogue::tours() {
        let before = tour::run(&t);
        let (mut lab, _) =
            Lab::open(Opening { tour: Some(&t.name), step: Some(2), ..Opening::default() });
        assert!(author(&mut lab, Authoring::EditTour), "{}", t.name);
        let w = lab.view().writer.unwrap();
        assert_eq!(
            (w.mode(), w.selected()),
            (WriterMode::Writing, Some(1)),
            "{}: at the step shown",
            t.name
        );
        assert!(lab.view().touring.guide.is_none());
        let file = w.file().unwrap_or_else(|e| panic!("{}: {e}", t.name));
        let back = tour::parse(file, catalogue::scenario_text).unwrap();
        let after = tour::run(&back);
        let instants =
            |r: &tour::TourRun| r.steps.iter().map(|s| (s.at_ms, s.held)).collect::<Vec<_>>();
        assert_eq!(instants(&after), instants(&before), "{}: the same instants", t.name);
        for (a, b) in t.steps.iter().zip(&back.steps) {
            for l in [Lang::En, Lang::Zh] {
                assert_eq!(a.say.get(l), b.say.get(l), "{}", t.name);
                assert_eq!(
                    a.ask.as_ref().map(|q| q.why.get(l)),
                    b.ask.as_ref().map(|q| q.why.get(l)),
                    "{}",
                    t.name
                );
            }
            assert_eq!(
                (&a.highlight, a.play, a.ask.as_ref().map(|q| (q.right, q.answers.len()))),
                (&b.highlight, b.play, b.ask.as_ref().map(|q| (q.right, q.answers.len()))),
                "{}",
                t.name
            );
        }
        assert_eq!(back.title.get(Lang::Zh), t.title.get(Lang::Zh));
    }
}
