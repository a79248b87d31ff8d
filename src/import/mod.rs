//! A real cluster brought into the lab: `kubectl` output read as a scenario.

pub mod kubectl;
