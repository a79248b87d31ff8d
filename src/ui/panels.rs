//! The panels: apiservers, etcd, the `kubernetes` Service and its Endpoints, user Services, Pods,
//! storage corruption and the event feed. Each renders from the core's state and emits actions.

use std::collections::BTreeMap;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::Frame;
use crate::api::{Pod, Service, ServicePort, ServiceType};
use crate::duration::format_ms;
use crate::explain::explain;
use crate::lang::Lang;
use crate::state::ApiserverStatus;
use crate::scenario::{
    Action, AddApiserver, ApiserverRef, Corruption, CreatePod, CreateService, Isolate, ObjectRef,
    Outage, SetPodReady,
};
use crate::world::MarkKind;

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub frame: Frame,
    pub on_action: Callback<Action>,
}

fn delete_label(key: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("delete {key}"),
        Lang::Zh => format!("删除 {key}"),
    }
}

fn act(cb: &Callback<Action>, action: Action) -> Callback<MouseEvent> {
    let cb = cb.clone();
    Callback::from(move |_| cb.emit(action.clone()))
}

/// The value of an input or select element by id.
fn value_of(id: &str) -> String {
    let doc = web_sys::window().and_then(|w| w.document());
    let el = doc.and_then(|d| d.get_element_by_id(id));
    match el {
        Some(el) => match wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(el) {
            Ok(i) => i.value(),
            Err(el) => wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(el)
                .map(|s| s.value())
                .unwrap_or_default(),
        },
        None => String::new(),
    }
}

/// An apiserver's status in words (in English, the state's own word).
fn status_text(status: ApiserverStatus, lang: Lang) -> &'static str {
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

#[function_component(Apiservers)]
pub fn apiservers(p: &PanelProps) -> Html {
    let lang = super::use_lang();
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
    let next_name = (0..26u8)
        .map(|i| format!("apiserver-{}", (b'a' + i) as char))
        .find(|n| !st.apiservers.iter().any(|a| &a.name == n))
        .unwrap_or_else(|| "apiserver-z".into());
    let next_ip = (11..250)
        .map(|i| format!("192.168.10.{i}"))
        .find(|ip| !st.apiservers.iter().any(|a| &a.advertise_address == ip))
        .unwrap_or_default();
    let add = Action::AddApiserver(AddApiserver {
        name: next_name,
        advertise_address: next_ip,
        startup_delay: None,
    });
    html! {
        <section class="panel apiservers" aria-labelledby="h-apiservers">
            <h2 id="h-apiservers">{ "kube-apiservers" }<span class="sub">{ match lang {
                Lang::En => format!("reconciler: {} · behaviour {}", p.frame.reconciler, p.frame.behavior),
                Lang::Zh => format!("reconciler：{} · 行为版本 {}", p.frame.reconciler, p.frame.behavior),
            } }</span></h2>
            <ul class="cards">
                { for st.apiservers.iter().map(|a| {
                    let name = a.name.clone();
                    let r = |apiserver: &str| ApiserverRef { apiserver: apiserver.to_string() };
                    let up = a.status.is_up() && a.status != ApiserverStatus::Starting;
                    let starting = a.status == ApiserverStatus::Starting;
                    let lease = leases.get(a.advertise_address.as_str()).copied();
                    html! {
                        <li class={classes!("card", a.status.as_str())} id={format!("apiserver-{}", a.name)}>
                            <div class="card-head">
                                <span class="pulse-wrap">
                                    // Re-mounted on every lease write: the pulse replays.
                                    <span class="pulse" key={last_write.get(a.name.as_str()).copied().unwrap_or(0).to_string()} />
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
                                <button class="crash" disabled={!up && !starting} onclick={act(&p.on_action, Action::CrashApiserver(r(&name)))}
                                    title={lang.pick("Dies at once: its lease stays until the TTL runs out", "立即崩溃：它的租约会一直保留到 TTL 耗尽")}>{ lang.pick("✖ Crash", "✖ 崩溃") }</button>
                                <button class="stop" disabled={!up || a.status == ApiserverStatus::Stopping} onclick={act(&p.on_action, Action::StopApiserver(r(&name)))}
                                    title={lang.pick("Graceful: removes its lease and endpoint at once", "优雅退出：立即删除自己的租约和 endpoint")}>{ lang.pick("■ Stop", "■ 停止") }</button>
                                <button class="start" disabled={up || starting} onclick={act(&p.on_action, Action::StartApiserver(r(&name)))}>{ lang.pick("▶ Start", "▶ 启动") }</button>
                                <button class="isolate" disabled={!up} onclick={act(&p.on_action, Action::IsolateApiserver(Isolate { apiserver: name.clone(), for_: "30s".into() }))}
                                    title={lang.pick("Cut it off from etcd for 30 s", "切断它与 etcd 的连接 30 秒")}>{ lang.pick("✂ Isolate 30s", "✂ 隔离 30s") }</button>
                            </div>
                        </li>
                    }
                }) }
            </ul>
            <button id="add-apiserver" onclick={act(&p.on_action, add)}>{ lang.pick("+ Add an apiserver", "+ 添加一个 apiserver") }</button>
        </section>
    }
}

