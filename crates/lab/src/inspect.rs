//! Read-only views the UI draws: each bitmap cell with its state and owners, and what a cell
//! means, in English or Chinese. Every rule lives here, in the core; the UI only paints the
//! answers.

use std::collections::BTreeMap;
use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use ipnet::IpNet;

use crate::k8s::allocator::{Allocator, ItemRange};
use crate::k8s::api::KUBERNETES;
use crate::k8s::api::{parse_ip, IpFamily, Service};
use crate::k8s::controlplane::{Apiserver, Status};
use crate::k8s::ipallocator::{self, Range};
use crate::k8s::portallocator::{PortAllocator, PortRange};
use crate::k8s::repair::nodeport::collect_service_node_ports;
use crate::lang::Lang;
use crate::sim::world::World;

mod ipaddresses;
pub mod words;

pub use ipaddresses::{ip_address_map, CidrView, IpAddressMap, MAX_CELLS, ORPHAN_GRACE_MS};

/// What one bitmap cell shows: one meaning per variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cell {
    /// Clear, and held by no Service.
    Free,
    /// Set in etcd and owned by exactly one Service.
    Allocated,
    /// The `kubernetes` Service's own address or port.
    Kubernetes,
    /// Set in etcd with no Service: a leak, or an allocation whose Service is not there yet. How
    /// many repair runs are left before it is freed is [`BitmapView::leak_countdown`]. In an
    /// IPAddress view: an IPAddress whose Service does not exist (an orphan), deletable 60 s
    /// after its creation ([`BitmapView::deletable_at`]).
    Leaked,
    /// Owned by two or more Services.
    Duplicate,
    /// A Service holds it but the bit is clear (the repair loop will set it); in an IPAddress
    /// view, a Service's ClusterIP with no IPAddress object (RepairIPAddress will create it).
    Unallocated,
    /// An IPAddress object whose parent is not a Service holding that address: the Service holds
    /// another, or the parent is no Service at all. RepairIPAddress deletes it, with no grace
    /// period, when it next checks it.
    WrongReference,
}

impl Cell {
    /// Every state, in declaration order (`ALL[c.index()] == c`).
    pub const ALL: [Cell; 7] = [
        Cell::Free,
        Cell::Allocated,
        Cell::Kubernetes,
        Cell::Leaked,
        Cell::Duplicate,
        Cell::Unallocated,
        Cell::WrongReference,
    ];

    /// The position of this state in [`Cell::ALL`], for tables indexed by state.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The range a bitmap covers, typed, so that naming an offset is arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BitmapRange {
    /// A Service CIDR, masked to its network: offset `i` is the address `network + 1 + i`
    /// (`ipallocator.Range`; the network address itself is never usable).
    Cidr(IpNet),
    /// A NodePort range: offset `i` is the port `base + i` (`portallocator`).
    Ports(PortRange),
}

impl BitmapRange {
    /// The number of cells: the usable addresses of the CIDR (`Range.max`), or the ports.
    pub fn size(&self) -> usize {
        match self {
            BitmapRange::Cidr(net) => net.usable(),
            BitmapRange::Ports(r) => r.usable(),
        }
    }

    /// The address or port at `offset`, by the allocators' own mapping: arithmetic, no bitmap.
    pub fn label(&self, offset: usize) -> String {
        match self {
            BitmapRange::Cidr(net) => net.item_at(offset).to_string(),
            BitmapRange::Ports(r) => r.item_at(offset).to_string(),
        }
    }
}

impl fmt::Display for BitmapRange {
    /// `10.96.0.0/12` or `30000-32767`, as the `RangeAllocation` stores it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitmapRange::Cidr(net) => net.fmt(f),
            BitmapRange::Ports(r) => r.fmt(f),
        }
    }
}

impl FromStr for BitmapRange {
    type Err = String;

    /// A CIDR (masked as `ParseCIDRSloppy` does) or a port range, as a `RangeAllocation` names it.
    fn from_str(s: &str) -> Result<Self, String> {
        if s.contains('/') {
            ipallocator::parse_cidr(s).map(BitmapRange::Cidr)
        } else {
            PortRange::parse(s).map(BitmapRange::Ports)
        }
    }
}

/// What the cells of a view stand for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ViewKind {
    /// A bitmap in etcd (`/ranges/...`) that a repair loop keeps.
    #[default]
    Bitmap,
    /// 1.33's ClusterIP bitmap: still written beside the IPAddress objects (dual-write), but no
    /// repair loop reads it any more.
    DualWrite,
    /// The IPAddress objects over one ServiceCIDR's addresses (1.33 and later).
    IpAddresses,
}

