//! The panels: apiservers, etcd, the `kubernetes` Service and its Endpoints, user Services, Pods,
//! storage corruption and the event feed. Each renders from the core's state and emits actions.

use std::collections::BTreeMap;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::Frame;
use crate::api::{Pod, Service, ServicePort, ServiceType};
use crate::duration::format_ms;
use crate::explain::explain;
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

/// A TTL ring: the share of the lease's time to live that is left.
fn ttl_ring(left: u64, ttl: u64) -> Html {
    let frac = if ttl == 0 {
        0.0
    } else {
        left as f64 / ttl as f64
    };
    let c = 2.0 * std::f64::consts::PI * 15.0;
    html! {
        <svg class="ring" viewBox="0 0 36 36" role="img" aria-label={format!("lease TTL left {}", format_ms(left))}>
            <circle class="ring-bg" cx="18" cy="18" r="15" />
            <circle class="ring-fg" cx="18" cy="18" r="15" stroke-dasharray={format!("{:.2} {:.2}", c * frac, c)} transform="rotate(-90 18 18)" />
            <text x="18" y="21" text-anchor="middle">{ format!("{}", left.div_ceil(1000)) }</text>
        </svg>
    }
}

#[function_component(Apiservers)]
pub fn apiservers(p: &PanelProps) -> Html {
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
            <h2 id="h-apiservers">{ "kube-apiservers" }<span class="sub">{ format!("reconciler: {} · behaviour {}", p.frame.reconciler, p.frame.behavior) }</span></h2>
            <ul class="cards">
                { for st.apiservers.iter().map(|a| {
                    let name = a.name.clone();
                    let r = |apiserver: &str| ApiserverRef { apiserver: apiserver.to_string() };
                    let up = matches!(a.status.as_str(), "running" | "isolated" | "stopping");
                    let lease = leases.get(a.advertise_address.as_str()).copied();
                    html! {
                        <li class={classes!("card", a.status.clone())} id={format!("apiserver-{}", a.name)}>
                            <div class="card-head">
                                <span class="pulse-wrap">
                                    // Re-mounted on every lease write: the pulse replays.
                                    <span class="pulse" key={last_write.get(a.name.as_str()).copied().unwrap_or(0).to_string()} />
                                </span>
                                <strong>{ &a.name }</strong>
                                <code>{ &a.advertise_address }</code>
                            </div>
                            <div class="card-body">
                                { match lease { Some(left) => ttl_ring(left, p.frame.lease_ttl_ms), None => html! { <span class="no-lease">{ "no lease" }</span> } } }
                                <span class={classes!("badge", a.status.clone())}>{ &a.status }</span>
                                <span class={classes!("ready", a.ready.then_some("yes"))}>{ if a.ready { "● ready" } else { "○ not ready" } }</span>
                            </div>
                            <div class="card-actions">
                                <button class="crash" disabled={!up && a.status != "starting"} onclick={act(&p.on_action, Action::CrashApiserver(r(&name)))}
                                    title="Dies at once: its lease stays until the TTL runs out">{ "✖ Crash" }</button>
                                <button class="stop" disabled={!up || a.status == "stopping"} onclick={act(&p.on_action, Action::StopApiserver(r(&name)))}
                                    title="Graceful: removes its lease and endpoint at once">{ "■ Stop" }</button>
                                <button class="start" disabled={up || a.status == "starting"} onclick={act(&p.on_action, Action::StartApiserver(r(&name)))}>{ "▶ Start" }</button>
                                <button class="isolate" disabled={!up} onclick={act(&p.on_action, Action::IsolateApiserver(Isolate { apiserver: name.clone(), for_: "30s".into() }))}
                                    title="Cut it off from etcd for 30 s">{ "✂ Isolate 30s" }</button>
                            </div>
                        </li>
                    }
                }) }
            </ul>
            <button id="add-apiserver" onclick={act(&p.on_action, add)}>{ "+ Add an apiserver" }</button>
        </section>
    }
}

#[function_component(Etcd)]
pub fn etcd(p: &PanelProps) -> Html {
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
                    { if st.etcd.available { "reachable" } else { "outage" } }</span>
                <span class="sub">{ format!("revision {}", st.etcd.revision) }</span>
            </h2>
            <h3>{ "/masterleases" }</h3>
            if st.leases.is_empty() {
                <p class="empty">{ "no lease" }</p>
            }
            <ul class="leases">
                { for st.leases.iter().map(|l| html! {
                    <li key={l.key.clone()}>
                        <code>{ &l.key }</code>
                        <span class="bar" role="img" aria-label={format!("{} left", format_ms(l.ttl_left_ms))}>
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
                        { format!(" {range} · {used} of {size} used") }</li>
                }) }
                <li><code>{ "/ranges/servicenodeports" }</code>
                    { format!(" {} · {} of {} used", st.allocations.node_port.range, st.allocations.node_port.used, st.allocations.node_port.size) }</li>
            </ul>
            <button id="etcd-outage" disabled={!st.etcd.available} onclick={act(&p.on_action, Action::EtcdOutage(Outage { for_: "30s".into() }))}>
                { "⚡ etcd outage 30s" }</button>
        </section>
    }
}