#[function_component(Etcd)]
pub fn etcd(p: &PanelProps) -> Html {
    let lang = super::use_lang();
    let st = &p.frame.state;
    let ttl = p.frame.lease_ttl_ms.max(1);
    let ranges = st
        .allocations
        .cluster_ip
        .iter()
        .map(|a| (a.range.clone(), a.used, a.size))
        .collect::<Vec<_>>();
    html! {
        <section class="panel etcd" aria-labelledby="h-etcd">
            <h2 id="h-etcd">{ "etcd" }
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
            <ul class="leases">
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
            <ul class="ranges">
                { for ranges.iter().enumerate().map(|(i, (range, used, size))| html! {
                    <li><code>{ if i == 0 { "/ranges/serviceips" } else { "/ranges/secondaryserviceips" } }</code>
                        { used_text(range, *used, *size as i64, lang) }</li>
                }) }
                <li><code>{ "/ranges/servicenodeports" }</code>
                    { used_text(&st.allocations.node_port.range, st.allocations.node_port.used, st.allocations.node_port.size as i64, lang) }</li>
            </ul>
            <button id="etcd-outage" disabled={!st.etcd.available} onclick={act(&p.on_action, Action::EtcdOutage(Outage { for_: "30s".into() }))}>
                { lang.pick("⚡ etcd outage 30s", "⚡ etcd 中断 30s") }</button>
        </section>
    }
}

