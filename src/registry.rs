//! What one apiserver does against etcd: the storage-backed allocators
//! (`pkg/registry/core/service/allocator/storage/storage.go`) and the Service REST paths that use
//! them (`pkg/registry/core/service/storage`), plus the storage the reconcilers talk through.

use std::net::IpAddr;

use crate::api::{parse_ip, Endpoints, IpFamily, RangeAllocation, Service, ServiceType};
use crate::etcd::{self, Etcd, Value};
use crate::event::{EventKind, Recorder};
use crate::ipallocator::{self, Range};
use crate::portallocator::{self, PortAllocator};
use crate::reconcilers::{ApiError, ReconcilerApi};
use crate::repair::nodeport::collect_service_node_ports;
use crate::rng::SimRng;

/// What a caller sees when its apiserver cannot reach etcd (client-side timeout).
pub const UNREACHABLE: &str = "context deadline exceeded";

/// The component name of kube-apiserver's own log lines.
pub const COMPONENT: &str = "kube-apiserver";

/// One apiserver's access to etcd at one instant.
pub struct Storage<'a> {
    pub etcd: &'a mut Etcd,
    pub now: u64,
    pub reachable: bool,
    pub lease_ttl_ms: u64,
    pub rec: &'a mut Recorder,
    /// Lease keys written, with their revision, so the world can schedule their expiry.
    pub lease_writes: Vec<(String, u64)>,
}

impl Storage<'_> {
    pub fn check(&self) -> Result<(), ApiError> {
        if self.reachable {
            Ok(())
        } else {
            Err(ApiError::Unavailable(UNREACHABLE.to_string()))
        }
    }
}

impl ReconcilerApi for Storage<'_> {
    fn get_endpoints(&mut self, name: &str) -> Result<Endpoints, ApiError> {
        self.check()?;
        match self
            .etcd
            .get(&etcd::endpoints_key("default", name), self.now)
            .map(|e| &e.value)
        {
            Some(Value::Endpoints(ep)) => Ok(ep.clone()),
            _ => Err(ApiError::NotFound(format!(
                "endpoints \"{name}\" not found"
            ))),
        }
    }

    fn create_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        self.check()?;
        let key = etcd::endpoints_key(&endpoints.namespace, &endpoints.name);
        self.etcd
            .compare_and_put(&key, 0, Value::Endpoints(endpoints.clone()), self.now)
            .map(|_| ())
            .map_err(|_| {
                ApiError::AlreadyExists(format!("endpoints \"{}\" already exists", endpoints.name))
            })
    }

    fn update_endpoints(&mut self, endpoints: &Endpoints) -> Result<(), ApiError> {
        self.check()?;
        let key = etcd::endpoints_key(&endpoints.namespace, &endpoints.name);
        if self.etcd.get(&key, self.now).is_none() {
            return Err(ApiError::NotFound(format!(
                "endpoints \"{}\" not found",
                endpoints.name
            )));
        }
        self.etcd
            .put(&key, Value::Endpoints(endpoints.clone()), None, self.now);
        Ok(())
    }

    fn list_leases(&mut self) -> Result<Vec<String>, ApiError> {
        self.check()?;
        Ok(self
            .etcd
            .leases(self.now)
            .into_iter()
            .map(|(_, ip, _)| ip)
            .collect())
    }

    fn update_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        self.check()?;
        let key = etcd::lease_key(ip);
        let generation = match self.etcd.get(&key, self.now).map(|e| &e.value) {
            Some(Value::Lease { generation, .. }) => generation + 1,
            _ => 1,
        };
        let rev = self.etcd.put(
            &key,
            Value::Lease {
                ip: ip.to_string(),
                generation,
            },
            Some(self.lease_ttl_ms),
            self.now,
        );
        self.lease_writes.push((key, rev));
        Ok(())
    }

    fn remove_lease(&mut self, ip: &str) -> Result<(), ApiError> {
        self.check()?;
        let key = etcd::lease_key(ip);
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

/// A range that lives in a `RangeAllocation` object.
pub trait Snapshottable {
    fn snapshot(&self) -> RangeAllocation;
    fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String>;
}

impl Snapshottable for Range {
    fn snapshot(&self) -> RangeAllocation {
        Range::snapshot(self)
    }
    fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        Range::restore_raw(self, range_spec, data)
    }
}

