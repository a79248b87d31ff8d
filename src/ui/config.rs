//! Loading a shipped scenario, or configuring a cluster of one's own. Validation is the core's
//! (`scenario::parse`): a refused setting names its field and leaves the running world as it is.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::contract::scenario::{self, Scenario, SANDBOX_APISERVERS};
use crate::k8s::api::Behavior;
use crate::lab::catalogue;
use crate::lab::inspect::words::{behavior_label, behavior_summary};
use crate::lab::sandbox::{self, Settings};
use crate::lab::share::Source;
use crate::lab::Msg;
use crate::lang::Lang;

/// A shipped scenario as the picker lists it: its name and, when it parses, the scenario (for
/// its title and description in either language).
struct Entry {
    name: String,
    scenario: Option<Scenario>,
}

impl Entry {
    fn title(&self, lang: Lang) -> String {
        self.scenario.as_ref().map_or_else(|| self.name.clone(), |s| title_of(s, lang))
    }

    fn description(&self, lang: Lang) -> Option<String> {
        self.scenario.as_ref().and_then(|s| description_of(s, lang))
    }
}

/// Every shipped scenario, parsed once.
fn catalogue() -> &'static [Entry] {
    static CATALOGUE: std::sync::OnceLock<Vec<Entry>> = std::sync::OnceLock::new();
    CATALOGUE.get_or_init(|| {
        catalogue::scenario_names()
            .map(|name| Entry { name: name.to_string(), scenario: catalogue::scenario(name) })
            .collect()
    })
}

/// The title of `s` in `lang` (else the English one, else any; its name when it has none).
fn title_of(s: &Scenario, lang: Lang) -> String {
    s.title.as_ref().map(|t| t.get(lang)).filter(|t| !t.is_empty()).unwrap_or(&s.name).to_string()
}

/// The description of `s` in `lang`, if it has one.
fn description_of(s: &Scenario, lang: Lang) -> Option<String> {
    s.description.as_ref().map(|d| d.get(lang).to_string()).filter(|d| !d.is_empty())
}

/// The events of a `<select>` that loads what it names on commit, not on every key: moving
/// through it by keyboard (arrows, type-ahead; some browsers fire `change` for each) only keeps
/// the choice pending, and Enter, leaving the menu with another value, or a pick with the
/// pointer loads it. Escape puts back the loaded value.
pub(super) struct CommitSelect {
    pub(super) onchange: Callback<Event>,
    pub(super) onkeydown: Callback<KeyboardEvent>,
    pub(super) onfocusout: Callback<FocusEvent>,
    pub(super) onpointerdown: Callback<PointerEvent>,
}

/// [`CommitSelect`] for a menu whose loaded value is `current`; `load` gets a committed value
/// other than it (and never the empty placeholder).
#[hook]
pub(super) fn use_commit_select(current: String, load: Callback<String>) -> CommitSelect {
    // A key moved the choice since the last commit: its `change` waits.
    let keyed = use_mut_ref(|| false);
    let commit = {
        let (keyed, current, load) = (keyed.clone(), current.clone(), load.clone());
        move |s: &HtmlSelectElement| {
            *keyed.borrow_mut() = false;
            let value = s.value();
            if !value.is_empty() && value != current {
                load.emit(value);
            }
        }
    };
    let onchange = {
        let (keyed, commit) = (keyed.clone(), commit.clone());
        Callback::from(move |e: Event| {
            if !*keyed.borrow() {
                commit(&e.target_unchecked_into::<HtmlSelectElement>());
            }
        })
    };
    let onkeydown = {
        let (keyed, commit) = (keyed.clone(), commit.clone());
        Callback::from(move |e: KeyboardEvent| {
            let s = e.target_unchecked_into::<HtmlSelectElement>();
            match e.key().as_str() {
                "Enter" => {
                    e.prevent_default();
                    commit(&s);
                }
                "Escape" => {
                    *keyed.borrow_mut() = false;
                    s.set_value(&current);
                }
                // Tab leaves (focusout commits); modifiers alone change nothing.
                "Tab" | "Shift" | "Control" | "Alt" | "Meta" => {}
                // Alt+↓, F4 and Space open the browser's list, whose pick is a commit.
                "ArrowDown" | "ArrowUp" if e.alt_key() => *keyed.borrow_mut() = false,
                "F4" | " " => *keyed.borrow_mut() = false,
                _ => *keyed.borrow_mut() = true,
            }
        })
    };
    let onfocusout = Callback::from(move |e: FocusEvent| {
        commit(&e.target_unchecked_into::<HtmlSelectElement>())
    });
    let onpointerdown = Callback::from(move |_: PointerEvent| *keyed.borrow_mut() = false);
    CommitSelect { onchange, onkeydown, onfocusout, onpointerdown }
}

