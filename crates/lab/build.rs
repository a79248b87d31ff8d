//! Embeds every `scenarios/*.json` and `tours/*.json` (at the top of the workspace) into the lab
//! (`lab::catalogue`), so the browser build can load them and the
//! wasm tests can run them.

use std::fs;
use std::path::Path;

fn main() {
    let mut out = String::new();
    embed(&mut out, "scenarios", "SCENARIOS", "scenario");
    embed(&mut out, "tours", "TOURS", "tour");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("builtin.rs");
    fs::write(dest, out).expect("write builtin.rs");
}

/// Appends `pub const {name}: &[(stem, text)]` holding every `{dir}/*.json`, sorted by name.
fn embed(out: &mut String, dir: &str, name: &str, what: &str) {
    // Read when the script runs, not when it was compiled: a build script compiled for another
    // checkout (a worktree sharing this target folder) would read that checkout's files.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../..").join(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    // A folder that cannot be read fails the build: an empty catalogue would build a lab
    // whose every page panics on its first scenario.
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    assert!(!files.is_empty(), "no {what} files under {}", dir.display());
    files.sort();
    out.push_str(&format!(
        "/// (file stem, file text) of every {what} under `{}/`, sorted by name.\npub const {name}: &[(&str, &str)] = &[\n",
        dir.file_name().and_then(|n| n.to_str()).unwrap_or_default()
    ));
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("UTF-8 file name");
        out.push_str(&format!("    ({stem:?}, include_str!({:?})),\n", path.display().to_string()));
    }
    out.push_str("];\n");
}
