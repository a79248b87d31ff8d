//! The `kubernetes` Service and its Endpoints, after
//! `pkg/controlplane/controller/kubernetesservice/controller.go` (1.28+; `controller.go`'s
//! `RunKubernetesService` in 1.20): create the Service if missing, reconcile the Endpoints every
//! interval, remove our own endpoint at start (a stale one) and in the pre-shutdown hook.

use std::collections::BTreeMap;

use super::systemnamespaces::ensure_namespace;
use super::ClusterConfig;
use super::{Apiserver, Status};
use crate::api::KUBERNETES;
use crate::api::{
    Behavior, EndpointPort, IntOrString, Protocol, Service, ServicePort, ServiceType,
};
use crate::etcd::{self, Loop};
use crate::event::EventKind;
use crate::ipallocator::family_of;
use crate::reconcilers::{ApiError, ReconcileError};
use crate::registry::{Storage, COMPONENT};
use crate::rng::SimRng;

impl Apiserver {
    pub(super) fn endpoint_ports(cfg: &ClusterConfig) -> Vec<EndpointPort> {
        vec![EndpointPort { name: "https".into(), port: cfg.secure_port, protocol: Protocol::TCP }]
    }

    /// RemoveEndpoints of our own address at start, in case an earlier life did not exit cleanly.
    ///
    /// 1.20's `Start()` logs every error, NotFound included (so a clean lease start prints the
    /// missing key), and nothing on success; "Found stale data" and the NotFound filter came
    /// with PR #107677 (1.24).
    pub fn remove_stale_endpoint(
        &mut self,
        st: &mut Storage,
        cfg: &ClusterConfig,
        behavior: Behavior,
    ) {
        self.pending_remove = false;
        let ip = self.ip();
        let result =
            self.reconciler.remove_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg));
        if behavior.legacy() {
            if let Err(e) = result {
                let e = storage_error_text(&e, &ip);
                st.rec.log(
                    COMPONENT,
                    EventKind::RemoveEndpointsFailed,
                    format!("Unable to remove old endpoints from kubernetes service: {e}"),
                );
            }
            return;
        }
        match result {
            Ok(()) => st.rec.log(COMPONENT, EventKind::StaleEndpointRemoved,
                "Found stale data, removed previous endpoints on kubernetes service, apiserver didn't exit successfully previously".into()),
            Err(e) if e.is_not_found() => {}
            Err(e) => st.rec.log(COMPONENT, EventKind::RemoveEndpointsFailed,
                format!("Error removing old endpoints from kubernetes service: {e}")),
        }
    }

    /// The `kubernetes` Service as this apiserver would create it.
    pub fn kubernetes_service(cfg: &ClusterConfig) -> Service {
        let node_port = cfg.kubernetes_service_node_port;
        Service {
            namespace: "default".into(),
            name: KUBERNETES.into(),
            type_: if node_port > 0 { ServiceType::NodePort } else { ServiceType::ClusterIP },
            cluster_ip: cfg.service_ip_ranges.kubernetes_service_ip().to_string(),
            labels: BTreeMap::from([
                ("component".to_string(), "apiserver".to_string()),
                ("provider".to_string(), "kubernetes".to_string()),
            ]),
            ports: vec![ServicePort {
                name: "https".into(),
                protocol: Protocol::TCP,
                port: cfg.kubernetes_service_port,
                target_port: Some(IntOrString::Int(cfg.secure_port)),
                node_port,
            }],
            ip_families: vec![family_of(&cfg.service_ip_ranges.primary)],
            ip_family_policy: Some("SingleStack".into()),
            ..Service::default()
        }
    }

    /// `UpdateKubernetesService(false)`: create the Service if missing (never correct it), then
    /// reconcile the Endpoints. Returns whether the Service was created.
    pub fn sync_kubernetes_service(
        &mut self,
        st: &mut Storage,
        cfg: &ClusterConfig,
        behavior: Behavior,
        rng: &mut SimRng,
    ) -> bool {
        let result = (|| -> Result<bool, (EventKind, String)> {
            let failed = |e: String| (EventKind::SyncFailed, e);
            // Its first request reads the Service: from an isolated apiserver it times out.
            st.etcd.sending_from(Loop::Bootstrap);
            st.reach(&etcd::service_key("default", KUBERNETES))
                .map_err(|e| failed(e.to_string()))?;
            if behavior.legacy() {
                ensure_namespace(st, "default", behavior).map_err(failed)?;
            }
            let mut created = false;
            if st.etcd.service("default", KUBERNETES, st.now).is_none() {
                self.allocators
                    .create_service(st, rng, Self::kubernetes_service(cfg))
                    .map_err(failed)?;
                created = true;
            }
            let ip = self.ip();
            self.reconciler
                .reconcile_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg), false)
                .map_err(|e| match e {
                    ReconcileError::Refused(_) => {
                        // The write the reconciler would not send.
                        let key = etcd::endpoints_key("default", KUBERNETES);
                        st.etcd.bounce(&key, st.now, &e.to_string());
                        (EventKind::RefusedToEraseEndpoints, e.to_string())
                    }
                    ReconcileError::Api(_) => failed(e.to_string()),
                })?;
            Ok(created)
        })();
        result.unwrap_or_else(|(kind, e)| {
            st.rec.log(COMPONENT, kind, format!("unable to sync kubernetes service: {e}"));
            false
        })
    }

    /// The pre-shutdown hook: stop reconciling and remove our endpoint. Returns whether the
    /// removal finished (otherwise the hook waits until its 2× interval timeout). 1.20's `Stop()`
    /// logs the bare error (`klog.Error(err)`); the prefixed line came with 1.24's code.
    pub fn stop(&mut self, st: &mut Storage, cfg: &ClusterConfig, behavior: Behavior) -> bool {
        self.status = Status::Stopping;
        self.syncing = false;
        st.rec.log(
            COMPONENT,
            EventKind::ReconcilerShutdown,
            "Shutting down kubernetes service endpoint reconciler".into(),
        );
        self.reconciler.stop_reconciling();
        let ip = self.ip();
        match self.reconciler.remove_endpoints(st, KUBERNETES, &ip, &Self::endpoint_ports(cfg)) {
            Ok(()) => true,
            Err(ReconcileError::Api(ApiError::Unavailable(_))) => false,
            Err(e) => {
                let line = if behavior.legacy() {
                    storage_error_text(&e, &ip)
                } else {
                    format!("Unable to remove endpoints from kubernetes service: {e}")
                };
                st.rec.log(COMPONENT, EventKind::RemoveEndpointsFailed, line);
                true
            }
        }
    }
}

/// A RemoveEndpoints error as 1.20 prints it: a missing lease of ours is the storage layer's
/// `StorageError` for the full etcd key (with the default `--etcd-prefix`, `/registry`).
fn storage_error_text(e: &ReconcileError, ip: &str) -> String {
    if e.is_not_found() {
        format!(
            "StorageError: key not found, Code: 1, Key: /registry{}, ResourceVersion: 0, AdditionalErrorMsg: ",
            crate::etcd::lease_key(ip)
        )
    } else {
        e.to_string()
    }
}