#[derive(Properties, PartialEq)]
pub(crate) struct ConfigFormProps {
    /// The loaded scenario's name.
    pub(crate) current: String,
    /// Its title in the reader's language, when it has one: what the menu shows for a scenario
    /// of no entry of its own (an imported cluster, a tour's own scenario).
    #[prop_or_default]
    pub(crate) current_title: Option<AttrValue>,
    /// The running cluster's settings ([`Settings::of`]): what the form opens with, and
    /// shows again whenever another cluster runs.
    pub(crate) running: Settings,
    /// Where a scenario to run goes ([`Msg::Load`]).
    pub(crate) lab: Callback<Msg>,
}

/// The value of the input or select an event comes from.
fn field_value(e: &Event) -> String {
    let target = e.target().expect("event target");
    match wasm_bindgen::JsCast::dyn_ref::<HtmlInputElement>(&target) {
        Some(i) => i.value(),
        None => e.target_unchecked_into::<HtmlSelectElement>().value(),
    }
}

#[function_component(ConfigForm)]
pub(crate) fn config_form(p: &ConfigFormProps) -> Html {
    let ids = crate::ui::ids::use_ids();
    let lang = super::use_lang();
    // The settings as typed, with the running cluster's they were taken from: read and written
    // where they are used (two fields, or a field and Start, changed before a render keep
    // both), and taken afresh in the render that shows another running cluster.
    let settings = use_mut_ref(|| (p.running.clone(), p.running.clone()));
    if settings.borrow().0 != p.running {
        *settings.borrow_mut() = (p.running.clone(), p.running.clone());
    }
    let redraw = use_force_update();
    let error = use_state(|| None::<String>);
    let open = use_state(|| false);

    let load = {
        let (lab, error) = (p.lab.clone(), error.clone());
        Callback::from(move |name: String| {
            match catalogue::scenario_text(&name).map(scenario::parse) {
                Some(Ok(s)) => {
                    error.set(None);
                    lab.emit(Msg::Load(s, Source::Builtin(name)));
                }
                Some(Err(e)) => error.set(Some(format!("{name}: {e}"))),
                None => {}
            }
        })
    };
    let pick = use_commit_select(p.current.clone(), load);
    let field = |get: fn(&mut Settings) -> &mut String| {
        let (settings, redraw) = (settings.clone(), redraw.clone());
        Callback::from(move |e: Event| {
            *get(&mut settings.borrow_mut().1) = field_value(&e);
            redraw.force_update();
        })
    };
    let on_apply = {
        let (settings, error, lab) = (settings.clone(), error.clone(), p.lab.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match sandbox::load(&settings.borrow().1, lang) {
                Ok((s, text)) => {
                    error.set(None);
                    lab.emit(Msg::Load(s, Source::Inline(text)));
                }
                Err(msg) => error.set(Some(msg)),
            }
        })
    };
    let toggle = {
        let (open, settings, running) = (open.clone(), settings.clone(), p.running.clone());
        // Opened, it shows the cluster that runs (not what was typed and left unstarted).
        Callback::from(move |_: MouseEvent| {
            if !*open {
                settings.borrow_mut().1 = running.clone();
            }
            open.set(!*open)
        })
    };
    let s = &settings.borrow().1.clone();
    let current_description =
        catalogue().iter().find(|e| e.name == p.current).and_then(|e| e.description(lang));
    html! {
        // The bar's part in .config-bar; the form and its error below the whole top bar (.config
        // is `display: contents`), so opening it leaves the bar as it is.
        <div class="config">
            <div class="config-bar">
            <label for={ids.id("scenario-pick")}>{ lang.pick("Scenario", "场景") }</label>
            <select id={ids.id("scenario-pick")} title={current_description} onchange={pick.onchange}
                onkeydown={pick.onkeydown} onfocusout={pick.onfocusout} onpointerdown={pick.onpointerdown}>
                { for catalogue().iter().map(|e| html! {
                    <option value={e.name.clone()} selected={e.name == p.current}
                        title={e.description(lang)}>{ e.title(lang) }</option>
                }) }
                // A scenario of no menu entry: the configured sandbox, an imported cluster, one a tour file
                // gives inline.
                if !catalogue().iter().any(|e| e.name == p.current) {
                    <option value={p.current.clone()} selected=true>{ match (p.current.as_str(), &p.current_title) {
                        ("sandbox", _) => lang.pick("Sandbox (your settings)", "沙盒（你的设置）").to_string(),
                        (_, Some(title)) => title.to_string(),
                        (name, None) => name.to_string(),
                    } }</option>
                }
            </select>
            <button id={ids.id("configure")} onclick={toggle} aria-expanded={open.to_string()} aria-controls={ids.id("config-form")}>{ lang.pick("⚙ Configure", "⚙ 配置") }</button>
            </div>
            if *open { { settings_form(s, field, on_apply, lang, &ids) } }
            if let Some(msg) = &*error {
                <p id={ids.id("config-error")} class="error" role="alert">{ msg.clone() }</p>
            }
        </div>
    }
}

