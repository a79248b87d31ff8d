//! The stage as tables, for a reader who does not see it (or prefers to read): the apiservers,
//! the etcd keys the story is about with the TTL left on each, and the ClusterIPs and NodePorts
//! each Service holds. Read from the frame's state, as the stage and the panels are.

use yew::prelude::*;

use super::panels::status_text;
use crate::contract::state::State;
use crate::duration::format_ms;
use crate::lab::{Key, NsName, RangeName};
use crate::lang::Lang;

#[derive(Properties, PartialEq, Clone)]
pub(crate) struct TableViewProps {
    pub(crate) frame: super::Frame,
}

/// One etcd key: the key, what it holds (in short) and its lease's TTL left, if it has one.
struct KeyRow {
    key: String,
    holds: String,
    ttl_left_ms: Option<u64>,
}

fn ttl_text(left: Option<u64>, lang: Lang) -> String {
    left.map_or_else(|| lang.pick("no TTL", "无 TTL").to_string(), format_ms)
}

/// The keys that matter, in the order the story meets them: the leases, the allocation ranges,
/// the `default/kubernetes` Service, Endpoints and EndpointSlice, and under the behaviours with
/// IPAddress objects the ServiceCIDRs and IPAddresses.
fn key_rows(st: &State, ip_objects: bool, lang: Lang) -> Vec<KeyRow> {
    let row = |key: String, holds: String| KeyRow { key, holds, ttl_left_ms: None };
    let mut rows: Vec<KeyRow> = st
        .leases
        .iter()
        .map(|l| KeyRow {
            key: l.key.clone(),
            holds: l.ip.clone(),
            ttl_left_ms: Some(l.ttl_left_ms),
        })
        .collect();
    let used = |range: &str, used: i64, size: usize| match lang {
        Lang::En => format!("{range}: {used} of {size} used"),
        Lang::Zh => format!("{range}：已用 {used} / {size}"),
    };
    for (i, a) in st.allocations.cluster_ip.iter().enumerate() {
        let key =
            if i == 0 { RangeName::ServiceIps.key() } else { RangeName::SecondaryServiceIps.key() };
        rows.push(row(key.into(), used(&a.range, a.used, a.size)));
    }
    let ports = &st.allocations.node_port;
    rows.push(row(RangeName::NodePorts.key().into(), used(&ports.range, ports.used, ports.size)));
    let kubernetes =
        st.services.iter().find(|s| s.namespace == "default" && s.name == "kubernetes");
    if let Some(s) = kubernetes {
        rows.push(row(
            Key::Service(NsName::kubernetes()).to_string(),
            format!("ClusterIP {}", s.cluster_ip),
        ));
    }
    // The addresses an Endpoints or EndpointSlice lists, in words.
    let addresses = |listed: Vec<&String>| match listed.is_empty() {
        true => lang.pick("no addresses", "没有地址").to_string(),
        false => listed.iter().map(|a| a.as_str()).collect::<Vec<_>>().join(", "),
    };
    if let Some(e) = st.kubernetes_endpoints() {
        let holds = addresses(e.subsets.iter().flat_map(|s| &s.addresses).collect());
        rows.push(row(Key::Endpoints(NsName::kubernetes()).to_string(), holds));
    }
    if let Some(s) = st.kubernetes_slice() {
        let holds = addresses(s.endpoints.iter().flat_map(|e| &e.addresses).collect());
        rows.push(row(Key::EndpointSlice(NsName::kubernetes()).to_string(), holds));
    }
    if ip_objects {
        for c in &st.service_cidrs {
            let mut holds = c.cidrs.join(", ");
            if c.deleting {
                holds.push_str(lang.pick(" (deleting)", "（删除中）"));
            }
            rows.push(row(Key::ServiceCidr(c.name.clone()).to_string(), holds));
        }
        for a in &st.ip_addresses {
            let parent = format!("{} {}/{}", a.parent.resource, a.parent.namespace, a.parent.name);
            rows.push(row(Key::IpAddress(a.ip.clone()).to_string(), parent));
        }
    }
    rows
}

