//! kube-controller-manager's endpoints controller, as the world runs it after every change.
//!
//! Level-based, as upstream's `syncService`: every Service with a selector gets the Endpoints its
//! ready and not-ready Pods imply ([`endpoints_for_service`]). An Endpoints object is deleted only
//! when the controller sees its Service deleted; one that no Service ever owned (such as a
//! `default/kubernetes` Endpoints given in `initial` before the apiserver creates the Service) is
//! left alone. Upstream also re-queues every Endpoints once when the controller starts
//! (`checkLeftoverEndpoints`); the lab's controller-manager never restarts, so that pass is not
//! modelled. It writes through the apiservers, so it does nothing while none is ready.

use std::collections::BTreeSet;

use super::World;
use crate::k8s::api::Endpoints;
use crate::k8s::endpoints::endpoints_for_service;
use crate::k8s::etcd::{self, Loop, Value};

impl World {
    pub(super) fn sync_endpoints_controller(&mut self) {
        // The controller-manager's other controller that follows readiness changes.
        self.sync_service_cidrs();
        self.etcd.sending(etcd::KCM, Loop::ControllerManager);
        if !self.apiservers.keys().any(|n| self.ready(n)) {
            return;
        }
        let now = self.now;
        // What to write, read first with every Service borrowed (none cloned: with thousands of
        // Services this runs after every change), then written in the same order.
        let services = self.etcd.services(now);
        let pods = self.etcd.pods(now);
        let present: BTreeSet<String> = services.iter().map(|s| s.key()).collect();
        let writes: Vec<(String, Endpoints)> = services
            .iter()
            .filter_map(|svc| {
                let want = endpoints_for_service(svc, &pods)?;
                let key = etcd::endpoints_key(&svc.namespace, &svc.name);
                let current = match self.etcd.get(&key, now).map(|e| &e.value) {
                    Some(Value::Endpoints(ep)) => Some(ep),
                    _ => None,
                };
                (current != Some(&want)).then_some((key, want))
            })
            .collect();
        for gone in self.seen_services.difference(&present) {
            let (ns, name) = gone.split_once('/').expect("namespace/name");
            self.etcd.delete(&etcd::endpoints_key(ns, name), now);
        }
        self.seen_services = present;
        for (key, want) in writes {
            self.etcd.put(&key, Value::Endpoints(want), None, now);
        }
    }
}
