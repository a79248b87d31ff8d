#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::allocator::{AllocationBitmap, Strategy};
use k8s::rng::SimRng;

fn bitmap(max: usize) -> AllocationBitmap {
    AllocationBitmap::new(max, "test", Strategy::RandomScan)
}

fn with(bits: &[usize], max: usize) -> AllocationBitmap {
    let mut b = bitmap(max);
    for &bit in bits {
        assert_eq!(b.allocate(bit), Ok(true));
    }
    b
}

#[test]
fn allocating_a_taken_offset_is_not_an_error() {
    let mut b = bitmap(10);
    assert_eq!(b.allocate(3), Ok(true));
    assert_eq!(b.allocate(3), Ok(false));
    assert!(b.has(3));
    assert_eq!(b.free(), 9);
}

#[test]
fn out_of_range_offset_is_an_error_with_upstream_text() {
    let mut b = bitmap(10);
    assert_eq!(b.allocate(10), Err("offset 10 out of range [0,10]".to_string()));
    assert_eq!(b.allocate(1000), Err("offset 1000 out of range [0,10]".to_string()));
    assert_eq!(b.free(), 10);
    assert_eq!(bitmap(0).allocate(0), Err("offset 0 out of range [0,0]".to_string()));
}

#[test]
fn release_of_clear_or_out_of_range_offset_is_a_silent_noop() {
    let mut b = with(&[1, 2], 10);
    b.release(5);
    b.release(10);
    b.release(usize::MAX);
    assert_eq!(b.free(), 8);
    b.release(1);
    b.release(1);
    assert_eq!(b.free(), 9);
    assert!(!b.has(1) && b.has(2));
}

#[test]
fn has_reads_out_of_range_offsets_as_clear() {
    let b = with(&[0], 1);
    assert!(b.has(0));
    assert!(!b.has(1) && !b.has(64) && !b.has(usize::MAX));
}

#[test]
fn for_each_is_ascending_across_words() {
    let b = with(&[200, 3, 64, 63, 0, 127, 128], 300);
    assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 3, 63, 64, 127, 128, 200]);
}

#[test]
fn snapshot_bytes_are_big_endian_minimal_like_big_int() {
    let cases: &[(&[usize], Vec<u8>)] = &[
        (&[], vec![]),
        (&[3], vec![0x08]),
        (&[0, 8], vec![0x01, 0x01]),
        (&[9], vec![0x02, 0x00]),
        (&[86], {
            let mut v = vec![0x40];
            v.extend([0u8; 10]);
            v
        }),
        (&[0, 63, 64], vec![0x01, 0x80, 0, 0, 0, 0, 0, 0, 0x01]),
    ];
    for (bits, want) in cases {
        let b = with(bits, 100);
        assert_eq!(b.snapshot(), ("test".to_string(), want.clone()), "bits {bits:?}");
    }
}

#[test]
fn snapshot_of_a_released_top_bit_shrinks() {
    let mut b = with(&[1, 70], 100);
    b.release(70);
    assert_eq!(b.snapshot().1, vec![0x02]);
}

#[test]
fn restore_checks_the_range_string_only() {
    let mut b = bitmap(10);
    assert_eq!(
        b.restore("other", &[0x08]),
        Err("the provided range does not match the current range".to_string())
    );
    assert_eq!(b.free(), 10);
    // Upstream's test: a snapshot of a 32-bit map with bit 3, restored into max = 10.
    let big = with(&[3], 32);
    let (_, data) = big.snapshot();
    b.restore("test", &data).unwrap();
    assert!(b.has(3));
    assert_eq!(b.free(), 9);
}

#[test]
fn restore_keeps_and_counts_bits_beyond_max_as_upstream() {
    let mut b = bitmap(4);
    b.restore("test", &[0x01, 0x01]).unwrap(); // bits 0 and 8
    assert_eq!(b.free(), 2);
    assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 8]);
    let mut full = bitmap(2);
    full.restore("test", &[0xff]).unwrap(); // 8 bits in a map of 2
    assert_eq!(full.free(), -6);
    assert_eq!(full.allocate_next(&mut SimRng::new(1)), None);
}

#[test]
fn snapshot_restore_round_trips() {
    let b = with(&[0, 5, 64, 99], 100);
    let (spec, data) = b.snapshot();
    let mut c = bitmap(100);
    c.restore(&spec, &data).unwrap();
    assert_eq!(c.iter().collect::<Vec<_>>(), vec![0, 5, 64, 99]);
    assert_eq!(c.free(), 96);
}

#[test]
fn allocate_next_on_an_empty_or_full_map_answers_none() {
    let mut rng = SimRng::new(1);
    assert_eq!(bitmap(0).allocate_next(&mut rng), None);
    let mut b = with(&[0, 1], 2);
    assert_eq!(b.allocate_next(&mut rng), None);
}

#[test]
fn random_scan_fills_everything_and_finds_the_last_free_bit() {
    let mut rng = SimRng::new(7);
    let mut b = bitmap(130);
    let mut got: Vec<usize> = (0..130).map(|_| b.allocate_next(&mut rng).unwrap()).collect();
    assert_eq!(b.allocate_next(&mut rng), None);
    got.sort();
    assert_eq!(got, (0..130).collect::<Vec<_>>());
    b.release(77);
    for _ in 0..20 {
        assert_eq!(b.allocate_next(&mut rng), Some(77));
        b.release(77);
    }
}

#[test]
fn random_scan_starts_at_random_places() {
    let mut rng = SimRng::new(3);
    let firsts: std::collections::BTreeSet<usize> =
        (0..50).map(|_| bitmap(1000).allocate_next(&mut rng).unwrap()).collect();
    assert!(firsts.len() > 40, "a random start, not a contiguous scan: {firsts:?}");
}

#[test]
fn offset_strategy_uses_the_upper_band_first_then_the_lower() {
    let mut rng = SimRng::new(11);
    let mut b = AllocationBitmap::new(20, "test", Strategy::RandomScanWithOffset(5));
    assert_eq!(b.static_band(), 5);
    for _ in 0..15 {
        let got = b.allocate_next(&mut rng).unwrap();
        assert!((5..20).contains(&got), "dynamic band first, got {got}");
    }
    let mut lower: Vec<usize> = (0..5).map(|_| b.allocate_next(&mut rng).unwrap()).collect();
    lower.sort();
    assert_eq!(lower, vec![0, 1, 2, 3, 4]);
    assert_eq!(b.allocate_next(&mut rng), None);
}

#[test]
fn offset_strategy_wraps_inside_the_upper_band() {
    // Only offset 5 (the band's first) is free in the upper band: every start must wrap to it.
    let mut rng = SimRng::new(5);
    let mut b = AllocationBitmap::new(20, "test", Strategy::RandomScanWithOffset(5));
    for i in 6..20 {
        b.allocate(i).unwrap();
    }
    for _ in 0..20 {
        assert_eq!(b.allocate_next(&mut rng), Some(5));
        b.release(5);
    }
}

#[test]
fn same_seed_same_choices() {
    let run = |seed| {
        let mut rng = SimRng::new(seed);
        let mut b = AllocationBitmap::new(4096, "x", Strategy::RandomScanWithOffset(128));
        (0..200).map(|_| b.allocate_next(&mut rng).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(run(42), run(42));
    assert_ne!(run(42), run(43));
}
