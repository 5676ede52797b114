#!/bin/sh
# nvs-bench: usage errors exit 2 with a message that shows where the error is.
set -eu
bench="${top_builddir:-.}/tools/nvs-bench/nvs-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_usage "message fragment" ARGS...: exit status 2, fragment on stderr, nothing on stdout
expect_usage() {
	want="$1"; shift
	rc=0
	"$bench" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2"
	grep -qF -- "$want" "$tmp/err" || fail "$*: stderr lacks '$want': $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "$*: wrote to stdout"
}

expect_usage 'nvs-bench: -D entries=range(1,x): expected an integer at position 17' \
	seq -D 'entries=range(1,x)'
expect_usage '                  ^' seq -D 'entries=range(1,x)'
expect_usage "no knob 'sector'" seq -D sector=4
expect_usage "wait has no value 'poll' (tick, spin, adaptive)" seq -D wait=poll
expect_usage 'sectors=1 is outside 2..65535 at position 9' seq -D sectors=1
expect_usage 'range() is empty' seq -D 'entries=range(9,3)'
expect_usage "no geometry 'emmc'" seq -G emmc
expect_usage 'more than 1000000 permutations' seq -D 'seed=range(100000)' -D 'entries=range(1,100)'
expect_usage "no workload 'fill'" fill
expect_usage '--zephyr and -D variant' rpl --zephyr -D variant=ours
expect_usage '--format xml' seq --format xml
expect_usage '--plot-y foo: no such figure' seq -D entries=1,2 --plot "$tmp/x.svg" --plot-y foo
expect_usage '--plot needs a numeric knob' seq --plot "$tmp/x.svg"

# A bad CSV to compare with is bad input (1), named with its line.
printf 'workload,geometry\n' >"$tmp/old.csv"
rc=0
"$bench" seq -G ram -D sectors=2 -D entries=1 -f none --compare "$tmp/old.csv" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "bad compare file: exit $rc"
grep -qF "old.csv:1: no column 'variant' in the header" "$tmp/err" || fail "compare error: $(cat "$tmp/err")"

# An impossible permutation is a failed row (exit 1), not a crash: nand's
# 128 KiB blocks exceed NVS's 64 KiB sectors.
rc=0
"$bench" seq -G nand -f csv >"$tmp/out" 2>/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "nand: exit $rc"
grep -q ',setup,.*,invalid-argument-or-configuration,sector_size=auto (nand.s erase unit: 131072 bytes) exceeds NVS.s largest sector (65536 bytes: 16-bit offsets)$' "$tmp/out" ||
	fail "nand row: $(cat "$tmp/out")"

# A failed permutation says on stderr which knob broke which rule, whatever the format.
rc=0
"$bench" seq -D write_block=3 -f none >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "write_block=3: exit $rc"
grep -qF 'nvs-bench: seq nrf52840 setup: invalid-argument-or-configuration: write_block=3 is not a power of two' \
	"$tmp/err" || fail "write_block=3: $(cat "$tmp/err")"
rc=0
"$bench" seq -G ram -D sectors=2 -D lookup_slots=0,6 -f json >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || fail "lookup_slots=6: exit $rc"
grep -qF 'seq ram lookup_slots=6 setup: invalid-argument-or-configuration: lookup_slots=6 is not 0 or a power of two' \
	"$tmp/err" || fail "lookup_slots=6: $(cat "$tmp/err")"
grep -qF '"detail" : "lookup_slots=6 is not 0 or a power of two"' "$tmp/out" ||
	fail "lookup_slots=6 JSON: $(cat "$tmp/out")"
# The table fits 80 columns and names each figure as the CSV, JSON and --plot-y do;
# --wide shows every figure.
"$bench" rpl -G nrf52840 --zephyr -f table >"$tmp/table" 2>/dev/null
awk 'length($0) > 80 { print "FAIL: table line over 80 columns: " $0; bad = 1 } END { exit bad }' \
	"$tmp/table" || exit 1
head -n 1 "$tmp/table" | grep -q '^workload  geometry  variant  *phase  .* sim_ns  status$' ||
	fail "table header: $(head -n 1 "$tmp/table")"
grep -q '^(10 more figures: --wide shows them all' "$tmp/table" || fail "table note: $(tail -n 1 "$tmp/table")"
"$bench" seq -G ram -D sectors=2 -D entries=2 --wide >"$tmp/wide" 2>/dev/null
csv_figures=$("$bench" --list | sed -n '/^figures/,$p' | tail -n +2 | awk '{ print $1 }' | tr '\n' ' ')
for f in $csv_figures; do
	head -n 1 "$tmp/wide" | grep -qw "$f" || fail "--wide header lacks $f: $(head -n 1 "$tmp/wide")"
	"$bench" seq -G ram -D sectors=2 -D entries=1,2 -f none --plot "$tmp/f.svg" --plot-y "$f" \
		2>/dev/null || fail "--plot-y $f"
done
echo "ok"
