//! Scenario files (`docs/scenario.md` §1–2): parsing, defaults and validation.
//!
//! Everything a scenario says is checked before anything runs; an error names the field path,
//! e.g. `cluster.service_cluster_ip_range: invalid CIDR "10.96.0.0/33"`. The file as written is
//! read by serde (`file`, `action`, whose values are typed in `values`); what serde cannot express is checked over the parsed
//! values: the flags (`cluster`), the preset objects (`initial`) and the steps (`step`).

mod action;
mod clients;
mod cluster;
mod experiment;
mod file;
mod initial;
mod sandbox;
mod step;
mod step_file;
mod values;

use std::net::IpAddr;

use serde_json::Value as Json;

pub use action::{
    Action, AddApiserver, ApiserverRef, Corruption, CorruptionKind, CreatePod, CreateService,
    CreateServiceCidr, FormRefusal, Isolate, NameRef, ObjectRef, Outage, ServiceCidrSpec,
    SetPodReady, SlowProxy, Stop,
};
// The model's types, which `cluster` fills from the file.
pub use crate::k8s::controlplane::{ApiserverSpec, ClusterConfig};
pub use clients::{ClientSpec, NodeSpec, MAX_CLIENTS, MAX_NODES};
pub(crate) use cluster::Taken;
pub use experiment::Experiment;
pub use initial::{Initial, PresetAllocation};
pub use sandbox::{Sandbox, SANDBOX_APISERVERS};
pub use step::check_predicate;
pub use step::{Step, StepKind};
pub use values::Millis;

use crate::duration::{format_ms, parse_ms};
use crate::k8s::api::{parse_ip, Behavior};
use crate::lang::LocalizedText;
use crate::quote::quote;

/// The ceiling of virtual time (`docs/extensions.md`, "Extension: limits of this lab"): no time or duration
/// of a scenario, and no instant of a link, may exceed it, so that every run ends in seconds.
pub const MAX_TIME_MS: u64 = 2 * 60 * 60 * 1000;
/// The shortest `cluster.endpoint_reconciler_interval`: every apiserver writes once per interval.
pub(crate) const MIN_ENDPOINT_INTERVAL_MS: u64 = 1000;
/// The shortest `cluster.repair_interval`: each repair pass reads a whole bitmap (up to 2^20
/// bits) per family and apiserver.
pub(crate) const MIN_REPAIR_INTERVAL_MS: u64 = 10_000;

/// The most apiservers a scenario may have, in `cluster` and `add_apiserver` steps together: the
/// cost of a run grows with their number.
pub const MAX_APISERVERS: usize = 16;

/// A scenario file, read and checked (`docs/scenario.md`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// Its title, if it gives one.
    pub title: Option<LocalizedText>,
    /// What it shows, if it says.
    pub description: Option<LocalizedText>,
    /// The random seed.
    pub seed: u64,
    /// Which Kubernetes release's rules run.
    pub behavior: Behavior,
    /// The cluster's configuration: its flags and apiservers.
    pub cluster: ClusterConfig,
    /// The world the apiservers find on start.
    pub initial: Initial,
    /// The steps, in the file's order (those at one instant run in that order).
    pub steps: Vec<Step>,
    /// When the run ends (virtual ms): `until`, else the last step's instant.
    pub until_ms: u64,
    /// Things to try (`docs/extensions.md`), in the order the file gives them.
    pub experiments: Vec<Experiment>,
    /// Nodes with their kube-proxy (`docs/extensions.md`); none in the contract's scenarios.
    pub nodes: Vec<NodeSpec>,
    /// Client pods on those nodes.
    pub clients: Vec<ClientSpec>,
}

/// Parses and validates a scenario file; a rejection is one line naming the field.
pub fn parse(text: &str) -> Result<Scenario, String> {
    parse_file(text).map_err(crate::quote::one_line)
}

