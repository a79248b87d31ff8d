//! Which upstream code each object of the stage models, per behaviour: the file (and, where it
//! was checked at the release tag, the lines) of kubernetes/kubernetes, what that code does, and
//! what the lab simplifies there. The inspector shows them; `scripts/check-upstream.sh` reads the
//! table below to print, for a kubernetes clone, where each function lies at each tag.
//! Every link it can show is listed, with how it was checked, in `crates/lab/src/upstream/verified.md`
//! (a test fails on a link missing there).
//!
//! Paths follow the files the lab's modules name (their doc comments) and the moves between
//! releases: `pkg/controlplane/controller.go`'s bootstrap controller became
//! `controller/kubernetesservice` (1.28), `mastercount.go` became `instancecount.go` (1.20, with
//! the move from `pkg/master` to `pkg/controlplane`), the
//! ClusterIP `Range` moved from `ipallocator/allocator.go` to `bitmap.go`, and from 1.33 the
//! ClusterIPs are IPAddress objects (`ipallocator.go`, `cidrallocator.go`, `repairip.go`).

use crate::k8s::api::Behavior;
use crate::k8s::etcd::{self, Loop, WireOp, Write};
use crate::k8s::event::{Event, EventKind};
use crate::lang::Lang;

/// An object the reader can inspect.
#[derive(Clone, Debug, PartialEq)]
pub enum Subject {
    /// An apiserver, by name.
    Apiserver(String),
    /// An etcd key as the lab names it (`/masterleases/<ip>`, `/ranges/serviceips`, …).
    Key(String),
    /// A request on the wire.
    Packet(Write),
    /// A ClusterIP's cell.
    ClusterIp(String),
    /// A NodePort's cell.
    NodePort(u16),
    /// An IPAddress object's cell.
    IpAddress(String),
    /// An event or log line (the whole of it: the inspector shows its time and message).
    Event(Event),
}

/// A link to upstream code and what that code does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLink {
    /// The file's path in the Kubernetes repository.
    pub path: &'static str,
    /// The Go function (or method) modelled there.
    pub symbol: &'static str,
    /// First and last line at the behaviour's tag, when they were checked there.
    pub lines: Option<(u32, u32)>,
    /// (en, zh): what this code does.
    pub what: (&'static str, &'static str),
}

/// The release tag a behaviour links to.
pub fn tag(behavior: Behavior) -> &'static str {
    match behavior {
        Behavior::V1_20 => "v1.20.0",
        Behavior::V1_29 => "v1.29.0",
        Behavior::V1_33 => "v1.33.0",
        Behavior::V1_35 => "v1.35.0",
    }
}

/// The link's URL at the behaviour's tag, with a line anchor when the lines are known.
pub fn url(link: &SourceLink, behavior: Behavior) -> String {
    let anchor = link.lines.map(|(a, b)| format!("#L{a}-L{b}")).unwrap_or_default();
    format!("https://github.com/kubernetes/kubernetes/blob/{}/{}{anchor}", tag(behavior), link.path)
}

/// A piece of upstream code the lab models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Topic {
    KubernetesService,
    CreateService,
    LeaseReconcile,
    LeaseRemove,
    LeaseWrite,
    LeaseList,
    InstanceCount,
    NoneReconciler,
    Adapter,
    RepairIpBitmap,
    RepairIpAddress,
    RepairPort,
    Bitmap,
    BitmapStorage,
    IpRange,
    PortRange,
    ServiceCreate,
    EndpointsSync,
    CidrsSync,
    DefaultCidr,
    IpAddressAlloc,
    MetaAlloc,
    Namespaces,
}

use Behavior::{V1_20, V1_29, V1_33, V1_35};
use Topic::*;

/// One file of one topic for the behaviours `from..=to`; `symbol` is the Go function modelled
/// (what the check script looks for). `lines` stays `None` until checked at every tag it covers.
struct Row {
    topic: Topic,
    from: Behavior,
    to: Behavior,
    path: &'static str,
    symbol: &'static str,
    lines: Option<(u32, u32)>,
}

