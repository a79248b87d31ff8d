//! How a page configures one instance of the lab — the page's URL parameters
//! (`?tour=…&lang=zh&theme=dark&controls=minimal&autoplay&panels=…`), or the same keys given to
//! `mount(element, options)` or as attributes of `<kube-bootstrap-lab>` — validated: a setting
//! that is unknown or malformed is ignored and reported, naming it.

use crate::lang::Lang;
use crate::parts::Part;
use crate::quote::{clip, quote, QUOTE_MAX_CHARS};
use crate::share::percent_decode;

/// The instance's colour theme (`theme=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    /// Light, whatever the system prefers.
    Light,
    /// Dark, whatever the system prefers.
    Dark,
}

impl Theme {
    /// The value of the instance's `data-theme` attribute (none: follow the system).
    pub fn forced(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

/// One instance's settings, as read from the page's parameters or the element's options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// A name of `scenarios/` (checked when the page opens it).
    pub scenario: Option<String>,
    /// A name of `tours/` (checked when the page opens it); wins over `scenario`.
    pub tour: Option<String>,
    /// The tour step to open at, from 1 (checked against the tour when it opens).
    pub step: Option<usize>,
    /// The language to speak (`lang=`).
    pub lang: Lang,
    /// The colour theme (`theme=`).
    pub theme: Theme,
    /// Start playing at once.
    pub autoplay: bool,
    /// `controls=minimal`: the story without the editing controls.
    pub minimal: bool,
    /// The panels to show, in the UI's order (`None`: all of them).
    pub panels: Option<Vec<Part>>,
    /// `print`: the tour as a handout, every step with the stage at its instant. Of `tour`, as
    /// `step` is: without one (or with an unknown one, which the lab's notice names) the lab opens
    /// as it would without it. Each parameter is read on its own, so this is no problem of `print`.
    pub print: bool,
    /// Where a handout prints the answers to its questions (`answers=end|upside-down`).
    pub answers: crate::handout::AnswersAt,
    /// A trainer's tour file to fetch (`tour-src`, an http(s) URL or one relative to the page);
    /// wins over `tour` and `scenario`.
    pub tour_src: Option<String>,
    /// A trainer's tour file itself (`tour-file`: a `mount()` option, or the element's inline
    /// `<script type="application/json">`); wins over `tour-src`.
    pub tour_file: Option<String>,
}

/// The longest `tour-src` read: an address, not a document.
const MAX_URL_CHARS: usize = 2048;

/// Whether `url` may be fetched as a tour: http(s), or relative to the page (no other scheme:
/// `javascript:`, `data:`, `file:`). Why not, otherwise.
pub fn tour_src_ok(url: &str) -> Result<(), String> {
    if url.trim().is_empty() || url.len() > MAX_URL_CHARS || url.chars().any(char::is_control) {
        return Err(format!("not an address of at most {MAX_URL_CHARS} characters on one line"));
    }
    let scheme = url.split_once(':').map(|(s, _)| s).filter(|s| !s.contains(['/', '?', '#']));
    match scheme.map(str::to_ascii_lowercase).as_deref() {
        None | Some("http") | Some("https") => Ok(()),
        Some(other) => Err(format!("only http and https addresses are fetched, not {other}:")),
    }
}

/// Reads a query string (with or without `?`). Returns the options and one message per
/// parameter that was ignored, in the order given.
pub fn parse_query(query: &str) -> (PageOptions, Vec<String>) {
    let mut o = PageOptions::default();
    let mut problems = Vec::new();
    for part in query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()) {
        let (key, raw) = part.split_once('=').unwrap_or((part, ""));
        match percent_decode(&raw.replace('+', " ")) {
            Ok(v) => o.set(key, &v, "URL parameter", &mut problems),
            Err(e) => problems.push(format!("URL parameter {}: {e}", clip(key, QUOTE_MAX_CHARS))),
        }
    }
    (o, one_line_each(problems))
}

/// Reads settings given as (key, value) pairs; `what` names them in messages ("URL parameter",
/// "option", "attribute").
pub fn parse_settings<K: AsRef<str>, V: AsRef<str>>(
    pairs: impl IntoIterator<Item = (K, V)>,
    what: &str,
) -> (PageOptions, Vec<String>) {
    let mut o = PageOptions::default();
    let mut problems = Vec::new();
    for (key, value) in pairs {
        o.set(key.as_ref(), value.as_ref(), what, &mut problems);
    }
    (o, one_line_each(problems))
}

/// The messages on one line each: a key or value given with a line break (an attribute may
/// hold one, a query string percent-encode one) is echoed escaped.
fn one_line_each(problems: Vec<String>) -> Vec<String> {
    problems.into_iter().map(crate::quote::one_line).collect()
}

