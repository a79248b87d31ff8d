//! The allocation strip: each ClusterIP range (the bitmap up to 1.33), each ServiceCIDR (its
//! IPAddress objects from 1.33) and the NodePort range as a bar, the static band shaded and
//! one tick per allocation; the full canvas views are one click away in the details.

use std::net::IpAddr;

use ipnet::IpNet;
use yew::prelude::*;

use super::layout::Rect;
use super::Frame;
use crate::lab::{Key, RangeName};
use crate::lang::Lang;
use crate::upstream::Subject;

/// Where `ip` falls in `net`, from 0 to 1.
fn fraction(net: &IpNet, ip: &str) -> Option<f64> {
    let ip: IpAddr = ip.parse().ok()?;
    if !net.contains(&ip) {
        return None;
    }
    let (base, bits, x) = match (net.network(), ip) {
        (IpAddr::V4(n), IpAddr::V4(i)) => (u32::from(n) as u128, 32 - net.prefix_len() as u32, u32::from(i) as u128),
        (IpAddr::V6(n), IpAddr::V6(i)) => (u128::from(n), 128 - net.prefix_len() as u32, u128::from(i)),
        _ => return None,
    };
    let size = if bits >= 128 { u128::MAX } else { 1u128 << bits };
    Some((x - base) as f64 / size as f64)
}

/// One bar: its label, the share of its static band, and its ticks (0…1, with what they are).
struct Bar {
    label: String,
    spot: &'static str,
    subject: Subject,
    band: f64,
    ticks: Vec<(f64, Subject, String)>,
}

fn bars(frame: &Frame, lang: Lang) -> Vec<Bar> {
    let st = &frame.state;
    let mut out = Vec::new();
    if frame.behavior.cluster_ip_bitmap() {
        let keys = [RangeName::ServiceIps.key(), RangeName::SecondaryServiceIps.key()];
        for (a, key) in st.allocations.cluster_ip.iter().zip(keys) {
            let Ok(net) = a.range.parse::<IpNet>() else { continue };
            let ticks = a
                .allocated
                .iter()
                .filter_map(|ip| Some((fraction(&net, ip)?, Subject::ClusterIp(ip.clone()), ip.clone())))
                .collect();
            out.push(Bar {
                label: match lang {
                    Lang::En => format!("ClusterIP bitmap {} · {} used", a.range, a.allocated.len()),
                    Lang::Zh => format!("ClusterIP 位图 {} · 已用 {}", a.range, a.allocated.len()),
                },
                spot: "cluster-ip bitmaps",
                subject: Subject::Key(key.to_string()),
                band: a.static_band as f64 / a.size.max(1) as f64,
                ticks,
            });
        }
    }
    if frame.behavior.ip_addresses() {
        for cidr in &st.service_cidrs {
            for range in &cidr.cidrs {
                let Ok(net) = range.parse::<IpNet>() else { continue };
                let ticks: Vec<_> = st
                    .ip_addresses
                    .iter()
                    .filter_map(|a| Some((fraction(&net, &a.ip)?, Subject::IpAddress(a.ip.clone()), a.ip.clone())))
                    .collect();
                out.push(Bar {
                    label: match lang {
                        Lang::En => format!("IPAddresses in {} {} · {}", cidr.name, range, ticks.len()),
                        Lang::Zh => format!("{} {} 中的 IPAddress · {} 个", cidr.name, range, ticks.len()),
                    },
                    spot: "ip-addresses bitmaps",
                    subject: Subject::Key(Key::ServiceCidr(cidr.name.clone()).to_string()),
                    band: 0.0,
                    ticks,
                });
            }
        }
    }
    let np = &st.allocations.node_port;
    let (lo, hi) = np
        .range
        .split_once('-')
        .and_then(|(a, b)| Some((a.parse::<i32>().ok()?, b.parse::<i32>().ok()?)))
        .unwrap_or((0, 0));
    let size = (hi - lo + 1).max(1) as f64;
    out.push(Bar {
        label: match lang {
            Lang::En => format!("NodePort bitmap {} · {} used", np.range, np.allocated.len()),
            Lang::Zh => format!("NodePort 位图 {} · 已用 {}", np.range, np.allocated.len()),
        },
        spot: "node-port bitmaps",
        subject: Subject::Key(RangeName::NodePorts.key().to_string()),
        band: np.static_band as f64 / size,
        ticks: np
            .allocated
            .iter()
            .map(|&port| ((port - lo) as f64 / size, Subject::NodePort(port as u16), port.to_string()))
            .collect(),
    });
    out
}

