//! The guided tour's card (narration, back, next, leave, "Look at" the parts the step talks
//! about) and the tour picker. The steps and when they are reached come from the
//! core's [`crate::lab::tour`]; this only shows them.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::parts::Spot;
use crate::lab::tour::{Ask, Tour};
use crate::lab::Msg;
use crate::lang::{Lang, LocalizedText};

use super::ids::use_ids;
use super::use_lang;

/// "Look at": the spot pulses where it stands (on the stage when it is there), and the page
/// scrolls only when it is not in view, clear of the docked strip. Inside the instance that
/// `from` (a clicked button) belongs to: several may share a page.
fn show_spot(from: &web_sys::Element, spot: &Spot) {
    let Some(lab) = from.closest(".lab").ok().flatten() else { return };
    let name = spot.to_string();
    let Ok(found) = lab.query_selector_all(".tour-spot") else { return };
    let els: Vec<web_sys::Element> = (0..found.length())
        .filter_map(|i| found.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter(|e| e.get_attribute("data-tour-spot").as_deref() == Some(name.as_str()))
        .collect();
    for el in &els {
        // Off and on again: a second click pulses again.
        let _ = el.class_list().remove_1("tour-pulse");
        let _ = el.get_bounding_client_rect();
        let _ = el.class_list().add_1("tour-pulse");
        let el = el.clone();
        gloo_timers::callback::Timeout::new(1400, move || {
            let _ = el.class_list().remove_1("tour-pulse");
        })
        .forget();
    }
    super::reveal::reveal(&lab, &els, !super::media::prefers_reduced_motion());
}

#[derive(Properties, PartialEq)]
pub(crate) struct TourCardProps {
    pub(crate) title: LocalizedText,
    pub(crate) index: usize,
    pub(crate) len: usize,
    pub(crate) say: LocalizedText,
    /// Why the next step cannot be shown (a tour that no longer matches the simulation).
    #[prop_or_default]
    pub(crate) error: Option<AttrValue>,
    /// The tour moves on by itself (not from a question: it waits there for the reader).
    #[prop_or_default]
    pub(crate) auto: bool,
    /// The last step offers the first guided tour beside the sandbox (the story's end).
    #[prop_or_default]
    pub(crate) offer_first_tour: bool,
    /// The step's question, and the answer the reader picked before, if any.
    #[prop_or_default]
    pub(crate) ask: Option<Ask>,
    #[prop_or_default]
    pub(crate) picked: Option<usize>,
    /// Why the clock stopped at the question, if it did (`lab::Held`).
    #[prop_or_default]
    pub(crate) held: Option<crate::lab::Held>,
    /// The verdict on the previous step's question, when the reader answered it.
    #[prop_or_default]
    pub(crate) verdict: Option<super::predict::Shown>,
    /// The author's preview of the tour being written: leaving it goes back to writing.
    #[prop_or_default]
    pub(crate) previewing: bool,
    pub(crate) lab: Callback<Msg>,
}

/// The element that has the focus in the document or shadow root of `near`, if it is still in
/// the page (the body counts as none: it is where a browser drops the focus when its element
/// goes).
pub(crate) fn focused(near: &web_sys::Element) -> Option<web_sys::Element> {
    let root = near.get_root_node();
    let el = match root.dyn_ref::<web_sys::ShadowRoot>() {
        Some(shadow) => shadow.active_element(),
        None => root.dyn_ref::<web_sys::Document>()?.active_element(),
    }?;
    (el.is_connected() && el.tag_name() != "BODY").then_some(el)
}

/// Focuses the first of `selectors` inside `root` that takes it, else `root` itself.
pub(crate) fn focus_first(root: &web_sys::Element, selectors: &[&str]) {
    let found = selectors.iter().filter_map(|sel| root.query_selector(sel).ok().flatten());
    for el in found.chain([root.clone()]) {
        if let Some(h) = el.dyn_ref::<web_sys::HtmlElement>() {
            let _ = h.focus();
            if focused(root).is_some_and(|f| f == el) {
                return;
            }
        }
    }
}

/// Keeps the focus in the card when a step takes away the button that held it (Next, on the
/// last step): it goes to the button in its place (the step's first, then Explore), else to
/// the card's heading.
#[hook]
fn use_focus_kept(card: NodeRef) {
    let ids = use_ids();
    let had = use_mut_ref(|| false);
    // Read while rendering, before the step's changes reach the page.
    let holds = |c: web_sys::Element| focused(&c).is_some_and(|f| c.contains(Some(&f)));
    *had.borrow_mut() = card.cast::<web_sys::Element>().is_some_and(holds);
    use_effect(move || {
        if let Some(c) = card.cast::<web_sys::Element>() {
            if *had.borrow() && focused(&c).is_none() {
                focus_first(
                    &c,
                    &[
                        &ids.sel("tour-next"),
                        ".tour-buttons .primary",
                        &ids.sel("tour-leave"),
                        &ids.sel("tour-title"),
                    ],
                );
            }
        }
    });
}

/// A step that opens with a question waiting for its answer takes the focus to it, when the
/// focus was in the lab (the reader pressed Next, →, Play): the question is said with its
/// answers, and one more Enter neither picks nor skips.
#[hook]
fn use_focus_question(card: NodeRef, index: usize, waits: bool) {
    let had = use_mut_ref(|| false);
    let in_lab = |c: web_sys::Element| {
        let lab = c.closest(".lab").ok().flatten();
        focused(&c).is_some_and(|f| lab.is_some_and(|l| l.contains(Some(&f))))
    };
    *had.borrow_mut() = card.cast::<web_sys::Element>().is_some_and(in_lab);
    use_effect_with((index, waits), move |&(_, waits)| {
        let card = card.cast::<web_sys::Element>().filter(|_| waits && *had.borrow());
        if let Some(ask) = card.and_then(|c| c.query_selector(".tour-ask").ok().flatten()) {
            if let Some(ask) = ask.dyn_ref::<web_sys::HtmlElement>() {
                let _ = ask.focus();
            }
        }
    });
}

/// After the tour is left (its card is gone with the focused button), the focus goes to the
/// tour menu of the same instance, else to the instance itself: never to the page's body.
fn refocus_after_leaving(from: Option<web_sys::Element>, pick: String) {
    let Some(lab) = from.and_then(|el| el.closest(".lab").ok().flatten()) else {
        return;
    };
    gloo_timers::callback::Timeout::new(0, move || {
        if lab.is_connected() && focused(&lab).is_none() {
            focus_first(&lab, &[&pick]);
        }
    })
    .forget();
}

/// Tells the instance how tall its card is (`--tour-strip-h` on `.lab`): docked, the latest
/// events dock right above it (static/stage.css).
#[hook]
fn use_card_height(card: NodeRef) {
    use_effect_with((), move |_| {
        let el = card.cast::<web_sys::HtmlElement>();
        let lab = el
            .as_ref()
            .and_then(|e| e.closest(".lab").ok().flatten())
            .and_then(|l| l.dyn_into::<web_sys::HtmlElement>().ok());
        let observer = el.zip(lab.clone()).and_then(|(el, lab)| {
            let target = el.clone();
            let on_resize = Closure::<dyn FnMut()>::new(move || {
                let _ = lab
                    .style()
                    .set_property("--tour-strip-h", &format!("{}px", target.offset_height()));
            });
            let o = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
            o.observe(&el);
            Some((o, on_resize))
        });
        move || {
            if let Some((o, _)) = observer {
                o.disconnect();
            }
            if let Some(lab) = lab {
                let _ = lab.style().remove_property("--tour-strip-h");
            }
        }
    });
}

/// The first guided tour (the story is none): what the picker's button and the story's end offer.
fn first_tour(tours: &[Tour]) -> Option<&Tour> {
    tours.iter().find(|t| t.name != super::STORY)
}

#[function_component(TourCard)]
pub(crate) fn tour_card(p: &TourCardProps) -> Html {
    let lang = use_lang();
    let ids = use_ids();
    // "Look at" is offered for the step's spots this instance draws (`ui::spots`).
    let spots = super::spots::use_spots();
    let card = use_node_ref();
    // A new step starts at the top of its narration (a verdict, when there is one, opens it).
    let body = use_node_ref();
    {
        let body = body.clone();
        use_effect_with(p.index, move |_| {
            if let Some(b) = body.cast::<web_sys::Element>() {
                b.set_scroll_top(0);
            }
        });
    }
    use_focus_kept(card.clone());
    use_focus_question(card.clone(), p.index, p.ask.is_some() && p.picked.is_none());
    let say_live = super::live::use_politeness();
    let last = p.index + 1 == p.len;
    // Read once the last step is reached, not on every frame it is shown.
    let offer = p.offer_first_tour && last;
    let tours =
        use_memo(offer, |&offer| if offer { crate::lab::catalogue::tours() } else { Vec::new() });
    use_card_height(card.clone());
    // Docked under a narrow stage, the narration shows its first lines until the reader opens
    // it; beside a wide stage the toggle is not drawn (CSS) and the card shows it all.
    let open = use_state(|| false);
    // Docked, a question shows its answers once the strip is opened ("Answer"), and the focus
    // goes to the first of them.
    let asks = p.ask.is_some();
    let toggle = {
        let (open, card) = (open.clone(), card.clone());
        Callback::from(move |_: MouseEvent| {
            let opening = !*open;
            open.set(opening);
            if opening && asks {
                let card = card.clone();
                gloo_timers::callback::Timeout::new(0, move || {
                    if let Some(c) = card.cast::<web_sys::Element>() {
                        focus_first(&c, &["button.answer"]);
                    }
                })
                .forget();
            }
        })
    };
    let leave = {
        let (cb, pick) = (p.lab.clone(), ids.sel("tour-pick"));
        Callback::from(move |e: MouseEvent| {
            let from = e.target_dyn_into::<web_sys::Element>();
            cb.emit(Msg::LeaveTour);
            refocus_after_leaving(from, pick.clone());
        })
    };
    let then = first_tour(&tours);
    // On an unanswered question the answers come first; Next skips it.
    let skips = p.ask.is_some() && p.picked.is_none();
    let progress = match lang {
        Lang::En => format!("Step {} of {}", p.index + 1, p.len),
        Lang::Zh => format!("第 {} 步，共 {} 步", p.index + 1, p.len),
    };
    html! {
        <div role="region" class={classes!("tour", open.then_some("open"))} aria-labelledby={ids.id("tour-title")} ref={card} data-tour-step={p.index.to_string()}>
            <div class="tour-head">
                <h2 id={ids.id("tour-title")} tabindex="-1">{ p.title.get(lang) }</h2>
                <span class="tour-progress" id={ids.id("tour-progress")}>{ progress }</span>
                // Docked, the step count is short, so that one row holds it with the buttons.
                <span class="tour-count" aria-hidden="true">{ format!("{} / {}", p.index + 1, p.len) }</span>
                <button class="small quiet tour-more" aria-expanded={open.to_string()} aria-controls={ids.id("tour-body")} onclick={toggle}>
                    { match (*open, asks) {
                        (true, _) => lang.pick("Less ▾", "收起 ▾"),
                        (false, true) => lang.pick("Answer ▴", "作答 ▴"),
                        (false, false) => lang.pick("More ▴", "展开 ▴"),
                    } }</button>
            </div>
            <ol class="tour-dots" aria-hidden="true">
                { for (0..p.len).map(|i| html! { <li class={classes!((i <= p.index).then_some("done"))} /> }) }
            </ol>
            <div class="tour-body" id={ids.id("tour-body")} ref={body.clone()}>
                { super::predict::verdict(lang, ids.id("tour-verdict"), p.verdict.as_ref()) }
                <p class="tour-say" id={ids.id("tour-say")} aria-live={say_live}>{ p.say.get(lang) }</p>
                { look_at(spots.offered(), lang) }
                if p.auto && !last {
                    <p class="tour-auto" id={ids.id("tour-auto")}>{ lang.pick("The story plays by itself; click anywhere to take over.", "故事会自动播放；点击任意处即可接管。") }</p>
                }
                if let Some(e) = &p.error {
                    <p class="notice" role="alert">{ e.clone() }</p>
                }
            </div>
            <super::pager::NarrationPager body={body.clone()} step={p.index} />
            // Outside the narration, which scrolls: the question and its answers stay whole.
            if let Some(ask) = &p.ask {
                <super::predict::AskGroup ask={ask.clone()} picked={p.picked} held={p.held} lab={p.lab.clone()} />
            }
            { buttons(p, lang, &ids, then, skips, last, leave) }
        </div>
    }
}

/// "Look at": a button per spot this instance draws, each pulsing it where it stands.
fn look_at(offered: &[Spot], lang: Lang) -> Html {
    if offered.is_empty() {
        return Html::default();
    }
    html! {
        <p class="tour-look">
            <span>{ lang.pick("Look at:", "请看：") }</span>
            { for offered.iter().map(|spot| {
                let s = spot.clone();
                let onclick = Callback::from(move |e: MouseEvent| {
                    if let Some(b) = e.target_dyn_into::<web_sys::Element>() {
                        show_spot(&b, &s);
                    }
                });
                html! { <button class="small look" data-spot={spot.to_string()} {onclick}>{ spot.label(lang) }</button> }
            }) }
        </p>
    }
}

/// Back, the next tour (at the story's end), and Next (Skip on an unanswered question) or Explore.
fn buttons(
    p: &TourCardProps,
    lang: Lang,
    ids: &super::ids::Ids,
    then: Option<&Tour>,
    skips: bool,
    last: bool,
    leave: Callback<MouseEvent>,
) -> Html {
    let click = |msg: fn() -> Msg| {
        let cb = p.lab.clone();
        Callback::from(move |_: MouseEvent| cb.emit(msg()))
    };
    html! {
    <div class="tour-buttons">
        <button id={ids.id("tour-back")} disabled={p.index == 0} onclick={click(|| Msg::TourBack)}>
            { lang.pick("← Back", "← 上一步") }</button>
        if let Some(t) = then {
            <button id={ids.id("tour-then")} class="primary tour-then" title={t.title.get(lang).to_string()}
                aria-label={format!("{} {}", lang.pick("Start the guided tour:", "开始导览："), t.title.get(lang))}
                onclick={{ let (cb, name) = (p.lab.clone(), t.name.clone()); Callback::from(move |_: MouseEvent| cb.emit(Msg::PickTour(name.clone()))) }}>
                { format!("{} {} →", lang.pick("Tour", "导览"), crate::lab::catalogue::tour_number(t)) }</button>
        }
        if p.previewing {
            <button id={ids.id("tour-write")} class={classes!("tour-write", if last { "primary" } else { "quiet" })} onclick={leave.clone()}>
                { lang.pick("✎ Back to writing", "✎ 回到编写") }</button>
        }
        if last {
            if !p.previewing {
                <button id={ids.id("tour-leave")} class={classes!("tour-leave", then.is_none().then_some("primary"))} onclick={leave.clone()}>
                    // A phone's strip shows "Explore" alone: the whole label would take two lines.
                    if lang == Lang::En { { "Explore" }<span class="long">{ " on your own" }</span> } else { { "自由探索" } }</button>
            }
        } else {
            <button id={ids.id("tour-next")} class={classes!((!skips).then_some("primary"))} onclick={click(|| Msg::TourNext { animate: !super::media::prefers_reduced_motion() })}>
                if skips {
                    // Next moves on without an answer, so without a verdict.
                    if lang == Lang::En { { "Skip" }<span class="long">{ " the question" }</span>{ " →" } } else { { "跳过此题 →" } }
                } else {
                    { lang.pick("Next →", "下一步 →") }
                }</button>
            if !p.previewing {
                <button id={ids.id("tour-leave")} class="tour-leave quiet" onclick={leave}>
                    { lang.pick("Leave the tour", "退出导览") }</button>
            }
        }
    </div>
    }
}

#[derive(Properties, PartialEq)]
pub(crate) struct TourPickerProps {
    /// The tour being taken, if any.
    pub(crate) current: Option<AttrValue>,
    /// Its title when it is a trainer's own (`tour-src`, `tour-file`): the menu lists it too.
    #[prop_or_default]
    pub(crate) own: Option<LocalizedText>,
    pub(crate) lab: Callback<Msg>,
}

/// The tour menu, in tour order, and while no tour runs (or only the opening story) a button
/// that starts the first tour.
#[function_component(TourPicker)]
pub(crate) fn tour_picker(p: &TourPickerProps) -> Html {
    let lang = use_lang();
    let ids = use_ids();
    let tours = use_memo((), |_| crate::lab::catalogue::tours());
    let load = p.lab.reform(Msg::PickTour);
    let pick = super::config::use_commit_select(
        p.current.as_deref().unwrap_or_default().to_string(),
        load,
    );
    // The story the untouched view plays is no tour the reader took: the button shows over it.
    let touring = p.current.as_deref().is_some_and(|c| c != super::STORY);
    let start = first_tour(&tours).filter(|_| !touring).map(|first| {
        let (cb, name) = (p.lab.clone(), first.name.clone());
        let onclick = Callback::from(move |_: MouseEvent| cb.emit(Msg::PickTour(name.clone())));
        html! {
            <button id={ids.id("tour-start")} class="primary" {onclick} title={first.title.get(lang).to_string()}>
                { lang.pick("Start the guided tour", "开始导览") }</button>
        }
    });
    html! {
        <div class="tour-menu">
            <label class="tour-picker">
                <span>{ lang.pick("Guided tour", "导览") }</span>
                <select id={ids.id("tour-pick")} onchange={pick.onchange} onkeydown={pick.onkeydown}
                    onfocusout={pick.onfocusout} onpointerdown={pick.onpointerdown} aria-label={lang.pick("Guided tour", "导览")}>
                    <option value="" selected={p.current.is_none()}>{ lang.pick("— choose a tour —", "— 选择一个导览 —") }</option>
                    if let Some(own) = &p.own {
                        <option value={p.current.clone().unwrap_or_default()} selected=true disabled=true>{ own.get(lang) }</option>
                    }
                    { for tours.iter().map(|t| html! {
                        <option value={t.name.clone()} selected={p.own.is_none() && p.current.as_deref() == Some(t.name.as_str())}>{ t.title.get(lang) }</option>
                    }) }
                </select>
            </label>
            { for start }
        </div>
    }
}