const fn r(
    topic: Topic,
    from: Behavior,
    to: Behavior,
    path: &'static str,
    symbol: &'static str,
    lines: Option<(u32, u32)>,
) -> Row {
    Row { topic, from, to, path, symbol, lines }
}

// One row a line: scripts/check-upstream.sh reads them.
#[rustfmt::skip]
const TABLE: &[Row] = &[
    r(KubernetesService, V1_20, V1_20, "pkg/controlplane/controller.go", "UpdateKubernetesService", None),
    r(KubernetesService, V1_29, V1_35, "pkg/controlplane/controller/kubernetesservice/controller.go", "UpdateKubernetesService", None),
    r(CreateService, V1_20, V1_20, "pkg/controlplane/controller.go", "CreateOrUpdateMasterServiceIfNeeded", None),
    r(CreateService, V1_29, V1_35, "pkg/controlplane/controller/kubernetesservice/controller.go", "CreateOrUpdateMasterServiceIfNeeded", None),
    r(LeaseReconcile, V1_20, V1_35, "pkg/controlplane/reconcilers/lease.go", "doReconcile", None),
    r(LeaseRemove, V1_20, V1_35, "pkg/controlplane/reconcilers/lease.go", "RemoveEndpoints", None),
    r(LeaseWrite, V1_20, V1_35, "pkg/controlplane/reconcilers/lease.go", "UpdateLease", None),
    r(LeaseList, V1_20, V1_35, "pkg/controlplane/reconcilers/lease.go", "ListLeases", None),
    r(InstanceCount, V1_20, V1_35, "pkg/controlplane/reconcilers/instancecount.go", "ReconcileEndpoints", None),
    r(NoneReconciler, V1_20, V1_35, "pkg/controlplane/reconcilers/none.go", "ReconcileEndpoints", None),
    r(Adapter, V1_20, V1_35, "pkg/controlplane/reconcilers/endpointsadapter.go", "EnsureEndpointSliceFromEndpoints", None),
    r(RepairIpBitmap, V1_20, V1_29, "pkg/registry/core/service/ipallocator/controller/repair.go", "runOnce", None),
    r(RepairIpAddress, V1_33, V1_35, "pkg/registry/core/service/ipallocator/controller/repairip.go", "syncService", None),
    r(RepairPort, V1_20, V1_35, "pkg/registry/core/service/portallocator/controller/repair.go", "runOnce", None),
    r(Bitmap, V1_20, V1_35, "pkg/registry/core/service/allocator/bitmap.go", "AllocateNext", None),
    r(BitmapStorage, V1_20, V1_35, "pkg/registry/core/service/allocator/storage/storage.go", "tryUpdate", None),
    r(IpRange, V1_20, V1_20, "pkg/registry/core/service/ipallocator/allocator.go", "AllocateNext", None),
    r(IpRange, V1_29, V1_29, "pkg/registry/core/service/ipallocator/bitmap.go", "AllocateNext", None),
    r(IpRange, V1_33, V1_33, "pkg/registry/core/service/ipallocator/bitmap.go", "Allocate", None),
    r(PortRange, V1_20, V1_35, "pkg/registry/core/service/portallocator/allocator.go", "AllocateNext", None),
    r(ServiceCreate, V1_20, V1_20, "pkg/registry/core/service/storage/rest.go", "Create", None),
    r(ServiceCreate, V1_29, V1_35, "pkg/registry/core/service/storage/alloc.go", "allocateCreate", None),
    r(EndpointsSync, V1_20, V1_35, "pkg/controller/endpoint/endpoints_controller.go", "syncService", None),
    r(CidrsSync, V1_33, V1_35, "pkg/controller/servicecidrs/servicecidrs_controller.go", "sync", None),
    r(DefaultCidr, V1_33, V1_35, "pkg/controlplane/controller/defaultservicecidr/default_servicecidr_controller.go", "sync", None),
    r(IpAddressAlloc, V1_33, V1_35, "pkg/registry/core/service/ipallocator/ipallocator.go", "AllocateNextService", None),
    r(MetaAlloc, V1_33, V1_35, "pkg/registry/core/service/ipallocator/cidrallocator.go", "AllocateNextService", None),
    r(Namespaces, V1_20, V1_20, "pkg/controlplane/controller.go", "RunKubernetesNamespaces", None),
    r(Namespaces, V1_29, V1_35, "pkg/controlplane/controller/systemnamespaces/system_namespaces_controller.go", "sync", None),
];

