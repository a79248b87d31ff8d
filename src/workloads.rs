//! Fixed workloads shared by the native benchmarks (`cargo bench`) and the same figures taken in
//! headless Chromium, so both measure exactly the same work. Each returns a checksum so that the
//! optimiser cannot drop the work and callers can check both builds computed the same thing.

use ipnet::IpNet;

use crate::api::{Behavior, RangeAllocation, Service};
use crate::event::Recorder;
use crate::ipallocator::Range;
use crate::repair::ClusterIpRepair;
use crate::rng::SimRng;

fn cidr(s: &str) -> IpNet {
    s.parse().expect("workload CIDR")
}

/// AllocateNext until the range is full; returns how many IPs were handed out.
pub fn fill(range_cidr: &str, seed: u64) -> u64 {
    let mut range = Range::new(cidr(range_cidr), Behavior::V1_29);
    let mut rng = SimRng::new(seed);
    let mut n = 0;
    while range.allocate_next(&mut rng).is_ok() {
        n += 1;
    }
    n
}

/// A /16 filled to `percent` %, then `ops` rounds of release-a-random-IP / AllocateNext.
/// Returns the sum of the offsets handed out.
pub fn churn(percent: u64, ops: u64, seed: u64) -> u64 {
    let mut range = Range::new(cidr("10.0.0.0/16"), Behavior::V1_29);
    let mut rng = SimRng::new(seed);
    let target = range.size() as u64 * percent / 100;
    let mut held = Vec::with_capacity(target as usize);
    while (held.len() as u64) < target {
        held.push(range.allocate_next(&mut rng).expect("below full"));
    }
    let mut sum = 0u64;
    for _ in 0..ops {
        let i = rng.intn(held.len());
        range.release(held[i]);
        let ip = range.allocate_next(&mut rng).expect("one was just freed");
        sum += range.offset_of(ip).unwrap_or(0) as u64;
        held[i] = ip;
    }
    sum
}

/// A stored /12 snapshot and `n` services holding distinct IPs of it (every 7th one missing from
/// the snapshot, plus `n / 100` leaked bits), ready for one repair run.
pub fn repair_setup(n: usize) -> (RangeAllocation, Vec<Service>) {
    let net = cidr("10.96.0.0/12");
    let mut stored = Range::new(net, Behavior::V1_29);
    let mut services = Vec::with_capacity(n);
    for i in 0..n {
        let ip = stored.ip_at(i * 3);
        if i % 7 != 0 {
            stored.allocate(ip).expect("fresh IP");
        }
        services.push(Service {
            namespace: format!("ns-{:03}", i % 100),
            name: format!("svc-{i:06}"),
            cluster_ip: ip.to_string(),
            ..Service::default()
        });
    }
    for i in 0..n / 100 {
        stored.allocate(stored.ip_at(i * 3 + 1)).expect("fresh IP");
    }
    services.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    (stored.snapshot(), services)
}

/// One ClusterIP repair run; returns the number of IPs it stored and the events it recorded.
pub fn repair_run(snapshot: &RangeAllocation, services: &[Service]) -> (u64, usize) {
    let mut repair = ClusterIpRepair::new(vec![cidr("10.96.0.0/12")], Behavior::V1_29);
    let mut rec = Recorder::new(0, "bench");
    let written = repair
        .run_once(std::slice::from_ref(snapshot), services, &mut rec)
        .expect("repair run");
    let range = Range::from_snapshot(&written[0], Behavior::V1_29).expect("written snapshot");
    (range.used() as u64, rec.events.len())
}

/// A cluster of `apiservers` lease-reconciled apiservers on a /12 with `services` ClusterIP
/// Services (IPs already allocated), as scenario JSON, for the control-plane benchmarks.
pub fn control_plane_scenario(apiservers: usize, services: usize) -> crate::scenario::Scenario {
    let net = cidr("10.96.0.0/12");
    let mut stored = Range::new(net, Behavior::V1_29);
    let kubernetes = stored.ip_at(0);
    stored.allocate(kubernetes).expect("fresh");
    let svcs: Vec<serde_json::Value> = (0..services)
        .map(|i| {
            let ip = stored.ip_at(1000 + i);
            stored.allocate(ip).expect("fresh");
            serde_json::json!({"namespace": "default", "name": format!("svc-{i:05}"), "cluster_ip": ip.to_string(),
                "ports": [{"port": 80}]})
        })
        .collect();
    let allocated: Vec<String> = stored.iter().map(|ip| ip.to_string()).collect();
    let servers: Vec<serde_json::Value> = (0..apiservers)
        .map(|i| serde_json::json!({"name": format!("apiserver-{i}"), "advertise_address": format!("192.168.10.{}", 11 + i)}))
        .collect();
    let file = serde_json::json!({
        "name": "bench", "seed": 1,
        "cluster": {"service_cluster_ip_range": "10.96.0.0/12", "apiservers": servers},
        "initial": {"namespaces": ["default"], "services": svcs,
            "cluster_ip_allocation": {"range": "10.96.0.0/12", "allocated": allocated}},
    });
    crate::scenario::parse(&file.to_string()).expect("bench scenario is valid")
}
