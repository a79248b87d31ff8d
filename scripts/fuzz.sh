#!/usr/bin/env bash
# `make fuzz`: replays the known reproducers (fuzz/regressions/<target>/), then runs every fuzz
# target of fuzz/ (cargo-fuzz, libFuzzer) for FUZZ_SECONDS each (default 60), one after the
# other on one core, and prints per target its executions, executions per second and findings.
# Fails when any target found a crash (a panic: a broken property), a timeout (an input past
# its ceiling below) or an out-of-memory.
#
# Ceilings (libFuzzer's -timeout, per input, wall time): 60 s for the targets that run the
# simulation (a scenario to its `until`, a link's moment, a tour's steps, an import's repair
# loops, a page's opening). docs/extensions.md "limits of this lab" promises a run "a few
# seconds at the limits" (4.2 s of CPU for the release CLI at every limit at once); the
# instrumented fuzz build runs that file (fuzz/corpus/scenario/limits.json) in about 8 s on an
# idle machine and three times that on a busy one, so 60 s is a hang, not a slow machine. An
# input over 10 s is reported (a slow-unit-* file, the `slow` column) but does not fail.
# 1 s for the parsers of one value (duration, CIDR list, port range), which take microseconds.
# Memory: -rss_limit_mb=2048.
#
# The checked-in seed corpus (fuzz/corpus/<target>/, rebuilt by fuzz/seed-corpus.sh) is only
# read; what a run adds goes to target/fuzz-corpus/<target>/ (emptied first unless
# FUZZ_KEEP_CORPUS=1) and findings to
# fuzz/artifacts/<target>/ (not checked in). FUZZ_TARGETS="scenario link" runs some targets only.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

seconds=${FUZZ_SECONDS:-60}
targets=(${FUZZ_TARGETS:-scenario duration cidr port_range link embed tour kubectl})
build=(-a -s none --target-dir "$PWD/target/fuzz")
logs=target/fuzz-logs
mkdir -p "$logs"

timeout_of() {
  case $1 in
    duration | cidr | port_range) echo 1 ;;
    *) echo 60 ;;
  esac
}
slow_of() {
  case $1 in
    duration | cidr | port_range) echo 1 ;;
    *) echo 10 ;;
  esac
}
max_len_of() {
  case $1 in
    scenario | tour | kubectl) echo 32768 ;;
    link) echo 8192 ;;
    embed) echo 2048 ;;
    *) echo 256 ;;
  esac
}
# The findings libFuzzer writes (slow-unit-* files are reports, not failures).
findings_in() {
  find "fuzz/artifacts/$1" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'leak-*' -o -name 'oom-*' \) -newer "$2" 2>/dev/null | sort
}

echo "fuzz: building ${#targets[@]} targets (cargo +nightly fuzz build ${build[*]})"
(cd fuzz && cargo +nightly fuzz build "${build[@]}" >/dev/null)

failed=0
rows=()
for t in "${targets[@]}"; do
  # A fresh scratch corpus unless FUZZ_KEEP_CORPUS=1: libFuzzer first replays the whole corpus,
  # and for the targets that run the simulation a grown one (thousands of files) takes longer
  # than FUZZ_SECONDS, leaving no time to fuzz.
  [ "${FUZZ_KEEP_CORPUS:-}" = 1 ] || rm -rf "target/fuzz-corpus/$t"
  mkdir -p "target/fuzz-corpus/$t" "fuzz/artifacts/$t"
  start=$(mktemp "$logs/.start-XXXXXX")
  flags=(-timeout="$(timeout_of "$t")" -report_slow_units="$(slow_of "$t")" -rss_limit_mb=2048
    -artifact_prefix="fuzz/artifacts/$t/")

  # Known reproducers first: each must now pass (a fixed bug stays fixed).
  regressions=0
  if compgen -G "fuzz/regressions/$t/*" >/dev/null; then
    if ! cargo +nightly fuzz run "${build[@]}" "$t" fuzz/regressions/"$t"/* -- "${flags[@]}" >"$logs/$t.regressions.log" 2>&1; then
      regressions=$(grep -cE '^(==[0-9]+== ERROR: libFuzzer|thread .* panicked)' "$logs/$t.regressions.log" || true)
      regressions=$((regressions > 0 ? regressions : 1))
      echo "fuzz: $t: a reproducer of fuzz/regressions/$t/ fails (see $logs/$t.regressions.log)"
    fi
  fi

  echo "fuzz: $t for ${seconds}s (timeout $(timeout_of "$t")s per input; log: $logs/$t.log)"
  rc=0
  began=$(date +%s)
  cargo +nightly fuzz run "${build[@]}" "$t" "target/fuzz-corpus/$t" "fuzz/corpus/$t" -- \
    "${flags[@]}" -max_total_time="$seconds" -max_len="$(max_len_of "$t")" \
    -dict="fuzz/dicts/$t.dict" -print_final_stats=1 >"$logs/$t.log" 2>&1 || rc=$?
  took=$(($(date +%s) - began))
  stat() { grep -m1 "^stat::$1:" "$logs/$t.log" | awk '{print $2}'; }
  execs=$(stat number_of_executed_units)
  rate=$(stat average_exec_per_sec)
  found=$(findings_in "$t" "$start")
  n=$(printf '%s' "$found" | grep -c . || true)
  slow=$(find "fuzz/artifacts/$t" -maxdepth 1 -type f -name 'slow-unit-*' -newer "$start" | wc -l)
  if [ "$rc" != 0 ] && [ "$n" = 0 ]; then
    n=1 # it stopped without leaving a file: count it, the log says why
    found="(no artifact; exit $rc: see $logs/$t.log)"
  fi
  rm -f "$start"
  total=$((n + regressions))
  [ "$total" = 0 ] || failed=1
  rows+=("$(printf '%-11s %7s %12s %8s %9s %5s' "$t" "$took" "${execs:-?}" "${rate:-?}" "$total" "$slow")")
  if [ "$n" != 0 ]; then
    echo "fuzz: $t found:"
    printf '  %s\n' $found
    grep -m1 -A6 -E "panicked at|ERROR: libFuzzer" "$logs/$t.log" | sed 's/^/  | /' || true
    echo "  reproduce: target/fuzz/x86_64-unknown-linux-gnu/release/$t <file>"
  fi
done

echo
printf '%-11s %7s %12s %8s %9s %5s\n' target seconds executions exec/s findings slow
printf '%s\n' "${rows[@]}"
if [ "$failed" != 0 ]; then
  echo "fuzz: FAILED (findings in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "fuzz: no findings"