impl PageOptions {
    /// Applies one setting, or says why it is ignored.
    fn set(&mut self, key: &str, value: &str, what: &str, problems: &mut Vec<String>) {
        let quoted = quote(value);
        let mut bad = |allowed: &str| {
            problems.push(format!("{what} {key}: {quoted} is not one of {allowed}"))
        };
        match key {
            "scenario" => self.scenario = Some(value.to_string()),
            "tour" => self.tour = Some(value.to_string()),
            "step" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => self.step = Some(n),
                _ => problems
                    .push(format!("{what} step: {} is not a step number (1, 2, …)", quote(value))),
            },
            "lang" => match Lang::parse(value) {
                Some(l) => self.lang = l,
                None => bad("en, zh"),
            },
            "theme" => match value {
                "auto" => self.theme = Theme::Auto,
                "light" => self.theme = Theme::Light,
                "dark" => self.theme = Theme::Dark,
                _ => bad("auto, light, dark"),
            },
            "autoplay" => match value {
                "" | "1" | "true" => self.autoplay = true,
                "0" | "false" => self.autoplay = false,
                _ => bad("1, true, 0, false"),
            },
            "print" => match value {
                "" | "1" | "true" => self.print = true,
                "0" | "false" => self.print = false,
                _ => bad("1, true, 0, false"),
            },
            "answers" => match crate::handout::AnswersAt::parse(value) {
                Some(a) => self.answers = a,
                None => bad("end, upside-down"),
            },
            "controls" => match value {
                "full" => self.minimal = false,
                "minimal" => self.minimal = true,
                _ => bad("full, minimal"),
            },
            "tour-src" => match tour_src_ok(value) {
                Ok(()) => self.tour_src = Some(value.to_string()),
                Err(why) => problems.push(format!("{what} tour-src: {}: {why}", quote(value))),
            },
            "tour-file" => self.tour_file = Some(value.to_string()),
            // Entries that are no panels have no effect: none valid, the setting has none.
            "panels" => {
                if let Some(chosen) = panels(value, what, problems) {
                    self.panels = Some(chosen);
                }
            }
            other => problems.push(format!("unknown {what} {}", quote(other))),
        }
    }

    /// Whether `panel` is shown.
    pub fn shows(&self, panel: Part) -> bool {
        shows(self.panels.as_deref(), panel)
    }
}

/// Bad entries of `panels=` named one by one, at most this many (then how many more).
const BAD_PANELS_NAMED: usize = 5;

/// The panels `value` names, in the UI's order; `None` when it names none. Each entry that is
/// no panel is named in `problems`, the others are kept.
fn panels(value: &str, what: &str, problems: &mut Vec<String>) -> Option<Vec<Part>> {
    let names: Vec<&str> = value.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        problems.push(format!("{what} panels: it is empty, so all panels are shown"));
        return None;
    }
    let panel = |n: &str| n.parse::<Part>().ok().filter(|p| p.is_panel());
    let mut bad: Vec<&str> = names.iter().copied().filter(|n| panel(n).is_none()).collect();
    let mut seen = std::collections::BTreeSet::new();
    bad.retain(|n| seen.insert(*n));
    let list: Vec<&str> = Part::PANELS.iter().map(|p| p.as_str()).collect();
    for n in bad.iter().take(BAD_PANELS_NAMED) {
        let one_of = list.join(", ");
        problems.push(format!("{what} panels: {} is not a panel (one of {one_of})", quote(n)));
    }
    if bad.len() > BAD_PANELS_NAMED {
        let more = bad.len() - BAD_PANELS_NAMED;
        problems.push(format!("{what} panels: and {more} more that are not panels"));
    }
    let chosen: Vec<Part> = names.iter().filter_map(|n| panel(n)).collect();
    let in_order: Vec<Part> = Part::PANELS.iter().copied().filter(|p| chosen.contains(p)).collect();
    (!in_order.is_empty()).then_some(in_order)
}

/// Whether `panel` is shown when `panels` were chosen (`None`: all are).
pub fn shows(panels: Option<&[Part]>, panel: Part) -> bool {
    panels.is_none_or(|p| p.contains(&panel))
}

/// The settings an instance changes in place, keeping the reader's place (tour step, clock,
/// state): a host page's dark switch or language switch. `None`: not given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveSettings {
    /// The colour theme to switch to.
    pub theme: Option<Theme>,
    /// The language to switch to.
    pub lang: Option<Lang>,
}

/// The keys [`parse_live`] takes; any other setting opens another lab, so it is refused here.
pub const LIVE_KEYS: [&str; 2] = ["theme", "lang"];

/// Reads settings to apply to a running instance: `theme` and `lang`, each validated as when
/// the lab opens (the same messages); anything else is named and ignored.
pub fn parse_live<K: AsRef<str>, V: AsRef<str>>(
    pairs: impl IntoIterator<Item = (K, V)>,
    what: &str,
) -> (LiveSettings, Vec<String>) {
    let mut live = LiveSettings::default();
    let mut problems = Vec::new();
    for (key, value) in pairs {
        let (key, value) = (key.as_ref(), value.as_ref());
        if !LIVE_KEYS.contains(&key) {
            let keys = LIVE_KEYS.join(", ");
            problems.push(format!(
                "{what} {}: only {keys} change in place; set it when the lab opens",
                quote(key)
            ));
            continue;
        }
        let mut o = PageOptions::default();
        let before = problems.len();
        o.set(key, value, what, &mut problems);
        if problems.len() == before {
            match key {
                "theme" => live.theme = Some(o.theme),
                _ => live.lang = Some(o.lang),
            }
        }
    }
    (live, one_line_each(problems))
}
