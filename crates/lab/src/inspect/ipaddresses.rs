//! The IPAddress objects of behaviours 1.33 and 1.35, drawn over each ServiceCIDR's addresses:
//! one view per prefix of every ServiceCIDR, with the prefix's static band, each IPAddress as
//! RepairIPAddress classifies it ([`ip_address_verdict`]) and each Service's ClusterIP that has no
//! IPAddress. The bounds, the band and the verdicts are the core allocator's and repair loop's;
//! this module only places them on cells.

use std::collections::BTreeMap;
use std::net::IpAddr;

use ipnet::IpNet;

use super::{BitmapRange, BitmapView, Cell, ViewKind};
use crate::duration::format_ms;
use crate::k8s::api::KUBERNETES;
use crate::k8s::api::{IpAddress, ParentReference, Service, ServiceCidr};
use crate::k8s::ipallocator::ipaddress::CidrRange;
pub use crate::k8s::repair::repairip::ORPHAN_GRACE_MS;
use crate::k8s::repair::repairip::{ip_address_verdict, IpAddressVerdict};
use crate::k8s::servicecidrs::TERMINATING;
use crate::lang::Lang;
use crate::sim::world::World;

/// The most cells a view draws: a /8. A larger prefix (1.35 lifts the /12 limit; an IPv6
/// ServiceCIDR may be a /64) is drawn from its first address up to this many, and its objects
/// past them are listed instead.
pub const MAX_CELLS: usize = 1 << 24;

/// The IPAddress object at a cell: its parent and what RepairIPAddress makes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct IpObject {
    parent: ParentReference,
    verdict: IpAddressVerdict,
}

/// One prefix of one ServiceCIDR, with the IPAddress objects inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CidrView {
    /// The ServiceCIDR's name.
    pub name: String,
    /// Its `Ready` condition (`None`: unset).
    pub ready: Option<bool>,
    /// Being deleted (it may stay `Terminating` while IPAddresses depend on it alone).
    pub deleting: bool,
    /// Held back by IPAddresses that lie in it alone: its `Ready` condition is false with the
    /// reason the ServiceCIDR controller gives it then.
    pub terminating: bool,
    /// Usable addresses of the prefix, drawn or not.
    pub addresses: u128,
    /// The prefix's first usable address.
    pub first: String,
    /// The prefix's last usable address.
    pub last: String,
    /// The prefix's cells as drawn.
    pub view: BitmapView,
}

/// Everything the ClusterIP canvas draws under 1.33 and 1.35.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IpAddressMap {
    /// One per prefix of every ServiceCIDR, in name order.
    pub cidrs: Vec<CidrView>,
    /// IPAddress objects drawn on no canvas (in no ServiceCIDR, or past a canvas's last cell):
    /// (address, what it is).
    pub undrawn: Vec<(String, Cell, String)>,
}

/// The IPAddress objects over every ServiceCIDR that etcd holds now.
pub fn ip_address_map(w: &World) -> IpAddressMap {
    let now = w.now();
    let etcd = w.etcd();
    let services = etcd.services(now);
    let addresses = etcd.ip_addresses(now);
    let cidrs = etcd.service_cidrs(now);
    build(&cidrs, &addresses, &services)
}

/// [`ip_address_map`] from the objects themselves.
pub(crate) fn build(
    cidrs: &[&ServiceCidr],
    addresses: &[&IpAddress],
    services: &[&Service],
) -> IpAddressMap {
    let by_key: BTreeMap<String, &Service> = services.iter().map(|s| (s.key(), *s)).collect();
    // Per address: the Services holding it, in namespace/name order.
    let mut holders: BTreeMap<IpAddr, Vec<String>> = BTreeMap::new();
    for svc in services.iter().filter(|s| s.is_ip_set()) {
        for ip in svc.cluster_ips().into_iter().filter_map(crate::k8s::api::parse_ip) {
            holders.entry(ip).or_default().push(svc.key());
        }
    }
    let objects: Vec<(IpAddr, &IpAddress, IpAddressVerdict)> = addresses
        .iter()
        .filter_map(|a| {
            let parent = by_key.get(&a.parent.key()).copied();
            Some((a.address()?, *a, ip_address_verdict(a, parent)))
        })
        .collect();
    let mut map = IpAddressMap::default();
    let mut drawn: Vec<IpAddr> = Vec::new();
    for c in cidrs {
        for net in c.prefixes() {
            let range = CidrRange::new(net);
            let (view, placed) = cidr_view(net, &objects, &holders);
            drawn.extend(placed);
            let bound = |o: u128| range.ip_at(o).to_string();
            map.cidrs.push(CidrView {
                name: c.name.clone(),
                ready: c.ready,
                deleting: c.deleting,
                terminating: c.deleting && c.ready == Some(false) && c.reason == TERMINATING,
                addresses: range.size(),
                first: bound(0),
                last: bound(range.size().saturating_sub(1)),
                view,
            });
        }
    }
    for (ip, a, verdict) in &objects {
        if !drawn.contains(ip) {
            let cell = object_cell(*verdict, a, holders.get(ip).map_or(0, Vec::len));
            map.undrawn.push((a.ip.clone(), cell, a.parent.to_string()));
        }
    }
    map
}