#[function_component(KubernetesService)]
pub fn kubernetes_service(p: &PanelProps) -> Html {
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
            .map(|a| a.status.as_str())
        {
            Some("stopped") | Some("stopping") => "stopped gracefully: it deleted its lease",
            Some("crashed") => "crashed: its lease expired",
            Some("isolated") => "cut off from etcd: its lease expired",
            _ => "its lease is gone",
        }
    };
    let delete = Action::DeleteService(ObjectRef {
        namespace: "default".into(),
        name: "kubernetes".into(),
        via: None,
    });
    html! {
        <section class="panel kubernetes" aria-labelledby="h-kubernetes">
            <h2 id="h-kubernetes">{ "default/kubernetes" }<span class="sub">{ "Service and Endpoints, written by the apiservers themselves" }</span></h2>
            <div class="svc">
                { match svc {
                    Some(s) => html! {
                        <>
                            <div class="kv"><span>{ "ClusterIP" }</span><strong id="kubernetes-ip">{ &s.cluster_ip }</strong></div>
                            <div class="kv"><span>{ "type" }</span><code>{ format!("{:?}", s.type_) }</code></div>
                            <div class="kv"><span>{ "ports" }</span><code>{ s.ports.iter().map(port_text).collect::<Vec<_>>().join(", ") }</code></div>
                            <div class="kv"><span>{ "selector" }</span><code>{ "none: no controller owns its Endpoints" }</code></div>
                        </>
                    },
                    None => html! { <p class="missing" id="kubernetes-missing">{ "The Service is gone: the next sync of a ready apiserver recreates it with the first IP." }</p> },
                } }
            </div>
            <h3>{ "Endpoints" }</h3>
            <ul class="addresses" id="kubernetes-endpoints" aria-live="polite">
                if current.is_empty() {
                    <li class="empty">{ if ep.is_some() { "no addresses" } else { "no Endpoints object" } }</li>
                }
                { for current.iter().map(|a| html! { <li key={a.clone()} class="address"><code>{ a }</code></li> }) }
                // Addresses the last rewrite removed fade out instead of vanishing.
                { for leaving.iter().map(|a| html! {
                    <li key={format!("leaving-{a}")} class="address leaving" aria-hidden="true"><code>{ a }</code></li>
                }) }
            </ul>
            if let Some(e) = last_reset {
                <p class="written-by" id="written-by">{ format!("last rewrite: t = {} by {}", format_ms(e.time_ms), e.apiserver) }
                    <br /><span class="why">{ e.message.trim_start_matches("Resetting endpoints for master service \"kubernetes\" to ") }</span>
                    { for leaving.iter().map(|ip| html! { <><br /><span class="change removed">{ format!("− {ip}: {}", why_left(ip)) }</span></> }) }
                    { for added.iter().map(|ip| html! { <><br /><span class="change added">{ format!("+ {ip}: its lease is live") }</span></> }) }
                </p>
            }
            <button id="delete-kubernetes" class="danger" disabled={svc.is_none()} onclick={act(&p.on_action, delete)}>{ "✖ Delete the kubernetes Service" }</button>
        </section>
    }
}

fn port_text(p: &ServicePort) -> String {
    let mut s = format!("{}/{}", p.port, p.protocol);
    if p.node_port != 0 {
        s += &format!(" → node {}", p.node_port);
    }
    s
}

