//! The Service REST paths and their allocators (`pkg/registry/core/service/storage`:
//! `storage.go`'s create and delete, `alloc.go`'s `Allocators`).

use std::net::IpAddr;

use ipnet::IpNet;

use super::{IpView, PortView, Storage, COMPONENT};
use crate::allocator::Error;
use crate::api::{parse_ip, Behavior, IpAddress, IpFamily, ParentReference, Service, ServiceType};
use crate::etcd::{self, Value};
use crate::event::EventKind;
use crate::ipallocator::cidrallocator;
use crate::repair::nodeport::collect_service_node_ports;
use crate::rng::SimRng;

/// An apiserver's allocators (`storage/alloc.go`'s `Allocators`): per configured family
/// (primary first) a ClusterIP bitmap (to 1.29 the allocator itself, in 1.33 the dual-written
/// copy, none from 1.34) or, from 1.33, the MetaAllocator over ServiceCIDRs and IPAddress
/// objects; and the NodePort range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocators {
    /// The ClusterIP bitmaps, one per configured family, primary first; empty when no bitmap is
    /// written.
    pub ips: Vec<IpView>,
    /// The NodePort range.
    pub ports: PortView,
    /// The configured families, primary first.
    pub(crate) families: Vec<IpFamily>,
    /// The release whose rules (and texts) they follow.
    pub(crate) behavior: Behavior,
}

/// What a create has allocated so far, given back if a later step fails (the `revert` of
/// `alloc.go`'s transactions).
#[derive(Default)]
struct Taken {
    ips: Vec<IpAddr>,
    ports: Vec<i32>,
}

/// The IPAddress the allocator creates: `AlreadyExists` is `ErrAllocated`.
fn create_ip_address(
    st: &mut Storage,
    ip: IpAddr,
    parent: &ParentReference,
) -> Result<(), cidrallocator::Error> {
    st.check().map_err(|e| cidrallocator::Error::Other(e.to_string()))?;
    let obj = IpAddress::allocated(ip, parent.clone(), st.now);
    let key = etcd::ip_address_key(&obj.ip);
    st.etcd
        .compare_and_put(&key, 0, Value::IpAddress(obj), st.now)
        .map(|_| ())
        .map_err(|_| cidrallocator::Error::Allocated)
}

/// `Service "<name>" is invalid: <field>: <detail>`.
fn invalid(name: &str, field: &str, detail: String) -> String {
    format!("Service \"{name}\" is invalid: {field}: {detail}")
}

impl Allocators {
    fn family(&mut self, family: IpFamily) -> Option<&mut IpView> {
        self.ips.iter_mut().find(|v| v.alloc.family() == family)
    }

    /// The MetaAllocator's allocators of `family`, from the ServiceCIDRs in etcd (the lab's
    /// informer cache is always in sync).
    fn cidr_allocators(st: &Storage, family: IpFamily) -> Vec<cidrallocator::Item> {
        cidrallocator::allocators(&st.etcd.service_cidrs(st.now), family)
    }

    /// 1.33's dual-write copy of `family`, when it covers `ip`.
    fn dual_write(&mut self, ip: IpAddr) -> Option<&mut IpView> {
        self.family(IpFamily::of(&ip)).filter(|v| v.alloc.cidr().contains(&ip))
    }

    /// `Allocate(ip)` for `parent`: the bitmap's, or `AllocateService` of the MetaAllocator
    /// (the address in a ready ServiceCIDR; 1.33 first takes the bit, and returns its refusal).
    fn allocate_ip(
        &mut self,
        st: &mut Storage,
        ip: IpAddr,
        parent: &ParentReference,
    ) -> Result<(), String> {
        if !self.behavior.ip_addresses() {
            let view = self
                .family(IpFamily::of(&ip))
                .ok_or_else(|| Error::<IpNet>::MismatchedNetwork.to_string())?;
            return view.allocate(st, ip).map_err(|e| e.to_string());
        }
        let items = Self::cidr_allocators(st, IpFamily::of(&ip));
        cidrallocator::allocator_for(&items, ip, true).map_err(|e| e.to_string())?;
        if let Some(view) = self.dual_write(ip) {
            view.allocate(st, ip).map_err(|e| e.to_string())?;
        }
        create_ip_address(st, ip, parent).map_err(|e| e.to_string())
    }

