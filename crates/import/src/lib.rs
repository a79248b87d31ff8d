//! A real cluster brought into the lab: `kubectl` output read as a scenario.
//!
//! A crate of its own above the engine (it writes the contract's scenario file and checks it on
//! the world) and below the lab, which offers it to the reader (the CLI's `import`, the UI's
//! import panel).

// What is `pub` is reachable from outside and documented: the crate's API (clippy -D warnings).
#![warn(unreachable_pub, missing_docs)]

// The layers beneath, under the paths the import has always used.
extern crate k8s;
use engine::{contract, lang, sim};
use k8s::quote;

pub mod kubectl;
