//! `duration::parse_ms` and `scenario::parse_time` (Go's `time.ParseDuration`, within the
//! 2-hour ceiling), directly and as a scenario's `until`.
#![no_main]

use engine::contract::scenario::{self, parse_time, MAX_TIME_MS};
use engine::duration::{format_ms, parse_ms};
use kube_bootstrap_lab_fuzz::{one_message, scenario_with, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(s) = text(data) else { return };
    match parse_ms(s) {
        // What it prints reads back the same (Go's `Duration.String`).
        Ok(ms) => assert_eq!(parse_ms(&format_ms(ms)), Ok(ms), "{s:?} -> {ms}"),
        Err(e) => one_message("duration", &e),
    }
    let time = parse_time(s);
    match &time {
        Ok(ms) => assert!(*ms <= MAX_TIME_MS && parse_ms(s) == Ok(*ms)),
        Err(e) => one_message("time", e),
    }
    // In a file, the message is the field's path then the parser's own.
    let file = scenario_with("1.29", "until", s);
    match (scenario::parse(&file), time) {
        (Ok(sc), Ok(ms)) => assert_eq!(sc.until_ms, ms),
        (Err(got), Err(e)) => assert_eq!(got, format!("until: {e}")),
        (got, want) => panic!("until {s:?}: the file gives {got:?}, parse_time {want:?}"),
    }
});
