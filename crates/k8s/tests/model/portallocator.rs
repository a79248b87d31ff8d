#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::allocator::ItemRange;
use k8s::api::{Behavior, RangeAllocation};
use k8s::portallocator::{Error, PortAllocator, PortRange};
use k8s::rng::SimRng;

fn pr(base: i32, size: i32) -> PortRange {
    PortRange { base, size }
}

#[test]
fn parses_the_three_notations() {
    assert_eq!(PortRange::parse("30000-32767"), Ok(pr(30000, 2768)));
    assert_eq!(PortRange::parse(" 30000-32767 "), Ok(pr(30000, 2768)));
    assert_eq!(PortRange::parse("30000"), Ok(pr(30000, 1)));
    assert_eq!(PortRange::parse("30000+10"), Ok(pr(30000, 11)));
    assert_eq!(PortRange::parse("30000+0"), Ok(pr(30000, 1)));
    assert_eq!(PortRange::parse(""), Ok(pr(0, 0)));
    assert_eq!(PortRange::parse("0-65535"), Ok(pr(0, 65536)));
}

#[test]
fn parse_errors_carry_apimachinery_texts() {
    let e = |v: &str| PortRange::parse(v).unwrap_err();
    assert_eq!(e("30000-70000"), "the port range cannot be greater than 65535: 30000-70000");
    assert_eq!(e("70000"), "the port range cannot be greater than 65535: 70000");
    assert_eq!(e("65000+1000"), "the port range cannot be greater than 65535: 65000+1000");
    assert_eq!(e("32767-30000"), "end port cannot be less than start port: 32767-30000");
    assert_eq!(e("5--3"), "end port cannot be less than start port: 5--3");
    assert_eq!(e("30000-+5"), "unable to parse port range: 30000-+5");
    assert_eq!(e("abc"), "strconv.Atoi: parsing \"abc\": invalid syntax");
    assert_eq!(e("1-2-3"), "strconv.Atoi: parsing \"2-3\": invalid syntax");
    assert_eq!(e("-5"), "strconv.Atoi: parsing \"\": invalid syntax");
    assert_eq!(
        e("99999999999999999999"),
        "strconv.Atoi: parsing \"99999999999999999999\": value out of range"
    );
}

#[test]
fn prints_as_a_dash_b() {
    assert_eq!(PortRange::DEFAULT.to_string(), "30000-32767");
    assert_eq!(pr(30000, 11).to_string(), "30000-30010");
    assert_eq!(pr(0, 0).to_string(), "");
    assert!(PortRange::DEFAULT.contains(30000) && PortRange::DEFAULT.contains(32767));
    assert!(!PortRange::DEFAULT.contains(29999) && !PortRange::DEFAULT.contains(32768));
}

#[test]
fn static_band_sizes() {
    for (size, band) in [
        (10, 0),
        (16, 0),
        (17, 16),
        (128, 16),
        (129, 16),
        (2048, 64),
        (2768, 86),
        (4096, 128),
        (8192, 128),
    ] {
        assert_eq!(pr(30000, size).static_band_size(), band, "size {size}");
    }
    let a = PortAllocator::new(PortRange::DEFAULT, Behavior::V1_29);
    assert_eq!((a.size(), a.static_band(), a.free()), (2768, 86, 2768));
    assert_eq!(PortAllocator::new(PortRange::DEFAULT, Behavior::V1_20).static_band(), 0);
}

#[test]
fn errors_carry_kubernetes_texts() {
    let mut a = PortAllocator::new(PortRange::DEFAULT, Behavior::V1_29);
    a.allocate(30080).unwrap();
    assert_eq!(a.allocate(30080).unwrap_err().to_string(), "provided port is already allocated");
    assert_eq!(
        a.allocate(80).unwrap_err().to_string(),
        "provided port is not in the valid range. The range of valid ports is 30000-32767"
    );
    assert_eq!(
        a.allocate(32768).unwrap_err(),
        Error::NotInRange { item: 32768, valid: "30000-32767".into(), legacy: false }
    );
    assert_eq!(Error::Full.to_string(), "range is full");
    assert_eq!(
        Error::MismatchedNetwork.to_string(),
        "the provided port range does not match the current port range"
    );
    assert_eq!(a.used(), 1);
}

#[test]
fn allocate_next_prefers_the_dynamic_band_and_fills_up() {
    let mut rng = SimRng::new(2);
    let mut a = PortAllocator::new(PortRange::DEFAULT, Behavior::V1_29);
    for _ in 0..(2768 - 86) {
        let p = a.allocate_next(&mut rng).unwrap();
        assert!((30086..=32767).contains(&p), "{p} is in the static band");
    }
    let mut statics: Vec<i32> = (0..86).map(|_| a.allocate_next(&mut rng).unwrap()).collect();
    statics.sort();
    assert_eq!(statics, (30000..30086).collect::<Vec<_>>());
    assert_eq!(a.allocate_next(&mut rng), Err(Error::Full));
}

#[test]
fn release_outside_the_range_is_a_logged_noop() {
    let mut a = PortAllocator::new(PortRange::DEFAULT, Behavior::V1_29);
    a.allocate(30001).unwrap();
    assert_eq!(
        a.release(80),
        Some("port is not in the range when release it. port: 80".to_string())
    );
    assert_eq!(a.release(30002), None);
    assert_eq!(a.release(30001), None);
    assert_eq!(a.used(), 0);
    assert!(!a.has(30001) && !a.has(80));
}

#[test]
fn snapshot_and_restore() {
    let mut a = PortAllocator::new(PortRange::DEFAULT, Behavior::V1_29);
    a.allocate(30086).unwrap(); // offset 86
    assert_eq!(a.snapshot().range, "30000-32767");
    let mut want = vec![0x40];
    want.extend([0u8; 10]);
    assert_eq!(a.snapshot().data, want);
    let back = PortAllocator::from_snapshot(&a.snapshot(), Behavior::V1_29).unwrap();
    assert_eq!(back.iter().collect::<Vec<_>>(), vec![30086]);
    let mut other = PortAllocator::new(pr(30000, 100), Behavior::V1_29);
    assert_eq!(other.restore(&PortRange::DEFAULT, &[1]), Err(Error::MismatchedNetwork));
    let bad = RangeAllocation { range: "x-y".into(), data: vec![] };
    assert_eq!(
        PortAllocator::from_snapshot(&bad, Behavior::V1_29).unwrap_err().to_string(),
        "strconv.Atoi: parsing \"x\": invalid syntax"
    );
}
