//! "Link to this moment": puts the link in the address bar (no reload) and shows it for copying,
//! and says so in a polite live region. An embedded instance leaves the host page's address alone
//! and links to the lab's own page.

use yew::prelude::*;

use crate::lang::Lang;

#[derive(Properties, PartialEq)]
pub(crate) struct ShareLinkProps {
    /// What the link adds to the page's address, read when pressed ([`crate::lab::Lab::link_to_here`]).
    pub(crate) relative: Callback<(), String>,
    /// The lab's own page, when this instance is embedded in another one.
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
    /// This instance is the lab's own page: the link goes into its address.
    #[prop_or_default]
    pub(crate) own_page: bool,
}

/// The longest address Chromium opens (`url::kMaxURLChars`, 2 MiB); Firefox and Safari open
/// longer ones. A link to an imported cluster of thousands of Services carries its whole
/// scenario and can be longer: it is not made (the address bar would keep the old moment).
const MAX_LINK_CHARS: usize = 2 * 1024 * 1024;

/// What the button shows: the link, or why there is none.
#[derive(Clone, PartialEq)]
enum Shown {
    /// The link, and whether it is in the page's address too.
    Link(String, bool),
    TooLong(usize),
}

#[function_component(ShareLink)]
pub(crate) fn share_link(p: &ShareLinkProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::use_lang();
    let shown = use_state(|| None::<Shown>);
    let too_long = match &*shown {
        Some(Shown::TooLong(n)) => Some(too_long_text(*n, lang)),
        _ => None,
    };
    let onclick = {
        let (shown, home, relative, own) =
            (shown.clone(), p.home.clone(), p.relative.clone(), p.own_page);
        Callback::from(move |_: MouseEvent| {
            let relative = relative.emit(());
            if relative.len() > MAX_LINK_CHARS {
                shown.set(Some(Shown::TooLong(relative.len())));
                return;
            }
            let window = crate::ui::browser::window();
            if own {
                crate::ui::address::write(&relative);
                let url = window.and_then(|w| w.location().href().ok()).unwrap_or_default();
                shown.set(Some(Shown::Link(url, true)));
                return;
            }
            // Embedded: the lab's own page (else this page's, its address left as it is).
            let page = home
                .as_ref()
                .map(|h| h.to_string())
                .or_else(|| window?.location().href().ok())
                .unwrap_or_default();
            let page = page.split(['?', '#']).next().unwrap_or_default();
            shown.set(Some(Shown::Link(format!("{page}{relative}"), false)));
        })
    };
    // Said once made (the region is there before, so that the change is announced).
    let said = match (&*shown, lang) {
        (None, _) => String::new(),
        (Some(Shown::Link(_, true)), Lang::En) => {
            "Link made: it is in the address bar and in the field after the button, to copy.".into()
        }
        (Some(Shown::Link(_, true)), Lang::Zh) => {
            "链接已生成：在地址栏和按钮后的输入框中，可以复制。".into()
        }
        (Some(Shown::Link(_, false)), Lang::En) => {
            "Link made: it is in the field after the button, to copy.".into()
        }
        (Some(Shown::Link(_, false)), Lang::Zh) => {
            "链接已生成：在按钮后的输入框中，可以复制。".into()
        }
        (Some(Shown::TooLong(_)), _) => too_long.clone().unwrap_or_default(),
    };
    html! {
        <div class="share">
            <span id={ids.id("share-status")} class="sr-only" role="status">{ said }</span>
            <button id={ids.id("share")} {onclick} title={lang.pick("A link that reopens exactly this moment", "一个能重新打开此刻状态的链接")}>
                { lang.pick("Link to this moment", "此刻的链接") }</button>
            { match &*shown {
                None => html! {},
                Some(Shown::Link(url, _)) => html! {
                    <input id={ids.id("share-link")} readonly=true value={url.clone()} aria-label={lang.pick("Link to this moment", "此刻的链接")} />
                },
                Some(Shown::TooLong(_)) => html! {
                    <span id={ids.id("share-too-long")} class="hint">{ too_long.unwrap_or_default() }</span>
                },
            } }
        </div>
    }
}

/// Why there is no link: it would be `n` characters long.
fn too_long_text(n: usize, lang: Lang) -> String {
    let mb = n as f64 / (1 << 20) as f64;
    match lang {
        Lang::En => format!("No link: it would hold the whole scenario, {mb:.1} MB, more than a browser opens (2 MB). Save the cluster as a scenario file from \"Your cluster\" instead."),
        Lang::Zh => format!("无法生成链接：它会包含整个场景（{mb:.1} MB），超过浏览器能打开的长度（2 MB）。请在“你的集群”中把集群保存为场景文件。"),
    }
}
