//! The inspector: one object of the stage (an apiserver, an etcd key, a packet, an allocation
//! cell, an event) with its details read from the frame's state, the upstream code it models at
//! the behaviour's tag (`crate::lab::upstream`) and what the lab simplifies there.

use std::collections::BTreeMap;

use yew::prelude::*;

use crate::contract::scenario::Action;
use crate::contract::state::State;
use crate::duration::format_ms;
use crate::lab::upstream::{self, Subject};
use crate::lab::{none, ApiserverActions, Lab, Loop, Msg, WireOp, Write};
use crate::lang::Lang;

pub use super::frame::Frame;

/// A frame of `lab` as the app renders it (for tests and hosts that mount the inspector alone).
#[doc(hidden)]
pub fn frame_of(lab: &Lab) -> Frame {
    lab.view()
}

#[derive(Properties, PartialEq, Clone)]
pub struct InspectorProps {
    pub subject: Subject,
    pub frame: Frame,
    pub lab: Callback<Msg>,
    pub on_close: Callback<()>,
    /// The requests of the lab's last move: a key's inspector lists those that reached it.
    #[prop_or_default]
    pub wire: std::rc::Rc<Vec<Write>>,
    /// Opens another subject (a request listed under a key).
    #[prop_or_default]
    pub on_pick: Callback<Subject>,
    /// Opened by a click or a key it takes the focus (a host may open it without).
    #[prop_or(true)]
    pub take_focus: bool,
}

/// (label en, label zh, value)
type Row = (&'static str, &'static str, String);

#[function_component(Inspector)]
pub fn inspector(p: &InspectorProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let t = super::use_lang();
    let close_ref = use_node_ref();
    {
        // A dialog takes the focus when it opens (on another subject too).
        let close_ref = close_ref.clone();
        use_effect_with((p.subject.clone(), p.take_focus), move |(_, take)| {
            if let Some(b) = close_ref.cast::<web_sys::HtmlElement>().filter(|_| *take) {
                let _ = b.focus();
            }
        });
    }
    let panel = use_node_ref();
    use_placed(panel.clone());
    let close = p.on_close.reform(|_: MouseEvent| ());
    let onkeydown = {
        let on_close = p.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                e.stop_propagation();
                on_close.emit(());
            }
        })
    };
    let behavior = p.frame.behavior;
    let rows = details(&p.subject, &p.frame, t);
    let links = upstream::sources(&p.subject, behavior);
    html! {
        <div class="inspector" role="dialog" aria-labelledby={ids.id("inspector-title")} id={ids.id("inspector")} {onkeydown} ref={panel}>
            <div class="inspector-head">
                <h2 id={ids.id("inspector-title")}>{ title(&p.subject, t) }</h2>
                // The moment on the clock: what it shows is read from the frame of that moment.
                <span class="inspector-now" id={ids.id("inspector-now")}>{ format!("{} {}", t.pick("at t =", "时刻 t ="), format_ms(p.frame.state.time_ms)) }</span>
                <button class="inspector-close" ref={close_ref} onclick={close}
                    aria-label={t.pick("Close the inspector", "关闭检查器")}>{ "×" }</button>
            </div>
            <dl class="inspector-details" id={ids.id("inspector-details")}>
                { for rows.into_iter().map(|(en, zh, v)| html! { <><dt>{ t.pick(en, zh) }</dt><dd>{ v }</dd></> }) }
            </dl>
            if let Subject::Apiserver(name) = &p.subject {
                { actions(name, &p.frame.allowed, &p.lab, t) }
            }
            if let Subject::Key(key) = &p.subject {
                { requests(key, &p.wire, &p.on_pick, t, &ids) }
            }
            <h3>{ t.pick("Upstream source", "上游源码") }<span class="sub">{ format!(" {}", upstream::tag(behavior)) }</span></h3>
            <ul class="inspector-sources" id={ids.id("inspector-sources")}>
                { for links.iter().map(|l| html! {
                    <li>
                        <a href={upstream::url(l, behavior)} target="_blank" rel="noopener">
                            <code>{ l.path }</code>{ " · " }<code>{ l.symbol }</code></a>
                        <p>{ t.pick(l.what.0, l.what.1) }</p>
                    </li>
                }) }
            </ul>
            <h3>{ t.pick("What the lab simplifies", "实验的简化之处") }</h3>
            <p class="inspector-note" id={ids.id("inspector-note")}>{ upstream::simplification(&p.subject, behavior, t) }</p>
        </div>
    }
}

