//! The trainer's checker without Rust: `tour check` and `tour run` exported from the page's own
//! module, for the package's command (`packaging/bin/kube-bootstrap-lab.mjs`, in Node:
//! `npx kube-bootstrap-lab tour check FILE`). The answers are the lab's (`lab::tour::check_text`,
//! `lab::tour::run_text`), the very ones `bootstrap-sim tour check|run` prints. Nothing here
//! touches a window: initialised in Node, the module's start (`mount_page`) finds none and
//! returns.

use wasm_bindgen::prelude::*;

use crate::lab::tour::{self, Answer};

/// What the command writes and exits with (read-only: no setters in the glue).
#[wasm_bindgen(getter_with_clone)]
pub struct TourAnswer {
    /// 0 valid (every step arrived), 1 a step never arrived (`run`), 2 invalid input.
    #[wasm_bindgen(readonly)]
    pub code: u8,
    #[wasm_bindgen(readonly)]
    pub stdout: String,
    /// One line, `error: <field path>: <message>`, or nothing.
    #[wasm_bindgen(readonly)]
    pub stderr: String,
}

impl From<Answer> for TourAnswer {
    fn from(Answer { code, stdout, stderr }: Answer) -> Self {
        TourAnswer { code, stdout, stderr }
    }
}

/// `tour check` on a tour file's text.
#[wasm_bindgen]
pub fn tour_check(text: &str) -> TourAnswer {
    tour::check_text(text).into()
}

/// `tour run` on a tour file's text: the run's JSON on stdout.
#[wasm_bindgen]
pub fn tour_run(text: &str) -> TourAnswer {
    tour::run_text(text).into()
}