impl Snapshottable for PortAllocator {
    fn snapshot(&self) -> RangeAllocation {
        PortAllocator::snapshot(self)
    }
    fn restore_raw(&mut self, range_spec: &str, data: &[u8]) -> Result<(), String> {
        PortAllocator::restore_raw(self, range_spec, data)
    }
}

/// An apiserver's in-memory allocator with the resourceVersion it last wrote or read: it is
/// reloaded from etcd only when the stored object moved on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View<A> {
    pub alloc: A,
    pub key: &'static str,
    pub resource: &'static str,
    pub last: Option<u64>,
}

/// Why a guaranteed update gave up.
enum Update {
    /// The operation itself refused (`errorUnableToAllocate`).
    Unable,
    Failed(String),
}

impl<A: Snapshottable> View<A> {
    /// `tryUpdate`: read the object, reload memory if it moved on since we last saw it, apply
    /// `op` to memory and write the result back. (Since 1.19 memory is never trusted first: a
    /// stale view refused addresses another apiserver had freed, kubernetes#85894.)
    fn try_update(
        &mut self,
        st: &mut Storage,
        op: impl FnOnce(&mut A) -> bool,
    ) -> Result<(), Update> {
        if !st.reachable {
            return Err(Update::Failed(UNREACHABLE.to_string()));
        }
        let Some((existing, rev)) = st.etcd.range(self.key, st.now).map(|(r, v)| (r.clone(), v))
        else {
            return Err(Update::Failed(format!(
                "cannot allocate resources of type {} at this time",
                self.resource
            )));
        };
        if self.last != Some(rev) {
            self.alloc
                .restore_raw(&existing.range, &existing.data)
                .map_err(Update::Failed)?;
            self.last = Some(rev);
        }
        if !op(&mut self.alloc) {
            return Err(Update::Unable);
        }
        let new_rev = st
            .etcd
            .put(self.key, Value::Range(self.alloc.snapshot()), None, st.now);
        self.last = Some(new_rev);
        Ok(())
    }
}

pub type IpView = View<Range>;
pub type PortView = View<PortAllocator>;

impl IpView {
    pub fn allocate(&mut self, st: &mut Storage, ip: IpAddr) -> Result<(), ipallocator::Error> {
        if self.alloc.offset_of(ip).is_none() {
            return Err(ipallocator::Error::NotInRange {
                ip,
                valid_range: self.alloc.cidr().to_string(),
            });
        }
        let mut result = Ok(());
        match self.try_update(st, |r| {
            result = r.allocate(ip);
            result.is_ok()
        }) {
            Ok(()) => Ok(()),
            Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(ipallocator::Error::Other(e)),
        }
    }

    pub fn allocate_next(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
    ) -> Result<IpAddr, ipallocator::Error> {
        let mut result = Err(ipallocator::Error::Full);
        match self.try_update(st, |r| {
            result = r.allocate_next(rng);
            result.is_ok()
        }) {
            Ok(()) | Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(ipallocator::Error::Other(e)),
        }
    }

    pub fn release(&mut self, st: &mut Storage, ip: IpAddr) -> Result<(), String> {
        if self.alloc.offset_of(ip).is_none() {
            return Ok(());
        }
        match self.try_update(st, |r| {
            r.release(ip);
            true
        }) {
            Ok(()) | Err(Update::Unable) => Ok(()),
            Err(Update::Failed(e)) => Err(e),
        }
    }
}

impl PortView {
    pub fn allocate(&mut self, st: &mut Storage, port: i32) -> Result<(), portallocator::Error> {
        if self.alloc.offset_of(port).is_none() {
            return Err(portallocator::Error::NotInRange {
                valid_ports: self.alloc.range().to_string(),
            });
        }
        let mut result = Ok(());
        match self.try_update(st, |a| {
            result = a.allocate(port);
            result.is_ok()
        }) {
            Ok(()) => Ok(()),
            Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(portallocator::Error::Other(e)),
        }
    }

