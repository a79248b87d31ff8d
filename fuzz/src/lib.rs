//! The properties the fuzz targets of `make fuzz` check of a parser's answer: no panic, no hang
//! past the documented ceilings (libFuzzer's `-timeout`, set per target by `scripts/fuzz.sh`),
//! every rejection one message naming the field, and the world unchanged by a rejection
//! (checked by the targets that open a lab).

use lab::{Lab, Opening};

/// The top-level keys of a scenario file (`docs/scenario.md` §1).
pub const SCENARIO_KEYS: &[&str] =
    &["name", "title", "description", "seed", "behavior", "cluster", "initial", "steps", "until"];

/// The top-level keys of a tour file.
pub const TOUR_KEYS: &[&str] = &["name", "title", "scenario", "steps"];

/// The input as text; libFuzzer's non-UTF-8 inputs are for [`import::kubectl::text_of`]
/// only (every other parser takes a `&str`).
pub fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// One message: not blank, and one line (a line break echoed from the input is escaped).
pub fn one_message(what: &str, msg: &str) {
    assert!(!msg.trim().is_empty(), "{what}: an empty rejection");
    assert!(
        !msg.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']),
        "{what}: a rejection of more than one line: {msg:?}"
    );
}

/// One message that starts with one of `prefixes` (a field path, a flag, `link:`, …).
pub fn names_one_of(what: &str, msg: &str, prefixes: &[&str]) {
    one_message(what, msg);
    assert!(
        prefixes.iter().any(|p| msg.starts_with(p)),
        "{what}: the rejection names none of {prefixes:?}: {msg:?}"
    );
}

/// Whether `msg` starts with the path of a field below one of the top-level `keys`
/// (`cluster.apiservers[0].name: …`, `steps[2]: …`, `until: …`).
fn starts_with_field(msg: &str, keys: &[&str]) -> bool {
    keys.iter().any(|k| msg.strip_prefix(k).is_some_and(|rest| rest.starts_with(['.', '[', ':'])))
}

/// A scenario file's rejection (`scenario::parse`): `field.path: message`. An unknown key is
/// its own path (`bhaevior: unknown field `bhaevior`, expected one of …`). Two messages are
/// about the file as a whole and so name no field of it: `invalid JSON: …` (not JSON at all) and
/// `invalid type: …, expected a JSON object` (JSON, but no object: an array is not read as the
/// fields in order, `docs/extensions.md`).
pub fn scenario_rejection(msg: &str) {
    file_rejection("scenario", SCENARIO_KEYS, msg);
}

/// A tour file's rejection (`tour::parse`): read as a scenario file is, with a tour's keys.
pub fn tour_rejection(msg: &str) {
    file_rejection("tour", TOUR_KEYS, msg);
}

fn file_rejection(what: &str, keys: &[&str], msg: &str) {
    one_message(what, msg);
    assert!(
        starts_with_field(msg, keys)
            || names_unknown_key(msg)
            || msg.starts_with("invalid JSON: ")
            || (msg.starts_with("invalid type: ") && msg.ends_with(", expected a JSON object")),
        "{what}: the rejection names no field: {msg:?}"
    );
}

/// `k: unknown field `k`, …`: a key of the top level that is none of the format's.
fn names_unknown_key(msg: &str) -> bool {
    msg.find(": unknown field `").is_some_and(|i| {
        let key = &msg[..i];
        msg[i + 2..].starts_with(&format!("unknown field `{key}`"))
    })
}

/// The state of a lab as JSON: what "the world unchanged" compares.
pub fn lab_json(lab: &Lab) -> String {
    serde_json::to_string(&*lab.view().state).expect("the state serialises")
}

/// The lab a page opens with nothing asked of it: the default scenario at 0.
pub fn default_lab_json() -> &'static str {
    static JSON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    JSON.get_or_init(|| lab_json(&Lab::open(Opening::default()).0))
}

/// A scenario file with one field (`until`, `cluster.…`) set to `value` (a JSON string) and
/// everything else valid: a rejection must be exactly the field's path, `: `, and the parser's
/// own message.
pub fn scenario_with(behavior: &str, field: &str, value: &str) -> String {
    let v = serde_json::to_string(value).expect("a string serialises");
    let b = serde_json::to_string(behavior).expect("a string serialises");
    let (cluster, top) = match field.strip_prefix("cluster.") {
        Some(key) => (format!(r#""{key}":{v},"#), String::new()),
        None => (String::new(), format!(r#","{field}":{v}"#)),
    };
    format!(
        r#"{{"behavior":{b},"cluster":{{{cluster}"endpoint_reconciler_type":"none","apiservers":[{{"name":"a","advertise_address":"192.168.10.11"}}]}}{top}}}"#
    )
}
