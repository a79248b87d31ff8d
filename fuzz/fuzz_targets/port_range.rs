//! `portallocator::PortRange::parse` and `options::parse_service_node_port_range`
//! (`--service-node-port-range`: `a-b`, `a`, `a+n`), directly and as a scenario's
//! `cluster.service_node_port_range`.
#![no_main]

use engine::contract::scenario;
use k8s::options::parse_service_node_port_range;
use k8s::portallocator::PortRange;
use kube_bootstrap_lab_fuzz::{one_message, scenario_with, text};
use libfuzzer_sys::fuzz_target;

const FIELD: &str = "cluster.service_node_port_range";

fn sane(s: &str, r: &PortRange) {
    assert!(r.base >= 0 && r.size >= 0, "{s:?}: {r:?}");
    assert!(r.base as i64 + r.size as i64 - 1 <= 65535, "{s:?}: {r:?} beyond 65535");
    if r.size > 0 {
        // What it prints reads back the same.
        assert_eq!(PortRange::parse(&r.to_string()).as_ref(), Ok(r), "{s:?}");
        assert!(r.contains(r.base) && r.contains(r.base + r.size - 1));
        assert!(!r.contains(r.base - 1) && !r.contains(r.base + r.size));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(s) = text(data) else { return };
    match PortRange::parse(s) {
        Ok(r) => sane(s, &r),
        Err(e) => one_message("port range", &e),
    }
    let flag = parse_service_node_port_range(s);
    match &flag {
        Ok(r) => sane(s, r),
        Err(e) => one_message("--service-node-port-range", e),
    }
    let file = scenario_with("1.29", FIELD, s);
    match (scenario::parse(&file), flag) {
        (Ok(sc), Ok(r)) => assert_eq!(sc.cluster.node_ports, r),
        (Err(got), Err(e)) => assert_eq!(got, format!("{FIELD}: {e}")),
        (got, want) => panic!("{s:?}: the file gives {got:?}, the flag {want:?}"),
    }
});
