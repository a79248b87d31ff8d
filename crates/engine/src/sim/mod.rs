//! The simulation: the world the model runs in (one virtual clock, one seeded PRNG: `crate::rng`),
//! its timeline with checkpoints, and the run report the CLI prints.

pub mod report;
pub mod timeline;
pub mod world;
