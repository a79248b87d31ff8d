//! The `default/kubernetes` Service on the stage: its ClusterIP, the addresses of its
//! Endpoints and EndpointSlice as chips, and a count of the other Services and Pods.

use yew::prelude::*;

use super::layout::{chips_per_line, Card, Layout, Rect, PORTRAIT_CHIP_W};
use super::marks::Places;
use super::{pickable, StageProps};
use crate::k8s::api::Service;
use crate::lab::upstream::Subject;
use crate::lab::{Key, NsName, KUBERNETES};
use crate::lang::Lang;
use crate::ui::spots::Spots;

/// The card of `default/kubernetes`: its head (name, ClusterIP) opens it in the inspector; below,
/// the Endpoints' and the EndpointSlice's addresses as chips and the other Services, each group
/// a part a tour step can point at.
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
    let w = if l.portrait { PORTRAIT_CHIP_W } else { 120.0 };
    let chips = ChipGrid { x, w, per_line: chips_per_line(r.w, w) };
    let leaving = leaving(p, &addresses);
    let ep_lines = chips.lines(addresses.len() + leaving.len());
    let slice_lines = chips.lines(slice.len());
    let y_ep = r.y + if l.portrait { 62.0 } else { 92.0 };
    let y_slice = y_ep + ep_lines * 22.0 + 22.0;
    let y_svcs = y_slice + slice_lines * 22.0 + 18.0;
    // Each group's tokens where it carries them (not on one column when a row does).
    let [card, ep, sl, svcs] =
        ["kubernetes-service", "endpoints", "endpoint-slice", "services pods"]
            .map(|t| places.picture(t));
    let mark = |tokens: &str| spots.on_stage(tokens).attr();
    let marked = |tokens: &str| spots.on_stage(tokens).class();
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
                { hit(r, y_ep - 18.0, y_ep + ep_lines * 22.0) }
                <text class="label" x={x.to_string()} y={(y_ep - 6.0).to_string()}>{ "Endpoints" }</text>
                { chips.draw(&addresses.iter().map(|a| a.to_string()).collect::<Vec<_>>(), y_ep, &leaving, ids.id("stage-endpoints")) }
            </g>
            <g class={classes!("slice", marked(&sl))} data-spot={sl.clone()} data-tour-spot={mark(&sl)}>
                { hit(r, y_slice - 18.0, y_slice + slice_lines * 22.0) }
                <text class="label" x={x.to_string()} y={(y_slice - 6.0).to_string()}>{ "EndpointSlice" }</text>
                { chips.draw(&slice, y_slice, &[], ids.id("stage-slice")) }
            </g>
            <g class={classes!("services", marked(&svcs))} data-spot={svcs.clone()} data-tour-spot={mark(&svcs)}>
                { other_services(&others, st.pods.len(), r, y_svcs, lang) }
            </g>
        </g>
    }
}

/// How address chips are laid on the card: from `x`, lines of `per_line` chips `w` px wide.
#[derive(Clone, Copy)]
struct ChipGrid {
    x: f64,
    w: f64,
    per_line: usize,
}

impl ChipGrid {
    /// The lines `n` chips take: at least one, an empty group keeps its line.
    fn lines(&self, n: usize) -> f64 {
        n.div_ceil(self.per_line).max(1) as f64
    }

    /// A group of address chips (element `id`) from `y` down: `list`, then the `leaving` ones,
    /// drawn fading out.
    fn draw(&self, list: &[String], y: f64, leaving: &[String], id: String) -> Html {
        let ChipGrid { x, w, per_line } = *self;
        html! {
            <g class="chips" {id}>
                { for list.iter().chain(leaving).enumerate().map(|(i, a)| {
                    let (cx, cy) = (x + (i % per_line) as f64 * (w + 4.0), y + (i / per_line) as f64 * 22.0);
                    let gone = i >= list.len();
                    html! {
                        <g class={classes!("chip", gone.then_some("leaving"))} key={format!("{a}{gone}")} data-ip={a.clone()}>
                            <rect x={cx.to_string()} y={cy.to_string()} width={w.to_string()} height="18" rx="9" />
                            <text x={(cx + w / 2.0).to_string()} y={(cy + 13.0).to_string()} text-anchor="middle"
                                data-fit={(w - 8.0).to_string()}>{ a }</text>
                        </g>
                    }
                }) }
            </g>
        }
    }
}

/// An invisible box under a group of the card `r`, from `top` to `bottom`: what the group covers
/// is the group's (a pointer or a test between two chips lands on it, not on the card behind).
fn hit(r: Rect, top: f64, bottom: f64) -> Html {
    html! {
        <rect class="hit" x={(r.x + 4.0).to_string()} y={top.to_string()} width={(r.w - 8.0).to_string()} height={(bottom - top).to_string()} />
    }
}

/// The other Services and the Pods counted, then the Services by name, as many as the card `r`
/// has room for below `y` (a last line says how many more), over the group's hit box.
fn other_services(others: &[&Service], pods: usize, r: Rect, y: f64, lang: Lang) -> Html {
    let x = r.x + 10.0;
    let room = ((r.bottom() - y - 20.0) / 16.0).max(0.0) as usize;
    let shown = if others.len() > room { room.saturating_sub(1) } else { others.len() };
    let lines = shown + usize::from(shown < others.len());
    html! {
        <>
            { hit(r, y - 13.0, y + 16.0 * lines as f64 + 5.0) }
            <text class="label" x={x.to_string()} y={y.to_string()} data-fit={(r.w - 20.0).to_string()}>
                { match lang { Lang::En => format!("Other Services: {}", others.len()), Lang::Zh => format!("其他 Service：{} 个", others.len()) } }
                { if pods > 0 { match lang { Lang::En => format!(" · Pods: {pods}"), Lang::Zh => format!(" · Pod：{pods} 个") } } else { String::new() } }
            </text>
            { for others.iter().take(shown).enumerate().map(|(i, s)| html! {
                <text class="service-line" x={x.to_string()} y={(y + 16.0 * (i as f64 + 1.0)).to_string()}
                    data-fit={(r.w - 20.0).to_string()}>{ format!("{}/{} {}", s.namespace, s.name, s.cluster_ip) }</text>
            }) }
            if shown < others.len() {
                <text class="service-line" x={x.to_string()} y={(y + 16.0 * (shown as f64 + 1.0)).to_string()}>
                    { match lang { Lang::En => format!("+ {} more", others.len() - shown), Lang::Zh => format!("还有 {} 个", others.len() - shown) } }</text>
            }
        </>
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
