//! The scenarios of `scenarios/` and the tours of `tours/`, compiled into the library by
//! `build.rs` so that the browser build and the wasm tests have them. Every lookup of a shipped
//! scenario or tour by name goes through here: their texts (`lab::shipped`, beneath the tours
//! and the links that read a scenario by name) and the scenarios and tours parsed.

use crate::tour::{self, Tour};

pub use super::shipped::{scenario, scenario_names, scenario_text, tour_names, SCENARIOS, TOURS};

/// The shipped tour `name`, parsed (or why it does not parse); `None` when there is none.
pub fn tour(name: &str) -> Option<Result<Tour, String>> {
    TOURS.iter().find(|(n, _)| *n == name).map(|(_, text)| tour::parse(text, scenario_text))
}

/// The shipped tours that parse, in tour order: by the number their English title starts with
/// ("1. …", "2. …", …, "10. …"), not by name nor by the titles' text (where "10." sorts before
/// "2."); a title without a number comes after, by name. A broken tour is left out (the tests
/// refuse it).
pub fn tours() -> Vec<Tour> {
    let mut tours: Vec<Tour> = tour_names().filter_map(tour).filter_map(Result::ok).collect();
    tours.sort_by(|a, b| (tour_number(a), &a.name).cmp(&(tour_number(b), &b.name)));
    tours
}

/// The number an English tour title starts with (`"3. The ClusterIP bitmap"` → 3); `u32::MAX`
/// when it has none.
pub fn tour_number(t: &Tour) -> u32 {
    let title = t.title.get(crate::lang::Lang::En);
    let digits = title.split_once(". ").map_or("", |(n, _)| n);
    digits.parse().unwrap_or(u32::MAX)
}
