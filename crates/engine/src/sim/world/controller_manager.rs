//! kube-controller-manager, as the world runs it: its endpoints controller and (1.33+) its
//! service-cidr-controller, each a type of the model with its own state (`k8s::endpoints`,
//! `k8s::servicecidrs`). The world runs them after every change; they write through the
//! apiservers, so they do nothing while none is ready.

use super::{Task, World};
use crate::k8s::endpoints::EndpointsController;
use crate::k8s::etcd::{self, Loop};
use crate::k8s::servicecidrs::ServiceCidrsController;

/// The controllers of kube-controller-manager the lab models.
#[derive(Clone, Debug, Default)]
pub(super) struct ControllerManager {
    endpoints: EndpointsController,
    service_cidrs: ServiceCidrsController,
}

impl World {
    fn any_apiserver_ready(&self) -> bool {
        self.apiservers.keys().any(|n| self.ready(n))
    }

    /// The endpoints controller's sync, after the other controller that follows readiness.
    pub(super) fn sync_endpoints_controller(&mut self) {
        self.sync_service_cidrs();
        self.etcd.sending(etcd::KCM, Loop::ControllerManager);
        if !self.any_apiserver_ready() {
            return;
        }
        self.kcm.endpoints.sync(&mut self.etcd, self.now);
    }

    /// The service-cidr-controller's sync (1.33+), queued again when a grace period ends.
    pub(super) fn sync_service_cidrs(&mut self) {
        if !self.behavior.ip_addresses() || !self.any_apiserver_ready() {
            return;
        }
        self.etcd.sending(etcd::KCM, Loop::ControllerManager);
        for due in self.kcm.service_cidrs.sync(&mut self.etcd, self.now) {
            self.queue.push(due, "", Task::ServiceCidrController);
        }
    }
}
