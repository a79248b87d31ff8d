//! `bootstrap-sim`: run, inspect and check scenario files (`docs/scenario.md` §5) and tour
//! files (`docs/tour.md`).
//!
//! Exit codes: 0 success (every expectation passed, every tour step arrived), 1 an expectation
//! failed or a tour step never arrived, 2 invalid input (one line on stderr naming the field
//! path, nothing on stdout).

use std::process::ExitCode;

use lab::contract::scenario::{self, Scenario};
use lab::import::kubectl;
use lab::report;
use lab::tour;

const USAGE: &str = "usage: bootstrap-sim run FILE | state FILE --at DURATION | check FILE | import FILE [--behavior B] [--service-cluster-ip-range R] [--service-node-port-range P] | findings FILE [same options] | tour check FILE | tour run FILE";

/// `import` and `findings`: the scenario file of the cluster in `kubectl … -o json` output.
fn import(file: &str, flags: &[&str]) -> Result<kubectl::Imported, String> {
    let mut options = kubectl::Options::default();
    let mut rest = flags;
    while let [flag, value, tail @ ..] = rest {
        let slot = match *flag {
            "--behavior" => &mut options.behavior,
            "--service-cluster-ip-range" => &mut options.service_cluster_ip_range,
            "--service-node-port-range" => &mut options.service_node_port_range,
            other => return Err(format!("{other}: unknown option ({USAGE})")),
        };
        *slot = Some(value.to_string());
        rest = tail;
    }
    if let [flag] = rest {
        return Err(format!("{flag}: a value is missing"));
    }
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    kubectl::import(kubectl::text_of(&bytes)?, &options)
}

fn invalid(msg: impl std::fmt::Display) -> ExitCode {
    answer(tour::Answer::invalid(msg))
}

/// Writes what a command answers (`tour::Answer`) and exits with its code.
fn answer(a: tour::Answer) -> ExitCode {
    use std::io::Write;
    // A reader that stops early (`| head`) is no error of ours: what it did not read is dropped.
    let _ = std::io::stdout().lock().write_all(a.stdout.as_bytes());
    let _ = std::io::stderr().lock().write_all(a.stderr.as_bytes());
    ExitCode::from(a.code)
}

fn load(path: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    scenario::parse(&text)
}

/// `tour check` or `tour run` (`tour::check_text`, `tour::run_text`) on the tour file at `path`.
fn tour_command(path: &str, command: fn(&str) -> tour::Answer) -> ExitCode {
    match std::fs::read_to_string(path) {
        Ok(text) => answer(command(&text)),
        Err(e) => invalid(format!("{path}: {e}")),
    }
}

fn print_json<T: serde::Serialize>(value: &T) {
    use std::io::Write;
    // A reader that stops early (`| head`) is no error of ours: what it did not read is dropped.
    let text = serde_json::to_string_pretty(value).expect("serialises");
    let _ = writeln!(std::io::stdout().lock(), "{text}");
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
        ["import", file, flags @ ..] => match import(file, flags) {
            Err(e) => invalid(e),
            Ok(imported) => {
                for note in &imported.notes {
                    eprintln!("note: {note}");
                }
                print_json(&imported.file);
                ExitCode::SUCCESS
            }
        },
        ["findings", file, flags @ ..] => match import(file, flags) {
            Err(e) => invalid(e),
            Ok(kubectl::Imported { file, scenario, notes, .. }) => {
                print_json(&serde_json::json!({
                    "behavior": file.behavior,
                    "service_cluster_ip_range": file.cluster.service_cluster_ip_range,
                    "notes": notes.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "findings": kubectl::findings(&scenario),
                }));
                ExitCode::SUCCESS
            }
        },
        ["check", file] => match load(file) {
            Err(e) => invalid(e),
            Ok(_) => ExitCode::SUCCESS,
        },
        ["tour", "check", file] => tour_command(file, tour::check_text),
        ["tour", "run", file] => tour_command(file, tour::run_text),
        _ => invalid(USAGE),
    }
}
