//! The stage: one scene that tells the story. The apiservers on one side (status, readiness,
//! the TTL ring of their lease), etcd in the middle with the keys that matter, the
//! `default/kubernetes` Service with its endpoints on the other side and a strip of the
//! allocations; every request to etcd flies across it as a packet. Everything is drawn from
//! the core's state and wire; clicking or focusing an object asks to inspect it.

pub(crate) mod clients;
mod etcd;
mod fit;
mod layout;
mod marks;
mod packets;
mod rows;
mod service;
mod strip;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::Frame;
use crate::contract::state::ApiserverState;
use crate::duration::format_ms;
use crate::lab::upstream::Subject;
use crate::lab::{EndpointsChange, Msg};
use crate::lab::{Loop, WireOp, Write};
use crate::lang::Lang;

use super::spots::Spots;
use crate::lab::parts::{Part, Spot};
use layout::{Layout, Rect};
use packets::{Flight, FLIGHT_MS};
use rows::{Row, RowsOf};

pub(crate) use marks::draws;

/// Packets are announced to screen readers only up to this speed (virtual ms per real ms):
/// faster, they would be a stream of noise.
const ANNOUNCE_UP_TO_SPEED: f64 = 1.0;

#[derive(Properties, PartialEq)]
pub(crate) struct StageProps {
    pub(crate) frame: Frame,
    /// The requests of the last move (`View::wire`), new when `wire_seq` changes.
    pub(crate) wire: Rc<Vec<Write>>,
    pub(crate) wire_seq: u64,
    pub(crate) generation: u64,
    /// Virtual ms per real ms.
    pub(crate) speed: f64,
    pub(crate) change: EndpointsChange,
    /// What the reader picked to inspect.
    pub(crate) on_pick: Callback<(Subject, bool)>,
    /// Open the full allocation views (the details' bitmaps and corruption form).
    pub(crate) on_details: Callback<()>,
    #[prop_or_default]
    pub(crate) lab: Option<Callback<Msg>>,
    /// The width the stage will measure, when known before it is drawn (the first view's).
    #[prop_or_default]
    pub(crate) first_width: Option<f64>,
    /// A still picture (a handout's, `ui::handout`): drawn at a printed sheet's width whatever its box, scaled to it,
    /// with no packets, no legend of them and no live region.
    #[prop_or_default]
    pub(crate) still: bool,
}

fn now_ms() -> f64 {
    crate::ui::browser::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The width of `node` in CSS px, followed as it changes (the container's, not the window's);
/// until it is measured, `first` (the first view's), else a wide one's.
#[hook]
fn use_width(node: NodeRef, first: Option<f64>) -> f64 {
    let width = use_state(|| first.unwrap_or(960.0));
    {
        let width = width.clone();
        use_effect_with(node, move |node| {
            let el = node.cast::<web_sys::Element>();
            let observer = el.as_ref().and_then(|el| {
                let set = width.clone();
                width.set(el.client_width() as f64);
                let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
                    if let Some(e) = entries.get(0).dyn_ref::<web_sys::ResizeObserverEntry>() {
                        set.set(e.content_rect().width());
                    }
                });
                let o = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
                o.observe(el);
                Some((o, cb))
            });
            move || {
                if let Some((o, _cb)) = observer {
                    o.disconnect();
                }
            }
        });
    }
    *width
}

/// A click, Enter or Space on an object: inspect it. Focus alone opens nothing: a reader
/// tabbing through the stage is not followed by a panel over it.
fn pickable(
    on_pick: &Callback<(Subject, bool)>,
    subject: Subject,
) -> (Callback<MouseEvent>, Callback<KeyboardEvent>) {
    let click = {
        let (on_pick, subject) = (on_pick.clone(), subject.clone());
        Callback::from(move |_| on_pick.emit((subject.clone(), true)))
    };
    let key = {
        let on_pick = on_pick.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                e.stop_propagation();
                on_pick.emit((subject.clone(), true));
            }
        })
    };
    (click, key)
}