pub(super) fn strip(frame: &Frame, r: Rect, on_pick: &Callback<(Subject, bool)>, on_details: &Callback<()>, spots: &[String], places: &super::marks::Places, lang: Lang) -> Html {
    let mark = |tokens: &str| super::spot_of(spots, tokens);
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
        <g class={classes!("area", "strip", mark(places.strip()).is_some().then_some("tour-spot"))} data-spot={places.strip()} data-tour-spot={mark(places.strip())}>
            <rect class="spot-frame" x={(r.x - 4.0).to_string()} y={(r.y - 4.0).to_string()}
                width={(r.w + 8.0).to_string()} height={(r.h + 8.0).to_string()} rx="10" />
            <rect class="body" x={r.x.to_string()} y={r.y.to_string()} width={r.w.to_string()} height={r.h.to_string()} rx="8" />
            { for bars.iter().enumerate().map(|(i, b)| {
                let y = r.y + 6.0 + i as f64 * each;
                let pick = on_pick.clone();
                let subject = b.subject.clone();
                let onclick = Callback::from(move |_: MouseEvent| pick.emit((subject.clone(), true)));
                let pick = on_pick.clone();
                let subject = b.subject.clone();
                let onkeydown = keys(Callback::from(move |_| pick.emit((subject.clone(), true))));
                // One tick per column of the bar: thousands of allocations stay cheap.
                let mut columns = std::collections::BTreeMap::new();
                for (f, s, what) in &b.ticks {
                    columns.entry((f * bw) as i64).or_insert((s.clone(), what.clone()));
                }
                let tokens = places.picture(b.spot);
                html! {
                    <g class={classes!("bar", mark(&tokens).is_some().then_some("tour-spot"))} data-spot={tokens.clone()} data-tour-spot={mark(&tokens)}>
                        <rect class="hit" x={bx.to_string()} y={y.to_string()} width={bw.to_string()} height="26" />
                        <text class="label" x={bx.to_string()} y={(y + 10.0).to_string()} data-fit={bw.to_string()}>{ &b.label }</text>
                        <g class="bar-track" tabindex="0" role="button" aria-label={b.label.clone()} {onclick} {onkeydown}>
                            <rect class="track" x={bx.to_string()} y={(y + 14.0).to_string()} width={bw.to_string()} height="10" rx="2" />
                            if b.band > 0.0 {
                                <rect class="band" x={bx.to_string()} y={(y + 14.0).to_string()} width={(bw * b.band).to_string()} height="10" />
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
            <g class={classes!("stage-button", mark("corrupt").is_some().then_some("tour-spot"))} data-spot="corrupt" data-tour-spot={mark("corrupt")} tabindex="0" role="button" onclick={details} onkeydown={keys(details_key)}
                aria-label={lang.pick("Corrupt… the stored allocations, in the full views below", "篡改…存储的分配（在下方的完整视图中）")}>
                <rect x={(bx + bw / 2.0 + 4.0).to_string()} y={(r.bottom() - 30.0).to_string()} width={(bw / 2.0 - 4.0).to_string()} height="24" rx="6" />
                <text x={(bx + bw * 0.75 + 2.0).to_string()} y={(r.bottom() - 14.0).to_string()} text-anchor="middle">
                    { lang.pick("Corrupt…", "篡改…") }<tspan aria-hidden="true">{ " ↓" }</tspan></text>
            </g>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_place_addresses_within_their_range() {
        let net: IpNet = "10.96.0.0/12".parse().unwrap();
        assert_eq!(fraction(&net, "10.96.0.0"), Some(0.0));
        assert!((fraction(&net, "10.104.0.0").unwrap() - 0.5).abs() < 1e-9);
        assert_eq!(fraction(&net, "10.200.0.1"), None);
        let v6: IpNet = "fd00::/108".parse().unwrap();
        assert!(fraction(&v6, "fd00::8:0").unwrap() > 0.49);
        assert_eq!(fraction(&v6, "10.96.0.1"), None);
    }
}
