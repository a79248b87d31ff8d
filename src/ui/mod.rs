//! The browser shell: what the core computes for a `--service-cluster-ip-range` and a
//! `--service-node-port-range`. The full explainer grows from here; like it, this module only
//! calls the core and renders the answers.

pub mod bitmap;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::api::Behavior;
use crate::ipallocator::Range;
use crate::options::{
    parse_service_cluster_ip_range, parse_service_node_port_range, DEFAULT_SERVICE_IP_CIDR,
    DEFAULT_SERVICE_NODE_PORT_RANGE,
};
use crate::portallocator::PortAllocator;

/// What the page shows for one valid pair of flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Facts {
    pub ranges: Vec<RangeFacts>,
    pub kubernetes_ip: String,
    pub node_ports: String,
    pub node_port_size: usize,
    pub node_port_band: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RangeFacts {
    pub cidr: String,
    pub size: usize,
    pub band: String,
}

/// Validates both flags with kube-apiserver's rules; the error names the flag.
pub fn facts(cidr_flag: &str, port_flag: &str) -> Result<Facts, String> {
    let ranges = parse_service_cluster_ip_range(cidr_flag.trim())
        .map_err(|e| format!("--service-cluster-ip-range: {e}"))?;
    let ports = parse_service_node_port_range(port_flag)
        .map_err(|e| format!("--service-node-port-range: {e}"))?;
    let range_facts = ranges
        .networks()
        .into_iter()
        .map(|n| {
            let r = Range::new(n, Behavior::V1_29);
            let band = match r.static_band() {
                0 => "none (range of 16 addresses or fewer)".to_string(),
                b => format!("{} – {} ({b} addresses)", r.ip_at(0), r.ip_at(b - 1)),
            };
            RangeFacts { cidr: r.cidr().to_string(), size: r.size(), band }
        })
        .collect();
    let alloc = PortAllocator::new(ports, Behavior::V1_29);
    let node_port_band = match alloc.static_band() {
        0 => "none (16 ports or fewer)".to_string(),
        b => format!("{} – {} ({b} ports)", alloc.port_at(0), alloc.port_at(b - 1)),
    };
    Ok(Facts {
        ranges: range_facts,
        kubernetes_ip: ranges.kubernetes_service_ip().to_string(),
        node_ports: ports.to_string(),
        node_port_size: alloc.size(),
        node_port_band,
    })
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

#[function_component(App)]
pub fn app() -> Html {
    let cidr_draft = use_state(|| DEFAULT_SERVICE_IP_CIDR.to_string());
    let port_draft = use_state(|| DEFAULT_SERVICE_NODE_PORT_RANGE.to_string());
    let shown = use_state(|| facts(DEFAULT_SERVICE_IP_CIDR, DEFAULT_SERVICE_NODE_PORT_RANGE).expect("defaults are valid"));
    let error = use_state(|| None::<String>);

    let on_submit = {
        let (cidr_draft, port_draft, shown, error) =
            (cidr_draft.clone(), port_draft.clone(), shown.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // A rejected flag leaves what is shown untouched.
            match facts(&cidr_draft, &port_draft) {
                Ok(f) => {
                    shown.set(f);
                    error.set(None);
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    let on_cidr = {
        let cidr_draft = cidr_draft.clone();
        Callback::from(move |e: InputEvent| cidr_draft.set(input_value(&e)))
    };
    let on_ports = {
        let port_draft = port_draft.clone();
        Callback::from(move |e: InputEvent| port_draft.set(input_value(&e)))
    };

    html! {
        <main class="shell">
            <header>
                <h1>{ "kube-bootstrap-lab" }</h1>
                <p class="lede">
                    { "kube-apiserver creates the " }<code>{ "default/kubernetes" }</code>
                    { " Service itself and gives it the first address of " }
                    <code>{ "--service-cluster-ip-range" }</code>{ ". Try a range." }
                </p>
            </header>
            <form class="flags" onsubmit={on_submit}>
                <label for="service-cidr">{ "--service-cluster-ip-range" }</label>
                <input id="service-cidr" value={(*cidr_draft).clone()} oninput={on_cidr}
                    spellcheck="false" autocomplete="off" aria-describedby="flag-error" />
                <label for="node-ports">{ "--service-node-port-range" }</label>
                <input id="node-ports" value={(*port_draft).clone()} oninput={on_ports}
                    spellcheck="false" autocomplete="off" aria-describedby="flag-error" />
                <button id="apply" type="submit">{ "Apply" }</button>
                <p id="flag-error" class="error" role="alert">{ (*error).clone().unwrap_or_default() }</p>
            </form>
            <section class="facts" aria-live="polite">
                <div class="fact hero">
                    <span class="label">{ "kubernetes Service ClusterIP" }</span>
                    <span id="kubernetes-ip" class="value">{ &shown.kubernetes_ip }</span>
                </div>
                { for shown.ranges.iter().enumerate().map(|(i, r)| html! {
                    <div class="fact" key={r.cidr.clone()}>
                        <span class="label">{ if i == 0 { "Primary range" } else { "Secondary range" } }</span>
                        <span class="value range">{ &r.cidr }</span>
                        <span class="detail">{ format!("{} usable addresses", r.size) }</span>
                        <span class="detail band">{ format!("static band: {}", r.band) }</span>
                    </div>
                }) }
                <div class="fact">
                    <span class="label">{ "NodePort range" }</span>
                    <span id="node-port-range" class="value">{ &shown.node_ports }</span>
                    <span class="detail">{ format!("{} ports", shown.node_port_size) }</span>
                    <span class="detail band">{ format!("static band: {}", shown.node_port_band) }</span>
                </div>
            </section>
        </main>
    }
}
