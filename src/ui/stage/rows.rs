//! The keys etcd shows on the stage, one row each: the master leases, the `/ranges/*`
//! snapshots, the `default/kubernetes` Service, Endpoints and EndpointSlice, from 1.33 the
//! ServiceCIDRs and IPAddresses, and the other objects grouped. Rows keep their slot when
//! their key is missing (a deleted Service), so the eye can follow them.

use crate::contract::state::State;
use crate::duration::format_ms;
use crate::k8s::api::{Behavior, Service};
use crate::lab::ReconcilerType;
use crate::lab::KUBERNETES;
use crate::lab::{Key, KeyKind, NsName, RangeName};
use crate::lang::Lang;

/// Which row a key is drawn on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum RowId {
    Lease(String),
    Range(&'static str),
    Service,
    Endpoints,
    Slice,
    ServiceCidrs,
    IpAddresses,
    /// Every other Service (with its Endpoints and EndpointSlices).
    Services,
    Pods,
    Namespaces,
}

impl RowId {
    /// The row a key written on the wire belongs to.
    pub(crate) fn of(key: &str) -> RowId {
        match key.parse::<Key>() {
            Ok(Key::Lease(ip)) => RowId::Lease(ip),
            Ok(Key::Service(nn)) if nn.is_kubernetes() => RowId::Service,
            Ok(Key::Endpoints(nn)) if nn.is_kubernetes() => RowId::Endpoints,
            Ok(Key::EndpointSlice(nn)) if nn.is_kubernetes() => RowId::Slice,
            Ok(Key::Range(r)) => RowId::Range(r.key()),
            Ok(Key::ServiceCidr(_)) => RowId::ServiceCidrs,
            Ok(Key::IpAddress(_)) => RowId::IpAddresses,
            Ok(Key::Pod(_)) => RowId::Pods,
            Ok(Key::Namespace(_)) => RowId::Namespaces,
            _ => RowId::Services,
        }
    }

    /// The tour spots (`data-spot` tokens) this row stands for.
    pub(crate) fn spots(&self) -> &'static str {
        match self {
            RowId::Lease(_) => "leases",
            RowId::Range(k) if *k == RangeName::NodePorts.key() => "ranges node-port",
            RowId::Range(_) => "ranges cluster-ip",
            RowId::Service => "kubernetes-service",
            RowId::Endpoints => "endpoints",
            RowId::Slice => "endpoint-slice",
            RowId::ServiceCidrs => "service-cidrs",
            RowId::IpAddresses => "ip-addresses",
            RowId::Services => "services",
            RowId::Pods => "pods",
            RowId::Namespaces => "namespaces",
        }
    }
}

/// One row: its key as etcd names it (without `/registry`), what it holds in a few words,
/// and for a lease its TTL.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    pub(crate) id: RowId,
    pub(crate) key: String,
    pub(crate) detail: String,
    /// (left, total) of a lease's TTL.
    pub(crate) ttl: Option<(u64, u64)>,
    /// The key is not in etcd now (deleted, or a lease fading out after it expired).
    pub(crate) missing: bool,
    /// A lease that expired or was deleted a moment ago, drawn while it fades.
    pub(crate) fading: bool,
}

/// What the rows need beyond the state.
pub(crate) struct RowsOf<'a> {
    pub(crate) state: &'a State,
    pub(crate) behavior: Behavior,
    pub(crate) reconciler: ReconcilerType,
    pub(crate) lease_ttl_ms: u64,
    /// Lease keys that just left etcd, still fading on the stage.
    pub(crate) fading: &'a [String],
    pub(crate) lang: Lang,
}

fn count(n: usize, one: &str, many: &str, lang: Lang) -> String {
    match lang {
        Lang::En if n == 1 => format!("1 {one}"),
        Lang::En => format!("{n} {many}"),
        Lang::Zh => format!("{n} 个{one}"),
    }
}

/// A row of a key without a TTL, not fading.
fn row(id: RowId, key: String, detail: String, missing: bool) -> Row {
    Row { id, key, detail, ttl: None, missing, fading: false }
}

