#!/usr/bin/env bash
# Rebuilds the checked-in seed corpus (fuzz/corpus/<target>/) and the dictionaries' generated
# part (fuzz/dicts/<target>.dict) from the shipped files: scenarios/*.json, tours/*.json,
# tests/kubectl/*.json and *.txt, plus hand-written valid and invalid strings for the small parsers.
# `make fuzz` never writes here: it grows a scratch copy under target/fuzz-corpus/.
set -euo pipefail
cd "$(dirname "$0")"
root=..
rm -rf corpus
mkdir -p corpus/{scenario,duration,cidr,port_range,link,embed,tour,kubectl} dicts

# One seed per line of stdin, as corpus/<target>/seed-NN (no trailing newline).
seeds() {
  local i=0 line
  while IFS= read -r line; do
    printf '%s' "$line" > "corpus/$1/seed-$(printf %02d $i)"
    i=$((i + 1))
  done
}

# Percent-encodes an ASCII string as the lab's links do (RFC 3986 unreserved kept).
urlencode() {
  local s=$1 out= c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [A-Za-z0-9._~-]) out+=$c ;;
      *) out+=$(printf '%%%02X' "'$c") ;;
    esac
  done
  printf '%s' "$out"
}

# The shipped files, as they are.
cp "$root"/scenarios/*.json corpus/scenario/
# And each run to the longest virtual time a file may ask for (an outside check saw mutated
# files with "a huge `until`" never return).
for f in "$root"/scenarios/*.json; do
  sed -E 's/"until": *"[^"]*"/"until": "2h"/' "$f" > "corpus/scenario/$(basename "$f" .json)-2h.json"
done
cp "$root"/tours/*.json corpus/tour/
# A tour over a scenario of its own, in both languages: docs/tour.md's complete example.
sed -n '/^## 8\. A complete example/,$p' "$root"/docs/tour.md | sed -n '/^```json$/,/^```$/p' | sed '1d;$d' \
  > corpus/tour/inline-scenario.json
cp "$root"/tests/kubectl/*.json corpus/kubectl/

small='{"cluster":{"apiservers":[{"name":"a","advertise_address":"10.0.0.1"}]},"until":"2h"}'
printf '%s' "$small" > corpus/scenario/small-2h.json
printf '%s' '{"cluster":{"apiservers":[]}}' > corpus/scenario/no-apiserver.json
printf '%s' '{}' > corpus/scenario/empty-object.json
printf '%s' '{"cluster":' > corpus/scenario/truncated.json
# The limits of docs/extensions.md at once: 2 h, 16 apiservers, 1 s interval and TTL, 10 s repair.
{
  printf '{"behavior":"1.29","cluster":{"service_cluster_ip_range":"10.96.0.0/12,fd00::/108",'
  printf '"service_node_port_range":"1-65535","endpoint_reconciler_interval":"1s","lease_ttl":"1s",'
  printf '"repair_interval":"10s","apiservers":['
  for i in $(seq 1 16); do
    [ "$i" = 1 ] || printf ','
    printf '{"name":"a%d","advertise_address":"10.0.0.%d"}' "$i" "$i"
  done
  printf ']},"until":"2h"}'
} > corpus/scenario/limits.json

# kubectl: the shipped clusters and shapes (JSON, and as pasted: YAML, a prompt before the
# output) with each option line, and small refusals.
cp "$root"/tests/kubectl/*.txt corpus/kubectl/
for f in "$root"/tests/kubectl/*.json "$root"/tests/kubectl/*.txt; do
  { printf '//1.35|10.96.0.0/12|30000-32767\n'; cat "$f"; } > "corpus/kubectl/options-$(basename "$f")"
done
seeds kubectl <<'EOF'
{"kind":"List","items":[]}
{"kind":"Service","metadata":{"name":"kubernetes","namespace":"default"},"spec":{"clusterIP":"10.96.0.1","ports":[{"port":443}]}}
{"kind":"Pod","metadata":{"name":"p"}}
{"items":[{"kind":"ServiceCIDR","metadata":{"name":"kubernetes"},"spec":{"cidrs":["10.96.0.0/12"]}}]} {"items":[]}
//1.20||1-65535
EOF
printf '\xff\xfe{\x00}\x00' > corpus/kubectl/utf16
printf '\xef\xbb\xbf{"items":[]}' > corpus/kubectl/bom
# -o yaml: documents between `---`, a list, a YAML that is no kubectl output.
printf -- '---\napiVersion: v1\nkind: Service\nmetadata:\n  name: kubernetes\n  namespace: default\nspec:\n  clusterIP: 10.96.0.1\n  ports:\n  - port: 443\n---\nkind: ServiceList\nitems: []\n' > corpus/kubectl/yaml-documents
printf 'items:\n- kind: ServiceCIDR\n  metadata: {name: kubernetes}\n  spec:\n    cidrs: [10.96.0.0/12]\n' > corpus/kubectl/yaml-list
printf 'kind: Service\nmetadata: [1\n' > corpus/kubectl/yaml-broken

seeds duration <<'EOF'
0
90s
1h30m
1.5s
250ms
2h
2h0m0.001s
3m
10s
1ns
1000000ns
1us
1000µs
+5m
.5s
1.s
-1s
99999999h
1e3s
1h1h
0.0001ms
340282366920938463463374607431768211.999us
EOF

seeds cidr <<'EOF'
10.96.0.0/12
10.96.0.0/12,fd00::/108
fd00::/108,10.96.0.0/12
fd00::/64
10.0.0.0/24
10.0.0.0/29
10.0.0.0/30
10.96.0.0/33
10.96.0.0/11
10.96.0.1/12
2001:db8::/112
10.0.0.0/24,10.1.0.0/24
10.0.0.0/24,fd00::/108,fd01::/108
 10.0.0.0/24
EOF
printf '' > corpus/cidr/empty

seeds port_range <<'EOF'
30000-32767
1-65535
30000
30000+100
65536
5-3
-1
1-+5
0-0
+1-2
30000 - 32767
99999999999999999999
1+65535
EOF
printf '' > corpus/port_range/empty

inline=$(urlencode "$small")
action=$(urlencode '[[60000,{"do":"crash_apiserver","apiserver":"apiserver-b"}]]')
seeds link <<EOF
#scenario=crash-one-of-three&seed=7&t=1m30s&actions=$action
scenario=crash-one-of-three&t=0s
#scenario=etcd-outage-and-recovery&t=2h
#file=$inline&t=10s
#scenario=crash-one-of-three&t=3h
#scenario=nope&t=1s
#scenario=crash-one-of-three&seed=-1
#scenario=crash-one-of-three&t=1m&actions=%5B%5B
#scenario=crash-one-of-three&x=1
#install
#t=5s
#scenario=%ZZ
#scenario=crash-one-of-three&t=1s&actions=$action
EOF

seeds embed <<'EOF'
?tour=story&step=2&lang=zh&theme=dark&controls=minimal&autoplay&panels=events,etcd
?scenario=crash-one-of-three&autoplay=1
?tour=nope&step=0&lang=fr&theme=pink&controls=none&autoplay=maybe&panels=nope
?scenario=%E4%B8%80&lang=en
?step=99&tour=etcd-outage
EOF
printf 'tour=story\nstep=3\nlang=zh\npanels=stage, events\n' > corpus/embed/attributes
printf 'scenario=nope\ntheme=\ncolor=red\n' > corpus/embed/attributes-bad

# Dictionaries: the keys and the short string values of the shipped files, plus hand-written
# tokens (dicts/<target>.tokens, checked in) for what the files do not spell out. The small
# parsers' dictionaries (duration, cidr, port_range, link, embed) are written by hand.
keys_and_values() {
  LC_ALL=C grep -ohE '"[^" \\]{1,32}"' "$@" | LC_ALL=C grep -v '[^ -~]' | LC_ALL=C sort -u
}
for t in scenario tour kubectl; do
  case $t in
    scenario) files=("$root"/scenarios/*.json) ;;
    tour) files=("$root"/tours/*.json "$root"/scenarios/*.json) ;;
    kubectl) files=("$root"/tests/kubectl/*.json "$root"/tests/kubectl/*.txt) ;;
  esac
  {
    echo "# Generated by fuzz/seed-corpus.sh from the shipped files, then dicts/$t.tokens."
    keys_and_values "${files[@]}" | head -600
    [ -f "dicts/$t.tokens" ] && grep -v '^#' "dicts/$t.tokens"
  } > "dicts/$t.dict"
done
echo "seed corpus: $(du -sh corpus | cut -f1) in $(find corpus -type f | wc -l) files"