/// The configuration form: the apiserver flags it sets, the number of apiservers, the behaviour
/// and the seed. `field` makes the callback that keeps one setting as typed.
fn settings_form(
    s: &Settings,
    field: impl Fn(fn(&mut Settings) -> &mut String) -> Callback<Event>,
    on_apply: Callback<SubmitEvent>,
    lang: Lang,
    ids: &crate::ui::ids::Ids,
) -> Html {
    html! {
        <form id={ids.id("config-form")} class="config-form" onsubmit={on_apply}>
            <label for={ids.id("cfg-cidr")}>{ "--service-cluster-ip-range" }</label>
            <input id={ids.id("cfg-cidr")} value={s.service_cidr.clone()} onchange={field(|s| &mut s.service_cidr)} spellcheck="false" />
            <label for={ids.id("cfg-ports")}>{ "--service-node-port-range" }</label>
            <input id={ids.id("cfg-ports")} value={s.node_ports.clone()} onchange={field(|s| &mut s.node_ports)} spellcheck="false" />
            <label for={ids.id("cfg-reconciler")}>{ "--endpoint-reconciler-type" }</label>
            <select id={ids.id("cfg-reconciler")} onchange={field(|s| &mut s.reconciler)}>
                { for ["lease", "master-count", "none"].iter().map(|r| html! { <option value={*r} selected={s.reconciler == *r}>{ *r }</option> }) }
            </select>
            <label for={ids.id("cfg-count")}>{ lang.pick("apiservers", "apiserver 数量") }</label>
            <input id={ids.id("cfg-count")} type="number" min={SANDBOX_APISERVERS.start().to_string()} max={SANDBOX_APISERVERS.end().to_string()} value={s.apiservers.clone()} onchange={field(|s| &mut s.apiservers)} />
            <label for={ids.id("cfg-behavior")}>{ lang.pick("behaviour", "行为版本") }</label>
            <select id={ids.id("cfg-behavior")} onchange={field(|s| &mut s.behavior)} aria-describedby={ids.id("cfg-behavior-help")}>
                { for Behavior::ALL.iter().map(|&b| html! {
                    <option value={b.as_str()} selected={s.behavior == b.as_str()} title={behavior_summary(b, lang)}>{ behavior_label(b, lang) }</option>
                }) }
            </select>
            if let Ok(b) = s.behavior.parse::<Behavior>() {
                <p id={ids.id("cfg-behavior-help")} class="help">{ behavior_summary(b, lang) }</p>
            }
            <label for={ids.id("cfg-seed")}>{ lang.pick("seed", "随机种子") }</label>
            <input id={ids.id("cfg-seed")} value={s.seed.clone()} onchange={field(|s| &mut s.seed)} inputmode="numeric" />
            <button id={ids.id("cfg-apply")} type="submit" class="primary">{ lang.pick("Start this cluster", "启动这个集群") }</button>
        </form>
    }
}
