fn main() {
    // `?scenario=<name>` opens one of `scenarios/`; a `#scenario=…&t=…&actions=…` link opens
    // that moment; anything else opens the default scenario (saying why).
    let scenario = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| q.trim_start_matches('?').split('&').find_map(|kv| kv.strip_prefix("scenario=").map(str::to_string)));
    let link = web_sys::window().and_then(|w| w.location().hash().ok()).filter(|h| h.len() > 1);
    let props = kube_bootstrap_lab::ui::AppProps { scenario: scenario.map(Into::into), link: link.map(Into::into) };
    yew::Renderer::<kube_bootstrap_lab::ui::App>::with_props(props).render();
}