/// What a topic's code does, in the lab's words.
fn what(topic: Topic) -> (&'static str, &'static str) {
    match topic {
        KubernetesService => ("The bootstrap controller's loop: every interval, make sure the kubernetes Service exists and reconcile its endpoints.", "引导控制器的循环：每个周期确保 kubernetes Service 存在，并协调它的端点。"),
        CreateService => ("Creates the default/kubernetes Service if it is missing (an existing one is left as it is).", "在 default/kubernetes Service 缺失时创建它（已存在的不做修改）。"),
        LeaseReconcile => ("The lease reconciler: renews this apiserver's lease, then makes the Endpoints list exactly the unexpired leases (and refuses to erase them all).", "租约协调器：续约本 apiserver 的租约，再让 Endpoints 恰好列出未过期的租约（并拒绝把它们全部清空）。"),
        LeaseRemove => ("Graceful stop: deletes this apiserver's lease and removes its address from the Endpoints at once.", "优雅停止：立即删除本 apiserver 的租约，并把它的地址从 Endpoints 中移除。"),
        LeaseWrite => ("Writes /masterleases/<ip> with a TTL: if the apiserver stops renewing it, etcd deletes the key when the TTL runs out.", "以 TTL 写入 /masterleases/<ip>：apiserver 不再续约时，TTL 到期后 etcd 删除该键。"),
        LeaseList => ("Lists the unexpired leases: the addresses the Endpoints should hold.", "列出未过期的租约：也就是 Endpoints 应当包含的地址。"),
        InstanceCount => ("The master-count reconciler (--endpoint-reconciler-type=master-count): adds its own address and trims the list to --apiserver-count.", "master-count 协调器（--endpoint-reconciler-type=master-count）：加入自己的地址，并把列表裁剪到 --apiserver-count。"),
        NoneReconciler => ("The none reconciler (--endpoint-reconciler-type=none): never touches the Endpoints.", "none 协调器（--endpoint-reconciler-type=none）：从不修改 Endpoints。"),
        Adapter => ("The endpoints adapter: writes the EndpointSlice of default/kubernetes beside its Endpoints.", "endpoints 适配器：在写 default/kubernetes 的 Endpoints 时一并写它的 EndpointSlice。"),
        RepairIpBitmap => ("The ClusterIP repair loop: rebuilds the bitmap from every Service, reports what disagrees, frees a leak after several runs.", "ClusterIP 修复循环：根据所有 Service 重建位图，报告不一致之处，泄漏在几轮之后被释放。"),
        RepairIpAddress => ("RepairIPAddress: every Service must have one IPAddress naming it; orphans are deleted after a grace period. A missing IPAddress is recreated when its Service is next checked: at the next resync (repair interval), since the deleted IPAddress itself leaves nothing to check.", "RepairIPAddress：每个 Service 必须有一个指向它的 IPAddress；孤立的在宽限期后被删除。缺失的 IPAddress 要等它的 Service 下一次被检查时才会重建：也就是下一次重新同步（修复周期）时，因为被删掉的 IPAddress 本身已没有什么可检查的。"),
        RepairPort => ("The NodePort repair loop: rebuilds the port bitmap from every Service and reports duplicates and out-of-range ports.", "NodePort 修复循环：根据所有 Service 重建端口位图，报告重复和超出范围的端口。"),
        Bitmap => ("The allocation bitmap: one bit per item; a dynamic allocation scans the upper band from a random start, and the lower (static) band only when the upper one is full.", "分配位图：每个条目一位；动态分配从随机起点扫描上段，只有上段满了才用下段（静态段）。"),
        BitmapStorage => ("Stores the bitmap in etcd as one RangeAllocation object, updated by compare-and-swap.", "把位图作为一个 RangeAllocation 对象存入 etcd，用比较并交换更新。"),
        IpRange => ("The ClusterIP range over the bitmap: offset i is the address network + 1 + i.", "位图之上的 ClusterIP 范围：第 i 位对应地址 network + 1 + i。"),
        PortRange => ("The NodePort range over the bitmap.", "位图之上的 NodePort 范围。"),
        ServiceCreate => ("The Service REST storage: allocates ClusterIPs and NodePorts when a Service is created, releases them when it is deleted.", "Service 的 REST 存储：创建 Service 时分配 ClusterIP 和 NodePort，删除时释放。"),
        EndpointsSync => ("kube-controller-manager's endpoints controller: the Endpoints of a Service with a selector, from its ready and not-ready Pods.", "kube-controller-manager 的 endpoints 控制器：根据就绪与未就绪的 Pod 生成带选择器 Service 的 Endpoints。"),
        CidrsSync => ("kube-controller-manager's service-cidr-controller: gives every ServiceCIDR not being deleted its finalizer and Ready=True with its own message, \"Kubernetes Service CIDR is ready\" (on kubernetes it replaces the apiserver's), and holds a deleted one while IPAddresses depend on it.", "kube-controller-manager 的 service-cidr-controller：为每个未在删除中的 ServiceCIDR 加上 finalizer，并用自己的消息 \"Kubernetes Service CIDR is ready\" 设置 Ready=True（在 kubernetes 上会替换 apiserver 写的消息）；只要还有 IPAddress 依赖已删除的 ServiceCIDR，就保留它。"),
        DefaultCidr => ("The default-ServiceCIDR controller: creates the ServiceCIDR kubernetes from --service-cluster-ip-range when it is missing and sets its Ready condition when unset (\"Kubernetes default Service CIDR is ready\"); it never changes one that exists, except to add the second IP family.", "默认 ServiceCIDR 控制器：名为 kubernetes 的 ServiceCIDR 缺失时根据 --service-cluster-ip-range 创建它，并在 Ready 条件未设置时设置它（\"Kubernetes default Service CIDR is ready\"）；已存在的对象从不修改，只会补上第二个 IP 协议族。"),
        IpAddressAlloc => ("The allocator of one ServiceCIDR prefix: a ClusterIP is taken when an IPAddress object of that name exists.", "单个 ServiceCIDR 前缀的分配器：存在同名 IPAddress 对象即表示该 ClusterIP 已被占用。"),
        MetaAlloc => ("The MetaAllocator: picks which ServiceCIDR prefix serves an allocation.", "MetaAllocator：决定由哪个 ServiceCIDR 前缀来分配。"),
        Namespaces => ("Creates the system namespaces kube-system, kube-public and kube-node-lease if missing (from 1.27 default too; in 1.20 the kubernetes-service loop creates default).", "在系统命名空间 kube-system、kube-public、kube-node-lease 缺失时创建它们（从 1.27 起也包括 default；1.20 中 default 由 kubernetes-service 循环创建）。"),
    }
}

