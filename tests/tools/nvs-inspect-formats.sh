#!/bin/sh
# nvs-inspect on whole-flash dumps: every Zephyr vector wrapped into a flash
# image (64 KiB before it, 64 KiB after; random padding at flash base 0,
# erased padding at 0x08000000 with erased records left out of the HEX
# file) as raw, Intel HEX, S-record and ELF, with a DTS that places the
# partition (--dts for raw, the compiled --dtb for the others): each reads
# back exactly the vector's expect file (the live entries and the "after
# mount" line), and the summary names the format. Then the same with
# --partition auto (the scan), the "after mount" line only where other data
# follows the partition (erased padding leaves its size a guess). The ZMS
# vectors the same, the sector size found also where one sector holds the
# only header; one misaligned is said to need its geometry. Two partitions
# in one dump; files given by mistake; a bad HEX record.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"
wrap=$top_srcdir/tests/tools/flashdump.py
n=0

# headers BIN SS AS: how many SS-byte sectors of a ZMS image end with ZMS's magic
headers() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read(); ss = int(sys.argv[2]); at = ss - int(sys.argv[3]) + 13
print(sum(d[o + at] == 0x42 for o in range(0, len(d) - ss + 1, ss)))' "$1" "$2" "$3"
}

# wrap_vector BIN: the vector in whole-flash dumps, read back through a
# devicetree and through --partition auto
wrap_vector() {
	bin=$1 name=$(basename "$1" .bin)
	expect=${bin%.bin}.expect.txt
	grep '^id=' "$expect" | LC_ALL=C sort > "$tmp/want"
	want_mount=$(sed -n 's/^# after mount: //p' "$expect" | mount_of)
	ss=$(sed -n 's/^# geometry: sector_size=\([0-9]*\) .*/\1/p' "$expect")
	wb=$(sed -n 's/^# geometry: .* write_block_size=\([0-9]*\) .*/\1/p' "$expect")
	as=$(sed -n 's/^# geometry: .* ate_size=\([0-9]*\) .*/\1/p' "$expect")
	lone=no
	[ -n "$as" ] && [ "$(headers "$bin" "$ss" "$as")" -lt 2 ] && lone=yes
	for variant in "0x0 random" "0x08000000 erased"; do
		set -- $variant
		base=$1 pad=$2
		python3 "$wrap" "$bin" "$tmp" --base "$base" --pad "$pad" --sector-size "$ss" \
			--write-block "$wb" --seed 7 || { bad "$name: flashdump.py failed"; continue; }
		dtc -@ -q -O dtb -o "$tmp/board.dtb" "$tmp/board.dts" || bad "$name: dtc failed"
		for f in bin hex srec elf; do
			n=$((n + 1))
			dt="--dtb $tmp/board.dtb"
			[ $f = bin ] && dt="--dts $tmp/board.dts"
			# shellcheck disable=SC2086
			timeout 60 "$tool" $dt --summary --live "$tmp/flash.$f" \
				> "$tmp/out" 2> "$tmp/err" || { bad "$name $f $variant: exit $?: $(head -c 300 "$tmp/err")"; continue; }
			grep '^id=' "$tmp/out" | cmp -s "$tmp/want" - ||
				bad "$name $f $variant: --live differs from the expect file"
			got_mount=$(sed -n 's/^after mount: //p' "$tmp/out" | mount_of)
			[ "$want_mount" = "$got_mount" ] ||
				bad "$name $f $variant: after mount '$got_mount', expected '$want_mount'"
			case $f in
			hex) grep -q '^image: .* (Intel HEX, [0-9]* records' "$tmp/out" || bad "$name: HEX not named" ;;
			srec) grep -q '^image: .* (S-record, ' "$tmp/out" || bad "$name: S-record not named" ;;
			elf) grep -q '^image: .* (ELF, ' "$tmp/out" || bad "$name: ELF not named" ;;
			esac
			# the same without the devicetree: the scan finds the partition (its
			# size too when other data follows it); one ZMS header does not tell
			# the sector size, which is said
			timeout 60 "$tool" --partition auto --summary --live "$tmp/flash.$f" \
				> "$tmp/out" 2> "$tmp/err"
			rc=$?
			[ $rc -eq 0 ] || { bad "$name $f $variant auto: exit $rc: $(head -c 300 "$tmp/err")"; continue; }
			[ $lone = no ] || tr -s ' \n' ' ' < "$tmp/out" | grep -q "sector size: detected, \(likely\|weak\) (1 of [0-9]* sectors end with a ZMS empty ATE, 0 others hold data without one; $as-byte ATE slots; with one header, the power of two dividing its end under which its sector reads as ZMS best" ||
				bad "$name $f $variant auto: one ZMS header: $(grep -A3 'sector size' "$tmp/out")"
			grep -q "^geometry: offset [0-9]*, [0-9]* sectors of $ss bytes" "$tmp/out" ||
				bad "$name $f $variant auto: $(grep '^geometry' "$tmp/out")"
			grep '^id=' "$tmp/out" | cmp -s "$tmp/want" - ||
				bad "$name $f $variant: --partition auto: --live differs from the expect file"
			got_mount=$(sed -n 's/^after mount: //p' "$tmp/out" | mount_of)
			[ "$pad" = erased ] || [ "$want_mount" = "$got_mount" ] ||
				bad "$name $f $variant auto: after mount '$got_mount', expected '$want_mount'"
			[ "$pad" = erased ] || grep -q "^partition: found by the scan at 0x10000, " "$tmp/out" ||
				bad "$name $f $variant auto: $(grep '^partition' "$tmp/out")"
		done
	done
}

