//! The apiservers: status, readiness, their lease's TTL, and what can be done to each.

use std::collections::BTreeMap;

use yew::prelude::*;

use super::{act, PanelProps};
use crate::duration::format_ms;
use crate::inspect::words::{behavior_label, crash_hint, stop_hint};
use crate::lang::Lang;
use crate::scenario::{Action, AddApiserver, ApiserverRef, Isolate};
use crate::state::{ApiserverState, ApiserverStatus};
use crate::lab::MarkKind;

/// An apiserver's status in words (in English, the state's own word).
pub(crate) fn status_text(status: ApiserverStatus, lang: Lang) -> &'static str {
    match lang {
        Lang::En => status.as_str(),
        Lang::Zh => match status {
            ApiserverStatus::Starting => "启动中",
            ApiserverStatus::Running => "运行中",
            ApiserverStatus::Stopping => "正在停止",
            ApiserverStatus::Stopped => "已停止",
            ApiserverStatus::Crashed => "已崩溃",
            ApiserverStatus::Isolated => "已隔离",
        },
    }
}

/// A TTL ring: the share of the lease's time to live that is left.
fn ttl_ring(left: u64, ttl: u64, lang: Lang) -> Html {
    let frac = if ttl == 0 {
        0.0
    } else {
        left as f64 / ttl as f64
    };
    let c = 2.0 * std::f64::consts::PI * 15.0;
    html! {
        <svg class="ring" viewBox="0 0 36 36" role="img" aria-label={match lang {
            Lang::En => format!("lease TTL left {}", format_ms(left)),
            Lang::Zh => format!("租约 TTL 剩余 {}", format_ms(left)),
        }}>
            <circle class="ring-bg" cx="18" cy="18" r="15" />
            <circle class="ring-fg" cx="18" cy="18" r="15" stroke-dasharray={format!("{:.2} {:.2}", c * frac, c)} transform="rotate(-90 18 18)" />
            <text x="18" y="21" text-anchor="middle">{ format!("{}", left.div_ceil(1000)) }</text>
        </svg>
    }
}

/// The next apiserver the "add" button makes: the first free name and address.
fn next_apiserver(apiservers: &[ApiserverState]) -> Action {
    let name = (0..26u8)
        .map(|i| format!("apiserver-{}", (b'a' + i) as char))
        .find(|n| !apiservers.iter().any(|a| &a.name == n))
        .unwrap_or_else(|| "apiserver-z".into());
    let ip = (11..250)
        .map(|i| format!("192.168.10.{i}"))
        .find(|ip| !apiservers.iter().any(|a| &a.advertise_address == ip))
        .unwrap_or_default();
    Action::AddApiserver(AddApiserver {
        name,
        advertise_address: ip,
        startup_delay: None,
    })
}

#[function_component(Apiservers)]
pub(crate) fn apiservers(p: &PanelProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let st = &p.frame.state;
    let leases: BTreeMap<&str, u64> = st
        .leases
        .iter()
        .map(|l| (l.ip.as_str(), l.ttl_left_ms))
        .collect();
    let last_write: BTreeMap<&str, u64> = p
        .frame
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::LeaseWrite)
        .map(|m| (m.subject.as_str(), m.time_ms))
        .collect();
    html! {
        <div role="region" class="panel apiservers" aria-labelledby={ids.id("h-apiservers")}>
            <h2 id={ids.id("h-apiservers")}>{ "kube-apiservers" }<span class="sub">{ match lang {
                Lang::En => format!("reconciler: {} · behaviour {}", p.frame.reconciler, behavior_label(p.frame.behavior, lang)),
                Lang::Zh => format!("协调器：{} · 行为版本 {}", p.frame.reconciler, behavior_label(p.frame.behavior, lang)),
            } }</span></h2>
            <ul class="cards">
                { for st.apiservers.iter().map(|a| {
                    let lease = leases.get(a.advertise_address.as_str()).copied();
                    let pulse = last_write.get(a.name.as_str()).copied().unwrap_or(0);
                    card(a, lease, pulse, p, lang, &ids)
                }) }
            </ul>
            <button id={ids.id("add-apiserver")} class="add-apiserver" onclick={act(&p.lab, next_apiserver(&st.apiservers))}>{ lang.pick("+ Add an apiserver", "+ 添加一个 apiserver") }</button>
        </div>
    }
}

