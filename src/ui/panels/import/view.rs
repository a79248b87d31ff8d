//! What the import panel shows of an import: its progress, its refusal, or the findings of
//! the repair loops (its own release's and the others'), and saving the scenario it wrote.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::{Compared, Outcome, Run, Status};
use crate::import::kubectl::{self, Finding, Note, Piece, Progress};
use crate::lang::Lang;

/// The import's progress, its refusal or its findings.
pub(super) fn status_view(run: &Run, lang: Lang, ids: &crate::ui::ids::Ids) -> Html {
    let on_cancel = {
        let (job, status) = (run.job.clone(), run.status.clone());
        Callback::from(move |_: MouseEvent| {
            job.borrow_mut().take();
            status.set(Status::Idle);
        })
    };
    let on_save = {
        let saved = run.saved.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(text) = saved.borrow().as_ref() {
                save("imported-cluster.json", text);
            }
        })
    };
    match &*run.status {
        Status::Idle => html! {},
        Status::Loading(name) => html! {
            <div class="progress" id={ids.id("import-progress")} role="status">
                <progress aria-label={lang.pick("import", "导入")} />
                <span>{ match lang { Lang::En => format!("Reading {name}…"), Lang::Zh => format!("正在读取 {name}…") } }</span>
            </div>
        },
        Status::Opening => html! {
            <div class="progress" id={ids.id("import-progress")} role="status">
                <progress max="100" value="70" aria-label={lang.pick("import", "导入")} />
                <span>{ lang.pick("Opening the cluster in the lab (the page waits for this step)…", "正在把集群载入实验室（此步骤期间页面会暂停响应）…") }</span>
            </div>
        },
        Status::Working(progress) => html! {
            <div class="progress" id={ids.id("import-progress")} role="status">
                <progress max="100" value={format!("{:.0}", 100.0 * fraction(*progress))} aria-label={lang.pick("import", "导入")} />
                <span>{ phase(*progress, lang) }</span>
                <button type="button" id={ids.id("import-cancel")} onclick={on_cancel}>{ lang.pick("Cancel", "取消") }</button>
            </div>
        },
        // The page's fields, not the CLI's flags, named; the chunk's failure in the page's language.
        Status::Done(Err(e)) if e == super::NOT_LOADED => {
            let line = lang.pick(e, "导入的代码未能下载：请重新加载页面再试。");
            html! { <p class="error" id={ids.id("import-error")} role="alert">{ line }</p> }
        }
        Status::Done(Err(e)) => {
            html! { <p class="error" id={ids.id("import-error")} role="alert">{ kubectl::in_page(e, lang) }</p> }
        }
        Status::Done(Ok(i)) => html! {
            <>
                <button type="button" id={ids.id("import-save")} class="small" onclick={on_save}
                    title={lang.pick("The scenario the lab plays, to run with bootstrap-sim or to share", "实验室正在运行的场景，可用 bootstrap-sim 运行或分享")}>
                    { lang.pick("Save as a scenario file", "保存为场景文件") }</button>
                { findings(i, &run.compared, lang, ids) }
            </>
        },
    }
}