#[function_component(KubernetesService)]
pub fn kubernetes_service(p: &PanelProps) -> Html {
    let lang = super::use_lang();
    let st = &p.frame.state;
    let svc = st
        .services
        .iter()
        .find(|s| s.namespace == "default" && s.name == "kubernetes");
    let ep = st
        .endpoints
        .iter()
        .find(|e| e.namespace == "default" && e.name == "kubernetes");
    let last_reset = p.frame.events.iter().rev().find(|e| {
        e.message
            .starts_with("Resetting endpoints for master service")
    });
    let current: Vec<String> = ep
        .iter()
        .flat_map(|e| e.subsets.iter())
        .flat_map(|s| s.addresses.iter().cloned())
        .collect();
    // (addresses shown last time, those the last change removed, those it added)
    let memory = use_mut_ref(|| (current.clone(), Vec::<String>::new(), Vec::<String>::new()));
    let (leaving, added) = {
        let mut m = memory.borrow_mut();
        if m.0 != current {
            let gone =
                m.0.iter()
                    .filter(|a| !current.contains(a))
                    .cloned()
                    .collect();
            let new = current
                .iter()
                .filter(|a| !m.0.contains(a))
                .cloned()
                .collect();
            *m = (current.clone(), gone, new);
        }
        (m.1.clone(), m.2.clone())
    };
    // Why an address left, from the state of the apiserver that owned it.
    let why_left = |ip: &str| -> &'static str {
        match st
            .apiservers
            .iter()
            .find(|a| a.advertise_address == ip)
            .map(|a| a.status)
        {
            Some(ApiserverStatus::Stopped | ApiserverStatus::Stopping) => lang.pick(
                "stopped gracefully: it deleted its lease",
                "已优雅退出：它删除了自己的租约",
            ),
            Some(ApiserverStatus::Crashed) => lang.pick("crashed: its lease expired", "已崩溃：它的租约已过期"),
            Some(ApiserverStatus::Isolated) => lang.pick(
                "cut off from etcd: its lease expired",
                "与 etcd 失联：它的租约已过期",
            ),
            _ => lang.pick("its lease is gone", "它的租约已不存在"),
        }
    };
    let delete = Action::DeleteService(ObjectRef {
        namespace: "default".into(),
        name: "kubernetes".into(),
        via: None,
    });
    html! {
        <section class="panel kubernetes" aria-labelledby="h-kubernetes">
            <h2 id="h-kubernetes">{ "default/kubernetes" }<span class="sub">{ lang.pick("Service and Endpoints, written by the apiservers themselves", "Service 与 Endpoints，由 apiserver 自己写入") }</span></h2>
            <div class="svc">
                { match svc {
                    Some(s) => html! {
                        <>
                            <div class="kv"><span>{ "ClusterIP" }</span><strong id="kubernetes-ip">{ &s.cluster_ip }</strong></div>
                            <div class="kv"><span>{ lang.pick("type", "类型") }</span><code>{ format!("{:?}", s.type_) }</code></div>
                            <div class="kv"><span>{ lang.pick("ports", "端口") }</span><code>{ ports_text(&s.ports, lang) }</code></div>
                            <div class="kv"><span>{ "selector" }</span><code>{ lang.pick("none: no controller owns its Endpoints", "无：没有控制器管理它的 Endpoints") }</code></div>
                        </>
                    },
                    None => html! { <p class="missing" id="kubernetes-missing">{ lang.pick("The Service is gone: the next sync of a ready apiserver recreates it with the first IP.", "这个 Service 已被删除：就绪 apiserver 的下一次同步会用第一个 IP 重新创建它。") }</p> },
                } }
            </div>
            <h3>{ "Endpoints" }</h3>
            <ul class="addresses" id="kubernetes-endpoints" aria-live="polite">
                if current.is_empty() {
                    <li class="empty">{ if ep.is_some() { lang.pick("no addresses", "没有地址") } else { lang.pick("no Endpoints object", "没有 Endpoints 对象") } }</li>
                }
                { for current.iter().map(|a| html! { <li key={a.clone()} class="address"><code>{ a }</code></li> }) }
                // Addresses the last rewrite removed fade out instead of vanishing.
                { for leaving.iter().map(|a| html! {
                    <li key={format!("leaving-{a}")} class="address leaving" aria-hidden="true"><code>{ a }</code></li>
                }) }
            </ul>
            if let Some(e) = last_reset {
                <p class="written-by" id="written-by">{ match lang {
                    Lang::En => format!("last rewrite: t = {} by {}", format_ms(e.time_ms), e.apiserver),
                    Lang::Zh => format!("最近一次重写：t = {}，由 {} 写入", format_ms(e.time_ms), e.apiserver),
                } }
                    <br /><span class="why">{ e.message.trim_start_matches("Resetting endpoints for master service \"kubernetes\" to ") }</span>
                    { for leaving.iter().map(|ip| html! { <><br /><span class="change removed">{ format!("− {ip}{}{}", lang.pick(": ", "："), why_left(ip)) }</span></> }) }
                    { for added.iter().map(|ip| html! { <><br /><span class="change added">{ match lang {
                        Lang::En => format!("+ {ip}: its lease is live"),
                        Lang::Zh => format!("+ {ip}：它的租约仍然有效"),
                    } }</span></> }) }
                </p>
            }
            <button id="delete-kubernetes" class="danger" disabled={svc.is_none()} onclick={act(&p.on_action, delete)}>{ lang.pick("✖ Delete the kubernetes Service", "✖ 删除 kubernetes Service") }</button>
        </section>
    }
}

