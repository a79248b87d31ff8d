#!/usr/bin/env bash
# Runs the component tests (tests/web, one binary) a subject at a time, each in a page of its own:
# a test that fails leaves its apps in the page, and only its own subject's tests share that page.
# Two subjects run at once (WEB_JOBS), each with its own runner, driver and browser on free ports:
# most of a subject's time is starting those. A subject's output is printed whole when it ends.
# Then checks that the runs together passed every test the binary has: a test outside a subject's
# module (in main.rs) or a subject the filter misses would otherwise never run. The build and
# each subject are rows of make test's table (scripts/phase.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
declared=$(cat tests/web/*.rs | grep -c 'wasm_bindgen_test\]')
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
scripts/phase.sh "wasm: components, the build" - \
  cargo test --target wasm32-unknown-unknown --test web --no-run 2>&1 | tee "$logs/build.log"
# The runner on the built binary, as cargo runs it: cargo would hold its build lock meanwhile.
wasm=$(sed -n 's/^ *Executable tests\/web\/main.rs (\(.*\.wasm\))$/\1/p' "$logs/build.log")
[ -n "$wasm" ] || { echo "web-tests: no test binary in cargo's output" >&2; exit 1; }
export wasm
subjects=$(for f in tests/web/*.rs; do s=$(basename "$f" .rs); [ "$s" = main ] || echo "$s"; done)
# One subject: its log in $logs/SUBJECT.log, its exit code in $logs/SUBJECT.rc.
run_subject() {
  scripts/phase.sh "wasm: components, $1" tests \
    wasm-bindgen-test-runner "$wasm" "$1::" > "$2/$1.log" 2>&1
  echo $? > "$2/$1.rc"
  cat "$2/$1.log"
}
export -f run_subject
echo "$subjects" | xargs -P "${WEB_JOBS:-2}" -I{} bash -c 'run_subject "$1" "$2" || true' _ {} "$logs"
passed=0 failed=
for subject in $subjects; do
  [ "$(cat "$logs/$subject.rc" 2>/dev/null)" = 0 ] || failed="$failed $subject"
  n=$(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$logs/$subject.log" | tail -1)
  passed=$((passed + ${n:-0}))
done
if [ -n "$failed" ]; then
  echo "web-tests: these subjects failed:$failed (their output above)" >&2
  exit 1
fi
if [ "$passed" -ne "$declared" ]; then
  echo "web-tests: $passed tests passed by subject, but tests/web declares $declared" >&2
  exit 1
fi
echo "web-tests: all $declared component tests passed, one page per subject, ${WEB_JOBS:-2} at a time"
