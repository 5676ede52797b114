#!/bin/sh
# fdtcache-bench: exact counters on the small board (reasoned below), the CSV
# header, JSON, traces with @core_init, and the error paths.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-bench"
dtb="$bld/fixtures/dt/small-board.dtb"
counters() { # drop the measured ns_per_lookup column
	cut -d, -f1-9
}

# small-board: 21 nodes; phandles 1..8 at tree positions 11 12 5 9 8 13 18 19;
# its 19 lookups are 1 2 3 4 2 3 4 5 2 2 2 2 7 0x99 2 8 5 6 6 (0x99: no node).
# none: positions summed 11+12+5+9+12+5+9+8+12+12+12+12+18+21+12+19+8+13+13 = 223.
# mask (8 slots, populated before the first lookup, 1..8 in distinct slots):
#   only 0x99 misses (slot 1 holds 1): 21 steps, unresolved, nothing stored.
# hash32 64/128/256: hash_32 of 1..8 are distinct at 6, 7 and 8 bits, and 0x99's
#   slot is empty: the same single unresolved miss.
# index (16 slots): the first lookup walks 21 nodes; 0x99 is known absent.
cat > "$tmp/expect.csv" <<'CSV'
policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes
none,0,19,0,19,1,0,223,0
mask,8,19,18,1,1,0,21,64
hash32,64,19,18,1,1,0,21,512
hash32,128,19,18,1,1,0,21,1024
hash32,256,19,18,1,1,0,21,2048
index,16,19,17,2,1,0,21,128
CSV
linux="--policy none,mask,hash32,index"
# shellcheck disable=SC2086
"$tool" --format csv --model reference $linux "$dtb" > "$tmp/out.csv"
check "csv exits 0" $?
head -n 1 "$tmp/out.csv" | grep -qx 'policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes,ns_per_lookup,early,uncached,compulsory,capacity,conflict,slots_used'
check "csv header" $?
counters < "$tmp/out.csv" | diff "$tmp/expect.csv" - > "$tmp/diff"
check "small-board counters, synthetic trace" $?
cat "$tmp/diff"
# shellcheck disable=SC2086
"$tool" --format csv $linux --trace "$src/fixtures/traces/small-board.trace" "$dtb" | counters |
	diff -q "$tmp/expect.csv" - > /dev/null
check "small-board counters, committed trace" $?
awk -F, 'NR > 1 && $10 + 0 <= 0 { bad = 1 } END { exit bad }' "$tmp/out.csv"
check "ns_per_lookup measured (> 0) on every row" $?

# Core init after two lookups of phandle 2 (position 12).
# mask, 4 slots: both scan (24 steps), nothing stored. Populate in tree order
#   (3 5 4 1 2 6 7 8 by position) by overwrite: s3=3, s1=5, s0=4, s1=1 (evicts
#   5), s2=2, s2=6 (evicts 2), s3=7 (evicts 3), s0=8 (evicts 4). The third
#   lookup finds 6 in s2: a miss, 12 steps, stored over 6 (5th eviction).
# hash32 64: the first misses and fills; the second and third hit.
printf '2\n0x2 # again\n\n@core_init\n2\n' > "$tmp/core.trace"
cat > "$tmp/expect-core.csv" <<'CSV'
policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes
mask,4,3,0,3,0,5,36,32
hash32,64,3,2,1,0,0,12,512
CSV
"$tool" --format csv --policy mask,hash32 --sizes 64 --mask-size 4 --trace "$tmp/core.trace" "$dtb" |
	counters | diff "$tmp/expect-core.csv" - > "$tmp/diff"
check "@core_init: mask empty before it and populated by overwrite, hash32 live" $?
cat "$tmp/diff"

# fdtcache-trace --core-init-after 2: lookups 1 (position 11) and 2 (12) come
# before core init. mask: both scan (23 steps); then all hit but 0x99 (21
# steps). hash32 64: both miss and fill, the prefill skips their slots; then
# the same single miss. Either way 16 hits, 3 misses, 44 steps.
cat > "$tmp/expect-late.csv" <<'CSV'
policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes
mask,8,19,16,3,1,0,44,64
hash32,64,19,16,3,1,0,44,512
CSV
"$bld/tools/fdtcache-trace" --model reference --core-init-after 2 "$dtb" > "$tmp/late.trace"
"$tool" --format csv --policy mask,hash32 --sizes 64 --trace "$tmp/late.trace" "$dtb" |
	counters | diff "$tmp/expect-late.csv" - > "$tmp/diff"
