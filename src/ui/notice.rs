//! The lab's notice (an action it refused, what could not be opened) and the page's settings
//! problems, one per line. The problems can be dismissed, in this instance only; the notice
//! goes with the next accepted action.

use yew::prelude::*;

use super::ids::use_ids;
use super::use_lang;

#[derive(Properties, PartialEq)]
pub(crate) struct NoticeProps {
    /// What was wrong with the page's settings (URL parameters, options, attributes).
    pub(crate) problems: Vec<AttrValue>,
    /// The lab's notice, if any.
    pub(crate) notice: Option<AttrValue>,
}

#[function_component(Notice)]
pub(crate) fn notice(p: &NoticeProps) -> Html {
    let (lang, ids) = (use_lang(), use_ids());
    let dismissed = use_state_eq(|| false);
    let problems = (!*dismissed && !p.problems.is_empty()).then_some(&p.problems);
    if problems.is_none() && p.notice.is_none() {
        return html! {};
    }
    let dismiss = {
        let dismissed = dismissed.clone();
        Callback::from(move |_: MouseEvent| dismissed.set(true))
    };
    html! {
        <div class="notice-row">
            <div class="notice" role="alert" id={ids.id("action-error")}>
                if let Some(list) = problems {
                    <ul class="problems" id={ids.id("problems")}>
                        { for list.iter().map(|m| html! { <li>{ m.clone() }</li> }) }
                    </ul>
                }
                { p.notice.clone().unwrap_or_default() }
            </div>
            if problems.is_some() {
                // Outside the alert: its text is the messages only.
                <button class="small dismiss" id={ids.id("problems-dismiss")} onclick={dismiss}
                    aria-label={lang.pick("Dismiss the settings' problems", "关闭设置问题提示")}>{ "✕" }</button>
            }
        </div>
    }
}
