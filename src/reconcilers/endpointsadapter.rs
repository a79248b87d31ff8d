//! The endpoints adapter, after `pkg/controlplane/reconcilers/endpointsadapter.go`: the one place
//! where the lease and master-count reconcilers write the `default/kubernetes` Endpoints, and
//! with them the EndpointSlice of the same name.
//!
//! The reconcilers decide what the Endpoints should be (their own rules, unchanged); every write
//! of the Endpoints goes through [`create`] or [`update`], which then make the slice follow, and
//! the reconcilers' "nothing to do" paths call [`ensure_slice`], so a slice that is missing or
//! differs is rewritten even when the Endpoints are right.
//!
//! The slice is derived from the Endpoints as upstream's original adapter did (from 1.17 until its
//! `Sync` rewrite, about 1.28: `EnsureEndpointSliceFromEndpoints`); like the current adapter
//! (`Sync`), it deletes every other slice labelled `kubernetes.io/service-name=<service>`. Left out: the dual-stack secondary
//! slice (`kubernetes-v4`/`kubernetes-v6`), never used by a single-stack apiserver, and the
//! `retry.OnError` back-off, which a slice write in this model can never need (nothing else
//! writes the slice at the same instant).

use std::collections::BTreeMap;

use super::{ApiError, ReconcilerApi};
use crate::api::{
    parse_ip, EndpointPort, EndpointSlice, Endpoints, IpFamily, SliceEndpoint, LABEL_SERVICE_NAME,
};

/// Creates the Endpoints, then (only if that worked) their slice.
pub fn create(api: &mut dyn ReconcilerApi, endpoints: &Endpoints) -> Result<(), ApiError> {
    api.create_endpoints(endpoints)?;
    ensure_slice(api, endpoints)
}

/// Updates the Endpoints, then (only if that worked) their slice.
pub fn update(api: &mut dyn ReconcilerApi, endpoints: &Endpoints) -> Result<(), ApiError> {
    api.update_endpoints(endpoints)?;
    ensure_slice(api, endpoints)
}

/// Makes the slice named after the Endpoints equal to [`slice_from_endpoints`], and deletes the
/// other slices of the same Service.
///
/// The namespace's slices are listed once. The one with our name and address type is ours: it is
/// updated when its endpoints, ports or labels differ (it is found by name, as the original
/// adapter's `Get` did, so one that lost its label gets it back). One with our name but another
/// address type is deleted and created again (the address type cannot be updated). Every other
/// slice carrying our service-name label is deleted; a NotFound there means someone else was
/// faster, which is fine. When there is no slice of ours it is created; AlreadyExists means
/// another apiserver created it first, fine too: the next round compares it.
pub fn ensure_slice(api: &mut dyn ReconcilerApi, endpoints: &Endpoints) -> Result<(), ApiError> {
    let (address_type, ..) = implied(endpoints);
    // Ours: `None` when missing, else whether it is already right. The others are deleted after
    // the list, in its order (the list is a snapshot: deleting during it or after is the same).
    let mut current = None;
    let mut others = Vec::new();
    api.list_endpoint_slices(&endpoints.namespace, &endpoints.name, &mut |slice| {
        if slice.name == endpoints.name && slice.address_type == address_type {
            current = Some(is_slice_of(slice, endpoints));
        } else if belongs_to(slice, &endpoints.name) {
            others.push(slice.name.clone());
        }
    })?;
    for name in others {
        match api.delete_endpoint_slice(&endpoints.namespace, &name) {
            Ok(()) | Err(ApiError::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
    }
    match current {
        None => match api.create_endpoint_slice(&slice_from_endpoints(endpoints)) {
            Err(ApiError::AlreadyExists(_)) => Ok(()),
            r => r,
        },
        Some(true) => Ok(()),
        Some(false) => api.update_endpoint_slice(&slice_from_endpoints(endpoints)),
    }
}

/// The slice the Endpoints imply: same namespace and name, labels exactly
/// `{kubernetes.io/service-name: <name>}`, one ready endpoint per ready address of the first
/// subset, that subset's ports.
///
/// The address type is IPv6 when there are addresses and all are IPv6, IPv4 otherwise (so an
/// Endpoints with no subsets gives an empty IPv4 slice, as upstream's `allAddressesIPv6` did);
/// addresses of the other family are left out. Not-ready addresses are left out too: the current
/// adapter lists only the apiservers' IPs, all ready (the original one added them with
/// `ready: false`). The reconcilers always write one subset; a hand-made second one is ignored, as
/// upstream ignores it.
pub fn slice_from_endpoints(endpoints: &Endpoints) -> EndpointSlice {
    let (address_type, addresses, ports) = implied(endpoints);
    EndpointSlice {
        namespace: endpoints.namespace.clone(),
        name: endpoints.name.clone(),
        labels: BTreeMap::from([(LABEL_SERVICE_NAME.to_string(), endpoints.name.clone())]),
        address_type,
        endpoints: addresses
            .map(|ip| SliceEndpoint {
                addresses: vec![ip.clone()],
                ready: true,
            })
            .collect(),
        ports: ports.to_vec(),
    }
}

/// Whether `slice` equals [`slice_from_endpoints`] of `endpoints`, without building it (every
/// round of every apiserver asks, and the answer is nearly always yes).
pub fn is_slice_of(slice: &EndpointSlice, endpoints: &Endpoints) -> bool {
    let (address_type, addresses, ports) = implied(endpoints);
    fn one_address(e: &SliceEndpoint) -> Option<&String> {
        match (&e.addresses[..], e.ready) {
            ([ip], true) => Some(ip),
            _ => None,
        }
    }
    slice.namespace == endpoints.namespace
        && slice.name == endpoints.name
        && slice.labels.len() == 1
        && slice.labels.get(LABEL_SERVICE_NAME) == Some(&endpoints.name)
        && slice.address_type == address_type
        && slice.ports == ports
        && slice.endpoints.iter().map(one_address).eq(addresses.map(Some))
}

/// What a slice of `endpoints` holds: its address type, its addresses in order, its ports.
fn implied(endpoints: &Endpoints) -> (IpFamily, impl Iterator<Item = &String>, &[EndpointPort]) {
    let subset = endpoints.subsets.first();
    let addresses = subset.map_or(&[][..], |s| &s.addresses[..]);
    let ipv6 = !addresses.is_empty() && addresses.iter().all(|ip| is_ipv6(ip));
    let family = if ipv6 { IpFamily::IPv6 } else { IpFamily::IPv4 };
    let kept = addresses.iter().filter(move |ip| is_ipv6(ip) == ipv6);
    (family, kept, subset.map_or(&[][..], |s| &s.ports[..]))
}

/// Whether the slice is `service`'s: named after it or labelled `kubernetes.io/service-name=<service>`.
pub fn belongs_to(slice: &EndpointSlice, service: &str) -> bool {
    slice.name == service || slice.labels.get(LABEL_SERVICE_NAME).map(String::as_str) == Some(service)
}

/// `utilnet.IsIPv6String`: false for an IPv4-mapped address and for anything unparseable.
fn is_ipv6(ip: &str) -> bool {
    parse_ip(ip).is_some_and(|a| a.is_ipv6())
}
