//! A trainer's own tour (`tour-src`, `tour-file`): opened at any step when it reads, linked to
//! by its address; a file that does not read, or could not be fetched, opens the story with one
//! line naming what was wrong, never half a tour. Addresses other than http(s) are refused.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use lab::embed::parse_query;
use lab::{Lab, Lang, Msg, Opening, TourFile};

const TOUR: &str = r#"{"name": "mine", "title": {"en": "Mine"}, "scenario": "crash-one-of-three",
  "steps": [{"say": {"en": "One"}}, {"at": "20s", "say": {"en": "Two", "zh": "二"}}]}"#;
const SRC: &str = "https://trainer.example/tours/mine.json";

fn open(text: Result<&str, &str>, src: Option<&str>, step: Option<usize>) -> (Lab, Vec<String>) {
    Lab::open(Opening { tour_file: Some(TourFile { text, src }), step, ..Opening::default() })
}

#[test]
fn a_trainers_tour_opens_at_its_step_and_links_to_it_by_its_address() {
    let (lab, notes) = open(Ok(TOUR), Some(SRC), Some(2));
    assert!(notes.is_empty(), "{notes:?}");
    let g = lab.view().touring.guide.expect("in the tour");
    assert_eq!((g.tour.name.as_str(), g.index, lab.view().player.now), ("mine", 1, 20_000));
    assert_eq!(
        lab.view().link_to_here,
        "?tour-src=https%3A%2F%2Ftrainer.example%2Ftours%2Fmine.json&step=2"
    );
    // Given inline, it has no address: a link is to the moment.
    let (lab, _) = open(Ok(TOUR), None, None);
    assert!(
        lab.view().link_to_here.starts_with("#scenario=crash-one-of-three&t="),
        "{}",
        lab.view().link_to_here
    );
}

#[test]
fn a_file_that_does_not_read_opens_the_story_with_one_line() {
    let bad = TOUR.replace(r#""en": "One""#, r#""fr": "Un""#);
    let (lab, notes) = open(Ok(&bad), Some(SRC), None);
    assert_eq!(lab.view().touring.guide.as_ref().map(|g| g.tour.name.as_str()), Some("story"));
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with(&format!(
            "The tour file \"{SRC}\" could not be opened (steps[0].say.fr: unknown language"
        )),
        "{notes:?}"
    );
    assert!(!notes[0].contains('\n'));
    let (lab, notes) = open(Err("HTTP 404 Not Found"), Some(SRC), None);
    assert_eq!(lab.view().touring.guide.as_ref().map(|g| g.tour.name.as_str()), Some("story"));
    assert!(notes[0].contains("(HTTP 404 Not Found); showing the story."), "{notes:?}");
}

#[test]
fn fetched_later_it_replaces_the_lab_in_the_readers_language() {
    let (mut lab, _) = Lab::open(Opening { lang: Lang::Zh, ..Opening::default() });
    assert!(lab.update(Msg::OpenTourFile {
        text: Ok(TOUR.into()),
        src: Some(SRC.into()),
        step: None
    }));
    assert_eq!(
        (lab.view().touring.guide.as_ref().map(|g| g.tour.name.clone()), lab.view().lang),
        (Some("mine".into()), Lang::Zh)
    );
    assert!(lab.update(Msg::OpenTourFile {
        text: Ok("{".into()),
        src: Some(SRC.into()),
        step: None
    }));
    assert!(
        lab.view().notice.as_deref().is_some_and(|n| n.starts_with("无法打开导览文件")),
        "{:?}",
        lab.view().notice.as_deref()
    );
}

#[test]
fn only_http_addresses_are_fetched() {
    for ok in [SRC, "http://127.0.0.1:8000/t.json", "tours/mine.json", "/t.json", "../t.json?x=a:b"]
    {
        let (o, problems) = parse_query(&format!("?tour-src={}", lab::share::percent_encode(ok)));
        assert!(problems.is_empty() && o.tour_src.as_deref() == Some(ok), "{ok}: {problems:?}");
    }
    for bad in ["javascript:alert(1)", "data:application/json,{}", "file:///etc/passwd", ""] {
        let (o, problems) = parse_query(&format!("?tour-src={}", lab::share::percent_encode(bad)));
        assert!(
            o.tour_src.is_none()
                && problems.len() == 1
                && problems[0].starts_with("URL parameter tour-src: "),
            "{bad}: {problems:?}"
        );
    }
}