/// The accessible names of the actions on apiserver `name` (crash, stop, start, isolate): the
/// visible words, the same on every card, and the apiserver.
fn action_labels(name: &str, lang: Lang) -> [String; 4] {
    match lang {
        Lang::En => [
            format!("Crash {name}"),
            format!("Stop {name}"),
            format!("Start {name}"),
            format!("Isolate 30s: {name}"),
        ],
        Lang::Zh => [
            format!("让 {name} 崩溃"),
            format!("停止 {name}"),
            format!("启动 {name}"),
            format!("隔离 30s：{name}"),
        ],
    }
}

/// One apiserver's card: `lease` is its lease's TTL left, `pulse` the instant of its last
/// lease write.
fn card(a: &ApiserverState, lease: Option<u64>, pulse: u64, p: &PanelProps, lang: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let name = a.name.clone();
    let r = |apiserver: &str| ApiserverRef { apiserver: apiserver.to_string() };
    let starting = a.status == ApiserverStatus::Starting;
    let up = a.status.is_up() && !starting;
    let [crash, stop, start, isolate] = action_labels(&name, lang);
    html! {
        <li class={classes!("card", a.status.as_str())} id={ids.id(&format!("apiserver-{}", a.name))} data-apiserver={a.name.clone()}>
            <div class="card-head">
                <span class="pulse-wrap">
                    // Re-mounted on every lease write: the pulse replays.
                    <span class="pulse" key={pulse.to_string()} />
                </span>
                <strong>{ &a.name }</strong>
                <code>{ &a.advertise_address }</code>
            </div>
            <div class="card-body">
                { match lease { Some(left) => ttl_ring(left, p.frame.lease_ttl_ms, lang), None => html! { <span class="no-lease">{ lang.pick("no lease", "无租约") }</span> } } }
                <span class={classes!("badge", a.status.as_str())}>{ status_text(a.status, lang) }</span>
                <span class={classes!("ready", a.ready.then_some("yes"))}>{ if a.ready { lang.pick("● ready", "● 就绪") } else { lang.pick("○ not ready", "○ 未就绪") } }</span>
            </div>
            <div class="card-actions">
                <button class="crash" disabled={!up && !starting} onclick={act(&p.lab, Action::CrashApiserver(r(&name)))}
                    aria-label={crash} title={crash_hint(p.frame.reconciler, lang)}>{ lang.pick("✖ Crash", "✖ 崩溃") }</button>
                <button class="stop" disabled={!up || a.status == ApiserverStatus::Stopping} onclick={act(&p.lab, Action::StopApiserver(r(&name)))}
                    aria-label={stop} title={stop_hint(p.frame.reconciler, p.frame.behavior, lang)}>{ lang.pick("■ Stop", "■ 停止") }</button>
                <button class="start" disabled={up || starting} onclick={act(&p.lab, Action::StartApiserver(r(&name)))}
                    aria-label={start}>{ lang.pick("▶ Start", "▶ 启动") }</button>
                <button class="isolate" disabled={!up} onclick={act(&p.lab, Action::IsolateApiserver(Isolate { apiserver: name.clone(), for_: "30s".into() }))}
                    aria-label={isolate}
                    title={lang.pick("Cut it off from etcd for 30 s", "切断它与 etcd 的连接 30 秒")}>{ lang.pick("✂ Isolate 30s", "✂ 隔离 30s") }</button>
            </div>
        </li>
    }
}
