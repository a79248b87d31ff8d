//! etcd: whether it answers, its revision, the leases under `/masterleases` and the allocation
//! bitmaps under `/ranges`.

use yew::prelude::*;

use super::{act, used_text, EtcdProps};
use crate::contract::scenario::{Action, Outage};
use crate::duration::format_ms;
use crate::lab::parts::{Part, Spot};
use crate::lab::KeyKind;
use crate::lang::Lang;

#[function_component(Etcd)]
pub(crate) fn etcd(p: &EtcdProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let st = &p.state;
    let ttl = p.lease_ttl_ms.max(1);
    let ranges = st
        .allocations
        .cluster_ip
        .iter()
        .map(|a| (a.range.clone(), a.used, a.size))
        .collect::<Vec<_>>();
    let spots = crate::ui::spots::use_spots();
    let [etcd, leases, in_ranges] =
        [Part::Etcd, Part::Leases, Part::Ranges].map(|p| spots.own(&Spot::Part(p)));
    html! {
        <div role="region" class={classes!("panel", "etcd", etcd.class())} data-tour-spot={etcd.attr()} aria-labelledby={ids.id("h-etcd")}>
            <h2 id={ids.id("h-etcd")}>{ "etcd" }
                <span class={classes!("badge", if st.etcd.available { "running" } else { "crashed" })}>
                    { if st.etcd.available { lang.pick("reachable", "可访问") } else { lang.pick("outage", "中断") } }</span>
                <span class="sub">{ match lang {
                    Lang::En => format!("revision {}", st.etcd.revision),
                    Lang::Zh => format!("修订版本 {}", st.etcd.revision),
                } }</span>
            </h2>
            <h3>{ "/masterleases" }</h3>
            if st.leases.is_empty() {
                <p class="empty">{ lang.pick("no lease", "无租约") }</p>
            }
            <ul class={classes!("leases", leases.class())} data-tour-spot={leases.attr()}>
                { for st.leases.iter().map(|l| html! {
                    <li key={l.key.clone()}>
                        <code>{ &l.key }</code>
                        <span class="bar" role="img" aria-label={match lang {
                            Lang::En => format!("{} left", format_ms(l.ttl_left_ms)),
                            Lang::Zh => format!("剩余 {}", format_ms(l.ttl_left_ms)),
                        }}>
                            <span style={format!("width:{:.1}%", l.ttl_left_ms as f64 * 100.0 / ttl as f64)} />
                        </span>
                        <span class="ttl">{ format!("{:.1}s", l.ttl_left_ms as f64 / 1000.0) }</span>
                    </li>
                }) }
            </ul>
            <h3>{ "/ranges" }</h3>
            <ul class={classes!("ranges", in_ranges.class())} data-tour-spot={in_ranges.attr()}>
                { for ranges.iter().enumerate().map(|(i, (range, used, size))| html! {
                    <li><code>{ if i == 0 { "/ranges/serviceips" } else { "/ranges/secondaryserviceips" } }</code>
                        { used_text(range, *used, *size as i64, lang) }</li>
                }) }
                <li><code>{ "/ranges/servicenodeports" }</code>
                    { used_text(&st.allocations.node_port.range, st.allocations.node_port.used, st.allocations.node_port.size as i64, lang) }</li>
            </ul>
            if p.behavior.ip_addresses() {
                <h3>{ lang.pick("ClusterIP objects", "ClusterIP 对象") }</h3>
                <ul class={classes!("ranges", "objects", in_ranges.class())} data-tour-spot={in_ranges.attr()} id={ids.id("etcd-objects")}>
                    <li><code>{ KeyKind::ServiceCidr.prefix() }</code>{ objects_text(st.service_cidrs.len(), lang) }</li>
                    <li><code>{ KeyKind::IpAddress.prefix() }</code>{ objects_text(st.ip_addresses.len(), lang) }</li>
                </ul>
            }
            // The cluster takes an outage at any time (during one it lasts until 30s from now), so
            // the button is always offered.
            <button id={ids.id("etcd-outage")} class="etcd-outage" onclick={act(&p.lab, Action::EtcdOutage(Outage { for_: super::CUT_FOR }))}>
                { if st.etcd.available { lang.pick("⚡ etcd outage 30s", "⚡ etcd 中断 30s") } else { lang.pick("⚡ extend to 30s from now", "⚡ 延长到从现在起 30s") } }</button>
        </div>
    }
}

/// ` · 3 objects`
fn objects_text(n: usize, lang: Lang) -> String {
    match (lang, n) {
        (Lang::En, 1) => " · 1 object".to_string(),
        (Lang::En, n) => format!(" · {n} objects"),
        (Lang::Zh, n) => format!(" · {n} 个对象"),
    }
}
