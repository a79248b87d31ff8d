//! `default/kubernetes`: the Service the apiservers write themselves, its Endpoints, who rewrote
//! them last and how the addresses changed (the lab keeps that change, per scenario).

use std::rc::Rc;

use yew::prelude::*;

use super::act;
use crate::contract::scenario::{Action, ObjectRef};
use crate::contract::state::State;
use crate::duration::format_ms;
use crate::k8s::api::EndpointSlice;
use crate::k8s::event::{Event, EventKind};
use crate::lab::inspect::words::{address_added, address_left, selector_note};
use crate::lab::parts::{Part, Spot};
use crate::lab::ReconcilerType;
use crate::lab::{EndpointsChange, Msg};
use crate::lang::Lang;

/// How long an address that left the Endpoints fades out (`@keyframes leave` in
/// `static/style.css`), after which its element is removed.
const LEAVE_MS: u32 = 700;

/// What the panel draws: the state, the events (who rewrote the Endpoints last), the
/// reconciler, the Endpoints' last change, and the lab to send the deletion to.
#[derive(Properties)]
pub(crate) struct KubernetesProps {
    pub(crate) state: Rc<State>,
    pub(crate) events: Rc<Vec<Event>>,
    pub(crate) reconciler: ReconcilerType,
    pub(crate) change: EndpointsChange,
    pub(crate) lab: Callback<Msg>,
}

impl PartialEq for KubernetesProps {
    /// The shared state and log by identity, as the lab replaces them only when they change.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
            && Rc::ptr_eq(&self.events, &other.events)
            && (self.reconciler, &self.change, &self.lab)
                == (other.reconciler, &other.change, &other.lab)
    }
}

/// Why an address left: the status of the apiserver that advertises it, and the reconciler.
fn why_left(st: &State, reconciler: ReconcilerType, ip: &str, writer: &str, lang: Lang) -> String {
    let owner = st.apiservers.iter().find(|a| a.advertise_address == ip);
    address_left(reconciler, owner.map(|a| a.status), writer, lang)
}

/// The change of the addresses whose departing elements are still fading out: until
/// [`LEAVE_MS`] after it was seen, then nothing is left in the list.
#[hook]
fn use_fading(change: &EndpointsChange) -> bool {
    let faded = use_state_eq(|| None::<u64>);
    {
        let faded = faded.clone();
        use_effect_with(change.seq, move |&seq| {
            let timer = gloo_timers::callback::Timeout::new(LEAVE_MS, move || faded.set(Some(seq)));
            move || drop(timer)
        });
    }
    *faded != Some(change.seq)
}

#[function_component(KubernetesService)]
pub(crate) fn kubernetes_service(p: &KubernetesProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let fading = use_fading(&p.change);
    let st = &p.state;
    let svc = st.services.iter().find(|s| s.namespace == "default" && s.name == "kubernetes");
    let ep = st.kubernetes_endpoints();
    let last_reset = p.events.iter().rev().find_map(|e| match &e.kind {
        EventKind::EndpointsReset { addresses } => Some((e, addresses)),
        _ => None,
    });
    let current: Vec<&String> = st.kubernetes_addresses().collect();
    let leaving = if fading { &p.change.removed[..] } else { &[] };
    let delete = Action::DeleteService(ObjectRef {
        namespace: "default".into(),
        name: "kubernetes".into(),
        via: None,
    });
    let spots = crate::ui::spots::use_spots();
    let live = crate::ui::live::use_politeness();
    let [panel, endpoints, slice] = [Part::KubernetesService, Part::Endpoints, Part::EndpointSlice]
        .map(|p| spots.own(&Spot::Part(p)));
    html! {
        <div role="region" class={classes!("panel", "kubernetes", panel.class())} data-tour-spot={panel.attr()} aria-labelledby={ids.id("h-kubernetes")}>
            <h2 id={ids.id("h-kubernetes")}>{ "default/kubernetes" }<span class="sub">{ lang.pick("Service, Endpoints and EndpointSlice, written by the apiservers themselves", "Service、Endpoints 与 EndpointSlice，由 apiserver 自己写入") }</span></h2>
            <div class="svc">
                { match svc {
                    Some(s) => html! {
                        <>
                            <div class="kv"><span>{ "ClusterIP" }</span><strong id={ids.id("kubernetes-ip")} class="kubernetes-ip">{ &s.cluster_ip }</strong></div>
                            <div class="kv"><span>{ lang.pick("type", "类型") }</span><code>{ format!("{:?}", s.type_) }</code></div>
                            <div class="kv"><span>{ lang.pick("ports", "端口") }</span><code>{ super::services::ports_text(&s.ports, lang) }</code></div>
                            <div class="kv"><span>{ "selector" }</span><code>{ selector_note(p.reconciler, lang) }</code></div>
                        </>
                    },
                    None => html! { <p class="missing" id={ids.id("kubernetes-missing")}>{ lang.pick("The Service is gone: the next sync of a ready apiserver recreates it with the range's first usable IP.", "这个 Service 已被删除：就绪 apiserver 的下一次同步会用网段的第一个可用 IP 重新创建它。") }</p> },
                } }
            </div>
            <div class="ep-pair">
                <div class="ep-side">
                    <h3>{ "Endpoints" }</h3>
                    <ul class={classes!("addresses", endpoints.class())} data-tour-spot={endpoints.attr()} id={ids.id("kubernetes-endpoints")} aria-live={live}>
                        if current.is_empty() {
                            <li class="empty">{ if ep.is_some() { lang.pick("no addresses", "没有地址") } else { lang.pick("no Endpoints object", "没有 Endpoints 对象") } }</li>
                        }
                        { for current.iter().map(|a| html! { <li key={a.as_str()} class="address"><code>{ a }</code></li> }) }
                        // Addresses the last rewrite removed fade out instead of vanishing, then go.
                        { for leaving.iter().map(|a| html! {
                            <li key={format!("leaving-{a}")} class="address leaving" aria-hidden="true"><code>{ a }</code></li>
                        }) }
                    </ul>
                </div>
                { slice_view(st.kubernetes_slice(), &slice, lang, &ids) }
            </div>
            if let Some((e, to)) = last_reset { { written_by(e, to, &p.change, st, p.reconciler, lang, &ids) } }
            <button id={ids.id("delete-kubernetes")} class="danger delete-kubernetes" disabled={svc.is_none()} onclick={act(&p.lab, delete)}>{ lang.pick("✖ Delete the kubernetes Service", "✖ 删除 kubernetes Service") }</button>
        </div>
    }
}

