//! Randomised model checks with the simulation's own seeded PRNG, so the very same sequences run
//! natively and in the browser (the proptest suite in `props.rs` is native only).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeSet;

use engine::contract::api::Behavior;
use k8s::allocator::{AllocationBitmap, Strategy};
use k8s::ipallocator::Range;
use k8s::rng::SimRng;

use crate::net;

/// The big-endian minimal encoding computed from a set, independently of the bitmap's words.
pub fn expected_bytes(set: &BTreeSet<usize>) -> Vec<u8> {
    let Some(&top) = set.last() else {
        return vec![];
    };
    let len = top / 8 + 1;
    let mut out = vec![0u8; len];
    for &bit in set {
        out[len - 1 - bit / 8] |= 1 << (bit % 8);
    }
    out
}

/// Applies `steps` random operations to a bitmap and a `BTreeSet`, checking they agree throughout.
pub fn check_against_model(seed: u64, steps: usize) {
    let mut rng = SimRng::new(seed);
    let max = 1 + rng.intn(300);
    let strategy = if rng.intn(2) == 0 {
        Strategy::RandomScan
    } else {
        Strategy::RandomScanWithOffset(rng.intn(max))
    };
    let mut b = AllocationBitmap::new(max, "m", strategy);
    let mut model = BTreeSet::new();
    for _ in 0..steps {
        let offset = rng.intn(max + 10);
        match rng.intn(4) {
            0 => match b.allocate(offset) {
                Ok(fresh) => assert_eq!(fresh, model.insert(offset)),
                Err(_) => assert!(offset >= max),
            },
            1 => {
                b.release(offset);
                model.remove(&offset);
            }
            2 => match (
                expected_next(&model, max, strategy, &mut rng.clone()),
                b.allocate_next(&mut rng),
            ) {
                (expected, Some(got)) => {
                    assert_eq!(Some(got), expected);
                    assert!(model.insert(got), "handed out a taken offset {got}");
                    if let Strategy::RandomScanWithOffset(band) = strategy {
                        let upper_full = (band..max).all(|o| model.contains(&o) || o == got);
                        assert!(
                            got >= band || upper_full,
                            "static offset {got} while the dynamic band had room"
                        );
                    }
                }
                (_, None) => assert_eq!(model.len(), max, "None only when full"),
            },
            _ => {
                let (spec, data) = b.snapshot();
                assert_eq!(data, expected_bytes(&model));
                let mut c = AllocationBitmap::new(max, "m", strategy);
                c.restore(&spec, &data).unwrap();
                assert_eq!(c, b, "snapshot/restore round trip");
            }
        }
        assert_eq!(b.free(), (max - model.len()) as i64);
        assert_eq!(b.iter().collect::<Vec<_>>(), model.iter().copied().collect::<Vec<_>>());
        assert!(b.has(offset) == model.contains(&offset));
    }
}

/// AllocateNext's choice by the rule itself, one offset at a time: a random start in the dynamic
/// band, forward with wrap-around; then the same in the static band (`draws` as the bitmap's).
pub fn expected_next(
    taken: &BTreeSet<usize>,
    max: usize,
    strategy: Strategy,
    draws: &mut SimRng,
) -> Option<usize> {
    if taken.len() >= max {
        return None;
    }
    let band = match strategy {
        Strategy::RandomScan => 0,
        Strategy::RandomScanWithOffset(band) => band,
    };
    let mut scan = |base: usize, len: usize| {
        if len == 0 {
            return None;
        }
        let start = draws.intn(len);
        (0..len).map(|k| base + (start + k) % len).find(|o| !taken.contains(o))
    };
    scan(band, max - band).or_else(|| scan(0, band))
}

/// A range of several summary words (the bitmap skips 64 full words at once), nearly full with
/// a few holes: every AllocateNext lands where the rule says.
#[test]
fn allocate_next_in_a_nearly_full_large_range_follows_the_rule() {
    for seed in 0..6 {
        let mut rng = SimRng::new(seed);
        let max = 64 * 64 * 2 + 1 + rng.intn(5000);
        let strategy =
            if seed % 2 == 0 { Strategy::RandomScan } else { Strategy::RandomScanWithOffset(256) };
        let mut b = AllocationBitmap::new(max, "m", strategy);
        let holes: BTreeSet<usize> = (0..12).map(|_| rng.intn(max)).collect();
        let mut model: BTreeSet<usize> = (0..max).filter(|o| !holes.contains(o)).collect();
        for &o in &model {
            b.allocate(o).unwrap();
        }
        for _ in 0..40 {
            let mut draws = rng.clone();
            let got = b.allocate_next(&mut rng);
            assert_eq!(got, expected_next(&model, max, strategy, &mut draws));
            let got = got.expect("holes left");
            model.insert(got);
            if model.len() == max {
                let o = rng.intn(max);
                b.release(o);
                model.remove(&o);
            }
        }
    }
}

#[test]
fn bitmap_agrees_with_a_set_model() {
    for seed in 0..40 {
        check_against_model(seed, 400);
    }
}

#[test]
fn ip_range_snapshot_round_trips_under_churn() {
    let mut rng = SimRng::new(99);
    let mut r = Range::new(net("10.96.0.0/20"), Behavior::V1_29);
    let mut held = Vec::new();
    for _ in 0..3000 {
        if held.is_empty() || rng.intn(3) > 0 {
            held.push(r.allocate_next(&mut rng).unwrap());
        } else {
            let i = rng.intn(held.len());
            r.release(held.swap_remove(i));
        }
    }
    let back = Range::from_snapshot(&r.snapshot(), Behavior::V1_29).unwrap();
    assert_eq!(back, {
        let mut fresh = Range::new(net("10.96.0.0/20"), Behavior::V1_29);
        fresh.restore(&net("10.96.0.0/20"), &r.snapshot().data).unwrap();
        fresh
    });
    assert_eq!(back.used() as usize, held.len());
    held.sort();
    assert_eq!(back.iter().collect::<Vec<_>>(), held);
}

/// The same seed must pick the same IPs in every build: this digest is checked natively and in
/// wasm against one constant.
#[test]
fn allocation_choices_are_identical_across_builds() {
    let mut rng = SimRng::new(2024);
    let mut r = Range::new(net("10.96.0.0/12"), Behavior::V1_29);
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for _ in 0..1000 {
        let ip = r.allocate_next(&mut rng).unwrap();
        let offset = r.offset_of(ip).unwrap() as u64;
        digest = (digest ^ offset).wrapping_mul(0x100_0000_01b3);
    }
    assert_eq!(digest, GOLDEN_DIGEST, "digest {digest:#x}");
}

const GOLDEN_DIGEST: u64 = 0x6e95_f781_02e9_4730;
