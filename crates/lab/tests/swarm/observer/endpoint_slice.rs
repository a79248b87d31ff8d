//! (j) The kubernetes EndpointSlice: after every rewrite of the `default/kubernetes` Endpoints or
//! EndpointSlice, both list the same addresses and no other slice is labelled for the Service.

use std::collections::BTreeSet;

use engine::contract::api::{EndpointSlice, LABEL_SERVICE_NAME};
use engine::sim::world::World;
use k8s::api::KUBERNETES;

use super::Observer;
use crate::storage::kubernetes_endpoints;
use crate::violation::{fail, Violation};

impl Observer {
    /// (j) The lease and master-count reconcilers write the Endpoints `default/kubernetes`
    /// through the endpoints adapter, which writes the EndpointSlice `default/kubernetes` beside
    /// them and deletes any other slice labelled for the Service: after every task or action
    /// that rewrote either (an `EndpointsRewrite` mark) while the Endpoints exist, the slice
    /// exists and lists the same addresses, and is the only one labelled
    /// `kubernetes.io/service-name: kubernetes`. Enabled once some EndpointSlice exists (the
    /// core writes none before the adapter).
    pub(super) fn check_slice(&mut self, world: &World, rewrote: bool) -> Result<(), Violation> {
        let now = world.now();
        if !rewrote || world.etcd().endpoint_slices(now).is_empty() {
            return Ok(());
        }
        let Some(ep) = kubernetes_endpoints(world) else {
            return Ok(());
        };
        self.coverage.j_checked += 1;
        let want: BTreeSet<&String> = ep.subsets.iter().flat_map(|s| &s.addresses).collect();
        let slices = world.etcd().endpoint_slices(now);
        let ours = slices.iter().find(|s| s.namespace == "default" && s.name == KUBERNETES);
        let Some(slice) = ours else {
            return fail("(j) EndpointSlice", now, format!(
                "default/kubernetes Endpoints list {want:?} after a rewrite but there is no EndpointSlice default/kubernetes"));
        };
        let got: BTreeSet<&String> = slice.addresses().collect();
        if got != want {
            return fail("(j) EndpointSlice", now, format!(
                "after a rewrite the Endpoints default/kubernetes list {want:?} but the EndpointSlice lists {got:?}"));
        }
        let labelled = |s: &&&EndpointSlice| {
            s.name != KUBERNETES
                && s.labels.get(LABEL_SERVICE_NAME).map(String::as_str) == Some(KUBERNETES)
        };
        if let Some(other) = slices.iter().find(labelled) {
            return fail(
                "(j) EndpointSlice",
                now,
                format!(
                    "after a rewrite EndpointSlice {} is still labelled for the kubernetes Service",
                    other.key()
                ),
            );
        }
        Ok(())
    }
}
