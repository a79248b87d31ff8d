//! The NodePort repair loop (`portallocator/controller/repair.go`).

use std::borrow::Borrow;
use std::collections::BTreeMap;

use super::{report, Pass};
use crate::api::{Behavior, Protocol, RangeAllocation, Service};
use crate::event::{EventKind, Recorder};
use crate::portallocator::{Error, PortRange};

/// The component of its events (`portallocator-repair-controller`).
pub const COMPONENT: &str = "portallocator-repair-controller";

/// One NodePort repair controller of one apiserver (`Repair`): its configured range and its own
/// leak counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodePortRepair {
    behavior: Behavior,
    /// `--service-node-port-range`.
    range: PortRange,
    leaks: BTreeMap<i32, i32>,
}

/// `collectServiceNodePorts`: every non-zero nodePort, where the same port repeated with the same
/// protocol is kept twice (the second copy is then a duplicate) and with another protocol is kept
/// once; then `healthCheckNodePort`, unless it equals a nodePort seen only with other protocols
/// than TCP. The Service type is not looked at.
pub fn collect_service_node_ports(svc: &Service) -> Vec<i32> {
    let mut ports = Vec::new();
    let mut seen: BTreeMap<i32, Vec<Protocol>> = BTreeMap::new();
    for p in svc.ports.iter().filter(|p| p.node_port != 0) {
        let protocols = seen.entry(p.node_port).or_default();
        if protocols.is_empty() || protocols.contains(&p.protocol) {
            ports.push(p.node_port);
        }
        if !protocols.contains(&p.protocol) {
            protocols.push(p.protocol);
        }
    }
    let health = svc.health_check_node_port;
    if health != 0 && seen.get(&health).is_none_or(|protocols| protocols.contains(&Protocol::TCP)) {
        ports.push(health);
    }
    ports
}

impl NodePortRepair {
    /// `NewRepair` over `range`, with no leak counted yet.
    pub fn new(range: PortRange, behavior: Behavior) -> Self {
        NodePortRepair { behavior, range, leaks: BTreeMap::new() }
    }

    /// Leak counters (runs left before the port is freed).
    pub fn leaks(&self) -> &BTreeMap<i32, i32> {
        &self.leaks
    }

    /// One `runOnce` over the stored object (empty range = never initialised) and every Service
    /// in namespace/name order. Returns the object to write back, carrying the configured range.
    pub fn run_once<S: Borrow<Service>>(
        &mut self,
        snapshot: &RangeAllocation,
        services: &[S],
        rec: &mut Recorder,
    ) -> Result<RangeAllocation, String> {
        let mut pass = Pass::open(self.range, snapshot, self.behavior)
            .map_err(|e| format!("unable to rebuild allocator from snapshot: {e}"))?;
        for svc in services.iter().map(Borrow::borrow) {
            for port in collect_service_node_ports(svc) {
                self.check_node_port(&mut pass, svc, port, rec)?;
            }
        }
        Ok(pass.finish(&mut self.leaks, "node port", |kind, line| rec.log(COMPONENT, kind, line)))
    }

    /// One NodePort of one Service: marked in use, or reported.
    fn check_node_port(
        &mut self,
        pass: &mut Pass<PortRange>,
        svc: &Service,
        port: i32,
        rec: &mut Recorder,
    ) -> Result<(), String> {
        let range = self.range;
        // The log lines name the service as name/namespace, as upstream's do.
        let who = || format!("{}/{}", svc.name, svc.namespace);
        match pass.mark(port, &mut self.leaks) {
            Ok(true) => {}
            Ok(false) => report(rec, COMPONENT, svc, EventKind::PortNotAllocated,
                format!("Port {port} is not allocated; repairing"),
                format!("the node port {port} for service {} is not allocated; repairing", who())),
            Err(Error::Allocated) => report(rec, COMPONENT, svc, EventKind::PortAlreadyAllocated,
                format!("Port {port} was assigned to multiple services; please recreate service"),
                format!("the node port {port} for service {} was assigned to multiple services; please recreate", who())),
            Err(Error::NotInRange { .. }) => report(rec, COMPONENT, svc, EventKind::PortOutOfRange,
                format!("Port {port} is not within the port range {range}; please recreate service"),
                format!("the port {port} for service {} is not within the port range {range}; please recreate", who())),
            Err(Error::Full) => {
                // Unreachable in practice: Allocate never answers Full.
                rec.warning(COMPONENT, EventKind::PortRangeFull, &svc.key(), format!(
                    "Port range {range} is full; you must widen the port range in order to create new services"));
                return Err(format!(
                    "the port range {range} is full; you must widen the port range in order to create new services"));
            }
            Err(e) => {
                rec.warning(COMPONENT, EventKind::RepairUnknownError, &svc.key(),
                    format!("Unable to allocate port {port} due to an unknown error"));
                return Err(format!(
                    "unable to allocate port {port} for service {} due to an unknown error, exiting: {e}", who()));
            }
        }
        Ok(())
    }
}