/// Keeps the inspector clear of what the reader is looking at ([`place`]): after each render and
/// whenever the focus moves in the stage.
#[hook]
fn use_placed(panel: NodeRef) {
    {
        let panel = panel.clone();
        use_effect(move || {
            if let Some(el) = panel.cast::<web_sys::Element>() {
                place(&el);
            }
        });
    }
    use_effect_with((), move |_| {
        use wasm_bindgen::{closure::Closure, JsCast};
        let wrap = panel.cast::<web_sys::Element>().and_then(|el| el.parent_element());
        let listener = wrap.map(|wrap| {
            let on_focus = Closure::<dyn FnMut()>::new(move || {
                if let Some(el) = panel.cast::<web_sys::Element>() {
                    place(&el);
                }
            });
            let _ =
                wrap.add_event_listener_with_callback("focusin", on_focus.as_ref().unchecked_ref());
            (wrap, on_focus)
        });
        move || {
            if let Some((wrap, f)) = listener {
                let _ =
                    wrap.remove_event_listener_with_callback("focusin", f.as_ref().unchecked_ref());
            }
        }
    });
}

/// Where the inspector stands (`data-place`, static/inspector.css): over the stage's right side,
/// else its left, else under the stage, whichever covers none of the parts the tour step
/// highlights (`.tour-spot`) nor the object that has the focus.
fn place(panel: &web_sys::Element) {
    use wasm_bindgen::JsCast;
    let Some(wrap) = panel.parent_element() else { return };
    let Some(stage) = wrap
        .query_selector(":scope > .stage, :scope > .stage-fits, :scope > .table-view")
        .ok()
        .flatten()
    else {
        return;
    };
    let s = stage.get_bounding_client_rect();
    let (w, h) =
        ((s.width() - 16.0).min(360.0), (s.height() - 16.0).min(f64::from(panel.scroll_height())));
    let mut covered: Vec<web_sys::DomRect> = Vec::new();
    if let Some(spots) = panel
        .closest(".lab")
        .ok()
        .flatten()
        .and_then(|lab| lab.query_selector_all(".tour-spot").ok())
    {
        covered.extend(
            (0..spots.length())
                .filter_map(|i| spots.item(i)?.dyn_into::<web_sys::Element>().ok())
                .map(|e| e.get_bounding_client_rect()),
        );
    }
    let root = panel.get_root_node();
    let active = match root.dyn_ref::<web_sys::ShadowRoot>() {
        Some(shadow) => shadow.active_element(),
        None => root.dyn_ref::<web_sys::Document>().and_then(|d| d.active_element()),
    };
    if let Some(f) = active.filter(|f| wrap.contains(Some(f)) && !panel.contains(Some(f))) {
        covered.push(f.get_bounding_client_rect());
    }
    let clear = |left: f64| {
        let (top, right, bottom) = (s.top() + 8.0, left + w, s.top() + 8.0 + h);
        covered.iter().all(|r| {
            r.width() <= 0.0
                || r.right() <= left + 1.0
                || r.left() >= right - 1.0
                || r.bottom() <= top + 1.0
                || r.top() >= bottom - 1.0
        })
    };
    let at = if clear(s.right() - 8.0 - w) {
        "right"
    } else if clear(s.left() + 8.0) {
        "left"
    } else {
        "below"
    };
    if panel.get_attribute("data-place").as_deref() != Some(at) {
        let _ = panel.set_attribute("data-place", at);
    }
}

