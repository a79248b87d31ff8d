//! The default-ServiceCIDR controller of every apiserver (1.33+), after
//! `pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go`: the
//! post-start hook `start-kubernetes-service-cidr-controller` makes sure the ServiceCIDR
//! `kubernetes` exists with the `--service-cluster-ip-range` CIDRs ("the default serviceCIDR
//! must exist before the apiserver is healthy"), polling every 100 ms until its first sync,
//! then syncing every 10 s. It never overwrites one that exists (the first apiserver wins),
//! except to add the second family when the flags make a single-stack range dual-stack (1.33+).
//! It sets `Ready` only while the condition is unset, with its own message; kube-controller-
//! manager's service-cidr-controller then applies `Ready=True` with its message, which stays:
//! this controller finds `Ready=True` and leaves it.

use super::Apiserver;
use super::ClusterConfig;
use crate::api::{Behavior, ServiceCidr};
use crate::etcd::{self, Value};
use crate::event::EventKind;
use crate::registry::Storage;

/// `kubernetes`: the name of the default ServiceCIDR, made from `--service-cluster-ip-range`.
pub const DEFAULT_SERVICE_CIDR: &str = "kubernetes";
pub(crate) const COMPONENT: &str = "kubernetes-service-cidr-controller";
/// `interval`: "same as DefaultEndpointReconcilerInterval".
pub const DEFAULT_SERVICE_CIDR_INTERVAL_MS: u64 = 10_000;
/// The hook's poll until the first successful sync.
pub const DEFAULT_SERVICE_CIDR_POLL_MS: u64 = 100;
pub(crate) const READY_MESSAGE: &str = "Kubernetes default Service CIDR is ready";

impl Apiserver {
    /// One `sync()`: create the object if missing, then its status; `cidr_ok` once it succeeded.
    pub fn sync_default_service_cidr(
        &mut self,
        st: &mut Storage,
        cfg: &ClusterConfig,
        behavior: Behavior,
    ) {
        st.etcd.sending_from(crate::etcd::Loop::Bootstrap);
        if st.reach(&crate::etcd::service_cidr_key(super::DEFAULT_SERVICE_CIDR)).is_err() {
            return;
        }
        self.init_dual_write_bitmaps(st);
        let flags: Vec<String> =
            cfg.service_ip_ranges.networks().iter().map(|n| n.to_string()).collect();
        let key = etcd::service_cidr_key(DEFAULT_SERVICE_CIDR);
        let mut cidr = match st.etcd.service_cidr(DEFAULT_SERVICE_CIDR, st.now) {
            Some(existing) => existing.clone(),
            None => {
                let created = ServiceCidr::new(DEFAULT_SERVICE_CIDR, flags.clone());
                st.etcd.put(&key, Value::ServiceCidr(created.clone()), None, st.now);
                created
            }
        };
        if flags.len() == 2 && cidr.cidrs.len() == 1 && cidr.cidrs[0] == flags[0] && !cidr.deleting
        {
            let line = format!(
                "Updating default ServiceCIDR from single-stack ({}) to dual-stack ({})",
                go_list(&cidr.cidrs),
                go_list(&flags)
            );
            st.rec.log(COMPONENT, EventKind::ServiceCidrLog, line);
            cidr.cidrs = flags.clone();
            st.etcd.put(&key, Value::ServiceCidr(cidr.clone()), None, st.now);
        }
        self.sync_default_status(st, cidr, &flags, behavior);
        self.cidr_ok = true;
    }

    /// `syncStatus`: leave a deleting or a foreign object alone (1.35: say so once); set
    /// `Ready` where nobody has.
    fn sync_default_status(
        &mut self,
        st: &mut Storage,
        mut cidr: ServiceCidr,
        flags: &[String],
        behavior: Behavior,
    ) {
        if cidr.deleting {
            return;
        }
        if cidr.cidrs != flags {
            if behavior >= Behavior::V1_35 && !self.cidr_inconsistency_reported {
                self.cidr_inconsistency_reported = true;
                let line = format!("Inconsistent ServiceCIDR status for {}, controller configuration: {}, ServiceCIDR configuration: {}. Configure the flags to match current ServiceCIDR or manually delete it.", cidr.name, go_list(flags), go_list(&cidr.cidrs));
                st.rec.log(COMPONENT, EventKind::ServiceCidrLog, line);
                let msg = format!(
                    "The default ServiceCIDR {} does not match the controller flag configurations {}",
                    go_list(&cidr.cidrs),
                    go_list(flags)
                );
                st.rec.warning(
                    COMPONENT,
                    EventKind::DefaultServiceCidrInconsistent,
                    DEFAULT_SERVICE_CIDR,
                    msg,
                );
            }
            return;
        }
        if cidr.ready.is_none() {
            cidr.set_ready(true, "", READY_MESSAGE);
            let key = etcd::service_cidr_key(&cidr.name);
            st.etcd.put(&key, Value::ServiceCidr(cidr), None, st.now);
        }
    }
}

/// A `[]string` as Go's `%v` prints it: `[10.96.0.0/12 fd00::/108]`.
fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}
