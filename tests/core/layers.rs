//! The layers, checked on the source: the UI reaches the simulation only through the lab's
//! door (`lab::View`, `lab::Msg` and the data types `lab` names), never through the world, the
//! control plane, the reconcilers or etcd.

use std::path::{Path, PathBuf};

const INTERNALS: [&str; 4] = ["world", "controlplane", "reconcilers", "etcd"];

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

/// The places in `text` that name `crate::<internal>` (in a `use`, a path, a re-export).
fn reaches(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        for internal in INTERNALS {
            let path = format!("crate::{internal}");
            let hit = code.match_indices(&path).any(|(i, _)| {
                !code[i + path.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if hit {
                found.push(format!("line {}: {}", n + 1, line.trim()));
            }
        }
    }
    found
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
    assert_eq!(reaches("use crate::world::Mark;").len(), 1);
    assert_eq!(reaches("let k = crate::etcd::RANGE_NODE_PORTS;").len(), 1);
    assert!(reaches("use crate::lab::{Mark, MarkKind};").is_empty());
    assert!(reaches("use crate::etcd_like::X; // crate::world").is_empty());
}
