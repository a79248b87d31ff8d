//! The repair loops as one apiserver runs them: every `repair_interval`, and at start as the
//! post-start hook `start-service-ip-repair-controllers` (1.27+; readiness waits for their first
//! success) or synchronously in `Start()` (1.20, which exits if one fails).

use super::Apiserver;
use crate::event::EventKind;
use crate::registry::Storage;
use crate::repair::{clusterip, nodeport};

impl Apiserver {
    /// One run of both repair loops (each logs its own failure and tries again next interval).
    /// The first success of both completes the post-start hook.
    pub(crate) fn run_repairs(&mut self, st: &mut Storage) {
        match self.repair_cluster_ips(st) {
            Ok(()) => self.ip_repair_ok = true,
            Err(e) => st.rec.log(clusterip::COMPONENT, EventKind::RepairFailed, e),
        }
        match self.repair_node_ports(st) {
            Ok(()) => self.port_repair_ok = true,
            Err(e) => st.rec.log(nodeport::COMPONENT, EventKind::RepairFailed, e),
        }
        if self.ip_repair_ok && self.port_repair_ok {
            self.hooks_done = true;
        }
    }

    pub(super) fn repair_cluster_ips(&mut self, st: &mut Storage) -> Result<(), String> {
        st.check()
            .map_err(|e| format!("unable to refresh the service IP block: {e}"))?;
        let read: Vec<_> = self.allocators.ips.iter().map(|v| v.stored(st)).collect();
        let snapshots: Vec<_> = read.iter().map(|(r, _)| r.clone()).collect();
        let services = st.etcd.services(st.now);
        let written = self.ip_repair.run_once(&snapshots, &services, st.rec)?;
        for ((view, snapshot), (_, read_rev)) in
            self.allocators.ips.iter_mut().zip(written).zip(read)
        {
            view.create_or_update(st, snapshot, read_rev);
        }
        Ok(())
    }

    pub(super) fn repair_node_ports(&mut self, st: &mut Storage) -> Result<(), String> {
        st.check()
            .map_err(|e| format!("unable to refresh the port allocations: {e}"))?;
        let (snapshot, read_rev) = self.allocators.ports.stored(st);
        let services = st.etcd.services(st.now);
        let written = self.port_repair.run_once(&snapshot, &services, st.rec)?;
        self.allocators
            .ports
            .create_or_update(st, written, read_rev);
        Ok(())
    }
}
