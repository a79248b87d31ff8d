//! `tour check` and `tour run` over a tour file's text, answered once for both commands that
//! offer them: `bootstrap-sim` (natively) and the package's `kube-bootstrap-lab` (Node, on the
//! page's own wasm: `src/ui/checker.rs`). Each answer is the exit code, what goes to stdout and
//! what goes to stderr, byte for byte (`docs/tour.md` §7).

use super::{parse, run, Tour};
use crate::shipped;

/// What a command answers: its exit code (0 valid / every step arrived, 1 a step never arrived,
/// 2 invalid input), its standard output and its standard error (one line, or nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The exit code.
    pub code: u8,
    /// What goes to standard output.
    pub stdout: String,
    /// What goes to standard error.
    pub stderr: String,
}

impl Answer {
    /// Invalid input: `error: <what>` on stderr, nothing on stdout, exit 2.
    pub fn invalid(what: impl std::fmt::Display) -> Self {
        Answer { code: 2, stdout: String::new(), stderr: format!("error: {what}\n") }
    }
}

/// A tour file's text read as the lab reads it: its scenarios are its own, else the shipped ones.
fn read(text: &str) -> Result<Tour, Answer> {
    parse(text, shipped::scenario_text).map_err(Answer::invalid)
}

/// `tour check`: exit 0 and no output when the file is a valid tour.
pub fn check_text(text: &str) -> Answer {
    match read(text) {
        Ok(_) => Answer { code: 0, stdout: String::new(), stderr: String::new() },
        Err(a) => a,
    }
}

/// `tour run`: the tour played through every step ([`run`]) as pretty JSON and a newline; exit
/// 1 when a step never arrives.
pub fn run_text(text: &str) -> Answer {
    match read(text) {
        Ok(t) => {
            let played = run(&t);
            let json = serde_json::to_string_pretty(&played).expect("a tour run serialises");
            Answer {
                code: if played.passed { 0 } else { 1 },
                stdout: format!("{json}\n"),
                stderr: String::new(),
            }
        }
        Err(a) => a,
    }
}