    /// `AllocateNext` for `parent`: the bitmap's, or the MetaAllocator's over its ready
    /// allocators in seeded order; under 1.33 an address whose bit is already set is given up
    /// (its IPAddress stays) and the next allocator tried, as upstream does.
    fn allocate_next_ip(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
        family: IpFamily,
        parent: &ParentReference,
    ) -> Result<IpAddr, String> {
        if !self.behavior.ip_addresses() {
            let view = self.family(family).expect("a configured family");
            return view.allocate_next(st, rng).map_err(|e| e.to_string());
        }
        st.check().map_err(|e| e.to_string())?;
        let items = Self::cidr_allocators(st, family);
        for item in cidrallocator::dynamic_order(&items, rng) {
            let etcd = &*st.etcd;
            let now = st.now;
            let taken = |ip: IpAddr| etcd.ip_address(&ip.to_string(), now).is_some();
            let Some(ip) = item.range.next_free(rng, taken) else {
                continue;
            };
            create_ip_address(st, ip, parent).map_err(|e| e.to_string())?;
            if let Some(view) = self.dual_write(ip) {
                if view.allocate(st, ip).is_err() {
                    continue;
                }
            }
            return Ok(ip);
        }
        Err(cidrallocator::Error::Full.to_string())
    }

    /// `Release(ip)`: the bitmap's, or the MetaAllocator's through any allocator containing
    /// the address, ready or not (1.33 also clears the bit); the IPAddress object goes.
    fn release_ip(&mut self, st: &mut Storage, ip: IpAddr) -> Result<(), String> {
        if !self.behavior.ip_addresses() {
            return match self.family(IpFamily::of(&ip)) {
                Some(view) => view.release(st, ip),
                None => Ok(()),
            };
        }
        let items = Self::cidr_allocators(st, IpFamily::of(&ip));
        cidrallocator::allocator_for(&items, ip, false).map_err(|e| e.to_string())?;
        if let Some(view) = self.dual_write(ip) {
            let _ = view.release(st, ip);
        }
        st.check().map_err(|e| e.to_string())?;
        st.etcd.delete(&etcd::ip_address_key(&ip.to_string()), st.now);
        Ok(())
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
        if st.etcd.get(&etcd::namespace_key(&svc.namespace), st.now).is_none() {
            return Err(format!("namespaces \"{}\" not found", svc.namespace));
        }
        if st.etcd.service(&svc.namespace, &svc.name, st.now).is_some() {
            return Err(format!("services \"{}\" already exists", svc.name));
        }
        self.allocate_create(st, rng, &mut svc)?;
        st.etcd.put(
            &etcd::service_key(&svc.namespace, &svc.name),
            Value::Service(svc.clone()),
            None,
            st.now,
        );
        Ok(svc)
    }

    /// `allocateCreate`: the ClusterIPs, then the NodePorts; on a failure everything taken so
    /// far is released again, IPs first.
    fn allocate_create(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
        svc: &mut Service,
    ) -> Result<(), String> {
        if svc.type_ == ServiceType::ExternalName {
            svc.cluster_ip.clear();
            svc.cluster_ips.clear();
            return Ok(());
        }
        let mut taken = Taken::default();
        let result = self
            .alloc_cluster_ips(st, rng, svc, &mut taken)
            .and_then(|()| self.alloc_node_ports(st, rng, svc, &mut taken));
        if result.is_err() {
            for ip in taken.ips {
                let _ = self.release_ip(st, ip);
            }
            for p in taken.ports {
                let _ = self.ports.release(st, p);
            }
        }
        result
    }

