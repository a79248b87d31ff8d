//! The explainer UI (Yew function components). It holds the core's [`Lab`] as one reducible
//! state: components read it and send it [`Msg`]s; every rule stays in the core.

#[macro_use]
mod lazy;
mod address;
mod author;
pub mod bitmap;
mod browser;
mod checker;
mod config;
mod controls;
mod experiments;
mod failure;
mod frame;
mod handout;
pub(crate) mod hooks;
pub(crate) mod ids;
#[doc(hidden)]
pub mod inspector;
mod keyboard;
mod lang;
mod link;
mod listener;
mod live;
pub mod media;
pub mod mount;
mod notice;
mod pager;
mod panels;
#[cfg(feature = "ssr")]
pub mod poster;
pub(crate) mod predict;
mod reveal;
mod spots;
mod stage;
pub mod table;
mod topbar;
pub(crate) mod tour;

use std::rc::Rc;

use yew::prelude::*;

use crate::lab::embed::Theme;
use crate::lab::parts::{Part, Spot};
use crate::lab::{Msg, View};
use crate::lang::Lang;

pub use crate::lab::sandbox::{cluster_scenario, Settings};
pub(crate) use frame::Frame;
// The components reach the language as `super::use_lang` (or `super::super::`).
pub(crate) use lang::use_lang;
use lang::LangProvider;

/// The tour the untouched page and embeds open on, moving on by itself.
pub use crate::lab::STORY;

#[derive(Properties, PartialEq, Clone)]
pub struct AppProps {
    /// The scenario to open (a name of `scenarios/`); the default one when absent or unknown.
    #[prop_or_default]
    pub scenario: Option<AttrValue>,
    /// A link fragment (`#scenario=…&t=…&actions=…`) to open at that moment.
    #[prop_or_default]
    pub link: Option<AttrValue>,
    /// Start playing at once.
    #[prop_or_default]
    pub autoplay: bool,
    /// The story without the editing controls (`?controls=minimal`).
    #[prop_or_default]
    pub minimal: bool,
    /// What was wrong with the page's URL parameters, to show.
    #[prop_or_default]
    pub problems: Vec<AttrValue>,
    /// The language the lab opens in; the reader can switch it.
    #[prop_or_default]
    pub lang: Lang,
    /// A guided tour (a name of `tours/`) to start; wins over `scenario`.
    #[prop_or_default]
    pub tour: Option<AttrValue>,
    /// The tour step to open at, from 1.
    #[prop_or_default]
    pub step: Option<usize>,
    /// A trainer's tour file to fetch and take (`tour-src`); wins over `tour` and `scenario`.
    #[prop_or_default]
    pub tour_src: Option<AttrValue>,
    /// A trainer's tour file itself (`tour-file`); wins over `tour_src`.
    #[prop_or_default]
    pub tour_file: Option<AttrValue>,
    /// A forced theme, for this instance only.
    #[prop_or_default]
    pub theme: Theme,
    /// The panels to show (names of [`crate::lab::embed::PANELS`]); all when absent.
    #[prop_or_default]
    pub panels: Option<Rc<Vec<Part>>>,
    /// The lab's own page, when this instance is embedded in another one: links to a moment
    /// point there, and the host page's address is left alone.
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
    /// This instance is the page (`index.html`): the main landmark (`static/page-height.js` reports
    /// its height to a host page that frames it).
    #[prop_or_default]
    pub(crate) report_height: bool,
    /// The width of the stage the first view drew (mount.rs): the live stage starts at it, so
    /// that replacing the first view moves nothing.
    #[prop_or_default]
    pub(crate) stage_width: Option<f64>,
    /// The scenario file of the cluster imported in this tab, as the page's storage kept it (the
    /// lab's own page only): what `#imported` opens.
    #[prop_or_default]
    pub(crate) imported: Option<AttrValue>,
    /// The tour as a handout (`print`), when `tour` names one; else the lab (whose notice says
    /// what could not be opened).
    #[prop_or_default]
    pub print: bool,
    /// Where a handout prints the answers to its questions (`answers=`).
    #[prop_or_default]
    pub answers: crate::lab::handout::AnswersAt,
    /// The clicks the first view's Play and Next took before the app arrived (mount.rs), to
    /// carry out, and the one the focus was on (`play`, `next`).
    #[prop_or_default]
    pub(crate) kept: Option<AttrValue>,
    #[prop_or_default]
    pub(crate) kept_focus: Option<AttrValue>,
}

