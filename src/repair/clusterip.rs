//! The ClusterIP repair loop (`ipallocator/controller/repair.go`, bitmap mode, per family).

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::net::IpAddr;

use ipnet::IpNet;

use super::check_leaked;
use crate::api::{parse_ip, Behavior, IpFamily, RangeAllocation, Service};
use crate::event::{EventKind, Recorder};
use crate::ipallocator::{family_of, Error, Range};

pub const COMPONENT: &str = "ipallocator-repair-controller";

/// One repair controller of one apiserver: its configured networks and its own leak counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterIpRepair {
    behavior: Behavior,
    /// `--service-cluster-ip-range`, primary first.
    networks: Vec<IpNet>,
    leaks: BTreeMap<IpFamily, BTreeMap<IpAddr, i32>>,
}

impl ClusterIpRepair {
    pub fn new(networks: Vec<IpNet>, behavior: Behavior) -> Self {
        let leaks = networks
            .iter()
            .map(|n| (family_of(n), BTreeMap::new()))
            .collect();
        ClusterIpRepair {
            behavior,
            networks,
            leaks,
        }
    }

    /// Leak counters of one family (runs left before the IP is freed).
    pub fn leaks(&self, family: IpFamily) -> Option<&BTreeMap<IpAddr, i32>> {
        self.leaks.get(&family)
    }

    /// One `runOnce`. `snapshots` holds the stored object of each configured network, in the same
    /// order (an object with an empty range was never initialised); `services` is the full list in
    /// namespace/name order. Returns the objects to write back, each carrying the configured range.
    pub fn run_once<S: Borrow<Service>>(
        &mut self,
        snapshots: &[RangeAllocation],
        services: &[S],
        rec: &mut Recorder,
    ) -> Result<Vec<RangeAllocation>, String> {
        assert_eq!(
            snapshots.len(),
            self.networks.len(),
            "one snapshot per configured network"
        );
        let mut stored = Vec::with_capacity(self.networks.len());
        for (network, snapshot) in self.networks.iter().zip(snapshots) {
            let mut snapshot = snapshot.clone();
            if snapshot.range.is_empty() {
                snapshot.range = network.to_string();
            }
            let family = family_of(network);
            stored.push(Range::from_snapshot(&snapshot, self.behavior).map_err(|e| {
                format!(
                    "unable to rebuild allocator from snapshots for family:{family} with error:{e}"
                )
            })?);
        }
        let mut rebuilt: Vec<Range> = self
            .networks
            .iter()
            .map(|n| Range::new(*n, self.behavior))
            .collect();

        for svc in services
            .iter()
            .map(Borrow::borrow)
            .filter(|s: &&Service| s.is_ip_set())
        {
            // Built only when something is reported: a run over many services stays cheap.
            let object = || svc.key();
            for raw in svc.cluster_ips() {
                let Some(ip) = parse_ip(raw) else {
                    // Upstream prints the parsed value, which is nil.
                    rec.warning(
                        COMPONENT,
                        EventKind::ClusterIpNotValid,
                        &object(),
                        "Cluster IP <nil> is not a valid IP; please recreate service".to_string(),
                    );
                    rec.log(
                        COMPONENT,
                        EventKind::RepairDetail,
                        format!(
                        "the cluster IP <nil> for service {}/{} is not a valid IP; please recreate",
                        svc.name, svc.namespace),
                    );
                    continue;
                };
                let family = IpFamily::of(&ip);
                let Some(i) = rebuilt.iter().position(|r| r.family() == family) else {
                    rec.warning(COMPONENT, EventKind::ClusterIpNotValid, &object(), format!(
                        "Cluster IP {ip}({family}) is of ip family that is no longer configured on cluster; please recreate service"));
                    rec.log(COMPONENT, EventKind::RepairDetail, format!(
                        "the cluster IP {ip}({family}) for service {}/{} is of ip family that is no longer configured on cluster; please recreate",
                        svc.name, svc.namespace));
                    continue;
                };
                // The log lines name the service as name/namespace, as upstream's do.
                let who = || format!("{}/{}", svc.name, svc.namespace);
                match rebuilt[i].allocate(ip) {
                    Ok(()) => {
                        if stored[i].has(ip) {
                            // Taken out of the old set, so what remains there are leaks.
                            stored[i].release(ip);
                        } else {
                            rec.warning(
                                COMPONENT,
                                EventKind::ClusterIpNotAllocated,
                                &object(),
                                format!("Cluster IP [{family}]:{ip} is not allocated; repairing"),
                            );
                            rec.log(COMPONENT, EventKind::RepairDetail, format!(
                                "the cluster IP [{family}]:{ip} for service {} is not allocated; repairing", who()));
                        }
                        if let Some(leaks) = self.leaks.get_mut(&family) {
                            leaks.remove(&ip);
                        }
                    }
                    Err(Error::Allocated) => {
                        rec.warning(COMPONENT, EventKind::ClusterIpAlreadyAllocated, &object(), format!(
                            "Cluster IP [{family}]:{ip} was assigned to multiple services; please recreate service"));
                        rec.log(COMPONENT, EventKind::RepairDetail, format!(
                            "the cluster IP [{family}]:{ip} for service {} was assigned to multiple services; please recreate", who()));
                    }
                    Err(Error::NotInRange { .. }) => {
                        let cidr = self.networks[i];
                        rec.warning(COMPONENT, EventKind::ClusterIpOutOfRange, &object(), format!(
                            "Cluster IP [{family}]:{ip} is not within the service CIDR {cidr}; please recreate service"));
                        rec.log(COMPONENT, EventKind::RepairDetail, format!(
                            "the cluster IP [{family}]:{ip} for service {} is not within the service CIDR {cidr}; please recreate", who()));
                    }
                    Err(Error::Full) => {
                        // Unreachable in practice: Allocate never answers Full.
                        let cidr = rebuilt[i].cidr();
                        let text = format!("Service CIDR {cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [{family}]:{ip}");
                        rec.warning(COMPONENT, EventKind::ServiceCidrFull, &object(), text);
                        return Err(format!("the service CIDR {cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [{family}]:{ip}"));
                    }
                    Err(e) => {
                        rec.warning(COMPONENT, EventKind::RepairUnknownError, &object(), format!(
                            "Unable to allocate cluster IP [{family}]:{ip} due to an unknown error"));
                        return Err(format!(
                            "unable to allocate cluster IP [{family}]:{ip} for service {} due to an unknown error, exiting: {e}", who()));
                    }
                }
            }
        }

        for (i, network) in self.networks.iter().enumerate() {
            let leaks = self.leaks.entry(family_of(network)).or_default();
            let leftovers: Vec<IpAddr> = stored[i].iter().collect();
            let rebuilt = &mut rebuilt[i];
            check_leaked(
                leaks,
                leftovers,
                "cluster IP",
                |ip| rebuilt.allocate(*ip).map_err(|e| e.to_string()),
                |kind, line| rec.log(COMPONENT, kind, line),
            );
        }
        Ok(rebuilt.iter().map(Range::snapshot).collect())
    }
}
