//! The repair loops as one apiserver runs them: every `repair_interval`, and at start as the
//! post-start hook `start-service-ip-repair-controllers` (1.28+; readiness waits for their first
//! success) or synchronously in `Start()` (1.20, up to 1.27; 1.20 exits if one fails). From 1.33 the
//! ClusterIP loop is RepairIPAddress, which first waits for the ServiceCIDR `kubernetes`.

use super::Apiserver;
use crate::api::Service;
use crate::etcd::Loop;
use crate::event::{EventKind, Recorder};
use crate::registry::Storage;
use crate::repair::repairip::{self, Client};
use crate::repair::{clusterip, nodeport, CleanRun};

impl Apiserver {
    /// One run of both repair loops (each logs its own failure and tries again next interval).
    /// The first success of both completes the post-start hook.
    pub fn run_repairs(&mut self, st: &mut Storage) {
        st.etcd.sending_from(Loop::Repair);
        if self.allocators.behavior.ip_addresses() {
            self.repair_ip_addresses(st);
        } else {
            match self.repair_cluster_ips(st) {
                Ok(()) => self.ip_repair_ok = true,
                Err(e) => st.rec.log(clusterip::COMPONENT, EventKind::RepairFailed, e),
            }
        }
        match self.repair_node_ports(st) {
            Ok(()) => self.port_repair_ok = true,
            Err(e) => st.rec.log(nodeport::COMPONENT, EventKind::RepairFailed, e),
        }
        if self.ip_repair_ok && self.port_repair_ok {
            self.hooks_done = true;
        }
    }

    /// RepairIPAddress's full pass: its first waits (silently, polling) for the ServiceCIDR
    /// `kubernetes`; later ones are the informers' resync.
    pub(crate) fn repair_ip_addresses(&mut self, st: &mut Storage) {
        st.etcd.sending_from(Loop::Repair);
        let waiting = !self.ip_repair_ok
            && st.etcd.service_cidr(super::DEFAULT_SERVICE_CIDR, st.now).is_none();
        if waiting {
            return;
        }
        match repairip::run_once(&mut client(st)) {
            Ok(()) => self.ip_repair_ok = true,
            Err(e) => st.rec.log(repairip::COMPONENT, EventKind::RepairFailed, e),
        }
    }

    /// RepairIPAddress's first pass, if it is still waiting for the ServiceCIDR `kubernetes`;
    /// its success may complete the post-start hook.
    pub fn retry_ip_repair(&mut self, st: &mut Storage) {
        if self.ip_repair_ok {
            return;
        }
        self.repair_ip_addresses(st);
        if self.ip_repair_ok && self.port_repair_ok {
            self.hooks_done = true;
        }
    }

    /// RepairIPAddress's handlers: the Services (`namespace/name`) and IPAddresses that just
    /// changed, once its first pass is done and while it can reach etcd.
    pub fn repair_changed(&mut self, st: &mut Storage, services: &[String], ips: &[String]) {
        if !self.ip_repair_ok || !self.is_up() || !st.reachable {
            return;
        }
        st.etcd.sending_from(Loop::Repair);
        let mut c = client(st);
        for key in services {
            repairip::sync_service(&mut c, key);
        }
        for ip in ips {
            repairip::sync_ip_address(&mut c, ip);
        }
    }

    pub(super) fn repair_cluster_ips(&mut self, st: &mut Storage) -> Result<(), String> {
        st.reach(crate::etcd::RANGE_SERVICE_IPS)
            .map_err(|e| format!("unable to refresh the service IP block: {e}"))?;
        let read: Vec<_> = self.allocators.ips.iter().map(|v| v.stored(st)).collect();
        let snapshots: Vec<_> = read.iter().map(|(r, _)| r.clone()).collect();
        let written = unless_quiet_again(
            &mut self.ip_repair,
            &mut self.ip_repair_clean,
            st,
            &snapshots,
            |r, stored, services, rec| r.run_once(stored, services, rec),
        )?;
        for ((view, snapshot), (_, read_rev)) in
            self.allocators.ips.iter_mut().zip(written).zip(read)
        {
            view.create_or_update(st, snapshot, read_rev);
        }
        Ok(())
    }

    pub(super) fn repair_node_ports(&mut self, st: &mut Storage) -> Result<(), String> {
        st.reach(crate::etcd::RANGE_NODE_PORTS)
            .map_err(|e| format!("unable to refresh the port allocations: {e}"))?;
        let (snapshot, read_rev) = self.allocators.ports.stored(st);
        let written = unless_quiet_again(
            &mut self.port_repair,
            &mut self.port_repair_clean,
            st,
            &snapshot,
            |r, stored, services, rec| r.run_once(stored, services, rec),
        )?;
        self.allocators.ports.create_or_update(st, written, read_rev);
        Ok(())
    }
}

/// One run of a repair loop (`repair`, over the `stored` snapshots): what its last quiet run
/// wrote if the inputs are that run's ([`CleanRun`]), else computed by `run_once` over the
/// Services and remembered if it was quiet (reported nothing, left the counters alone).
fn unless_quiet_again<R: Clone + PartialEq, T: Clone + PartialEq>(
    repair: &mut R,
    clean: &mut CleanRun<T>,
    st: &mut Storage,
    stored: &T,
    run_once: impl FnOnce(&mut R, &T, &[&Service], &mut Recorder) -> Result<T, String>,
) -> Result<T, String> {
    let services_rev = st.etcd.services_revision();
    if let Some(written) = clean.again(services_rev, stored) {
        return Ok(written);
    }
    let (reported, counters) = (st.rec.events.len(), repair.clone());
    let services = st.etcd.services(st.now);
    let written = run_once(repair, stored, &services, st.rec)?;
    let quiet = st.rec.events.len() == reported && *repair == counters;
    clean.remember(services_rev, &written, quiet);
    Ok(written)
}

/// RepairIPAddress's view of one apiserver's storage.
fn client<'a>(st: &'a mut Storage) -> Client<'a> {
    Client {
        etcd: &mut *st.etcd,
        now: st.now,
        reachable: st.reachable,
        rec: &mut *st.rec,
        rechecks: &mut st.ip_rechecks,
    }
}