check "fdtcache-trace --core-init-after 2 replayed" $?
cat "$tmp/diff"

"$tool" --format json --policy index "$dtb" > "$tmp/out.json"
check "json exits 0" $?
grep -q '"policy" : "index"' "$tmp/out.json" && grep -q '"scan_steps" : 21' "$tmp/out.json" &&
	grep -q '"memory_bytes" : 128' "$tmp/out.json" && grep -q '"ns_per_lookup" : ' "$tmp/out.json"
check "json fields" $?
"$tool" --policy none "$dtb" > "$tmp/out.txt"
grep -q '^none ' "$tmp/out.txt"
check "table output" $?

printf '1\n2\nbogus\n' > "$tmp/bad.trace"
expect_exit "bad trace line" 1 "$tool" --trace "$tmp/bad.trace" "$dtb"
grep -qx "fdtcache-bench: $tmp/bad.trace:3: not a phandle (hex 0x... or decimal)" "$tmp/err"
check "bad trace line: FILE:LINE: message" $?
expect_exit "missing trace" 1 "$tool" --trace "$tmp/none.trace" "$dtb"
head -c 64 "$dtb" > "$tmp/cut.dtb"
expect_exit "truncated DTB" 1 "$tool" "$tmp/cut.dtb"
grep -q "^fdtcache-bench: $tmp/cut.dtb: not a valid DTB: " "$tmp/err"
check "truncated DTB: file and reason" $?
expect_exit "trace file as DTB" 1 "$tool" "$src/fixtures/traces/small-board.trace"
for bad in "--policy lfu" "--sizes 100" "--sizes 0" "--sizes 64,x" "--mask-size 3" \
	"--mask-size 0" "--format xml" "--frobnicate"; do
	# shellcheck disable=SC2086
	expect_exit "bad option $bad" 2 "$tool" $bad "$dtb"
	grep -q "Usage:" "$tmp/err"
	check "bad option $bad: usage" $?
done
expect_exit "no DTB" 2 "$tool"

# Sanity checks on the trace: another DTB's header, too many unresolved
# lookups (warnings; --strict makes them errors), an empty trace (an error).
"$bld/tools/fdtcache-trace" --model reference "$bld/fixtures/dt/board-500.dtb" > "$tmp/b500.trace"
"$tool" --policy none --trace "$tmp/b500.trace" "$dtb" > "$tmp/out" 2> "$tmp/err"
check "another DTB's trace: exit 0 without --strict" $?
grep -q "^fdtcache-bench: warning: $tmp/b500.trace:5: the trace was made for board-500.dtb (sha256 [0-9a-f]*...), not for $dtb (sha256 [0-9a-f]*...)" "$tmp/err"
check "another DTB's trace: a warning naming both files, FILE:LINE" $?
grep -q "^fdtcache-bench: warning: $tmp/b500.trace:[0-9]*: [0-9]* of [0-9]* lookups (.*%, over 10%) name no node of $dtb, the first here" "$tmp/err"
check "another DTB's trace: unresolved lookups over the threshold, FILE:LINE" $?
expect_exit "another DTB's trace, --strict" 1 "$tool" --strict --policy none --trace "$tmp/b500.trace" "$dtb"
grep -q "^fdtcache-bench: error: $tmp/b500.trace:5: the trace was made for board-500.dtb" "$tmp/err"
check "--strict: the header check is an error" $?
"$tool" --policy none --max-unresolved 100 --trace "$tmp/b500.trace" "$dtb" > /dev/null 2> "$tmp/err"
! grep -q "name no node" "$tmp/err"
check "--max-unresolved 100: no unresolved warning" $?
expect_exit "--max-unresolved 101" 2 "$tool" --max-unresolved 101 "$dtb"
"$tool" --policy none --trace "$src/fixtures/traces/small-board.trace" "$dtb" > /dev/null 2> "$tmp/err"
[ ! -s "$tmp/err" ]
check "the DTB's own trace (1 of 19 unresolved): no warning" $?
printf '# only comments\n\n' > "$tmp/empty.trace"
expect_exit "empty trace" 1 "$tool" --trace "$tmp/empty.trace" "$dtb"
grep -qx "fdtcache-bench: $tmp/empty.trace:2: no lookup in the trace" "$tmp/err"
check "empty trace: an error naming FILE:LINE" $?

