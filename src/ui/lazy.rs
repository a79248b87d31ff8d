//! Components whose code comes in a chunk of its own (issue 37): with the `split` feature (the
//! release build, split by wasm-split in scripts/split.mjs) a lazy component renders an empty box
//! until its chunk is loaded, then its component; without it (the tests, the poster) it is its
//! component. Only the split point names the component, so wasm-split moves its code, and what
//! only it uses, out of the first module.
//!
//! A chunk is fetched when its component first mounts, but not before the browser has been idle
//! once: the panels of the first view come after the story is interactive, not with it. A failed
//! fetch is tried once more, then the component renders nothing and [`ChunkNotice`] says in one
//! line what could not be loaded; the rest of the lab goes on.
// Without `split` the macro makes each lazy component its component: nothing here is called.
#![cfg_attr(not(feature = "split"), allow(dead_code))]

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::thread::LocalKey;

use wasm_bindgen::JsCast;
use wasm_split_helpers::SplitLoaderError;
use yew::prelude::*;

use crate::lang::Lang;

/// A chunk's loader: what it gives once fetched, or why not.
pub(crate) type LoadFuture<V> = Pin<Box<dyn Future<Output = Result<V, SplitLoaderError>>>>;

/// Where a lazy component's chunk is.
#[derive(Clone, Copy)]
pub(crate) enum Chunk<V> {
    Loading,
    Ready(V),
    /// It could not be fetched, twice: [`ChunkNotice`] says so.
    Failed,
}

/// Before the first retry: a dropped connection often comes back within a second.
const RETRY_MS: u32 = 1_000;
/// The longest a chunk of the first view waits for the browser to be idle.
const IDLE_TIMEOUT_MS: i32 = 2_000;
/// Where `requestIdleCallback` is missing (Safari): a pause after the first render instead.
const IDLE_FALLBACK_MS: i32 = 200;

thread_local! {
    /// The page has been idle once since it started: chunks load at once from then on.
    static IDLE_SEEN: Cell<bool> = const { Cell::new(false) };
}

/// The chunk `chunk` of `cache`'s component, loaded by `load` on the first mount of any of its
/// instances (the view is kept in `cache`: later mounts render at once).
#[hook]
pub(crate) fn use_chunk<V: Copy + 'static>(
    chunk: &'static str,
    cache: &'static LocalKey<Cell<Option<V>>>,
    load: fn() -> LoadFuture<V>,
) -> Chunk<V> {
    // A chunk that failed is not fetched again by later mounts: the line said to reload.
    let state = use_state(|| match cache.with(Cell::get) {
        Some(view) => Chunk::Ready(view),
        None if FAILED.with(|f| f.borrow().contains(&chunk)) => Chunk::Failed,
        None => Chunk::Loading,
    });
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            if matches!(*state, Chunk::Loading) {
                wasm_bindgen_futures::spawn_local(async move {
                    after_first_idle().await;
                    match retried(load).await {
                        Ok(view) => {
                            cache.with(|c| c.set(Some(view)));
                            state.set(Chunk::Ready(view));
                        }
                        Err(_) => {
                            state.set(Chunk::Failed);
                            failed(chunk);
                        }
                    }
                });
            }
        });
    }
    *state
}

/// `load`, tried a second time after [`RETRY_MS`] if the first fetch failed (wasm-split keeps no
/// failure: the second call fetches again).
pub(crate) async fn retried<V>(load: impl Fn() -> LoadFuture<V>) -> Result<V, SplitLoaderError> {
    match load().await {
        Ok(v) => Ok(v),
        Err(_) => {
            gloo_timers::future::TimeoutFuture::new(RETRY_MS).await;
            load().await
        }
    }
}

/// What a lazy component shows while its chunk comes: an empty box its stylesheet may size.
pub(crate) fn loading() -> Html {
    html! { <div class="lazy-loading" aria-busy="true" /> }
}

/// What the chunk of lazy components holds, as the line that it could not be loaded says. One
/// chunk (`panels`): more names would make wasm-split add a small chunk for each set of them that
/// shares code, a request each. (The import's chunk has no component: its panel says its line.)
const CONTENTS: (&str, &str) = (
    "the inspector, the table view, the tour writer, the handout and the things to try",
    "检查器、表格视图、导览编写器、讲义和可以尝试的实验",
);

