//! The endpoints adapter, after `pkg/controlplane/reconcilers/endpointsadapter.go`: the one place
//! where the lease and master-count reconcilers write the `default/kubernetes` Endpoints, and
//! with them the EndpointSlice of the same name.
//!
//! The reconcilers decide what the Endpoints should be (their own rules, unchanged); every write
//! of the Endpoints goes through [`create`] or [`update`], which then make the slice follow, and
//! the reconcilers' "nothing to do" paths call [`ensure_slice`], so a slice that is missing or
//! differs is rewritten even when the Endpoints are right.
//!
//! This is the adapter every release from 1.20 to 1.37 ships (`Create`, `Update` and
//! `EnsureEndpointSliceFromEndpoints`): the slice is fetched by its name, created when missing,
//! updated when it differs, and deleted and created again only to change its address type. No
//! other slice is looked at, even one labelled `kubernetes.io/service-name=<service>`: the
//! `Get`/`Sync` adapter that deletes those (and writes a `kubernetes-v4`/`kubernetes-v6`
//! secondary slice) is pull request #117704, closed unmerged. Unlike upstream, not-ready
//! addresses are left out of the slice (see [`slice_from_endpoints`]); the `TargetRef` and
//! `NodeName` upstream copies are never set on the apiservers' addresses.

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

/// What [`ensure_slice`] found under the Endpoints' name.
enum Found {
    Missing,
    /// Of another address type: it must be deleted and created again.
    OtherType,
    Right,
    Differs,
}

/// `EnsureEndpointSliceFromEndpoints`: makes the slice named after the Endpoints equal to
/// [`slice_from_endpoints`].
///
/// It is read by name (so one that lost its service-name label is found and relabelled). When
/// it is missing it is created; AlreadyExists means another apiserver created it first, fine:
/// the next round compares it. One of another address type is deleted and created again (the
/// address type cannot be updated); an error of either call is returned. One that differs in
/// endpoints, ports or labels is updated. Other slices, whatever their labels, are left alone.
pub fn ensure_slice(api: &mut dyn ReconcilerApi, endpoints: &Endpoints) -> Result<(), ApiError> {
    let (address_type, ..) = implied(endpoints);
    let mut found = Found::Missing;
    let got = api.get_endpoint_slice(&endpoints.namespace, &endpoints.name, &mut |slice| {
        found = if slice.address_type != address_type {
            Found::OtherType
        } else if is_slice_of(slice, endpoints) {
            Found::Right
        } else {
            Found::Differs
        };
    });
    match got {
        Ok(()) => {}
        Err(ApiError::NotFound(_)) => found = Found::Missing,
        Err(e) => return Err(e),
    }
    match found {
        Found::Missing => match api.create_endpoint_slice(&slice_from_endpoints(endpoints)) {
            Err(ApiError::AlreadyExists(_)) => Ok(()),
            r => r,
        },
        Found::OtherType => {
            api.delete_endpoint_slice(&endpoints.namespace, &endpoints.name)?;
            api.create_endpoint_slice(&slice_from_endpoints(endpoints))
        }
        Found::Right => Ok(()),
        Found::Differs => api.update_endpoint_slice(&slice_from_endpoints(endpoints)),
    }
}

/// The slice the Endpoints imply: same namespace and name, labels exactly
/// `{kubernetes.io/service-name: <name>}`, one ready endpoint per ready address of the first
/// subset, that subset's ports.
///
/// The address type is IPv6 when there are addresses and all are IPv6, IPv4 otherwise (so an
/// Endpoints with no subsets gives an empty IPv4 slice, as upstream's `allAddressesIPv6` does);
/// addresses of the other family are left out. Not-ready addresses are left out too, as the
/// contract says (one ready endpoint per address): the reconcilers never write any, and upstream
/// would copy a hand-made one with `ready: false`. The reconcilers always write one subset; a
/// hand-made second one is ignored, as upstream ignores it.
pub fn slice_from_endpoints(endpoints: &Endpoints) -> EndpointSlice {
    let (address_type, addresses, ports) = implied(endpoints);
    EndpointSlice {
        namespace: endpoints.namespace.clone(),
        name: endpoints.name.clone(),
        labels: BTreeMap::from([(LABEL_SERVICE_NAME.to_string(), endpoints.name.clone())]),
        address_type,
        endpoints: addresses
            .map(|ip| SliceEndpoint { addresses: vec![ip.clone()], ready: true })
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

/// `utilnet.IsIPv6String`: false for an IPv4-mapped address and for anything unparseable.
fn is_ipv6(ip: &str) -> bool {
    parse_ip(ip).is_some_and(|a| a.is_ipv6())
}
