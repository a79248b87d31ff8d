//! RepairIPAddress, after `ipallocator/controller/repairip.go` (1.33+): the ClusterIP repair once
//! ClusterIPs are IPAddress objects. No bitmap, no leak counter: every Service must have exactly
//! one IPAddress naming it, every IPAddress the allocator made must name a Service that holds
//! its address, and an orphan is deleted once it is older than a 60-second grace period.
//!
//! It runs one full pass at start (once the ServiceCIDR `kubernetes` exists), then checks each
//! Service and IPAddress at the instant it changes (its informers' handlers), and all of them
//! every `repair_interval` (their resync). A deleted IPAddress is a change of the IPAddress only:
//! its Service is not checked until the next resync, so the IPAddress comes back then.

use std::net::IpAddr;

use crate::api::{parse_ip, IpAddress, IpFamily, ParentReference, Service};
use crate::etcd::{self, Etcd, Value};
use crate::event::{EventKind, Recorder};
use crate::ipallocator::cidrallocator::within_any;

/// The component of its events (`ipallocator-repair-controller`, as the bitmap repair's).
pub const COMPONENT: &str = "ipallocator-repair-controller";
/// `gracePeriod`: "default timeout value on the kube-apiserver"; an IPAddress may exist this
/// long before its Service does while the Service is being created.
pub const ORPHAN_GRACE_MS: u64 = 60_000;

/// What `syncIPAddress` makes of one IPAddress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpAddressVerdict {
    /// Not labelled by the allocator: left alone "to avoid hotloops".
    Unmanaged,
    /// Its parent is a Service that holds its address.
    Ok,
    /// Its parent is not a core Service: deleted.
    NotService,
    /// Its Service does not exist: deleted from `deletable_at_ms` (creation + grace period).
    Orphan {
        /// When the grace period ends, in virtual ms (negative when that was before time 0).
        deletable_at_ms: i64,
    },
    /// Its Service exists but does not hold its address: deleted.
    WrongReference,
}

/// `syncIPAddress`'s decision for `addr`, whose parent Service is `parent` (if it exists).
pub fn ip_address_verdict(addr: &IpAddress, parent: Option<&Service>) -> IpAddressVerdict {
    if !addr.managed() {
        return IpAddressVerdict::Unmanaged;
    }
    if !addr.parent.is_service() {
        return IpAddressVerdict::NotService;
    }
    match parent {
        None => {
            IpAddressVerdict::Orphan { deletable_at_ms: addr.created_ms + ORPHAN_GRACE_MS as i64 }
        }
        Some(svc) if svc.cluster_ips().contains(&addr.ip.as_str()) => IpAddressVerdict::Ok,
        Some(_) => IpAddressVerdict::WrongReference,
    }
}

/// What the controller works through: its informers' view of etcd (always in sync here), its
/// client (writes fail while etcd is unreachable), its event recorder and its requeues.
pub struct Client<'a> {
    /// The cluster's etcd.
    pub etcd: &'a mut Etcd,
    /// The instant (virtual ms).
    pub now: u64,
    /// Whether its apiserver reaches etcd now.
    pub reachable: bool,
    /// Where its events go.
    pub rec: &'a mut Recorder,
    /// IPAddresses to check again, and when (`AddAfter`).
    pub rechecks: &'a mut Vec<(String, u64)>,
}

/// `ParentReference`'s `%v` as the event prints it.
fn show_ref(p: &ParentReference) -> String {
    format!(
        "&ParentReference{{Group:{},Resource:{},Namespace:{},Name:{},}}",
        p.group, p.resource, p.namespace, p.name
    )
}

/// `runOnce`: every Service, then every IPAddress the allocator labelled.
pub fn run_once(st: &mut Client) -> Result<(), String> {
    if !st.reachable {
        let e = etcd::UNREACHABLE;
        return Err(format!("unable to refresh the service IP block: {e}"));
    }
    let services: Vec<String> = st.etcd.services(st.now).iter().map(|s| s.key()).collect();
    for key in &services {
        sync_service(st, key);
    }
    let addresses: Vec<String> =
        st.etcd.ip_addresses(st.now).iter().filter(|a| a.managed()).map(|a| a.ip.clone()).collect();
    for ip in &addresses {
        sync_ip_address(st, ip);
    }
    Ok(())
}