thread_local! {
    /// The chunks that could not be loaded, in the order they failed.
    static FAILED: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    /// The mounted [`ChunkNotice`]s, told when a chunk fails.
    static NOTICES: RefCell<Vec<Callback<()>>> = const { RefCell::new(Vec::new()) };
}

/// Notes that `chunk` could not be loaded and has every [`ChunkNotice`] say so.
fn failed(chunk: &'static str) {
    let new = FAILED.with(|f| {
        let mut f = f.borrow_mut();
        let new = !f.contains(&chunk);
        if new {
            f.push(chunk);
        }
        new
    });
    if new {
        let notices = NOTICES.with(|n| n.borrow().clone());
        notices.iter().for_each(|n| n.emit(()));
    }
}

#[derive(Properties, PartialEq)]
pub(crate) struct ChunkNoticeProps {
    pub(crate) lang: Lang,
}

/// One line when the lazy components' chunk could not be loaded, beside the lab's notice.
#[function_component(ChunkNotice)]
pub(crate) fn chunk_notice(p: &ChunkNoticeProps) -> Html {
    let update = use_force_update();
    use_effect_with((), move |_| {
        let told = Callback::from(move |()| update.force_update());
        NOTICES.with(|n| n.borrow_mut().push(told.clone()));
        move || NOTICES.with(|n| n.borrow_mut().retain(|c| c != &told))
    });
    if FAILED.with(|f| f.borrow().is_empty()) {
        return html! {};
    }
    let (en, zh) = CONTENTS;
    let line = match p.lang {
        Lang::En => {
            format!("Could not load {en}: its code did not arrive. Reload the page to try again.")
        }
        Lang::Zh => format!("无法加载{zh}：代码未能下载。请重新加载页面再试。"),
    };
    html! { <p class="notice lazy-failed" role="alert">{ line }</p> }
}

/// Returns once the browser has been idle (`requestIdleCallback`, at most [`IDLE_TIMEOUT_MS`]
/// later) since the page started; at once after that.
async fn after_first_idle() {
    if IDLE_SEEN.with(Cell::get) {
        return;
    }
    let idle = js_sys::Promise::new(&mut |resolve, _| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
            return;
        };
        let ric = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let Some(ric) = ric {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"timeout".into(), &IDLE_TIMEOUT_MS.into());
            let _ = ric.call2(&window, &resolve, &options);
        } else {
            let _ = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, IDLE_FALLBACK_MS);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(idle).await;
    IDLE_SEEN.with(|s| s.set(true));
}

/// `lazy_component!(vis Lazy(lazy_fn, load_fn) = Component [Props] in chunk)`: `Lazy`, which
/// renders `Component` from the chunk `chunk` (one chunk per name: the components named alike
/// share it; [`CONTENTS`] says what `panels` holds). `Props: Clone`; `load_fn` names the split point
/// (given here, unique in the module: wasm-split links by it).
macro_rules! lazy_component {
    ($vis:vis $lazy:ident($fname:ident, $loader:ident) = $comp:ident [$props:ty] in $chunk:ident) => {
        #[cfg(feature = "split")]
        #[wasm_split_helpers::wasm_split($chunk, fallible)]
        fn $loader() -> Result<fn(&$props) -> ::yew::Html, wasm_split_helpers::SplitLoaderError> {
            Ok(|p| ::yew::html! { <$comp ..p.clone() /> })
        }

        #[cfg(feature = "split")]
        #[::yew::function_component($lazy)]
        $vis fn $fname(p: &$props) -> ::yew::Html {
            use $crate::ui::lazy::{loading, use_chunk, Chunk, LoadFuture};
            thread_local! {
                static VIEW: ::std::cell::Cell<Option<fn(&$props) -> ::yew::Html>> =
                    const { ::std::cell::Cell::new(None) };
            }
            fn load() -> LoadFuture<fn(&$props) -> ::yew::Html> {
                Box::pin($loader())
            }
            match use_chunk(stringify!($chunk), &VIEW, load) {
                Chunk::Ready(view) => view(p),
                Chunk::Loading => loading(),
                Chunk::Failed => ::yew::html! {},
            }
        }

        #[cfg(not(feature = "split"))]
        $vis type $lazy = $comp;
    };
}
