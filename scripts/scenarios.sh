#!/usr/bin/env bash
# Every shipped scenario through the CLI, as outside checks run them (exit 0 = all expects pass).
set -euo pipefail
cd "$(dirname "$0")/.."
for f in scenarios/*.json; do
  if target/release/bootstrap-sim run "$f" > /dev/null; then echo "ok   $f"
  else echo "FAIL $f"; target/release/bootstrap-sim run "$f" | grep -B2 -A3 '"passed": false' || true; exit 1; fi
done
