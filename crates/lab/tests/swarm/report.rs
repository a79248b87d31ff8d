//! What the swarm reports: each seed's statistics (summed over seeds), the tally of notable
//! events and log lines, and the failure that names the first failing seeds.

use std::collections::BTreeMap;

use engine::contract::event::Event;

use crate::observer::Coverage;

/// What one seed did (and, summed, what the whole swarm did).
#[derive(Default, Clone, Debug)]
pub(crate) struct Stats {
    /// Seeds per behaviour (one per seed; summed over seeds).
    pub(crate) behaviors: BTreeMap<&'static str, u64>,
    pub(crate) steps: u64,
    pub(crate) actions: u64,
    pub(crate) failed_actions: u64,
    pub(crate) coverage: Coverage,
    /// Hits of known engine bugs (violations recorded without stopping the run).
    pub(crate) known: BTreeMap<&'static str, u64>,
    /// How often each notable event or log line happened (`SWARM_TALLY=1` prints it).
    pub(crate) tally: BTreeMap<&'static str, u64>,
}

/// Notable events and log lines, to see which paths the swarm reaches.
const TALLY: &[&str] = &[
    "ClusterIPNotAllocated",
    "ClusterIPAlreadyAllocated",
    "ClusterIPOutOfRange",
    "PortNotAllocated",
    "PortAlreadyAllocated",
    "PortOutOfRange",
    "may have leaked: flagging",
    "appears to have leaked",
    "unable to sync kubernetes service",
    "refusing to erase",
    "Found stale data",
    "RemoveEndpoints() timed out",
    "PostStartHook",
    "Unable to perform initial",
    "Resetting endpoints",
    "expired and etcd deleted the key",
    "range is full",
    "already allocated",
    "not in the valid range",
    "not within the service CIDR",
    "no apiserver can serve",
    // §6 (1.33 and 1.35)
    "IPAddressNotAllocated",
    "IPAddressWrongReference",
    "has a wrong reference",
    "was assigned to multiple services",
    "not within any configured Service CIDR",
    "does not match the current range",
    "KubernetesDefaultServiceCIDRInconsistent",
    "ServiceCIDR.networking.k8s.io",
    "servicecidrs.networking.k8s.io",
    "ipaddresses.networking.k8s.io",
    "dual write enabled but bitmap allocator does not exist",
];

/// How often each entry of `TALLY` appears in `events` (as a reason or in a message).
pub(crate) fn tally(events: &[Event]) -> BTreeMap<&'static str, u64> {
    let mut t = BTreeMap::new();
    for e in events {
        for k in TALLY {
            if e.reason == *k || e.message.contains(k) {
                *t.entry(*k).or_default() += 1;
            }
        }
    }
    t
}

/// Fails the test with the first failures, each with the command that replays its seed.
pub(crate) fn fail_with(failures: &[String], seeds: usize) {
    if !failures.is_empty() {
        let shown: Vec<&String> = failures.iter().take(5).collect();
        panic!(
            "{} of {} swarm seeds failed; first failures:\n\n{}",
            failures.len(),
            seeds,
            shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n\n")
        );
    }
}
