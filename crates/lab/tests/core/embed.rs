//! The page's URL parameters.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use lab::embed::{parse_query, PageOptions, Theme};
use lab::parts::Part;

#[test]
fn known_parameters() {
    let (o, problems) =
        parse_query("?scenario=crash-vs-graceful-stop&theme=dark&controls=minimal&autoplay");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(
        o,
        PageOptions {
            scenario: Some("crash-vs-graceful-stop".into()),
            theme: Theme::Dark,
            autoplay: true,
            minimal: true,
            ..PageOptions::default()
        }
    );
    assert_eq!(parse_query("").0, PageOptions::default());
    assert_eq!(
        parse_query("autoplay=0&theme=light").0,
        PageOptions { theme: Theme::Light, ..PageOptions::default() }
    );
}

#[test]
fn bad_parameters_are_ignored_and_named() {
    let (o, problems) =
        parse_query("theme=pink&controls=none&autoplay=maybe&colour=red&scenario=%ZZ");
    assert_eq!(o, PageOptions::default());
    assert_eq!(
        problems,
        vec![
            "URL parameter theme: \"pink\" is not one of auto, light, dark",
            "URL parameter controls: \"none\" is not one of full, minimal",
            "URL parameter autoplay: \"maybe\" is not one of 1, true, 0, false",
            "unknown URL parameter \"colour\"",
            "URL parameter scenario: %ZZ is not a percent escape",
        ]
    );
}

#[test]
fn tour_language_and_panels() {
    let (o, problems) = parse_query("tour=lease-heartbeats&lang=zh&panels=pods,apiservers");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(o.tour.as_deref(), Some("lease-heartbeats"));
    assert_eq!(o.lang, lab::Lang::Zh);
    // In the UI's order, whatever the order given.
    assert_eq!(o.panels, Some(vec![Part::Apiservers, Part::Pods]));
    assert!(o.shows(Part::Pods) && !o.shows(Part::Etcd));
    assert!(PageOptions::default().shows(Part::Etcd));
    let (o, problems) = parse_query("lang=fr&panels=pods,moon");
    assert_eq!(
        o,
        PageOptions { panels: Some(vec![Part::Pods]), ..PageOptions::default() },
        "the valid entries are kept"
    );
    assert_eq!(
        problems,
        vec![
            "URL parameter lang: \"fr\" is not one of en, zh",
            "URL parameter panels: \"moon\" is not a panel (one of stage, apiservers, kubernetes-service, etcd, events, bitmaps, service-cidrs, services, pods, import)",
        ]
    );
}

#[test]
fn panels_keep_their_valid_entries_and_name_each_other_one() {
    let one_of = "(one of stage, apiservers, kubernetes-service, etcd, events, bitmaps, service-cidrs, services, pods, import)";
    let (o, problems) = parse_query("panels=stage,nope");
    assert_eq!(
        (o.panels, problems),
        (
            Some(vec![Part::Stage]),
            vec![format!("URL parameter panels: \"nope\" is not a panel {one_of}")]
        )
    );
    // Nothing valid, or nothing at all: every panel shows, and it is said why.
    let (o, problems) = parse_query("panels=moon,leases,moon");
    assert_eq!(o.panels, None);
    assert_eq!(
        problems,
        vec![
            format!("URL parameter panels: \"moon\" is not a panel {one_of}"),
            format!("URL parameter panels: \"leases\" is not a panel {one_of}"),
        ]
    );
    for empty in ["panels=", "panels", "panels=%20,%20,"] {
        let (o, problems) = parse_query(empty);
        assert_eq!(
            (o.panels, problems),
            (None, vec!["URL parameter panels: it is empty, so all panels are shown".to_string()]),
            "{empty}"
        );
    }
    // Entries that are no panels change nothing: an earlier choice stays.
    assert_eq!(parse_query("panels=pods&panels=moon").0.panels, Some(vec![Part::Pods]));
    // A long list names a few, then counts the rest.
    let many: Vec<String> = (0..9).map(|i| format!("x{i}")).collect();
    let (o, problems) =
        lab::embed::parse_settings([("panels", format!("pods,{}", many.join(",")))], "attribute");
    assert_eq!(o.panels, Some(vec![Part::Pods]));
    assert_eq!(problems.len(), 6);
    assert_eq!(problems[5], "attribute panels: and 4 more that are not panels");
}

#[test]
fn settings_from_mount_options_are_named_as_such() {
    use lab::embed::parse_settings;
    let (o, problems) =
        parse_settings([("theme", "dark"), ("controls", "tiny"), ("size", "xl")], "option");
    assert_eq!(o.theme, Theme::Dark);
    assert_eq!(
        problems,
        vec!["option controls: \"tiny\" is not one of full, minimal", "unknown option \"size\""]
    );
}