/// The requests that just reached `key` (the packets that flew to it), each opening its own
/// details: how a keyboard reaches a packet.
fn requests(
    key: &str,
    wire: &[Write],
    on_pick: &Callback<Subject>,
    t: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    let to_key: Vec<&Write> = wire.iter().filter(|w| w.key == key).collect();
    if to_key.is_empty() {
        return Html::default();
    }
    html! {
        <>
            <h3>{ t.pick("Requests just now", "刚才的请求") }</h3>
            <ul class="inspector-requests" id={ids.id("inspector-requests")}>
                { for to_key.into_iter().map(|w| {
                    let subject = Subject::Packet(w.clone());
                    let onclick = on_pick.reform(move |_: MouseEvent| subject.clone());
                    html! {
                        <li><button class="small" {onclick}>
                            { format!("{} · {} · {} · {}", format_ms(w.time_ms), w.sender, op_text(w.op, t), loop_text(w.via, t)) }
                        </button></li>
                    }
                }) }
            </ul>
        </>
    }
}

fn title(s: &Subject, t: Lang) -> String {
    match s {
        Subject::Apiserver(name) => name.clone(),
        Subject::Key(key) => key.clone(),
        Subject::Packet(w) => format!("{} {}", op_text(w.op, t), w.key),
        Subject::ClusterIp(ip) => format!("ClusterIP {ip}"),
        Subject::NodePort(port) => format!("NodePort {port}"),
        Subject::IpAddress(ip) => format!("IPAddress {ip}"),
        Subject::Event(e) if e.reason.is_empty() => {
            format!("{} · {}", e.component, t.pick("log", "日志"))
        }
        Subject::Event(e) => format!("{} · {}", e.component, e.reason),
    }
}

fn op_text(op: WireOp, t: Lang) -> &'static str {
    match op {
        WireOp::Put => t.pick("PUT", "写入"),
        WireOp::Delete => t.pick("DELETE", "删除"),
        WireOp::Expire => t.pick("expired", "过期"),
        WireOp::Bounce => t.pick("bounced", "被弹回"),
    }
}

fn loop_text(via: Loop, t: Lang) -> &'static str {
    match via {
        Loop::EndpointReconciler => t.pick("endpoint reconciler", "端点协调器"),
        Loop::Repair => t.pick("repair loop", "修复循环"),
        Loop::Request => t.pick("API request", "API 请求"),
        Loop::Bootstrap => t.pick("bootstrap controller", "引导控制器"),
        Loop::ControllerManager => "kube-controller-manager",
        Loop::Ttl => t.pick("etcd lease TTL", "etcd 租约 TTL"),
        Loop::Lab => t.pick("the lab", "实验"),
    }
}

fn yes_no(b: bool, t: Lang) -> String {
    (if b { t.pick("yes", "是") } else { t.pick("no", "否") }).to_string()
}

fn details(s: &Subject, f: &Frame, t: Lang) -> Vec<Row> {
    let st = &f.state;
    match s {
        Subject::Apiserver(name) => apiserver_rows(name, st, t),
        Subject::Key(key) => key_rows(key, st, t),
        Subject::Packet(w) => {
            let mut rows = vec![
                ("Sender", "发送者", w.sender.clone()),
                ("Loop", "循环", loop_text(w.via, t).to_string()),
                ("Operation", "操作", op_text(w.op, t).to_string()),
                ("Key", "键", w.key.clone()),
                ("Time", "时间", format_ms(w.time_ms)),
            ];
            if let Some(r) = &w.reason {
                rows.push(("Why it bounced", "弹回原因", r.clone()));
            }
            rows
        }
        Subject::ClusterIp(ip) => {
            let owner =
                st.services.iter().find(|s| &s.cluster_ip == ip || s.cluster_ips.contains(ip));
            vec![(
                "Owner Service",
                "所属 Service",
                owner.map_or_else(|| none(t), |s| format!("{}/{}", s.namespace, s.name)),
            )]
        }
        Subject::NodePort(port) => {
            let owner = st
                .services
                .iter()
                .find(|s| s.ports.iter().any(|p| p.node_port == i32::from(*port)));
            vec![(
                "Owner Service",
                "所属 Service",
                owner.map_or_else(|| none(t), |s| format!("{}/{}", s.namespace, s.name)),
            )]
        }
        Subject::IpAddress(ip) => ip_address_rows(ip, st, t),
        Subject::Event(e) => vec![
            ("Logged at", "记录于", format_ms(e.time_ms)),
            ("Component", "组件", e.component.clone()),
            (
                "Apiserver",
                "apiserver",
                if e.apiserver.is_empty() { none(t) } else { e.apiserver.clone() },
            ),
            ("Type", "类型", e.type_.clone()),
            ("Object", "对象", e.object.clone()),
            ("Message", "消息", e.message.clone()),
        ],
    }
}

