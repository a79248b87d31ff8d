//! Your own cluster: the output of `kubectl get … -o json` pasted or dropped in, read in the page
//! (`crate::import::kubectl`), what the repair loops report on it, and the lab playing from it.
//!
//! A large input is read by `static/import-worker.js`, a worker that loads this same module and
//! calls [`import_cluster`], so the page stays responsive and shows the import's progress; a small
//! one (or any, should the worker not start, as in a page on another origin) is read in the page.

use std::cell::RefCell;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::contract::scenario::Scenario;
use crate::import::kubectl::{self, Comparison, Finding, Note, Options, Progress};
use crate::lab::Msg;

mod form;
mod view;
mod worker;
pub(crate) use form::Import;
use worker::{worker_url, Job, Warm};

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
    /// This instance is the lab's own page: an import is kept in the tab's storage for a reload.
    #[prop_or_default]
    pub(crate) own_page: bool,
}

/// What the last import gave: the flags it used and what the repair loops reported.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
struct Outcome {
    behavior: String,
    range: String,
    services: usize,
    /// What the import ignored or guessed ([`kubectl::notes`]), shown in the lab's language.
    #[serde(default)]
    notes: Vec<Note>,
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
fn outcome(file: &kubectl::file::File, scenario: &Scenario, notes: Vec<Note>) -> Outcome {
    Outcome {
        behavior: file.behavior.clone(),
        range: file.cluster.service_cluster_ip_range.clone(),
        services: file.initial.services.len(),
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

/// [`run`] in the import's chunk (issue 37): the page and the worker start without the kubectl
/// reader and its YAML parser, fetched with the first import.
#[cfg_attr(
    feature = "split",
    wasm_split_helpers::wasm_split(import, fallible, preload(load_import))
)]
fn run_in_chunk(
    text: String,
    options: Options,
    compared: bool,
    mut say: Box<dyn FnMut(Reply)>,
) -> Result<(), wasm_split_helpers::SplitLoaderError> {
    run(&text, &options, compared, &mut *say);
    Ok(())
}

/// What the import says when its chunk could not be fetched, twice.
const NOT_LOADED: &str = "The import's code could not be loaded: reload the page to try again.";

/// [`run`], once its chunk is loaded (fetched again once if it fails); `Err` if it never was.
async fn run_loaded(
    text: String,
    options: Options,
    compared: bool,
    say: Box<dyn FnMut(Reply)>,
) -> Result<(), wasm_split_helpers::SplitLoaderError> {
    #[cfg(feature = "split")]
    {
        crate::ui::lazy::retried(|| Box::pin(load_import())).await?;
        run_in_chunk(text, options, compared, say).await
    }
    #[cfg(not(feature = "split"))]
    run_in_chunk(text, options, compared, say)
}

/// The import as `static/import-worker.js` runs it, off the page's thread: each [`Reply`] is
/// given to `tell` as `("reply", its JSON)`, but the written file as `("written", its text)`, so
/// that the page does not decode megabytes of escaped JSON.
/// The input comes as bytes: a file's, as read (decoding it to a JS string and encoding it again
/// for wasm took a tenth of a second for 10,000 Services).
#[wasm_bindgen]
pub async fn import_cluster(
    input: Vec<u8>,
    range: String,
    behavior: String,
    tell: js_sys::Function,
) {
    let say = move |r| {
        let (kind, payload) = match r {
            Reply::Written(text) => ("written", text),
            r => ("reply", serde_json::to_string(&r).unwrap_or_default()),
        };
        let _ = tell.call2(&JsValue::NULL, &kind.into(), &payload.into());
    };
    let text = match kubectl::text_of(&input) {
        Ok(text) => text.to_string(),
        Err(e) => return say(Reply::Done(Err(e))),
    };
    let failed = say.clone();
    if run_loaded(text, options(&range, &behavior), true, Box::new(say)).await.is_err() {
        failed(Reply::Done(Err(NOT_LOADED.into())));
    }
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
    /// Keep an import in the tab's storage ([`ImportProps::own_page`]).
    keep: bool,
    worker_url: String,
    /// The panel's own range and behaviour fields (never looked up by id in the document).
    range: NodeRef,
    behavior: NodeRef,
}

impl Run {
    /// Imports `input` with the range and behaviour the fields hold, in the page or in a worker.
    fn start(&self, input: Input) {
        let range =
            self.range.cast::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
        let behavior = self
            .behavior
            .cast::<web_sys::HtmlSelectElement>()
            .map(|s| s.value())
            .unwrap_or_default();
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
                let (run, options) = (self.clone(), options(&range, &behavior));
                wasm_bindgen_futures::spawn_local(async move {
                    let say = Box::new({
                        let run = run.clone();
                        move |r| run.reply(r)
                    });
                    if run_loaded(text, options, compare, say).await.is_err() {
                        run.finish(Err(NOT_LOADED.into()));
                    }
                });
            }
            Input::File(file) => {
                let name = file.name();
                self.status.set(Status::Loading(name.clone()));
                let run = self.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let Ok(buffer) =
                        wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await
                    else {
                        return run
                            .finish(Err(format!("{name}: the browser could not read the file")));
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
        if self.keep {
            crate::ui::address::keep_import(&text);
        }
        self.lab.emit(Msg::Import(scenario, text));
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
            let e =
                format!("{}: {mb} MB is more than the {limit} MB the import reads", file.name());
            self.status.set(Status::Done(Err(e)));
            return;
        }
        self.start(Input::File(file));
    }
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
        keep: p.own_page,
        worker_url: worker_url(p.home.as_deref()),
        range: use_node_ref(),
        behavior: use_node_ref(),
    }
}
