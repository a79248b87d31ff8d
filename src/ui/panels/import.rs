//! Your own cluster: the output of `kubectl get … -o json` pasted in, read in the page
//! (`crate::kubectl`), what the repair loops report on it, and the lab playing from it.

use yew::prelude::*;

use crate::kubectl::{self, Finding, Options};
use crate::lab::Msg;
use crate::lang::Lang;
use crate::share::Source;

#[derive(Properties, PartialEq)]
pub(crate) struct ImportProps {
    pub(crate) lab: Callback<Msg>,
}

/// What the last import gave: the flags it used and what the repair loops reported.
#[derive(Clone, PartialEq)]
struct Outcome {
    behavior: String,
    range: String,
    services: usize,
    findings: Vec<Finding>,
}

/// The paste, read: the scenario and its text, and what the panel shows of it.
fn import(text: &str, range: &str, behavior: &str) -> Result<(kubectl::Imported, Outcome), String> {
    let given = |v: &str| Some(v.trim().to_string()).filter(|v| !v.is_empty());
    let options = Options {
        behavior: given(behavior),
        service_cluster_ip_range: given(range),
        ..Options::default()
    };
    let imported = kubectl::import(text, &options)?;
    let file = &imported.file;
    let outcome = Outcome {
        behavior: file["behavior"].as_str().unwrap_or_default().to_string(),
        range: file["cluster"]["service_cluster_ip_range"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        services: file["initial"]["services"].as_array().map_or(0, Vec::len),
        findings: kubectl::findings(&imported.scenario),
    };
    Ok((imported, outcome))
}

#[function_component(Import)]
pub(crate) fn import_panel(p: &ImportProps) -> Html {
    let lang = super::super::use_lang();
    let outcome = use_state(|| None::<Result<Outcome, String>>);
    let text = use_node_ref();
    let on_import = {
        let (outcome, text, lab) = (outcome.clone(), text.clone(), p.lab.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let pasted = text
                .cast::<web_sys::HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
            match import(
                &pasted,
                &super::value_of("import-range"),
                &super::value_of("import-behavior"),
            ) {
                Ok((imported, shown)) => {
                    lab.emit(Msg::Load(imported.scenario, Source::Inline(imported.text)));
                    outcome.set(Some(Ok(shown)));
                }
                // Nothing is loaded: the lab goes on with the cluster it had.
                Err(e) => outcome.set(Some(Err(e))),
            }
        })
    };
    html! {
        <section class="panel import" aria-labelledby="h-import">
            <h2 id="h-import">{ lang.pick("Your cluster", "你的集群") }</h2>
            <p class="hint">
                { lang.pick("Paste what these print (one or several, in one paste): ", "粘贴以下命令的输出（可以一次粘贴多个）：") }
                <code>{ "kubectl get svc -A -o json" }</code>{ ", " }
                <code>{ "kubectl get endpoints kubernetes -o json" }</code>{ ", " }
                <code>{ "kubectl get servicecidrs,ipaddresses -o json" }</code>{ "." }
            </p>
            <p class="privacy" id="import-privacy">{ lang.pick(
                "It is read here, in this page: nothing you paste is sent anywhere.",
                "导入完全在本页面中进行：你粘贴的内容不会被发送到任何地方。") }</p>
            <form class="create" id="import-form" onsubmit={on_import}>
                <textarea id="import-text" ref={text} rows="6" spellcheck="false" aria-describedby="import-privacy"
                    aria-label={lang.pick("kubectl output (JSON)", "kubectl 输出（JSON）")}
                    placeholder={lang.pick("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [...]}", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [...]}")} />
                <input id="import-range" placeholder={lang.pick("service-cluster-ip-range (guessed)", "service-cluster-ip-range（自动推测）")}
                    aria-label={lang.pick("--service-cluster-ip-range: kubectl does not show the flags; empty: the ServiceCIDR kubernetes, else guessed from the kubernetes Service",
                        "--service-cluster-ip-range：kubectl 看不到启动参数；留空则取 ServiceCIDR kubernetes，否则从 kubernetes Service 推测")} />
                <select id="import-behavior" aria-label={lang.pick("Behaviour: which release's rules run", "行为：按哪个版本的规则运行")}>
                    <option value="" selected=true>{ lang.pick("behaviour: from the objects", "行为：按对象推断") }</option>
                    { for ["1.20", "1.29", "1.33", "1.35"].iter().map(|b| html! { <option value={*b}>{ *b }</option> }) }
                </select>
                <button id="import-run" type="submit" class="primary">{ lang.pick("Import and play from here", "导入并从这里开始") }</button>
            </form>
            { match &*outcome {
                None => html! {},
                Some(Err(e)) => html! { <p class="error" id="import-error" role="alert">{ e.clone() }</p> },
                Some(Ok(i)) => findings(i, lang),
            } }
        </section>
    }
}

fn findings(i: &Outcome, lang: Lang) -> Html {
    // Under 1.35 there is no ClusterIP bitmap; the NodePort one is in every behaviour.
    let ips = i.behavior != "1.35";
    let summary = match lang {
        Lang::En => format!(
            "{} Services, behaviour {}, range {}. {} only in etcd, not through the API: taken as consistent with the Services. What the repair loops report:",
            i.services,
            i.behavior,
            i.range,
            if ips { "The ClusterIP and NodePort bitmaps live" } else { "The NodePort bitmap lives" }
        ),
        Lang::Zh => format!(
            "{} 个 Service，行为 {}，范围 {}。{}只存在于 etcd 中、无法通过 API 看到，这里视为与 Service 一致。修复循环报告：",
            i.services,
            i.behavior,
            i.range,
            if ips { "ClusterIP 和 NodePort 位图" } else { "NodePort 位图" }
        ),
    };
    html! {
        <div id="import-findings" aria-live="polite">
            <p>{ summary }</p>
            if i.findings.is_empty() {
                <p class="none">{ lang.pick("Nothing: every ClusterIP and NodePort is where the rules want it.", "没有：每个 ClusterIP 和 NodePort 都符合规则。") }</p>
            } else {
                <ul class="findings">
                    { for i.findings.iter().map(|f| html! {
                        <li class="event warning">
                            <span class="reason">{ &f.reason }</span>{ " " }<code>{ &f.object }</code>
                            <div class="message">{ &f.message }</div>
                        </li>
                    }) }
                </ul>
            }
        </div>
    }
}
