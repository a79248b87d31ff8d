//! `scenario::parse` on a scenario file, then, as `bootstrap-sim run` does, `report::run` on
//! every file it accepts: a run must end within the per-input timeout (`scripts/fuzz.sh`), as
//! `docs/extensions.md` ("limits of this lab") promises of every accepted file.
#![no_main]

use engine::contract::scenario::{self, MAX_TIME_MS};
use engine::sim::report;
use kube_bootstrap_lab_fuzz::{scenario_rejection, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(input) = text(data) else { return };
    match scenario::parse(input) {
        Ok(s) => {
            assert!(s.until_ms <= MAX_TIME_MS, "until beyond the ceiling");
            let report = report::run(&s);
            serde_json::to_string(&report).expect("the report serialises");
        }
        Err(e) => scenario_rejection(&e),
    }
});
