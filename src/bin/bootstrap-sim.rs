//! `bootstrap-sim`: run, inspect and check scenario files (`docs/scenario.md` §5).
//!
//! Exit codes: 0 success (every expectation passed), 1 an expectation failed, 2 invalid input
//! (one line on stderr naming the field path, nothing on stdout).

use std::process::ExitCode;

use kube_bootstrap_lab::scenario::{self, Scenario};
use kube_bootstrap_lab::report;

const USAGE: &str = "usage: bootstrap-sim run FILE | state FILE --at DURATION | check FILE";

fn invalid(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

fn load(path: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    scenario::parse(&text)
}

fn print_json<T: serde::Serialize>(value: &T) {
    println!(
        "{}",
        serde_json::to_string_pretty(value).expect("serialises")
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["run", file] => match load(file) {
            Err(e) => invalid(e),
            Ok(s) => {
                let report = report::run(&s);
                print_json(&report);
                if report.passed() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }
            }
        },
        ["state", file, "--at", at] | ["state", "--at", at, file] => {
            let t = match scenario::parse_time(at) {
                Ok(t) => t,
                Err(e) => return invalid(format!("--at: {e}")),
            };
            match load(file) {
                Err(e) => invalid(e),
                Ok(s) => {
                    print_json(&report::state_at(&s, t));
                    ExitCode::SUCCESS
                }
            }
        }
        ["check", file] => match load(file) {
            Err(e) => invalid(e),
            Ok(_) => ExitCode::SUCCESS,
        },
        _ => invalid(USAGE),
    }
}