#[function_component(Services)]
pub fn services(p: &PanelProps) -> Html {
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
            <h2 id="h-services">{ "Services" }</h2>
            <div class="table-wrap">
                <table>
                    <thead><tr><th>{ "name" }</th><th>{ "type" }</th><th>{ "ClusterIP" }</th><th>{ "ports" }</th><th /></tr></thead>
                    <tbody>
                        { for st.services.iter().map(|s| html! {
                            <tr key={s.key()} id={format!("svc-{}-{}", s.namespace, s.name)}>
                                <td>{ s.key() }</td><td>{ format!("{:?}", s.type_) }</td>
                                <td><code>{ if s.cluster_ips.len() > 1 { s.cluster_ips.join(", ") } else { s.cluster_ip.clone() } }</code></td>
                                <td><code>{ s.ports.iter().map(port_text).collect::<Vec<_>>().join(", ") }</code></td>
                                <td><button class="small" aria-label={format!("delete {}", s.key())}
                                    onclick={act(&p.on_action, Action::DeleteService(ObjectRef { namespace: s.namespace.clone(), name: s.name.clone(), via: None }))}>{ "delete" }</button></td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
            <form class="create" id="create-service" onsubmit={on_create}>
                <input id="svc-name" placeholder="name" required=true aria-label="Service name" />
                <select id="svc-type" aria-label="type">
                    <option selected=true>{ "ClusterIP" }</option><option>{ "NodePort" }</option><option>{ "LoadBalancer" }</option>
                </select>
                <input id="svc-ip" placeholder="clusterIP (auto)" aria-label="ClusterIP (empty: allocate)" />
                <input id="svc-node-port" placeholder="nodePort (auto)" inputmode="numeric" aria-label="nodePort (empty: allocate)" />
                <input id="svc-app" placeholder="selector app=" aria-label="selector app" />
                <button id="svc-create" type="submit" class="primary">{ "Create Service" }</button>
            </form>
        </section>
    }
}

#[function_component(Pods)]
pub fn pods(p: &PanelProps) -> Html {
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
            <h2 id="h-pods">{ "Pods and their Endpoints" }</h2>
            <ul class="pod-list">
                { for st.pods.iter().map(|pod| {
                    let toggle = Action::SetPodReady(SetPodReady { namespace: pod.namespace.clone(), name: pod.name.clone(), ready: !pod.ready, via: None });
                    let delete = Action::DeletePod(ObjectRef { namespace: pod.namespace.clone(), name: pod.name.clone(), via: None });
                    html! {
                        <li key={pod.key()} class={classes!(pod.ready.then_some("is-ready"))}>
                            <span>{ pod.key() }</span><code>{ &pod.pod_ip }</code>
                            <code>{ pod.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",") }</code>
                            <button class="small" onclick={act(&p.on_action, toggle)}>{ if pod.ready { "ready ✓" } else { "not ready" } }</button>
                            <button class="small" onclick={act(&p.on_action, delete)} aria-label={format!("delete {}", pod.key())}>{ "delete" }</button>
                        </li>
                    }
                }) }
            </ul>
            <form class="create" id="create-pod" onsubmit={on_create}>
                <input id="pod-name" placeholder="pod name" required=true aria-label="Pod name" />
                <input id="pod-app" placeholder="label app=" required=true aria-label="label app" />
                <button type="submit" class="primary">{ "Create Pod" }</button>
            </form>
            <h3>{ "Endpoints (endpoints controller)" }</h3>
            <ul class="ep-list">
                { for user_endpoints.iter().map(|e| html! {
                    <li key={e.key()}><strong>{ e.key() }</strong>
                        { for e.subsets.iter().map(|s| html! {
                            <span class="subset">
                                { for s.addresses.iter().map(|a| html! { <code class="address">{ a }</code> }) }
                                { for s.not_ready_addresses.iter().map(|a| html! { <code class="address not-ready" title="not ready">{ a }</code> }) }
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
            <span class="label">{ "Corrupt storage" }</span>
            <select id="corrupt-what" aria-label="corruption">
                <option value="leak_cluster_ip" selected=true>{ "leak a ClusterIP" }</option>
                <option value="unallocate_cluster_ip">{ "clear a ClusterIP bit" }</option>
                <option value="leak_node_port">{ "leak a NodePort" }</option>
                <option value="unallocate_node_port">{ "clear a NodePort bit" }</option>
                <option value="force_cluster_ip">{ "force a Service onto an IP" }</option>
                <option value="force_node_port">{ "force a Service onto a NodePort" }</option>
            </select>
            <input id="corrupt-value" placeholder="IP or port" aria-label="IP or port" />
            <input id="corrupt-service" placeholder="service (for force)" aria-label="service namespace/name" />
            <button type="submit">{ "Write to etcd" }</button>
        </form>
    }
}

#[derive(Properties, PartialEq)]
pub struct FeedProps {
    pub frame: Frame,
}

#[function_component(EventFeed)]
pub fn event_feed(p: &FeedProps) -> Html {
    let latest = p
        .frame
        .events
        .iter()
        .rev()
        .find_map(|e| explain(e, crate::lang::Lang::En).map(|x| format!("{}: {x}", format_ms(e.time_ms))));
    html! {
        <section class="panel feed" aria-labelledby="h-feed">
            <h2 id="h-feed">{ "Events and logs" }<span class="sub">{ format!("{} so far", p.frame.events.len()) }</span></h2>
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
                        if let Some(x) = explain(e, crate::lang::Lang::En) { <div class="explain">{ x }</div> }
                    </li>
                }) }
            </ol>
        </section>
    }
}
