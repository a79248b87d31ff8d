#!/usr/bin/env bash
# Runs one phase of `make test` and records it for the closing table (scripts/phases.mjs):
#   scripts/phase.sh NAME WHAT COMMAND [ARG...]
# or, sourced (setup.sh times its shell functions so), `phase NAME WHAT COMMAND [ARG...]`.
# Besides its wall time, a phase records the CPU time the whole machine spent meanwhile (core-
# seconds, from /proc/stat): a phase that waits shows little of it, one that compiles about two
# per second.
# WHAT says what its output counts: `tests` (cargo's "test result" lines), `checks` (the end-to-end
# scripts' "ok" lines), `scenarios` (make test-scenarios' "ok" lines) or `-` (nothing counted).
# Appends NAME, wall seconds, the count, WHAT and the exit code to $PHASES (when set), and returns
# the command's code. The output passes through as it comes.
# The machine's busy CPU time so far, in core-seconds (user, nice, system, irq, softirq, steal).
busy_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '/^cpu / { print ($2 + $3 + $4 + $7 + $8 + $9) / hz; exit }' /proc/stat
}

phase() {
  local name=$1 what=$2 log start end rc n cpu0 cpu1
  local -
  set +e  # a failing command is recorded too, whatever the caller's errexit
  shift 2
  log=$(mktemp)
  start=$(date +%s.%N) cpu0=$(busy_seconds)
  "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  end=$(date +%s.%N) cpu1=$(busy_seconds)
  case $what in
    tests) n=$(sed -n 's/^test result: [A-Za-z]*\. \([0-9]*\) passed.*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }') ;;
    checks) n=$(grep -c '^ok ' "$log") ;;
    scenarios) n=$(grep -c '^ok   ' "$log") ;;
    *) n=- ;;
  esac
  rm -f "$log"
  if [ -n "${PHASES:-}" ]; then
    mkdir -p "$(dirname "$PHASES")"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" \
      "$n" "$what" "$rc" "$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.0f", b - a }')" >> "$PHASES"
  fi
  return "$rc"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -uo pipefail
  phase "$@"
fi