/// The state of a cell holding an IPAddress with `verdict`, held by `holders` Services.
fn object_cell(verdict: IpAddressVerdict, a: &IpAddress, holders: usize) -> Cell {
    match verdict {
        _ if holders > 1 => Cell::Duplicate,
        IpAddressVerdict::Orphan { .. } => Cell::Leaked,
        IpAddressVerdict::WrongReference | IpAddressVerdict::NotService => Cell::WrongReference,
        IpAddressVerdict::Ok | IpAddressVerdict::Unmanaged
            if a.parent.namespace == "default"
                && a.parent.name == KUBERNETES
                && a.parent.is_service() =>
        {
            Cell::Kubernetes
        }
        IpAddressVerdict::Ok | IpAddressVerdict::Unmanaged => Cell::Allocated,
    }
}

/// The view of one prefix, its usable addresses and the objects placed on it.
fn cidr_view(
    net: IpNet,
    objects: &[(IpAddr, &IpAddress, IpAddressVerdict)],
    holders: &BTreeMap<IpAddr, Vec<String>>,
) -> (BitmapView, Vec<IpAddr>) {
    let range = CidrRange::new(net);
    let size = range.size().min(MAX_CELLS as u128) as usize;
    let band = range.static_band().min(size as u128) as usize;
    let mut v =
        BitmapView::sized(BitmapRange::Cidr(net.trunc()), size, band, ViewKind::IpAddresses);
    let cell_of =
        |ip: IpAddr| range.offset_of(ip).filter(|&o| o < size as u128).map(|o| o as usize);
    let mut placed = Vec::new();
    for &(ip, a, verdict) in objects {
        let Some(o) = cell_of(ip) else { continue };
        let owners = holders.get(&ip).map_or(&[][..], Vec::as_slice);
        let cell = object_cell(verdict, a, owners.len());
        v.marked.insert(o, cell);
        if !owners.is_empty() {
            v.owners.insert(o, owners.to_vec());
        }
        v.objects.insert(o, IpObject { parent: a.parent.clone(), verdict });
        placed.push(ip);
    }
    for (&ip, who) in holders {
        let Some(o) = cell_of(ip) else { continue };
        if v.objects.contains_key(&o) {
            continue;
        }
        let cell = if who.len() > 1 { Cell::Duplicate } else { Cell::Unallocated };
        v.marked.insert(o, cell);
        v.owners.insert(o, who.clone());
    }
    (v, placed)
}

impl BitmapView {
    /// For an orphan IPAddress: the instant (virtual ms) from which RepairIPAddress deletes it.
    pub fn deletable_at(&self, offset: usize) -> Option<i64> {
        match self.objects.get(&offset)?.verdict {
            IpAddressVerdict::Orphan { deletable_at_ms } => Some(deletable_at_ms),
            _ => None,
        }
    }

    /// For an orphan IPAddress: how long, at `now`, until RepairIPAddress may delete it (0 once
    /// it may).
    pub fn deletable_in(&self, offset: usize, now: u64) -> Option<u64> {
        self.deletable_at(offset).map(|at| at.saturating_sub(now as i64).max(0) as u64)
    }

    /// The orphan IPAddresses, soonest deletable first: (offset, deletable at).
    pub fn orphans(&self) -> Vec<(usize, i64)> {
        let mut out: Vec<(usize, i64)> =
            self.objects.keys().filter_map(|&o| Some((o, self.deletable_at(o)?))).collect();
        out.sort_by_key(|&(o, at)| (at, o));
        out
    }

    /// The parent of the IPAddress at `offset` (`services/default/web`), if there is one.
    pub fn parent(&self, offset: usize) -> Option<String> {
        self.objects.get(&offset).map(|o| o.parent.to_string())
    }

