//! The random cluster of a seed: behaviour, reconciler, ranges, apiservers and intervals, as
//! scenario JSON with no steps.

use std::collections::BTreeSet;

use serde_json::{json, Value as Json};

use engine::contract::api::Behavior;
use k8s::portallocator::PortRange;

use super::{ms, Gen};

/// The random cluster of a seed, as scenario JSON text with no steps; under `only`, if given,
/// rather than the drawn behaviour.
pub(super) fn gen_cluster(g: &mut Gen, only: Option<Behavior>) -> String {
    let drawn = g.weighted(&[("1.20", 25), ("1.29", 25), ("1.33", 25), ("1.35", 25)]);
    // A forced behaviour keeps every later draw of the seed where it was.
    let behavior = only.map_or(drawn, |b| b.as_str());
    let reconciler = g.weighted(&[("lease", 60), ("master-count", 20), ("none", 20)]);
    let mut ranges =
        vec!["10.96.0.0/16", "10.0.0.0/24", "172.20.0.0/20", "10.10.0.0/27", "10.0.0.0/28"];
    if behavior == "1.35" {
        // No bitmap, so no /12 ceiling any more.
        ranges.push("10.64.0.0/10");
    }
    let range = *g.pick(&ranges);
    let node_ports = *g.pick(&["", "30000-32767", "30000-30031", "31000-31009"]);
    let n = 1 + g.below(5);
    // Distinct advertise addresses in 192.168.10.0/24.
    let mut hosts = BTreeSet::new();
    while hosts.len() < n {
        hosts.insert(1 + g.below(254));
    }
    let hosts: Vec<usize> = hosts.into_iter().collect();
    let mut apiservers = Vec::new();
    for (i, host) in hosts.iter().enumerate() {
        let mut a = json!({
            "name": format!("apiserver-{}", (b'a' + i as u8) as char),
            "advertise_address": format!("192.168.10.{host}"),
        });
        match g.below(10) {
            0 => a["start_at"] = json!(ms(g.between(1, 30) * 1000)),
            1 => a["start_at"] = Json::Null, // left for a start_apiserver action
            2 => a["startup_delay"] = json!(ms(g.between(1, 20) * 500)),
            _ => {}
        }
        apiservers.push(a);
    }
    // The endpoint interval always stays below the lease TTL, as with the defaults (10s / 15s):
    // otherwise every lease would lapse between two refreshes.
    let (interval, ttl) =
        *g.pick(&[("10s", "15s"), ("10s", "15s"), ("5s", "15s"), ("5s", "7s"), ("2s", "3s")]);
    let repair = *g.pick(&["3m", "3m", "1m", "30s"]);
    let mut cluster = json!({
        "service_cluster_ip_range": range,
        "endpoint_reconciler_type": reconciler,
        "endpoint_reconciler_interval": interval,
        "lease_ttl": ttl,
        "repair_interval": repair,
        "apiservers": apiservers,
    });
    if !node_ports.is_empty() {
        cluster["service_node_port_range"] = json!(node_ports);
    }
    if reconciler == "master-count" {
        // Sometimes right, sometimes wrong, as in real clusters.
        cluster["apiserver_count"] = json!(if g.chance(50) { n } else { 1 + g.below(5) });
    }
    if g.chance(15) {
        let range =
            PortRange::parse(if node_ports.is_empty() { "30000-32767" } else { node_ports })
                .unwrap();
        cluster["kubernetes_service_node_port"] =
            json!(range.base + g.below(range.size as usize) as i32);
    }
    json!({
        "name": "swarm",
        "seed": g.rng.next_u64() >> 11,
        "behavior": behavior,
        "cluster": cluster,
        "steps": [],
    })
    .to_string()
}
