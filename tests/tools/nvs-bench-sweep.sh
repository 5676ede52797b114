#!/bin/sh
# nvs-bench: a tiny seq sweep whose counters are computed by hand.
#
# spi-nor preset: write unit 1 B, so an ATE slot is 8 B; a program costs
# 400 us per 256-byte page it touches; reads cost 40 ns per byte (and no CPU
# time here: read_cpu_ns=0). seq with 3 entries of 4 B on 2 sectors of 4 KiB:
#  mount: one 8-byte gc_done ATE                      -> 1 prog, 8 B, 400 us
#  write: 3 x (4 B data + 8 B ATE), one page each    -> 6 progs, 36 B, 2.4 ms
#  rewrite: the same with new values                 -> 6 progs, 36 B, 2.4 ms
#  read:  no program, no erase.
# Waiting 400 us for a program: spin (every 1 us) polls 400 times and sees
# it at once. Adaptive sleeps half the time waited so far (at least 1 us):
# polls at 1000, 2000, 3000, 4500, 6750, 10125, 15187, 22780, 34170, 51255,
# 76882, 115323, 172984, 259476, 389214 and 583821 ns: 16 polls, the last
# 183,821 ns after the program ended.
set -eu
bench="${top_builddir:-.}/tools/nvs-bench/nvs-bench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

"$bench" seq -G spi-nor -D sectors=2 -D entries=3 -D value_size=4 -D read_cpu_ns=0 \
	-D wait=spin,adaptive -D variant=ours,zephyr -f none -o "$tmp/run.csv" 2>"$tmp/err" ||
	fail "nvs-bench exited $?: $(cat "$tmp/err")"

header='workload,geometry,variant,sectors,sector_size,write_block,value_size,entries,updates,lookup_slots,name_cache_slots,ate_cache,data_crc,wait,tick_ns,read_cpu_ns,seed,phase,ops,reads,read_bytes,progs,prog_bytes,erases,erase_bytes,blank_erases,max_wear,sim_ns,floor_ns,overshoot_ns,polls,cpu_ns,status,detail'
[ "$(head -n 1 "$tmp/run.csv")" = "$header" ] || fail "CSV header: $(head -n 1 "$tmp/run.csv")"
# 2 variants x 2 wait policies x 4 phases
[ "$(tail -n +2 "$tmp/run.csv" | wc -l)" -eq 16 ] || fail "expected 16 rows"

# Columns by name, so the check reads like the hand computation above.
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
function want(name, value) {
	if ($c[name] != value) {
		printf "FAIL: %s %s %s %s: %s = %s, expected %s\n", $c["variant"], $c["wait"],
		       $c["phase"], $c["workload"], name, $c[name], value
		bad = 1
	}
}
{
	ph = $c["phase"]; spin = $c["wait"] == "spin"
	want("status", "ok")
	want("erases", 0)
	want("blank_erases", 0)
	want("max_wear", 0)
	if (ph == "mount") { n = 1; want("prog_bytes", 8); want("ops", 1) }
	if (ph == "write" || ph == "rewrite") { n = 6; want("prog_bytes", 36); want("ops", 3) }
	if (ph == "read") { n = 0; want("prog_bytes", 0); want("ops", 3) }
	want("progs", n)
	want("floor_ns", n * 400000)
	want("polls", n * (spin ? 400 : 16))
	want("overshoot_ns", n * (spin ? 0 : 183821))
	# simulated time = programs + overshoot + 40 ns per byte read
	want("sim_ns", n * 400000 + $c["overshoot_ns"] + 40 * $c["read_bytes"])
	if (ph == "read" && $c["reads"] < 3) { print "FAIL: read phase read less than 3 times"; bad = 1 }
	rows++
}
END { if (rows != 16) bad = 1; exit bad }' "$tmp/run.csv" || fail "counters differ (see above)"

