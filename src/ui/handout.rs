//! A tour as a handout (`?tour=NAME&print`): every step, with its number, instant and narration
//! in the reader's language, above a still picture of the stage at that instant, laid out for
//! the browser's print to PDF (static/handout.css). The steps and their pictures come from the
//! core's [`crate::lab::handout`]; the stage is the live one's component, drawn still.

use std::rc::Rc;

use yew::prelude::*;

use crate::duration::format_ms;
use crate::lab::embed::Theme;
use crate::lab::handout::{self, AnswersAt, HandoutStep};
use crate::lab::parts::Spot;
use crate::lab::tour::Tour;
use crate::lab::Lang;

use super::ids::{use_instance_ids, Ids};
use super::lang::LangProvider;
use super::spots::{self, Spots};
use super::stage::{self, Stage};

#[derive(Properties, PartialEq, Clone)]
pub(crate) struct HandoutProps {
    pub(crate) tour: Rc<Tour>,
    /// What names the tour in a query (`tour=NAME`, `tour-src=URL`): the links back to the lab.
    /// None for a tour given inline, which no address opens.
    #[prop_or_default]
    pub(crate) key_query: Option<AttrValue>,
    pub(crate) lang: Lang,
    #[prop_or_default]
    pub(crate) theme: Theme,
    /// The lab's own page, when embedded elsewhere: the links go there.
    #[prop_or_default]
    pub(crate) home: Option<AttrValue>,
    /// This instance is the page: the main landmark.
    #[prop_or_default]
    pub(crate) report_height: bool,
    /// Where the answers to the questions are printed, at first (`answers=`; the bar changes it).
    #[prop_or_default]
    pub(crate) answers: AnswersAt,
}

/// The page the links lead to (the lab's own, else this one) with `query`.
pub(crate) fn page_with(home: Option<&str>, query: &str) -> String {
    let here = super::browser::window().and_then(|w| w.location().href().ok());
    let page = home.map(str::to_string).or(here).unwrap_or_default();
    let page = page.split(['?', '#']).next().unwrap_or_default();
    format!("{page}?{query}")
}

/// While a trainer's tour file is fetched.
pub(crate) fn loading(t: Lang) -> Html {
    html! {
        <div class="lab handout" lang={t.code()}>
            <p class="handout-loading" role="status">{ t.pick("Loading the tour…", "正在加载导览…") }</p>
        </div>
    }
}

#[function_component(Handout)]
pub(crate) fn handout_view(p: &HandoutProps) -> Html {
    let root = use_node_ref();
    let ids = use_instance_ids(root.clone());
    let steps = {
        let tour = p.tour.clone();
        use_memo(tour, |t| handout::steps(t))
    };
    let answers = use_state_eq(|| p.answers);
    let t = p.lang;
    let title = p.tour.title.get(t).to_string();
    let back = p
        .key_query
        .as_ref()
        .map(|k| page_with(p.home.as_deref(), &format!("{k}{}", crate::lab::lang_param(t))));
    let print = Callback::from(|_: MouseEvent| {
        if let Some(w) = super::browser::window() {
            let _ = w.print();
        }
    });
    let at = *answers;
    let asks = matches!(&*steps, Ok(s) if s.iter().any(|s| s.ask.is_some()));
    let body = match &*steps {
        Ok(steps) => html! {
            <>
            <ol class="handout-steps">
                { for steps.iter().map(|s| step(s, steps.len(), t, &ids, at)) }
            </ol>
            if at == AnswersAt::End && asks {
                { answer_key(steps, t) }
            }
            </>
        },
        Err(e) => html! { <p class="notice" role="alert">{ e.clone() }</p> },
    };
    html! {
        <LangProvider context={t}>
        <div class="lab handout" lang={t.code()} data-theme={p.theme.forced()} data-answers={at.name()}
            role={p.report_height.then_some("main")} aria-label={title.clone()} tabindex="-1" ref={root}>
            <div class="handout-bar">
                if let Some(back) = back.clone() {
                    <a class="handout-back" href={back}>{ t.pick("← Back to the lab", "← 返回实验室") }</a>
                }
                <button id={ids.id("handout-print")} class="primary" onclick={print}>{ t.pick("Print", "打印") }</button>
                if asks {
                    { answers_choice(&answers, t, &ids) }
                }
                <span class="hint">{ t.pick(
                    "For A4 or Letter, portrait: each step stays whole on its page.",
                    "适用于 A4 或 Letter 纵向打印：每一步都完整地留在同一页上。") }</span>
            </div>
            <div class="handout-head">
                <p class="handout-kicker">{ t.pick("kube-bootstrap-lab · guided tour", "kube-bootstrap-lab · 导览") }</p>
                <h1>{ title }</h1>
                <p class="handout-meta">{ meta(&p.tour, t) }</p>
                if let Some(back) = back {
                    <p class="handout-link">{ t.pick("Take it in the lab: ", "在实验室中体验：") }<a href={back.clone()}>{ back }</a></p>
                }
            </div>
            { body }
        </div>
        </LangProvider>
    }
}

