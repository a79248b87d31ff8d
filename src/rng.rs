//! The simulation's only source of randomness: a seeded PCG stream.
//!
//! Upstream seeds each allocator's `math/rand` from the wall clock; we draw from one seeded
//! stream instead so that the same scenario and seed replay byte for byte, natively and in wasm.

use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A deterministic PRNG (PCG-64 MCG), cheap to clone for checkpoints.
#[derive(Clone, Debug)]
pub struct SimRng(Pcg64Mcg);

impl SimRng {
    pub fn new(seed: u64) -> Self {
        SimRng(Pcg64Mcg::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform integer in `[0, n)`, like Go's `rand.Intn`, which panics for `n == 0`.
    pub fn intn(&mut self, n: usize) -> usize {
        assert!(n > 0, "invalid argument to intn");
        let n = n as u64;
        // Lemire's multiply-and-reject: unbiased, one draw in the common case.
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as usize
    }
}