/// Offers `text` as a download named `name`, made in the page (nothing is sent anywhere).
fn save(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let doc = crate::ui::browser::window().and_then(|w| w.document());
    if let Some(a) = doc.and_then(|d| d.create_element("a").ok()) {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    // Not at once: the download may not have read it yet.
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

/// How far the import has come, as a share of the whole: the phases' shares are about those of
/// their times for 10,000 Services.
fn fraction(p: Option<Progress>) -> f64 {
    match p {
        None | Some(Progress::Parsing { .. }) => 0.0,
        Some(Progress::Reading { read, of }) => 0.2 + 0.15 * read as f64 / of.max(1) as f64,
        Some(Progress::Writing) => 0.35,
        Some(Progress::Checking) => 0.55,
        Some(Progress::Repairing) => 0.8,
    }
}

fn phase(p: Option<Progress>, lang: Lang) -> String {
    match (p, lang) {
        (None, Lang::En) => "Starting the import…".into(),
        (None, Lang::Zh) => "正在开始导入…".into(),
        (Some(Progress::Parsing { document }), Lang::En) => {
            format!("Parsing the JSON of document {document}…")
        }
        (Some(Progress::Parsing { document }), Lang::Zh) => {
            format!("正在解析第 {document} 个 JSON 文档…")
        }
        (Some(Progress::Reading { read, of }), Lang::En) => {
            format!("Reading objects: {read} of {of}…")
        }
        (Some(Progress::Reading { read, of }), Lang::Zh) => format!("正在读取对象：{read} / {of}…"),
        (Some(Progress::Writing), Lang::En) => "Writing the scenario…".into(),
        (Some(Progress::Writing), Lang::Zh) => "正在生成场景…".into(),
        (Some(Progress::Checking), Lang::En) => "Checking the scenario…".into(),
        (Some(Progress::Checking), Lang::Zh) => "正在检查场景…".into(),
        (Some(Progress::Repairing), Lang::En) => "Running the repair loops on it…".into(),
        (Some(Progress::Repairing), Lang::Zh) => "正在对它运行修复循环…".into(),
    }
}

/// Findings shown in a list before "and N more": under another release's rules a cluster
/// without IPAddress objects has one for every Service.
const FINDINGS_SHOWN: usize = 50;

fn findings(i: &Outcome, compared: &Compared, lang: Lang, ids: &crate::ui::ids::Ids) -> Html {
    // Under 1.35 there is no ClusterIP bitmap; the NodePort one is in every behaviour.
    let ips = i.behavior != "1.35";
    let summary = match lang {
        Lang::En => format!(
            "{} Service{}, behaviour {}, range {}. {} only in etcd, not through the API: taken as consistent with the Services. What the repair loops report:",
            i.services,
            if i.services == 1 { "" } else { "s" },
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
        <div id={ids.id("import-findings")} aria-live="polite">
            <p>{ summary }</p>
            if !i.notes.is_empty() {
                <ul class="notes" id={ids.id("import-notes")}>
                    { for i.notes.iter().map(|n| note(n, lang)) }
                </ul>
            }
            if i.findings.is_empty() {
                <p class="none">{ lang.pick("Nothing: every ClusterIP and NodePort is where the rules want it.", "没有：每个 ClusterIP 和 NodePort 都符合规则。") }</p>
            } else {
                { finding_list(&i.findings, lang) }
            }
            <h3>{ lang.pick("Under the other releases' rules", "按其他版本的规则") }</h3>
            <p class="hint">{ lang.pick(
                "The same Services under each other release's repair loops. Under 1.33 and 1.35 a ClusterIP without an IPAddress object in the paste is reported as not allocated, and repaired.",
                "同样的 Service 交给其他版本的修复循环。在 1.33 和 1.35 中，粘贴内容里没有 IPAddress 对象的 ClusterIP 会被报告为未分配，并被修复。") }</p>
            { match compared {
                Compared::Pending => html! { <p class="none" id={ids.id("import-compare-pending")}>{ lang.pick("Running their repair loops…", "正在运行它们的修复循环…") }</p> },
                Compared::Skipped => html! { <p class="none">{ lang.pick("Not run: the input is large and no worker could start here, so it was read in this page.", "未运行：输入较大且这里无法启动 worker，只能在本页面中读取。") }</p> },
                Compared::Done(compared) => html! {
                    <div id={ids.id("import-compare")}>
                        { for compared.iter().map(|c| html! {
                            <details data-behavior={c.behavior.clone()}>
                                <summary>{ match (&c.findings, lang) {
                                    (Ok(f), Lang::En) => format!("{}: {} finding{}", c.behavior, f.len(), if f.len() == 1 { "" } else { "s" }),
                                    (Ok(f), Lang::Zh) => format!("{}：{} 条", c.behavior, f.len()),
                                    (Err(_), Lang::En) => format!("{}: not run", c.behavior),
                                    (Err(_), Lang::Zh) => format!("{}：未运行", c.behavior),
                                } }</summary>
                                { match &c.findings {
                                    Ok(f) => finding_list(f, lang),
                                    Err(e) => html! { <p class="error">{ e.clone() }</p> },
                                } }
                            </details>
                        }) }
                    </div>
                },
            } }
        </div>
    }
}

/// A note in the lab's language: its own words marked as the lab's (`.lab-words`), what they
/// quote verbatim as code, never translated.
fn note(n: &Note, lang: Lang) -> Html {
    html! {
        <li>{ for n.pieces(lang).into_iter().map(|p| match p {
            Piece::Lab(words) => html! { <span class="lab-words">{ words }</span> },
            Piece::Code(s) | Piece::Command(s) => html! { <code translate="no">{ s }</code> },
        }) }</li>
    }
}

fn finding_list(findings: &[Finding], lang: Lang) -> Html {
    let more = findings.len().saturating_sub(FINDINGS_SHOWN);
    html! {
        <ul class="findings">
            { for findings.iter().take(FINDINGS_SHOWN).map(|f| html! {
                <li class="event warning">
                    <span class="reason">{ &f.reason }</span>{ " " }<code>{ &f.object }</code>
                    <div class="message">{ &f.message }</div>
                </li>
            }) }
            if more > 0 {
                <li class="more">{ match lang {
                    Lang::En => format!("and {more} more"),
                    Lang::Zh => format!("还有 {more} 条"),
                } }</li>
            }
        </ul>
    }
}
