#!/bin/sh
# nvs-inspect on damaged images made here (flipped bits in ATEs and data,
# truncated files, all-0x00, random bytes, wrong geometry) and on Zephyr's
# power-cut vectors and on power cuts made with the flash simulator: it
# never crashes or hangs, --check names the damage with its sector and
# offset, and the dump is never modified.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"

# run WANT_EXIT IMAGE ARGS...: every view at once, under a timeout; the
# output is in $tmp/out, and the image must come out unchanged.
run() {
	want=$1 img=$2
	shift 2
	before=$(cksum < "$img")
	timeout 60 "$tool" "$@" "$img" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || bad "$(basename "$img") $*: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
	[ "$(cksum < "$img")" = "$before" ] || bad "$(basename "$img"): the dump was modified"
	# the JSON form of the same run must parse
	if [ "$rc" -le 1 ] && [ -s "$tmp/out" ]; then
		timeout 60 "$tool" --format json "$@" "$img" > "$tmp/json" 2>/dev/null
		jrc=$?
		[ "$jrc" -eq "$rc" ] || bad "$(basename "$img") $*: --format json exit $jrc, table exit $rc"
		"$damage" json "$tmp/json" schema file geometry data_crc verdicts errors warnings ||
			bad "$(basename "$img") $*: bad JSON"
	fi
}

# has PATTERN: the last run's output contains PATTERN (a grep -E expression)
has() {
	grep -Eq -- "$1" "$tmp/out" || { bad "missing '$1' in output of the last run:"; head -n 20 "$tmp/out"; }
}

all="--summary --live --ates --history 1 --settings --check --salvage"
geo8="--sector-size 4096 --sectors 8 --write-block 4"

# 1. a bit flipped in a live ATE of sector 0 (slot 0x0f00, its id byte)
cp "$vec/nvs_rpl_2pass.bin" "$tmp/ate.bin"
"$damage" flip "$tmp/ate.bin" 0x0f00 0
run 1 "$tmp/ate.bin" $all
has '^error +ate-crc +sector 0 offset 0x0f00: '
has '^unverified ate-crc-bad at 0:0x0f00: id=0x'

# an orphan setting: the ATE of the name at id 0x8005 is damaged, its value is left
cp "$vec/settings_rpl.bin" "$tmp/orphan.bin"
"$damage" flip "$tmp/orphan.bin" 0x0f78 0
run 1 "$tmp/orphan.bin" $all
has '^warning +settings-orphan +settings id 0x8005 .*value without its name'
has '^! settings id 0x8005 '
grep -q '^bt/mesh/rpl/1a2f = ' "$tmp/out" && bad "the orphaned setting must not be listed"

# 2. a bit flipped in the data of a value with a CRC-32 (id 2 at 0:0x0008)
cp "$vec/nvs_crc_small.bin" "$tmp/data.bin"
"$damage" flip "$tmp/data.bin" 9 3
run 1 "$tmp/data.bin" $all
has '^data crc: auto: on \(7 of 8 stored values'
has '^error +data-crc +sector 0 offset 0x0008: data of id 0x0002'
has '^# id=0x0002 read fails'
grep -q '^id=0x0002' "$tmp/out" && bad "a value failing its CRC must not be read back"
# without the CRC check the same value reads back, CRC bytes included
run 0 "$tmp/data.bin" --live --data-crc off
has '^id=0x0002 len=12 '

# overlapping data and an ATE pointing outside its sector's data area, both
# with a valid crc8: id 3's ATE (0:0x0fd8) moved onto id 2's data, id 4's
# (0:0x0fd0) past the ATE area
cp "$vec/nvs_small_wbs4.bin" "$tmp/overlap.bin"
"$damage" ate "$tmp/overlap.bin" 0x0fd8 3 0x0008 2
"$damage" ate "$tmp/overlap.bin" 0x0fd0 4 0x0ff0 9
run 1 "$tmp/overlap.bin" $all
has '^error +data-overlap +sector 0 offset 0x0008: data of id 0x0003 .* overlaps data of id 0x0002'
has '^error +ate-bounds +sector 0 offset 0x0fd0: ATE of id 0x0004 points outside'

# one record spanning several: id 2's ATE claims 0x04..0x23, over ids 3 to 6,
# each of which overlaps it though not the record just before it
cp "$vec/nvs_small_wbs4.bin" "$tmp/span.bin"
"$damage" ate "$tmp/span.bin" 0x0fe0 2 0x0004 32
run 1 "$tmp/span.bin" --check
for at in 0x000c 0x0010 0x001c 0x0020; do
	has "^error +data-overlap +sector 0 offset $at: data of id 0x00.. .* overlaps data of id 0x0002 "
