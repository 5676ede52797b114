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
[ "$(grep -c '^seq ' "$tmp/table")" -eq 80000 ] || fail "expected 80,000 table rows"
timeout 120 "$bench" --input "$tmp/many.csv" -f none --plot "$tmp/many.svg" --plot-x seed \
	2>"$tmp/err" || fail "--plot of 80,000 rows: exit $?: $(cat "$tmp/err")"
[ "$(grep -c '<circle' "$tmp/many.svg")" -eq 80000 ] || fail "expected 80,000 points"
# Fields with bytes that are not UTF-8, controls and escapes (as a hand-edited
# or hostile CSV has them): the table shows them as \xNN, the JSON stays valid
# UTF-8 (U+FFFD), the SVG well-formed, and no output gains a line.
awk -F, 'BEGIN { OFS = "," }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
{ $c["workload"] = "seq\377\033[2J"; $c["phase"] = "mount\r<b>&"; $c["seed"] = NR; print }' \
	"$tmp/one.csv" >"$tmp/hostile.csv"
"$bench" --input "$tmp/hostile.csv" -f table >"$tmp/table" 2>"$tmp/err" || fail "table: $(cat "$tmp/err")"
grep -qF 'seq\xff\x1b[2J' "$tmp/table" || fail "table lacks the escaped workload: $(cat "$tmp/table")"
if LC_ALL=C grep -q "$(printf '[\033\r\377]')" "$tmp/table"; then fail "raw bytes in the table"; fi
[ "$(grep -c '^seq' "$tmp/table")" -eq 4 ] || fail "table lines: $(cat "$tmp/table")"
"$bench" --input "$tmp/hostile.csv" -f json >"$tmp/json" 2>"$tmp/err" || fail "json: $(cat "$tmp/err")"
python3 -c 'import json, sys; rows = json.load(open(sys.argv[1], encoding="utf-8")); \
assert rows[0]["workload"] == "seq\ufffd\x1b[2J", rows[0]["workload"]' "$tmp/json" ||
	fail "JSON not valid UTF-8 or wrong: $(cat "$tmp/json")"
"$bench" --input "$tmp/hostile.csv" -f csv >"$tmp/csv" 2>"$tmp/err" || fail "csv: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/csv")" -eq 5 ] || fail "CSV lines: $(cat "$tmp/csv")"
"$bench" --input "$tmp/hostile.csv" -f none --plot "$tmp/hostile.svg" --plot-x seed \
	--plot-title 'a <title> & "q"' 2>"$tmp/err" || fail "plot: $(cat "$tmp/err")"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/hostile.svg" ||
	fail "SVG not well-formed"
echo "ok"
