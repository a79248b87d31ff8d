#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::allocator::ItemRange;
use k8s::api::{Behavior, IpFamily, RangeAllocation};
use k8s::ipallocator::{range_size, Error, Range};
use k8s::rng::SimRng;

use crate::{ip, net};

#[test]
fn range_sizes_and_static_bands_match_kubernetes() {
    // (cidr, usable addresses, static band)
    let table = [
        ("192.168.1.0/32", 0, 0),
        ("192.168.1.0/31", 0, 0),
        ("192.168.1.240/30", 2, 0),
        ("192.168.1.0/29", 6, 0),
        ("192.168.1.0/28", 14, 0),
        ("192.168.1.0/27", 30, 16),
        ("192.168.1.0/25", 126, 16),
        ("192.168.1.0/24", 254, 16),
        ("10.0.0.0/22", 1022, 64),
        ("10.0.0.0/20", 4094, 256),
        ("10.0.0.0/16", 65534, 256),
        ("10.0.0.0/15", 131070, 256),
        ("10.96.0.0/12", 1048574, 256),
        ("2001:db8::/128", 0, 0),
        ("2001:db8::/127", 1, 0),
        ("2001:db8::/126", 3, 0),
        ("2001:db8::/124", 15, 0),
        ("2001:db8::/122", 63, 16),
        ("2001:db8::/120", 255, 16),
        ("2001:db8::/118", 1023, 64),
        ("2001:db8::/112", 65535, 256),
        ("2001:db8::/108", 65535, 256),
        ("2001:db8::/64", 65535, 256),
        ("2001:db8::/48", 65535, 256),
    ];
    for (cidr, size, band) in table {
        let n = net(cidr);
        assert_eq!(n.usable(), size, "{cidr} size");
        assert_eq!(n.static_band_size(), band, "{cidr} band");
        let r = Range::new(n, Behavior::V1_29);
        assert_eq!((r.size(), r.static_band(), r.free(), r.used()), (size, band, size as i64, 0));
        // Behaviour 1.20 has no static band.
        assert_eq!(Range::new(n, Behavior::V1_20).static_band(), 0, "{cidr} 1.20");
    }
}

#[test]
fn range_size_edge_cases() {
    assert_eq!(range_size(&net("0.0.0.0/0")), 0);
    assert_eq!(range_size(&net("0.0.0.0/1")), 0);
    assert_eq!(range_size(&net("0.0.0.0/2")), 1 << 30);
    assert_eq!(range_size(&net("::/0")), 0);
    assert_eq!(range_size(&net("::/1")), 0);
    assert_eq!(range_size(&net("::/64")), i64::MAX);
    assert_eq!(range_size(&net("::/65")), i64::MAX);
    assert_eq!(range_size(&net("::/66")), 1 << 62);
    assert_eq!(net("0.0.0.0/1").usable(), 0);
}

#[test]
fn usable_addresses_exclude_network_and_ipv4_broadcast() {
    let r = Range::new(net("192.168.1.240/30"), Behavior::V1_29);
    assert_eq!(r.offset_of(ip("192.168.1.240")), None, "network");
    assert_eq!(r.offset_of(ip("192.168.1.241")), Some(0));
    assert_eq!(r.offset_of(ip("192.168.1.242")), Some(1));
    assert_eq!(r.offset_of(ip("192.168.1.243")), None, "broadcast");
    assert_eq!(r.offset_of(ip("192.168.1.244")), None, "outside");
    assert_eq!(r.ip_at(0), ip("192.168.1.241"));
}

#[test]
fn ipv6_last_address_is_usable_and_large_ranges_are_capped() {
    let small = Range::new(net("2001:db8::/120"), Behavior::V1_29);
    assert_eq!(small.offset_of(ip("2001:db8::ff")), Some(254));
    let capped = Range::new(net("2001:db8:1::/48"), Behavior::V1_29);
    assert_eq!(capped.offset_of(ip("2001:db8:1::ffff")), Some(65534));
    assert_eq!(capped.offset_of(ip("2001:db8:1::1:0")), None);
    assert_eq!(capped.family(), IpFamily::IPv6);
}

#[test]
fn a_cidr_with_host_bits_is_its_network() {
    let r = Range::new(net("10.96.0.5/12"), Behavior::V1_29);
    assert_eq!(r.cidr().to_string(), "10.96.0.0/12");
    assert_eq!(r.snapshot().range, "10.96.0.0/12");
    assert_eq!(r.ip_at(0), ip("10.96.0.1"));
}

#[test]
fn errors_carry_kubernetes_texts() {
    let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    assert_eq!(r.allocate(ip("10.0.0.10")), Ok(()));
    let taken = r.allocate(ip("10.0.0.10")).unwrap_err();
    assert_eq!(taken, Error::Allocated);
    assert_eq!(taken.to_string(), "provided IP is already allocated");
    assert_eq!(
        r.allocate(ip("10.0.1.1")).unwrap_err().to_string(),
        "the provided IP (10.0.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24"
    );
    assert_eq!(
        r.allocate(ip("10.0.0.255")).unwrap_err().to_string(),
        "the provided IP (10.0.0.255) is not in the valid range. The range of valid IPs is 10.0.0.0/24"
    );
    // 1.20/1.21's ErrNotInRange names no IP (the IP came with bitmap.go's ErrNotInRange type).
    let mut old = Range::new(net("10.0.0.0/24"), Behavior::V1_20);
    assert_eq!(
        old.allocate(ip("10.0.1.1")).unwrap_err().to_string(),
        "provided IP is not in the valid range. The range of valid IPs is 10.0.0.0/24"
    );
    assert!(matches!(r.allocate(ip("fd00::1")), Err(Error::NotInRange { .. })));
    assert_eq!(Error::Full.to_string(), "range is full");
    assert_eq!(
        Error::MismatchedNetwork.to_string(),
        "the provided network does not match the current range"
    );
    assert_eq!(r.used(), 1);
}