/// One range as the UI shows it. Only the cells that are not free are stored, so that a range
/// of millions of addresses costs what its allocations cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BitmapView {
    /// The range the cells cover (`10.96.0.0/12` or `30000-32767` when printed).
    pub range: BitmapRange,
    kind: ViewKind,
    size: usize,
    static_band: usize,
    /// The state of every cell that is not free, by offset.
    marked: BTreeMap<usize, Cell>,
    /// Services per offset (namespace/name), for the tooltip.
    owners: BTreeMap<usize, Vec<String>>,
    /// Runs left before the soonest running apiserver frees a leaked cell.
    leak_countdown: BTreeMap<usize, i32>,
    /// IPAddress views: the object at each offset and what RepairIPAddress makes of it.
    objects: BTreeMap<usize, ipaddresses::IpObject>,
    /// Services whose IP or port lies outside the range: (service, value).
    out_of_range: Vec<(String, String)>,
}

impl BitmapView {
    /// Every cell of `range` free, the first `static_band` of them in the static band.
    pub fn new(range: BitmapRange, static_band: usize) -> Self {
        Self::sized(range, range.size(), static_band, ViewKind::Bitmap)
    }

    /// `size` free cells of `range` of the `kind`.
    pub(crate) fn sized(
        range: BitmapRange,
        size: usize,
        static_band: usize,
        kind: ViewKind,
    ) -> Self {
        BitmapView {
            range,
            kind,
            size,
            static_band,
            marked: BTreeMap::new(),
            owners: BTreeMap::new(),
            leak_countdown: BTreeMap::new(),
            objects: BTreeMap::new(),
            out_of_range: Vec::new(),
        }
    }

    /// Shows `offset` as `cell`, held by `owners` (namespace/name). Offsets past the range are
    /// ignored.
    pub fn set(&mut self, offset: usize, cell: Cell, owners: &[&str]) {
        if offset >= self.size {
            return;
        }
        self.mark(offset, cell);
        if owners.is_empty() {
            self.owners.remove(&offset);
        } else {
            let owners = owners.iter().map(|o| o.to_string()).collect();
            self.owners.insert(offset, owners);
        }
    }

    fn mark(&mut self, offset: usize, cell: Cell) {
        if cell == Cell::Free {
            self.marked.remove(&offset);
        } else {
            self.marked.insert(offset, cell);
        }
    }

    /// Lists `service` as holding `value`, which lies outside the range.
    pub fn flag_out_of_range(&mut self, service: &str, value: &str) {
        self.out_of_range.push((service.to_string(), value.to_string()));
    }

    /// What the cells are: a repaired bitmap, 1.33's dual-written one, or IPAddress objects.
    pub fn kind(&self) -> ViewKind {
        self.kind
    }

    /// How many cells the view has.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Cells below this offset are in the static band.
    pub fn static_band(&self) -> usize {
        self.static_band
    }

    /// The state at `offset`; `None` past the range.
    pub fn cell(&self, offset: usize) -> Option<Cell> {
        (offset < self.size).then(|| self.marked.get(&offset).copied().unwrap_or(Cell::Free))
    }

    /// The cells that are not free, by offset.
    pub fn marked(&self) -> impl Iterator<Item = (usize, Cell)> + '_ {
        self.marked.iter().map(|(&o, &c)| (o, c))
    }

    /// The states of the `count` cells from `first` (free past the range).
    pub fn window(&self, first: usize, count: usize) -> Vec<Cell> {
        let mut cells = vec![Cell::Free; count];
        let end = first.saturating_add(count);
        for (&o, &c) in self.marked.range(first..end) {
            cells[o - first] = c;
        }
        cells
    }

    /// How many cells are in each state, indexed by [`Cell::index`].
    pub fn counts(&self) -> [usize; Cell::ALL.len()] {
        let mut n = [0; Cell::ALL.len()];
        for &c in self.marked.values() {
            n[c.index()] += 1;
        }
        n[Cell::Free.index()] = self.size - self.marked.len();
        n
    }

    /// The offsets whose state differs between `self` and `other`, in order.
    pub fn changed(&self, other: &BitmapView) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .marked
            .iter()
            .filter(|(o, c)| other.marked.get(o) != Some(c))
            .map(|(&o, _)| o)
            .collect();
        let gone = other.marked.keys().filter(|o| !self.marked.contains_key(o));
        out.extend(gone);
        out.sort_unstable();
        out
    }

    /// The Services holding `offset`, in namespace/name order.
    pub fn owners(&self, offset: usize) -> &[String] {
        self.owners.get(&offset).map_or(&[], Vec::as_slice)
    }

    /// For a leaked cell some running apiserver has flagged: its lowest leak counter.
    pub fn leak_countdown(&self, offset: usize) -> Option<i32> {
        self.leak_countdown.get(&offset).copied()
    }

    /// Services whose IP or port lies outside the range: (service, value).
    pub fn out_of_range(&self) -> &[(String, String)] {
        &self.out_of_range
    }

    /// The address or port at `offset`.
    pub fn label(&self, offset: usize) -> String {
        self.range.label(offset)
    }
}

