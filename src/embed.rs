//! The page's URL parameters (`?scenario=…&theme=dark&controls=minimal&autoplay=1`), validated:
//! a parameter that is unknown or malformed is ignored and reported, naming it.

use crate::share::percent_decode;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    Light,
    Dark,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// A name of `scenarios/` (checked when the page opens it).
    pub scenario: Option<String>,
    pub theme: Theme,
    /// Start playing at once.
    pub autoplay: bool,
    /// `controls=minimal`: the story without the editing controls.
    pub minimal: bool,
}

/// Reads a query string (with or without `?`). Returns the options and one message per
/// parameter that was ignored.
pub fn parse_query(query: &str) -> (PageOptions, Vec<String>) {
    let mut o = PageOptions::default();
    let mut problems = Vec::new();
    for part in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, raw) = part.split_once('=').unwrap_or((part, ""));
        let value = match percent_decode(&raw.replace('+', " ")) {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("URL parameter {key}: {e}"));
                continue;
            }
        };
        let mut bad = |allowed: &str| {
            problems.push(format!(
                "URL parameter {key}: {value:?} is not one of {allowed}"
            ))
        };
        match key {
            "scenario" => o.scenario = Some(value),
            "theme" => match value.as_str() {
                "auto" => o.theme = Theme::Auto,
                "light" => o.theme = Theme::Light,
                "dark" => o.theme = Theme::Dark,
                _ => bad("auto, light, dark"),
            },
            "autoplay" => match value.as_str() {
                "" | "1" | "true" => o.autoplay = true,
                "0" | "false" => o.autoplay = false,
                _ => bad("1, true, 0, false"),
            },
            "controls" => match value.as_str() {
                "full" => o.minimal = false,
                "minimal" => o.minimal = true,
                _ => bad("full, minimal"),
            },
            other => problems.push(format!("unknown URL parameter {other:?}")),
        }
    }
    (o, problems)
}
