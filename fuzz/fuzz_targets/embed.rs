//! `embed::parse_query` (the page's URL parameters) and `embed::parse_settings` (the options
//! of `mount()`, i.e. the `<kube-bootstrap-lab>` element's attributes), then `Lab::open` with
//! what they give, as `ui::mount` does. One input is read both ways: as a query string, and as
//! one `key=value` pair per line. Each problem is one line naming its parameter; a rejected
//! parameter has no effect (the options equal those of the accepted parameters alone).
#![no_main]

use kube_bootstrap_lab::embed::{parse_query, parse_settings, PageOptions};
use kube_bootstrap_lab::lab::{Lab, Opening};
use kube_bootstrap_lab_fuzz::{default_lab_json, lab_json, names_one_of, one_message, text};
use kube_bootstrap_lab::quote::one_line;
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

fn open(o: &PageOptions, problems: &[String]) {
    let (lab, notes) = Lab::open(Opening {
        scenario: o.scenario.as_deref(),
        tour: o.tour.as_deref(),
        step: o.step,
        link: None,
        lang: o.lang,
        autoplay: o.autoplay,
        problems,
    });
    for n in &notes {
        one_message("opening note", n);
    }
    // No tour, and no scenario or an unknown one: the default lab, as if nothing were asked.
    if o.tour.is_none() && (o.scenario.is_none() || !notes.is_empty()) {
        assert_eq!(
            lab_json(&lab),
            default_lab_json(),
            "{o:?}: not the default lab"
        );
    }
    assert_eq!(
        lab.notice().is_some(),
        !(problems.is_empty() && notes.is_empty())
    );
}

fuzz_target!(|data: &[u8]| {
    let Some(input) = text(data) else { return };

    // As a query string: a part on its own is rejected or not, and the rejected parts change
    // nothing.
    let (o, problems) = parse_query(input);
    let parts: Vec<&str> = input
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .collect();
    let accepted: Vec<&str> = parts
        .iter()
        .copied()
        // After another part, as in the query: a leading `?` is trimmed from the first only.
        .filter(|p| parse_query(&format!("theme=auto&{p}")).1.is_empty())
        .collect();
    let keys = parts
        .iter()
        .map(|p| p.split_once('=').map_or(*p, |(k, _)| k));
    check_problems("URL parameter", &problems, keys);
    assert_eq!(problems.len(), parts.len() - accepted.len());
    assert_eq!(
        parse_query(&accepted.join("&")).0,
        o,
        "a rejected parameter had an effect"
    );
    open(&o, &problems);

    // As attributes, one `key=value` per line.
    let pairs: Vec<(&str, &str)> = input
        .lines()
        .map(|l| l.split_once('=').unwrap_or((l, "")))
        .collect();
    let (a, problems) = parse_settings(pairs.iter().copied(), "attribute");
    check_problems("attribute", &problems, pairs.iter().map(|(k, _)| *k));
    let ok: Vec<(&str, &str)> = pairs
        .iter()
        .copied()
        .filter(|p| parse_settings([*p], "attribute").1.is_empty())
        .collect();
    assert_eq!(problems.len(), pairs.len() - ok.len());
    assert_eq!(
        parse_settings(ok, "attribute").0,
        a,
        "a rejected attribute had an effect"
    );
    open(&a, &problems);
});
