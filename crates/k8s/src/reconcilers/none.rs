//! The `none` endpoint reconciler (`--endpoint-reconciler-type=none`), after
//! `pkg/controlplane/reconcilers/none.go`: it never touches the Endpoints, so whoever runs the
//! cluster maintains `default/kubernetes` by hand.

use super::{ReconcileError, Reconciler, ReconcilerApi};
use crate::api::EndpointPort;

/// `noneEndpointReconciler`: does nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoneReconciler;

impl Reconciler for NoneReconciler {
    fn reconcile_endpoints(
        &mut self,
        _api: &mut dyn ReconcilerApi,
        _service_name: &str,
        _ip: &str,
        _ports: &[EndpointPort],
        _reconcile_ports: bool,
    ) -> Result<(), ReconcileError> {
        Ok(())
    }

    /// Always succeeds, which is why the bootstrap controller logs "Found stale data" at every start.
    fn remove_endpoints(
        &mut self,
        _api: &mut dyn ReconcilerApi,
        _service_name: &str,
        _ip: &str,
        _ports: &[EndpointPort],
    ) -> Result<(), ReconcileError> {
        Ok(())
    }

    fn stop_reconciling(&mut self) {}

    fn stopped(&self) -> bool {
        false
    }
}
