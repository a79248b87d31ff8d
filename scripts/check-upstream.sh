#!/usr/bin/env bash
# Re-verify crates/lab/src/upstream.rs against a kubernetes/kubernetes clone that has the release tags:
#   scripts/check-upstream.sh /path/to/kubernetes
# For every row of the table and every tag it covers, prints whether the file exists there, where
# the Go function it models starts and ends at that tag, and the first line of the table's range
# (when it has one), so that a reader can check or fill in `lines`. Reads only the git directory.
set -euo pipefail
k8s=${1:?usage: $0 KUBERNETES_GIT_DIR}
table="$(dirname "$0")/../src/lab/upstream.rs"
tags=(v1.20.0 v1.29.0 v1.33.0 v1.35.0)
index() { case $1 in V1_20) echo 0;; V1_29) echo 1;; V1_33) echo 2;; V1_35) echo 3;; esac; }

grep -E '^\s*r\([A-Za-z]+, V1_[0-9]+, V1_[0-9]+, "' "$table" |
  sed -E 's/^\s*r\(([A-Za-z]+), (V1_[0-9]+), (V1_[0-9]+), "([^"]+)", "([^"]+)", (None|Some\(\(([0-9]+), ([0-9]+)\)\))\),.*/\1 \2 \3 \4 \5 \7 \8/' |
  while read -r topic from to path symbol first last; do
    for ((i = $(index "$from"); i <= $(index "$to"); i++)); do
      tag=${tags[$i]}
      if ! src=$(git -C "$k8s" show "$tag:$path" 2>/dev/null); then
        echo "$tag $path: MISSING ($topic)"
        continue
      fi
      # `func Name(` or `func (r *T) Name(`, to the first closing brace in column 1.
      span=$(awk -v sym="$symbol" '
        !start && $0 ~ "^func (\\([^)]*\\) )?" sym "\\(" { start = NR }
        start && /^}/ { print start "-" NR; exit }' <<<"$src")
      echo "$tag $path $symbol: ${span:-NOT FOUND}${first:+ table L$first-L$last: $(sed -n "${first}p" <<<"$src")}"
    done
  done
