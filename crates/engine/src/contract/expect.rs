//! `expect` steps (`docs/scenario.md` §2): a partial state matched against the real one, plus
//! `events_include`, `events_exclude` and `absent`.

use serde_json::Value as Json;

use crate::k8s::event::Event;

/// Top-level lists matched by identity instead of by position.
fn identity(list: &str, item: &Json) -> Option<String> {
    let field = |k: &str| item.get(k).and_then(Json::as_str);
    match list {
        "services" | "endpoints" | "pods" | "endpoint_slices" => {
            Some(format!("{}/{}", field("namespace").unwrap_or("default"), field("name")?))
        }
        "apiservers" | "service_cidrs" => field("name").map(str::to_string),
        // Named by the canonical form, so `"fd00::0001"` finds `fd00::1`.
        "ip_addresses" => field("ip").map(|ip| {
            crate::k8s::api::parse_ip(ip).map_or_else(|| ip.to_string(), |a| a.to_string())
        }),
        _ => None,
    }
}

fn show(v: &Json) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Matches `want` against `got` at `path`, appending one line per difference.
fn matches(path: &str, want: &Json, got: &Json, out: &mut Vec<String>) {
    match (want, got) {
        (Json::Object(w), Json::Object(g)) => {
            for (k, wv) in w {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                match g.get(k) {
                    Some(gv) => matches(&p, wv, gv, out),
                    None if wv.is_null() => {}
                    None => out.push(format!("{p}: expected {}, but it is absent", show(wv))),
                }
            }
        }
        (Json::Array(w), Json::Array(g)) if w.iter().all(|v| !v.is_object() && !v.is_array()) => {
            if w != g {
                out.push(format!("{path}: expected {}, got {}", show(want), show(got)));
            }
        }
        (Json::Array(w), Json::Array(g)) if identity_list(path) => {
            for wv in w {
                let Some(id) = identity(path, wv) else {
                    out.push(format!("{path}: an entry needs a name: {}", show(wv)));
                    continue;
                };
                match g.iter().find(|gv| identity(path, gv).as_deref() == Some(id.as_str())) {
                    Some(gv) => matches(&format!("{path}[{id}]"), wv, gv, out),
                    None => out.push(format!("{path}[{id}]: expected to exist, but it does not")),
                }
            }
        }
        (Json::Array(w), Json::Array(g)) => {
            if w.len() != g.len() {
                out.push(format!(
                    "{path}: expected {} entries, got {}: {}",
                    w.len(),
                    g.len(),
                    show(got)
                ));
                return;
            }
            for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                matches(&format!("{path}[{i}]"), wv, gv, out);
            }
        }
        (Json::Number(a), Json::Number(b)) if a.as_f64() == b.as_f64() => {}
        _ => {
            if want != got {
                out.push(format!("{path}: expected {}, got {}", show(want), show(got)));
            }
        }
    }
}

fn identity_list(path: &str) -> bool {
    matches!(
        path,
        "services"
            | "endpoints"
            | "pods"
            | "apiservers"
            | "service_cidrs"
            | "ip_addresses"
            | "endpoint_slices"
    )
}

/// An event matches an entry when every given field is equal (`message_contains`: a substring).
fn event_matches(entry: &Json, e: &Json) -> bool {
    let Json::Object(fields) = entry else {
        return false;
    };
    fields.iter().all(|(k, v)| match k.as_str() {
        "message_contains" => {
            let needle = v.as_str().unwrap_or_default();
            e.get("message").and_then(Json::as_str).is_some_and(|m| m.contains(needle))
        }
        _ => e.get(k) == Some(v),
    })
}

/// The mismatches of one `expect` against `state` and the events so far; empty = passed.
pub fn check(expect: &Json, state: &Json, events: &[Event]) -> Vec<String> {
    let mut out = Vec::new();
    let Json::Object(expect) = expect else {
        return vec!["expect: must be an object".into()];
    };
    // Serialised only when asked about: tours check predicates after every instant.
    let events: Vec<Json> =
        if expect.contains_key("events_include") || expect.contains_key("events_exclude") {
            events.iter().map(|e| serde_json::to_value(e).expect("event serialises")).collect()
        } else {
            Vec::new()
        };
    for (key, want) in expect {
        match key.as_str() {
            "events_include" | "events_exclude" => {
                let include = key == "events_include";
                for (i, entry) in want.as_array().into_iter().flatten().enumerate() {
                    let found = events.iter().any(|e| event_matches(entry, e));
                    if found != include {
                        let verb = if include { "no event matches" } else { "an event matches" };
                        out.push(format!("{key}[{i}]: {verb} {}", show(entry)));
                    }
                }
            }
            "absent" => {
                for (list, names) in want.as_object().into_iter().flatten() {
                    for entry in names.as_array().into_iter().flatten() {
                        let Some(id) = identity(list, entry) else {
                            continue;
                        };
                        let exists =
                            state.get(list).and_then(Json::as_array).is_some_and(|items| {
                                items
                                    .iter()
                                    .any(|it| identity(list, it).as_deref() == Some(id.as_str()))
                            });
                        if exists {
                            out.push(format!("absent.{list}[{id}]: it exists"));
                        }
                    }
                }
            }
            _ => match state.get(key) {
                Some(got) => matches(key, want, got, &mut out),
                None => out.push(format!("{key}: not part of the state")),
            },
        }
    }
    out
}
