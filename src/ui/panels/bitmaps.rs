//! The allocations stored in etcd: the ClusterIP bitmaps (up to 1.33, which still writes one
//! beside the IPAddress objects), the IPAddress objects over each ServiceCIDR (1.33 and later),
//! the NodePort bitmap, and the corruption form that writes to them behind the allocators' back.

use std::rc::Rc;

use yew::prelude::*;

use super::Corrupt;
use crate::duration::format_ms;
use crate::k8s::api::Behavior;
use crate::lab::inspect::{BitmapView, Cell, MAX_CELLS};
use crate::lab::parts::{Part, Spot};
use crate::lab::Msg;
use crate::lab::{Bitmaps as Maps, CidrCanvas};
use crate::lang::Lang;
use crate::ui::bitmap::{group, Bitmap};

#[derive(Properties, PartialEq)]
pub(crate) struct BitmapsProps {
    pub(crate) maps: Rc<Maps>,
    pub(crate) behavior: Behavior,
    /// Virtual time now, for the orphans' countdowns.
    pub(crate) now: u64,
    /// How many repair runs there were: each sweeps the bitmaps.
    pub(crate) sweep: u64,
    pub(crate) lab: Callback<Msg>,
}

#[function_component(Bitmaps)]
pub(crate) fn bitmaps(p: &BitmapsProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let maps = &p.maps;
    let id = |i: usize| if i == 0 { "cluster-ip" } else { "cluster-ip-secondary" };
    let objects = p.behavior.ip_addresses();
    let spots = crate::ui::spots::use_spots();
    let [panel, cluster_ip, node_port, ip_addresses] =
        [Part::Bitmaps, Part::ClusterIp, Part::NodePort, Part::IpAddresses]
            .map(|p| spots.own(&Spot::Part(p)));
    // The primary range's bitmap is the ClusterIP bitmap a step points at.
    let mark =
        |i: usize| if i == 0 { cluster_ip.clone() } else { crate::ui::spots::Mark::default() };
    // Under 1.33 the bitmap is still written, and nothing repairs it.
    let bitmap_title = |v: &BitmapView| match (objects, lang) {
        (false, _) => format!("ClusterIP {}", v.range),
        (true, Lang::En) => format!("ClusterIP bitmap {} · written, no longer repaired", v.range),
        (true, Lang::Zh) => format!("ClusterIP 位图 {} · 仍在写入，不再修复", v.range),
    };
    let bitmaps = html! {
        { for maps.ips.iter().enumerate().map(|(i, v)| html! {
            <div data-tour={id(i)} class={classes!(objects.then_some("dual-write"), mark(i).class())} data-tour-spot={mark(i).attr()}>
                <Bitmap id={ids.id(id(i))} title={bitmap_title(v)} view={v.clone()} sweep={p.sweep} />
            </div>
        }) }
    };
    let (heading, label) = if objects {
        (
            lang.pick(
                "Allocations in etcd: IPAddress objects and bitmaps",
                "etcd 中的分配：IPAddress 对象与位图",
            ),
            lang.pick("Allocations", "分配"),
        )
    } else {
        (
            lang.pick("Allocation bitmaps in etcd", "etcd 中的分配位图"),
            lang.pick("Allocation bitmaps", "分配位图"),
        )
    };
    html! {
        <div role="region" class={classes!("panel", "bitmaps", panel.class())} data-tour-spot={panel.attr()} aria-label={label}>
            <h2>{ heading }</h2>
            if objects {
                <div class="ip-maps">
                    <div data-tour="ip-addresses" class={classes!("ip-objects", ip_addresses.class())} data-tour-spot={ip_addresses.attr()}>
                        if maps.cidrs.is_empty() {
                            <p class="empty" id={ids.id("ip-addresses-none")}>{ lang.pick(
                                "No ServiceCIDR: no IPAddress can be allocated until the apiservers create the ServiceCIDR kubernetes.",
                                "没有 ServiceCIDR：在 apiserver 创建名为 kubernetes 的 ServiceCIDR 之前，无法分配任何 IPAddress。") }</p>
                        }
                        { for maps.cidrs.iter().enumerate().map(|(i, c)| cidr_canvas(i, c, p.sweep, lang, &ids)) }
                        <Orphans cidrs={maps.cidrs.clone()} now={p.now} />
                        { undrawn(&maps.undrawn, lang, &ids) }
                    </div>
                    { bitmaps }
                </div>
            } else {
                { bitmaps }
            }
            <div data-tour="node-port" class={classes!(node_port.class())} data-tour-spot={node_port.attr()}>
                <Bitmap id={ids.id("node-port")} title={format!("NodePort {}", maps.ports.range)} view={maps.ports.clone()} sweep={p.sweep} />
            </div>
            <Corrupt lab={p.lab.clone()} behavior={p.behavior} />
        </div>
    }
}