done
[ "$(grep -c 'data-overlap' "$tmp/out")" -eq 4 ] || bad "span: expected 4 data-overlap verdicts"

# 3. truncated dumps
"$damage" copy "$vec/nvs_rpl_2pass.bin" "$tmp/trunc.bin" 30000
run 0 "$tmp/trunc.bin" --summary --check
has '^warning +trailing-bytes +.*1328 bytes after the last whole sector'
has '^geometry: offset 0, 7 sectors of 4096 bytes'
run 1 "$tmp/trunc.bin" --check $geo8
has '^error +truncated +image offset 0x7530: the image is 2768 bytes short'

# 4. all 0x00 and random bytes: refused without geometry, inspected with it
"$damage" fill "$tmp/zero.bin" 16384 0
run 1 "$tmp/zero.bin"
grep -q 'cannot tell the geometry' "$tmp/err" || bad "all-0x00: no refusal message"
run 1 "$tmp/zero.bin" $all --sector-size 4096 --write-block 4
has '^warning +bad-close +sector 0 offset 0x0ff8: '
has '^error +mount-fails '
"$damage" random "$tmp/random.bin" 32768 6
run 1 "$tmp/random.bin"
grep -q 'cannot tell the geometry' "$tmp/err" || bad "random: no refusal message"
for ss in 1024 4096 8192; do
	timeout 60 "$tool" $all --sector-size $ss --write-block 4 "$tmp/random.bin" > "$tmp/out" 2>&1
	rc=$?
	[ "$rc" -le 1 ] || bad "random bytes with $ss-byte sectors: exit $rc"
done

# every sector closed (a close ATE pointing at slot 0x0ff0 ends both sectors)
"$damage" fill "$tmp/closed.bin" 8192 255
for end in 4088 8184; do
	printf '\377\377\360\017\000\000\377\207' | dd of="$tmp/closed.bin" bs=1 seek=$end conv=notrunc 2> /dev/null
done
run 1 "$tmp/closed.bin" $all --sector-size 4096 --write-block 4
has '^error +all-closed +all 2 sectors are closed'
has '^error +mount-fails '

# 5. wrong geometry given for a good image
run 0 "$vec/nvs_rpl_2pass.bin" $all --sector-size 2048 --write-block 4
has '^warning +geometry-mismatch +.*4096-byte sectors'
for wb in 1 8 16 32; do
	timeout 60 "$tool" $all --sector-size 4096 --write-block $wb "$vec/nvs_rpl_2pass.bin" > "$tmp/out" 2>&1
	rc=$?
	[ "$rc" -le 1 ] || bad "write block $wb on a 4-byte image: exit $rc"
done

# 6. every power-cut mode of the Zephyr vectors
run 0 "$vec/nvs_cut_ate.bin" $all
has '^warning +torn-ate +sector 2 offset 0x0ba0: '
run 0 "$vec/nvs_cut_data.bin" $all
has '^warning +data-without-ate +sector 2 offset 0x0224: '
has '^unverified data-without-ate at 2:0x0224: '
run 0 "$vec/nvs_cut_close.bin" $all
has '^warning +bad-close +sector 2 offset 0x0ff8: '
run 0 "$vec/nvs_cut_erase.bin" $all
has '^warning +interrupted-gc +sector 0: '
has '^a mount would erase sector 0$'

# a partition that starts 4 KiB into the file
"$damage" fill "$tmp/offset.bin" 4096 0
cat "$vec/nvs_small_wbs4.bin" >> "$tmp/offset.bin"
run 0 "$tmp/offset.bin" --live --offset 4096
grep '^id=' "$vec/nvs_small_wbs4.expect.txt" | cmp -s - "$tmp/out" || bad "--offset 4096: --live differs"
run 1 "$tmp/offset.bin" --live

# bits flipped all over a wrapped image (data, ATEs, close slots): never a crash
cp "$vec/nvs_rpl_wrapped.bin" "$tmp/flips.bin"
for off in 0x0ff8 0x1ff0 0x2abc 0x3ffc 0x4123 0x5ff9 0x6f00 0x7ff8 0x0020 0x1fb7; do
	"$damage" flip "$tmp/flips.bin" $off 5
	timeout 60 "$tool" $all --format json "$tmp/flips.bin" > "$tmp/out" 2>&1
	rc=$?
	[ "$rc" -le 1 ] || bad "flips up to $off: exit $rc"
done