impl RowsOf<'_> {
    /// Every row, in the stage's order: the leases, the ranges, the three objects of
    /// `default/kubernetes`, then the other objects by group.
    pub(crate) fn rows(&self) -> Vec<Row> {
        let mut rows = self.leases();
        rows.extend(self.ranges());
        rows.extend(self.kubernetes());
        rows.extend(self.groups());
        rows
    }

    /// The master leases held, then those fading out after they left etcd; when there is none,
    /// one row that says so.
    fn leases(&self) -> Vec<Row> {
        let (st, lang) = (self.state, self.lang);
        let mut rows: Vec<Row> = st
            .leases
            .iter()
            .map(|l| Row {
                ttl: Some((l.ttl_left_ms, self.lease_ttl_ms)),
                ..row(
                    RowId::Lease(l.ip.clone()),
                    l.key.clone(),
                    format!("TTL {}", format_ms(l.ttl_left_ms)),
                    false,
                )
            })
            .collect();
        for key in self.fading {
            if !st.leases.iter().any(|l| &l.key == key) {
                let RowId::Lease(ip) = RowId::of(key) else { continue };
                let gone = lang.pick("gone", "已删除").to_string();
                rows.push(Row { fading: true, ..row(RowId::Lease(ip), key.clone(), gone, true) });
            }
        }
        // The leases keep their place even when none is held (and under master-count or
        // none, which keep none: the stage shows that absence).
        if rows.is_empty() {
            let none = match self.reconciler {
                ReconcilerType::Lease => lang.pick("no lease", "无租约"),
                _ => lang.pick("none: this reconciler keeps no lease", "无：此协调器不使用租约"),
            }
            .to_string();
            rows.push(row(RowId::Lease(String::new()), KeyKind::Lease.group(), none, true));
        }
        rows
    }

    /// The allocators' `/ranges/*` snapshots: the ClusterIP ranges while a bitmap allocates
    /// them, then the NodePorts'.
    fn ranges(&self) -> Vec<Row> {
        let (st, lang) = (self.state, self.lang);
        let mut rows = Vec::new();
        let ips = &st.allocations.cluster_ip;
        if self.behavior.cluster_ip_bitmap() {
            let keys = [RangeName::ServiceIps.key(), RangeName::SecondaryServiceIps.key()];
            for (a, key) in ips.iter().zip(keys) {
                let detail =
                    format!("{} · {}", a.range, count(a.allocated.len(), "IP", "IPs", lang));
                rows.push(row(RowId::Range(key), key.to_string(), detail, false));
            }
        }
        let np = &st.allocations.node_port;
        let ports = format!(
            "{} · {}",
            np.range,
            count(np.allocated.len(), lang.pick("port", "端口"), "ports", lang)
        );
        rows.push(row(
            RowId::Range(RangeName::NodePorts.key()),
            RangeName::NodePorts.key().into(),
            ports,
            false,
        ));
        rows
    }

    /// The Service, Endpoints and EndpointSlice of `default/kubernetes`: what each holds, or
    /// "missing" in its slot.
    fn kubernetes(&self) -> [Row; 3] {
        let (st, lang) = (self.state, self.lang);
        let of = |id: RowId, key: Key, detail: Option<String>| match detail {
            Some(detail) => row(id, key.to_string(), detail, false),
            None => row(id, key.to_string(), lang.pick("missing", "不存在").to_string(), true),
        };
        let addresses = st.kubernetes_addresses().count();
        [
            of(
                RowId::Service,
                Key::Service(NsName::kubernetes()),
                self.kubernetes_service().map(|s| s.cluster_ip.clone()),
            ),
            of(
                RowId::Endpoints,
                Key::Endpoints(NsName::kubernetes()),
                st.kubernetes_endpoints()
                    .map(|_| count(addresses, lang.pick("address", "地址"), "addresses", lang)),
            ),
            of(
                RowId::Slice,
                Key::EndpointSlice(NsName::kubernetes()),
                st.kubernetes_slice().map(|s| {
                    count(s.endpoints.len(), lang.pick("endpoint", "端点"), "endpoints", lang)
                }),
            ),
        ]
    }

    /// The other objects, one row per kind with their count: the ServiceCIDRs and IPAddresses
    /// (from 1.33), the other Services, the Pods when there are any, the Namespaces.
    fn groups(&self) -> Vec<Row> {
        let (st, lang) = (self.state, self.lang);
        let mut rows = Vec::new();
        if self.behavior.ip_addresses() {
            let cidrs: Vec<String> = st.service_cidrs.iter().map(|c| c.name.clone()).collect();
            let detail = if cidrs.is_empty() { "—".to_string() } else { cidrs.join(", ") };
            rows.push(row(
                RowId::ServiceCidrs,
                KeyKind::ServiceCidr.group(),
                detail,
                cidrs.is_empty(),
            ));
            let n = st.ip_addresses.len();
            let detail = count(n, "IPAddress", "IPAddresses", lang);
            rows.push(row(RowId::IpAddresses, KeyKind::IpAddress.group(), detail, n == 0));
        }
        let others = st.services.len() - usize::from(self.kubernetes_service().is_some());
        let detail = count(others, "Service", "Services", lang);
        rows.push(row(RowId::Services, KeyKind::Service.group(), detail, others == 0));
        if !st.pods.is_empty() {
            let detail = count(st.pods.len(), "Pod", "Pods", lang);
            rows.push(row(RowId::Pods, KeyKind::Pod.group(), detail, false));
        }
        // Counted like the Services: their names are in the inspector and the details view.
        let detail = count(st.namespaces.len(), "Namespace", "Namespaces", lang);
        rows.push(row(
            RowId::Namespaces,
            KeyKind::Namespace.group(),
            detail,
            st.namespaces.is_empty(),
        ));
        rows
    }

    /// The `default/kubernetes` Service, if it exists.
    fn kubernetes_service(&self) -> Option<&Service> {
        self.state.services.iter().find(|s| s.namespace == "default" && s.name == KUBERNETES)
    }
}

/// The row a key lands on among `rows` (a lease with no row of its own lands on the leases).
pub(crate) fn slot(rows: &[Row], key: &str) -> Option<usize> {
    let id = RowId::of(key);
    rows.iter().position(|r| r.id == id).or_else(|| match id {
        RowId::Lease(_) => rows.iter().position(|r| matches!(r.id, RowId::Lease(_))),
        _ => None,
    })
}
