//! The `default/kubernetes` Service on the stage: its ClusterIP, the addresses of its
//! Endpoints and EndpointSlice as chips, and a count of the other Services and Pods.

use yew::prelude::*;

use super::layout::{chips_per_line, Card, Layout, PORTRAIT_CHIP_W};
use super::marks::Places;
use super::{pickable, StageProps};
use crate::lab::upstream::Subject;
use crate::lab::{Key, NsName, KUBERNETES};
use crate::lang::Lang;
use crate::ui::spots::Spots;

pub(super) fn service_card(
    p: &StageProps,
    spots: &Spots,
    l: &Layout,
    places: &Places,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let r = l.service;
    let st = &p.frame.state;
    let svc = st.services.iter().find(|s| s.namespace == "default" && s.name == KUBERNETES);
    let ip = svc.map_or_else(
        || lang.pick("deleted: recreated at the next sync", "已删除：下次同步时重建").to_string(),
        |s| s.cluster_ip.clone(),
    );
    let (onclick, onkeydown) =
        pickable(&p.on_pick, Subject::Key(Key::Service(NsName::kubernetes()).to_string()));
    let addresses: Vec<&String> = st.kubernetes_addresses().collect();
    let slice: Vec<String> = st
        .kubernetes_slice()
        .map(|s| s.endpoints.iter().flat_map(|e| e.addresses.clone()).collect())
        .unwrap_or_default();
    let others: Vec<_> = st
        .services
        .iter()
        .filter(|s| !(s.namespace == "default" && s.name == KUBERNETES))
        .collect();
    let x = r.x + 10.0;
    let chip_w = if l.portrait { PORTRAIT_CHIP_W } else { 120.0 };
    let per_line = chips_per_line(r.w, chip_w);
    let chips = |list: Vec<String>, y: f64, leaving: &[String], id: &str| -> Html {
        html! {
            <g class="chips" id={ids.id(id)}>
                { for list.iter().chain(leaving).enumerate().map(|(i, a)| {
                    let (cx, cy) = (x + (i % per_line) as f64 * (chip_w + 4.0), y + (i / per_line) as f64 * 22.0);
                    let gone = i >= list.len();
                    html! {
                        <g class={classes!("chip", gone.then_some("leaving"))} key={format!("{a}{gone}")} data-ip={a.clone()}>
                            <rect x={cx.to_string()} y={cy.to_string()} width={chip_w.to_string()} height="18" rx="9" />
                            <text x={(cx + chip_w / 2.0).to_string()} y={(cy + 13.0).to_string()} text-anchor="middle"
                                data-fit={(chip_w - 8.0).to_string()}>{ a }</text>
                        </g>
                    }
                }) }
            </g>
        }
    };
    let leaving = leaving(p, &addresses);
    let ep_lines = (addresses.len() + leaving.len()).div_ceil(per_line).max(1) as f64;
    let slice_lines = slice.len().div_ceil(per_line).max(1) as f64;
    let y_ep = r.y + if l.portrait { 62.0 } else { 92.0 };
    let y_slice = y_ep + ep_lines * 22.0 + 22.0;
    let y_svcs = y_slice + slice_lines * 22.0 + 18.0;
    let room = ((r.bottom() - y_svcs - 20.0) / 16.0).max(0.0) as usize;
    let shown = if others.len() > room { room.saturating_sub(1) } else { others.len() };
    let pods = st.pods.len();
    let lines = shown + usize::from(shown < others.len());
    // Each group's tokens where it carries them (not on one column when a row does).
    let [card, ep, sl, svcs] =
        ["kubernetes-service", "endpoints", "endpoint-slice", "services pods"]
            .map(|t| places.picture(t));
    let mark = |tokens: &str| spots.on_stage(tokens).attr();
    let marked = |tokens: &str| spots.on_stage(tokens).class();
    // An invisible box under each group: what the group covers is the group's (a pointer or a
    // test between two chips lands on it, not on the card behind).
    let hit = |top: f64, bottom: f64| {
        html! {
            <rect class="hit" x={(r.x + 4.0).to_string()} y={top.to_string()} width={(r.w - 8.0).to_string()} height={(bottom - top).to_string()} />
        }
    };
    html! {
        <g class={classes!("area", "service", marked(&card))} data-spot={card.clone()}
            data-tour-spot={mark(&card)}>
            <rect class="spot-frame" x={(r.x - 4.0).to_string()} y={(r.y - 4.0).to_string()}
                width={(r.w + 8.0).to_string()} height={(r.h + 8.0).to_string()} rx="10" />
            <rect class="body" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="8" />
            <g class="service-head" tabindex="0" role="button" {onclick} {onkeydown}
                aria-label={format!("default/kubernetes, {ip}, ClusterIP · 443/TCP")}>
                <text class="area-title" x={x.to_string()} y={(r.y + 20.0).to_string()}>{ "default/kubernetes" }</text>
                { " " }
                <text class={classes!("cluster-ip", svc.is_none().then_some("missing"))} x={x.to_string()}
                    y={(r.y + if l.portrait { 42.0 } else { 52.0 }).to_string()} id={ids.id("stage-kubernetes-ip")}
                    data-fit={(r.w - 20.0).to_string()}>{ ip }</text>
                if !l.portrait {
                    { " " }
                    <text class="sub" x={x.to_string()} y={(r.y + 68.0).to_string()}>{ "ClusterIP · 443/TCP" }</text>
                }
            </g>
            <g class={classes!("endpoints", marked(&ep))} data-spot={ep.clone()} data-tour-spot={mark(&ep)}>
                { hit(y_ep - 18.0, y_ep + ep_lines * 22.0) }
                <text class="label" x={x.to_string()} y={(y_ep - 6.0).to_string()}>{ "Endpoints" }</text>
                { chips(addresses.iter().map(|a| a.to_string()).collect(), y_ep, &leaving, "stage-endpoints") }
            </g>
            <g class={classes!("slice", marked(&sl))} data-spot={sl.clone()} data-tour-spot={mark(&sl)}>
                { hit(y_slice - 18.0, y_slice + slice_lines * 22.0) }
                <text class="label" x={x.to_string()} y={(y_slice - 6.0).to_string()}>{ "EndpointSlice" }</text>
                { chips(slice, y_slice, &[], "stage-slice") }
            </g>
            <g class={classes!("services", marked(&svcs))} data-spot={svcs.clone()} data-tour-spot={mark(&svcs)}>
                { hit(y_svcs - 13.0, y_svcs + 16.0 * lines as f64 + 5.0) }
                <text class="label" x={x.to_string()} y={y_svcs.to_string()} data-fit={(r.w - 20.0).to_string()}>
                    { match lang { Lang::En => format!("Other Services: {}", others.len()), Lang::Zh => format!("其他 Service：{} 个", others.len()) } }
                    { if pods > 0 { match lang { Lang::En => format!(" · Pods: {pods}"), Lang::Zh => format!(" · Pod：{pods} 个") } } else { String::new() } }
                </text>
                { for others.iter().take(shown).enumerate().map(|(i, s)| html! {
                    <text class="service-line" x={x.to_string()} y={(y_svcs + 16.0 * (i as f64 + 1.0)).to_string()}
                        data-fit={(r.w - 20.0).to_string()}>{ format!("{}/{} {}", s.namespace, s.name, s.cluster_ip) }</text>
                }) }
                if shown < others.len() {
                    <text class="service-line" x={x.to_string()} y={(y_svcs + 16.0 * (shown as f64 + 1.0)).to_string()}>
                        { match lang { Lang::En => format!("+ {} more", others.len() - shown), Lang::Zh => format!("还有 {} 个", others.len() - shown) } }</text>
                }
            </g>
        </g>
    }
}

/// The addresses that just left the Endpoints, still drawn while they fade.
fn leaving(p: &StageProps, addresses: &[&String]) -> Vec<String> {
    p.change.removed.iter().filter(|a| !addresses.contains(a)).cloned().collect()
}

/// What the card will hold, for the stage's layout.
pub(super) fn card(p: &StageProps) -> Card {
    let st = &p.frame.state;
    let addresses: Vec<&String> = st.kubernetes_addresses().collect();
    Card {
        endpoints: addresses.len() + leaving(p, &addresses).len(),
        slice: st
            .kubernetes_slice()
            .map_or(0, |s| s.endpoints.iter().map(|e| e.addresses.len()).sum()),
        others: st
            .services
            .iter()
            .filter(|s| !(s.namespace == "default" && s.name == KUBERNETES))
            .count(),
    }
}
