//! The import's worker (`static/import-worker.js`): started ahead when the reader comes to the
//! panel, given a large input, and its replies passed on to the [`Run`].

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::{Input, Reply, Run};

/// A worker at work, and the handlers it calls: dropping it stops the worker.
pub(super) struct Job {
    pub(super) worker: web_sys::Worker,
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
pub(super) struct Warm {
    pub(super) worker: web_sys::Worker,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Run {
    /// Starts a worker now, for the import to come.
    pub(super) fn warm_up(&self) {
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

    pub(super) fn spawn(&self, input: &Input, range: &str, behavior: &str) -> Result<Job, JsValue> {
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
}

fn new_worker(url: &str) -> Result<web_sys::Worker, JsValue> {
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    web_sys::Worker::new_with_options(url, &options)
}

/// `import-worker.js` beside the lab's page (the page the embed names, else this one).
pub(super) fn worker_url(home: Option<&str>) -> String {
    let base = home
        .map(str::to_string)
        .or_else(|| crate::ui::browser::window()?.document()?.base_uri().ok()?);
    let url = base.and_then(|b| web_sys::Url::new_with_base("import-worker.js", &b).ok());
    url.map_or_else(|| "import-worker.js".into(), |u| u.href())
}
