//! The apiservers: status, readiness, their lease's TTL, and what can be done to each.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use super::act;
use crate::contract::scenario::{Action, AddApiserver, ApiserverSpec};
use crate::contract::state::{ApiserverState, ApiserverStatus, State};
use crate::duration::format_ms;
use crate::k8s::api::Behavior;
use crate::lab::inspect::words::{behavior_label, crash_hint, stop_hint};
use crate::lab::parts::{Part, Spot};
use crate::lab::{ApiserverActions, Mark, MarkKind, Msg, ReconcilerType};
use crate::lang::Lang;

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
    let frac = if ttl == 0 { 0.0 } else { left as f64 / ttl as f64 };
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

/// The next apiserver the "add" button makes: the first made-up one whose name and address
/// are both free.
fn next_apiserver(apiservers: &[ApiserverState]) -> Action {
    let free = |s: &ApiserverSpec| {
        let ip = s.advertise_address.to_string();
        !apiservers.iter().any(|a| a.name == s.name || a.advertise_address == ip)
    };
    let spec = (0..26).map(ApiserverSpec::nth).find(free).unwrap_or_else(|| ApiserverSpec::nth(25));
    Action::AddApiserver(AddApiserver {
        name: spec.name,
        advertise_address: spec.advertise_address,
        startup_delay: None,
    })
}

/// An apiserver's buttons (crash, stop, start, isolate): class, whether the core would take
/// the action now (the core's own rule, [`crate::lab::Lab::allowed`]), and the action. The
/// card and the inspector offer these and only these.
pub(crate) fn apiserver_actions(
    name: &str,
    allowed: ApiserverActions,
) -> [(&'static str, bool, Action); 4] {
    [
        ("crash", allowed.crash, Action::crash(name)),
        ("stop", allowed.stop, Action::stop(name)),
        ("start", allowed.start, Action::start(name)),
        ("isolate", allowed.isolate, Action::isolate(name, super::CUT_FOR)),
    ]
}

/// What the apiservers' cards draw: the state, the marks (each apiserver's last lease write),
/// the lease TTL, the reconciler and behaviour, what each card's buttons offer, and the lab to
/// send their actions to.
#[derive(Properties)]
pub(crate) struct ApiserversProps {
    pub(crate) state: Rc<State>,
    pub(crate) marks: Rc<Vec<Mark>>,
    pub(crate) allowed: Rc<BTreeMap<String, ApiserverActions>>,
    pub(crate) lease_ttl_ms: u64,
    pub(crate) reconciler: ReconcilerType,
    pub(crate) behavior: Behavior,
    pub(crate) lab: Callback<Msg>,
}

impl PartialEq for ApiserversProps {
    /// The shared parts by identity, as the lab replaces them only when they change.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
            && Rc::ptr_eq(&self.marks, &other.marks)
            && Rc::ptr_eq(&self.allowed, &other.allowed)
            && (self.lease_ttl_ms, self.reconciler, self.behavior, &self.lab)
                == (other.lease_ttl_ms, other.reconciler, other.behavior, &other.lab)
    }
}

