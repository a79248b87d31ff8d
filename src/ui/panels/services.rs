//! User Services, and Pods with the Endpoints the endpoints controller keeps for them.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use super::{act, delete_label, field, form_error, port_field, ObjectsProps};
use crate::contract::scenario::{Action, CreatePod, CreateService, ObjectRef, SetPodReady};
use crate::k8s::api::{Endpoints, Pod, Service, ServicePort, ServiceType};
use crate::lab::Msg;
use crate::lang::Lang;
use crate::ui::ids::use_ids;

fn port_text(p: &ServicePort, lang: Lang) -> String {
    let mut s = format!("{}/{}", p.port, p.protocol);
    if p.node_port != 0 {
        s += &format!("{}{}", lang.pick(" → node ", " → 节点端口 "), p.node_port);
    }
    s
}

pub(super) fn ports_text(ports: &[ServicePort], lang: Lang) -> String {
    ports.iter().map(|p| port_text(p, lang)).collect::<Vec<_>>().join(", ")
}

/// The Service the submitted form describes. Its name goes to the core as typed (Kubernetes
/// validates it); a nodePort that is no number is refused here.
fn service_of(e: &SubmitEvent, lang: Lang) -> Result<Service, String> {
    let type_ = match field(e, "svc-type").as_str() {
        "NodePort" => ServiceType::NodePort,
        "LoadBalancer" => ServiceType::LoadBalancer,
        _ => ServiceType::ClusterIP,
    };
    let node_port = port_field("nodePort", &field(e, "svc-node-port"), lang)?.unwrap_or(0);
    let app = field(e, "svc-app");
    Ok(Service {
        namespace: "default".into(),
        name: field(e, "svc-name"),
        type_,
        cluster_ip: field(e, "svc-ip").trim().to_string(),
        selector: (!app.trim().is_empty())
            .then(|| BTreeMap::from([("app".to_string(), app.trim().to_string())])),
        ports: vec![ServicePort {
            name: "http".into(),
            port: 80,
            node_port,
            ..ServicePort::default()
        }],
        ..Service::default()
    })
}

