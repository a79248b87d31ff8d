//! The ClusterIP repair loop (`ipallocator/controller/repair.go`, bitmap mode, per family).

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::net::IpAddr;

use ipnet::IpNet;

use super::{report, Pass};
use crate::api::{parse_ip, Behavior, IpFamily, RangeAllocation, Service};
use crate::event::{EventKind, Recorder};
use crate::ipallocator::{family_of, Error};

/// The component of its events (`ipallocator-repair-controller`).
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
    /// `NewRepair` over `networks` (primary first), with no leak counted yet.
    pub fn new(networks: Vec<IpNet>, behavior: Behavior) -> Self {
        let leaks = networks.iter().map(|n| (family_of(n), BTreeMap::new())).collect();
        ClusterIpRepair { behavior, networks, leaks }
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
        assert_eq!(snapshots.len(), self.networks.len(), "one snapshot per configured network");
        let mut passes = self.open_passes(snapshots)?;
        for svc in services.iter().map(Borrow::borrow).filter(|s: &&Service| s.is_ip_set()) {
            for raw in svc.cluster_ips() {
                self.check_cluster_ip(&mut passes, svc, raw, rec)?;
            }
        }
        let written = self
            .networks
            .iter()
            .zip(passes)
            .map(|(network, pass)| {
                let leaks = self.leaks.entry(family_of(network)).or_default();
                pass.finish(leaks, "cluster IP", |kind, line| rec.log(COMPONENT, kind, line))
            })
            .collect();
        Ok(written)
    }

    /// The stored and the rebuilt range of each configured family.
    fn open_passes(&self, snapshots: &[RangeAllocation]) -> Result<Vec<Pass<IpNet>>, String> {
        self.networks
            .iter()
            .zip(snapshots)
            .map(|(network, snapshot)| {
                Pass::open(*network, snapshot, self.behavior).map_err(|e| {
                    let family = family_of(network);
                    format!(
                        "unable to rebuild allocator from snapshots for family:{family} with error:{e}"
                    )
                })
            })
            .collect()
    }

    /// One ClusterIP of one Service: marked in use in its family's range, or reported.
    fn check_cluster_ip(
        &mut self,
        passes: &mut [Pass<IpNet>],
        svc: &Service,
        raw: &str,
        rec: &mut Recorder,
    ) -> Result<(), String> {
        // The log lines name the service as name/namespace, as upstream's do.
        let who = || format!("{}/{}", svc.name, svc.namespace);
        let Some(ip) = parse_ip(raw) else {
            // Upstream prints the parsed value, which is nil.
            report(
                rec,
                COMPONENT,
                svc,
                EventKind::ClusterIpNotValid,
                "Cluster IP <nil> is not a valid IP; please recreate service".to_string(),
                format!(
                    "the cluster IP <nil> for service {}/{} is not a valid IP; please recreate",
                    svc.name, svc.namespace
                ),
            );
            return Ok(());
        };
        let family = IpFamily::of(&ip);
        let Some(i) = passes.iter().position(|p| p.rebuilt().family() == family) else {
            report(rec, COMPONENT, svc, EventKind::ClusterIpNotValid, format!(
                "Cluster IP {ip}({family}) is of ip family that is no longer configured on cluster; please recreate service"),
                format!("the cluster IP {ip}({family}) for service {}/{} is of ip family that is no longer configured on cluster; please recreate",
                svc.name, svc.namespace));
            return Ok(());
        };
        match passes[i].mark(ip, self.leaks.entry(family).or_default()) {
            Ok(true) => {}
            Ok(false) => report(rec, COMPONENT, svc, EventKind::ClusterIpNotAllocated,
                format!("Cluster IP [{family}]:{ip} is not allocated; repairing"),
                format!("the cluster IP [{family}]:{ip} for service {} is not allocated; repairing", who())),
            Err(Error::Allocated) => report(rec, COMPONENT, svc, EventKind::ClusterIpAlreadyAllocated,
                format!("Cluster IP [{family}]:{ip} was assigned to multiple services; please recreate service"),
                format!("the cluster IP [{family}]:{ip} for service {} was assigned to multiple services; please recreate", who())),
            Err(Error::NotInRange { .. }) => {
                let cidr = self.networks[i];
                report(rec, COMPONENT, svc, EventKind::ClusterIpOutOfRange,
                    format!("Cluster IP [{family}]:{ip} is not within the service CIDR {cidr}; please recreate service"),
                    format!("the cluster IP [{family}]:{ip} for service {} is not within the service CIDR {cidr}; please recreate", who()));
            }
            Err(Error::Full) => {
                // Unreachable in practice: Allocate never answers Full.
                let cidr = passes[i].rebuilt().cidr();
                let text = format!("Service CIDR {cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [{family}]:{ip}");
                rec.warning(COMPONENT, EventKind::ServiceCidrFull, &svc.key(), text);
                return Err(format!("the service CIDR {cidr} is full; you must widen the CIDR in order to create new services for Cluster IP [{family}]:{ip}"));
            }
            Err(e) => {
                rec.warning(COMPONENT, EventKind::RepairUnknownError, &svc.key(), format!(
                    "Unable to allocate cluster IP [{family}]:{ip} due to an unknown error"));
                return Err(format!(
                    "unable to allocate cluster IP [{family}]:{ip} for service {} due to an unknown error, exiting: {e}", who()));
            }
        }
        Ok(())
    }
}
