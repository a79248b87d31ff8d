//! Storage writes behind the allocators' back (`corrupt` actions): what the repair loops exist
//! to find.

use std::net::IpAddr;

use ipnet::IpNet;

use super::actions::refused;
use super::World;
use crate::contract::scenario::Corruption;
use crate::k8s::allocator::{Allocator, ItemRange};
use crate::k8s::api::{IpAddress, IpFamily, Service, ServicePort};
use crate::k8s::etcd::{self, Loop, Value};
use crate::k8s::event::ActionFailed;
use crate::k8s::ipallocator::family_of;
use crate::k8s::portallocator::PortRange;

impl World {
    pub(super) fn corrupt(&mut self, c: &Corruption) -> Result<(), ActionFailed> {
        self.etcd.sending("lab", Loop::Lab);
        let (object, result) = match c {
            Corruption::LeakClusterIp { ip } => (ip.to_string(), self.edit_ip_bitmap(*ip, true)),
            Corruption::UnallocateClusterIp { ip } => {
                (ip.to_string(), self.edit_ip_bitmap(*ip, false))
            }
            Corruption::LeakNodePort { port } => {
                (port.to_string(), self.edit_port_bitmap(*port, true))
            }
            Corruption::UnallocateNodePort { port } => {
                (port.to_string(), self.edit_port_bitmap(*port, false))
            }
            Corruption::ForceClusterIp { namespace, name, ip } => (
                format!("{namespace}/{name}"),
                self.edit_service(namespace, name, |svc| {
                    svc.cluster_ip = ip.to_string();
                    svc.cluster_ips = vec![ip.to_string()];
                }),
            ),
            Corruption::ForceNodePort { namespace, name, port } => (
                format!("{namespace}/{name}"),
                self.edit_service(namespace, name, |svc| match svc.ports.first_mut() {
                    Some(p) => p.node_port = *port,
                    None => svc.ports.push(ServicePort {
                        port: 80,
                        node_port: *port,
                        ..Default::default()
                    }),
                }),
            ),
            Corruption::PutIpAddress { ip, parent } => {
                let obj = IpAddress::allocated(*ip, parent.clone(), self.now);
                let key = etcd::ip_address_key(&obj.ip);
                self.etcd.put(&key, Value::IpAddress(obj), None, self.now);
                (ip.to_string(), Ok(()))
            }
            Corruption::DeleteIpAddress { ip } => {
                let name = ip.to_string();
                let gone = self.etcd.delete(&etcd::ip_address_key(&name), self.now);
                let not_found = format!("ipaddresses.networking.k8s.io {name:?} not found");
                (name, if gone { Ok(()) } else { Err(not_found) })
            }
        };
        result.map_err(|e| refused("", &object, e))?;
        self.sync_endpoints_controller();
        Ok(())
    }

    /// Sets (`set`) or clears `ip` in the stored bitmap of its family.
    fn edit_ip_bitmap(&mut self, ip: IpAddr, set: bool) -> Result<(), String> {
        let secondary = self
            .cfg
            .service_ip_ranges
            .secondary
            .is_some_and(|n| family_of(&n) == IpFamily::of(&ip));
        let key =
            if secondary { etcd::RANGE_SECONDARY_SERVICE_IPS } else { etcd::RANGE_SERVICE_IPS };
        self.edit_bitmap::<IpNet>(key, ip, set)
    }

    /// Sets (`set`) or clears `port` in the stored NodePort bitmap.
    fn edit_port_bitmap(&mut self, port: i32, set: bool) -> Result<(), String> {
        self.edit_bitmap::<PortRange>(etcd::RANGE_NODE_PORTS, port, set)
    }

    /// Sets or clears `item` in the `RangeAllocation` at `key`, as a direct etcd write would.
    fn edit_bitmap<R: ItemRange>(
        &mut self,
        key: &str,
        item: R::Item,
        set: bool,
    ) -> Result<(), String> {
        let (snap, _) = self
            .etcd
            .range(key, self.now)
            .ok_or_else(|| format!("{key} is not initialised yet"))?;
        let mut a =
            Allocator::<R>::from_snapshot(snap, self.behavior).map_err(|e| e.to_string())?;
        if set {
            a.allocate(item).map_err(|e| e.to_string())?;
        } else if a.has(item) {
            a.release(item);
        } else {
            return Err(format!("{item} is not allocated"));
        }
        self.etcd.put(key, Value::Range(a.snapshot()), None, self.now);
        Ok(())
    }

    fn edit_service(
        &mut self,
        ns: &str,
        name: &str,
        edit: impl FnOnce(&mut Service),
    ) -> Result<(), String> {
        let mut svc = self
            .etcd
            .service(ns, name, self.now)
            .cloned()
            .ok_or_else(|| format!("services \"{name}\" not found"))?;
        edit(&mut svc);
        let key = etcd::service_key(ns, name);
        self.etcd.put(&key, Value::Service(svc), None, self.now);
        Ok(())
    }
}
