//! Issue 35: the lab's own page's address names what the lab shows (`Lab::address`,
//! `page_address`), an imported cluster by `#imported` with its file kept by the page and read
//! back as any input; Configure's settings are the running cluster's (`Settings::of`); the
//! import's errors name the page's fields in the page (`kubectl::in_page`).

use import::kubectl;
use lab::sandbox::{cluster_file, cluster_scenario, Settings};
use lab::share::Source;
use lab::{catalogue, page_address, Lab, Lang, Msg, Opening};

fn open(o: Opening) -> Lab {
    Lab::open(o).0
}

#[test]
fn the_address_names_the_scenario_picked_not_the_one_opened() {
    let mut lab = open(Opening { scenario: Some("crash-one-of-three"), ..Opening::default() });
    let other = catalogue::scenario("crash-vs-graceful-stop").unwrap();
    lab.update(Msg::Load(other, Source::Builtin("crash-vs-graceful-stop".into())));
    assert_eq!(lab.view().address.as_deref(), Some("#scenario=crash-vs-graceful-stop&t=0s"));
    // On a page opened at `?scenario=crash-one-of-three&theme=dark#scenario=crash-one-of-three&t=0s`.
    let address =
        page_address("?scenario=crash-one-of-three&theme=dark", &lab.view().address.unwrap());
    assert_eq!(address, "?theme=dark#scenario=crash-vs-graceful-stop&t=0s");
    // Reloaded, it opens what was shown.
    let (path, fragment) = address.split_once('#').unwrap();
    let again = open(Opening { link: Some(fragment), ..Opening::default() });
    assert_eq!(again.view().scenario.name, "crash-vs-graceful-stop", "{path}");
}

#[test]
fn a_tour_is_named_at_its_step_in_the_readers_language_and_the_story_playing_by_itself_not_at_all()
{
    let mut lab =
        open(Opening { tour: Some("kubernetes-service"), lang: Lang::Zh, ..Opening::default() });
    lab.update(Msg::TourNext { animate: false });
    let address = lab.view().address.unwrap();
    assert_eq!(address, "?tour=kubernetes-service&step=2&lang=zh");
    assert_eq!(
        page_address("?tour=story&controls=minimal&panels=stage", &address),
        "?controls=minimal&panels=stage&tour=kubernetes-service&step=2&lang=zh"
    );
    let story = open(Opening { tour: Some("story"), autoplay: true, ..Opening::default() });
    assert_eq!(story.view().address, None, "the untouched page's address opens it again");
    // Out of a tour, in Chinese: the moment, after the language.
    let mut lab = open(Opening {
        scenario: Some("crash-one-of-three"),
        lang: Lang::Zh,
        ..Opening::default()
    });
    lab.update(Msg::Seek(5000));
    assert!(
        lab.view().link_to_here.starts_with("?lang=zh#scenario=crash-one-of-three&t=5s"),
        "{}",
        lab.view().link_to_here
    );
    assert_eq!(page_address("?lang=zh&scenario=x", "#scenario=y&t=0s"), "#scenario=y&t=0s");
    assert_eq!(page_address("?scenario=x", ""), "");
}

const ONE_SERVICE: &str = r#"{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Service",
    "metadata":{"name":"kubernetes","namespace":"default"},"spec":{"clusterIP":"10.96.0.1","type":"ClusterIP",
    "ports":[{"name":"https","port":443,"protocol":"TCP","targetPort":6443}]}}]}"#;