# power cuts made here, in every mode of the flash simulator, at five points
# of a wrapping workload: --live equals what the engine reads after a mount
cut=$top_builddir/tests/tools/nvs-cutimage
[ -x "$top_builddir/tests/tools/.libs/nvs-cutimage" ] && cut=$top_builddir/tests/tools/.libs/nvs-cutimage
for mode in atomic torn bits; do
	for n in 5 57 200 411 800; do
		"$cut" "$tmp/cut.bin" $mode $n > "$tmp/cut.want" || bad "nvs-cutimage $mode $n failed"
		run 0 "$tmp/cut.bin" --live --sector-size 1024 --write-block 4
		cmp -s "$tmp/cut.want" "$tmp/out" || { bad "cut $mode $n: --live differs:"; diff "$tmp/cut.want" "$tmp/out" | head -n 5; }
		timeout 60 "$tool" $all "$tmp/cut.bin" > "$tmp/out" 2>&1
		rc=$?
		[ "$rc" -le 1 ] || bad "cut $mode $n: exit $rc"
		cp "$tmp/out" "$tmp/cut-$mode-$n.out"
	done
done
# the same workload on a flash that erases to 0x00: the erase value is
# detected (and may be given), and --live still equals the engine's remount
for mode in atomic torn bits; do
	for n in 5 200 800; do
		"$cut" "$tmp/cut0.bin" $mode $n 0x00 > "$tmp/cut0.want" || bad "nvs-cutimage $mode $n 0x00 failed"
		run 0 "$tmp/cut0.bin" --live
		cmp -s "$tmp/cut0.want" "$tmp/out" || bad "erase 0x00, cut $mode $n: --live (detected) differs"
		run 0 "$tmp/cut0.bin" --live --sector-size 1024 --write-block 4 --erase-value 0x00
		cmp -s "$tmp/cut0.want" "$tmp/out" || bad "erase 0x00, cut $mode $n: --live (given) differs"
		run 0 "$tmp/cut0.bin" --summary
		grep -q 'erase value 0x00$' "$tmp/out" || bad "erase 0x00, cut $mode $n: not detected"
	done
done
# values of 100..199 bytes, all zero but the first, on either flash: zero
# data outnumbers free space, and the erase value is still told right
for ev in 0xff 0x00; do
	for mode in atomic torn bits; do
		for n in 20 200 800; do
			"$cut" "$tmp/cutz.bin" $mode $n $ev zeros > "$tmp/cutz.want" || bad "nvs-cutimage $mode $n $ev zeros failed"
			run 0 "$tmp/cutz.bin" --summary --live
			grep '^id=' "$tmp/out" | cmp -s "$tmp/cutz.want" - || bad "zero values, erase $ev, cut $mode $n: --live differs"
			grep -q "erase value $ev\$" "$tmp/out" || bad "zero values, erase $ev, cut $mode $n: erase value not detected"
		done
	done
done
grep -Eq '^warning +torn-ate +sector 0 offset ' "$tmp/cut-torn-5.out" || bad "torn cut 5: no torn-ate verdict"
grep -Eq '^error +ate-crc +sector 0 offset ' "$tmp/cut-bits-5.out" || bad "bits cut 5: no ate-crc verdict"
grep -Eq '^warning +data-without-ate +sector ' "$tmp/cut-atomic-200.out" || bad "atomic cut 200: no data-without-ate verdict"

# verdicts: one line each when piped (for grep); on a terminal wrapped to
# 80 columns, continuation lines indented
"$tool" --check "$vec/nvs_cut_erase.bin" > "$tmp/piped.out" 2>&1
grep -q '^warning interrupted-gc    sector 0: .*a mount erases sector 0$' "$tmp/piped.out" ||
	bad "piped --check: a verdict is not one line"
if command -v script > /dev/null; then
	script -qc "'$tool' --check '$vec/nvs_cut_erase.bin'" /dev/null < /dev/null | tr -d '\r' > "$tmp/tty.out"
	awk 'length > 80 { exit 1 }' "$tmp/tty.out" || bad "--check on a terminal: lines over 80 columns"
	grep -q '^warning interrupted-gc    sector 0: sector 0 after the open sector 3 is not$' "$tmp/tty.out" &&
		grep -q '^        garbage collection was interrupted; a mount erases sector 0$' "$tmp/tty.out" ||
		bad "--check on a terminal is not wrapped: $(cat "$tmp/tty.out")"
fi

# 7. usage errors
timeout 10 "$tool" --format yaml "$vec/nvs_small_wbs4.bin" > /dev/null 2>&1
[ $? -eq 2 ] || bad "--format yaml must be a usage error"
timeout 10 "$tool" > /dev/null 2>&1
[ $? -eq 2 ] || bad "no IMAGE must be a usage error"
timeout 10 "$tool" "$tmp/missing.bin" > /dev/null 2>&1
[ $? -eq 1 ] || bad "a missing file must exit 1"

exit $fail