#[function_component(Apiservers)]
pub(crate) fn apiservers(p: &ApiserversProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let spots = crate::ui::spots::use_spots();
    let panel = spots.own(&Spot::Part(Part::Apiservers));
    let lang = super::super::use_lang();
    let st = &p.state;
    let leases: BTreeMap<&str, u64> =
        st.leases.iter().map(|l| (l.ip.as_str(), l.ttl_left_ms)).collect();
    let last_write: BTreeMap<&str, u64> = p
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::LeaseWrite)
        .map(|m| (m.subject.as_str(), m.time_ms))
        .collect();
    html! {
        <div role="region" class={classes!("panel", "apiservers", panel.class())}
            data-tour-spot={panel.attr()} aria-labelledby={ids.id("h-apiservers")}>
            <h2 id={ids.id("h-apiservers")}>{ "kube-apiservers" }<span class="sub">{ match lang {
                Lang::En => format!("reconciler: {} · behaviour {}", p.reconciler, behavior_label(p.behavior, lang)),
                Lang::Zh => format!("协调器：{} · 行为版本 {}", p.reconciler, behavior_label(p.behavior, lang)),
            } }</span></h2>
            <ul class="cards">
                { for st.apiservers.iter().map(|a| {
                    let lease = leases.get(a.advertise_address.as_str()).copied();
                    let pulse = last_write.get(a.name.as_str()).copied().unwrap_or(0);
                    card(a, lease, pulse, spots.own(&Spot::Apiserver(a.name.clone())), p, lang, &ids)
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
fn card(
    a: &ApiserverState,
    lease: Option<u64>,
    pulse: u64,
    spot: crate::ui::spots::Mark,
    p: &ApiserversProps,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let name = a.name.clone();
    let allowed = p.allowed.get(&name).copied().unwrap_or_default();
    let [crash, stop, start, isolate] = action_labels(&name, lang);
    let [(_, can_crash, crash_it), (_, can_stop, stop_it), (_, can_start, start_it), (_, can_isolate, isolate_it)] =
        apiserver_actions(&name, allowed);
    html! {
        <li class={classes!("card", a.status.as_str(), spot.class())} data-tour-spot={spot.attr()} id={ids.id(&format!("apiserver-{}", a.name))}
            data-apiserver={a.name.clone()}>
            <div class="card-head">
                <span class="pulse-wrap">
                    // Re-mounted on every lease write: the pulse replays.
                    <span class="pulse" key={pulse.to_string()} />
                </span>
                <strong>{ &a.name }</strong>
                <code>{ &a.advertise_address }</code>
            </div>
            <div class="card-body">
                { match lease { Some(left) => ttl_ring(left, p.lease_ttl_ms, lang), None => html! { <span class="no-lease">{ lang.pick("no lease", "无租约") }</span> } } }
                <span class={classes!("badge", a.status.as_str())}>{ status_text(a.status, lang) }</span>
                <span class={classes!("ready", a.ready.then_some("yes"))}>{ if a.ready { lang.pick("● ready", "● 就绪") } else { lang.pick("○ not ready", "○ 未就绪") } }</span>
            </div>
            <div class="card-actions">
                <button class="crash" disabled={!can_crash} onclick={act(&p.lab, crash_it)}
                    aria-label={crash} title={crash_hint(p.reconciler, lang)}>{ lang.pick("✖ Crash", "✖ 崩溃") }</button>
                <button class="stop" disabled={!can_stop} onclick={act(&p.lab, stop_it)}
                    aria-label={stop} title={stop_hint(p.reconciler, p.behavior, lang)}>{ lang.pick("■ Stop", "■ 停止") }</button>
                <button class="start" disabled={!can_start} onclick={act(&p.lab, start_it)}
                    aria-label={start}>{ lang.pick("▶ Start", "▶ 启动") }</button>
                <button class="isolate" disabled={!can_isolate} onclick={act(&p.lab, isolate_it)}
                    aria-label={isolate}
                    title={lang.pick("Cut it off from etcd for 30 s", "切断它与 etcd 的连接 30 秒")}>{ lang.pick("✂ Isolate 30s", "✂ 隔离 30s") }</button>
            </div>
        </li>
    }
}

/// The buttons are the lab's `allowed`, one to one; that it agrees with what the core takes in
/// every state is `crates/lab/tests/core/props.rs`'s (`refusals`).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::scenario::Millis;
    use crate::lab::share::percent_encode;
    use crate::lab::{Lab, Opening};

    #[test]
    fn each_button_is_enabled_exactly_when_the_lab_allows_its_action() {
        for bits in 0..16u8 {
            let allowed = ApiserverActions {
                crash: bits & 1 != 0,
                stop: bits & 2 != 0,
                start: bits & 4 != 0,
                isolate: bits & 8 != 0,
            };
            let buttons = apiserver_actions("apiserver-a", allowed);
            let enabled: Vec<bool> = buttons.iter().map(|(_, on, _)| *on).collect();
            assert_eq!(enabled, [allowed.crash, allowed.stop, allowed.start, allowed.isolate]);
            let actions: Vec<&Action> = buttons.iter().map(|(_, _, a)| a).collect();
            assert_eq!(
                actions,
                [
                    &Action::crash("apiserver-a"),
                    &Action::stop("apiserver-a"),
                    &Action::start("apiserver-a"),
                    &Action::isolate("apiserver-a", super::super::CUT_FOR)
                ]
            );
        }
    }

    /// The issue's case: Stop was offered on an apiserver isolated while starting, and refused.
    #[test]
    fn an_apiserver_isolated_while_starting_is_not_offered_stop() {
        let file = r#"{"name": "slow", "cluster": {"apiservers": [
            {"name": "apiserver-a", "advertise_address": "192.168.10.11"},
            {"name": "apiserver-b", "advertise_address": "192.168.10.12", "startup_delay": "10s"}]}}"#;
        let link = format!("#file={}", percent_encode(file));
        let (mut lab, _) = Lab::open(Opening { link: Some(&link), ..Opening::default() });
        lab.update(Msg::Seek(1_000));
        lab.update(Msg::Act(Action::isolate("apiserver-b", Millis::new(30_000).unwrap())));
        let view = lab.view();
        assert_eq!(view.state.apiservers[1].status, ApiserverStatus::Isolated);
        let [crash, stop, start, isolate] =
            apiserver_actions("apiserver-b", view.allowed["apiserver-b"]);
        assert!(crash.1 && !stop.1 && !start.1 && isolate.1);
        // What is not offered is what the core refuses.
        lab.update(Msg::Act(stop.2));
        assert_eq!(lab.view().notice.as_deref(), Some("apiserver apiserver-b is not running"));
    }
}