    pub fn allocate_next(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
    ) -> Result<i32, portallocator::Error> {
        let mut result = Err(portallocator::Error::Full);
        match self.try_update(st, |a| {
            result = a.allocate_next(rng);
            result.is_ok()
        }) {
            Ok(()) | Err(Update::Unable) => result,
            Err(Update::Failed(e)) => Err(portallocator::Error::Other(e)),
        }
    }

    pub fn release(&mut self, st: &mut Storage, port: i32) -> Result<(), String> {
        if self.alloc.offset_of(port).is_none() {
            st.rec.log(
                COMPONENT,
                EventKind::ReleaseFailed,
                format!("port is not in the range when release it. port: {port}"),
            );
            return Ok(());
        }
        match self.try_update(st, |a| {
            a.release(port);
            true
        }) {
            Ok(()) | Err(Update::Unable) => Ok(()),
            Err(Update::Failed(e)) => Err(e),
        }
    }
}

/// An apiserver's allocators: one ClusterIP range per configured family (primary first) and
/// the NodePort range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocators {
    pub ips: Vec<IpView>,
    pub ports: PortView,
}

impl Allocators {
    fn family(&mut self, family: IpFamily) -> Option<&mut IpView> {
        self.ips.iter_mut().find(|v| v.alloc.family() == family)
    }

    /// Service creation (`REST.Create` with its allocators): checks, then ClusterIP(s) and
    /// NodePorts, rolled back on any failure. Errors carry the API server's texts.
    pub fn create_service(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
        mut svc: Service,
    ) -> Result<Service, String> {
        st.check().map_err(|e| e.to_string())?;
        if st
            .etcd
            .get(&etcd::namespace_key(&svc.namespace), st.now)
            .is_none()
        {
            return Err(format!("namespaces \"{}\" not found", svc.namespace));
        }
        if st.etcd.service(&svc.namespace, &svc.name, st.now).is_some() {
            return Err(format!("services \"{}\" already exists", svc.name));
        }
        let invalid = |name: &str, field: &str, detail: String| {
            format!("Service \"{name}\" is invalid: {field}: {detail}")
        };
        let mut taken_ips: Vec<IpAddr> = Vec::new();
        let mut taken_ports: Vec<i32> = Vec::new();
        let result = (|| -> Result<(), String> {
            if svc.type_ == ServiceType::ExternalName {
                svc.cluster_ip.clear();
                svc.cluster_ips.clear();
                return Ok(());
            }
            let requested: Vec<String> = svc.cluster_ips().iter().map(|s| s.to_string()).collect();
            if requested.first().map(String::as_str) != Some("None") {
                let families = self
                    .families_for(&svc, &requested)
                    .map_err(|e| invalid(&svc.name, "spec.ipFamilyPolicy", e))?;
                let mut ips = Vec::new();
                for (i, family) in families.iter().enumerate() {
                    let view = self
                        .family(*family)
                        .expect("families_for only returns configured families");
                    let ip = match requested.get(i) {
                        Some(raw) => {
                            let ip = parse_ip(raw).ok_or_else(|| invalid(&svc.name, "spec.clusterIPs[0]",
                                format!("Invalid value: \"{raw}\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")))?;
                            view.allocate(st, ip).map_err(|e| {
                                invalid(&svc.name, "spec.clusterIPs", format!("Invalid value: []string{{{}}}: failed to allocate IP {ip}: {e}",
                                    requested.iter().map(|r| format!("{r:?}")).collect::<Vec<_>>().join(", ")))
                            })?;
                            ip
                        }
                        None => view.allocate_next(st, rng).map_err(|e| {
                            format!("Internal error occurred: failed to allocate a serviceIP: {e}")
                        })?,
                    };
                    taken_ips.push(ip);
                    ips.push(ip.to_string());
                }
                svc.cluster_ip = ips[0].clone();
                svc.cluster_ips = ips;
                svc.ip_families = families;
            }
            if matches!(svc.type_, ServiceType::NodePort | ServiceType::LoadBalancer) {
                for i in 0..svc.ports.len() {
                    let given = svc.ports[i].node_port;
                    let port = if given != 0 {
                        if !taken_ports.contains(&given) {
                            self.ports.allocate(st, given).map_err(|e| {
                                invalid(
                                    &svc.name,
                                    &format!("spec.ports[{i}].nodePort"),
                                    format!("Invalid value: {given}: {e}"),
                                )
                            })?;
                            taken_ports.push(given);
                        }
                        given
                    } else {
                        let p = self.ports.allocate_next(st, rng).map_err(|e| {
                            format!("Internal error occurred: failed to allocate a nodePort: {e}")
                        })?;
                        taken_ports.push(p);
                        p
                    };
                    svc.ports[i].node_port = port;
                }
            }
            let health = svc.health_check_node_port;
            if health != 0 && !taken_ports.contains(&health) {
                self.ports.allocate(st, health).map_err(|e| {
                    invalid(
                        &svc.name,
                        "spec.healthCheckNodePort",
                        format!("Invalid value: {health}: {e}"),
                    )
                })?;
                taken_ports.push(health);
            }
            Ok(())
        })();
        if let Err(e) = result {
            for ip in taken_ips {
                let _ = self.family(IpFamily::of(&ip)).map(|v| v.release(st, ip));
            }
            for p in taken_ports {
                let _ = self.ports.release(st, p);
            }
            return Err(e);
        }
        st.etcd.put(
            &etcd::service_key(&svc.namespace, &svc.name),
            Value::Service(svc.clone()),
            None,
            st.now,
        );
        Ok(svc)
    }