/// A scenario file's object given inside another file at `path` (a tour's
/// `steps[2].scenario`), read from its text there as a scenario file is; a rejection names its
/// field below `path`.
pub fn parse_at(path: &str, text: &str) -> Result<Scenario, String> {
    let e = match read_file(text).and_then(from_file) {
        Ok(s) => return Ok(s),
        Err(e) => crate::quote::one_line(e),
    };
    Err(match relative_path(&e) {
        Some(_) => format!("{path}.{e}"),
        None => format!("{path}: {e}"),
    })
}

fn parse_file(text: &str) -> Result<Scenario, String> {
    from_file(read_file(text)?)
}

/// A file's fields made a scenario: defaults filled in, everything checked.
fn from_file(file: file::File) -> Result<Scenario, String> {
    let (cluster, mut taken) = cluster::cluster_config(&file.cluster, file.behavior)?;
    let initial = initial::initial(&file.initial, &cluster, file.behavior)?;
    // Steps may name a node: the nodes are read first.
    let nodes = clients::nodes(&file.nodes)?;
    taken.set_nodes(nodes.iter().map(|n| n.name.as_str()));
    let mut steps = Vec::with_capacity(file.steps.len());
    for (i, raw) in file.steps.iter().enumerate() {
        let path = format!("steps[{i}]");
        steps.push(step::step(&path, raw, &cluster, file.behavior, &mut taken)?);
    }
    let experiments = file.experiments.iter().enumerate();
    let experiments = experiments
        .map(|(i, e)| {
            experiment::read(&format!("experiments[{i}]"), e, &cluster, file.behavior, &taken)
        })
        .collect::<Result<Vec<_>, String>>()?;
    let clients = clients::clients(&file.clients, &nodes)?;
    let until_ms = match &file.until {
        Some(u) => duration("until", u)?,
        None => steps.iter().map(|s| s.at_ms).max().unwrap_or(0),
    };
    Ok(Scenario {
        name: file.name,
        title: file.title,
        description: file.description,
        seed: file.seed.unwrap_or(1),
        behavior: file.behavior,
        cluster,
        initial,
        steps,
        until_ms,
        experiments,
        nodes,
        clients,
    })
}

/// Prefixes a checker's message with the field it is about.
fn field<T>(path: &str, r: Result<T, String>) -> Result<T, String> {
    r.map_err(|e| format!("{path}: {e}"))
}

/// A time or duration of the scenario, within [`MAX_TIME_MS`].
fn duration(path: &str, s: &str) -> Result<u64, String> {
    field(path, parse_time(s))
}

/// Reads a time or duration in Go's syntax (`"90s"`) that stays within [`MAX_TIME_MS`], as
/// every one of a scenario, a link (`t=`) or the CLI (`--at`) must.
pub fn parse_time(s: &str) -> Result<u64, String> {
    let ms = parse_ms(s)?;
    if ms > MAX_TIME_MS {
        return Err(format!(
            "{} exceeds {}, the longest virtual time the lab runs",
            quote(s),
            format_ms(MAX_TIME_MS)
        ));
    }
    Ok(ms)
}

/// An interval of the cluster: `default` when not given, else at least `min` (never 0: every
/// `min` is positive, so "0s" gets the same sentence as any interval too short).
fn interval(path: &str, given: Option<&str>, default: u64, min: u64) -> Result<u64, String> {
    debug_assert!(min > 0);
    let Some(s) = given else { return Ok(default) };
    let ms = duration(path, s)?;
    if ms < min {
        return Err(format!(
            "{path}: {} is shorter than {}, the shortest the lab runs",
            quote(s),
            format_ms(min)
        ));
    }
    Ok(ms)
}

fn ip_of(path: &str, s: &str) -> Result<IpAddr, String> {
    parse_ip(s).ok_or_else(|| format!("{path}: invalid IP address {}", quote(s)))
}

fn port_number(path: &str, p: i64) -> Result<i32, String> {
    if (1..=65535).contains(&p) {
        Ok(p as i32)
    } else {
        Err(format!("{path}: {p} is not a port number (1-65535)"))
    }
}

/// The file's fields, read once from its text ([`read_text`]).
fn read_file(text: &str) -> Result<file::File, String> {
    read_text(text)
}