#[test]
fn an_imported_cluster_is_named_not_carried_and_opens_again_from_what_the_page_kept() {
    let written =
        kubectl::write_with(ONE_SERVICE, &kubectl::Options::default(), &mut |_| {}).unwrap();
    let scenario = kubectl::check(&written.text).unwrap();
    let mut lab = open(Opening { scenario: Some("crash-one-of-three"), ..Opening::default() });
    lab.update(Msg::Import(scenario, written.text.clone()));
    assert!(lab.view().imported);
    assert_eq!(
        lab.view().address.as_deref(),
        Some("#imported"),
        "the reader's cluster stays out of the address"
    );
    lab.update(Msg::SetLang(Lang::Zh));
    assert_eq!(lab.view().address.as_deref(), Some("?lang=zh#imported"));
    // Reloaded with the file the tab kept.
    let again = open(Opening {
        link: Some("#imported"),
        imported: Some(&written.text),
        ..Opening::default()
    });
    assert!(again.view().imported && again.view().notice.is_none(), "{:?}", again.view().notice);
    assert_eq!(again.view().state.services.len(), lab.view().state.services.len());
    // Another scenario afterwards is no import.
    lab.update(Msg::Load(
        catalogue::scenario("crash-one-of-three").unwrap(),
        Source::Builtin("crash-one-of-three".into()),
    ));
    assert!(!lab.view().imported);
}

#[test]
fn a_kept_import_that_does_not_read_is_dropped_with_one_line() {
    for (kept, want) in [
        (
            Some(
                "{\"name\": \"x\", \"cluster\": {\"service_cluster_ip_range\": \"10.96.0.0/33\"}}",
            ),
            "could not be read",
        ),
        (Some("not json\nat all"), "could not be read"),
        (None, "no longer kept"),
    ] {
        let (lab, notes) =
            Lab::open(Opening { link: Some("imported"), imported: kept, ..Opening::default() });
        assert!(!lab.view().imported, "{kept:?}");
        assert_eq!(lab.view().scenario.name, "crash-one-of-three", "the default scenario instead");
        let notice = lab.view().notice.unwrap();
        assert!(notice.contains(want) && !notice.contains('\n'), "{notice}");
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}

#[test]
fn configure_shows_the_running_clusters_settings_and_starts_the_same_cluster() {
    for name in catalogue::scenario_names() {
        let s = catalogue::scenario(name).unwrap();
        let settings = Settings::of(&s);
        assert_ne!(settings, Settings::default(), "{name}: not the form's defaults");
        let n = s.cluster.apiservers.len();
        if n > 9 {
            continue;
        }
        let started = cluster_scenario(&settings).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(started.cluster.service_ip_ranges, s.cluster.service_ip_ranges, "{name}");
        assert_eq!(started.cluster.node_ports, s.cluster.node_ports, "{name}");
        assert_eq!(started.cluster.reconciler, s.cluster.reconciler, "{name}");
        assert_eq!(
            (started.behavior, started.seed, started.cluster.apiservers.len()),
            (s.behavior, s.seed, n),
            "{name}"
        );
        assert_eq!(Settings::of(&started), settings, "{name}");
    }
    assert!(cluster_file(&Settings { seed: "x".into(), ..Settings::default() }, Lang::Zh)
        .unwrap_err()
        .contains("非负整数"));
}

#[test]
fn the_imports_errors_name_the_pages_fields_in_the_page_and_the_flags_in_the_cli() {
    let e = kubectl::write_with(
        r#"{"apiVersion":"v1","kind":"List","items":[]}"#,
        &kubectl::Options::default(),
        &mut |_| {},
    )
    .err()
    .unwrap();
    assert!(e.contains("(--service-cluster-ip-range)"), "the CLI's: {e}");
    let en = kubectl::in_page(&e, Lang::En);
    assert!(en.ends_with("give it in the range field") && !en.contains("--"), "{en}");
    let zh = kubectl::in_page(&e, Lang::Zh);
    assert!(zh.ends_with("请在范围输入框中给出") && !zh.contains("--"), "{zh}");
    let bad =
        kubectl::in_page("--service-cluster-ip-range: invalid CIDR \"10.96.0.0/33\"", Lang::En);
    assert_eq!(bad, "the range field: invalid CIDR \"10.96.0.0/33\"");
}