/// The links of `topics` under `behavior`, in that order (a topic absent there gives none).
fn links(topics: &[Topic], behavior: Behavior) -> Vec<SourceLink> {
    topics
        .iter()
        .flat_map(|&t| {
            TABLE
                .iter()
                .filter(move |row| row.topic == t && (row.from..=row.to).contains(&behavior))
                .map(|row| SourceLink {
                    path: row.path,
                    symbol: row.symbol,
                    lines: row.lines,
                    what: what(row.topic),
                })
        })
        .collect()
}

/// The upstream code that `subject` models under `behavior`, most specific first.
pub fn sources(subject: &Subject, behavior: Behavior) -> Vec<SourceLink> {
    let found = links(&topics(subject, behavior), behavior);
    if found.is_empty() {
        // An object this behaviour has no code for (none the lab makes): its bootstrap loop.
        return links(&[KubernetesService], behavior);
    }
    found
}

fn topics(subject: &Subject, b: Behavior) -> Vec<Topic> {
    let ip_objects = b.ip_addresses();
    match subject {
        Subject::Apiserver(_) => {
            vec![KubernetesService, LeaseReconcile, LeaseRemove, InstanceCount, NoneReconciler]
        }
        Subject::Key(key) => key_topics(key, b),
        Subject::Packet(w) => packet_topics(w, b),
        Subject::ClusterIp(_) if ip_objects => vec![MetaAlloc, IpAddressAlloc, RepairIpAddress],
        Subject::ClusterIp(_) => vec![IpRange, Bitmap, RepairIpBitmap],
        Subject::NodePort(_) => vec![PortRange, Bitmap, RepairPort],
        Subject::IpAddress(_) if ip_objects => vec![IpAddressAlloc, RepairIpAddress],
        Subject::IpAddress(_) => vec![IpRange],
        Subject::Event(e) => event_topics(e, b),
    }
}