/// What the ClusterIP and the NodePort bitmaps differ in; everything else is [`bitmap`].
trait Allocations {
    type Range: ItemRange;
    /// The stored allocations: the offsets set in etcd, each allocator's own offset rule.
    fn alloc(&self) -> &Allocator<Self::Range>;
    fn range(&self) -> BitmapRange;
    /// The values `svc` holds of this range's kind: its ClusterIPs of the family, or its node ports.
    fn held(&self, svc: &Service) -> Vec<Item<Self>>;
    /// The leak counters `a`'s repair loop keeps for this range.
    fn leaks(&self, a: &Apiserver) -> Vec<(Item<Self>, i32)>;
    /// The value that marks the `kubernetes` Service's own cell.
    fn kubernetes(&self, svc: &Service) -> Option<Item<Self>>;
}

type Item<A> = <<A as Allocations>::Range as ItemRange>::Item;

/// One family's ClusterIP range.
struct ClusterIps(Range);

impl Allocations for ClusterIps {
    type Range = IpNet;

    fn alloc(&self) -> &Range {
        &self.0
    }

    fn range(&self) -> BitmapRange {
        BitmapRange::Cidr(self.0.cidr())
    }

    fn held(&self, svc: &Service) -> Vec<IpAddr> {
        if !svc.is_ip_set() {
            return Vec::new();
        }
        let family = self.0.family();
        svc.cluster_ips()
            .into_iter()
            .filter_map(parse_ip)
            .filter(|ip| IpFamily::of(ip) == family)
            .collect()
    }

    fn leaks(&self, a: &Apiserver) -> Vec<(IpAddr, i32)> {
        let leaks = a.ip_repair.leaks(self.0.family()).into_iter().flatten();
        leaks.map(|(ip, n)| (*ip, *n)).collect()
    }

    /// `spec.clusterIP`: the primary family's address (another family's range does not hold it).
    fn kubernetes(&self, svc: &Service) -> Option<IpAddr> {
        parse_ip(&svc.cluster_ip)
    }
}

/// The NodePort range.
struct NodePorts(PortAllocator);

impl Allocations for NodePorts {
    type Range = PortRange;

    fn alloc(&self) -> &PortAllocator {
        &self.0
    }

    fn range(&self) -> BitmapRange {
        BitmapRange::Ports(self.0.range())
    }

    fn held(&self, svc: &Service) -> Vec<i32> {
        let mut ports = collect_service_node_ports(svc);
        ports.dedup();
        ports
    }

    fn leaks(&self, a: &Apiserver) -> Vec<(i32, i32)> {
        a.port_repair.leaks().iter().map(|(p, n)| (*p, *n)).collect()
    }

    /// The node port of the first port, if it has one.
    fn kubernetes(&self, svc: &Service) -> Option<i32> {
        svc.ports.first().filter(|p| p.node_port != 0).map(|p| p.node_port)
    }
}

/// The ClusterIP bitmap of family `index` (0 = primary), from what etcd stores.
/// `None` when the behaviour writes no ClusterIP bitmap (1.35).
pub fn cluster_ip_bitmap(w: &World, index: usize) -> Option<BitmapView> {
    if !w.behavior().cluster_ip_bitmap() {
        return None;
    }
    let mut v = bitmap(w, &ClusterIps(w.stored_cluster_ips(index)?));
    if !w.behavior().bitmap_ip_repair() {
        v.kind = ViewKind::DualWrite;
    }
    Some(v)
}

/// The NodePort bitmap, from what etcd stores.
pub fn node_port_bitmap(w: &World) -> BitmapView {
    bitmap(w, &NodePorts(w.stored_node_ports()))
}

