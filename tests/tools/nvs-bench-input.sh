#!/bin/sh
# nvs-bench --input: large and hostile CSVs of earlier runs.
set -eu
bench="${top_builddir:-.}/tools/nvs-bench/nvs-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

"$bench" seq -G ram -D sectors=2 -D entries=2 -f none -o "$tmp/one.csv" 2>/dev/null

# 80,000 rows, each with its own seed, tick_ns, read_cpu_ns, entries and sectors:
# every knob's values are gathered as a set. (A linear search per value took
# over 300 s here; timeout only guards against such a hang.)
awk -F, 'BEGIN { OFS = "," }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
NR == 2 { for (i = 0; i < 80000; i++) {
	$c["seed"] = i; $c["tick_ns"] = i + 1; $c["read_cpu_ns"] = i
	$c["entries"] = 1 + i % 16383; $c["sectors"] = 2 + i % 60000; print } }' \
	"$tmp/one.csv" >"$tmp/many.csv"
timeout 120 "$bench" --input "$tmp/many.csv" -f table >"$tmp/table" 2>"$tmp/err" ||
	fail "--input of 80,000 rows: exit $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/table")" -eq 80001 ] || fail "expected 80,000 table rows"
timeout 120 "$bench" --input "$tmp/many.csv" -f none --plot "$tmp/many.svg" --plot-x seed \
	2>"$tmp/err" || fail "--plot of 80,000 rows: exit $?: $(cat "$tmp/err")"
[ "$(grep -c '<circle' "$tmp/many.svg")" -eq 80000 ] || fail "expected 80,000 points"
echo "ok"
