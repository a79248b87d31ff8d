//! §6 of the contract (behaviours 1.33 and 1.35), the allocators and repair's verdict on their
//! own: the per-CIDR allocator, the MetaAllocator over ServiceCIDRs, ServiceCIDR validation and
//! RepairIPAddress's decision on one IPAddress. The cases follow upstream's
//! `ipallocator_test.go`, `cidrallocator_test.go` and `repairip_test.go`; the world's cases are
//! in `servicecidr.rs`.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use k8s::api::{IpAddress, ParentReference, Service, ServiceCidr};
use k8s::ipallocator::cidrallocator::{self, allocator_for, allocators, Error};
use k8s::ipallocator::ipaddress::CidrRange;
use k8s::repair::repairip::{ip_address_verdict, IpAddressVerdict, ORPHAN_GRACE_MS};
use k8s::rng::SimRng;

use super::{ip, net};

// ---- the per-CIDR allocator (ipallocator_test.go) ----------------------------------------

#[test]
fn a_cidr_range_has_upstreams_bounds_and_band() {
    let r = CidrRange::new(net("192.168.1.0/28"));
    assert_eq!((r.size(), r.static_band()), (14, 0), "a /28: 14 addresses, no band");
    assert!(!r.contains(ip("192.168.1.0")), "the network address");
    assert!(r.contains(ip("192.168.1.1")) && r.contains(ip("192.168.1.14")));
    assert!(!r.contains(ip("192.168.1.15")), "the broadcast address");
    assert_eq!(CidrRange::new(net("10.0.0.0/24")).static_band(), 16);
    assert_eq!(CidrRange::new(net("10.96.0.0/12")).static_band(), 256);
    let v6 = CidrRange::new(net("2001:db8::/120"));
    assert_eq!(v6.size(), 255, "IPv6 has no broadcast: the all-ones address is usable");
    assert!(v6.contains(ip("2001:db8::ff")));
    let big = CidrRange::new(net("fd00::/64"));
    assert_eq!(big.size(), (1u128 << 64) - 1);
    assert!(!CidrRange::new(net("10.0.0.0/24")).contains(ip("fd00::1")));
}

#[test]
fn dynamic_allocation_fills_the_upper_band_before_the_static_one() {
    // TestAllocateNextServiceCIDR-like: a /24 has a 16-address static band.
    let r = CidrRange::new(net("10.0.0.0/24"));
    let mut rng = SimRng::new(7);
    let mut taken = std::collections::BTreeSet::new();
    for _ in 0..(254 - 16) {
        let got = r.next_free(&mut rng, |ip| taken.contains(&ip)).unwrap();
        assert!(r.offset_of(got).unwrap() >= 16, "{got} is in the static band");
        assert!(taken.insert(got), "{got} given twice");
    }
    for _ in 0..16 {
        let got = r.next_free(&mut rng, |ip| taken.contains(&ip)).unwrap();
        assert!(r.offset_of(got).unwrap() < 16, "the upper band is full");
        taken.insert(got);
    }
    assert_eq!(r.next_free(&mut rng, |ip| taken.contains(&ip)), None, "full");
}

#[test]
fn the_same_seed_scans_the_same_way() {
    let r = CidrRange::new(net("10.96.0.0/12"));
    let picks = |seed| {
        let mut rng = SimRng::new(seed);
        (0..5).map(|_| r.next_free(&mut rng, |_| false).unwrap()).collect::<Vec<_>>()
    };
    assert_eq!(picks(3), picks(3));
    assert_ne!(picks(3), picks(4));
}

// ---- the MetaAllocator (cidrallocator_test.go) -------------------------------------------

fn cidr(name: &str, cidrs: &[&str]) -> ServiceCidr {
    ServiceCidr::new(name, cidrs.iter().map(|c| c.to_string()).collect())
}

#[test]
fn overlapping_service_cidrs_share_one_allocator_that_is_ready_if_one_of_them_is() {
    let mut a = cidr("a", &["10.0.0.0/24"]);
    let b = cidr("b", &["10.0.0.0/24", "fd00::/120"]);
    a.deleting = true;
    let list = [&a, &b];
    let items = allocators(&list, k8s::api::IpFamily::IPv4);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].service_cidrs, vec!["a", "b"]);
    assert!(items[0].ready, "b is not deleting and has no condition yet: assumed ready");
    let only_a = allocators(&[&a], k8s::api::IpFamily::IPv4);
    assert!(!only_a[0].ready, "a deleting ServiceCIDR takes no allocations");
    let mut not_ready = cidr("c", &["10.1.0.0/24"]);
    not_ready.set_ready(false, "Terminating", "x");
    let items = allocators(&[&not_ready], k8s::api::IpFamily::IPv4);
    assert!(!items[0].ready, "Ready=False");
}