/// The view of `alloc`: the set bits, the Services holding each value, and the leak counters.
fn bitmap<A: Allocations>(w: &World, alloc: &A) -> BitmapView {
    let stored = alloc.alloc();
    let mut v = BitmapView::new(alloc.range(), stored.static_band());
    for offset in stored.offsets() {
        if offset < v.size {
            v.marked.insert(offset, Cell::Leaked);
        }
    }
    for svc in w.etcd().services(w.now()) {
        for value in alloc.held(svc) {
            match stored.offset_of(value) {
                Some(o) => v.owners.entry(o).or_default().push(svc.key()),
                None => v.out_of_range.push((svc.key(), value.to_string())),
            }
        }
    }
    let kubernetes = w
        .etcd()
        .service("default", KUBERNETES, w.now())
        .and_then(|s| alloc.kubernetes(s))
        .and_then(|value| stored.offset_of(value));
    for (&o, who) in &v.owners {
        let set = v.marked.contains_key(&o);
        let cell = match (who.len(), set) {
            (n, _) if n > 1 => Cell::Duplicate,
            (_, false) => Cell::Unallocated,
            _ if Some(o) == kubernetes => Cell::Kubernetes,
            _ => Cell::Allocated,
        };
        v.marked.insert(o, cell);
    }
    // Per offset, the lowest counter any running apiserver's repair holds: the run that frees it
    // comes first.
    let running = w.apiservers().filter(|a| a.status == Status::Running);
    for (value, n) in running.flat_map(|a| alloc.leaks(a)) {
        match stored.offset_of(value) {
            Some(o) if v.marked.get(&o) == Some(&Cell::Leaked) => {
                let c = v.leak_countdown.entry(o).or_insert(n);
                *c = (*c).min(n);
            }
            _ => {}
        }
    }
    v
}

impl BitmapView {
    /// The tooltip of a cell in `lang`: address or port, band, state and owners.
    pub fn describe(&self, offset: usize, lang: Lang) -> String {
        let band = if offset < self.static_band {
            lang.pick("static band", "静态段")
        } else {
            lang.pick("dynamic band", "动态段")
        };
        let owners = self.owners(offset).join(", ");
        if self.kind == ViewKind::IpAddresses {
            let state = self.describe_object(offset, lang);
            return format!("{} · {band} · {state}", self.label(offset));
        }
        let state = match (self.cell(offset), lang) {
            (Some(Cell::Free), _) => lang.pick("free", "空闲").to_string(),
            (Some(Cell::Allocated), Lang::En) => format!("allocated to {owners}"),
            (Some(Cell::Allocated), Lang::Zh) => format!("已分配给 {owners}"),
            (Some(Cell::Kubernetes), Lang::En) => {
                format!("allocated to {owners} (the kubernetes Service)")
            }
            (Some(Cell::Kubernetes), Lang::Zh) => {
                format!("已分配给 {owners}（即 kubernetes Service）")
            }
            (Some(Cell::Duplicate), Lang::En) => format!("assigned to several services: {owners}"),
            (Some(Cell::Duplicate), Lang::Zh) => format!("同时分配给了多个 Service：{owners}"),
            (Some(Cell::Unallocated), _) if self.kind == ViewKind::DualWrite => match lang {
                Lang::En => {
                    format!("used by {owners} but not set: no repair loop sets it any more")
                }
                Lang::Zh => format!("{owners} 正在使用，但位图中未标记：已经没有修复循环会补上"),
            },
            (Some(Cell::Unallocated), Lang::En) => {
                format!("used by {owners} but not allocated: repair will set it")
            }
            (Some(Cell::Unallocated), Lang::Zh) => {
                format!("{owners} 正在使用，但位图中未标记：修复循环会补上")
            }
            (Some(Cell::Leaked), _) => self.describe_leak(offset, lang),
            // Only IPAddress views have wrong references.
            (Some(Cell::WrongReference), _) => String::new(),
            (None, _) => lang.pick("outside the range", "超出范围").to_string(),
        };
        format!("{} · {band} · {state}", self.label(offset))
    }

    fn describe_leak(&self, offset: usize, lang: Lang) -> String {
        if self.kind == ViewKind::DualWrite {
            return lang
                .pick(
                    "set, used by no service: no repair loop reads this bitmap any more, so nothing frees it",
                    "已设置但没有任何 Service 使用：已经没有修复循环读取这个位图，所以不会被释放",
                )
                .to_string();
        }
        match (self.leak_countdown(offset), lang) {
            (Some(n), Lang::En) => format!(
                "allocated to no service: a suspected leak, freed by the {} repair run from now",
                ordinal(n as usize + 1)
            ),
            (Some(n), Lang::Zh) => format!(
                "已分配但没有任何 Service 使用：疑似泄漏，将在从现在起的第 {} 轮修复中释放",
                n as usize + 1
            ),
            (None, _) => lang
                .pick(
                    "allocated to no service: the next repair run will flag it",
                    "已分配但没有任何 Service 使用：下一轮修复会将其标记为疑似泄漏",
                )
                .to_string(),
        }
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