    /// What an IPAddress view's cell holds, in words.
    pub(crate) fn describe_object(&self, offset: usize, lang: Lang) -> String {
        let owners = self.owners(offset).join(", ");
        let Some(obj) = self.objects.get(&offset) else {
            return match (self.cell(offset), lang) {
                (Some(Cell::Duplicate), Lang::En) => format!("ClusterIP of several Services, {owners}, and no IPAddress: RepairIPAddress reports ClusterIPAlreadyAllocated"),
                (Some(Cell::Duplicate), Lang::Zh) => format!("多个 Service 的 ClusterIP：{owners}，且没有 IPAddress：RepairIPAddress 报告 ClusterIPAlreadyAllocated"),
                (Some(Cell::Unallocated), Lang::En) => format!("ClusterIP of {owners} with no IPAddress: RepairIPAddress will create it"),
                (Some(Cell::Unallocated), Lang::Zh) => format!("{owners} 的 ClusterIP 没有 IPAddress：RepairIPAddress 会创建它"),
                (None, _) => lang.pick("outside the ServiceCIDR", "不在该 ServiceCIDR 内").to_string(),
                _ => lang.pick("free: no IPAddress", "空闲：没有 IPAddress").to_string(),
            };
        };
        let parent = obj.parent.to_string();
        let head = match lang {
            Lang::En => format!("IPAddress, parent {parent}"),
            Lang::Zh => format!("IPAddress，parent 为 {parent}"),
        };
        let what = match (self.cell(offset), obj.verdict, lang) {
            (Some(Cell::Duplicate), _, Lang::En) => format!("ClusterIP of several Services ({owners}): RepairIPAddress reports ClusterIPAlreadyAllocated"),
            (Some(Cell::Duplicate), _, Lang::Zh) => format!("它是多个 Service 的 ClusterIP（{owners}）：RepairIPAddress 报告 ClusterIPAlreadyAllocated"),
            (_, IpAddressVerdict::Orphan { deletable_at_ms }, Lang::En) => format!(
                "its Service does not exist: an orphan, deletable by RepairIPAddress from t = {}, 60 s after it was created",
                format_ms(deletable_at_ms.max(0) as u64)
            ),
            (_, IpAddressVerdict::Orphan { deletable_at_ms }, Lang::Zh) => format!(
                "它的 Service 不存在：孤儿对象，创建 60 秒后（t = {} 起）RepairIPAddress 可以删除它",
                format_ms(deletable_at_ms.max(0) as u64)
            ),
            (_, IpAddressVerdict::WrongReference, Lang::En) => format!(
                "wrong reference: {} exists but does not hold this address; RepairIPAddress deletes it when it next checks this IPAddress, with no grace period",
                obj.parent.key()
            ),
            (_, IpAddressVerdict::WrongReference, Lang::Zh) => format!(
                "引用错误：{} 存在，但并不持有这个地址；RepairIPAddress 下次检查这个 IPAddress 时会删除它，没有宽限期",
                obj.parent.key()
            ),
            (_, IpAddressVerdict::NotService, _) => lang
                .pick(
                    "its parent is not a Service: RepairIPAddress deletes it when it next checks this IPAddress",
                    "它的 parent 不是 Service：RepairIPAddress 下次检查这个 IPAddress 时会删除它",
                )
                .to_string(),
            (_, IpAddressVerdict::Unmanaged, _) => lang
                .pick(
                    "not made by the ClusterIP allocator: RepairIPAddress leaves it alone",
                    "不是 ClusterIP 分配器创建的：RepairIPAddress 不管它",
                )
                .to_string(),
            (Some(Cell::Kubernetes), _, _) => {
                lang.pick("the kubernetes Service's address", "即 kubernetes Service 的地址").to_string()
            }
            _ => lang.pick("its Service holds it", "它的 Service 持有这个地址").to_string(),
        };
        format!("{head}{}{what}", lang.pick(": ", "："))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k8s::api::IpAddress;

    fn svc(name: &str, ip: &str) -> Service {
        Service {
            namespace: "default".into(),
            name: name.into(),
            cluster_ip: ip.into(),
            ..Service::default()
        }
    }

    fn addr(ip: &str, parent: &str, created_ms: i64) -> IpAddress {
        let mut a = IpAddress::allocated(
            ip.parse().unwrap(),
            ParentReference::service("default", parent),
            0,
        );
        a.created_ms = created_ms;
        a
    }

    #[test]
    fn objects_are_placed_and_classified_by_the_repair_loop() {
        let cidr = ServiceCidr::new(KUBERNETES, vec!["10.96.0.0/24".into()]);
        let services = [
            svc(KUBERNETES, "10.96.0.1"),
            svc("web", "10.96.0.20"),
            svc("lost", "10.96.0.30"),
            svc("a", "10.96.0.40"),
            svc("b", "10.96.0.40"),
        ];
        let addresses = [
            addr("10.96.0.1", KUBERNETES, 0),
            addr("10.96.0.20", "web", 0),
            addr("10.96.0.50", "gone", 5_000),
            addr("10.96.0.60", "web", 0),
            addr("10.200.0.1", "web", 0),
        ];
        let m = build(
            &[&cidr],
            &addresses.iter().collect::<Vec<_>>(),
            &services.iter().collect::<Vec<_>>(),
        );
        assert_eq!(m.cidrs.len(), 1);
        let v = &m.cidrs[0].view;
        assert_eq!((v.size(), v.static_band(), v.kind()), (254, 16, ViewKind::IpAddresses));
        assert_eq!(m.cidrs[0].addresses, 254);
        assert_eq!(
            (m.cidrs[0].first.as_str(), m.cidrs[0].last.as_str()),
            ("10.96.0.1", "10.96.0.254")
        );
        assert_eq!(v.cell(0), Some(Cell::Kubernetes));
        assert_eq!(v.cell(19), Some(Cell::Allocated));
        assert_eq!(v.cell(29), Some(Cell::Unallocated), "a ClusterIP with no IPAddress");
        assert_eq!(v.cell(39), Some(Cell::Duplicate));
        assert_eq!(v.cell(49), Some(Cell::Leaked), "an orphan");
        assert_eq!(v.cell(59), Some(Cell::WrongReference), "web holds .20, not .60");
        assert_eq!(v.deletable_at(49), Some(65_000));
        assert_eq!(
            (v.deletable_in(49, 60_000), v.deletable_in(49, 70_000)),
            (Some(5_000), Some(0))
        );
        assert_eq!(v.orphans(), [(49, 65_000)]);
        assert_eq!(v.deletable_at(19), None);
        assert_eq!(
            m.undrawn,
            [("10.200.0.1".to_string(), Cell::WrongReference, "services/default/web".to_string())]
        );
        assert_eq!(
            v.describe(49, Lang::En),
            "10.96.0.50 · dynamic band · IPAddress, parent services/default/gone: its Service does not exist: an orphan, deletable by RepairIPAddress from t = 1m5s, 60 s after it was created"
        );
        assert!(v
            .describe(59, Lang::En)
            .contains("wrong reference: default/web exists but does not hold this address"));
        assert!(v
            .describe(29, Lang::Zh)
            .ends_with("default/lost 的 ClusterIP 没有 IPAddress：RepairIPAddress 会创建它"));
        assert_eq!(v.describe(2, Lang::En), "10.96.0.3 · static band · free: no IPAddress");
    }

    #[test]
    fn a_deleted_service_cidr_held_by_its_addresses_is_terminating() {
        let mut cidr = ServiceCidr::new("old", vec!["10.96.0.0/24".into()]);
        cidr.deleting = true;
        let m = build(&[&cidr], &[], &[]);
        assert!(m.cidrs[0].deleting && !m.cidrs[0].terminating);
        cidr.set_ready(false, TERMINATING, "There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR");
        let m = build(&[&cidr], &[], &[]);
        assert!(m.cidrs[0].terminating);
    }

    #[test]
    fn a_huge_prefix_is_drawn_up_to_a_slash_8() {
        let cidr = ServiceCidr::new("big", vec!["10.0.0.0/4".into(), "fd00::/64".into()]);
        let far = addr("15.0.0.1", "x", 0);
        let m = build(&[&cidr], &[&far], &[]);
        assert_eq!(m.cidrs.len(), 2);
        assert_eq!(m.cidrs[0].view.size(), MAX_CELLS);
        assert_eq!(m.cidrs[0].addresses, (1 << 28) - 2);
        assert_eq!(m.cidrs[1].addresses, (1u128 << 64) - 1);
        assert_eq!(m.cidrs[1].last, "fd00::ffff:ffff:ffff:ffff");
        assert_eq!(m.cidrs[0].view.static_band(), 256);
        assert_eq!(m.undrawn.len(), 1, "past the drawn cells: listed");
    }
}