impl AppProps {
    /// The props for validated settings (URL parameters, `mount` options or attributes).
    pub(crate) fn from_options(
        o: crate::lab::embed::PageOptions,
        link: Option<String>,
        problems: Vec<String>,
    ) -> Self {
        // Asked for nothing in particular, the page and an embed open on the story, playing:
        // most readers never click, so the untouched view has to teach by itself.
        let own = o.tour_src.is_some() || o.tour_file.is_some();
        let untouched =
            o.tour.is_none() && o.scenario.is_none() && link.is_none() && o.step.is_none() && !own;
        // A handout is of the tour asked for, not of the story an untouched page plays.
        let print = o.print && (o.tour.is_some() || own);
        let o = match untouched {
            true => {
                crate::lab::embed::PageOptions { tour: Some(STORY.into()), autoplay: true, ..o }
            }
            false => o,
        };
        AppProps {
            scenario: o.scenario.map(Into::into),
            link: link.map(Into::into),
            autoplay: o.autoplay,
            minimal: o.minimal,
            problems: problems.into_iter().map(Into::into).collect(),
            lang: o.lang,
            tour: o.tour.map(Into::into),
            step: o.step,
            // A file given inline is taken; an address only if there is none.
            tour_src: o.tour_src.filter(|_| o.tour_file.is_none()).map(Into::into),
            tour_file: o.tour_file.map(Into::into),
            theme: o.theme,
            panels: o.panels.map(Rc::new),
            home: None,
            report_height: false,
            stage_width: None,
            imported: None,
            print,
            answers: o.answers,
            kept: None,
            kept_focus: None,
        }
    }

    fn shows(&self, panel: Part) -> bool {
        crate::lab::embed::shows(self.panels.as_deref().map(Vec::as_slice), panel)
    }

    /// The lab's own page (`index.html`, not an embed): its address names what the lab shows,
    /// its share link is to itself and an import is kept in the tab's storage.
    fn own_page(&self) -> bool {
        self.report_height && self.home.is_none()
    }
}

/// The lab, or a tour's handout when the page asks to print one.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    // A trainer's tour at an address is fetched here for a handout (the lab fetches its own).
    let src = props.tour_src.clone().filter(|_| props.print);
    let fetched = hooks::use_fetched_tour(src.clone());
    if !props.print {
        return html! { <Explorer ..props.clone() /> };
    }
    let file = props.tour_file.as_ref().map(|text| Ok(text.to_string())).or(fetched);
    // What names the tour in the handout's links: none for a file given inline.
    let (opened, key) = match (file, &src, &props.tour) {
        (None, Some(_), _) => return handout::loading(props.lang),
        (Some(text), src, _) => {
            let tour = text.and_then(|text| {
                crate::lab::tour::parse(&text, crate::lab::catalogue::scenario_text)
            });
            (
                Some(tour),
                crate::lab::tour_param(None, src.as_deref().filter(|_| props.tour_file.is_none())),
            )
        }
        (None, None, Some(name)) => {
            (crate::lab::catalogue::tour(name), crate::lab::tour_param(Some(name), None))
        }
        (None, None, None) => (None, None),
    };
    match opened {
        Some(Ok(tour)) => html! {
            <>
            <lazy::ChunkNotice lang={props.lang} />
            <handout::LazyHandout tour={Rc::new(tour)} key_query={key.map(AttrValue::from)} lang={props.lang} theme={props.theme}
                home={props.home.clone()} report_height={props.report_height} answers={props.answers} />
            </>
        },
        // The lab says what could not be opened, and opens what it opens instead.
        _ => html! { <Explorer ..props.clone() /> },
    }
}

