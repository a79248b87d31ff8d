//! `options::parse_service_cluster_ip_range[_for]` (`--service-cluster-ip-range`, a list such
//! as `10.96.0.0/12,fd00::/108`) under every behaviour, directly and as a scenario's
//! `cluster.service_cluster_ip_range`.
#![no_main]

use engine::contract::api::{Behavior, IpFamily};
use engine::contract::scenario;
use k8s::options::{parse_service_cluster_ip_range, parse_service_cluster_ip_range_for};
use kube_bootstrap_lab_fuzz::{one_message, scenario_with, text};
use libfuzzer_sys::fuzz_target;

const FIELD: &str = "cluster.service_cluster_ip_range";

fuzz_target!(|data: &[u8]| {
    let Some(s) = text(data) else { return };
    assert_eq!(
        parse_service_cluster_ip_range(s),
        parse_service_cluster_ip_range_for(s, Behavior::V1_29)
    );
    for &b in Behavior::ALL {
        let direct = parse_service_cluster_ip_range_for(s, b);
        match &direct {
            Ok(r) => {
                let ip = r.kubernetes_service_ip();
                assert!(r.primary.contains(&ip), "{s:?}: {ip} outside {}", r.primary);
                if let Some(second) = r.secondary {
                    let (a, b) = (IpFamily::of(&r.primary.addr()), IpFamily::of(&second.addr()));
                    assert_ne!(a, b, "{s:?}: one family twice");
                }
            }
            Err(e) => one_message("cidr", e),
        }
        let file = scenario_with(b.as_str(), FIELD, s);
        match (scenario::parse(&file), direct) {
            (Ok(sc), Ok(r)) => assert_eq!(sc.cluster.service_ip_ranges, r),
            (Err(got), Err(e)) => assert_eq!(got, format!("{FIELD}: {e}")),
            (got, want) => panic!("{b} {s:?}: the file gives {got:?}, the flag {want:?}"),
        }
    }
});