#[function_component(Services)]
pub(crate) fn services(p: &ObjectsProps) -> Html {
    let lang = super::super::use_lang();
    let ids = use_ids();
    let error = use_state_eq(|| None::<String>);
    let st = &p.state;
    let on_create = {
        let (cb, error) = (p.lab.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match service_of(&e, lang) {
                Ok(service) => {
                    error.set(None);
                    cb.emit(Msg::Act(Action::CreateService(CreateService { service, via: None })));
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    // The same Services from one frame to the next (a seek, a tick) are the same shared list
    // (`State::services`), and the rows, a thousand or more, are not rendered again.
    let services = st.services.clone();
    let (limit, more) =
        use_rows_shown(services.len(), "services-all", ("Services", "Service"), lang);
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Services);
    html! {
        <div role="region" class={classes!("panel", "services", spot.class())} data-tour-spot={spot.attr()} aria-labelledby={ids.id("h-services")}>
            <h2 id={ids.id("h-services")}>{ lang.pick("Services", "Service") }</h2>
            <div class="table-wrap">
                <table>
                    <thead><tr><th>{ lang.pick("name", "名称") }</th><th>{ lang.pick("type", "类型") }</th><th>{ "ClusterIP" }</th><th>{ lang.pick("ports", "端口") }</th><th><span class="sr-only">{ lang.pick("actions", "操作") }</span></th></tr></thead>
                    <tbody>
                        <ServiceRows services={services} {limit} lab={p.lab.clone()} />
                    </tbody>
                </table>
            </div>
            { for more }
            <form class="create" id={ids.id("create-service")} onsubmit={on_create} novalidate=true>
                <input id={ids.id("svc-name")} name="svc-name" placeholder={lang.pick("name", "名称")} required=true aria-label={lang.pick("Service name", "Service 名称")} />
                <select id={ids.id("svc-type")} name="svc-type" aria-label={lang.pick("type", "类型")}>
                    <option selected=true>{ "ClusterIP" }</option><option>{ "NodePort" }</option><option>{ "LoadBalancer" }</option>
                </select>
                <input id={ids.id("svc-ip")} name="svc-ip" placeholder={lang.pick("clusterIP (auto)", "clusterIP（自动）")} aria-label={lang.pick("ClusterIP (empty: allocate)", "ClusterIP（留空则自动分配）")} />
                <input id={ids.id("svc-node-port")} name="svc-node-port" placeholder={lang.pick("nodePort (auto)", "nodePort（自动）")} inputmode="numeric"
                    aria-invalid={error.is_some().then_some("true")} aria-describedby={error.is_some().then(|| ids.id("svc-error"))} aria-label={lang.pick("nodePort (empty: allocate)", "nodePort（留空则自动分配）")} />
                <input id={ids.id("svc-app")} name="svc-app" placeholder="selector app=" aria-label={lang.pick("selector app", "selector 中的 app 标签")} />
                <button id={ids.id("svc-create")} type="submit" class="primary">{ lang.pick("Create Service", "创建 Service") }</button>
            </form>
            { form_error(ids.id("svc-error"), &error) }
        </div>
    }
}

/// Rows shown before "Show all": a cluster of thousands of Services is a table of tens of
/// thousands of nodes, which the browser lays out again on every change of the page.
const ROWS_SHOWN: usize = 100;

/// How many of `n` rows a list shows ([`ROWS_SHOWN`], or all once asked), and the "Show all N
/// …" button under it until it is pressed.
#[hook]
fn use_rows_shown(
    n: usize,
    id: &'static str,
    what: (&'static str, &'static str),
    lang: Lang,
) -> (usize, Option<Html>) {
    let ids = use_ids();
    let (en, zh) = what;
    let show_all = use_state(|| false);
    let onclick = {
        let show_all = show_all.clone();
        Callback::from(move |_| show_all.set(true))
    };
    let button = (!*show_all && n > ROWS_SHOWN).then(|| {
        html! {
            <button id={ids.id(id)} class="small" {onclick}>
                { match lang {
                    Lang::En => format!("Show all {n} {en}"),
                    Lang::Zh => format!("显示全部 {n} 个 {zh}"),
                } }
            </button>
        }
    });
    (if *show_all { usize::MAX } else { ROWS_SHOWN }, button)
}

#[derive(Properties, PartialEq)]
struct RowsProps {
    services: Rc<Vec<Service>>,
    limit: usize,
    lab: Callback<Msg>,
}

#[function_component(ServiceRows)]
fn service_rows(p: &RowsProps) -> Html {
    let lang = super::super::use_lang();
    let ids = use_ids();
    html! {
        { for p.services.iter().take(p.limit).map(|s| html! {
            <tr key={s.key()} id={ids.id(&format!("svc-{}-{}", s.namespace, s.name))}>
                <td>{ s.key() }</td><td>{ format!("{:?}", s.type_) }</td>
                <td><code>{ if s.cluster_ips.len() > 1 { s.cluster_ips.join(", ") } else { s.cluster_ip.clone() } }</code></td>
                <td><code>{ ports_text(&s.ports, lang) }</code></td>
                <td><button class="small" aria-label={delete_label(&s.key(), lang)}
                    onclick={act(&p.lab, Action::DeleteService(ObjectRef { namespace: s.namespace.clone(), name: s.name.clone(), via: None }))}>{ lang.pick("delete", "删除") }</button></td>
            </tr>
        }) }
    }
}

#[function_component(Pods)]
pub(crate) fn pods(p: &ObjectsProps) -> Html {
    let lang = super::super::use_lang();
    let ids = use_ids();
    let st = &p.state;
    let next_ip = (2..250)
        .map(|i| format!("10.244.0.{i}"))
        .find(|ip| !st.pods.iter().any(|p| &p.pod_ip == ip))
        .unwrap_or_default();
    let on_create = {
        let cb = p.lab.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let app = field(&e, "pod-app");
            let pod = Pod {
                namespace: "default".into(),
                // As typed: Kubernetes validates it (the core).
                name: field(&e, "pod-name"),
                labels: BTreeMap::from([("app".to_string(), app.trim().to_string())]),
                pod_ip: next_ip.clone(),
                ready: true,
                ..Pod::default()
            };
            cb.emit(Msg::Act(Action::CreatePod(CreatePod { pod, via: None })));
        })
    };
    // As the Services' rows: thousands of Endpoints are rendered once, and a hundred at first.
    let endpoints = use_memo(st.endpoints.clone(), |all| {
        let user = all.iter().filter(|e| !(e.namespace == "default" && e.name == "kubernetes"));
        user.cloned().collect::<Vec<_>>()
    });
    let (limit, more) =
        use_rows_shown(endpoints.len(), "endpoints-all", ("Endpoints", "Endpoints"), lang);
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Pods);
    html! {
        <div role="region" class={classes!("panel", "pods", spot.class())} data-tour-spot={spot.attr()} aria-labelledby={ids.id("h-pods")}>
            <h2 id={ids.id("h-pods")}>{ lang.pick("Pods and their Endpoints", "Pod 及其 Endpoints") }</h2>
            <ul class="pod-list">
                { for st.pods.iter().map(|pod| {
                    let toggle = Action::SetPodReady(SetPodReady { namespace: pod.namespace.clone(), name: pod.name.clone(), ready: !pod.ready, via: None });
                    let delete = Action::DeletePod(ObjectRef { namespace: pod.namespace.clone(), name: pod.name.clone(), via: None });
                    html! {
                        <li key={pod.key()} class={classes!(pod.ready.then_some("is-ready"))}>
                            <span>{ pod.key() }</span><code>{ &pod.pod_ip }</code>
                            <code>{ pod.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",") }</code>
                            <button class="small" onclick={act(&p.lab, toggle)}>{ if pod.ready { lang.pick("ready ✓", "就绪 ✓") } else { lang.pick("not ready", "未就绪") } }</button>
                            <button class="small" onclick={act(&p.lab, delete)} aria-label={delete_label(&pod.key(), lang)}>{ lang.pick("delete", "删除") }</button>
                        </li>
                    }
                }) }
            </ul>
            <form class="create" id={ids.id("create-pod")} onsubmit={on_create} novalidate=true>
                <input id={ids.id("pod-name")} name="pod-name" placeholder={lang.pick("pod name", "Pod 名称")} required=true aria-label={lang.pick("Pod name", "Pod 名称")} />
                <input id={ids.id("pod-app")} name="pod-app" placeholder={lang.pick("label app=", "标签 app=")} required=true aria-label={lang.pick("label app", "app 标签")} />
                <button type="submit" class="primary">{ lang.pick("Create Pod", "创建 Pod") }</button>
            </form>
            <h3>{ lang.pick("Endpoints (endpoints controller)", "Endpoints（由 endpoints 控制器维护）") }</h3>
            <ul class="ep-list">
                <EndpointRows {endpoints} {limit} />
            </ul>
            { for more }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct EndpointRowsProps {
    endpoints: Rc<Vec<Endpoints>>,
    limit: usize,
}

#[function_component(EndpointRows)]
fn endpoint_rows(p: &EndpointRowsProps) -> Html {
    let lang = super::super::use_lang();
    html! {
        { for p.endpoints.iter().take(p.limit).map(|e| html! {
            <li key={e.key()}><strong>{ e.key() }</strong>
                { for e.subsets.iter().map(|s| html! {
                    <span class="subset">
                        { for s.addresses.iter().map(|a| html! { <code class="address">{ a }</code> }) }
                        { for s.not_ready_addresses.iter().map(|a| html! { <code class="address not-ready" title={lang.pick("not ready", "未就绪")}>{ a }</code> }) }
                    </span>
                }) }
            </li>
        }) }
    }
}
