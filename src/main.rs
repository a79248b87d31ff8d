use kube_bootstrap_lab::embed::{parse_query, Theme};

fn main() {
    // `?scenario=<name>&theme=auto|light|dark&controls=full|minimal&autoplay`; a
    // `#scenario=…&t=…&actions=…` link opens that moment. Anything unknown or malformed is
    // ignored, and the page says so.
    let window = web_sys::window().expect("a browser window");
    let query = window.location().search().unwrap_or_default();
    let (options, problems) = parse_query(&query);
    let theme = match options.theme {
        Theme::Auto => None,
        Theme::Light => Some("light"),
        Theme::Dark => Some("dark"),
    };
    if let (Some(theme), Some(root)) = (theme, window.document().and_then(|d| d.document_element()))
    {
        let _ = root.set_attribute("data-theme", theme);
    }
    let link = window.location().hash().ok().filter(|h| h.len() > 1);
    let props = kube_bootstrap_lab::ui::AppProps {
        scenario: options.scenario.map(Into::into),
        link: link.map(Into::into),
        autoplay: options.autoplay,
        minimal: options.minimal,
        problems: problems.into_iter().map(Into::into).collect(),
    };
    yew::Renderer::<kube_bootstrap_lab::ui::App>::with_props(props).render();
}