#[test]
fn a_tour_step_is_a_number_from_one() {
    assert_eq!(parse_query("tour=etcd-outage&step=3").0.step, Some(3));
    for bad in ["0", "-1", "two", ""] {
        let (o, problems) = parse_query(&format!("step={bad}"));
        assert_eq!(o.step, None);
        assert_eq!(
            problems,
            vec![format!("URL parameter step: {bad:?} is not a step number (1, 2, …)")]
        );
    }
}

#[test]
fn a_long_parameter_is_quoted_short() {
    let long = "y".repeat(20_000);
    let (o, problems) =
        parse_query(&format!("theme={long}&{long}=1&step={long}&panels={long}&scenario=%ZZ{long}"));
    assert_eq!(o.scenario, None);
    let cut = format!("\"{}\"…", "y".repeat(60));
    assert_eq!(
        problems,
        vec![
            format!("URL parameter theme: {cut} is not one of auto, light, dark"),
            format!("unknown URL parameter {cut}"),
            format!("URL parameter step: {cut} is not a step number (1, 2, …)"),
            format!("URL parameter panels: {cut} is not a panel (one of stage, apiservers, kubernetes-service, etcd, events, bitmaps, service-cidrs, services, pods, import)"),
            "URL parameter scenario: %ZZ is not a percent escape".to_string(),
        ]
    );
    // A name that is not too long is quoted whole, to be checked when the page opens it.
    assert_eq!(parse_query(&format!("scenario={long}")).0.scenario, Some(long));
}

/// The tour menu lists the tours in their numbered order ("0. …" or "1. …" to "10. …"), not by
/// file name nor by title text (where "10." comes before "2."), and leaves none out.
#[test]
fn tours_come_in_tour_order() {
    use lab::catalogue;
    use lab::Lang;
    let tours = catalogue::tours();
    assert_eq!(tours.len(), catalogue::tour_names().count());
    let numbers: Vec<u32> = tours
        .iter()
        .map(|t| {
            let title = t.title.get(Lang::En);
            title
                .split_once(". ")
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("{title:?} has no number"))
        })
        .collect();
    let from = numbers[0];
    assert_eq!(numbers, (from..from + tours.len() as u32).collect::<Vec<_>>());
    assert!(numbers.contains(&10), "{numbers:?}");
}

#[test]
fn print_asks_for_the_tour_as_a_handout_and_is_read_on_its_own() {
    let (o, problems) = parse_query("?tour=lease-crash-vs-stop&print&lang=zh");
    assert!(problems.is_empty(), "{problems:?}");
    assert!(o.print && o.tour.as_deref() == Some("lease-crash-vs-stop"));
    assert!(!parse_query("tour=x&print=0").0.print);
    let (o, problems) = parse_query("print=maybe&tour=x");
    assert!(!o.print);
    assert_eq!(problems, ["URL parameter print: \"maybe\" is not one of 1, true, 0, false"]);
    // Each parameter is read on its own: without a tour, print is kept and has no effect (the
    // lab opens as without it: `ui::App`), as a step without a tour.
    let (o, problems) = parse_query("scenario=crash-one-of-three&print");
    assert!(o.print && o.tour.is_none() && problems.is_empty(), "{problems:?}");
    let (o, problems) =
        lab::embed::parse_settings([("print", "true"), ("tour", "story")], "attribute");
    assert!(o.print && problems.is_empty(), "{problems:?}");
}

/// A host's dark or language switch: theme and lang change in place, validated as at opening;
/// any other setting is named and ignored, and a bad value changes nothing.
#[test]
fn live_settings() {
    use lab::embed::{parse_live, LiveSettings};
    use lab::Lang;
    let (live, problems) = parse_live([("theme", "dark"), ("lang", "zh")], "attribute");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(live, LiveSettings { theme: Some(Theme::Dark), lang: Some(Lang::Zh) });
    let (live, problems) = parse_live([("theme", "auto")], "option");
    assert_eq!((live.theme, live.lang, problems.len()), (Some(Theme::Auto), None, 0));
    let (live, problems) = parse_live([("theme", "purple"), ("tour", "etcd-outage")], "option");
    assert_eq!(live, LiveSettings::default());
    assert_eq!(
        problems,
        [
            "option theme: \"purple\" is not one of auto, light, dark",
            "option \"tour\": only theme, lang change in place; set it when the lab opens",
        ]
    );
}