for bin in "$vec"/*.bin "$top_srcdir"/fixtures/zms/zephyr/*.bin; do
	wrap_vector "$bin"
done
# one ZMS header whose sector ends 0x200 past a 1 KiB boundary: no sector size fits
python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
sys.stdout.buffer.write(b"\xff" * 0x200 + d[:1024] + b"\xff" * 0x1000)' \
	"$top_srcdir/fixtures/zms/zephyr/zms_small_wbs1.bin" > "$tmp/misaligned.bin"
timeout 60 "$tool" --partition auto "$tmp/misaligned.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "misaligned.bin: one sector of the image ends with a ZMS empty ATE (at offset 0x5f0), and under no sector size of 1 to 64 KiB that divides its end does it read as ZMS; give --dts, or --offset and --sector-size" "$tmp/err" ||
	bad "one misaligned ZMS header: $(cat "$tmp/err")"
# two partitions in one dump: the scan names both and does not choose
python3 "$wrap" "$vec/nvs_rpl_2pass.bin" "$tmp" --prefix 0x10000 --suffix 0x10000 --seed 3
cat "$tmp/flash.bin" "$tmp/flash.bin" > "$tmp/two.bin"
timeout 60 "$tool" --partition auto "$tmp/two.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q 'two.bin: 2 regions read as NVS, the scan does not choose: 0x10000\.\.0x18000 (8 sectors of 4096 bytes' "$tmp/err" ||
	bad "two partitions: $(cat "$tmp/err")"
# a DTS or DTB given as the dump, a gzip file, text: said what they are
gzip -c "$vec/nvs_rpl_2pass.bin" > "$tmp/dump.bin.gz"
printf 'hello\n' > "$tmp/notes.txt"
for f in board.dts:'a devicetree source (DTS)' board.dtb:'a devicetree blob (DTB)' \
	dump.bin.gz:'a gzip file' notes.txt:'a text file'; do
	file=${f%%:*} what=${f#*:}
	timeout 60 "$tool" "$tmp/$file" > /dev/null 2> "$tmp/err"
	[ $? -eq 1 ] && grep -q "$file: is $what" "$tmp/err" || bad "$file given as the dump: $(cat "$tmp/err")"
done
# a bad HEX record names its line
printf ':020000040000FA\n:10000000FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF01\n' > "$tmp/bad.hex"
timeout 60 "$tool" "$tmp/bad.hex" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q 'bad.hex:2: Intel HEX checksum mismatch' "$tmp/err" || bad "bad HEX: $(cat "$tmp/err")"
# never silently wrong: a wrong --offset, a partition running into other
# data, a blank partition
"$tool" --offset 0x1000 --check "$vec/settings_rpl.bin" > "$tmp/out" 2>&1
grep -Eq '^warning +layout-before .*the 4096 bytes before the partition, from image offset 0x0, read as NVS sectors: the partition probably starts there \(--offset 0x0\)' "$tmp/out" ||
	bad "a wrong --offset: $(grep layout "$tmp/out")"
grep -q ' 0 errors, 0 warnings' "$tmp/out" && bad "a wrong --offset must not check clean"
python3 "$wrap" "$vec/settings_rpl.bin" "$tmp" --pad random --seed 5
"$tool" --offset 0x10000 --summary "$tmp/flash.bin" > "$tmp/out" 2>&1
grep -q '^warning: sectors 8..23 after the last one that reads as NVS hold other data' "$tmp/out" ||
	bad "a partition running into other data: $(grep warning "$tmp/out")"
"$tool" --offset 0x14000 --sector-size 4096 --sectors 4 --write-block 4 --summary --wide "$tmp/flash.bin" > "$tmp/out" 2>&1
grep -q '^warning: the 16384 bytes before the partition, from image offset 0x10000, read as NVS sectors: the partition probably starts there (--offset 0x10000)$' "$tmp/out" ||
	bad "NVS before the range not said: $(grep warning "$tmp/out")"
"$damage" fill "$tmp/blank.bin" 32768 255
"$tool" "$tmp/blank.bin" > "$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q 'blank.bin: the partition is blank (all 32768 bytes from offset 0x0 are 0xff): a mount starts it empty' "$tmp/out" ||
	bad "a blank partition: $(cat "$tmp/out")"
"$tool" --format json "$tmp/blank.bin" > "$tmp/out" 2>&1
[ $? -eq 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["blank"] == {"offset": 0, "bytes": 32768, "erase_value": 255} and d["verdicts"] == []' "$tmp/out" ||
	bad "a blank partition as JSON: $(cat "$tmp/out")"
"$tool" --sector-size 4096 --write-block 4 --check "$tmp/blank.bin" > "$tmp/out" 2>&1
grep -Eq '^info +blank +the partition is blank' "$tmp/out" || bad "a blank partition with its geometry: $(cat "$tmp/out")"
echo "$n whole-flash dumps read back"
exit $fail