/// The lab itself: the stage, the tour card, the controls and the panels.
#[function_component(Explorer)]
fn explorer(props: &AppProps) -> Html {
    let state = hooks::use_lab(props);
    let dispatch = state.dispatcher();
    // The same callback every render: panels whose data did not change are not re-rendered.
    let send: Callback<Msg> = dispatch.to_callback();
    let root = use_node_ref();
    let ids = ids::use_instance_ids(root.clone());
    let in_view = hooks::use_in_view(root.clone());
    let (frame, slow) = frame::use_frame(state.get().view());
    let guide = frame.touring.guide.as_deref();
    use_drivers(props, &frame, in_view, &ids, root.clone(), dispatch.clone());
    let onpointerdown = use_take_over(frame.touring.autoplay, send.clone());
    let shortcuts =
        hooks::use_shortcuts(guide.is_some(), guide.is_some_and(|g| g.waits()), dispatch);
    keyboard::use_focus_held(root.clone(), guide.is_some());
    reveal::use_step_reveal(
        root.clone(),
        guide.map(|g| (frame.generation, g.tour.name.clone(), g.index)),
        frame.touring.moving,
    );
    reveal::use_host_top(root.clone());
    let maps = frame.bitmaps.clone();
    let relative = {
        let state = state.clone();
        use_callback((), move |(), _| state.get().view().link_to_here)
    };
    use_page_address(state.clone(), props, address::shown(&frame));
    let t = frame.lang;
    let wrap = use_node_ref();
    let (picked, on_pick, on_close) = hooks::use_picked(wrap.clone());
    let onkeydown = keyboard::use_lab_keys(picked.is_some(), on_close.clone(), shortcuts);
    let details = use_node_ref();
    let on_details = use_scroll_to(details.clone());
    let card = tour_card(&frame, &send).or_else(|| writer_card(&frame, &send, props.home.clone()));
    let staged = props.shows(Part::Stage);
    let as_table = use_state(|| false);
    let spots = highlights(props, &frame, &maps, staged && !*as_table);
    html! {
        <LangProvider context={t}>
        <ContextProvider<ids::Ids> context={ids.clone()}>
        <ContextProvider<spots::Spots> context={spots}>
        <ContextProvider<live::Hush> context={live::Hush(guide.is_some_and(|g| g.verdict().is_some()))}>
        // Divs only, no landmark elements (`main`, `header`, `section`): a host page's rules for
        // those would reach a mounted lab. On its own page the lab is the main landmark.
        <div class={classes!("lab", props.minimal.then_some("minimal"), guide.is_some().then_some("touring"), frame.writing.then_some("writing"))}
            lang={t.code()} data-theme={props.theme.forced()} data-moving={frame.touring.moving.then_some("true")}
            role={props.report_height.then_some("main")} aria-label={props.report_height.then_some("kube-bootstrap-lab")}
            tabindex="-1" {onkeydown} {onpointerdown} ref={root}>
            if guide.is_some() { <keyboard::SkipToStep /> }
            { topbar::topbar(&frame, &send, &ids, props.home.as_deref(), props.minimal) }
            <controls::TimeControls
                now={frame.player.now} horizon={frame.horizon} playing={frame.player.playing} speed_exp={frame.player.speed_exp}
                forked={frame.player.forked} marks={frame.marks.clone()} lab={send.clone()} />
            <notice::Notice problems={props.problems.clone()} notice={frame.notice.clone().map(AttrValue::from)} />
            <lazy::ChunkNotice lang={t} />
            if staged {
                <div class="stage-row">
                    <div class="stage-wrap" ref={wrap.clone()} onfocusout={keyboard::close_on_leaving(wrap.clone(), on_close.clone())}>
                        { view_switch(&as_table, ids.id("stage-as-table"), t) }
                        if *as_table {
                            <table::LazyTableView frame={frame.clone()} />
                        } else {
                            <stage::Stage frame={frame.clone()} wire={frame.wire.clone()} wire_seq={frame.wire_seq}
                                generation={frame.generation} speed={frame.player.play_speed} change={frame.change.clone()}
                                on_pick={on_pick.clone()} {on_details} lab={send.clone()}
                                first_width={props.stage_width} />
                        }
                        if let Some((subject, take_focus)) = picked {
                            <inspector::LazyInspector {subject} {take_focus} frame={frame.clone()} lab={send.clone()} {on_close}
                                wire={frame.wire.clone()} on_pick={on_pick.reform(|s| (s, true))} />
                        }
                    </div>
                    { card.clone().unwrap_or_default() }
                </div>
                // The client pods, if the scenario has any: under the stage's row, so that the
                // stage keeps to one screen and a tour's card stays beside or right under it.
                if !*as_table && frame.clients.is_some() {
                    <stage::clients::LazyClientsView clients={frame.clients.clone()} now={frame.player.now} />
                }
            } else {
                { card.unwrap_or_default() }
            }
            if guide.is_none() && !frame.writing && !props.minimal && !frame.scenario.experiments.is_empty() {
                { things_to_try(&frame, &send) }
            }
            // A new scenario forgets the link shown for the old one.
            <link::ShareLink key={frame.generation} {relative} home={props.home.clone()} own_page={props.own_page()} />
            <div class="details" ref={details}>
                { grid(props, &frame, &slow, &maps, &send) }
            </div>
        </div>
        </ContextProvider<live::Hush>>
        </ContextProvider<spots::Spots>>
        </ContextProvider<ids::Ids>>
        </LangProvider>
    }
}