fn key_topics(key: &str, b: Behavior) -> Vec<Topic> {
    use etcd::{Key, Keys, Kind};
    let ip_objects = b.ip_addresses();
    let dual_write = ip_objects && b.cluster_ip_bitmap();
    let Ok(keys) = key.parse::<Keys>() else { return vec![BitmapStorage] };
    let one = match &keys {
        Keys::One(k) => Some(k),
        Keys::All(_) => None,
    };
    match (keys.kind(), one) {
        (Kind::Lease, _) => vec![LeaseWrite, LeaseList],
        (Kind::Range, Some(Key::Range(r))) if r.is_cluster_ip() && dual_write => {
            // 1.33's dual-write copy: the MetaAllocator writes it through the bitmap Range's
            // Allocate(ip); RepairIPAddress never reads it.
            vec![MetaAlloc, IpRange, BitmapStorage]
        }
        (Kind::Range, Some(Key::Range(r))) if r.is_cluster_ip() && ip_objects => {
            // From 1.34 no bitmap is built for ClusterIPs: a key left from an older release is
            // read and written by nothing; the MetaAllocator allocates without it.
            vec![MetaAlloc]
        }
        (Kind::Range, Some(Key::Range(r))) if r.is_cluster_ip() => {
            vec![IpRange, BitmapStorage, RepairIpBitmap]
        }
        (Kind::Range, _) => vec![PortRange, BitmapStorage, RepairPort],
        (Kind::Service, Some(Key::Service(nn))) if nn.is_kubernetes() => vec![CreateService],
        (Kind::Service, _) => vec![ServiceCreate],
        (Kind::Endpoints, Some(Key::Endpoints(nn))) if nn.is_kubernetes() => {
            vec![LeaseReconcile, Adapter]
        }
        (Kind::Endpoints, _) => vec![EndpointsSync],
        (Kind::EndpointSlice, _) => vec![Adapter],
        (Kind::ServiceCidr, Some(Key::ServiceCidr(name)))
            if ip_objects && name == crate::k8s::api::KUBERNETES =>
        {
            vec![DefaultCidr, CidrsSync]
        }
        (Kind::ServiceCidr, _) if ip_objects => vec![CidrsSync],
        (Kind::IpAddress, _) if ip_objects => vec![IpAddressAlloc, RepairIpAddress],
        // Before 1.33 the lab has no such objects: the ClusterIPs come from the bitmap.
        (Kind::ServiceCidr | Kind::IpAddress, _) => vec![IpRange],
        (Kind::Namespace, Some(Key::Namespace(ns))) if ns == "default" && b.legacy() => {
            vec![KubernetesService, Namespaces]
        }
        (Kind::Namespace, _) => vec![Namespaces],
        (Kind::Pod, _) => vec![EndpointsSync],
    }
}

