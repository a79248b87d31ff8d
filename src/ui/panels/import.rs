//! Your own cluster: the output of `kubectl get … -o json` pasted or dropped in, read in the page
//! (`crate::kubectl`), what the repair loops report on it, and the lab playing from it.
//!
//! A large input is read by `static/import-worker.js`, a worker that loads this same module and
//! calls [`import_cluster`], so the page stays responsive and shows the import's progress; a small
//! one (or any, should the worker not start, as in a page on another origin) is read in the page.

use std::cell::RefCell;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::kubectl::{self, Comparison, Finding, Options, Progress};
use crate::lab::Msg;
use crate::scenario::Scenario;
use crate::share::Source;

mod view;
use view::status_view;

/// Inputs up to this size (about 2,000 Services) are read in the page: starting the worker
/// would take about as long as the import.
const IN_PAGE_BYTES: usize = 1 << 20;

/// Time for the browser to paint a status before a long step on the page's thread.
const PAINTED_MS: u32 = 40;

#[derive(Properties, PartialEq)]
pub(crate) struct ImportProps {
    pub(crate) lab: Callback<Msg>,
    /// The lab's own page, next to which the worker's script is served.
    pub(crate) home: Option<AttrValue>,
}

/// What the last import gave: the flags it used and what the repair loops reported.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
struct Outcome {
    behavior: String,
    range: String,
    services: usize,
    /// What the import ignored or guessed ([`kubectl::notes`]), one line each.
    #[serde(default)]
    notes: Vec<String>,
    findings: Vec<Finding>,
}

/// The import's steps as the page takes them, from [`run`] in the page or from the worker (in
/// JSON, but the written file as text: see [`import_cluster`]).
#[derive(Serialize, Deserialize)]
enum Reply {
    Progress(Progress),
    /// The scenario file, written: the page checks and loads it while the worker checks it too
    /// and runs the repair loops on it.
    Written(String),
    /// The end: what the panel shows, or why the input was refused.
    Done(Result<Outcome, String>),
    /// Last, what the other releases' repair loops would report on the same cluster.
    Compared(Vec<Comparison>),
}

/// The panel's state.
#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    /// Reading a dropped or chosen file (its name) in the page, before the import proper.
    Loading(String),
    Working(Option<Progress>),
    /// The page checking and loading the written file: the one step on the page's thread.
    Opening,
    Done(Result<Outcome, String>),
}

/// The other releases' findings on the imported cluster.
#[derive(Clone, PartialEq)]
enum Compared {
    Pending,
    /// Not run: a large input read in the page (no worker started).
    Skipped,
    Done(Vec<Comparison>),
}

/// What the import is given: a paste, or a dropped or chosen file (a large one is read by the
/// worker, not copied through the page).
enum Input {
    Text(String),
    File(web_sys::File),
}

fn options(range: &str, behavior: &str) -> Options {
    let given = |v: &str| Some(v.trim().to_string()).filter(|v| !v.is_empty());
    Options {
        behavior: given(behavior),
        service_cluster_ip_range: given(range),
        ..Options::default()
    }
}