# 0xffffffff (an unresolvable reference, e.g. <1 0xffffffff>): written by
# fdtcache-trace, read back by the bench, and counted the same way with or
# without --trace: a lookup that scans all 21 nodes and never resolves.
printf '2\n0xffffffff\n2\n' > "$tmp/minus1.trace"
"$tool" --format csv --policy none,hash32 --sizes 64 --trace "$tmp/minus1.trace" "$dtb" |
	counters > "$tmp/minus1.csv"
cat > "$tmp/expect-minus1.csv" <<'CSV'
policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes
none,0,3,0,3,1,0,45,0
hash32,64,3,2,1,1,0,21,512
CSV
diff "$tmp/expect-minus1.csv" "$tmp/minus1.csv" > "$tmp/diff"
check "0xffffffff: a counted, unresolved lookup" $?
cat "$tmp/diff"
if command -v dtc > /dev/null; then
	printf '/dts-v1/;\n/ { c: c { #clock-cells = <0>; }; d { compatible = "v,d"; clocks = <&c 0xffffffff>; }; };\n' |
		dtc -q -I dts -O dtb -o "$tmp/m1.dtb" -
	"$bld/tools/fdtcache-trace" --model reference "$tmp/m1.dtb" > "$tmp/m1.trace"
	grep -qx '0xffffffff # /d clocks' "$tmp/m1.trace"
	check "<&c 0xffffffff>: the writer writes the lookup" $?
	for model in reference boot; do
		"$bld/tools/fdtcache-trace" --model $model "$tmp/m1.dtb" > "$tmp/m1.trace"
		"$tool" --format csv --policy none,mask,hash32 --model $model "$tmp/m1.dtb" | counters > "$tmp/a.csv"
		"$tool" --format csv --policy none,mask,hash32 --trace "$tmp/m1.trace" "$tmp/m1.dtb" |
			counters > "$tmp/b.csv"
		cmp -s "$tmp/a.csv" "$tmp/b.csv" && grep -q '^none,0,[0-9]*,0,[0-9]*,[1-9]' "$tmp/a.csv"
		check "<&c 0xffffffff>, $model model: the same counters with and without --trace, unresolved counted" $?
	done
fi

# A replay whose libfdt scans visit more than 2^20 nodes is timed on 64
# windows of the trace, counted whole. soc-900's trace 6 times over: none
# scans 6 x 203,253 = 1,219,518 nodes; the windows hold the share of its
# 4,668 lookups that scans 2^18 nodes, 4,668 x 2^18 / 1,219,518 = 1,003,
# 15 per window: 960 lookups. hash32 64 scans fewer: timed whole.
for i in 1 2 3 4 5 6; do grep '^0x' "$src/fixtures/traces/soc-900.trace"; done > "$tmp/soc6.trace"
sdtb="$bld/fixtures/dt/soc-900.dtb"
"$tool" --format csv --policy none --trace "$tmp/soc6.trace" "$sdtb" | counters | tail -n 1 > "$tmp/soc6.csv"
[ "$(cat "$tmp/soc6.csv")" = "none,0,4668,0,4668,0,0,1219518,0" ]
check "windowed timing: the counters are the whole trace's" $?
"$tool" --format json --policy none,hash32 --sizes 64 --trace "$tmp/soc6.trace" "$sdtb" > "$tmp/soc6.json"
[ "$(grep -c '"timed_lookups" : ' "$tmp/soc6.json")" -eq 1 ] &&
	grep -A 1 '"ns_per_lookup" : ' "$tmp/soc6.json" | grep -q '"timed_lookups" : 960'
check "windowed timing: json timed_lookups 960 on the none row only" $?
"$tool" --policy none,hash32 --sizes 64 --trace "$tmp/soc6.trace" "$sdtb" > "$tmp/soc6.txt"
grep -q '^none .*[0-9]\*$' "$tmp/soc6.txt" && grep -q '^hash32 .*[0-9]$' "$tmp/soc6.txt" &&
	tr '\n' ' ' < "$tmp/soc6.txt" | grep -q '^.*\* timed on 64 windows spread over the trace (960 of its 4668 lookups), whose libfdt scans visit about 262144 nodes'
check "windowed timing: the table marks the row and says what was timed" $?
"$tool" --policy none --trace "$src/fixtures/traces/soc-900.trace" "$sdtb" > "$tmp/soc1.txt"
! grep -q 'timed on\|\*$' "$tmp/soc1.txt"
check "the trace once (203,253 nodes scanned): timed whole" $?