fn apiserver_rows(name: &str, st: &State, t: Lang) -> Vec<Row> {
    let Some(a) = st.apiservers.iter().find(|a| a.name == name) else {
        return vec![("Status", "状态", t.pick("gone", "已不存在").to_string())];
    };
    let lease = st.leases.iter().find(|l| l.ip == a.advertise_address);
    vec![
        ("Address", "地址", a.advertise_address.clone()),
        ("Status", "状态", super::panels::status_text(a.status, t).to_string()),
        ("Ready", "就绪", yes_no(a.ready, t)),
        (
            "Lease TTL left",
            "租约 TTL 剩余",
            lease.map_or_else(
                || t.pick("no lease", "无租约").to_string(),
                |l| format_ms(l.ttl_left_ms),
            ),
        ),
    ]
}

fn ip_address_rows(ip: &str, st: &State, t: Lang) -> Vec<Row> {
    match st.ip_addresses.iter().find(|a| a.ip == ip) {
        Some(a) => vec![(
            "Parent",
            "父对象",
            format!("{}/{}/{}", a.parent.resource, a.parent.namespace, a.parent.name),
        )],
        None => vec![("Object", "对象", t.pick("not in etcd", "不在 etcd 中").to_string())],
    }
}

fn key_rows(key: &str, st: &State, t: Lang) -> Vec<Row> {
    let value = crate::lab::key_summary(key, st, t);
    let mut rows = vec![(
        "Value",
        "值",
        value.unwrap_or_else(|| t.pick("not in etcd", "不在 etcd 中").to_string()),
    )];
    if let Some(l) = st.leases.iter().find(|l| l.key == key) {
        rows.push(("TTL left", "TTL 剩余", format_ms(l.ttl_left_ms)));
    }
    rows.push(("etcd revision", "etcd 修订版本", st.etcd.revision.to_string()));
    rows
}

/// The apiserver's actions, as its card offers them, each named with the apiserver.
fn actions(
    name: &str,
    allowed: &BTreeMap<String, ApiserverActions>,
    lab: &Callback<Msg>,
    t: Lang,
) -> Html {
    let Some(&allowed) = allowed.get(name) else {
        return html! {};
    };
    let [crash, stop, start, isolate] = crate::ui::panels::apiserver_actions(name, allowed);
    let button = |(class, enabled, action): (&'static str, bool, Action),
                  text: (&'static str, &'static str),
                  label: (&str, &str)| {
        let lab = lab.clone();
        let onclick = Callback::from(move |_: MouseEvent| lab.emit(Msg::Act(action.clone())));
        let aria = match t {
            Lang::En => format!("{} {name}", label.0),
            Lang::Zh => format!("{}{name}", label.1),
        };
        html! { <button class={class} disabled={!enabled} aria-label={aria} {onclick}>{ t.pick(text.0, text.1) }</button> }
    };
    html! {
        <div class="card-actions inspector-actions">
            { button(crash, ("✖ Crash", "✖ 崩溃"), ("Crash", "使崩溃 ")) }
            { button(stop, ("■ Stop", "■ 停止"), ("Stop", "停止 ")) }
            { button(start, ("▶ Start", "▶ 启动"), ("Start", "启动 ")) }
            { button(isolate, ("✂ Isolate 30s", "✂ 隔离 30s"), ("Isolate for 30 s", "隔离 30 秒：")) }
        </div>
    }
}

lazy_component!(pub(crate) LazyInspector(lazy_inspector, load_inspector) = Inspector [InspectorProps] in panels);
