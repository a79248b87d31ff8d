//! Writes to storage behind the allocators' back, as crashes and old bugs did.

use yew::prelude::*;

use super::{field, form_error};
use crate::contract::scenario::{Action, Corruption, CorruptionKind, FormRefusal};
use crate::k8s::api::{Behavior, ParentReference};
use crate::lab::Msg;
use crate::lang::Lang;
use crate::ui::ids::use_ids;

#[derive(Properties, PartialEq)]
pub(crate) struct CorruptProps {
    pub(crate) lab: Callback<Msg>,
    pub(crate) behavior: Behavior,
}

/// The corruptions `behavior` has objects for: (kind, English, Chinese). The ClusterIP bitmap's
/// are gone under 1.35, the IPAddress ones only exist from 1.33.
fn kinds(behavior: Behavior) -> Vec<(&'static str, &'static str, &'static str)> {
    let ip = || std::net::IpAddr::from([10, 96, 0, 9]);
    let parent = ParentReference::service("default", "x");
    let all = [
        (
            Corruption::LeakClusterIp { ip: ip() },
            "leak_cluster_ip",
            "leak a ClusterIP",
            "泄漏一个 ClusterIP",
        ),
        (
            Corruption::UnallocateClusterIp { ip: ip() },
            "unallocate_cluster_ip",
            "clear a ClusterIP bit",
            "清除一个 ClusterIP 的位",
        ),
        (
            Corruption::PutIpAddress { ip: ip(), parent },
            "put_ip_address",
            "write an IPAddress for a service",
            "为某个 Service 写入一个 IPAddress",
        ),
        (
            Corruption::DeleteIpAddress { ip: ip() },
            "delete_ip_address",
            "delete an IPAddress",
            "删除一个 IPAddress",
        ),
        (
            Corruption::LeakNodePort { port: 1 },
            "leak_node_port",
            "leak a NodePort",
            "泄漏一个 NodePort",
        ),
        (
            Corruption::UnallocateNodePort { port: 1 },
            "unallocate_node_port",
            "clear a NodePort bit",
            "清除一个 NodePort 的位",
        ),
        (
            Corruption::ForceClusterIp { namespace: String::new(), name: String::new(), ip: ip() },
            "force_cluster_ip",
            "force a Service onto an IP",
            "强行让 Service 使用某个 IP",
        ),
        (
            Corruption::ForceNodePort { namespace: String::new(), name: String::new(), port: 1 },
            "force_node_port",
            "force a Service onto a NodePort",
            "强行让 Service 使用某个 NodePort",
        ),
    ];
    all.into_iter()
        .filter(|(c, ..)| !c.edits_ip_bitmap() || behavior.cluster_ip_bitmap())
        .filter(|(c, ..)| !c.edits_ip_addresses() || behavior.ip_addresses())
        .map(|(_, kind, en, zh)| (kind, en, zh))
        .collect()
}

/// The corruption the submitted form describes, read by the core's own rules; a refusal names
/// the field by the form's label, in the reader's language.
fn corruption_of(e: &SubmitEvent, lang: Lang) -> Result<Corruption, String> {
    let what = field(e, "corrupt-what");
    let value = field(e, "corrupt-value");
    let target = field(e, "corrupt-service");
    let kind = CorruptionKind::from_name(&what).map_err(FormRefusal::Other);
    let corruption = kind.and_then(|kind| Corruption::from_form(kind, value.trim(), target.trim()));
    corruption.map_err(|r| refusal(&r, lang))
}

fn refusal(r: &FormRefusal, lang: Lang) -> String {
    match (r, lang) {
        (FormRefusal::NotAPort(v), Lang::En) => format!("IP or port: {v:?} is not a port number"),
        (FormRefusal::NotAPort(v), Lang::Zh) => format!("IP 或端口：{v:?} 不是端口号"),
        (FormRefusal::PortOutOfRange(p), Lang::En) => {
            format!("IP or port: {p} is not a port number (1-65535)")
        }
        (FormRefusal::PortOutOfRange(p), Lang::Zh) => {
            format!("IP 或端口：{p} 不是端口号（1-65535）")
        }
        (FormRefusal::NotAnIp(v), Lang::En) => format!("IP or port: {v:?} is not an IP address"),
        (FormRefusal::NotAnIp(v), Lang::Zh) => format!("IP 或端口：{v:?} 不是 IP 地址"),
        (FormRefusal::NoService, Lang::En) => {
            "service: name the Service (namespace/name)".to_string()
        }
        (FormRefusal::NoService, Lang::Zh) => {
            "Service：请填写 Service（namespace/name）".to_string()
        }
        (FormRefusal::Other(why), _) => why.clone(),
    }
}

/// Writes to storage behind the allocators' back, as crashes and old bugs did.
#[function_component(Corrupt)]
pub(crate) fn corrupt(p: &CorruptProps) -> Html {
    let lang = super::super::use_lang();
    let ids = use_ids();
    let error = use_state_eq(|| None::<String>);
    let on_submit = {
        let (cb, error) = (p.lab.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match corruption_of(&e, lang) {
                Ok(c) => {
                    error.set(None);
                    cb.emit(Msg::Act(Action::Corrupt(c)));
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Corrupt);
    html! {
        <form class={classes!("create", "corrupt", spot.class())} data-tour-spot={spot.attr()} id={ids.id("corrupt")} onsubmit={on_submit}>
            <span class="label">{ lang.pick("Corrupt storage", "篡改存储") }</span>
            <select id={ids.id("corrupt-what")} name="corrupt-what" aria-label={lang.pick("corruption", "篡改方式")}>
                { for kinds(p.behavior).into_iter().enumerate().map(|(i, (value, en, zh))| html! {
                    <option {value} selected={i == 0}>{ lang.pick(en, zh) }</option>
                }) }
            </select>
            <input id={ids.id("corrupt-value")} name="corrupt-value" placeholder={lang.pick("IP or port", "IP 或端口")} aria-label={lang.pick("IP or port", "IP 或端口")}
                aria-invalid={error.is_some().then_some("true")} aria-describedby={error.is_some().then(|| ids.id("corrupt-error"))} />
            <input id={ids.id("corrupt-service")} name="corrupt-service" placeholder={lang.pick("service (force, IPAddress)", "Service（强行分配或写 IPAddress 时填写）")} aria-label={lang.pick("service namespace/name", "Service 的 namespace/name")} />
            <button type="submit">{ lang.pick("Write to etcd", "写入 etcd") }</button>
            { form_error(ids.id("corrupt-error"), &error) }
        </form>
    }
}