/// One ServiceCIDR prefix: which object it belongs to, whether that is ready or being deleted,
/// and its IPAddress objects on the canvas.
fn cidr_canvas(
    i: usize,
    c: &CidrCanvas,
    sweep: u64,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let v = &c.view;
    let (state_class, state) = match (c.deleting, c.ready) {
        (true, _) if c.terminating => (
            "deleting",
            lang.pick(
                "deleting, Terminating: IPAddresses lie in it alone; it takes no new allocation",
                "删除中，Terminating：仍有只属于它的 IPAddress；不再接受新的分配",
            ),
        ),
        (true, _) => {
            ("deleting", lang.pick("deleting: takes no new allocation", "删除中：不再接受新的分配"))
        }
        (false, Some(false)) => ("not-ready", lang.pick("not ready", "未就绪")),
        (false, Some(true)) => ("ready", lang.pick("ready", "就绪")),
        (false, None) => ("unset", lang.pick("Ready unset: allocatable", "Ready 未设置：可以分配")),
    };
    let title = match lang {
        Lang::En => format!("IPAddress objects in ServiceCIDR {}", c.name),
        Lang::Zh => format!("ServiceCIDR {} 中的 IPAddress 对象", c.name),
    };
    let truncated = (v.size() as u128) < c.addresses;
    html! {
        <div key={format!("{}/{}", c.name, v.range)} class={classes!("cidr-map", state_class)} id={ids.id(&format!("ip-addresses-{i}-map"))}
            data-service-cidr={c.name.clone()}>
            <p class="cidr-map-state">
                <span class={classes!("badge", state_class)}>{ state }</span>
                // The boundary: the first and last usable address of the prefix.
                <span class="cidr-bounds">{ format!("{} – {}", c.bounds.0, c.bounds.1) }</span>
            </p>
            <Bitmap id={ids.id(&format!("ip-addresses-{i}"))} {title} view={v.clone()} {sweep} />
            if truncated {
                <p class="cidr-truncated" role="note">{ match lang {
                    Lang::En => format!("Drawn: its first {} addresses; objects past them are listed below.", group(MAX_CELLS)),
                    Lang::Zh => format!("只画出前 {} 个地址；其后的对象列在下方。", group(MAX_CELLS)),
                } }</p>
            }
        </div>
    }
}

/// The IPAddress objects on no canvas: outside every ServiceCIDR, or past a drawn part.
fn undrawn(list: &[(String, Cell, String)], lang: Lang, ids: &crate::ui::ids::Ids) -> Html {
    if list.is_empty() {
        return Html::default();
    }
    html! {
        <div class="bitmap-oor" id={ids.id("ip-addresses-undrawn")} role="note">
            <span class="bitmap-oor-title">{ lang.pick("IPAddress objects outside the drawn ServiceCIDRs:", "不在所画 ServiceCIDR 中的 IPAddress 对象：") }</span>
            <ul>
                { for list.iter().map(|(ip, _, parent)| html! {
                    <li><code>{ ip.clone() }</code>{ " → " }<code>{ parent.clone() }</code></li>
                }) }
            </ul>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct OrphansProps {
    cidrs: Rc<Vec<CidrCanvas>>,
    now: u64,
}

/// The orphan IPAddresses (their Service is gone) with the time left before RepairIPAddress may
/// delete them: the 60 s grace period counting down.
#[function_component(Orphans)]
fn orphans(p: &OrphansProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let grace = crate::lab::inspect::ORPHAN_GRACE_MS as f64;
    let mut rows: Vec<(String, String, u64, i64)> = Vec::new();
    for c in p.cidrs.iter() {
        for (o, at) in c.view.orphans() {
            let left = c.view.deletable_in(o, p.now).unwrap_or(0);
            let ip = c.view.label(o);
            if !rows.iter().any(|r| r.0 == ip) {
                rows.push((ip, c.view.parent(o).unwrap_or_default(), left, at));
            }
        }
    }
    if rows.is_empty() {
        return Html::default();
    }
    rows.sort_by_key(|r| (r.3, r.0.clone()));
    html! {
        <div class="orphans" id={ids.id("ip-orphans")}>
            <h3>{ lang.pick("Orphan IPAddresses: 60 s grace, then RepairIPAddress deletes them", "孤儿 IPAddress：60 秒宽限期过后由 RepairIPAddress 删除") }</h3>
            <ul>
                { for rows.iter().map(|(ip, parent, left, at)| html! {
                    <li key={ip.clone()}>
                        <code>{ ip }</code>
                        <span class="orphan-parent">{ parent }</span>
                        <span class="bar" role="img" aria-label={format_ms(*left)}>
                            <span style={format!("width:{:.1}%", (*left as f64 * 100.0 / grace).min(100.0))} />
                        </span>
                        <span class="orphan-left">{ if *left > 0 {
                            match lang {
                                Lang::En => format!("deletable in {}", format_ms(*left)),
                                Lang::Zh => format!("{} 后可删除", format_ms(*left)),
                            }
                        } else {
                            match lang {
                                Lang::En => format!("deletable since t = {}", format_ms((*at).max(0) as u64)),
                                Lang::Zh => format!("自 t = {} 起可删除", format_ms((*at).max(0) as u64)),
                            }
                        } }</span>
                    </li>
                }) }
            </ul>
        </div>
    }
}