/// What [`use_packets`] gives the stage to draw its packets with.
struct Packets {
    /// The last batch of requests in words, for the live region.
    announce: String,
    /// A packet (by id) arrived: it leaves the sky.
    land: Callback<u64>,
    /// A lease row that left etcd (by key) has faded out: it leaves the stage.
    faded: Callback<String>,
}

/// The life of the packets in `flight`, apart from the drawing: each new batch of requests
/// (`wire_seq`) takes off between the ends `layout` gives it, and is told in words up to a speed
/// one can follow; another scenario clears the sky; each landing or fading redraws the stage.
#[hook]
fn use_packets(
    flight: Rc<RefCell<Flight>>,
    p: &StageProps,
    layout: Layout,
    names: Vec<String>,
    rows: Vec<Row>,
    lang: Lang,
) -> Packets {
    let redraw = use_force_update();
    let announce = use_state(String::new);
    {
        // A new batch of requests takes off; another scenario clears the sky.
        let (flight, redraw, announce) = (flight.clone(), redraw.clone(), announce.clone());
        let wire = p.wire.clone();
        let speed = p.speed;
        use_effect_with((p.wire_seq, p.generation), move |_| {
            let now = now_ms();
            let mut f = flight.borrow_mut();
            f.prune(now);
            f.launch(&wire, now, &layout, &names, &rows);
            drop(f);
            if speed <= ANNOUNCE_UP_TO_SPEED && !wire.is_empty() {
                announce.set(wire.iter().map(|w| describe(w, lang)).collect::<Vec<_>>().join("; "));
            }
            redraw.force_update();
        });
    }
    {
        let flight = flight.clone();
        use_effect_with(p.generation, move |_| {
            *flight.borrow_mut() = Flight::default();
        });
    }
    let land = {
        let (flight, redraw) = (flight.clone(), redraw.clone());
        Callback::from(move |id: u64| {
            flight.borrow_mut().land(id);
            redraw.force_update();
        })
    };
    let faded = Callback::from(move |key: String| {
        flight.borrow_mut().faded(&key);
        redraw.force_update();
    });
    Packets { announce: (*announce).clone(), land, faded }
}

#[function_component(Stage)]
pub(crate) fn stage(p: &StageProps) -> Html {
    let lang = super::use_lang();
    let ids = crate::ui::ids::use_ids();
    let node = use_node_ref();
    let measured = use_width(node.clone(), p.first_width);
    let width = if p.still { STILL_WIDTH } else { measured };
    let flight = use_mut_ref(Flight::default);
    let live = crate::ui::live::use_politeness();
    // The step's spots this stage draws: each part marks itself, in every render.
    let spots = super::spots::use_spots();
    let whole = spots.own(&Spot::Part(Part::Stage));
    let st = &p.frame.state;
    let rows = RowsOf {
        state: st,
        behavior: p.frame.behavior,
        reconciler: p.frame.reconciler,
        lease_ttl_ms: p.frame.lease_ttl_ms,
        fading: &flight.borrow().fading_keys(),
        lang,
    }
    .rows();
    let layout = Layout::new(width, st.apiservers.len(), rows.len(), service::card(p));
    fit::use_fit(
        node.clone(),
        format!("{}{}", lang.code(), if layout.portrait { " portrait" } else { "" }),
    );
    let names: Vec<String> = st.apiservers.iter().map(|a| a.name.clone()).collect();
    let Packets { announce, land, faded } =
        use_packets(flight.clone(), p, layout.clone(), names, rows.clone(), lang);
    let title = lang.pick(
        "The stage: apiservers, etcd and the default/kubernetes Service; each request to etcd flies as a packet",
        "舞台：apiserver、etcd 与 default/kubernetes Service；每个发往 etcd 的请求都以数据包的形式飞过",
    );
    let draw = |layout: &Layout, node: NodeRef| {
        let places = marks::Places::new(layout.one_column, &rows);
        html! {
            <div role="region" class={classes!("stage", layout.portrait.then_some("portrait"), whole.class())}
                data-tour-spot={whole.attr()} aria-label={title} ref={node}>
                <svg class="stage-svg" viewBox={layout.view_box()} role="group" aria-label={title}
                    preserveAspectRatio="xMidYMin meet">
                    { apiservers(p, &spots, layout, lang, &ids) }
                    { kcm(layout, lang) }
                    { etcd::etcd_box(p, &spots, layout, &rows, &faded, lang) }
                    { service::service_card(p, &spots, layout, &places, lang, &ids) }
                    { strip::strip(&p.frame, layout.strip, &p.on_pick, &p.on_details, &spots, &places, lang) }
                    if !p.still {
                        <g class="packets" aria-hidden="true">
                            { for flight.borrow().packets.iter().map(|pk| packet(pk, &land, &p.on_pick)) }
                        </g>
                    }
                </svg>
                { caption(p, &spots, lang) }
                if !p.still {
                    <p class="sr-only" aria-live={live}>{ announce.clone() }</p>
                }
            </div>
        }
    };
    if cfg!(target_arch = "wasm32") || p.still {
        return draw(&layout, node);
    }
    let narrow = |w| Layout::new(w, st.apiservers.len(), rows.len(), service::card(p));
    poster_fits(&draw, &layout, node, narrow)
}

