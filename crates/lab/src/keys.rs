//! What an etcd key holds, in a few words: the inspector's summary of a key or of a grouped
//! row, read from the state through the typed [`Key`].

use crate::contract::state::State;
use crate::k8s::etcd::{Key, Keys, Kind as KeyKind, NsName, RangeName};
use crate::lang::Lang;

/// "none", in `t`: what an empty value reads as, here and in the inspector's other rows.
pub fn none(t: Lang) -> String {
    t.pick("none", "无").to_string()
}

/// What `key` (or a grouped row, `/namespaces/*`) holds, in a few words in `t`; `None` when
/// etcd does not hold it.
pub fn key_summary(key: &str, st: &State, t: Lang) -> Option<String> {
    let list = |v: Vec<String>| if v.is_empty() { none(t) } else { v.join(", ") };
    let key = match key.parse::<Keys>().ok()? {
        Keys::All(kind) => return group_names(kind, st).map(list),
        Keys::One(key) => key,
    };
    let is =
        |nn: &NsName, namespace: &str, name: &str| nn.namespace == namespace && nn.name == name;
    match &key {
        Key::Lease(ip) => {
            let holder = st.apiservers.iter().find(|a| &a.advertise_address == ip);
            st.leases.iter().find(|l| &l.ip == ip)?;
            Some(match (t, holder) {
                (Lang::En, Some(a)) => format!("{ip}, the lease of {}", a.name),
                (Lang::Zh, Some(a)) => format!("{ip}，{} 的租约", a.name),
                _ => ip.to_string(),
            })
        }
        Key::Range(RangeName::ServiceIps) => st.allocations.cluster_ip.first().map(|a| used(a, t)),
        Key::Range(RangeName::SecondaryServiceIps) => {
            st.allocations.cluster_ip.get(1).map(|a| used(a, t))
        }
        Key::Range(RangeName::NodePorts) => Some(used(&st.allocations.node_port, t)),
        Key::Service(nn) => {
            let s = st.services.iter().find(|s| is(nn, &s.namespace, &s.name))?;
            let ip = if s.cluster_ip.is_empty() { none(t) } else { s.cluster_ip.clone() };
            Some(format!("{:?} · ClusterIP {ip}", s.type_))
        }
        Key::Endpoints(nn) => {
            let e = st.endpoints.iter().find(|e| is(nn, &e.namespace, &e.name))?;
            Some(list(e.subsets.iter().flat_map(|s| s.addresses.clone()).collect()))
        }
        Key::EndpointSlice(nn) => {
            let e = st.endpoint_slices.iter().find(|e| is(nn, &e.namespace, &e.name))?;
            Some(list(e.endpoints.iter().flat_map(|s| s.addresses.clone()).collect()))
        }
        Key::ServiceCidr(name) => {
            let c = st.service_cidrs.iter().find(|c| &c.name == name)?;
            Some(c.cidrs.join(", "))
        }
        Key::IpAddress(ip) => {
            let a = st.ip_addresses.iter().find(|a| &a.ip == ip)?;
            Some(format!("{}/{}/{}", a.parent.resource, a.parent.namespace, a.parent.name))
        }
        Key::Namespace(n) => {
            st.namespaces.contains(n).then(|| t.pick("a Namespace", "一个 Namespace").to_string())
        }
        Key::Pod(nn) => {
            let p = st.pods.iter().find(|p| is(nn, &p.namespace, &p.name))?;
            let ready =
                if p.ready { t.pick("ready", "就绪") } else { t.pick("not ready", "未就绪") };
            Some(format!("{} · {ready}", p.pod_ip))
        }
    }
}

/// The names a grouped row (`/namespaces/*`) stands for.
fn group_names(kind: KeyKind, st: &State) -> Option<Vec<String>> {
    Some(match kind {
        KeyKind::Namespace => st.namespaces.clone(),
        KeyKind::Service => st.services.iter().map(|s| s.key()).collect(),
        KeyKind::Pod => st.pods.iter().map(|p| p.key()).collect(),
        KeyKind::ServiceCidr => st.service_cidrs.iter().map(|c| c.name.clone()).collect(),
        KeyKind::IpAddress => st.ip_addresses.iter().map(|a| a.ip.clone()).collect(),
        KeyKind::Lease => st.leases.iter().map(|l| l.ip.clone()).collect(),
        KeyKind::Range | KeyKind::Endpoints | KeyKind::EndpointSlice => return None,
    })
}

/// A range object: its range and how much of it is used.
fn used<T>(a: &crate::contract::state::AllocationState<T>, t: Lang) -> String {
    match t {
        Lang::En => format!("{} · {} of {} used", a.range, a.used, a.size),
        Lang::Zh => format!("{} · 已用 {} / {}", a.range, a.used, a.size),
    }
}
