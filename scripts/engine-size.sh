#!/usr/bin/env bash
# The weight of the engine alone: a wasm module of the core with no UI (no Yew, no web-sys) that
# parses a scenario, runs a timeline, seeks and serialises the state, built and optimised as the
# app is (opt-level z, LTO, wasm-bindgen, wasm-opt -Oz). Prints its raw and gzip size: the part of
# the page's weight that no UI choice can remove (issue 12's closing note).
# Usage: scripts/engine-size.sh   (after scripts/setup.sh test; takes about a minute)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/target/engine-size
export PATH=$root/node_modules/.bin:$HOME/.cargo/bin:$PATH
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "engine-size"
version = "0.0.0"
edition = "2021"
publish = false
[lib]
crate-type = ["cdylib"]
[dependencies]
kbl-lab = { path = "$root/crates/lab" }
kbl-engine = { path = "$root/crates/engine" }
wasm-bindgen = "0.2"
serde_json = "1"
[profile.release]
opt-level = "z"
lto = true
codegen-units = 1
panic = "abort"
[workspace]
TOML
cat > "$dir/src/lib.rs" <<'RS'
use wasm_bindgen::prelude::*;

/// What the page needs of the core: a shipped scenario by name or a scenario file, run, a seek
/// back, the state as JSON; the tours, parsed.
#[wasm_bindgen]
pub fn run(name_or_text: &str, until_ms: u64) -> Result<String, String> {
    let s = match lab::catalogue::scenario(name_or_text) {
        Some(s) => s,
        None => engine::contract::scenario::parse(name_or_text)?,
    };
    let mut tl = engine::sim::timeline::Timeline::new(&s);
    tl.run_until(until_ms);
    tl.seek(until_ms / 2);
    let state = serde_json::to_string(&tl.world().state()).map_err(|e| e.to_string())?;
    Ok(format!("{state} {}", lab::catalogue::tours().len()))
}
RS
(cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build --quiet --release --target wasm32-unknown-unknown)
wasm-bindgen --target web --out-dir "$dir/out" "$dir/target/wasm32-unknown-unknown/release/engine_size.wasm"
wasm-opt -Oz "$dir/out/engine_size_bg.wasm" -o "$dir/out/engine.opt.wasm"
raw=$(stat -c %s "$dir/out/engine.opt.wasm")
gz=$(gzip -9c "$dir/out/engine.opt.wasm" | wc -c)
echo "the engine alone (no UI): wasm $raw bytes raw, $gz bytes gzip -9 ($((gz / 1024)) KB)"
