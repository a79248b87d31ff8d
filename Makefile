# The two commands of the README: `make serve` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER := wasm-bindgen-test-runner
export CHROMEDRIVER := /usr/bin/chromedriver
# A whole test file runs in one page; the tours and autoplay tests wait on real time.
export WASM_BINDGEN_TEST_TIMEOUT := 180
WASM := --target wasm32-unknown-unknown

.PHONY: help serve test bench setup-web setup-test test-wasm test-e2e test-native build

help:
	@echo "make serve   build the app and serve it at http://127.0.0.1:8080"
	@echo "make test    every test layer: wasm core + components in headless Chromium, e2e, native"
	@echo "make bench   allocator and repair benchmarks, natively and in headless Chromium"

setup-web:
	@scripts/setup.sh web

setup-test:
	@scripts/setup.sh test

serve: setup-web
	trunk serve --release

build: setup-web
	trunk build --release

test: setup-test test-wasm test-e2e test-scenarios test-native

# The core compiled to wasm must pass the very same tests, then the components.
test-wasm:
	cargo test $(WASM) --no-default-features --test core
	cargo test $(WASM) --test web --test web_bitmap --test web_lang --test web_embed --test web_objects --test web_inspector --test web_table

test-e2e:
	trunk build --release
	node tests/e2e/app.mjs
	node tests/e2e/axe.mjs
	node tests/e2e/tours.mjs

# Every shipped scenario through the CLI, as outside checks run them (exit 0 = all expects pass).
test-scenarios:
	cargo build --release --no-default-features --bin bootstrap-sim
	@for f in scenarios/*.json; do \
	  if target/release/bootstrap-sim run "$$f" > /dev/null; then echo "ok   $$f"; \
	  else echo "FAIL $$f"; target/release/bootstrap-sim run "$$f" | grep -B2 -A3 '"passed": false' || true; exit 1; fi; \
	done

# Last, so that the closing lines are a run with real tests. --no-default-features proves the
# core builds and passes without any web crate.
test-native:
	cargo test --lib
	cargo build --no-default-features --benches
	cargo test --no-default-features --doc
	cargo test --no-default-features --lib --test cli --test core --test scenarios --test swarm

bench: setup-test
	mkdir -p target/bench
	trunk build --release   # its post_build hook prints the weight of its staging copy
	node scripts/weight.mjs dist | tee target/bench/weight.log
	node tests/e2e/bench.mjs | tee target/bench/browser.log
	cargo bench --no-default-features | tee target/bench/native.log
	cargo test --profile bench $(WASM) --no-default-features --test wasm_bench -- --nocapture 2>&1 | tee target/bench/wasm.log
	node scripts/bench-summary.mjs target/bench/{weight,browser,native,wasm}.log
