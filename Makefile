# The two commands of the README: `make serve` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER := wasm-bindgen-test-runner
export CHROMEDRIVER := /usr/bin/chromedriver
# A test run is one page; the tours and autoplay tests wait on real time. The component tests
# run one page per subject (scripts/web-tests.sh).
export WASM_BINDGEN_TEST_TIMEOUT := 180
# A fresh machine builds everything once: incremental caches would only double the disk it needs.
# `CARGO_INCREMENTAL=1 make …` keeps them for a working copy.
CARGO_INCREMENTAL ?= 0
export CARGO_INCREMENTAL
WASM := --target wasm32-unknown-unknown
# Each phase of `make test` is timed (scripts/phase.sh) into PHASES, and the run ends with their
# table (scripts/phases.mjs): where its minutes go, every run.
export PHASES ?= $(CURDIR)/target/phases.tsv
P := scripts/phase.sh

.PHONY: help serve test test-phases check bench setup-web setup-test test-wasm test-e2e test-native build dist package soak soak-digests soak-swarm soak-browser fuzz

help:
	@echo "make serve   build the app and serve it at http://127.0.0.1:8080"
	@echo "make test    make check, then every test layer: wasm core + components in headless Chromium, e2e, native"
	@echo "make check   formatting, clippy -D warnings (every crate, web, poster), size rules, no stray test file"
	@echo "make dist    the build as a package for docs sites: target/package/ (folder and npm tarball)"
	@echo "make bench   allocator and repair benchmarks, natively and in headless Chromium"
	@echo "make soak    1,000 swarm traces native = wasm, 10,000 swarm seeds per behaviour, an hour in Chromium"
	@echo "make fuzz    every parser of untrusted input under libFuzzer, FUZZ_SECONDS (60) each"

setup-web:
	@scripts/setup.sh web

setup-test:
	@scripts/setup.sh test

# The release build, served with its precompressed copies (brotli, gzip) and the headers a static
# host sends (scripts/serve.mjs; the e2e tests use the same server). Rebuild and reload by hand.
serve: setup-web
	trunk build --release
	node scripts/serve.mjs dist --port 8080

build: setup-web
	trunk build --release

# The package for docs sites (scripts/dist.mjs): target/package/kube-bootstrap-lab-<version>/
# and its `npm pack` tarball beside it. `package` alone skips the setup (make test has done it).
dist: setup-web package

package:
	$(P) "release build (trunk build --release)" - trunk build --release
	$(P) "the package (scripts/dist.mjs)" - node scripts/dist.mjs

test:
	@mkdir -p "$(dir $(PHASES))" && printf '#begin\t%s\t%s\n' "$$(date +%s.%N)" "$$(. scripts/phase.sh; busy_seconds)" > "$(PHASES)"
	@rc=0; $(MAKE) --no-print-directory test-phases || rc=$$?; node scripts/phases.mjs; exit $$rc

# The phases of `make test` (each timed into PHASES; `make test` prints their table).
test-phases:
	@$(P) "setup: in all (the installs above are part of it)" - scripts/setup.sh test
	@$(P) "make check" - $(MAKE) --no-print-directory check
	@$(MAKE) --no-print-directory test-wasm test-e2e test-scenarios test-native

# The rules the tools hold, before any test: rustfmt's layout (rustfmt.toml), clippy with warnings
# as errors in each configuration that compiles different code (the core alone; the web app and
# its component tests for wasm, and the app split by use (`split`); the poster's prerender
# natively), the size rules measured on the formatted code, no file under tests/ that nothing runs, no import cycle between modules.
check:
	cargo fmt --all --check
	cd fuzz && cargo fmt --check
	cargo clippy --workspace --all-targets --no-default-features -- -D warnings
	cargo clippy $(WASM) -p kbl-lab --all-targets -- -D warnings
	cargo clippy $(WASM) --all-targets -- -D warnings
	cargo clippy $(WASM) --features split --bin kube-bootstrap-lab -- -D warnings
	cargo clippy --features ssr --bin poster --test poster -- -D warnings
	node scripts/size-rules.mjs
	node scripts/stray-tests.mjs
	node scripts/cycles.mjs