# --renumber slof: SLOF-like phandles (8-byte aligned) leave the mask cache 1
# slot in 8 (rk3399-rock960: 199 phandles, 256 slots: 32 used); as numbered
# by dtc (1..199) every phandle has its own slot.
kdtb="$src/fixtures/dt/kernel/rk3399-rock960.dtb"
slots_used() { # policy size csv -> slots_used
	awk -F, -v p="$1" -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == p && $2 == s { print $c["slots_used"] }' "$3"
}
"$tool" --format csv --policy mask --model reference "$kdtb" > "$tmp/plain.csv"
"$tool" --format csv --policy mask --model reference --renumber slof "$kdtb" > "$tmp/slof.csv"
"$tool" --format csv --policy mask --model reference --renumber stride "$kdtb" > "$tmp/stride.csv"
[ "$(slots_used mask 256 "$tmp/plain.csv")" -eq 199 ] && [ "$(slots_used mask 256 "$tmp/slof.csv")" -eq 32 ] &&
	[ "$(slots_used mask 256 "$tmp/stride.csv")" -eq 4 ]
check "--renumber: mask slots used 199 (dtc), 32 (slof), 4 (stride 64)" $?
expect_exit "--renumber bogus" 2 "$tool" --renumber bogus "$dtb"

# --sizes ranges, lru and opt rows, the split adds up, the plot is well-formed SVG.
"$tool" --format csv --policy hash32x4,lru,opt --sizes 8..32,128 --plot "$tmp/p.svg" "$dtb" > "$tmp/r.csv"
check "--sizes 8..32,128 --plot exits 0" $?
[ "$(cut -d, -f1,2 "$tmp/r.csv" | tr '\n' ' ')" = "policy,size hash32x4,8 hash32x4,16 hash32x4,32 hash32x4,128 lru,8 lru,16 lru,32 lru,128 opt,8 opt,16 opt,32 opt,128 " ]
check "--sizes 8..32,128: one row per size and policy" $?
awk -F, 'NR > 1 && $5 != $6 + $12 + $13 + $14 + $15 { bad = 1 } END { exit bad }' "$tmp/r.csv"
check "misses = unresolved + uncached + compulsory + capacity + conflict on every row" $?
expect_exit "--sizes 64..8" 2 "$tool" --sizes 64..8 "$dtb"
expect_exit "--sizes 8..100" 2 "$tool" --sizes 8..100 "$dtb"
if command -v python3 > /dev/null; then
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/p.svg"
	check "--plot writes well-formed XML" $?
	bad=$(printf '%s/b\377<&"\033.dtb' "$tmp")
	cp "$dtb" "$bad"
	"$tool" --format json --policy index "$bad" > "$tmp/bad.json" &&
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); assert d["dtb"].endswith("\ufffd<&\"\x1b.dtb")' "$tmp/bad.json"
	check "a non-UTF-8 DTB name: valid JSON (U+FFFD for the bad byte)" $?
	"$tool" --policy index --plot "$tmp/bad.svg" "$bad" > "$tmp/bad.txt" &&
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/bad.svg"
	check "a non-UTF-8 DTB name: the plot is well-formed" $?
	! grep -q "$(printf '\033')" "$tmp/bad.txt"
	check "a non-UTF-8 DTB name: escaped in the table" $?
fi
"$tool" --format json --policy hash32,opt --sizes 64 "$dtb" | grep -q '"recommendation" : "On this trace'
check "json: the recommendation" $?
"$tool" --policy hash32 "$dtb" | grep -q "the kernel's default (hash32, 128 slots, 1 KiB) misses"
check "table: the recommendation" $?
"$tool" "$kdtb" | awk 'length > 80 { bad = 1 } END { exit bad }'
check "the default table fits 80 columns" $?
# A phandle looked up more than 255 times is still one phandle (sabrelite's
# real boot: 906 lookups of 96 phandles, each first lookup a compulsory miss).
sab="$src/fixtures/boots/sabrelite"
"$tool" --format json --policy lru --sizes 8 --trace "$sab/sabrelite.trace" "$sab/imx6q-sabrelite.dtb" > "$tmp/sab.json"
grep -q '"distinct" : 96,' "$tmp/sab.json" && grep -q '"compulsory" : 96,' "$tmp/sab.json"
check "sabrelite: 96 distinct phandles, 96 compulsory misses" $?
expect_exit "-V" 0 "$tool" -V
grep -q "^fdtcache-bench " "$tmp/out"
check "-V prints the version" $?
exit $fail