/// `syncService`: each ClusterIP of Service `key` (`namespace/name`) has its IPAddress.
pub(crate) fn sync_service(st: &mut Client, key: &str) {
    let Some((ns, name)) = key.split_once('/') else {
        return;
    };
    let Some(svc) = st.etcd.service(ns, name, st.now).cloned() else {
        return;
    };
    if !svc.is_ip_set() {
        return;
    }
    for raw in svc.cluster_ips() {
        let Some(ip) = parse_ip(raw) else {
            // Upstream formats the nil `net.IP` that ParseIPSloppy returned: `<nil>`.
            let msg = "Cluster IP <nil> is not a valid IP; please recreate Service".to_string();
            st.rec.warning(COMPONENT, EventKind::ClusterIpNotValid, key, msg);
            continue;
        };
        let family = IpFamily::of(&ip);
        if !within_any(&st.etcd.service_cidrs(st.now), ip) {
            let msg = format!("Cluster IP [{family}]: {ip} is not within any configured Service CIDR; please recreate service");
            st.rec.warning(COMPONENT, EventKind::ClusterIpOutOfRange, key, msg);
            continue;
        }
        let Some(addr) = st.etcd.ip_address(&ip.to_string(), st.now).cloned() else {
            let msg = format!("Cluster IP [{family}]: {ip} is not allocated; repairing");
            st.rec.warning(COMPONENT, EventKind::ClusterIpNotAllocated, key, msg);
            put(st, ip, &svc);
            continue;
        };
        let names_us = addr.parent.namespace == svc.namespace && addr.parent.name == svc.name;
        let other = (!names_us)
            .then(|| st.etcd.service(&addr.parent.namespace, &addr.parent.name, st.now))
            .flatten();
        if !addr.parent.is_service() || (!names_us && other.is_none()) {
            let msg = format!(
                "the ClusterIP [{family}]: {ip} for Service {key} has a wrong reference; repairing"
            );
            st.rec.warning(COMPONENT, EventKind::ClusterIpWrongReference, key, msg);
            recreate(st, ip, &svc);
            continue;
        }
        if other.is_some_and(|o| o.cluster_ips().contains(&addr.ip.as_str())) {
            let msg = format!("Cluster IP [{family}]:{ip} was assigned to multiple services; please recreate service");
            st.rec.warning(COMPONENT, EventKind::ClusterIpAlreadyAllocated, key, msg);
        }
        if !labels_right(&addr) {
            recreate(st, ip, &svc);
        }
    }
}

/// `syncIPAddress`: an allocator-made IPAddress names a Service that holds it; an orphan is
/// deleted once past the grace period, else `rechecks` asks for a look when it ends.
///
/// An IPAddress that is gone (deleted behind the allocator's back) leaves nothing to sync, as
/// upstream's lister miss returns: the Service still holding that IP gets it back only when the
/// Service is checked again, at the next full pass (`repair_interval`), or at once if it changes.
pub(crate) fn sync_ip_address(st: &mut Client, ip: &str) {
    let Some(addr) = st.etcd.ip_address(ip, st.now).cloned() else {
        return;
    };
    let parent = st.etcd.service(&addr.parent.namespace, &addr.parent.name, st.now);
    let (kind, msg) = match ip_address_verdict(&addr, parent) {
        IpAddressVerdict::Unmanaged | IpAddressVerdict::Ok => return,
        IpAddressVerdict::NotService => (
            EventKind::IpAddressModified,
            format!(
                "IPAddress {ip} appears to have been modified, not referencing a Service {}: cleaning up",
                show_ref(&addr.parent)
            ),
        ),
        IpAddressVerdict::Orphan { deletable_at_ms } if (st.now as i64) < deletable_at_ms => {
            st.rechecks.push((ip.to_string(), deletable_at_ms as u64));
            return;
        }
        IpAddressVerdict::Orphan { .. } => (
            EventKind::IpAddressLeaked,
            format!(
                "IPAddress: {ip} for Service {} appears to have leaked: cleaning up",
                addr.parent.key()
            ),
        ),
        IpAddressVerdict::WrongReference => (
            EventKind::IpAddressWrongReference,
            format!(
                "IPAddress: {ip} for Service {} has a wrong reference; cleaning up",
                addr.parent.key()
            ),
        ),
    };
    st.rec.warning(COMPONENT, kind, ip, msg);
    if st.reachable {
        st.etcd.delete(&etcd::ip_address_key(ip), st.now);
    }
}

/// `verifyIPAddressLabels`: the family label matches the address and the allocator made it.
fn labels_right(addr: &IpAddress) -> bool {
    let family = addr.address().map(|ip| IpFamily::of(&ip).to_string());
    addr.managed() && addr.labels.get(crate::api::LABEL_IP_FAMILY).cloned() == family
}

/// `newIPAddress` for `svc`, created through the API.
fn put(st: &mut Client, ip: IpAddr, svc: &Service) {
    if !st.reachable {
        return;
    }
    let parent = ParentReference::service(&svc.namespace, &svc.name);
    let obj = IpAddress::allocated(ip, parent, st.now);
    let key = etcd::ip_address_key(&obj.ip);
    let _ = st.etcd.compare_and_put(&key, 0, Value::IpAddress(obj), st.now);
}

/// `recreateIPAddress`: delete, then create for `svc`.
fn recreate(st: &mut Client, ip: IpAddr, svc: &Service) {
    if !st.reachable {
        return;
    }
    st.etcd.delete(&etcd::ip_address_key(&ip.to_string()), st.now);
    put(st, ip, svc);
}
