//! The allocation strip: each ClusterIP range (the bitmap up to 1.33), each ServiceCIDR (its
//! IPAddress objects from 1.33) and the NodePort range as a bar, the static band shaded and
//! one tick per allocation; the full canvas views are one click away in the details.

use yew::prelude::*;

use super::layout::Rect;
use super::Frame;
use crate::lab::upstream::Subject;
use crate::lab::{Bar as Allocations, BarKind};
use crate::lang::Lang;

/// One bar as drawn: the lab's bar, its label and the tour spot it stands for.
struct Bar {
    label: String,
    spot: &'static str,
    bar: Allocations,
}

fn bars(frame: &Frame, lang: Lang) -> Vec<Bar> {
    let label = |b: &Allocations| match (&b.kind, lang) {
        (BarKind::ClusterIpBitmap, Lang::En) => {
            format!("ClusterIP bitmap {} · {} used", b.range, b.used)
        }
        (BarKind::ClusterIpBitmap, Lang::Zh) => {
            format!("ClusterIP 位图 {} · 已用 {}", b.range, b.used)
        }
        (BarKind::IpAddresses { cidr }, Lang::En) => {
            format!("IPAddresses in {cidr} {} · {}", b.range, b.used)
        }
        (BarKind::IpAddresses { cidr }, Lang::Zh) => {
            format!("{cidr} {} 中的 IPAddress · {} 个", b.range, b.used)
        }
        (BarKind::NodePortBitmap, Lang::En) => {
            format!("NodePort bitmap {} · {} used", b.range, b.used)
        }
        (BarKind::NodePortBitmap, Lang::Zh) => {
            format!("NodePort 位图 {} · 已用 {}", b.range, b.used)
        }
    };
    let spot = |k: &BarKind| match k {
        BarKind::ClusterIpBitmap => "cluster-ip bitmaps",
        BarKind::IpAddresses { .. } => "ip-addresses bitmaps",
        BarKind::NodePortBitmap => "node-port bitmaps",
    };
    frame
        .allocation_bars()
        .into_iter()
        .map(|bar| Bar { label: label(&bar), spot: spot(&bar.kind), bar })
        .collect()
}

pub(super) fn strip(
    frame: &Frame,
    r: Rect,
    on_pick: &Callback<(Subject, bool)>,
    on_details: &Callback<()>,
    spots: &crate::ui::spots::Spots,
    places: &super::marks::Places,
    lang: Lang,
) -> Html {
    let mark = |tokens: &str| spots.on_stage(tokens);
    let bars = bars(frame, lang);
    let room = r.h - 42.0;
    let each = (room / bars.len().max(1) as f64).min(34.0);
    let (bx, bw) = (r.x + 8.0, r.w - 16.0);
    let details = on_details.reform(|_: MouseEvent| ());
    let details_key = on_details.reform(|_: KeyboardEvent| ());
    let keys = |cb: Callback<KeyboardEvent>| {
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                cb.emit(e);
            }
        })
    };
    html! {
        <g class={classes!("area", "strip", mark(places.strip()).class())} data-spot={places.strip()} data-tour-spot={mark(places.strip()).attr()}>
            <rect class="spot-frame" x={(r.x - 4.0).to_string()} y={(r.y - 4.0).to_string()}
                width={(r.w + 8.0).to_string()} height={(r.h + 8.0).to_string()} rx="10" />
            <rect class="body" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="8" />
            { for bars.iter().enumerate().map(|(i, b)| {
                let y = r.y + 6.0 + i as f64 * each;
                let pick = on_pick.clone();
                let subject = b.bar.subject.clone();
                let onclick = Callback::from(move |_: MouseEvent| pick.emit((subject.clone(), true)));
                let pick = on_pick.clone();
                let subject = b.bar.subject.clone();
                let onkeydown = keys(Callback::from(move |_| pick.emit((subject.clone(), true))));
                // One tick per column of the bar: thousands of allocations stay cheap.
                let mut columns = std::collections::BTreeMap::new();
                for (f, s, what) in &b.bar.ticks {
                    columns.entry((f * bw) as i64).or_insert((s.clone(), what.clone()));
                }
                let tokens = places.picture(b.spot);
                html! {
                    <g class={classes!("bar", mark(&tokens).class())} data-spot={tokens.clone()} data-tour-spot={mark(&tokens).attr()}>
                        <rect class="hit" x={bx.to_string()} y={y.to_string()} width={bw.to_string()} height="26" />
                        <text class="label" x={bx.to_string()} y={(y + 10.0).to_string()} data-fit={bw.to_string()}>{ &b.label }</text>
                        <g class="bar-track" tabindex="0" role="button" aria-label={b.label.clone()} {onclick} {onkeydown}>
                            <rect class="track" x={bx.to_string()} y={(y + 14.0).to_string()} width={bw.to_string()} height="10" rx="2" />
                            if b.bar.band > 0.0 {
                                <rect class="band" x={bx.to_string()} y={(y + 14.0).to_string()} width={(bw * b.bar.band).to_string()} height="10" />
                            }
                        </g>
                        { for columns.into_iter().map(|(col, (s, what))| {
                            let pick = on_pick.clone();
                            let onclick = Callback::from(move |_: MouseEvent| pick.emit((s.clone(), true)));
                            html! {
                                <rect class="tick" x={(bx + col as f64).to_string()} y={(y + 13.0).to_string()} width="2" height="12" {onclick}>
                                    <title>{ what }</title>
                                </rect>
                            }
                        }) }
                    </g>
                }
            }) }
            <g class="stage-button" tabindex="0" role="button" onclick={details.clone()} onkeydown={keys(details_key.clone())}
                aria-label={lang.pick("Full views of the allocations, below", "完整视图：下方的分配视图")}>
                <rect x={bx.to_string()} y={(r.bottom() - 30.0).to_string()} width={(bw / 2.0 - 4.0).to_string()} height="24" rx="6" />
                <text x={(bx + bw / 4.0 - 2.0).to_string()} y={(r.bottom() - 14.0).to_string()} text-anchor="middle">
                    { lang.pick("Full views", "完整视图") }<tspan aria-hidden="true">{ " ↓" }</tspan></text>
            </g>
            <g class={classes!("stage-button", mark("corrupt").class())} data-spot="corrupt" data-tour-spot={mark("corrupt").attr()} tabindex="0" role="button" onclick={details} onkeydown={keys(details_key)}
                aria-label={lang.pick("Corrupt… the stored allocations, in the full views below", "篡改…存储的分配（在下方的完整视图中）")}>
                <rect x={(bx + bw / 2.0 + 4.0).to_string()} y={(r.bottom() - 30.0).to_string()} width={(bw / 2.0 - 4.0).to_string()} height="24" rx="6" />
                <text x={(bx + bw * 0.75 + 2.0).to_string()} y={(r.bottom() - 14.0).to_string()} text-anchor="middle">
                    { lang.pick("Corrupt…", "篡改…") }<tspan aria-hidden="true">{ " ↓" }</tspan></text>
            </g>
        </g>
    }
}
