//! What this crate's own tests, benchmarks (`benches/support/workloads.rs`) and fuzzers reach
//! beneath the façades: the model's packages, the world and its timeline, the seeded PRNG and
//! the text helpers. Hidden from the docs and free to change: not an API.
//!
//! The model's and the world's modules are declared `pub` inside their crate-private parents, so
//! they are re-exported by name; the lab's UI helpers are `pub(crate)` modules of the public
//! `lab` (a `pub` one would be its surface), and those cannot be (E0365): their items are.

/// The upstream model, one module per Kubernetes package (`crate::k8s`).
pub mod k8s {
    pub use crate::k8s::{
        allocator, api, controlplane, endpoints, etcd, ipallocator, names, options, portallocator,
        reconcilers, registry, repair, servicecidrs,
    };
}

/// The world and its timeline with checkpoints (`crate::sim`).
pub mod sim {
    pub use crate::sim::{timeline, world};
}

/// What the UI draws from the lab's view (`crate::lab`'s crate-private modules).
pub mod lab {
    pub mod explain {
        pub use crate::lab::explain::*;
    }
    pub mod inspect {
        pub use crate::lab::inspect::*;
    }
    pub mod parts {
        pub use crate::lab::parts::*;
    }
    pub mod upstream {
        pub use crate::lab::upstream::*;
    }
}

pub mod duration {
    pub use crate::duration::{format_ms, parse_ms};
}

pub mod quote {
    pub use crate::quote::one_line;
}

pub mod rng {
    pub use crate::rng::SimRng;
}
