#![cfg(not(target_arch = "wasm32"))]
//! Every scenario under `scenarios/` checks itself: its `expect` steps must all pass, and running
//! it twice must give byte-identical reports. The library is called directly (no CLI process).

use std::path::{Path, PathBuf};

use engine::contract::scenario;
use engine::sim::report;

/// `scenarios/*.json`, sorted by path.
fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no scenario files under {}", dir.display());
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Parses one file; an invalid file is reported as a failure of that file.
fn load(path: &Path) -> Result<scenario::Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("unreadable: {e}"))?;
    scenario::parse(&text).map_err(|e| format!("invalid scenario: {e}"))
}

#[test]
fn every_scenario_passes_its_expectations() {
    let mut failures = Vec::new();
    for path in scenario_files() {
        let name = file_name(&path);
        let scenario = match load(&path) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        if scenario.name != stem {
            failures.push(format!(
                "{name}: `name` is {:?}, expected the file stem {stem:?}",
                scenario.name
            ));
        }
        let report = report::run(&scenario);
        for (i, exp) in report.expectations.iter().enumerate() {
            if !exp.passed {
                let mut line = format!("{name}: expectation #{i} at {} failed", exp.at);
                for m in &exp.mismatches {
                    line.push_str("\n      - ");
                    line.push_str(m);
                }
                failures.push(line);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} scenario failure(s):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// The catalogue compiled into the library holds every file of `scenarios/`, and each parses.
#[test]
fn the_catalogue_holds_every_scenario_file() {
    let stems: Vec<String> = scenario_files()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let names: Vec<&str> = lab::catalogue::scenario_names().collect();
    assert_eq!(names, stems);
    for name in names {
        assert!(lab::catalogue::scenario(name).is_some(), "{name}");
    }
    assert!(lab::catalogue::scenario("no-such-scenario").is_none());
}

#[test]
fn every_scenario_is_deterministic() {
    let mut failures = Vec::new();
    for path in scenario_files() {
        let name = file_name(&path);
        let Ok(scenario) = load(&path) else {
            // Reported by `every_scenario_passes_its_expectations`.
            continue;
        };
        let first = serde_json::to_string(&report::run(&scenario)).expect("report serialises");
        let second = serde_json::to_string(&report::run(&scenario)).expect("report serialises");
        if first != second {
            let at = first
                .bytes()
                .zip(second.bytes())
                .position(|(a, b)| a != b)
                .unwrap_or(first.len().min(second.len()));
            let from = at.saturating_sub(80);
            failures.push(format!(
                "{name}: two runs differ at byte {at}:\n      first:  …{}\n      second: …{}",
                String::from_utf8_lossy(&first.as_bytes()[from..(at + 80).min(first.len())]),
                String::from_utf8_lossy(&second.as_bytes()[from..(at + 80).min(second.len())])
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} nondeterministic scenario(s):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// `docs/scenario.md` is the contract `../shared/spec/scenario.md` word for word (this
/// repository's extensions are in `docs/extensions.md`); a clone without `../shared` skips it.
#[test]
fn docs_scenario_md_is_the_shared_contract() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let docs = std::fs::read_to_string(root.join("docs/scenario.md")).expect("docs/scenario.md");
    let shared = root.join("../shared/spec/scenario.md");
    let Ok(contract) = std::fs::read_to_string(&shared) else {
        eprintln!("skipped: {} is not there to compare with", shared.display());
        return;
    };
    if docs != contract {
        let at = docs
            .bytes()
            .zip(contract.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(docs.len().min(contract.len()));
        panic!("docs/scenario.md differs from {} at byte {at}: copy it again", shared.display());
    }
}
