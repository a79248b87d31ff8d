//! Read-only views the UI draws: each bitmap cell with its state and owners, and what a cell
//! means, in English or Chinese. Every rule lives here, in the core; the UI only paints the
//! answers.

use std::collections::BTreeMap;

use crate::api::{parse_ip, IpFamily, Service};
use crate::controlplane::{Status, KUBERNETES};
use crate::ipallocator::Range;
use crate::lang::Lang;
use crate::repair::nodeport::collect_service_node_ports;
use crate::world::World;

/// What one bitmap cell shows. The byte values are stable: the canvas maps them to colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Cell {
    Free = 0,
    /// Set in etcd and owned by exactly one Service.
    Allocated = 1,
    /// The `kubernetes` Service's own address.
    Kubernetes = 2,
    /// Set in etcd with no Service: a leak, or an allocation whose Service is not there yet.
    Leaked = 3,
    /// Owned by two or more Services.
    Duplicate = 4,
    /// A Service holds it but the bit is clear (the repair loop will set it).
    Unallocated = 5,
}

/// One range as the UI shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitmapView {
    /// `10.96.0.0/12` or `30000-32767`.
    pub range: String,
    pub size: usize,
    pub static_band: usize,
    /// One [`Cell`] byte per offset.
    pub cells: Vec<u8>,
    /// Services per offset (namespace/name), for the tooltip.
    pub owners: BTreeMap<usize, Vec<String>>,
    /// Runs left before the soonest running apiserver frees a leaked cell.
    pub leak_countdown: BTreeMap<usize, i32>,
    /// Services whose IP or port lies outside the range: (service, value).
    pub out_of_range: Vec<(String, String)>,
}

impl BitmapView {
    fn build(
        range: String,
        size: usize,
        static_band: usize,
        set: impl Iterator<Item = usize>,
        owned: Vec<(Option<usize>, String, String)>,
        countdowns: BTreeMap<usize, i32>,
        kubernetes: Option<usize>,
    ) -> Self {
        let mut cells = vec![Cell::Free as u8; size];
        for offset in set.filter(|&o| o < size) {
            cells[offset] = Cell::Leaked as u8;
        }
        let mut owners: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut out_of_range = Vec::new();
        for (offset, who, value) in owned {
            match offset {
                Some(o) => owners.entry(o).or_default().push(who),
                None => out_of_range.push((who, value)),
            }
        }
        for (&o, who) in &owners {
            let set = cells[o] != Cell::Free as u8;
            cells[o] = match (who.len(), set) {
                (n, _) if n > 1 => Cell::Duplicate,
                (_, false) => Cell::Unallocated,
                _ if Some(o) == kubernetes => Cell::Kubernetes,
                _ => Cell::Allocated,
            } as u8;
        }
        let leak_countdown = countdowns
            .into_iter()
            .filter(|(o, _)| cells.get(*o) == Some(&(Cell::Leaked as u8)))
            .collect();
        BitmapView {
            range,
            size,
            static_band,
            cells,
            owners,
            leak_countdown,
            out_of_range,
        }
    }
}

fn services(w: &World) -> Vec<&Service> {
    w.etcd().services(w.now())
}

/// The ClusterIP bitmap of family `index` (0 = primary), from what etcd stores.
pub fn cluster_ip_bitmap(w: &World, index: usize) -> Option<BitmapView> {
    let range = w.stored_cluster_ips(index)?;
    let family = range.family();
    let mut owned = Vec::new();
    for svc in services(w).into_iter().filter(|s| s.is_ip_set()) {
        for raw in svc.cluster_ips() {
            if let Some(ip) = parse_ip(raw).filter(|ip| IpFamily::of(ip) == family) {
                owned.push((range.offset_of(ip), svc.key(), ip.to_string()));
            }
        }
    }
    let countdowns = lowest_countdowns(
        w.apiservers()
            .filter(|a| a.status == Status::Running)
            .flat_map(|a| {
                a.ip_repair
                    .leaks(family)
                    .into_iter()
                    .flatten()
                    .map(|(ip, n)| (range.offset_of(*ip), *n))
            }),
    );
    let kubernetes = w
        .etcd()
        .service("default", KUBERNETES, w.now())
        .and_then(|s| parse_ip(&s.cluster_ip))
        .and_then(|ip| range.offset_of(ip));
    Some(BitmapView::build(
        range.cidr().to_string(),
        range.size(),
        range.static_band(),
        range.offsets(),
        owned,
        countdowns,
        kubernetes,
    ))
}

