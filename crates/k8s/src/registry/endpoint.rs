//! The storage the endpoint reconcilers talk through: Endpoints (`pkg/registry/core/endpoint`),
//! EndpointSlices (`pkg/registry/discovery/endpointslice`) and the master leases' keys.

use super::{Storage, COMPONENT};
use crate::api::Endpoints;
use crate::etcd::{self, Value};
use crate::event::EventKind;
use crate::reconcilers::{ApiError, ReconcilerApi};

impl ReconcilerApi for Storage<'_> {
    fn get_endpoints(&mut self, name: &str) -> Result<Endpoints, ApiError> {
        let key = etcd::endpoints_key("default", name);
        self.reconciler(&key)?;
        match self.etcd.get(&key, self.now).map(|e| &e.value) {
            Some(Value::Endpoints(ep)) => Ok(ep.clone()),
            _ => Err(ApiError::NotFound(format!("endpoints \"{name}\" not found"))),
        }
    }

    fn create_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        let key = etcd::endpoints_key(&endpoints.namespace, &endpoints.name);
        self.reconciler(&key)?;
        self.etcd
            .compare_and_put(&key, 0, Value::Endpoints(endpoints.clone()), self.now)
            .map(|_| ())
            .map_err(|_| {
                ApiError::AlreadyExists(format!("endpoints \"{}\" already exists", endpoints.name))
            })
    }

    fn update_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        let key = etcd::endpoints_key(&endpoints.namespace, &endpoints.name);
        self.reconciler(&key)?;
        if self.etcd.get(&key, self.now).is_none() {
            return Err(ApiError::NotFound(format!("endpoints \"{}\" not found", endpoints.name)));
        }
        self.etcd.put(&key, Value::Endpoints(endpoints.clone()), None, self.now);
        Ok(())
    }

    fn get_endpoint_slice(
        &mut self,
        namespace: &str,
        name: &str,
        each: &mut dyn FnMut(&crate::api::EndpointSlice),
    ) -> Result<(), ApiError> {
        let key = etcd::endpoint_slice_key(namespace, name);
        self.reconciler(&key)?;
        match self.etcd.get(&key, self.now).map(|e| &e.value) {
            Some(Value::EndpointSlice(s)) => {
                each(s);
                Ok(())
            }
            _ => Err(ApiError::NotFound(slice_error(name, "not found"))),
        }
    }

    fn create_endpoint_slice(&mut self, slice: &crate::api::EndpointSlice) -> Result<(), ApiError> {
        let key = etcd::endpoint_slice_key(&slice.namespace, &slice.name);
        self.reconciler(&key)?;
        self.etcd
            .compare_and_put(&key, 0, Value::EndpointSlice(slice.clone()), self.now)
            .map(|_| ())
            .map_err(|_| ApiError::AlreadyExists(slice_error(&slice.name, "already exists")))
    }

    fn update_endpoint_slice(&mut self, slice: &crate::api::EndpointSlice) -> Result<(), ApiError> {
        let key = etcd::endpoint_slice_key(&slice.namespace, &slice.name);
        self.reconciler(&key)?;
        if self.etcd.get(&key, self.now).is_none() {
            return Err(ApiError::NotFound(slice_error(&slice.name, "not found")));
        }
        self.etcd.put(&key, Value::EndpointSlice(slice.clone()), None, self.now);
        Ok(())
    }

    fn delete_endpoint_slice(&mut self, namespace: &str, name: &str) -> Result<(), ApiError> {
        let key = etcd::endpoint_slice_key(namespace, name);
        self.reconciler(&key)?;
        if self.etcd.delete(&key, self.now) {
            Ok(())
        } else {
            Err(ApiError::NotFound(slice_error(name, "not found")))
        }
    }

    fn list_leases(&mut self) -> Result<Vec<String>, ApiError> {
        self.reconciler(etcd::MASTER_LEASES)?;
        Ok(self.etcd.lease_ips(self.now))
    }

    fn update_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        let key = etcd::lease_key(ip);
        self.reconciler(&key)?;
        let generation = match self.etcd.get(&key, self.now).map(|e| &e.value) {
            Some(Value::Lease { generation, .. }) => generation + 1,
            _ => 1,
        };
        let rev = self.etcd.put(
            &key,
            Value::Lease { ip: ip.to_string(), generation },
            Some(self.lease_ttl_ms),
            self.now,
        );
        self.lease_writes.push((key, rev));
        Ok(())
    }

    fn remove_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        let key = etcd::lease_key(ip);
        self.reconciler(&key)?;
        if self.etcd.delete(&key, self.now) {
            Ok(())
        } else {
            Err(ApiError::NotFound(format!("key not found: {key}")))
        }
    }

    fn log(&mut self, kind: EventKind, line: String) {
        self.rec.log(COMPONENT, kind, line);
    }
}

/// The API's error text for an EndpointSlice: `endpointslices.discovery.k8s.io "<name>" <what>`.
fn slice_error(name: &str, what: &str) -> String {
    format!("endpointslices.discovery.k8s.io \"{name}\" {what}")
}