/// Reads a JSON text as `T` once, by serde, keeping the failing field's path: `invalid JSON: …`
/// when it is no JSON (told apart by [`serde_json::Error::classify`]; a syntax error anywhere
/// in the text is told before a field's, as it always was), else the field's path and serde's
/// message without a position (a tour file's errors read as a scenario file's).
pub fn read_text<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let e = match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(t) => return de.end().map(|()| t).map_err(|e| format!("invalid JSON: {e}")),
        Err(e) => e,
    };
    // The text as a whole is JSON or not before any field is wrong (the read may have stopped
    // at a field, or within a step, before the syntax error).
    // (Read as a JSON value, whose syntax errors are the ones the contract has always told.)
    if let Err(syntax) = serde_json::from_str::<Json>(text) {
        return Err(format!("invalid JSON: {syntax}"));
    }
    if e.inner().classify() != serde_json::error::Category::Data {
        return Err(format!("invalid JSON: {}", e.inner()));
    }
    let msg = without_position(e.inner());
    // A key given twice: serde's derived readers refuse it, while the contract has always let
    // the last one count (as a JSON object read whole does).
    if msg.contains("duplicate field `") {
        return read_deduplicated(text);
    }
    Err(located(&e.path().to_string(), msg))
}

/// A JSON text with a key given twice, read as `T` with the last of each key: the text as a
/// JSON value keeps the last, and its own text (keys once, in order) is read as any text is.
/// Not the value itself: `T` is read from text alone, so its reader is compiled once.
fn read_deduplicated<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let value: Json = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
    read_text(&value.to_string())
}

/// serde_json's message for a field read from text ends with where it stood (`at line 1
/// column 12`); a message about a field never did (the path says where).
pub fn without_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let at = format!(" at line {} column {}", e.line(), e.column());
    match msg.strip_suffix(&at) {
        Some(m) if e.line() != 0 => m.to_string(),
        _ => msg,
    }
}

/// Deserialises `value` as `T`, naming the failing field below `path` (`""`: the top).
fn de<T: serde::de::DeserializeOwned>(path: &str, value: Json) -> Result<T, String> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| located_below(path, &e.path().to_string(), e.inner().to_string()))
}

/// [`located`] below `path` (`actions[0]`; `""`: the top): `path.field: message`, or `path:
/// message` when it is about the value at `path` as a whole.
pub fn located_below(path: &str, inner: &str, msg: String) -> String {
    let at = located(inner, msg);
    match (path, relative_path(&at)) {
        ("", _) => at,
        (_, Some(_)) => format!("{path}.{at}"),
        (_, None) => format!("{path}: {at}"),
    }
}

/// The path of `segments` as serde_path_to_error writes a whole path (`.` when there is none).
pub fn path_text<'a>(segments: impl Iterator<Item = &'a serde_path_to_error::Segment>) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in segments {
        if !out.is_empty() && !matches!(segment, Segment::Seq { .. }) {
            out.push('.');
        }
        out.push_str(&segment.to_string());
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// `field.path: message`, or `message` alone when it is about the value as a whole (`inner` is
/// serde_path_to_error's path, `.` at the top). serde names a missing field in the message, not
/// the path: it is moved into the path. A message that already starts with a path (an action's
/// payload, see `action::payload`) is joined to it.
fn located(inner: &str, mut msg: String) -> String {
    let mut path = Vec::new();
    if inner != "." {
        path.push(inner.to_string());
    }
    if let Some(name) = msg.strip_prefix("missing field `").and_then(|m| m.split('`').next()) {
        path.push(name.to_string());
        msg = "missing field".to_string();
    } else if let Some(rel) = relative_path(&msg) {
        path.push(rel.to_string());
        msg = msg[rel.len() + 2..].to_string();
    }
    if path.is_empty() {
        msg
    } else {
        format!("{}: {msg}", path.join("."))
    }
}

/// The field path a message starts with (`service.ports[0].port: …`), if it does. serde's own
/// messages never do: their first word is followed by a space (`invalid type: …`).
fn relative_path(msg: &str) -> Option<&str> {
    let (head, _) = msg.split_once(": ")?;
    let is_path =
        !head.is_empty() && head.chars().all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c));
    is_path.then_some(head)
}