/// Who rewrote the Endpoints last (`e`), to what (`to`), and which addresses the last change
/// removed and added.
fn written_by(
    e: &Event,
    to: &[String],
    change: &EndpointsChange,
    st: &State,
    reconciler: ReconcilerType,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    html! {
        <p class="written-by" id={ids.id("written-by")}>{ match lang {
            Lang::En => format!("last rewrite: t = {} by {}", format_ms(e.time_ms), e.apiserver),
            Lang::Zh => format!("最近一次重写：t = {}，由 {} 写入", format_ms(e.time_ms), e.apiserver),
        } }
            // As the log line prints them (Go's `%v` of the list).
            <br /><span class="why">{ format!("[{}]", to.join(" ")) }</span>
            { for change.removed.iter().map(|ip| html! { <><br /><span class="change removed">{ format!("− {ip}{}{}", lang.pick(": ", "："), why_left(st, reconciler, ip, &e.apiserver, lang)) }</span></> }) }
            { for change.added.iter().map(|ip| html! { <><br /><span class="change added">{
                format!("+ {ip}{}{}", lang.pick(": ", "："), address_added(reconciler, lang))
            }</span></> }) }
        </p>
    }
}

/// The EndpointSlice `default/kubernetes` the apiservers write beside the Endpoints: its address
/// type and each endpoint with its `ready` condition.
fn slice_view(
    slice: Option<&EndpointSlice>,
    spot: &crate::ui::spots::Mark,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    html! {
        <div class={classes!("ep-side", "slice", spot.class())} data-tour-spot={spot.attr()} id={ids.id("kubernetes-slice")}>
            <h3>{ "EndpointSlice" }</h3>
            <ul class="slice-endpoints" id={ids.id("kubernetes-slice-endpoints")}>
                { match slice {
                    None => html! { <li class="empty">{ lang.pick("no EndpointSlice object", "没有 EndpointSlice 对象") }</li> },
                    Some(s) if s.endpoints.is_empty() => html! { <li class="empty">{ lang.pick("no endpoints", "没有 endpoint") }</li> },
                    Some(s) => s.endpoints.iter().map(|ep| {
                        let key = ep.addresses.join(",");
                        let ready = if ep.ready { lang.pick("ready", "就绪") } else { lang.pick("not ready", "未就绪") };
                        html! {
                            <li key={key} class={classes!("address", (!ep.ready).then_some("not-ready"))}>
                                <code>{ ep.addresses.join(", ") }</code>
                                <span class="slice-ready">{ format!(" · {ready}") }</span>
                            </li>
                        }
                    }).collect::<Html>(),
                } }
            </ul>
            if let Some(s) = slice {
                <p class="slice-type" id={ids.id("kubernetes-slice-type")}>{ format!("addressType {}", s.address_type) }
                    { for s.ports.iter().map(|p| format!(" · {} {}/{}", p.name, p.port, p.protocol)) }</p>
            }
        </div>
    }
}