#[test]
fn a_full_range_answers_full_for_next_but_per_ip_for_allocate() {
    let mut rng = SimRng::new(1);
    let mut r = Range::new(net("10.0.0.0/29"), Behavior::V1_29);
    for _ in 0..6 {
        r.allocate_next(&mut rng).unwrap();
    }
    assert_eq!(r.allocate_next(&mut rng), Err(Error::Full));
    assert_eq!(r.allocate(ip("10.0.0.3")), Err(Error::Allocated));
    assert_eq!(r.free(), 0);
}

#[test]
fn allocate_next_prefers_the_dynamic_band() {
    let mut rng = SimRng::new(9);
    let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    for _ in 0..238 {
        let got = r.allocate_next(&mut rng).unwrap();
        let offset = r.offset_of(got).unwrap();
        assert!(offset >= 16, "{got} is in the static band .1-.16 while the dynamic band has room");
    }
    let mut statics: Vec<_> = (0..16).map(|_| r.allocate_next(&mut rng).unwrap()).collect();
    statics.sort();
    assert_eq!(statics.first(), Some(&ip("10.0.0.1")));
    assert_eq!(statics.last(), Some(&ip("10.0.0.16")));
    assert_eq!(r.allocate_next(&mut rng), Err(Error::Full));
}

#[test]
fn behaviour_1_20_draws_from_the_whole_range() {
    let mut rng = SimRng::new(9);
    let mut lows = 0;
    for _ in 0..200 {
        let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_20);
        let got = r.allocate_next(&mut rng).unwrap();
        lows += (r.offset_of(got).unwrap() < 16) as usize;
    }
    assert!(lows > 0, "plain random scan reaches .1-.16 too");
}

#[test]
fn release_has_and_for_each() {
    let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    for s in ["10.0.0.200", "10.0.0.9", "10.0.0.10"] {
        r.allocate(ip(s)).unwrap();
    }
    assert_eq!(
        r.iter().collect::<Vec<_>>(),
        vec![ip("10.0.0.9"), ip("10.0.0.10"), ip("10.0.0.200")]
    );
    r.release(ip("10.0.0.9"));
    r.release(ip("10.0.0.9"));
    r.release(ip("192.168.0.1"));
    r.release(ip("10.0.0.0"));
    assert!(!r.has(ip("10.0.0.9")) && r.has(ip("10.0.0.10")) && !r.has(ip("8.8.8.8")));
    assert_eq!(r.used(), 2);
}

#[test]
fn snapshot_encodes_offsets_not_addresses() {
    let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    r.allocate(ip("10.0.0.4")).unwrap(); // offset 3
    assert_eq!(r.snapshot(), RangeAllocation { range: "10.0.0.0/24".into(), data: vec![0x08] });
    let mut k = Range::new(net("10.96.0.0/12"), Behavior::V1_29);
    k.allocate(ip("10.96.0.1")).unwrap();
    k.allocate(ip("10.96.0.10")).unwrap();
    assert_eq!(k.snapshot().data, vec![0x02, 0x01]);
}

#[test]
fn restore_requires_the_same_network_and_mask() {
    let mut r = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    assert_eq!(r.restore(&net("10.0.1.0/24"), &[1]), Err(Error::MismatchedNetwork));
    assert_eq!(r.restore(&net("10.0.0.0/16"), &[1]), Err(Error::MismatchedNetwork));
    assert_eq!(r.restore(&net("fd00::/120"), &[1]), Err(Error::MismatchedNetwork));
    assert_eq!(r.used(), 0);
    r.restore(&net("10.0.0.0/24"), &[0x08]).unwrap();
    assert!(r.has(ip("10.0.0.4")));
}

#[test]
fn from_snapshot_uses_the_snapshots_own_range() {
    let mut old = Range::new(net("10.0.0.0/24"), Behavior::V1_29);
    old.allocate(ip("10.0.0.7")).unwrap();
    let restored = Range::from_snapshot(&old.snapshot(), Behavior::V1_29).unwrap();
    assert_eq!(restored.cidr(), net("10.0.0.0/24"));
    assert_eq!(restored.iter().collect::<Vec<_>>(), vec![ip("10.0.0.7")]);
    let bad = RangeAllocation { range: "garbage".into(), data: vec![] };
    assert_eq!(
        Range::from_snapshot(&bad, Behavior::V1_29).unwrap_err().to_string(),
        "invalid CIDR address: garbage"
    );
}

#[test]
fn snapshot_restore_round_trips_for_both_families() {
    let mut rng = SimRng::new(4);
    for cidr in ["10.96.0.0/16", "fd00:10:96::/112"] {
        let mut r = Range::new(net(cidr), Behavior::V1_29);
        for _ in 0..500 {
            r.allocate_next(&mut rng).unwrap();
        }
        let back = Range::from_snapshot(&r.snapshot(), Behavior::V1_29).unwrap();
        assert_eq!(back.iter().collect::<Vec<_>>(), r.iter().collect::<Vec<_>>());
        assert_eq!(back.used(), 500);
    }
}
