//! `share::Moment::decode` on a `#…` link, then the page's opening of it (`Lab::open`, which
//! restores the moment): a link cannot hang the page (its `t` is within the 2-hour ceiling),
//! a rejected link is one note starting `link:` and opens exactly the lab no link opens (the
//! world unchanged), and an accepted one opens at its instant and encodes back to itself.
#![no_main]

use kube_bootstrap_lab_fuzz::{default_lab_json, lab_json, names_one_of, text};
use lab::share::{is_moment, Moment};
use lab::{Lab, Opening};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(fragment) = text(data) else { return };
    let decoded = Moment::decode(fragment);
    match &decoded {
        Ok(m) => assert_eq!(Moment::decode(&m.encode()).as_ref(), Ok(m), "re-encoded"),
        Err(e) => names_one_of("link", e, &["link: "]),
    }
    // The page trims the fragment and leaves one that is no moment to the page.
    let trimmed = fragment.trim();
    let (lab, notes) = Lab::open(Opening { link: Some(fragment), ..Opening::default() });
    let opened = is_moment(trimmed) && notes.is_empty();
    if !opened {
        assert_eq!(lab_json(&lab), default_lab_json(), "a refused link changed the world");
    }
    if !is_moment(trimmed) {
        assert!(notes.is_empty(), "{notes:?}");
        return;
    }
    match Moment::decode(trimmed) {
        Ok(m) if opened => assert_eq!(lab.view().player.now, m.time_ms),
        Ok(_) => {
            // Decoded but not restorable (an unknown scenario, a file that does not parse).
            assert_eq!(notes.len(), 2, "{notes:?}");
            names_one_of("link", &notes[0], &["This link could not be opened (link: "]);
        }
        Err(e) => {
            assert!(!opened);
            assert_eq!(notes[0], format!("This link could not be opened ({e})."));
        }
    }
});
