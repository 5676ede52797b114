#!/bin/sh
# nvs-inspect on every Zephyr-written vector: --live prints exactly the id
# lines of the .expect.txt (in increasing id order), with the geometry
# detected and given; --summary reports the write pointers and free space of
# the "# after mount" line; --settings lists the names and values that
# settings_load() reported, sorted by name; --check finds nothing wrong in the vectors that
# no power cut damaged; the dump is never modified.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"
n=0
settings=0

for bin in "$vec"/*.bin; do
	vector_start "$bin"

	# shellcheck disable=SC2086
	read_back $geo
	grep -q '^  sector size: detected, ' "$tmp/auto" || bad "$name: the summary does not say the geometry was detected"

	# an intact image has nothing to report, whichever sector the walk starts at
	case $name in
	nvs_cut_*) ;;
	*)
		timeout 60 "$tool" --check "$bin" > "$tmp/check" 2> "$tmp/err" || bad "$name: --check exit $?"
		grep -q ': 0 errors, 0 warnings$' "$tmp/check" || { bad "$name: --check reports damage:"; head -n 5 "$tmp/check"; }
		;;
	esac

	[ "$(cksum < "$bin")" = "$sum_before" ] || bad "$name: the dump was modified"
done

# nvs_rpl_wrapped's walk starts at sector 2: a flipped ATE bit in every
# sector holding ATEs, including 0 and 1 (walked last), is found where it is
damage=$top_builddir/tests/tools/nvs-damage
for at in 0:0f00 1:0fd0 3:0f00 7:0f00; do
	s=${at%:*} off=${at#*:}
	cp "$vec/nvs_rpl_wrapped.bin" "$tmp/flip.bin"
	"$damage" flip "$tmp/flip.bin" $((s * 4096 + 0x$off)) 0
	timeout 60 "$tool" --check "$tmp/flip.bin" > "$tmp/check" 2>&1
	[ $? -eq 1 ] || bad "nvs_rpl_wrapped, bit flipped in sector $s: --check must exit 1"
	grep -Eq "^error +ate-crc +sector $s offset 0x$off: " "$tmp/check" || { bad "nvs_rpl_wrapped, bit flipped in sector $s: no ate-crc verdict there"; head -n 5 "$tmp/check"; }
done
[ "$n" -eq 25 ] || bad "expected 25 vectors, found $n"
[ "$settings" -eq 5 ] || bad "expected 5 settings vectors, found $settings"
echo "$n vectors checked, $settings with settings"
exit $fail