/// The scenarios the tour shows, in order, and how many steps it has.
fn meta(tour: &Tour, t: Lang) -> Html {
    let mut names: Vec<&str> = Vec::new();
    for s in &tour.steps {
        if !names.contains(&s.scenario.as_str()) {
            names.push(&s.scenario);
        }
    }
    let n = tour.steps.len();
    html! {
        <>
            { if names.len() == 1 { t.pick("Scenario ", "场景 ") } else { t.pick("Scenarios ", "场景 ") } }
            { for names.iter().enumerate().map(|(i, name)| html! {
                <>{ if i > 0 { ", " } else { "" } }<code>{ *name }</code></>
            }) }
            { match t {
                Lang::En => format!(" · {n} steps"),
                Lang::Zh => format!(" · 共 {n} 步"),
            } }
        </>
    }
}

/// Where a still stage highlights the step's spots: on the stage, the only thing drawn.
fn spots_of(s: &HandoutStep) -> Spots {
    let view = spots::View {
        stage: true,
        on_stage: &|spot| stage::draws(&s.frame, spot),
        shows: &|_| false,
        behavior: s.frame.behavior,
        apiservers: &[],
        cluster_ip_bitmap: false,
        minimal: false,
        clients: false,
    };
    Spots::new(&s.highlight, &view)
}

/// The trainer's choice of where the answers go: on a page after the last step, or upside down
/// under each question.
fn answers_choice(answers: &UseStateHandle<AnswersAt>, t: Lang, ids: &Ids) -> Html {
    let id = ids.id("handout-answers-at");
    let onchange = {
        let answers = answers.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            answers.set(AnswersAt::parse(&value).unwrap_or_default());
        })
    };
    let option = |a: AnswersAt, label: &'static str| {
        html! {
            <option value={a.name()} selected={**answers == a}>{ label }</option>
        }
    };
    html! {
        <span class="handout-answers-at">
            <label for={id.clone()}>{ t.pick("Answers:", "答案：") }</label>{ " " }
            <select id={id} {onchange}>
                { option(AnswersAt::End, t.pick("on a last page", "印在最后一页")) }
                { option(AnswersAt::UpsideDown, t.pick("upside down under each question", "倒印在每道题下方")) }
            </select>
        </span>
    }
}

/// "A", "B", … for the answer at `i`.
fn letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The step's question with its answers, each with a box to tick; upside down under it, the
/// answer with its why, when the trainer chose so.
fn question(s: &HandoutStep, t: Lang, at: AnswersAt) -> Html {
    let Some(ask) = &s.ask else { return Html::default() };
    html! {
        <div class="handout-ask">
            <p class="handout-question"><span class="handout-q">{ t.pick("Predict: ", "预测：") }</span>{ ask.question.get(t) }</p>
            <ol class="handout-choices">
                { for ask.answers.iter().enumerate().map(|(i, a)| html! {
                    <li><span class="handout-box" aria-hidden="true">{ "☐" }</span>{ format!(" {}. {}", letter(i), a.get(t)) }</li>
                }) }
            </ol>
            if at == AnswersAt::UpsideDown {
                <div class="handout-solution upside-down">{ solution(s, t) }</div>
            }
        </div>
    }
}

