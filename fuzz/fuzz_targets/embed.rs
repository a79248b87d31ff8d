//! `embed::parse_query` (the page's URL parameters) and `embed::parse_settings` (the options
//! of `mount()`, i.e. the `<kube-bootstrap-lab>` element's attributes), then `Lab::open` with
//! what they give, as `ui::mount` does. One input is read both ways: as a query string, and as
//! one `key=value` pair per line. Each problem is one line naming its parameter, and a
//! parameter's problems are those it has alone; a rejected parameter has no effect, and of
//! `panels=` only its entries that are panels (the options equal those of what was accepted).
#![no_main]

use k8s::quote::one_line;
use kube_bootstrap_lab_fuzz::{default_lab_json, lab_json, names_one_of, one_message, text};
use lab::embed::{parse_query, parse_settings, PageOptions};
use lab::parts::Part;
use lab::{Lab, Opening};
use libfuzzer_sys::fuzz_target;

/// Each problem names its parameter: `{what} {key}: …` with the key as given (cut after
/// 60 characters, a line break escaped), or `unknown {what} "{key}"`.
fn check_problems<'a>(what: &str, problems: &[String], keys: impl Iterator<Item = &'a str>) {
    let named: Vec<String> = keys
        .map(|k| one_line(format!("{what} {}", k.chars().take(60).collect::<String>())))
        .chain([format!("unknown {what} \"")])
        .collect();
    let named: Vec<&str> = named.iter().map(String::as_str).collect();
    for p in problems {
        names_one_of(what, p, &named);
    }
}

/// What of a setting with problems still has an effect: of `panels=`, the panels it names
/// (as a valid value), else nothing.
fn kept(key: &str, alone: &PageOptions) -> Option<String> {
    let list = alone.panels.as_ref().filter(|_| key == "panels")?;
    Some(list.iter().map(|p: &Part| p.as_str()).collect::<Vec<_>>().join(","))
}

fn open(o: &PageOptions) {
    let (lab, notes) = Lab::open(Opening {
        scenario: o.scenario.as_deref(),
        tour: o.tour.as_deref(),
        tour_file: None,
        step: o.step,
        link: None,
        imported: None,
        lang: o.lang,
        autoplay: o.autoplay,
    });
    for n in &notes {
        one_message("opening note", n);
    }
    // No tour, and no scenario or an unknown one: the default lab, as if nothing were asked.
    if o.tour.is_none() && (o.scenario.is_none() || !notes.is_empty()) {
        assert_eq!(lab_json(&lab), default_lab_json(), "{o:?}: not the default lab");
    }
    // The settings' problems are the UI's to list; the notice tells the notes.
    assert_eq!(lab.view().notice.as_deref().is_some(), !notes.is_empty());
}

fuzz_target!(|data: &[u8]| {
    let Some(input) = text(data) else { return };

    // As a query string: a part on its own is rejected or not, and the rejected parts change
    // nothing.
    let (o, problems) = parse_query(input);
    let parts: Vec<&str> =
        input.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).collect();
    let key = |p: &str| p.split_once('=').map_or(p, |(k, _)| k).to_string();
    // After another part, as in the query: a leading `?` is trimmed from the first only.
    let alone: Vec<(PageOptions, Vec<String>)> =
        parts.iter().map(|p| parse_query(&format!("theme=auto&{p}"))).collect();
    let accepted: Vec<String> = parts
        .iter()
        .zip(&alone)
        .filter_map(|(p, (a, bad))| match bad.is_empty() {
            true => Some(p.to_string()),
            false => kept(&key(p), a).map(|v| format!("panels={v}")),
        })
        .collect();
    check_problems(
        "URL parameter",
        &problems,
        parts.iter().map(|p| p.split_once('=').map_or(*p, |(k, _)| k)),
    );
    let each: Vec<String> = alone.iter().flat_map(|(_, bad)| bad.clone()).collect();
    assert_eq!(problems, each, "a parameter's problems are its own");
    assert_eq!(parse_query(&accepted.join("&")).0, o, "a rejected parameter had an effect");
    open(&o);

    // As attributes, one `key=value` per line.
    let pairs: Vec<(&str, &str)> =
        input.lines().map(|l| l.split_once('=').unwrap_or((l, ""))).collect();
    let (a, problems) = parse_settings(pairs.iter().copied(), "attribute");
    check_problems("attribute", &problems, pairs.iter().map(|(k, _)| *k));
    let alone: Vec<(PageOptions, Vec<String>)> =
        pairs.iter().map(|p| parse_settings([*p], "attribute")).collect();
    let ok: Vec<(String, String)> = pairs
        .iter()
        .zip(&alone)
        .filter_map(|((k, v), (a, bad))| match bad.is_empty() {
            true => Some((k.to_string(), v.to_string())),
            false => kept(k, a).map(|v| ("panels".to_string(), v)),
        })
        .collect();
    let each: Vec<String> = alone.iter().flat_map(|(_, bad)| bad.clone()).collect();
    assert_eq!(problems, each, "an attribute's problems are its own");
    assert_eq!(parse_settings(ok, "attribute").0, a, "a rejected attribute had an effect");
    open(&a);
});