    /// The families a new Service gets, from its policy, its families and its requested IPs.
    fn families_for(&self, svc: &Service, requested: &[String]) -> Result<Vec<IpFamily>, String> {
        let configured: Vec<IpFamily> = self.ips.iter().map(|v| v.alloc.family()).collect();
        let mut wanted: Vec<IpFamily> = if !svc.ip_families.is_empty() {
            svc.ip_families.clone()
        } else if !requested.is_empty() {
            requested
                .iter()
                .filter_map(|r| parse_ip(r))
                .map(|ip| IpFamily::of(&ip))
                .collect()
        } else {
            vec![configured[0]]
        };
        if wanted.is_empty() {
            wanted.push(configured[0]);
        }
        let policy = svc.ip_family_policy.as_deref().unwrap_or("SingleStack");
        match policy {
            "SingleStack" => wanted.truncate(1),
            "PreferDualStack" | "RequireDualStack" => {
                for f in &configured {
                    if !wanted.contains(f) {
                        wanted.push(*f);
                    }
                }
                if policy == "RequireDualStack" && configured.len() < 2 {
                    return Err("Invalid value: \"RequireDualStack\": this cluster is not configured for dual-stack services".to_string());
                }
            }
            other => return Err(format!("Unsupported value: \"{other}\": supported values: \"PreferDualStack\", \"RequireDualStack\", \"SingleStack\"")),
        }
        wanted.truncate(configured.len());
        for f in &wanted {
            if !configured.contains(f) {
                return Err(format!(
                    "Invalid value: \"{f}\": not configured on this cluster"
                ));
            }
        }
        Ok(wanted)
    }

    /// Service deletion: the object goes, then its IPs and NodePorts are released.
    pub fn delete_service(
        &mut self,
        st: &mut Storage,
        namespace: &str,
        name: &str,
    ) -> Result<Service, String> {
        st.check().map_err(|e| e.to_string())?;
        let Some(svc) = st.etcd.service(namespace, name, st.now).cloned() else {
            return Err(format!("services \"{name}\" not found"));
        };
        st.etcd.delete(&etcd::service_key(namespace, name), st.now);
        if svc.is_ip_set() {
            for raw in svc.cluster_ips() {
                if let Some(ip) = parse_ip(raw) {
                    if let Some(view) = self.family(IpFamily::of(&ip)) {
                        if let Err(e) = view.release(st, ip) {
                            st.rec.log(
                                COMPONENT,
                                EventKind::ReleaseFailed,
                                format!("Error releasing service {name} IP {ip}: {e}"),
                            );
                        }
                    }
                }
            }
        }
        for port in collect_service_node_ports(&svc) {
            if let Err(e) = self.ports.release(st, port) {
                st.rec.log(
                    COMPONENT,
                    EventKind::ReleaseFailed,
                    format!("Error releasing service {name} node port {port}: {e}"),
                );
            }
        }
        Ok(svc)
    }
}
