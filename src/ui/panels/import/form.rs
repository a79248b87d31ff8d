//! The import panel's form: the paste, the range and behaviour fields, a file chosen or dropped.

use yew::prelude::*;

use super::view::status_view;
use super::{use_run, ImportProps, Input, Status};

#[function_component(Import)]
pub(crate) fn import_panel(p: &ImportProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = crate::ui::use_lang();
    let run = use_run(p);
    let status = run.status.clone();
    let dragging = use_state(|| false);
    let text = use_node_ref();
    let on_import = {
        let (run, text) = (run.clone(), text.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let pasted =
                text.cast::<web_sys::HtmlTextAreaElement>().map(|t| t.value()).unwrap_or_default();
            run.start(Input::Text(pasted));
        })
    };
    let on_file = {
        let run = run.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                run.start_file(file);
            }
            input.set_value("");
        })
    };
    let on_drop = {
        let (run, dragging) = (run.clone(), dragging.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            if let Some(file) = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                run.start_file(file);
            }
        })
    };
    let on_drag_over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            // Without this the browser opens a dropped file itself.
            e.prevent_default();
            dragging.set(true);
        })
    };
    let on_drag_leave = {
        let dragging = dragging.clone();
        Callback::from(move |_: DragEvent| dragging.set(false))
    };
    let warm_up = {
        let run = run.clone();
        Callback::from(move |_: ()| run.warm_up())
    };
    let busy = matches!(*status, Status::Loading(_) | Status::Working(_) | Status::Opening);
    let spot = crate::ui::spots::use_spot(crate::lab::parts::Part::Import);
    html! {
        <div role="region" class={classes!("panel", "import", dragging.then_some("dragging"), spot.class())} data-tour-spot={spot.attr()} aria-labelledby={ids.id("h-import")}
            ondragover={on_drag_over} ondragleave={on_drag_leave} ondrop={on_drop}
            onpointerenter={warm_up.reform(|_| ())} onfocusin={warm_up.reform(|_| ())}>
            <h2 id={ids.id("h-import")}>{ lang.pick("Your cluster", "你的集群") }</h2>
            <p class="hint">
                { lang.pick("Paste or drop here what these print (one or several, in one paste or file): ", "在这里粘贴或拖入以下命令的输出（可以一次粘贴多个，或放在一个文件里）：") }
                <code>{ "kubectl get svc -A -o json" }</code>{ ", " }
                <code>{ "kubectl get endpoints kubernetes -o json" }</code>{ ", " }
                <code>{ "kubectl get servicecidrs,ipaddresses -o json" }</code>{ "." }
            </p>
            <p class="privacy" id={ids.id("import-privacy")}>{ lang.pick(
                "It is read here, in this page: nothing you paste or drop is sent anywhere.",
                "导入完全在本页面中进行：你粘贴或拖入的内容不会被发送到任何地方。") }</p>
            <form class="create" id={ids.id("import-form")} onsubmit={on_import}>
                <textarea id={ids.id("import-text")} ref={text} rows="6" spellcheck="false" aria-describedby={ids.id("import-privacy")}
                    aria-label={lang.pick("kubectl output (JSON or YAML)", "kubectl 输出（JSON 或 YAML）")}
                    placeholder={lang.pick("{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [...]}", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [...]}")} />
                <input id={ids.id("import-range")} ref={run.range.clone()} placeholder={lang.pick("service-cluster-ip-range (guessed)", "service-cluster-ip-range（自动推测）")}
                    aria-label={lang.pick("--service-cluster-ip-range: kubectl does not show the flags; empty: the ServiceCIDR kubernetes, else guessed from the kubernetes Service",
                        "--service-cluster-ip-range：kubectl 看不到启动参数；留空则取 ServiceCIDR kubernetes，否则从 kubernetes Service 推测")} />
                <select id={ids.id("import-behavior")} ref={run.behavior.clone()} aria-label={lang.pick("Behaviour: which release's rules run", "行为：按哪个版本的规则运行")}>
                    <option value="" selected=true>{ lang.pick("behaviour: from the objects", "行为：按对象推断") }</option>
                    { for ["1.20", "1.29", "1.33", "1.35"].iter().map(|b| html! { <option value={*b}>{ *b }</option> }) }
                </select>
                <label class="file">
                    { lang.pick("Or a file… ", "或选择文件… ") }
                    <input id={ids.id("import-file")} type="file" accept=".json,.yaml,.yml,.txt,application/json,application/yaml,text/plain" onchange={on_file} disabled={busy} />
                </label>
                <button id={ids.id("import-run")} type="submit" class="primary" disabled={busy}>{ lang.pick("Import and play from here", "导入并从这里开始") }</button>
            </form>
            { status_view(&run, lang, &ids) }
        </div>
    }
}