/// Rendered natively into the page's first view (src/ui/poster.rs), the stage cannot know its
/// width: it is drawn wide and at the narrow widths readers meet most, and the poster's CSS shows
/// the one nearest the width the live stage will measure.
fn poster_fits(
    draw: &dyn Fn(&Layout, NodeRef) -> Html,
    wide: &Layout,
    node: NodeRef,
    narrow: impl Fn(f64) -> Layout,
) -> Html {
    let fits = POSTER_FITS.iter().map(|&(name, w)| {
        html! { <div class="stage-fit" data-fit={name}>{ draw(&narrow(w), NodeRef::default()) }</div> }
    });
    html! {
        <div class="stage-fits">
            <div class="stage-fit" data-fit="wide">{ draw(wide, node) }</div>
            { for fits }
        </div>
    }
}

/// The narrow widths the first view's stage is drawn at (stage.css picks by the stage's width),
/// as the live stage measures them (its content box): a 390 px phone's and a docs site's 750
/// px column's.
const POSTER_FITS: [(&str, f64); 2] = [("phone", 352.0), ("column", 704.0)];

/// The width a still stage is laid out at: the stacked stage of a docs column, at one unit per
/// CSS px within a printed A4 or Letter sheet's 12 mm margins (about 700 px), so that its text
/// prints at its size (11.5 px and up: 8.6 pt and up), never scaled down.
const STILL_WIDTH: f64 = 680.0;

/// A request in words, for the live region.
fn describe(w: &Write, lang: Lang) -> String {
    let op = match (w.op, lang) {
        (WireOp::Put, Lang::En) => "writes",
        (WireOp::Delete, Lang::En) => "deletes",
        (WireOp::Expire, Lang::En) => "expires",
        (WireOp::Bounce, Lang::En) => "cannot reach etcd for",
        (WireOp::Put, Lang::Zh) => "写入",
        (WireOp::Delete, Lang::Zh) => "删除",
        (WireOp::Expire, Lang::Zh) => "过期删除",
        (WireOp::Bounce, Lang::Zh) => "无法送达",
    };
    format!("{} {op} {}", w.sender, w.key)
}

