#!/usr/bin/env bash
# Runs the component tests (tests/web, one binary) a subject at a time, each in a page of its own:
# a test that fails leaves its apps in the page, and only its own subject's tests share that page.
# Then checks that the runs together passed every test the binary has: a test outside a subject's
# module (in main.rs) or a subject the filter misses would otherwise never run.
set -euo pipefail
cd "$(dirname "$0")/.."
declared=$(cat tests/web/*.rs | grep -c 'wasm_bindgen_test\]')
passed=0
for file in tests/web/*.rs; do
  subject=$(basename "$file" .rs)
  [ "$subject" = main ] && continue
  log=$(mktemp)
  cargo test --target wasm32-unknown-unknown --test web -- "$subject::" 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { rm -f "$log"; exit 1; }
  n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$log" | tail -1)
  rm -f "$log"
  passed=$((passed + ${n:-0}))
done
if [ "$passed" -ne "$declared" ]; then
  echo "web-tests: $passed tests passed by subject, but tests/web declares $declared" >&2
  exit 1
fi
echo "web-tests: all $declared component tests passed, one page per subject"