    /// `allocClusterIPs`: one IP per family the Service gets, the requested one or the next free.
    /// A headless Service (`None`) gets none.
    fn alloc_cluster_ips(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
        svc: &mut Service,
        taken: &mut Taken,
    ) -> Result<(), String> {
        let requested: Vec<String> = svc.cluster_ips().iter().map(|s| s.to_string()).collect();
        if requested.first().map(String::as_str) == Some("None") {
            return Ok(());
        }
        let families = self
            .init_ip_family_fields(svc, &requested)
            .map_err(|e| invalid(&svc.name, "spec.ipFamilyPolicy", e))?;
        let mut ips = Vec::new();
        let parent = ParentReference::service(&svc.namespace, &svc.name);
        let legacy = self.behavior.legacy();
        for (i, family) in families.iter().enumerate() {
            let ip = match requested.get(i) {
                Some(raw) => {
                    let ip = parse_ip(raw).ok_or_else(|| invalid(&svc.name, "spec.clusterIPs[0]",
                        format!("Invalid value: \"{raw}\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")))?;
                    self.allocate_ip(st, ip, &parent).map_err(|e| {
                        invalid(
                            &svc.name,
                            "spec.clusterIPs",
                            format!(
                                "Invalid value: []string{{{}}}: {}",
                                requested
                                    .iter()
                                    .map(|r| format!("{r:?}"))
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                // 1.20's rest.go; `alloc.go`'s wording since the 1.22/1.23 refactor.
                                if legacy {
                                    format!("failed to allocated ip:{ip} with error:{e}")
                                } else {
                                    format!("failed to allocate IP {ip}: {e}")
                                }
                            ),
                        )
                    })?;
                    ip
                }
                None => self.allocate_next_ip(st, rng, *family, &parent).map_err(|e| {
                    format!("Internal error occurred: failed to allocate a serviceIP: {e}")
                })?,
            };
            taken.ips.push(ip);
            ips.push(ip.to_string());
        }
        svc.cluster_ip = ips[0].clone();
        svc.cluster_ips = ips;
        svc.ip_families = families;
        Ok(())
    }

    /// `initIPFamilyFields`, reduced to what a create needs: the families a new Service gets, from
    /// its policy, its families and its requested IPs.
    fn init_ip_family_fields(
        &self,
        svc: &Service,
        requested: &[String],
    ) -> Result<Vec<IpFamily>, String> {
        let configured = self.families.clone();
        let mut wanted: Vec<IpFamily> = if !svc.ip_families.is_empty() {
            svc.ip_families.clone()
        } else if !requested.is_empty() {
            requested.iter().filter_map(|r| parse_ip(r)).map(|ip| IpFamily::of(&ip)).collect()
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
                return Err(format!("Invalid value: \"{f}\": not configured on this cluster"));
            }
        }
        Ok(wanted)
    }

    /// `txnAllocNodePorts`: the NodePorts of a NodePort or LoadBalancer Service (the same port
    /// given twice is taken once), then its `healthCheckNodePort`.
    fn alloc_node_ports(
        &mut self,
        st: &mut Storage,
        rng: &mut SimRng,
        svc: &mut Service,
        taken: &mut Taken,
    ) -> Result<(), String> {
        if matches!(svc.type_, ServiceType::NodePort | ServiceType::LoadBalancer) {
            for i in 0..svc.ports.len() {
                let given = svc.ports[i].node_port;
                let port = if given != 0 {
                    if !taken.ports.contains(&given) {
                        self.ports.allocate(st, given).map_err(|e| {
                            invalid(
                                &svc.name,
                                &format!("spec.ports[{i}].nodePort"),
                                format!("Invalid value: {given}: {e}"),
                            )
                        })?;
                        taken.ports.push(given);
                    }
                    given
                } else {
                    let p = self.ports.allocate_next(st, rng).map_err(|e| {
                        format!("Internal error occurred: failed to allocate a nodePort: {e}")
                    })?;
                    taken.ports.push(p);
                    p
                };
                svc.ports[i].node_port = port;
            }
        }
        let health = svc.health_check_node_port;
        if health != 0 && !taken.ports.contains(&health) {
            self.ports.allocate(st, health).map_err(|e| {
                invalid(
                    &svc.name,
                    "spec.healthCheckNodePort",
                    format!("Invalid value: {health}: {e}"),
                )
            })?;
            taken.ports.push(health);
        }
        Ok(())
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
                    if let Err(e) = self.release_ip(st, ip) {
                        st.rec.log(
                            COMPONENT,
                            EventKind::ReleaseFailed,
                            format!("Error releasing service {name} IP {ip}: {e}"),
                        );
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
