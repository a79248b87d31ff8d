//! The simulation: the world the model runs in (one virtual clock, one seeded PRNG), its
//! timeline with checkpoints, and the run report the CLI prints.

pub mod report;
pub mod rng;
pub mod timeline;
pub mod world;
