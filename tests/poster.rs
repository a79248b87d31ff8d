//! The first views written into the build (src/ui/poster.rs): rendered natively by the UI's own
//! components, before any wasm. Feature `ssr` (`make test-native` runs it).

use kube_bootstrap_lab::lab::embed::PageOptions;
use kube_bootstrap_lab::lab::Lang;
use kube_bootstrap_lab::ui::poster::{posters, Poster};

fn untouched(lang: Lang) -> String {
    Poster { options: PageOptions { lang, ..Default::default() } }.render()
}

#[test]
fn the_untouched_page_shows_the_story_at_its_first_instant() {
    let html = untouched(Lang::En);
    for seen in [
        "10.96.0.1",
        "apiserver-a",
        "apiserver-b",
        "apiserver-c",
        "/masterleases/192.168.10.11",
        "t = 0s",
    ] {
        assert!(html.contains(seen), "the poster shows {seen}");
    }
    assert!(html.contains("0. In one minute: a crash, a graceful stop"), "the story's card");
    assert!(html.contains("Step 1 of 5"), "at its first step");
    assert!(html.contains("class=\"lab-poster-view\" inert"), "inert until the app replaces it");
    assert!(!html.contains("<script"), "no script: it is markup only");
    assert!(!html.contains("<!--"), "no hydration markers: the app replaces it");
    for attr in [" id=", " for=", " aria-labelledby=", " aria-describedby=", " aria-controls="] {
        assert!(!html.contains(attr), "no {attr}: ids are the app's, which stands beside it");
    }
    assert!(html.contains("data-ip=\"192.168.10.11\""), "other attributes stay");
}

#[test]
fn the_stage_is_drawn_wide_and_narrow_and_the_width_picks() {
    let html = untouched(Lang::En);
    assert_eq!(html.matches("class=\"stage-fits\"").count(), 1);
    for fit in ["wide", "phone", "column"] {
        assert_eq!(
            html.matches(&format!("data-fit=\"{fit}\" class=\"stage-fit\"")).count(),
            1,
            "{fit}"
        );
    }
    assert_eq!(html.matches("class=\"stage portrait\"").count(), 2, "two narrow stages");
    assert_eq!(html.matches("class=\"stage\"").count(), 1, "one wide stage");
}

#[test]
fn every_poster_is_in_its_language_and_names_its_file() {
    let all = posters();
    // The story and the eleven tours, in two languages.
    assert_eq!(all.len(), 12 * 2);
    let mut files: Vec<String> = all.iter().map(Poster::file).collect();
    files.sort();
    files.dedup();
    assert_eq!(files.len(), all.len(), "one file each");
    assert!(
        files.contains(&"story.en.html".to_string())
            && files.contains(&"lease-crash-vs-stop.zh.html".to_string())
    );
    for p in &all {
        let html = p.render();
        assert!(html.contains(&format!("data-poster=\"posters/{}\"", p.file())));
        assert!(html.contains("10.96.0.1"), "{}: the kubernetes Service", p.file());
        let status = match p.options.lang {
            Lang::En => "Loading the lab…",
            Lang::Zh => "正在加载实验室…",
        };
        assert!(html.contains(status), "{}: its status line", p.file());
        assert!(html.contains(&format!("lang=\"{}\"", p.options.lang.code())), "{}", p.file());
    }
}

#[test]
fn a_poster_is_the_same_on_every_build() {
    assert_eq!(untouched(Lang::Zh), untouched(Lang::Zh));
}
