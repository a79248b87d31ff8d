//! The simulation's only source of randomness: a seeded PCG stream.
//!
//! Upstream seeds each allocator's `math/rand` from the wall clock; we draw from one seeded
//! stream instead so that the same scenario and seed replay byte for byte, natively and in wasm.
//!
//! The stream is `pcg64_fast` (PCG-XSL-RR over a 128-bit MCG), seeded as `rand_pcg::Pcg64Mcg`'s
//! `seed_from_u64` seeds it, so every trace recorded with that crate replays unchanged
//! (the tests below compare the two). It is written out here because wasm32 has no 128-bit
//! multiply: `u128` products become calls to a generic 128 × 128 routine, a third of the time of
//! filling a /12 in the browser. Two 64-bit halves and one 64 × 64 → 128 product do the same work.

/// `pcg64_fast`'s multiplier, `0x2360ED051FC65DA44385DF649FCCF645`, as two halves.
const MUL_HI: u64 = 0x2360_ED05_1FC6_5DA4;
const MUL_LO: u64 = 0x4385_DF64_9FCC_F645;

/// A deterministic PRNG (PCG-64 MCG), cheap to clone for checkpoints.
#[derive(Clone, Debug)]
pub struct SimRng {
    /// The 128-bit state as `(high, low)` 64-bit halves; always odd.
    hi: u64,
    lo: u64,
}

/// The full 128-bit product of two 64-bit numbers, as `(high, low)`.
#[inline(always)]
fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = (a as u128) * (b as u128);
        ((p >> 64) as u64, p as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        mul_wide_halves(a, b)
    }
}

/// [`mul_wide`] from 32-bit halves, as wasm32 must compute it (natively, for the tests).
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn mul_wide_halves(a: u64, b: u64) -> (u64, u64) {
    let (a_hi, a_lo) = (a >> 32, a & 0xFFFF_FFFF);
    let (b_hi, b_lo) = (b >> 32, b & 0xFFFF_FFFF);
    let lo_lo = a_lo * b_lo;
    let hi_lo = a_hi * b_lo;
    let lo_hi = a_lo * b_hi;
    let hi_hi = a_hi * b_hi;
    // The middle column, with the carries out of the low word.
    let mid = (lo_lo >> 32) + (hi_lo & 0xFFFF_FFFF) + (lo_hi & 0xFFFF_FFFF);
    let lo = (mid << 32) | (lo_lo & 0xFFFF_FFFF);
    let hi = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (mid >> 32);
    (hi, lo)
}

impl SimRng {
    /// `SeedableRng::seed_from_u64`: 16 seed bytes from a PCG32 stream over `seed`, read as a
    /// little-endian `u128`, with the low bit forced to 1 (an MCG state must be odd).
    pub fn new(seed: u64) -> Self {
        const MUL: u64 = 6364136223846793005;
        const INC: u64 = 11634580027462260723;
        let mut state = seed;
        let mut pcg32 = || {
            state = state.wrapping_mul(MUL).wrapping_add(INC);
            let xorshifted = (((state >> 18) ^ state) >> 27) as u32;
            xorshifted.rotate_right((state >> 59) as u32) as u64
        };
        let lo = pcg32() | pcg32() << 32;
        let hi = pcg32() | pcg32() << 32;
        SimRng { hi, lo: lo | 1 }
    }

    /// The next 64 bits of the stream: one MCG step, then the XSL-RR output of the new state.
    pub fn next_u64(&mut self) -> u64 {
        // state *= MUL (mod 2^128), then the XSL-RR output of the new state.
        let (carry, lo) = mul_wide(self.lo, MUL_LO);
        self.hi = carry
            .wrapping_add(self.lo.wrapping_mul(MUL_HI))
            .wrapping_add(self.hi.wrapping_mul(MUL_LO));
        self.lo = lo;
        (self.hi ^ self.lo).rotate_right((self.hi >> 58) as u32)
    }

    /// Uniform integer in `[0, n)`, like Go's `rand.Intn`, which panics for `n == 0`.
    pub fn intn(&mut self, n: usize) -> usize {
        assert!(n > 0, "invalid argument to intn");
        let n = n as u64;
        // Lemire's multiply-and-reject: unbiased, one draw in the common case.
        let (mut hi, mut lo) = mul_wide(self.next_u64(), n);
        if lo < n {
            let threshold = n.wrapping_neg() % n;
            while lo < threshold {
                (hi, lo) = mul_wide(self.next_u64(), n);
            }
        }
        hi as usize
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand_core::{RngCore, SeedableRng};

    proptest! {
        /// The stream is `rand_pcg::Pcg64Mcg::seed_from_u64`'s, draw for draw.
        #[test]
        fn the_stream_is_pcg64_mcg(seed: u64) {
            let mut ours = SimRng::new(seed);
            let mut theirs = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            for _ in 0..64 {
                prop_assert_eq!(ours.next_u64(), theirs.next_u64());
            }
        }

        /// wasm32's product from 32-bit halves is the 128-bit product.
        #[test]
        fn the_product_from_halves_is_the_wide_product(a: u64, b: u64) {
            let p = a as u128 * b as u128;
            prop_assert_eq!(mul_wide_halves(a, b), ((p >> 64) as u64, p as u64));
        }
    }

    #[test]
    fn intn_matches_the_wide_multiply_and_reject() {
        for seed in 0..50 {
            let mut ours = SimRng::new(seed);
            let mut theirs = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            for n in [1usize, 2, 3, 7, 1000, 65_534, 1_048_574, usize::MAX / 3] {
                let n64 = n as u64;
                let mut m = theirs.next_u64() as u128 * n64 as u128;
                if (m as u64) < n64 {
                    let threshold = n64.wrapping_neg() % n64;
                    while (m as u64) < threshold {
                        m = theirs.next_u64() as u128 * n64 as u128;
                    }
                }
                assert_eq!(ours.intn(n), (m >> 64) as usize);
            }
        }
    }
}