fn apiservers(
    p: &StageProps,
    spots: &Spots,
    l: &Layout,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let area = l.apiserver_area;
    let spot = spots.on_stage("apiservers");
    html! {
        <g class={classes!("area", "apiservers", spot.class())} data-spot="apiservers" data-tour-spot={spot.attr()}>
            <rect class="spot-frame" x={(area.x - 4.0).to_string()} y={(area.y - 4.0).to_string()}
                width={(area.w + 8.0).to_string()} height={(area.h + 8.0).to_string()} rx="10" />
            <text class="area-title" x={area.x.to_string()} y={(area.y + 12.0).to_string()}>{ "kube-apiservers" }</text>
            { for p.frame.state.apiservers.iter().zip(&l.apiservers).map(|(a, r)| apiserver(p, spots, a, *r, lang, ids)) }
        </g>
    }
}

fn apiserver(
    p: &StageProps,
    spots: &Spots,
    a: &ApiserverState,
    r: Rect,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let lease = p.frame.state.leases.iter().find(|l| l.ip == a.advertise_address);
    let ttl = p.frame.lease_ttl_ms.max(1);
    let status = super::panels::status_text(a.status, lang);
    let ready =
        if a.ready { lang.pick("ready", "就绪") } else { lang.pick("not ready", "未就绪") };
    let compact = r.h < 44.0;
    let tiny = r.h < 34.0;
    let ring_r = (r.h / 2.0 - 8.0).min(r.w * 0.1).clamp(6.0, 18.0);
    let ring_secs =
        lease.filter(|_| ring_r >= 10.0).map(|l| l.ttl_left_ms.div_ceil(1000).to_string());
    // The name starts with the words drawn, in their order (label in name, WCAG 2.5.3), so a
    // speech user can say what they see; what the card cannot show follows.
    let mut words = match (tiny, compact) {
        (true, _) => vec![a.name.clone()],
        (false, true) => vec![a.name.clone(), status.to_string()],
        (false, false) => {
            vec![a.name.clone(), a.advertise_address.clone(), format!("{status} · {ready}")]
        }
    };
    let unseen = match (tiny, compact) {
        (true, _) => vec![a.advertise_address.clone(), status.to_string(), ready.to_string()],
        (false, true) => vec![a.advertise_address.clone(), ready.to_string()],
        (false, false) => vec![],
    };
    // The ring's seconds are drawn too: they follow the drawn words, before the unseen ones.
    if ring_secs.is_none() {
        words.extend(unseen.iter().cloned());
    }
    words.push(match (lease, &ring_secs, lang) {
        (_, Some(s), Lang::En) => format!("{s} s of lease TTL left"),
        (_, Some(s), Lang::Zh) => format!("{s} 秒，租约 TTL 剩余"),
        (Some(l), None, Lang::En) => format!("lease TTL left {}", format_ms(l.ttl_left_ms)),
        (Some(l), None, Lang::Zh) => format!("租约 TTL 剩余 {}", format_ms(l.ttl_left_ms)),
        (None, _, _) => lang.pick("no lease", "无租约").to_string(),
    });
    if ring_secs.is_some() {
        words.extend(unseen);
    }
    let label = words.join(", ");
    let (onclick, onkeydown) = pickable(&p.on_pick, Subject::Apiserver(a.name.clone()));
    let (cx, cy) = (r.right() - ring_r - 10.0, r.mid_y());
    let c = 2.0 * std::f64::consts::PI * ring_r;
    let frac = lease.map_or(0.0, |l| l.ttl_left_ms as f64 / ttl as f64);
    let spot = format!("apiserver:{}", a.name);
    let marked = spots.on_stage(&spot);
    html! {
        <g class={classes!("node", "apiserver", a.status.as_str(), a.ready.then_some("is-ready"), marked.class())}
            data-spot={spot.clone()} data-tour-spot={marked.attr()} data-ip={a.advertise_address.clone()} id={ids.id(&format!("stage-apiserver-{}", a.name))}
            tabindex="0" role="button" aria-label={label} {onclick} {onkeydown}>
            <rect class="frame" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="8" />
            <circle class="ready-dot" cx={(r.x + 10.0).to_string()} cy={(r.y + if tiny { r.h / 2.0 } else { 14.0 }).to_string()} r="4" />
            <text class={classes!("name", (r.w < 140.0).then_some("small"))} x={(r.x + 18.0).to_string()}
                y={(r.y + if tiny { r.h / 2.0 + 4.0 } else { 18.0 }).to_string()}>{ &a.name }</text>
            // Spaces between the texts keep their words apart for whatever reads the page's text.
            { " " }
            if compact && !tiny {
                <text class={classes!("status", "small", a.status.as_str())} x={(r.x + 18.0).to_string()} y={(r.y + 32.0).to_string()}>
                    { status }</text>
            }
            if !compact {
                <text class="ip" x={(r.x + 18.0).to_string()} y={(r.y + 34.0).to_string()}>{ &a.advertise_address }</text>
                { " " }
                <text class={classes!("status", a.status.as_str())} x={(r.x + 18.0).to_string()} y={(r.y + r.h - 10.0).min(r.y + 54.0).to_string()}>
                    { format!("{status} · {ready}") }</text>
            }
            { " " }
            if lease.is_some() {
                <g class="ttl-ring">
                    <circle class="ring-bg" cx={cx.to_string()} cy={cy.to_string()} r={ring_r.to_string()} />
                    <circle class="ring-fg" cx={cx.to_string()} cy={cy.to_string()} r={ring_r.to_string()}
                        stroke-dasharray={format!("{:.2} {:.2}", c * frac, c)} transform={format!("rotate(-90 {cx} {cy})")} />
                    if let Some(secs) = ring_secs {
                        <text class="ring-text" x={cx.to_string()} y={(cy + 4.0).to_string()} text-anchor="middle">{ secs }</text>
                    }
                </g>
            }
        </g>
    }
}

