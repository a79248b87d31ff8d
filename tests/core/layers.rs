//! The layers, checked on the source: the UI reaches the simulation only through the lab's
//! door (`lab::View`, `lab::Msg` and the data types `lab` names) and the contract's data (the
//! scenario, the state and the API objects it carries), never through the world, the timeline,
//! the control plane, the reconcilers, the allocators or etcd.

use std::path::{Path, PathBuf};

/// What the UI may name under `crate::`: the lab, the contract, the import, the shared text
/// helpers, its own modules, and of the model only the API objects and events the state holds.
const ALLOWED: [&str; 9] =
    ["lab", "contract", "import", "lang", "duration", "quote", "ui", "k8s::api", "k8s::event"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of `text` (comments left out) naming a `crate::` path that `bad` holds for, given
/// what follows `crate::` (`$crate::` and `my_crate::` are other paths).
fn lines_naming(text: &str, bad: impl Fn(&str) -> bool) -> Vec<String> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let hit = code
            .match_indices("crate::")
            .filter(|(i, _)| !code[..*i].ends_with(ident))
            .any(|(i, _)| bad(&code[i + "crate::".len()..]));
        if hit {
            found.push(format!("line {}: {}", n + 1, line.trim()));
        }
    }
    found
}

/// Whether `path` starts with the module path `module` (and not a longer name).
fn under(path: &str, module: &str) -> bool {
    path.strip_prefix(module)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// The places in `text` that name a `crate::` path the UI may not use.
fn reaches(text: &str) -> Vec<String> {
    lines_naming(&model_as_crate_path(text), |path| !ALLOWED.iter().any(|a| under(path, a)))
}

/// `text` with the crates beneath named by their own names (in scope in every module) written
/// as the `crate::` paths they are re-exported under: `k8s::etcd::…` as `crate::k8s::etcd::…`,
/// `engine::sim::…` as `crate::sim::…`.
fn model_as_crate_path(text: &str) -> String {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = text.to_string();
    for (name, keep) in [("k8s::", true), ("engine::", false)] {
        let (mut next, mut last) = (String::new(), 0);
        for (i, _) in out.match_indices(name) {
            let before = &out[..i];
            let inner = before.ends_with(ident)
                || before.strip_suffix("::").is_some_and(|b| b.ends_with(ident));
            if !inner {
                next.push_str(&out[last..i]);
                next.push_str("crate::");
                last = if keep { i } else { i + name.len() };
            }
        }
        next.push_str(&out[last..]);
        out = next;
    }
    out
}

#[test]
fn the_ui_reads_the_lab_through_its_door_only() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui"), &mut files);
    assert!(files.len() > 30, "the UI's files are found: {}", files.len());
    let mut wrong = Vec::new();
    for f in &files {
        for hit in reaches(&std::fs::read_to_string(f).unwrap()) {
            wrong.push(format!("{}: {hit}", f.display()));
        }
    }
    assert!(wrong.is_empty(), "the UI reaches past the lab:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_what_it_looks_for() {
    assert_eq!(reaches("use crate::sim::world::Mark;").len(), 1);
    assert_eq!(reaches("let k = crate::k8s::etcd::RANGE_NODE_PORTS;").len(), 1);
    assert_eq!(reaches("use crate::k8s::apiserver::X;").len(), 1);
    assert!(reaches("use crate::lab::{Mark, MarkKind};").is_empty());
    assert!(reaches("use crate::k8s::api::Behavior; // crate::sim::world").is_empty());
    assert!(reaches("$crate::json_object::Object").is_empty());
    assert_eq!(reaches("use k8s::etcd::Storage;").len(), 1);
    assert_eq!(reaches("let s = ::k8s::registry::COMPONENT;").len(), 1);
    assert!(reaches("use {k8s::api::Service, crate::lab::View};").is_empty());
    assert_eq!(reaches("use engine::sim::world::Mark;").len(), 1);
    assert!(reaches("use engine::contract::scenario::Scenario;").is_empty());
}

/// The layers of `src` in order: each may name those before it (and the shared helpers at the
/// top of `src`), never one after it. The Kubernetes model, first of all, is not scanned: it is a
/// crate of its own beneath them (`crates/k8s`), and the compiler refuses it any of their paths
/// (its `Cargo.toml` depends on no crate of the lab).
const ORDER: [&str; 2] = ["lab", "ui"];

/// The `crate::<layer>` paths in `text` that name a layer after `own`.
fn upward(text: &str, own: usize) -> Vec<String> {
    lines_naming(text, |path| ORDER[own + 1..].iter().any(|later| under(path, later)))
}

#[test]
fn no_layer_names_one_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (own, layer) in ORDER.iter().enumerate() {
        let mut files = Vec::new();
        rust_files(&root.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has files");
        for f in &files {
            for hit in upward(&std::fs::read_to_string(f).unwrap(), own) {
                wrong.push(format!("{}: {hit}", f.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "a layer names one above it:\n{}", wrong.join("\n"));
    assert_eq!(upward("use crate::ui::App;", 0).len(), 1, "the check sees lab naming ui");
    assert!(upward("use crate::contract::scenario::Scenario;", 0).is_empty());
}

/// The library's surface (issue 26): the façades, the run report and the hidden `testing`
/// module; a new `pub mod` or `pub use` in `src/lib.rs` widens it and must be meant.
#[test]
fn the_crate_root_exposes_the_facades_only() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let public: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("pub use ")))
        .map(|rest| rest.trim_end_matches(';').rsplit("::").next().unwrap_or_default())
        .collect();
    assert_eq!(public, ["lab", "ui", "contract", "import", "report", "testing"]);
}

/// `testing` re-exports the insides for the tests, benches and fuzzers: the library itself
/// never goes through it.
#[test]
fn the_library_does_not_use_its_testing_module() {
    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    let mut wrong = Vec::new();
    for f in files.iter().filter(|f| !f.ends_with("src/testing.rs")) {
        for hit in lines_naming(&std::fs::read_to_string(f).unwrap(), |path| under(path, "testing"))
        {
            wrong.push(format!("{}: {hit}", f.display()));
        }
    }
    assert!(wrong.is_empty(), "the library uses crate::testing:\n{}", wrong.join("\n"));
    assert_eq!(
        lines_naming("use crate::testing::k8s::etcd;", |path| under(path, "testing")).len(),
        1
    );
}
