//! Shareable moments: a URL fragment that names a scenario (or carries one), its seed, the
//! actions taken and the time reached, e.g.
//! `#scenario=crash-one-of-three&seed=7&t=1m30s&actions=%5B%5B60000%2C%7B%22do%22...`.
//! Opening it replays the same timeline, so the page shows exactly that state. A moment of an
//! experiment the scenario offers (Things to try) names it (`try=1`) rather than listing its
//! actions, which may still lie ahead of the moment.

use serde::de::IgnoredAny;
use serde_json::Value as Json;
use serde_path_to_error::Segment;

use crate::contract::scenario::{self, parse_time, Action, Scenario};
use crate::duration::format_ms;
use crate::quote::{clip, quote};
use crate::sim::timeline::Timeline;

/// The keys of a fragment that is a moment of the lab; a fragment with none of them is some
/// other anchor of the page (`#install`), not a broken link.
const KEYS: &[&str] = &["scenario", "file", "seed", "try", "t", "actions"];

/// The longest a message quotes of a parser's error about a link.
const ERROR_MAX_CHARS: usize = 200;

/// Whether `fragment` (with or without `#`) is meant as a moment of the lab: one of its
/// `&`-separated parts has a key of ours. Anything else is left to the page, silently.
pub fn is_moment(fragment: &str) -> bool {
    parts(fragment).any(|part| KEYS.contains(&part.split_once('=').map_or(part, |(k, _)| k)))
}

fn parts(fragment: &str) -> impl Iterator<Item = &str> {
    fragment.trim_start_matches('#').split('&').filter(|p| !p.is_empty())
}

/// Where the scenario comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file of `scenarios/`, by name.
    Builtin(String),
    /// A whole scenario file (the configuration form's sandbox).
    Inline(String),
}

/// A moment of a scenario, as a link to it names it (`#scenario=…&t=…`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    /// Where the scenario comes from.
    pub source: Source,
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// The instant (virtual ms).
    pub time_ms: u64,
    /// The scenario's experiment set up (its index): its actions are taken first, at their
    /// instants, before or after the moment alike.
    pub experiment: Option<usize>,
    /// (instant, action) in the order they were applied.
    pub actions: Vec<(u64, Action)>,
}

/// Percent-encodes everything but RFC 3986's unreserved characters.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes percent escapes; an invalid escape or non-UTF-8 text says why.
pub fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3).ok_or("a % is not followed by two hex digits")?;
            out.push(
                u8::from_str_radix(hex, 16)
                    .map_err(|_| format!("%{hex} is not a percent escape"))?,
            );
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the text is not UTF-8".to_string())
}

impl Moment {
    /// The fragment, without the leading `#`.
    pub fn encode(&self) -> String {
        let mut parts = vec![match &self.source {
            Source::Builtin(name) => format!("scenario={}", percent_encode(name)),
            Source::Inline(text) => format!("file={}", percent_encode(text)),
        }];
        if let Some(seed) = self.seed {
            parts.push(format!("seed={seed}"));
        }
        if let Some(i) = self.experiment {
            parts.push(format!("try={i}"));
        }
        parts.push(format!("t={}", format_ms(self.time_ms)));
        if !self.actions.is_empty() {
            let list: Vec<Json> = self
                .actions
                .iter()
                .map(|(at, a)| {
                    Json::Array(vec![
                        Json::from(*at),
                        serde_json::to_value(a).expect("actions serialise"),
                    ])
                })
                .collect();
            parts.push(format!("actions={}", percent_encode(&Json::Array(list).to_string())));
        }
        parts.join("&")
    }

    /// Reads a fragment (with or without `#`); every error names the part at fault, on one line.
    /// A fragment that is not a moment at all ([`is_moment`]) is an error here too: check that
    /// first.
    pub fn decode(fragment: &str) -> Result<Moment, String> {
        Self::decode_parts(fragment).map_err(crate::quote::one_line)
    }