# The table for people names the phases and the varying knobs.
"$bench" seq -G spi-nor -D sectors=2 -D entries=3 -D wait=spin,adaptive >"$tmp/table" 2>"$tmp/err" ||
	fail "table run"
# no progress line when stderr is not a terminal; one when it is (script gives a pty)
if grep -q "$(printf '\r')" "$tmp/err"; then fail "progress line on a file"; fi
if command -v script >/dev/null 2>&1; then
	script -qc "'$bench' seq -G ram -D sectors=2 -D entries=1,2 -f none" /dev/null >"$tmp/tty" 2>&1 || true
	grep -q '\[2/2\] seq' "$tmp/tty" || fail "no progress line on a terminal: $(cat "$tmp/tty")"
fi
grep -q '^workload  geometry  wait  *phase' "$tmp/table" || fail "table header: $(head -n 1 "$tmp/table")"
# header, 8 rows and the line naming how many figures did not fit 80 columns
[ "$(wc -l <"$tmp/table")" -eq 10 ] || fail "table lines"

# --compare against itself: every row matched, nothing but CPU time changes.
"$bench" seq -G spi-nor -D sectors=2 -D entries=3 -D value_size=4 -D read_cpu_ns=0 \
	-D wait=spin,adaptive -D variant=ours,zephyr -f none --compare "$tmp/run.csv" \
	>"$tmp/cmp" 2>/dev/null || fail "compare run"
grep -q '^compare: 16 rows matched, [0-9]* figures changed, 0 new rows, 0 old rows missing$' \
	"$tmp/cmp" || fail "compare summary: $(tail -n 1 "$tmp/cmp")"
if grep -v -e '^compare:' -e ': cpu_ns ' "$tmp/cmp"; then fail "deterministic figures changed"; fi

# --input reads the rows back without running: the CSV comes out unchanged.
"$bench" --input "$tmp/run.csv" -f csv >"$tmp/again.csv" || fail "--input run"
cmp -s "$tmp/run.csv" "$tmp/again.csv" || fail "--input changed the rows"

# The spec's reference workload (8 x 4 KiB, write block 4, ids 1..255 of 4 B,
# written then rewritten): the Zephyr variant makes exactly Zephyr's read
# calls without a lookup cache, with 128 slots and with 512.
"$bench" seq -G ram -D write_block=4 -D variant=zephyr -D lookup_slots=0,128,512 -f csv \
	>"$tmp/ref.csv" 2>/dev/null || fail "reference workload"
got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["phase"] == "write" || $c["phase"] == "rewrite" { printf "%s:%s ", $c["lookup_slots"], $c["reads"] }' \
	"$tmp/ref.csv")
[ "$got" = "0:33150 0:66004 128:14593 128:37768 512:4568 512:14202 " ] ||
	fail "reference read calls: $got"

# The spec's settings figures (255 names of 4 B, pass 1 new, pass 2 rewrite)
# for Zephyr after the fix: lookup 512 + name cache 256, and 128 + 128.
for sizes in "512 256 52370 89093" "128 128 4344693 7115206"; do
	set -- $sizes
	got=$("$bench" rpl -G ram -D write_block=4 -D variant=zephyr -D lookup_slots="$1" \
		-D name_cache_slots="$2" -f csv 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["phase"] != "boot" { printf "%s ", $c["reads"] }')
	[ "$got" = "$3 $4 " ] || fail "rpl lookup $1 names $2: reads $got, expected $3 $4"
done

# A plot of the write phase against entries, one series per variant.
"$bench" seq -G spi-nor -D sectors=2 -D entries=2,4 -D variant=ours,zephyr -f none \
	--plot "$tmp/p.svg" --plot-phase write --plot-y progs 2>/dev/null || fail "plot run"
[ "$(grep -c '<polyline' "$tmp/p.svg")" -eq 2 ] || fail "plot series"
grep -q '>variant=zephyr</text>' "$tmp/p.svg" || fail "plot legend"
echo "ok"