#[function_component(TableView)]
pub(crate) fn table_view(p: &TableViewProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::use_lang();
    let st = &p.frame.state;
    let lease_of = |ip: &str| st.leases.iter().find(|l| l.ip == ip).map(|l| l.ttl_left_ms);
    let col = |en: &str, zh: &str| html! { <th scope="col">{ lang.pick(en, zh).to_string() }</th> };
    let at = format_ms(st.time_ms);
    html! {
        <div class="table-view" id={ids.id("table-view")}>
            <div class="table-wrap">
                <table id={ids.id("table-apiservers")}>
                    <caption>{ match lang {
                        Lang::En => format!("kube-apiservers at t = {at}"),
                        Lang::Zh => format!("t = {at} 时的 kube-apiserver"),
                    } }</caption>
                    <thead><tr>
                        { col("Name", "名称") }{ col("IP", "IP") }{ col("Status", "状态") }
                        { col("Ready", "就绪") }{ col("Lease TTL left", "租约 TTL 剩余") }
                    </tr></thead>
                    <tbody>
                        { for st.apiservers.iter().map(|a| html! {
                            <tr key={a.name.clone()}>
                                <th scope="row">{ &a.name }</th>
                                <td>{ &a.advertise_address }</td>
                                <td>{ status_text(a.status, lang) }</td>
                                <td>{ if a.ready { lang.pick("yes", "是") } else { lang.pick("no", "否") } }</td>
                                <td>{ lease_of(&a.advertise_address).map_or_else(|| lang.pick("no lease", "无租约").to_string(), format_ms) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <div class="table-wrap">
                <table id={ids.id("table-keys")}>
                    <caption>{ match lang {
                        Lang::En => format!("etcd keys at t = {at} (revision {})", st.etcd.revision),
                        Lang::Zh => format!("t = {at} 时的 etcd 键（修订版本 {}）", st.etcd.revision),
                    } }</caption>
                    <thead><tr>{ col("Key", "键") }{ col("Holds", "内容") }{ col("TTL left", "TTL 剩余") }</tr></thead>
                    <tbody>
                        { for key_rows(st, p.frame.behavior.ip_addresses(), lang).into_iter().map(|r| html! {
                            <tr key={r.key.clone()}>
                                <th scope="row"><code>{ r.key }</code></th>
                                <td>{ r.holds }</td>
                                <td>{ ttl_text(r.ttl_left_ms, lang) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <div class="table-wrap">
                <table id={ids.id("table-allocations")}>
                    <caption>{ lang.pick("ClusterIPs and NodePorts allocated to each Service", "每个 Service 分配到的 ClusterIP 与 NodePort") }</caption>
                    <thead><tr>{ col("Service", "Service") }{ col("Type", "类型") }{ col("ClusterIPs", "ClusterIP") }{ col("NodePorts", "NodePort") }</tr></thead>
                    <tbody>
                        { for st.services.iter().map(|s| {
                            let ips = if s.cluster_ips.is_empty() { s.cluster_ip.clone() } else { s.cluster_ips.join(", ") };
                            let ports: Vec<String> = s.ports.iter().filter(|p| p.node_port != 0).map(|p| p.node_port.to_string()).collect();
                            let name = format!("{}/{}", s.namespace, s.name);
                            html! {
                                <tr key={name.clone()}>
                                    <th scope="row">{ name }</th>
                                    <td>{ format!("{:?}", s.type_) }</td>
                                    <td>{ if ips.is_empty() { lang.pick("none", "无").to_string() } else { ips } }</td>
                                    <td>{ if ports.is_empty() { lang.pick("none", "无").to_string() } else { ports.join(", ") } }</td>
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            </div>
            { super::stage::clients::tables(p.frame.clients.as_deref(), lang, &ids) }
        </div>
    }
}

/// The tables alone, of a lab opened as [`super::App`] opens one (a scenario, a link to a
/// moment, a language): what the component tests mount, and a page may, without the stage.
#[function_component(LabTables)]
pub fn lab_tables(props: &super::AppProps) -> Html {
    let state = super::hooks::use_lab(props);
    let (frame, _) = super::frame::use_frame(state.get().view());
    let t = frame.lang;
    html! {
        <super::lang::LangProvider context={t}>
            <div class="lab" lang={t.code()} data-theme={props.theme.forced()}>
                <TableView {frame} />
            </div>
        </super::lang::LangProvider>
    }
}

lazy_component!(pub(crate) LazyTableView(lazy_table_view, load_table_view) = TableView [TableViewProps] in panels);