    fn decode_parts(fragment: &str) -> Result<Moment, String> {
        let mut source = None;
        let (mut seed, mut time_ms, mut actions, mut experiment) = (None, 0, Vec::new(), None);
        for part in parts(fragment) {
            let (key, raw) = part
                .split_once('=')
                .ok_or_else(|| format!("link: {} is not key=value", quote(part)))?;
            if !KEYS.contains(&key) {
                return Err(format!("link: unknown part {}", quote(key)));
            }
            let value = percent_decode(raw).map_err(|e| format!("link: {key}: {e}"))?;
            match key {
                "scenario" => source = Some(Source::Builtin(value)),
                "file" => source = Some(Source::Inline(value)),
                "seed" => {
                    seed = Some(value.parse().map_err(|_| {
                        format!("link: seed: {} is not a non-negative integer", quote(&value))
                    })?)
                }
                "try" => {
                    experiment = Some(value.parse().map_err(|_| {
                        format!("link: try: {} is not the number of an experiment", quote(&value))
                    })?)
                }
                // The same ceiling as scenario files: a link cannot hang the page.
                "t" => time_ms = parse_time(&value).map_err(|e| format!("link: t: {e}"))?,
                _ => actions = decode_actions(&value)?,
            }
        }
        let source = source.ok_or("link: it names no scenario (scenario=… or file=…)")?;
        if actions.iter().any(|(at, _)| *at > time_ms) {
            return Err("link: actions: an action comes after t".to_string());
        }
        Ok(Moment { source, seed, time_ms, experiment, actions })
    }

    /// The scenario (a shipped one is looked up among the shipped texts, `lab::shipped`), its timeline
    /// replayed to this moment.
    pub fn restore(&self) -> Result<(Scenario, Timeline), String> {
        let mut s = match &self.source {
            Source::Builtin(name) => {
                let text = crate::shipped::scenario_text(name)
                    .ok_or_else(|| format!("link: scenario: unknown scenario {}", quote(name)))?;
                scenario::parse(text).map_err(|e| format!("link: scenario: {e}"))?
            }
            Source::Inline(text) => {
                scenario::parse(text).map_err(|e| format!("link: file: {e}"))?
            }
        };
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        let mut actions = match self.experiment {
            None => Vec::new(),
            Some(i) => s.experiments.get(i).map(|e| e.actions()).ok_or_else(|| {
                format!(
                    "link: try: the scenario offers {} experiments, not number {i}",
                    s.experiments.len()
                )
            })?,
        };
        actions.extend(self.actions.iter().cloned());
        // Stable: at one instant, the experiment's actions first.
        actions.sort_by_key(|(at, _)| *at);
        let mut tl = Timeline::new(&s);
        for (at, action) in actions {
            tl.run_until(at);
            // A refusal replays as the reader saw it: its event, the world unchanged.
            let _ = tl.act(action);
        }
        // Back to the moment when an experiment's actions lie ahead of it: they replay on.
        match self.time_ms < tl.world().now() {
            true => tl.seek(self.time_ms),
            false => tl.run_until(self.time_ms),
        }
        Ok((s, tl))
    }
}

/// A link's `actions`: `[[ms, action], …]` in time order, read once by serde; refused as it
/// always was: the list's syntax or shape first, then an action out of order, then an action's
/// field (read by a file's rules, named below `actions[i]`).
fn decode_actions(text: &str) -> Result<Vec<(u64, Action)>, String> {
    let list_error =
        |e: &serde_json::Error| format!("link: actions: {}", clip(&e.to_string(), ERROR_MAX_CHARS));
    let mut de = serde_json::Deserializer::from_str(text);
    let e = match serde_path_to_error::deserialize::<_, Vec<(u64, Action)>>(&mut de) {
        Ok(list) => {
            de.end().map_err(|e| list_error(&e))?;
            let ats: Vec<u64> = list.iter().map(|(at, _)| *at).collect();
            return match out_of_order(&ats) {
                Some(i) => Err(format!("link: actions[{i}]: out of order")),
                None => Ok(list),
            };
        }
        Err(e) => e,
    };
    // The list as a whole, its actions left unread: its syntax and shape come first.
    let shape: Vec<(u64, IgnoredAny)> = serde_json::from_str(text).map_err(|e| list_error(&e))?;
    let mut segments = e.path().iter();
    let syntax = e.inner().classify() != serde_json::error::Category::Data;
    let (false, Some(Segment::Seq { index })) = (syntax, segments.next()) else {
        return Err(list_error(e.inner()));
    };
    let ats: Vec<u64> = shape.iter().take(index + 1).map(|(at, _)| *at).collect();
    if let Some(i) = out_of_order(&ats) {
        return Err(format!("link: actions[{i}]: out of order"));
    }
    // Below the pair's second element: the action.
    segments.next();
    let msg = scenario::without_position(e.inner());
    let at =
        scenario::located_below(&format!("actions[{index}]"), &scenario::path_text(segments), msg);
    Err(format!("link: {}", clip(&at, ERROR_MAX_CHARS)))
}

/// The first of `ats` earlier than the one before it.
fn out_of_order(ats: &[u64]) -> Option<usize> {
    (1..ats.len()).find(|&i| ats[i] < ats[i - 1])
}
