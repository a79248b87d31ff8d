# The two commands of the README: `make serve` and `make test`. Both install what is missing first.
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER := wasm-bindgen-test-runner
export CHROMEDRIVER := /usr/bin/chromedriver
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

test: setup-test test-wasm test-e2e test-native

# The core compiled to wasm must pass the very same tests, then the components.
test-wasm:
	cargo test $(WASM) --no-default-features --test core
	cargo test $(WASM) --test web

test-e2e:
	trunk build --release
	node tests/e2e/shell.mjs

# Last, so that the closing lines are a run with real tests. --no-default-features proves the
# core builds and passes without any web crate.
test-native:
	cargo build --no-default-features --benches
	cargo test --no-default-features --doc
	cargo test --no-default-features --lib --test core

bench: setup-test
	cargo bench --no-default-features
	cargo test --profile bench $(WASM) --no-default-features --test wasm_bench -- --nocapture
