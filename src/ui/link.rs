//! "Link to this moment": puts the link in the address bar (no reload) and shows it for copying.
//! An embedded instance leaves the host page's address alone and links to the lab's own page.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub(crate) struct ShareLinkProps {
    /// What the link adds to the page's address, read when pressed ([`crate::lab::Lab::link_to_here`]).
    pub(crate) relative: Callback<(), String>,
    /// The lab's own page, when this instance is embedded in another one.
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
}

#[function_component(ShareLink)]
pub(crate) fn share_link(p: &ShareLinkProps) -> Html {
    let lang = super::use_lang();
    let shown = use_state(|| None::<String>);
    let onclick = {
        let (shown, home, relative) = (shown.clone(), p.home.clone(), p.relative.clone());
        Callback::from(move |_: MouseEvent| {
            let relative = relative.emit(());
            if let Some(home) = &home {
                let page = home.split(['?', '#']).next().unwrap_or_default();
                shown.set(Some(format!("{page}{relative}")));
                return;
            }
            let mut url = String::new();
            if let Some(w) = web_sys::window() {
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&relative));
                }
                url = w.location().href().unwrap_or_default();
            }
            shown.set(Some(url));
        })
    };
    html! {
        <div class="share">
            <button id="share" {onclick} title={lang.pick("A link that reopens exactly this moment", "一个能重新打开此刻状态的链接")}>
                { lang.pick("Link to this moment", "此刻的链接") }</button>
            if let Some(url) = &*shown {
                <input id="share-link" readonly=true value={url.clone()} aria-label={lang.pick("Link to this moment", "此刻的链接")} />
            }
        </div>
    }
}
