//! Loading a shipped scenario, or configuring a cluster of one's own. Validation is the core's
//! (`scenario::parse`): a refused setting names its field and leaves the running world as it is.

use serde_json::json;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::builtin::SCENARIOS;
use crate::scenario::{self, Scenario, Title};
use crate::share::Source;

/// The settings of the configuration form, as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub service_cidr: String,
    pub node_ports: String,
    pub reconciler: String,
    pub apiservers: String,
    pub behavior: String,
    pub seed: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            service_cidr: "10.96.0.0/16".into(),
            node_ports: "30000-32767".into(),
            reconciler: "lease".into(),
            apiservers: "3".into(),
            behavior: "1.29".into(),
            seed: "1".into(),
        }
    }
}

/// A sandbox scenario from the form: `n` apiservers `apiserver-a`… at 192.168.10.11…
pub fn cluster_scenario(s: &Settings) -> Result<Scenario, String> {
    cluster_file(s).and_then(|text| scenario::parse(&text))
}

/// The sandbox scenario file the form describes (validated by `scenario::parse`).
pub fn cluster_file(s: &Settings) -> Result<String, String> {
    let n: usize = s
        .apiservers
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=9).contains(n))
        .ok_or_else(|| format!("apiservers: {:?} is not a number from 1 to 9", s.apiservers))?;
    let seed: u64 = s
        .seed
        .trim()
        .parse()
        .map_err(|_| format!("seed: {:?} is not a non-negative integer", s.seed))?;
    let apiservers: Vec<_> = (0..n)
        .map(|i| json!({"name": format!("apiserver-{}", (b'a' + i as u8) as char), "advertise_address": format!("192.168.10.{}", 11 + i)}))
        .collect();
    let file = json!({
        "name": "sandbox",
        "title": {"en": "Sandbox", "zh": "沙盒"},
        "seed": seed,
        "behavior": s.behavior,
        "cluster": {
            "service_cluster_ip_range": s.service_cidr.trim(),
            "service_node_port_range": s.node_ports.trim(),
            "endpoint_reconciler_type": s.reconciler,
            "apiserver_count": n,
            "apiservers": apiservers,
        },
    });
    Ok(file.to_string())
}

/// (name, title) of every shipped scenario, parsed once.
fn catalogue() -> &'static [(String, String)] {
    static CATALOGUE: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(|| {
        SCENARIOS
            .iter()
            .map(|(name, text)| {
                (
                    name.to_string(),
                    scenario::parse(text)
                        .map(|s| title_of(&s))
                        .unwrap_or_else(|_| name.to_string()),
                )
            })
            .collect()
    })
}

pub fn title_of(s: &Scenario) -> String {
    match &s.title {
        Some(Title::Plain(t)) => t.clone(),
        Some(Title::ByLanguage(m)) => m
            .get("en")
            .or_else(|| m.values().next())
            .cloned()
            .unwrap_or_default(),
        None => s.name.clone(),
    }
}

#[derive(Properties, PartialEq)]
pub struct ConfigFormProps {
    /// The loaded scenario's name.
    pub current: String,
    /// A scenario to run, and where it comes from (for links).
    pub on_load: Callback<(Scenario, Source)>,
}

#[function_component(ConfigForm)]
pub fn config_form(p: &ConfigFormProps) -> Html {
    let settings = use_state(Settings::default);
    let error = use_state(|| None::<String>);
    let open = use_state(|| false);

    let on_pick = {
        let (on_load, error) = (p.on_load.clone(), error.clone());
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            match SCENARIOS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| scenario::parse(t))
            {
                Some(Ok(s)) => {
                    error.set(None);
                    on_load.emit((s, Source::Builtin(name)));
                }
                Some(Err(e)) => error.set(Some(format!("{name}: {e}"))),
                None => {}
            }
        })
    };
    let field = |get: fn(&mut Settings) -> &mut String| {
        let settings = settings.clone();
        Callback::from(move |e: Event| {
            let target = e.target().expect("event target");
            let value = if let Some(i) = wasm_bindgen::JsCast::dyn_ref::<HtmlInputElement>(&target)
            {
                i.value()
            } else {
                e.target_unchecked_into::<HtmlSelectElement>().value()
            };
            let mut next = (*settings).clone();
            *get(&mut next) = value;
            settings.set(next);
        })
    };
    let on_apply = {
        let (settings, error, on_load) = (settings.clone(), error.clone(), p.on_load.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match cluster_file(&settings).and_then(|text| scenario::parse(&text).map(|s| (s, text)))
            {
                Ok((s, text)) => {
                    error.set(None);
                    on_load.emit((s, Source::Inline(text)));
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let s = &*settings;
    html! {
        <div class="config">
            <label for="scenario-pick">{ "Scenario" }</label>
            <select id="scenario-pick" onchange={on_pick}>
                { for catalogue().iter().map(|(name, title)| html! {
                    <option value={name.clone()} selected={*name == p.current}>{ title.clone() }</option>
                }) }
                if p.current == "sandbox" {
                    <option value="sandbox" selected=true>{ "Sandbox (your settings)" }</option>
                }
            </select>
            <button id="configure" onclick={toggle} aria-expanded={open.to_string()} aria-controls="config-form">{ "⚙ Configure" }</button>
            if *open {
                <form id="config-form" class="config-form" onsubmit={on_apply}>
                    <label for="cfg-cidr">{ "--service-cluster-ip-range" }</label>
                    <input id="cfg-cidr" value={s.service_cidr.clone()} onchange={field(|s| &mut s.service_cidr)} spellcheck="false" />
                    <label for="cfg-ports">{ "--service-node-port-range" }</label>
                    <input id="cfg-ports" value={s.node_ports.clone()} onchange={field(|s| &mut s.node_ports)} spellcheck="false" />
                    <label for="cfg-reconciler">{ "--endpoint-reconciler-type" }</label>
                    <select id="cfg-reconciler" onchange={field(|s| &mut s.reconciler)}>
                        { for ["lease", "master-count", "none"].iter().map(|r| html! { <option value={*r} selected={s.reconciler == *r}>{ *r }</option> }) }
                    </select>
                    <label for="cfg-count">{ "apiservers" }</label>
                    <input id="cfg-count" type="number" min="1" max="9" value={s.apiservers.clone()} onchange={field(|s| &mut s.apiservers)} />
                    <label for="cfg-behavior">{ "behaviour" }</label>
                    <select id="cfg-behavior" onchange={field(|s| &mut s.behavior)}>
                        <option value="1.29" selected={s.behavior == "1.29"}>{ "1.29 (bands, repair gates readiness)" }</option>
                        <option value="1.20" selected={s.behavior == "1.20"}>{ "1.20 (as the seed articles read it)" }</option>
                    </select>
                    <label for="cfg-seed">{ "seed" }</label>
                    <input id="cfg-seed" value={s.seed.clone()} onchange={field(|s| &mut s.seed)} inputmode="numeric" />
                    <button id="cfg-apply" type="submit" class="primary">{ "Start this cluster" }</button>
                </form>
            }
            if let Some(msg) = &*error {
                <p id="config-error" class="error" role="alert">{ msg.clone() }</p>
            }
        </div>
    }
}
