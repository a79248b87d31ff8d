//! "Link to this moment": puts the link in the address bar (no reload) and shows it for copying.
//! An embedded instance leaves the host page's address alone and links to the lab's own page.

use yew::prelude::*;

use crate::lang::Lang;

#[derive(Properties, PartialEq)]
pub(crate) struct ShareLinkProps {
    /// What the link adds to the page's address, read when pressed ([`crate::lab::Lab::link_to_here`]).
    pub(crate) relative: Callback<(), String>,
    /// The lab's own page, when this instance is embedded in another one.
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
}

/// The longest address Chromium opens (`url::kMaxURLChars`, 2 MiB); Firefox and Safari open
/// longer ones. A link to an imported cluster of thousands of Services carries its whole
/// scenario and can be longer: it is not made (the address bar would keep the old moment).
const MAX_LINK_CHARS: usize = 2 * 1024 * 1024;

/// What the button shows: the link, or why there is none.
#[derive(Clone, PartialEq)]
enum Shown {
    Link(String),
    TooLong(usize),
}

#[function_component(ShareLink)]
pub(crate) fn share_link(p: &ShareLinkProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::use_lang();
    let shown = use_state(|| None::<Shown>);
    let onclick = {
        let (shown, home, relative) = (shown.clone(), p.home.clone(), p.relative.clone());
        Callback::from(move |_: MouseEvent| {
            let relative = relative.emit(());
            if relative.len() > MAX_LINK_CHARS {
                shown.set(Some(Shown::TooLong(relative.len())));
                return;
            }
            if let Some(home) = &home {
                let page = home.split(['?', '#']).next().unwrap_or_default();
                shown.set(Some(Shown::Link(format!("{page}{relative}"))));
                return;
            }
            let mut url = String::new();
            if let Some(w) = crate::ui::browser::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&relative));
                }
                url = w.location().href().unwrap_or_default();
            }
            shown.set(Some(Shown::Link(url)));
        })
    };
    html! {
        <div class="share">
            <button id={ids.id("share")} {onclick} title={lang.pick("A link that reopens exactly this moment", "一个能重新打开此刻状态的链接")}>
                { lang.pick("Link to this moment", "此刻的链接") }</button>
            { match &*shown {
                None => html! {},
                Some(Shown::Link(url)) => html! {
                    <input id={ids.id("share-link")} readonly=true value={url.clone()} aria-label={lang.pick("Link to this moment", "此刻的链接")} />
                },
                Some(Shown::TooLong(n)) => {
                    let mb = *n as f64 / (1 << 20) as f64;
                    html! {
                        <span id={ids.id("share-too-long")} class="hint" role="status">{ match lang {
                            Lang::En => format!("No link: it would hold the whole scenario, {mb:.1} MB, more than a browser opens (2 MB). Save the cluster as a scenario file from \"Your cluster\" instead."),
                            Lang::Zh => format!("无法生成链接：它会包含整个场景（{mb:.1} MB），超过浏览器能打开的长度（2 MB）。请在“你的集群”中把集群保存为场景文件。"),
                        } }</span>
                    }
                }
            } }
        </div>
    }
}