/// What the panel shows of an import: its `file`'s flags and Services, and the findings.
fn outcome(file: &serde_json::Value, scenario: &Scenario, notes: Vec<String>) -> Outcome {
    Outcome {
        behavior: file["behavior"].as_str().unwrap_or_default().to_string(),
        range: file["cluster"]["service_cluster_ip_range"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        services: file["initial"]["services"].as_array().map_or(0, Vec::len),
        notes,
        findings: kubectl::findings(scenario),
    }
}

/// The import, each step told to `say`: its progress, the written file, its end, then (when
/// `compared`) the other releases' findings.
fn run(text: &str, options: &Options, compared: bool, say: &mut dyn FnMut(Reply)) {
    let written = match kubectl::write_with(text, options, &mut |p| say(Reply::Progress(p))) {
        Ok(written) => written,
        Err(e) => return say(Reply::Done(Err(e))),
    };
    say(Reply::Written(written.text.clone()));
    say(Reply::Progress(Progress::Checking));
    let done = kubectl::check(&written.text).map(|scenario| {
        say(Reply::Progress(Progress::Repairing));
        outcome(&written.file, &scenario, kubectl::notes(&written.cluster, options))
    });
    let chosen = done.as_ref().ok().map(|o| o.behavior.clone());
    say(Reply::Done(done));
    if let (Some(chosen), true) = (chosen, compared) {
        say(Reply::Compared(kubectl::compare(&written.cluster, options, &chosen)));
    }
}

/// [`run`] on an input that could be read as text, with the other releases compared.
fn run_bytes(text: Result<&str, String>, options: &Options, say: &mut dyn FnMut(Reply)) {
    match text {
        Ok(text) => run(text, options, true, say),
        Err(e) => say(Reply::Done(Err(e))),
    }
}

/// The import as `static/import-worker.js` runs it, off the page's thread: each [`Reply`] is
/// given to `tell` as `("reply", its JSON)`, but the written file as `("written", its text)`, so
/// that the page does not decode megabytes of escaped JSON.
/// The input comes as bytes: a file's, as read (decoding it to a JS string and encoding it again
/// for wasm took a tenth of a second for 10,000 Services).
#[wasm_bindgen]
pub fn import_cluster(input: &[u8], range: &str, behavior: &str, tell: &js_sys::Function) {
    run_bytes(kubectl::text_of(input), &options(range, behavior), &mut |r| {
        let (kind, payload) = match r {
            Reply::Written(text) => ("written", text),
            r => ("reply", serde_json::to_string(&r).unwrap_or_default()),
        };
        let _ = tell.call2(&JsValue::NULL, &kind.into(), &payload.into());
    });
}

/// A worker at work, and the handlers it calls: dropping it stops the worker.
struct Job {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Drop for Job {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// A worker started before it is needed (the pointer or the focus came to the panel), so that
/// an import does not wait for it to load the module; forgotten should it fail to load.
struct Warm {
    worker: web_sys::Worker,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

/// Everything an import started from the panel needs to end.
#[derive(Clone)]
struct Run {
    status: UseStateHandle<Status>,
    compared: UseStateHandle<Compared>,
    /// From the written file on, the page's own step (opening it) is shown; the import's end
    /// waits for it.
    opening: Rc<std::cell::Cell<bool>>,
    waiting: Rc<RefCell<Option<Result<Outcome, String>>>>,
    job: Rc<RefCell<Option<Job>>>,
    warm: Rc<RefCell<Option<Warm>>>,
    /// The scenario file the lab plays, for "Save as a scenario file".
    saved: Rc<RefCell<Option<Rc<str>>>>,
    /// A worker failed to load here (a page on another origin): none is started again.
    no_worker: Rc<std::cell::Cell<bool>>,
    lab: Callback<Msg>,
    worker_url: String,
    /// The panel's own range and behaviour fields (never looked up by id in the document).
    range: NodeRef,
    behavior: NodeRef,
}

impl Run {
    /// Imports `input` with the range and behaviour the fields hold, in the page or in a worker.
    fn start(&self, input: Input) {
        let range = self.range.cast::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
        let behavior = self.behavior.cast::<web_sys::HtmlSelectElement>().map(|s| s.value()).unwrap_or_default();
        self.job.borrow_mut().take();
        self.opening.set(false);
        self.waiting.borrow_mut().take();
        self.compared.set(Compared::Pending);
        let size = match &input {
            Input::Text(text) => text.len(),
            Input::File(file) => file.size() as usize,
        };
        if size > IN_PAGE_BYTES {
            if let Ok(job) = self.spawn(&input, &range, &behavior) {
                *self.job.borrow_mut() = Some(job);
                self.status.set(Status::Working(None));
                return;
            }
        }
        self.in_page(input, range, behavior);
    }

    fn in_page(&self, input: Input, range: String, behavior: String) {
        match input {
            // The other releases are compared here for a small input only: a large one, read
            // here because no worker started, would keep the page waiting several times longer.
            Input::Text(text) => {
                let compare = text.len() <= IN_PAGE_BYTES;
                if !compare {
                    self.compared.set(Compared::Skipped);
                }
                run(&text, &options(&range, &behavior), compare, &mut |r| self.reply(r));
            }
            Input::File(file) => {
                let name = file.name();
                self.status.set(Status::Loading(name.clone()));
                let run = self.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let Ok(buffer) = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await else {
                        return run.finish(Err(format!("{name}: the browser could not read the file")));
                    };
                    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                    match kubectl::text_of(&bytes) {
                        Ok(text) => run.in_page(Input::Text(text.to_string()), range, behavior),
                        Err(e) => run.finish(Err(e)),
                    }
                });
            }
        }
    }

    fn load(&self, scenario: Scenario, text: String) {
        *self.saved.borrow_mut() = Some(text.as_str().into());
        self.lab.emit(Msg::Load(scenario, Source::Inline(text)));
    }

    /// Shows the import's end. When it was refused nothing was loaded, and the lab goes on with
    /// the cluster it had.
    fn finish(&self, done: Result<Outcome, String>) {
        // After a refusal the worker has nothing left to do: stopped (not dropped: this may run
        // inside its own handler). After an import it goes on to compare the other releases.
        if let (Err(_), Some(job)) = (&done, self.job.borrow().as_ref()) {
            job.worker.terminate();
        }
        self.status.set(Status::Done(done));
    }

    /// Starts a worker now, for the import to come.
    fn warm_up(&self) {
        if self.warm.borrow().is_some() || self.no_worker.get() {
            return;
        }
        let Ok(worker) = new_worker(&self.worker_url) else { return };
        let (warm, no_worker) = (Rc::downgrade(&self.warm), self.no_worker.clone());
        let on_error = Closure::<dyn FnMut(_)>::new(move |_: web_sys::Event| {
            no_worker.set(true);
            if let Some(w) = warm.upgrade() {
                // Not now: this runs inside the warm worker's own handler.
                let stale = w.borrow_mut().take();
                wasm_bindgen_futures::spawn_local(async move { drop(stale) });
            }
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        *self.warm.borrow_mut() = Some(Warm { worker, _on_error: on_error });
    }

    fn spawn(&self, input: &Input, range: &str, behavior: &str) -> Result<Job, JsValue> {
        let warm = self.warm.borrow_mut().take();
        let worker = match warm {
            Some(Warm { worker, .. }) => worker,
            None if self.no_worker.get() => return Err("no worker here".into()),
            None => new_worker(&self.worker_url)?,
        };
        let started = Rc::new(std::cell::Cell::new(false));
        let given = match input {
            Input::Text(text) => Input::Text(text.clone()),
            Input::File(file) => Input::File(file.clone()),
        };
        let given = Rc::new(RefCell::new(Some((given, range.to_string(), behavior.to_string()))));
        // Before the worker's first word, a failure is its script or module not loading (a page
        // on another origin, a file missing): the page reads the input itself. After it, the
        // import itself failed (memory ran out): trying again in the page would fail the page.
        let failed = {
            let (run, started) = (self.clone(), started.clone());
            move |why: String| match (started.get(), given.borrow_mut().take()) {
                (false, Some((input, range, behavior))) => {
                    run.no_worker.set(true);
                    run.in_page(input, range, behavior)
                }
                _ => run.finish(Err(format!("import: the worker stopped: {why}"))),
            }
        };
        let on_message = {
            let (run, failed) = (self.clone(), failed.clone());
            Closure::<dyn FnMut(_)>::new(move |e: web_sys::MessageEvent| {
                let told = e.data().dyn_into::<js_sys::Array>().ok();
                let told = told.and_then(|a| Some((a.get(0).as_string()?, a.get(1).as_string()?)));
                let Some((kind, payload)) = told else {
                    // The worker script's own report that it could not run the module.
                    return failed(format!("{:?}", e.data()));
                };
                started.set(true);
                if kind == "written" {
                    return run.reply(Reply::Written(payload));
                }
                match serde_json::from_str(&payload) {
                    Ok(reply) => run.reply(reply),
                    Err(e) => run.finish(Err(format!("import: the worker's reply: {e}"))),
                }
            })
        };
        let on_error = Closure::<dyn FnMut(_)>::new(move |e: web_sys::Event| {
            let why = e.dyn_ref::<web_sys::ErrorEvent>().map(|e| e.message());
            failed(why.unwrap_or_else(|| "an error".into()));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let message = js_sys::Object::new();
        let input = match input {
            Input::Text(text) => ("text", JsValue::from_str(text)),
            Input::File(file) => ("file", file.into()),
        };
        for (k, v) in [input, ("range", range.into()), ("behavior", behavior.into())] {
            js_sys::Reflect::set(&message, &k.into(), &v)?;
        }
        worker.post_message(&message)?;
        Ok(Job { worker, _on_message: on_message, _on_error: on_error })
    }

    /// One step of the import, from the worker or from [`run`] in the page.
    fn reply(&self, reply: Reply) {
        match reply {
            Reply::Progress(p) if !self.opening.get() => self.status.set(Status::Working(Some(p))),
            Reply::Progress(_) => {}
            Reply::Written(text) => {
                self.opening.set(true);
                self.status.set(Status::Opening);
                let run = self.clone();
                // A scenario cannot cross from the worker whole: the page parses the file too,
                // once the browser has painted that it does (the page waits then: about half a
                // second for 10,000 Services).
                gloo_timers::callback::Timeout::new(PAINTED_MS, move || {
                    match kubectl::check(&text) {
                        Ok(scenario) => run.load(scenario, text),
                        Err(e) => return run.finish(Err(e)),
                    }
                    run.opening.set(false);
                    let waiting = run.waiting.borrow_mut().take();
                    match waiting {
                        Some(done) => run.finish(done),
                        None => run.status.set(Status::Working(Some(Progress::Repairing))),
                    }
                })
                .forget();
            }
            Reply::Done(done) if self.opening.get() => *self.waiting.borrow_mut() = Some(done),
            Reply::Done(done) => self.finish(done),
            Reply::Compared(compared) => {
                self.compared.set(Compared::Done(compared));
                // The worker's last word: it is stopped (not dropped: this may run inside its
                // own handler).
                if let Some(job) = self.job.borrow().as_ref() {
                    job.worker.terminate();
                }
            }
        }
    }

    /// Imports a dropped or chosen file; one over the import's limit is refused before it is read.
    fn start_file(&self, file: web_sys::File) {
        if file.size() > kubectl::MAX_BYTES as f64 {
            let (mb, limit) = (file.size() as u64 >> 20, kubectl::MAX_BYTES >> 20);
            let e = format!("{}: {mb} MB is more than the {limit} MB the import reads", file.name());
            self.status.set(Status::Done(Err(e)));
            return;
        }
        self.start(Input::File(file));
    }
}

fn new_worker(url: &str) -> Result<web_sys::Worker, JsValue> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    web_sys::Worker::new_with_options(url, &options)
}

/// The panel's state, in a [`Run`]; leaving the page, the panel stops its workers.
#[hook]
fn use_run(p: &ImportProps) -> Run {
    let job = use_mut_ref(|| None::<Job>);
    let warm = use_mut_ref(|| None::<Warm>);
    {
        let (job, warm) = (job.clone(), warm.clone());
        use_effect_with((), move |_| {
            move || {
                job.borrow_mut().take();
                if let Some(w) = warm.borrow_mut().take() {
                    w.worker.terminate();
                }
            }
        });
    }
    Run {
        status: use_state(|| Status::Idle),
        compared: use_state(|| Compared::Pending),
        opening: (*use_state(|| Rc::new(std::cell::Cell::new(false)))).clone(),
        waiting: (*use_state(|| Rc::new(RefCell::new(None)))).clone(),
        job,
        warm,
        no_worker: (*use_state(|| Rc::new(std::cell::Cell::new(false)))).clone(),
        saved: (*use_state(|| Rc::new(RefCell::new(None)))).clone(),
        lab: p.lab.clone(),
        worker_url: worker_url(p.home.as_deref()),
        range: use_node_ref(),
        behavior: use_node_ref(),
    }
}

#[function_component(Import)]
pub(crate) fn import_panel(p: &ImportProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::super::use_lang();
    let run = use_run(p);
    let status = run.status.clone();
    let dragging = use_state(|| false);
    let text = use_node_ref();
    let on_import = {
        let (run, text) = (run.clone(), text.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let pasted = text
                .cast::<web_sys::HtmlTextAreaElement>()
                .map(|t| t.value())
                .unwrap_or_default();
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
    html! {
        <div role="region" class={classes!("panel", "import", dragging.then_some("dragging"))} aria-labelledby={ids.id("h-import")}
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
                    aria-label={lang.pick("kubectl output (JSON)", "kubectl 输出（JSON）")}
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
                    <input id={ids.id("import-file")} type="file" accept=".json,application/json" onchange={on_file} disabled={busy} />
                </label>
                <button id={ids.id("import-run")} type="submit" class="primary" disabled={busy}>{ lang.pick("Import and play from here", "导入并从这里开始") }</button>
            </form>
            { status_view(&run, lang, &ids) }
        </div>
    }
}

/// `import-worker.js` beside the lab's page (the page the embed names, else this one).
fn worker_url(home: Option<&str>) -> String {
    let base = home.map(str::to_string).or_else(|| web_sys::window()?.document()?.base_uri().ok()?);
    let url = base.and_then(|b| web_sys::Url::new_with_base("import-worker.js", &b).ok());
    url.map_or_else(|| "import-worker.js".into(), |u| u.href())
}