fn packet_topics(w: &Write, b: Behavior) -> Vec<Topic> {
    let key = w.key.as_str();
    let kind = key.parse::<etcd::Key>().ok().map(|k| k.kind());
    match w.via {
        Loop::EndpointReconciler if kind == Some(etcd::Kind::Lease) => match w.op {
            WireOp::Delete => vec![LeaseRemove, LeaseWrite],
            _ => vec![LeaseWrite, LeaseReconcile],
        },
        Loop::EndpointReconciler => vec![LeaseReconcile, Adapter],
        Loop::Repair if key == etcd::RANGE_NODE_PORTS => vec![RepairPort, BitmapStorage],
        Loop::Repair if b.ip_addresses() => vec![RepairIpAddress],
        Loop::Repair => vec![RepairIpBitmap, BitmapStorage],
        Loop::Request if kind == Some(etcd::Kind::Service) => vec![ServiceCreate],
        Loop::Ttl => vec![LeaseWrite],
        Loop::ControllerManager if kind == Some(etcd::Kind::ServiceCidr) => vec![CidrsSync],
        Loop::ControllerManager => vec![EndpointsSync],
        Loop::Request | Loop::Bootstrap | Loop::Lab => key_topics(key, b),
    }
}

fn event_topics(e: &Event, b: Behavior) -> Vec<Topic> {
    let ip_repair = if b.ip_addresses() { RepairIpAddress } else { RepairIpBitmap };
    let ports = e.component == crate::k8s::repair::nodeport::COMPONENT;
    use EventKind as K;
    match &e.kind {
        K::PortNotAllocated | K::PortAlreadyAllocated | K::PortOutOfRange | K::PortRangeFull => {
            vec![RepairPort]
        }
        K::RepairUnknownError
        | K::RepairDetail
        | K::LeakFlagged
        | K::LeakCleanedUp
        | K::LeakNotAllocatable
        | K::RepairFailed
        | K::InitialCheckFailed
            if ports =>
        {
            vec![RepairPort]
        }
        K::ClusterIpNotValid
        | K::ClusterIpNotAllocated
        | K::ClusterIpAlreadyAllocated
        | K::ClusterIpOutOfRange
        | K::RepairUnknownError
        | K::RepairDetail
        | K::LeakFlagged
        | K::LeakCleanedUp
        | K::LeakNotAllocatable
        | K::RepairFailed
        | K::InitialCheckFailed => {
            vec![ip_repair]
        }
        K::ClusterIpWrongReference
        | K::IpAddressLeaked
        | K::IpAddressModified
        | K::IpAddressWrongReference => vec![RepairIpAddress],
        K::DefaultServiceCidrInconsistent | K::DefaultServiceCidrError => vec![DefaultCidr],
        K::ServiceCidrLog | K::ServiceCidrFull => vec![MetaAlloc, CidrsSync],
        K::ReleaseFailed | K::ActionFailed => vec![ServiceCreate],
        K::StaleEndpointRemoved
        | K::RemoveEndpointsFailed
        | K::RemoveEndpointsTimedOut
        | K::ReconcilerShutdown => vec![LeaseRemove],
        K::NamespaceCreateFailed => vec![Namespaces],
        K::EndpointsReset { .. } | K::RefusedToEraseEndpoints => vec![LeaseReconcile],
        K::LeaseExpired { .. } => vec![LeaseWrite],
        K::SyncFailed | K::StartupWarning | K::Other => vec![KubernetesService],
        // The client pods' lines are the lab's own: no upstream code says them.
        K::ClientConnected { .. }
        | K::ClientDialing { .. }
        | K::ClientFailed { .. }
        | K::ClientClosed { .. }
        | K::ClientRetrying { .. } => vec![],
    }
}