fn port_text(p: &ServicePort, lang: Lang) -> String {
    let mut s = format!("{}/{}", p.port, p.protocol);
    if p.node_port != 0 {
        s += &format!("{}{}", lang.pick(" → node ", " → 节点端口 "), p.node_port);
    }
    s
}

fn ports_text(ports: &[ServicePort], lang: Lang) -> String {
    ports
        .iter()
        .map(|p| port_text(p, lang))
        .collect::<Vec<_>>()
        .join(", ")
}

/// ` 10.96.0.0/12 · 3 of 1048574 used`
fn used_text(range: &str, used: i64, size: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!(" {range} · {used} of {size} used"),
        Lang::Zh => format!(" {range} · 已用 {used} / {size}"),
    }
}

#[function_component(Services)]
pub fn services(p: &PanelProps) -> Html {
    let lang = super::use_lang();
    let st = &p.frame.state;
    let on_create = {
        let cb = p.on_action.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let name = value_of("svc-name");
            let type_ = match value_of("svc-type").as_str() {
                "NodePort" => ServiceType::NodePort,
                "LoadBalancer" => ServiceType::LoadBalancer,
                _ => ServiceType::ClusterIP,
            };
            let node_port: i32 = value_of("svc-node-port").trim().parse().unwrap_or(0);
            let app = value_of("svc-app");
            let service = Service {
                namespace: "default".into(),
                name: name.trim().to_string(),
                type_,
                cluster_ip: value_of("svc-ip").trim().to_string(),
                selector: (!app.trim().is_empty())
                    .then(|| BTreeMap::from([("app".to_string(), app.trim().to_string())])),
                ports: vec![ServicePort {
                    name: "http".into(),
                    port: 80,
                    node_port,
                    ..ServicePort::default()
                }],
                ..Service::default()
            };
            cb.emit(Action::CreateService(CreateService { service, via: None }));
        })
    };
    html! {
        <section class="panel services" aria-labelledby="h-services">
            <h2 id="h-services">{ lang.pick("Services", "Service") }</h2>
            <div class="table-wrap">
                <table>
                    <thead><tr><th>{ lang.pick("name", "名称") }</th><th>{ lang.pick("type", "类型") }</th><th>{ "ClusterIP" }</th><th>{ lang.pick("ports", "端口") }</th><th /></tr></thead>
                    <tbody>
                        { for st.services.iter().map(|s| html! {
                            <tr key={s.key()} id={format!("svc-{}-{}", s.namespace, s.name)}>
                                <td>{ s.key() }</td><td>{ format!("{:?}", s.type_) }</td>
                                <td><code>{ if s.cluster_ips.len() > 1 { s.cluster_ips.join(", ") } else { s.cluster_ip.clone() } }</code></td>
                                <td><code>{ ports_text(&s.ports, lang) }</code></td>
                                <td><button class="small" aria-label={delete_label(&s.key(), lang)}
                                    onclick={act(&p.on_action, Action::DeleteService(ObjectRef { namespace: s.namespace.clone(), name: s.name.clone(), via: None }))}>{ lang.pick("delete", "删除") }</button></td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <form class="create" id="create-service" onsubmit={on_create}>
                <input id="svc-name" placeholder={lang.pick("name", "名称")} required=true aria-label={lang.pick("Service name", "Service 名称")} />
                <select id="svc-type" aria-label={lang.pick("type", "类型")}>
                    <option selected=true>{ "ClusterIP" }</option><option>{ "NodePort" }</option><option>{ "LoadBalancer" }</option>
                </select>
                <input id="svc-ip" placeholder={lang.pick("clusterIP (auto)", "clusterIP（自动）")} aria-label={lang.pick("ClusterIP (empty: allocate)", "ClusterIP（留空则自动分配）")} />
                <input id="svc-node-port" placeholder={lang.pick("nodePort (auto)", "nodePort（自动）")} inputmode="numeric" aria-label={lang.pick("nodePort (empty: allocate)", "nodePort（留空则自动分配）")} />
                <input id="svc-app" placeholder="selector app=" aria-label={lang.pick("selector app", "selector 中的 app 标签")} />
                <button id="svc-create" type="submit" class="primary">{ lang.pick("Create Service", "创建 Service") }</button>
            </form>
        </section>
    }
}

#[function_component(Pods)]
pub fn pods(p: &PanelProps) -> Html {
    let lang = super::use_lang();
    let st = &p.frame.state;
    let next_ip = (2..250)
        .map(|i| format!("10.244.0.{i}"))
        .find(|ip| !st.pods.iter().any(|p| &p.pod_ip == ip))
        .unwrap_or_default();
    let on_create = {
        let cb = p.on_action.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let app = value_of("pod-app");
            let pod = Pod {
                namespace: "default".into(),
                name: value_of("pod-name").trim().to_string(),
                labels: BTreeMap::from([("app".to_string(), app.trim().to_string())]),
                pod_ip: next_ip.clone(),
                ready: true,
                ..Pod::default()
            };
            cb.emit(Action::CreatePod(CreatePod { pod, via: None }));
        })
    };
    let user_endpoints: Vec<_> = st
        .endpoints
        .iter()
        .filter(|e| !(e.namespace == "default" && e.name == "kubernetes"))
        .collect();
    html! {
        <section class="panel pods" aria-labelledby="h-pods">
            <h2 id="h-pods">{ lang.pick("Pods and their Endpoints", "Pod 及其 Endpoints") }</h2>
            <ul class="pod-list">
                { for st.pods.iter().map(|pod| {
                    let toggle = Action::SetPodReady(SetPodReady { namespace: pod.namespace.clone(), name: pod.name.clone(), ready: !pod.ready, via: None });
                    let delete = Action::DeletePod(ObjectRef { namespace: pod.namespace.clone(), name: pod.name.clone(), via: None });
                    html! {
                        <li key={pod.key()} class={classes!(pod.ready.then_some("is-ready"))}>
                            <span>{ pod.key() }</span><code>{ &pod.pod_ip }</code>
                            <code>{ pod.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",") }</code>
                            <button class="small" onclick={act(&p.on_action, toggle)}>{ if pod.ready { lang.pick("ready ✓", "就绪 ✓") } else { lang.pick("not ready", "未就绪") } }</button>
                            <button class="small" onclick={act(&p.on_action, delete)} aria-label={delete_label(&pod.key(), lang)}>{ lang.pick("delete", "删除") }</button>
                        </li>
                    }
                }) }
            </ul>
            <form class="create" id="create-pod" onsubmit={on_create}>
                <input id="pod-name" placeholder={lang.pick("pod name", "Pod 名称")} required=true aria-label={lang.pick("Pod name", "Pod 名称")} />
                <input id="pod-app" placeholder={lang.pick("label app=", "标签 app=")} required=true aria-label={lang.pick("label app", "app 标签")} />
                <button type="submit" class="primary">{ lang.pick("Create Pod", "创建 Pod") }</button>
            </form>
            <h3>{ lang.pick("Endpoints (endpoints controller)", "Endpoints（由 endpoints 控制器维护）") }</h3>
            <ul class="ep-list">
                { for user_endpoints.iter().map(|e| html! {
                    <li key={e.key()}><strong>{ e.key() }</strong>
                        { for e.subsets.iter().map(|s| html! {
                            <span class="subset">
                                { for s.addresses.iter().map(|a| html! { <code class="address">{ a }</code> }) }
                                { for s.not_ready_addresses.iter().map(|a| html! { <code class="address not-ready" title={lang.pick("not ready", "未就绪")}>{ a }</code> }) }
                            </span>
                        }) }
                    </li>
                }) }
            </ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct CorruptProps {
    pub on_action: Callback<Action>,
}

/// Writes to storage behind the allocators' back, as crashes and old bugs did.
#[function_component(Corrupt)]
pub fn corrupt(p: &CorruptProps) -> Html {
    let lang = super::use_lang();
    let on_submit = {
        let cb = p.on_action.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let what = value_of("corrupt-what");
            let value = value_of("corrupt-value").trim().to_string();
            let target = value_of("corrupt-service").trim().to_string();
            let (ns, name) = target
                .split_once('/')
                .map_or(("default".to_string(), target.clone()), |(a, b)| {
                    (a.to_string(), b.to_string())
                });
            let port: i32 = value.parse().unwrap_or(0);
            let c = match what.as_str() {
                "leak_cluster_ip" => Corruption::LeakClusterIp { ip: value },
                "unallocate_cluster_ip" => Corruption::UnallocateClusterIp { ip: value },
                "leak_node_port" => Corruption::LeakNodePort { port },
                "unallocate_node_port" => Corruption::UnallocateNodePort { port },
                "force_cluster_ip" => Corruption::ForceClusterIp {
                    namespace: ns,
                    name,
                    ip: value,
                },
                _ => Corruption::ForceNodePort {
                    namespace: ns,
                    name,
                    port,
                },
            };
            cb.emit(Action::Corrupt(c));
        })
    };
    html! {
        <form class="create corrupt" id="corrupt" onsubmit={on_submit}>
            <span class="label">{ lang.pick("Corrupt storage", "篡改存储") }</span>
            <select id="corrupt-what" aria-label={lang.pick("corruption", "篡改方式")}>
                <option value="leak_cluster_ip" selected=true>{ lang.pick("leak a ClusterIP", "泄漏一个 ClusterIP") }</option>
                <option value="unallocate_cluster_ip">{ lang.pick("clear a ClusterIP bit", "清除一个 ClusterIP 的位") }</option>
                <option value="leak_node_port">{ lang.pick("leak a NodePort", "泄漏一个 NodePort") }</option>
                <option value="unallocate_node_port">{ lang.pick("clear a NodePort bit", "清除一个 NodePort 的位") }</option>
                <option value="force_cluster_ip">{ lang.pick("force a Service onto an IP", "强行让 Service 使用某个 IP") }</option>
                <option value="force_node_port">{ lang.pick("force a Service onto a NodePort", "强行让 Service 使用某个 NodePort") }</option>
            </select>
            <input id="corrupt-value" placeholder={lang.pick("IP or port", "IP 或端口")} aria-label={lang.pick("IP or port", "IP 或端口")} />
            <input id="corrupt-service" placeholder={lang.pick("service (for force)", "Service（强行分配时填写）")} aria-label={lang.pick("service namespace/name", "Service 的 namespace/name")} />
            <button type="submit">{ lang.pick("Write to etcd", "写入 etcd") }</button>
        </form>
    }
}