#[test]
fn get_allocator_excludes_network_and_broadcast_and_respects_readiness() {
    let mut a = cidr("a", &["10.0.0.0/24"]);
    let items = allocators(&[&a], k8s::api::IpFamily::IPv4);
    assert!(allocator_for(&items, ip("10.0.0.7"), true).is_ok());
    for bad in ["10.0.0.0", "10.0.0.255", "10.0.1.1"] {
        assert_eq!(
            allocator_for(&items, ip(bad), true).unwrap_err(),
            Error::MismatchedNetwork,
            "{bad}"
        );
    }
    a.deleting = true;
    let items = allocators(&[&a], k8s::api::IpFamily::IPv4);
    assert!(allocator_for(&items, ip("10.0.0.7"), true).is_err(), "not ready");
    assert!(allocator_for(&items, ip("10.0.0.7"), false).is_ok(), "release works on it");
    assert_eq!(
        Error::MismatchedNetwork.to_string(),
        "the provided network does not match the current range"
    );
    assert_eq!(Error::Full.to_string(), "range is full");
}

#[test]
fn dynamic_order_tries_only_ready_allocators_from_a_seeded_start() {
    let a = cidr("a", &["10.0.0.0/24"]);
    let b = cidr("b", &["10.1.0.0/24"]);
    let mut c = cidr("c", &["10.2.0.0/24"]);
    c.deleting = true;
    let items = allocators(&[&a, &b, &c], k8s::api::IpFamily::IPv4);
    let starts: std::collections::BTreeSet<String> = (0..20)
        .map(|seed| {
            let order = cidrallocator::dynamic_order(&items, &mut SimRng::new(seed));
            assert_eq!(order.len(), 2, "the deleting one is skipped");
            order[0].range.net().to_string()
        })
        .collect();
    assert_eq!(starts.len(), 2, "either ready allocator may come first");
}

#[test]
fn service_cidr_validation_keeps_the_apis_texts() {
    let err = |name: &str, cidrs: &[&str]| {
        ServiceCidr::validate(name, &cidrs.iter().map(|c| c.to_string()).collect::<Vec<_>>())
            .unwrap_err()
    };
    assert_eq!(
        err("x", &[]),
        "ServiceCIDR.networking.k8s.io \"x\" is invalid: spec.cidrs: Required value: at least one CIDR required"
    );
    assert!(err("x", &["10.0.0.0/24", "10.1.0.0/24"]).ends_with(
        "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"
    ));
    assert!(err("x", &["10.0.0.0/24", "fd00::/64", "10.2.0.0/24"])
        .ends_with("may only hold up to 2 values"));
    assert!(err("x", &["10.0.0.0/33"])
        .contains("spec.cidrs[0]: Invalid value: \"10.0.0.0/33\": must be a valid CIDR value"));
    assert!(err("Bad_Name", &["10.0.0.0/24"])
        .contains("metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"));
    assert!(ServiceCidr::validate("ok", &["10.0.0.0/24".into(), "fd00::/64".into()]).is_ok());
}

// ---- RepairIPAddress's decision on one IPAddress (repairip_test.go) ----------------------

fn svc(name: &str, ip: &str) -> Service {
    Service {
        namespace: "default".into(),
        name: name.into(),
        cluster_ip: ip.into(),
        cluster_ips: vec![ip.into()],
        ..Default::default()
    }
}

#[test]
fn an_ip_address_is_judged_by_its_parent() {
    let a = IpAddress::allocated(ip("10.0.0.5"), ParentReference::service("default", "web"), 1_000);
    assert_eq!(ip_address_verdict(&a, Some(&svc("web", "10.0.0.5"))), IpAddressVerdict::Ok);
    assert_eq!(
        ip_address_verdict(&a, Some(&svc("web", "10.0.0.6"))),
        IpAddressVerdict::WrongReference
    );
    assert_eq!(
        ip_address_verdict(&a, None),
        IpAddressVerdict::Orphan { deletable_at_ms: 1_000 + ORPHAN_GRACE_MS as i64 }
    );
    let mut gateway = a.clone();
    gateway.parent.group = "gateway.networking.k8s.io".into();
    gateway.parent.resource = "gateways".into();
    assert_eq!(ip_address_verdict(&gateway, None), IpAddressVerdict::NotService);
    let mut foreign = a.clone();
    foreign.labels.clear();
    assert_eq!(ip_address_verdict(&foreign, None), IpAddressVerdict::Unmanaged);
}