/// What the lab leaves out or simplifies in the code `subject` models, in the lab's words.
pub fn simplification(subject: &Subject, behavior: Behavior, lang: Lang) -> &'static str {
    let (en, zh) = note(subject, behavior);
    lang.pick(en, zh)
}

fn note(subject: &Subject, b: Behavior) -> (&'static str, &'static str) {
    match subject {
        Subject::Apiserver(_) => APISERVER,
        Subject::Key(key) => key_note(key, b),
        Subject::Packet(w) if w.via == Loop::Lab => LAB_WRITE,
        Subject::Packet(w) if w.op == WireOp::Bounce => BOUNCE,
        Subject::Packet(w) if w.via == Loop::Ttl => TTL,
        Subject::Packet(_) => WIRE,
        Subject::ClusterIp(_) | Subject::IpAddress(_) if b.ip_addresses() => IP_OBJECTS,
        Subject::IpAddress(_) => NO_IP_OBJECTS,
        Subject::ClusterIp(_) | Subject::NodePort(_) => BITMAP,
        Subject::Event(e)
            if matches!(e.kind, EventKind::LeaseExpired { .. } | EventKind::ActionFailed) =>
        {
            LAB_LINE
        }
        Subject::Event(_) => EVENT,
    }
}

fn key_note(key: &str, b: Behavior) -> (&'static str, &'static str) {
    use etcd::Kind;
    let Ok(keys) = key.parse::<etcd::Keys>() else { return KEYS };
    match keys.kind() {
        Kind::Lease => TTL,
        Kind::EndpointSlice => SLICE,
        Kind::Range
            if b.ip_addresses()
                && matches!(&keys, etcd::Keys::One(etcd::Key::Range(r)) if r.is_cluster_ip()) =>
        {
            DUAL_WRITE
        }
        Kind::Range => BITMAP,
        Kind::ServiceCidr | Kind::IpAddress if !b.ip_addresses() => NO_IP_OBJECTS,
        Kind::ServiceCidr | Kind::IpAddress => IP_OBJECTS,
        Kind::Endpoints | Kind::Pod => ENDPOINTS,
        Kind::Service | Kind::Namespace => KEYS,
    }
}

type Note = (&'static str, &'static str);