fn kcm(l: &Layout, lang: Lang) -> Html {
    let r = l.kcm;
    let label = lang.pick(
        "kube-controller-manager: the endpoints controller and the ServiceCIDR controller",
        "kube-controller-manager：endpoints 控制器与 ServiceCIDR 控制器",
    );
    html! {
        <g class="node kcm" role="img" aria-label={label}>
            <rect class="frame" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="8" />
            if l.portrait {
                <text class="name vertical" transform={format!("translate({} {}) rotate(-90)", r.mid_x() + 4.0, r.mid_y())} text-anchor="middle">
                    { "kube-controller-manager" }</text>
            } else {
                <text class="name" x={(r.x + 10.0).to_string()} y={(r.y + 20.0).to_string()}>{ "kube-controller-manager" }</text>
                <text class="sub" x={(r.x + 10.0).to_string()} y={(r.y + 38.0).to_string()}>
                    { lang.pick("endpoints · ServiceCIDR controllers", "endpoints 与 ServiceCIDR 控制器") }</text>
            }
        </g>
    }
}

/// A packet: the shape says which loop sent it, the colour too; a bounce turns back. A click
/// inspects it (by keyboard, a key's inspector lists the requests that just reached it).
fn packet(pk: &packets::Packet, land: &Callback<u64>, on_pick: &Callback<(Subject, bool)>) -> Html {
    let (x0, y0) = pk.from;
    let (x1, y1) = pk.to;
    let style = format!(
        "--x0:{x0:.1}px;--y0:{y0:.1}px;--x1:{x1:.1}px;--y1:{y1:.1}px;--xm:{:.1}px;--ym:{:.1}px;animation-duration:{FLIGHT_MS}ms",
        (x0 + x1) / 2.0,
        (y0 + y1) / 2.0
    );
    let id = pk.id;
    let onanimationend = land.reform(move |_: AnimationEvent| id);
    let write = pk.write.clone();
    let onclick = on_pick.reform(move |_: MouseEvent| (Subject::Packet(write.clone()), true));
    let shape = legend_shape(pk.write.via);
    html! {
        <g class={pk.classes()} {style} key={pk.id.to_string()} {onanimationend} {onclick}
            data-sender={pk.write.sender.clone()} data-key={pk.write.key.clone()}>
            { shape }
            if pk.count > 1 {
                <text class="count" x="9" y="-6">{ format!("×{}", pk.count) }</text>
            }
        </g>
    }
}