# The model and the core compiled to wasm must pass the very same tests, then the components.
test-wasm:
	$(P) "wasm: the model (kbl-k8s)" tests cargo test $(WASM) -p kbl-k8s --test model
	$(P) "wasm: the core (kbl-lab)" tests cargo test $(WASM) -p kbl-lab --test core
	scripts/web-tests.sh

# The end-to-end scripts of tests/e2e, two at a time (scripts/e2e.mjs; `node scripts/e2e.mjs NAME`
# runs some), against the release build and the package (docsites.mjs builds its sites from the
# packed tarball): after `package`.
test-e2e: package
	$(P) "e2e: the first view's weight" - node scripts/weight.mjs dist --guard
	node scripts/e2e.mjs

# Every shipped scenario through the CLI, as outside checks run them (exit 0 = all expects pass).
test-scenarios:
	$(P) "scenarios: the CLI's release build" - cargo build --release --bin bootstrap-sim
	$(P) "scenarios: each through the CLI" scenarios scripts/scenarios.sh

# Last, so that the closing lines are real tests, then the table of phases. The crates beneath
# the app depend on no web crate: their tests build and pass without one.
test-native:
	$(P) "native: the app's own" tests cargo test --lib
	$(P) "native: the model (kbl-k8s)" tests cargo test -p kbl-k8s --lib --test model
	$(P) "native: engine and import" tests cargo test -p kbl-engine -p kbl-import --lib
	$(P) "native: the poster (ssr)" tests cargo test --features ssr --test poster
	$(P) "native: the benches build" - cargo build -p kbl-lab --benches
	$(P) "native: doc tests" tests cargo test --workspace --no-default-features --doc
	$(P) "native: the core, CLI, scenarios, swarm" tests cargo test -p kbl-lab --lib --test cli --test core --test scenarios --test swarm

bench: setup-test
	mkdir -p target/bench
	trunk build --release   # its post_build hook prints the weight of its staging copy
	node scripts/weight.mjs dist | tee target/bench/weight.log
	node tests/e2e/bench.mjs | tee target/bench/browser.log
	node tests/e2e/load.mjs | tee target/bench/load.log   # the first view and first uses on a slow link, served brotli then gzip
	cargo bench -p kbl-lab | tee target/bench/native.log
	cargo test --profile bench $(WASM) -p kbl-lab --test wasm_bench -- --nocapture 2>&1 | tee target/bench/wasm.log
	node scripts/bench-summary.mjs target/bench/{weight,browser,native,wasm,load}.log

# Fuzzing (fuzz/, cargo-fuzz with libFuzzer on nightly): every parser of untrusted input for
# FUZZ_SECONDS each, one target after the other; fails on any crash, timeout or out-of-memory
# (findings in fuzz/artifacts/<target>/). See scripts/fuzz.sh for the per-input ceilings.
FUZZ_SECONDS ?= 60

fuzz:
	@scripts/setup.sh fuzz
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# Long runs (about 90 minutes on 2 cores), optimised with their checks kept (`--profile soak`).
SOAK_SEEDS ?= 10000
SOAK_BEHAVIORS ?= 1.20 1.29 1.33 1.35
soak: setup-test soak-digests soak-swarm soak-browser

# All 1,000 committed swarm digests, natively and in wasm (make test compares 50).
soak-digests:
	SWARM_DIGEST_SEEDS=1000 cargo test --profile soak -p kbl-lab --test core swarm_digests -- --nocapture
	SWARM_DIGEST_SEEDS=1000 WASM_BINDGEN_TEST_TIMEOUT=3600 cargo test --profile soak $(WASM) -p kbl-lab --test core swarm_digests -- --nocapture

# SOAK_SEEDS swarm seeds under each behaviour, one hour of virtual time each, on every core.
soak-swarm:
	for b in $(SOAK_BEHAVIORS); do \
	  SWARM_BEHAVIOR=$$b SWARM_SEEDS=$(SOAK_SEEDS) cargo test --profile soak -p kbl-lab --test swarm -- --exact swarm --nocapture; \
	done

# The app at top speed for SOAK_MINUTES (60) of wall time: a tour in a loop and random clicks.
soak-browser:
	trunk build --release
	node tests/e2e/soak.mjs