const APISERVER: Note = (
    "An apiserver here is its bootstrap controller, its endpoint reconciler and its repair loops on a virtual clock; every other part of kube-apiserver is left out. The links show all three reconcilers: the cluster runs the one --endpoint-reconciler-type names.",
    "这里的 apiserver 只有引导控制器、端点协调器和修复循环，运行在虚拟时钟上；kube-apiserver 的其他部分都省略了。链接列出了全部三种协调器：集群运行的是 --endpoint-reconciler-type 指定的那一种。",
);
const KEYS: Note = (
    "Keys are kube-apiserver's layout without the /registry prefix, and values are the lab's own structures, not the protobuf that kube-apiserver stores.",
    "键沿用 kube-apiserver 的布局但省去了 /registry 前缀；值是实验自己的结构，而不是 kube-apiserver 存储的 protobuf。",
);
const TTL: Note = (
    "The lease is one key with a TTL on a simulated etcd whose leases always expire on time, even while nobody can reach it; etcd logs nothing when one expires, so the line on the timeline is the lab's.",
    "租约是模拟 etcd 中一个带 TTL 的键，即使无人能访问 etcd，租约也总是准时过期；etcd 在租约过期时不记录任何日志，时间线上的那一条是实验自己的标记。",
);
const SLICE: Note = (
    "The slice is derived from the Endpoints as upstream's adapter does (EnsureEndpointSliceFromEndpoints): read by name, created or updated, deleted and created again only to change its address type; other slices labelled for the Service are left alone. Unlike upstream, not-ready addresses are left out of it.",
    "EndpointSlice 按上游适配器的做法从 Endpoints 推导（EnsureEndpointSliceFromEndpoints）：按名字读取，缺失则创建、不同则更新，只有地址类型变了才删除后重建；其他带有该 Service 标签的 slice 保持不动。与上游不同的是，未就绪的地址不会写进 slice。",
);
const BITMAP: Note = (
    "The bitmap is kept in 64-bit words rather than a big.Int; the repair loop runs on the virtual clock and reads etcd directly.",
    "位图存放在 64 位字中，而不是 big.Int；修复循环运行在虚拟时钟上，直接读取 etcd。",
);
const DUAL_WRITE: Note = (
    "From 1.33 this bitmap is written by the MetaAllocator beside the IPAddress objects (dual-write, on by default in 1.33, off from 1.34); no repair loop reads it: RepairIPAddress repairs the IPAddress objects only.",
    "从 1.33 起，这张位图由 MetaAllocator 在写 IPAddress 对象的同时写入（双写，1.33 默认开启，1.34 起关闭）；没有任何修复循环读取它：RepairIPAddress 只修复 IPAddress 对象。",
);
const IP_OBJECTS: Note = (
    "Informers are always in sync: the allocators and RepairIPAddress read etcd directly. Which ServiceCIDR serves an allocation is drawn from the seeded PRNG (upstream: Go map order); failed writes are not retried and there are no metrics.",
    "informer 总是同步的：分配器和 RepairIPAddress 直接读取 etcd。由哪个 ServiceCIDR 分配由带种子的伪随机数决定（上游是 Go map 的顺序）；写失败不重试，也没有指标。",
);
const NO_IP_OBJECTS: Note = (
    "Under this behaviour the lab has no ServiceCIDR or IPAddress objects: ClusterIPs come from the bitmap linked here.",
    "在这个行为版本下，实验中没有 ServiceCIDR 和 IPAddress 对象：ClusterIP 来自这里链接的位图。",
);
const ENDPOINTS: Note = (
    "Only the endpoints controller's computation is modelled: no work queue, retries, trigger-time annotation or 1000-address truncation; it runs after every change and writes through the apiservers.",
    "只模拟了 endpoints 控制器的计算：没有工作队列、重试、触发时间注解和 1000 个地址的截断；它在每次变化后运行，并通过 apiserver 写入。",
);
const WIRE: Note = (
    "The wire is the lab's record of who wrote which key and from which loop: etcd keeps no such log. Requests take no time on it.",
    "线路是实验对谁从哪个循环写了哪个键的记录：etcd 并不保存这样的日志。请求在线路上不花时间。",
);
const BOUNCE: Note = (
    "A bounce is a request that never reached etcd (an isolated apiserver, an outage: a client timeout) or that the lease reconciler refused to send. The lab does not retry it: the loop tries again at its next run.",
    "反弹的请求是没有到达 etcd 的请求（apiserver 被隔离或 etcd 中断：客户端超时），或租约协调器拒绝发送的请求。实验不会立即重试：循环在下一次运行时再试。",
);
const LAB_WRITE: Note = (
    "This write is the lab's own, behind the allocators' back, to give the repair loops work; no Kubernetes component sends it.",
    "这是实验自己绕过分配器写入的，用来给修复循环制造工作；没有任何 Kubernetes 组件会发送它。",
);
const LAB_LINE: Note = (
    "This line is the lab's own (component bootstrap-sim), not Kubernetes' output.",
    "这一行是实验自己的（组件 bootstrap-sim），不是 Kubernetes 的输出。",
);
const EVENT: Note = (
    "The message is Kubernetes' own text; the lab records it at the virtual instant the loop runs, without the event recorder's aggregation or rate limits.",
    "消息是 Kubernetes 自己的文字；实验在循环运行的虚拟时刻记录它，没有事件记录器的聚合与限流。",
);
