#!/bin/sh
# fdtcache-bench on traces with typed lookups (path, alias, parent, cells):
# per-kind counters reasoned on board-500, the CSV and JSON sections, the
# phandle part unchanged by them, and the errors (a node the DTB lacks, an
# answer libcore and libfdt disagree on).
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-bench"
dtb="$bld/fixtures/dt/board-500.dtb"
trace="$src/fixtures/traces/board-500-typed.trace"

# Name caches of 256 slots (no two keys of the trace share a slot):
# path:  /chosen miss, hit; serial2 (through the alias) miss, hit; /soc/serial
#        (unit address left out) miss; /nope twice: miss, then a hit (its "no
#        node" is cached), not found both times.
# alias: serial2 miss (property and path cache cold), hit; nosuch miss, not found.
# parent: from the node table, a hit but for the root's (miss, not found).
# reg-cells: the parent's #address-cells/#size-cells from the table: a hit.
# cells: #clock-cells miss then hit; #gpio-cells (absent) miss, not found.
# Without name caches (0) every path, alias and cells lookup misses.
# (tests/tools/fdtcache-bench-typed.csv: the 256-slot rows, then the 0-slot ones)
{
	typed_counters -p index -t "$trace" "$dtb"
	typed_counters -p index -t "$trace" --name-cache 0 "$dtb" | sed 1d
} > "$tmp/out.csv"
diff "$src/tests/tools/fdtcache-bench-typed.csv" "$tmp/out.csv"
check "board-500 typed counters per kind, caches of 256 and 0 slots" $?

# The phandle section: the trace's two phandle lookups, as a phandle-only trace gives.
grep -E '^(0x|phandle)' "$trace" > "$tmp/phandles.trace"
"$tool" -f csv -p index,hash32 -t "$tmp/phandles.trace" "$dtb" | cut -d, -f1-9 > "$tmp/a"
"$tool" -f csv -p index,hash32 -t "$trace" "$dtb" | sed '/^$/,$d' | cut -d, -f1-9 > "$tmp/b"
diff "$tmp/a" "$tmp/b" && [ "$(wc -l < "$tmp/a")" -eq 5 ]
check "phandle rows unchanged by the typed lookups" $?

"$tool" -f json -p index -t "$trace" "$dtb" > "$tmp/out.json"
python3 - "$tmp/out.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["typed"]
kinds = {k["kind"]: k for k in t["kinds"]}
assert d["lookups"] == 2 and t["lookups"] == 16 and t["name_cache"] == 256, d
assert kinds["path"]["hits"] == 3 and kinds["alias"]["not_found"] == 1, kinds
assert t["ns_per_lookup"] > 0
PY
check "json typed member" $?

# A trace of typed lookups only: the typed table alone.
grep -vE '^(0x|phandle)' "$trace" > "$tmp/typed.trace"
"$tool" -t "$tmp/typed.trace" "$dtb" > "$tmp/out.txt"
check "typed-only trace exits 0" $?
grep -q '^kind  *name_cache  *lookups' "$tmp/out.txt" && ! grep -q '^policy' "$tmp/out.txt"
check "typed-only trace: the typed table alone" $?

printf 'path /chosen\nparent /soc/nope@1 # a node the DTB lacks\n' > "$tmp/nonode.trace"
expect_exit "a node the DTB lacks" 1 "$tool" -t "$tmp/nonode.trace" "$dtb"
grep -qx "fdtcache-bench: $tmp/nonode.trace:2: parent /soc/nope@1: no such node in $dtb" "$tmp/err"
check "its message names the trace line" $?

printf 'path /chosen\ncells /soc\n' > "$tmp/badline.trace"
expect_exit "a bad typed line" 1 "$tool" -t "$tmp/badline.trace" "$dtb"
grep -qx "fdtcache-bench: $tmp/badline.trace:2: cells: expected a node's absolute path and #xxx-cells or reg" "$tmp/err"
check "its message names the trace line" $?

# An alias whose value is another alias: libfdt follows it, libcore does not
# (fc_dt_path_offset's documented limit): the bench must refuse the answer.
cat > "$tmp/relalias.dts" <<'DTS'
/dts-v1/;
/ {
	aliases { first = "second"; second = "/node"; };
	node { };
};
DTS
dtc -q -I dts -O dtb -o "$tmp/relalias.dtb" "$tmp/relalias.dts"
printf 'alias second\nalias first\n' > "$tmp/rel.trace"
expect_exit "libcore's answer differs from libfdt's" 1 "$tool" -t "$tmp/rel.trace" "$tmp/relalias.dtb"
grep -q "rel.trace:2: alias first: libcore answered none, libfdt node offset [0-9]*$" "$tmp/err"
check "the mismatch names the trace line and both answers" $?

expect_exit "--name-cache not a power of two" 2 "$tool" --name-cache 3 -t "$trace" "$dtb"
exit $fail