/// The right answer to the step's question and why.
fn solution(s: &HandoutStep, t: Lang) -> Html {
    let (Some(ask), Some((right, answer))) = (&s.ask, s.right_answer()) else {
        return Html::default();
    };
    html! {
        <>
            <p class="handout-right"><b>{ t.pick("Answer: ", "答案：") }</b>{ format!("{}. {}", letter(right), answer.get(t)) }</p>
            <p class="handout-why"><b>{ t.pick("Why: ", "原因：") }</b>{ ask.why.get(t) }</p>
        </>
    }
}

/// The answers on a page of their own after the last step: each question's step, the right
/// answer and why.
fn answer_key(steps: &[HandoutStep], t: Lang) -> Html {
    html! {
        <section class="handout-key" aria-label={t.pick("Answers", "答案")}>
            <h2>{ t.pick("Answers", "答案") }</h2>
            <ol class="handout-key-list">
                { for steps.iter().filter(|s| s.ask.is_some()).map(|s| {
                    let head = match t {
                        Lang::En => format!("Step {}", s.index + 1),
                        Lang::Zh => format!("第 {} 步", s.index + 1),
                    };
                    html! {
                        <li class="handout-key-item" data-step={(s.index + 1).to_string()}>
                            <p class="handout-key-head"><span class="handout-num">{ head }</span>{ " " }
                                { s.ask.as_ref().map(|a| a.question.get(t).to_string()).unwrap_or_default() }</p>
                            { solution(s, t) }
                        </li>
                    }
                }) }
            </ol>
        </section>
    }
}

fn step(s: &HandoutStep, len: usize, t: Lang, ids: &Ids, answers: AnswersAt) -> Html {
    let n = s.index + 1;
    let (head, at) = match t {
        Lang::En => {
            (format!("Step {n} of {len}"), format!("at {} · {}", format_ms(s.time_ms), s.scenario))
        }
        Lang::Zh => (
            format!("第 {n} 步，共 {len} 步"),
            format!("时刻 {} · {}", format_ms(s.time_ms), s.scenario),
        ),
    };
    // What the picture draws of the step's spots (the time controls, say, are not in it).
    let looks: Vec<String> = s
        .highlight
        .iter()
        .filter(|h| stage::draws(&s.frame, h))
        .map(|h: &Spot| h.label(t))
        .collect();
    let picture = match t {
        Lang::En => format!("The stage at {}, step {n}", format_ms(s.time_ms)),
        Lang::Zh => format!("第 {n} 步时（{}）的舞台", format_ms(s.time_ms)),
    };
    let noop = Callback::noop();
    html! {
        <li class="handout-step" data-step={n.to_string()}>
            <div class="handout-step-text">
                <p class="handout-step-head"><span class="handout-num">{ head }</span>{ " " }<span class="handout-time">{ at }</span></p>
                <p class="handout-say">{ s.say.get(t) }</p>
                if !looks.is_empty() {
                    <p class="handout-look">{ t.pick("Look at: ", "请看：") }{ looks.join(", ") }</p>
                }
                { question(s, t, answers) }
            </div>
            // A picture, not controls: nothing in it takes the focus or a click.
            <div class="handout-figure" role="img" aria-label={picture}>
                <div inert=true>
                    <ContextProvider<Ids> context={ids.within(&format!("step{n}-"))}>
                    <ContextProvider<Spots> context={spots_of(s)}>
                        <Stage frame={s.frame.clone()} wire={Rc::new(Vec::new())} wire_seq={0} generation={s.index as u64}
                            speed={1.0} change={crate::lab::EndpointsChange::default()} on_pick={noop.clone()}
                            on_details={Callback::noop()} still=true />
                    </ContextProvider<Spots>>
                    </ContextProvider<Ids>>
                </div>
            </div>
        </li>
    }
}

lazy_component!(pub(crate) LazyHandout(lazy_handout, load_handout) = Handout [HandoutProps] in panels);