#[derive(Properties, PartialEq)]
pub struct FeedProps {
    pub frame: Frame,
}

#[function_component(EventFeed)]
pub fn event_feed(p: &FeedProps) -> Html {
    let lang = super::use_lang();
    let latest = p
        .frame
        .events
        .iter()
        .rev()
        .find_map(|e| explain(e, lang).map(|x| format!("{}: {x}", format_ms(e.time_ms))));
    html! {
        <section class="panel feed" aria-labelledby="h-feed">
            <h2 id="h-feed">{ lang.pick("Events and logs", "事件与日志") }<span class="sub">{ match lang {
                Lang::En => format!("{} so far", p.frame.events.len()),
                Lang::Zh => format!("共 {} 条", p.frame.events.len()),
            } }</span></h2>
            <p class="sr-only" aria-live="polite" id="feed-live">{ latest.unwrap_or_default() }</p>
            <ol class="events" id="events">
                { for p.frame.events.iter().rev().take(60).map(|e| html! {
                    <li class={classes!("event", e.type_.to_lowercase())}>
                        <div class="meta">
                            <span class="time">{ format_ms(e.time_ms) }</span>
                            if !e.apiserver.is_empty() { <span class="who">{ &e.apiserver }</span> }
                            <span class="component">{ &e.component }</span>
                            if !e.reason.is_empty() { <span class={classes!("badge", e.type_.to_lowercase())}>{ &e.reason }</span> }
                            if !e.object.is_empty() { <code>{ &e.object }</code> }
                        </div>
                        <div class="message"><code>{ &e.message }</code></div>
                        if let Some(x) = explain(e, lang) { <div class="explain">{ x }</div> }
                    </li>
                }) }
            </ol>
        </section>
    }
}