/// What moves the lab besides the reader's clicks on it, in this order: frames while it plays
/// and is in view, a trainer's tour once fetched from its address (`tour_src`), a tour's next
/// step after its reading pause, the host's change of language, and the clicks the first view's
/// Play and Next took before the app arrived (with the focus where it was).
#[hook]
fn use_drivers(
    props: &AppProps,
    view: &View,
    in_view: bool,
    ids: &ids::Ids,
    root: NodeRef,
    dispatch: UseReducerDispatcher<hooks::LabState>,
) {
    let send = dispatch.to_callback();
    hooks::use_play_loop(view.player.playing, in_view, dispatch.clone());
    hooks::use_tour_src(props.tour_src.clone(), props.step, send.clone());
    hooks::use_tour_autoplay(
        view.touring.autoplay_wait_ms,
        view.touring.guide.as_ref().map(|g| g.index),
        view.generation,
        in_view,
        dispatch.clone(),
    );
    use_live_lang(props.lang, send);
    let kept_focus = props
        .kept_focus
        .as_deref()
        .map(|a| ids.sel(if a == "play" { "play" } else { "tour-next" }));
    hooks::use_kept_clicks(props.kept.clone(), view.player.playing, kept_focus, root, dispatch);
}

/// On the lab's own page, the page's address follows what the lab shows (`shown`,
/// `ui::address`): as the lab says it once the change is made, read then, not from this render.
#[hook]
fn use_page_address(
    state: UseReducerHandle<hooks::LabState>,
    props: &AppProps,
    shown: address::Shown,
) {
    let read = use_callback((), move |(), _| {
        let view = state.get().view();
        (view.address, view.imported)
    });
    address::use_address(props.own_page(), shown, read, props.imported.is_some());
}

/// The button that shows the stage as a table (the same parts, in rows a screen reader reads)
/// and back.
fn view_switch(as_table: &UseStateHandle<bool>, id: String, t: Lang) -> Html {
    let onclick = {
        let as_table = as_table.clone();
        Callback::from(move |_: MouseEvent| as_table.set(!*as_table))
    };
    html! {
        <button {id} class="small view-switch" {onclick} aria-pressed={as_table.to_string()}>
            { if **as_table { t.pick("View as stage", "以舞台查看") } else { t.pick("View as table", "以表格查看") } }</button>
    }
}

/// The host changed the instance's language (`Instance::set`, the element's `lang`): the lab
/// speaks it from now on, as when the reader picks it, keeping its place. Not at opening: the
/// lab opened in it.
#[hook]
fn use_live_lang(lang: Lang, send: Callback<Msg>) {
    let opened = use_mut_ref(|| lang);
    use_effect_with(lang, move |&lang| {
        if *opened.borrow() != lang {
            *opened.borrow_mut() = lang;
            send.emit(Msg::SetLang(lang));
        }
    });
}

/// One click (or key) anywhere hands a story that plays by itself over to the reader.
#[hook]
fn use_take_over(story: bool, send: Callback<Msg>) -> Callback<PointerEvent> {
    use_callback(story, move |e: PointerEvent, &story| {
        // Play/Pause hands the story over itself, as it toggles (`Msg::TogglePlay`).
        let own = e
            .target_dyn_into::<web_sys::Element>()
            .and_then(|t| t.closest("[data-hands-over]").ok().flatten());
        if story && own.is_none() {
            send.emit(Msg::TakeOver);
        }
    })
}

/// A callback that scrolls `node` into view (the stage's "Full views" link to the details).
#[hook]
fn use_scroll_to(node: NodeRef) -> Callback<()> {
    use_callback((), move |(), _| {
        if let Some(el) = node.cast::<web_sys::Element>() {
            el.scroll_into_view();
        }
    })
}

/// Where this instance highlights the spots of the step shown, the tour's or the one being
/// written (`ui::spots`): on the stage when it is drawn (`stage`) and draws the spot, else on the
/// spot's own element, from what this instance draws.
fn highlights(
    props: &AppProps,
    frame: &Frame,
    maps: &crate::lab::Bitmaps,
    stage: bool,
) -> spots::Spots {
    let written = written_spots(frame);
    let step =
        frame.touring.guide.as_ref().map(|g| g.step().highlight.as_slice()).unwrap_or(&written);
    if step.is_empty() {
        return spots::Spots::default();
    }
    let names: Vec<String> = frame.state.apiservers.iter().map(|a| a.name.clone()).collect();
    let view = spots::View {
        stage,
        on_stage: &|s| stage::draws(frame, s),
        shows: &|p| props.shows(p),
        behavior: frame.behavior,
        apiservers: &names,
        cluster_ip_bitmap: !maps.ips.is_empty(),
        minimal: props.minimal,
        clients: stage && frame.clients.is_some(),
    };
    spots::Spots::new(step, &view)
}

