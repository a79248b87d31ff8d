//! `tour-src`: a trainer's tour file fetched from its address (same origin, or another that
//! allows it by CORS and is allowed by the page's Content-Security-Policy `connect-src`), then
//! opened by the lab, which checks it as it checks every tour (`Msg::OpenTourFile`).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::lab::Msg;

/// The most a tour file may weigh: the shipped tours are under 20 KB.
const MAX_TOUR_BYTES: usize = 1024 * 1024;

/// `src` resolved against the page's address (a relative one is the page's, as a link's is).
fn absolute(src: &str) -> Result<String, String> {
    let base = crate::ui::browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten());
    let url = match base {
        Some(base) => web_sys::Url::new_with_base(src, &base),
        None => web_sys::Url::new(src),
    };
    url.map(|u| u.href()).map_err(|_| format!("{src:?} is not an address"))
}

/// The text at `url`, or why there is none, in a line.
async fn fetch_text(url: &str) -> Result<String, String> {
    let window = crate::ui::browser::window().ok_or("no window to fetch from")?;
    // A refused fetch (CORS, the page's policy, the network) rejects with a TypeError that
    // names none of them: say which are possible.
    let refused = |_| {
        "could not fetch it (the network, CORS or the page's Content-Security-Policy refused it)"
            .to_string()
    };
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(refused)?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "no response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {} {}", response.status(), response.status_text()));
    }
    let text = response.text().map_err(|_| "the response has no text".to_string())?;
    let text =
        JsFuture::from(text).await.map_err(|_| "the response could not be read".to_string())?;
    let text = text.as_string().unwrap_or_default();
    if text.len() > MAX_TOUR_BYTES {
        return Err(format!(
            "{} bytes, more than a tour file may hold ({MAX_TOUR_BYTES})",
            text.len()
        ));
    }
    Ok(text)
}

/// The tour file at `src` (resolved against the page's address) and that address, or why it
/// could not be fetched: what the lab and a handout both read.
async fn fetch_tour(src: &str) -> (Result<String, String>, String) {
    match absolute(src) {
        Ok(url) => (fetch_text(&url).await, url),
        Err(e) => (Err(e), src.to_string()),
    }
}

/// The text at `src`, fetched once (`None` until it has come, or without `src`): a handout of a
/// trainer's tour (`ui::handout`) reads it itself, as the lab reads it through [`use_tour_src`].
#[hook]
pub(crate) fn use_fetched_tour(src: Option<AttrValue>) -> Option<Result<String, String>> {
    let got = use_state(|| None);
    {
        let got = got.clone();
        use_effect_with(src, move |src| {
            if let Some(src) = src.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    got.set(Some(fetch_tour(&src).await.0));
                });
            }
        });
    }
    (*got).clone()
}

/// Fetches `src` once, then has the lab open it at `step` (or say why it could not).
#[hook]
pub(crate) fn use_tour_src(src: Option<AttrValue>, step: Option<usize>, dispatch: Callback<Msg>) {
    use_effect_with(src, move |src| {
        if let Some(src) = src.clone() {
            wasm_bindgen_futures::spawn_local(async move {
                let (text, at) = fetch_tour(&src).await;
                dispatch.emit(Msg::OpenTourFile { text, src: Some(at), step });
            });
        }
    });
}