/// Under the stage: the last events, and what each packet shape means.
fn caption(p: &StageProps, spots: &Spots, lang: Lang) -> Html {
    let events = &p.frame.events;
    let recent: Vec<_> = events.iter().rev().take(2).collect();
    let legend = [
        (Loop::EndpointReconciler, lang.pick("endpoint reconciler", "endpoint 协调器")),
        (Loop::Repair, lang.pick("repair loop", "修复循环")),
        (Loop::Request, lang.pick("API request", "API 请求")),
        (Loop::Bootstrap, lang.pick("bootstrap controller", "引导控制器")),
        (Loop::ControllerManager, lang.pick("controller-manager", "controller-manager")),
        (Loop::Ttl, lang.pick("TTL expiry", "TTL 过期")),
    ];
    let spot = spots.on_stage("events");
    html! {
        <div class="stage-caption">
            <ol class={classes!("stage-events", spot.class())} data-spot="events"
                data-tour-spot={spot.attr()} aria-label={lang.pick("Latest events", "最新事件")}>
                if recent.is_empty() {
                    <li class="quiet">{ lang.pick("No event yet.", "还没有事件。") }</li>
                }
                { for recent.iter().map(|e| {
                    let subject = Subject::Event((*e).clone());
                    let (onclick, onkeydown) = pickable(&p.on_pick, subject);
                    html! {
                        <li><button type="button" class="event" {onclick} {onkeydown}>
                            <span class="t">{ format_ms(e.time_ms) }</span>
                            <b>{ if e.apiserver.is_empty() { e.component.clone() } else { e.apiserver.clone() } }</b>
                            if !e.reason.is_empty() { <span class="reason">{ &e.reason }</span> }
                            <span class="msg">{ &e.message }</span>
                        </button></li>
                    }
                }) }
            </ol>
            if !p.still {
            <ul class="legend" aria-label={lang.pick("Packet shapes", "数据包形状")}>
                { for legend.iter().map(|(via, name)| {
                    let class = format!("shape {}", packets::shape_classes(*via, WireOp::Put));
                    html! {
                        <li><svg viewBox="-9 -9 18 18" class="legend-shape" aria-hidden="true">
                            <g class={class}>{ legend_shape(*via) }</g></svg>{ *name }</li>
                    }
                }) }
                <li><svg viewBox="-9 -9 18 18" class="legend-shape" aria-hidden="true"><g class="shape op-bounce"><circle r="6" /></g></svg>
                    { lang.pick("bounced (no etcd)", "被退回（连不上 etcd）") }</li>
            </ul>
            }
        </div>
    }
}

/// The shape of a packet from loop `via` (in a packet and in the legend alike).
fn legend_shape(via: Loop) -> Html {
    match via {
        Loop::EndpointReconciler => html! { <circle r="6" /> },
        Loop::Repair => html! { <rect x="-5.5" y="-5.5" width="11" height="11" /> },
        Loop::Request => html! { <path d="M0 -7 L7 0 L0 7 L-7 0 Z" /> },
        Loop::Bootstrap => html! { <path d="M0 -7 L7 6 L-7 6 Z" /> },
        Loop::ControllerManager => html! { <path d="M-7 -4 L0 -8 L7 -4 L7 4 L0 8 L-7 4 Z" /> },
        Loop::Ttl => html! { <path d="M-6 -6 L6 6 M6 -6 L-6 6" class="cross" /> },
        Loop::Lab => {
            html! { <path d="M0 -8 L2 -2 L8 -2 L3 2 L5 8 L0 4 L-5 8 L-3 2 L-8 -2 L-2 -2 Z" /> }
        }
    }
}