/// The card of the tour being taken, if any.
fn tour_card(view: &View, send: &Callback<Msg>) -> Option<Html> {
    let touring = &view.touring;
    let g = touring.guide.as_ref()?;
    Some(html! {
        <tour::TourCard title={g.tour.title.clone()} index={g.index} len={g.tour.steps.len()} auto={touring.autoplay && g.asks().is_none()}
            offer_first_tour={g.tour.name == STORY}
            ask={g.asks().cloned()} picked={g.answered(g.index)} held={touring.held} verdict={g.verdict().map(predict::Shown::from)}
            say={g.step().say.clone()} error={touring.error.clone().map(AttrValue::from)}
            previewing={touring.previewing} lab={send.clone()} />
    })
}

/// The card of the tour being written, while the author writes it.
fn writer_card(frame: &Frame, send: &Callback<Msg>, home: Option<AttrValue>) -> Option<Html> {
    let w = frame.writer.as_ref().filter(|_| frame.writing)?;
    let apiservers =
        Rc::new(frame.state.apiservers.iter().map(|a| a.name.clone()).collect::<Vec<_>>());
    Some(html! {
        // The predicates are offered for the moment shown once the clock stops: working them out
        // on every frame of playing would read the whole state each time.
        <author::LazyWriterCard writer={author::Shared(w.clone())} now={frame.player.now} playing={frame.player.playing}
            choices={frame.wait_choices.clone().unwrap_or_default()}
            {apiservers} {home} lab={send.clone()} />
    })
}

/// The parts the step being written points at, shown as a tour step's are.
fn written_spots(view: &View) -> Vec<Spot> {
    let Some(w) = view.writer.as_ref().filter(|_| view.writing) else { return Vec::new() };
    let Some(step) = w.selected().and_then(|i| w.draft().steps.get(i)) else { return Vec::new() };
    step.highlight.iter().filter_map(|s| s.parse().ok()).collect()
}

/// The scenario's experiments, one click each ([`experiments::ThingsToTry`]).
fn things_to_try(view: &View, send: &Callback<Msg>) -> Html {
    let experiments = &view.scenario.experiments;
    let titles: Vec<_> = experiments.iter().map(|e| e.title.clone()).collect();
    let trying = view.trying.and_then(|i| Some((i, experiments.get(i)?.watch.clone())));
    let subjects: Vec<String> = view.trying_subjects.iter().map(ToString::to_string).collect();
    html! { <experiments::LazyThingsToTry {titles} {trying} {subjects} lab={send.clone()} /> }
}

/// The panels this instance shows (`panels=`), in their order.
fn grid(
    props: &AppProps,
    frame: &Frame,
    slow: &Rc<Frame>,
    maps: &Rc<crate::lab::Bitmaps>,
    send: &Callback<Msg>,
) -> Html {
    let shows = |panel: Part| props.shows(panel);
    let cidrs = frame.behavior.ip_addresses() && shows(Part::ServiceCidrs);
    html! {
        <div class={classes!("grid", cidrs.then_some("with-cidrs"))}>
            if shows(Part::Apiservers) {
                <panels::Apiservers state={frame.state.clone()} marks={frame.marks.clone()} allowed={frame.allowed.clone()}
                    lease_ttl_ms={frame.lease_ttl_ms} reconciler={frame.reconciler} behavior={frame.behavior} lab={send.clone()} />
            }
            if shows(Part::KubernetesService) {
                <panels::KubernetesService state={frame.state.clone()} events={frame.events.clone()} reconciler={frame.reconciler}
                    change={frame.change.clone()} lab={send.clone()} />
            }
            if shows(Part::Etcd) {
                <panels::Etcd state={frame.state.clone()} lease_ttl_ms={frame.lease_ttl_ms} behavior={frame.behavior} lab={send.clone()} />
            }
            if shows(Part::Events) { <panels::EventFeed events={slow.events.clone()} /> }
            if shows(Part::Bitmaps) {
                <panels::Bitmaps maps={maps.clone()} behavior={frame.behavior} now={frame.state.time_ms}
                    sweep={frame.repair_runs()} lab={send.clone()} />
            }
            if cidrs { <panels::ServiceCidrs state={slow.state.clone()} lab={send.clone()} /> }
            if shows(Part::Services) { <panels::Services state={slow.state.clone()} lab={send.clone()} /> }
            if shows(Part::Pods) { <panels::Pods state={slow.state.clone()} lab={send.clone()} /> }
            if shows(Part::Import) { <panels::Import lab={send.clone()} home={props.home.clone()} own_page={props.own_page()} /> }
        </div>
    }
}