/// Per offset in the range, the lowest leak counter any running apiserver's repair holds: the
/// run that frees it comes first.
fn lowest_countdowns(leaks: impl Iterator<Item = (Option<usize>, i32)>) -> BTreeMap<usize, i32> {
    let mut out = BTreeMap::new();
    for (offset, n) in leaks {
        if let Some(o) = offset {
            out.entry(o)
                .and_modify(|c: &mut i32| *c = (*c).min(n))
                .or_insert(n);
        }
    }
    out
}

/// The NodePort bitmap, from what etcd stores.
pub fn node_port_bitmap(w: &World) -> BitmapView {
    let alloc = w.stored_node_ports();
    let mut owned = Vec::new();
    for svc in services(w) {
        let mut ports = collect_service_node_ports(svc);
        ports.dedup();
        for p in ports {
            owned.push((alloc.offset_of(p), svc.key(), p.to_string()));
        }
    }
    let countdowns = lowest_countdowns(
        w.apiservers()
            .filter(|a| a.status == Status::Running)
            .flat_map(|a| {
                a.port_repair
                    .leaks()
                    .iter()
                    .map(|(port, n)| (alloc.offset_of(*port), *n))
            }),
    );
    let kubernetes = w
        .etcd()
        .service("default", KUBERNETES, w.now())
        .and_then(|s| s.ports.first())
        .filter(|p| p.node_port != 0)
        .and_then(|p| alloc.offset_of(p.node_port));
    BitmapView::build(
        alloc.range().to_string(),
        alloc.size(),
        alloc.static_band(),
        alloc.offsets(),
        owned,
        countdowns,
        kubernetes,
    )
}

impl BitmapView {
    /// The address or port at `offset`.
    pub fn label(&self, offset: usize) -> String {
        match crate::ipallocator::parse_cidr(&self.range) {
            Ok(net) => Range::new(net, crate::api::Behavior::V1_20)
                .ip_at(offset)
                .to_string(),
            Err(_) => crate::portallocator::PortRange::parse(&self.range)
                .map(|r| (r.base + offset as i32).to_string())
                .unwrap_or_default(),
        }
    }

    /// The tooltip of a cell in `lang`: address or port, band, state and owners.
    pub fn describe(&self, offset: usize, lang: Lang) -> String {
        let band = if offset < self.static_band {
            lang.pick("static band", "静态段")
        } else {
            lang.pick("dynamic band", "动态段")
        };
        let owners = self
            .owners
            .get(&offset)
            .map(|o| o.join(", "))
            .unwrap_or_default();
        let en = lang == Lang::En;
        let state = match self.cells.get(offset).copied() {
            Some(c) if c == Cell::Free as u8 => lang.pick("free", "空闲").to_string(),
            Some(c) if c == Cell::Allocated as u8 => match lang {
                Lang::En => format!("allocated to {owners}"),
                Lang::Zh => format!("已分配给 {owners}"),
            },
            Some(c) if c == Cell::Kubernetes as u8 => match lang {
                Lang::En => format!("allocated to {owners} (the kubernetes Service)"),
                Lang::Zh => format!("已分配给 {owners}（即 kubernetes Service）"),
            },
            Some(c) if c == Cell::Duplicate as u8 => match lang {
                Lang::En => format!("assigned to several services: {owners}"),
                Lang::Zh => format!("同时分配给了多个 Service：{owners}"),
            },
            Some(c) if c == Cell::Unallocated as u8 => match lang {
                Lang::En => format!("used by {owners} but not allocated: repair will set it"),
                Lang::Zh => format!("{owners} 正在使用，但位图中未标记：修复循环会补上"),
            },
            Some(c) if c == Cell::Leaked as u8 => match (self.leak_countdown.get(&offset), en) {
                (Some(n), true) => format!(
                    "allocated to no service: a suspected leak, freed by the {} repair run from now",
                    ordinal(*n as usize + 1)
                ),
                (Some(n), false) => format!(
                    "已分配但没有任何 Service 使用：疑似泄漏，将在从现在起的第 {} 轮修复中释放",
                    *n as usize + 1
                ),
                (None, _) => lang
                    .pick(
                        "allocated to no service: the next repair run will flag it",
                        "已分配但没有任何 Service 使用：下一轮修复会将其标记为疑似泄漏",
                    )
                    .to_string(),
            },
            _ => lang.pick("outside the range", "超出范围").to_string(),
        };
        format!("{} · {band} · {state}", self.label(offset))
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
