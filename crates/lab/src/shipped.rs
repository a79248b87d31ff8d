//! The texts of the shipped scenarios and tours, as `build.rs` compiles them in: the bottom of
//! the lab's modules, so that a tour (checking its scenario by name) and a link (naming a
//! shipped scenario) can read them without the catalogue, which parses tours.

use crate::contract::scenario::{self, Scenario};

mod data {
    include!(concat!(env!("OUT_DIR"), "/builtin.rs"));
}

/// (file stem, file text) of every scenario under `scenarios/`, sorted by name.
pub use data::SCENARIOS;
/// (file stem, file text) of every tour under `tours/`, sorted by name.
pub use data::TOURS;

/// The names of the shipped scenarios, sorted.
pub fn scenario_names() -> impl Iterator<Item = &'static str> {
    SCENARIOS.iter().map(|(name, _)| *name)
}

/// The text of the shipped scenario `name`.
pub fn scenario_text(name: &str) -> Option<&'static str> {
    SCENARIOS.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// The shipped scenario `name`, parsed; `None` when there is none. Every shipped scenario
/// parses (`crates/lab/tests/scenarios.rs`), but a broken one reads as missing rather than panicking.
pub fn scenario(name: &str) -> Option<Scenario> {
    scenario_text(name).and_then(|text| scenario::parse(text).ok())
}

/// The names of the shipped tours, sorted.
pub fn tour_names() -> impl Iterator<Item = &'static str> {
    TOURS.iter().map(|(name, _)| *name)
}
