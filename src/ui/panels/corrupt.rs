//! Writes to storage behind the allocators' back, as crashes and old bugs did.

use yew::prelude::*;

use super::value_of;
use crate::lab::Msg;
use crate::scenario::{Action, Corruption};

#[derive(Properties, PartialEq)]
pub(crate) struct CorruptProps {
    pub(crate) lab: Callback<Msg>,
}

/// Writes to storage behind the allocators' back, as crashes and old bugs did.
#[function_component(Corrupt)]
pub(crate) fn corrupt(p: &CorruptProps) -> Html {
    let lang = super::super::use_lang();
    let on_submit = {
        let cb = p.lab.clone();
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
            cb.emit(Msg::Act(Action::Corrupt(c)));
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
