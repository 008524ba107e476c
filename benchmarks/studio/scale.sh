#!/usr/bin/env bash
# The studio at scale (docs/studio.md, "Scale"): builds a 1,000,000-document collection with the
# CLI, serves it with `blite studio`, and times over HTTP, as the browser asks them, a page of 50
# documents (first, deep by _id, and the keyset continuation), and filtered pages of 50 served
# through an index. Each request is timed once cold and then 10 times; the figures go in
# docs/studio.md. On demand only (a few minutes): STUDIO_SCALE_DOCUMENTS=100000 for a quick run.
set -euo pipefail
cd "$(dirname "$0")/../.."

documents=${STUDIO_SCALE_DOCUMENTS:-1000000}
work=$(mktemp -d)
studio_pid=
cleanup() {
  if [ -n "$studio_pid" ]; then kill "$studio_pid" 2>/dev/null || true; wait "$studio_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

dotnet build src/BLite.Cli -c Release -v q -nologo >/dev/null
blite=(dotnet src/BLite.Cli/bin/Release/net10.0/BLite.Cli.dll)
db="$work/scale.blite"

echo "generating $documents orders..."
awk -v n="$documents" 'BEGIN {
  split("pending confirmed shipped delivered", status, " ");
  for (i = 1; i <= n; i++) {
    printf "{\"_id\":%d,\"status\":\"%s\",\"total\":%d,\"customer\":{\"name\":\"customer %d\",\"email\":\"c%d@example.com\"},\"tags\":[\"t%d\",\"all\"],\"note\":\"order %d of the scale run, a line of text to give the document some body\"}\n",
      i, status[i % 4 + 1], (i * 37) % 101, i % 1000, i, i % 3, i
  }
}' > "$work/orders.jsonl"
start=$(date +%s.%N)
"${blite[@]}" import "$db" orders "$work/orders.jsonl" --batch-size 100000
echo "import: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
rm "$work/orders.jsonl"

# serve [--read-only]: starts the studio and logs in (the cookie jar) like a browser.
serve() {
  "${blite[@]}" studio "$db" "$@" > "$work/studio.out" 2>&1 &
  studio_pid=$!
  for _ in $(seq 1 600); do grep -q '^http://' "$work/studio.out" && break; sleep 0.1; done
  url=$(grep '^http://' "$work/studio.out")
  base=${url%%\?*}
  curl -s -o /dev/null -c "$jar" "$url"
}
jar="$work/cookies"
header=(-H "X-BLite-Studio: 1" -H "Content-Type: application/json")
serve

start=$(date +%s.%N)
curl -s -f -b "$jar" "${header[@]}" -d '{"name":"by_status","fields":"status","unique":false}' "${base}api/collections/orders/indexes" >/dev/null
echo "index build over $documents documents (one transaction): $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"

# time LABEL METHOD PATH [BODY]: prints cold, median and max of 10 warm runs, in milliseconds.
measure() {
  local label=$1 method=$2 path=$3 body=${4:-}
  local args=(-s -o "$work/last.json" -w '%{time_total}\n' -b "$jar" "${header[@]}" -X "$method")
  [ -n "$body" ] && args+=(-d "$body")
  local cold times
  cold=$(curl "${args[@]}" "${base}${path}")
  grep -q '"documents":\[{' "$work/last.json" || { echo "$label: no documents in the answer: $(head -c 300 "$work/last.json")" >&2; exit 1; }
  times=$(for _ in $(seq 1 10); do curl "${args[@]}" "${base}${path}"; done | sort -n)
  local median max
  median=$(echo "$times" | sed -n 5p)
  max=$(echo "$times" | tail -n 1)
  awk -v l="$label" -v c="$cold" -v m="$median" -v x="$max" 'BEGIN { printf "%-58s cold %7.1f ms   median %6.1f ms   max %6.1f ms\n", l, c * 1000, m * 1000, x * 1000 }'
}

echo "load average before measuring: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "first page of 50 (documents)" GET "api/collections/orders/documents?limit=50"
deep=$((documents * 987654 / 1000000))
measure "page of 50 from _id $deep (documents?start=)" GET "api/collections/orders/documents?limit=50&start=%7B%22_id%22%3A${deep}%7D"
last_key=$(grep -o '"key":"[^"]*"' "$work/last.json" | tail -n 1 | cut -d'"' -f4)
measure "next page of 50 after it (keyset, documents?after=)" GET "api/collections/orders/documents?limit=50&after=$(printf %s "$last_key" | jq -sRr @uri)"
measure "query {status: shipped}, 50, through by_status" POST "api/collections/orders/query" '{"filter":"{\"status\":\"shipped\"}","limit":50}'
measure "query {status: shipped, total >= 90}, 50, by_status" POST "api/collections/orders/query" '{"filter":"{\"status\":\"shipped\",\"total\":{\"$gte\":90}}","limit":50}'
grep -o '"plan":"[^"]*' "$work/last.json" | head -c 120; echo

# The same database behind --read-only, where every API request opens its own view.
kill "$studio_pid"; wait "$studio_pid" || true
serve --read-only
echo "--read-only:"
measure "first page of 50 (read-only)" GET "api/collections/orders/documents?limit=50"
measure "page of 50 from _id $deep (read-only)" GET "api/collections/orders/documents?limit=50&start=%7B%22_id%22%3A${deep}%7D"
measure "query {status: shipped}, 50, through by_status (read-only)" POST "api/collections/orders/query" '{"filter":"{\"status\":\"shipped\"}","limit":50}'
echo "load average after measuring: $(cut -d' ' -f1-3 /proc/loadavg)"
