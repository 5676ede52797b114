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
	name=$(basename "$bin" .bin)
	expect=$vec/$name.expect.txt
	n=$((n + 1))
	sum_before=$(cksum < "$bin")
	grep '^id=' "$expect" | LC_ALL=C sort > "$tmp/want"
	[ -s "$tmp/want" ] || bad "$name: expect file has no id lines"
	geo=$(sed -n 's/^# geometry: sector_size=\([0-9]*\) sectors=\([0-9]*\) write_block_size=\([0-9]*\).*/--sector-size \1 --sectors \2 --write-block \3/p' "$expect")
	[ -n "$geo" ] || bad "$name: no geometry line"

	# --live alone prints exactly the id lines (geometry given)
	# shellcheck disable=SC2086
	timeout 60 "$tool" --live $geo "$bin" > "$tmp/given" 2> "$tmp/err" || bad "$name: --live $geo exit $?"
	cmp -s "$tmp/want" "$tmp/given" || { bad "$name: --live $geo differs:"; diff "$tmp/want" "$tmp/given" | head -n 5; }

	# every view at once, geometry detected
	views="--summary --live"
	grep -q '^name=' "$expect" && views="$views --settings"
	# shellcheck disable=SC2086
	timeout 60 "$tool" $views "$bin" > "$tmp/auto" 2> "$tmp/err" || bad "$name: $views exit $? ($(cat "$tmp/err"))"
	grep '^id=' "$tmp/auto" > "$tmp/auto_live"
	cmp -s "$tmp/want" "$tmp/auto_live" || { bad "$name: --live (detected geometry) differs:"; diff "$tmp/want" "$tmp/auto_live" | head -n 5; }
	grep -q '^  sector size: detected, ' "$tmp/auto" || bad "$name: the summary does not say the geometry was detected"

	want_mount=$(sed -n 's/^# after mount: //p' "$expect")
	got_mount=$(sed -n 's/^after mount: //p' "$tmp/auto")
	[ "$want_mount" = "$got_mount" ] || bad "$name: --summary after mount '$got_mount', expected '$want_mount'"

	# settings images: --settings lists what settings_load() reported, by name
	if grep -q '^name=' "$expect"; then
		sed -n 's/^name=\(.*\) len=[0-9]* data=\(.*\)$/\1 = \2/p' "$expect" | LC_ALL=C sort > "$tmp/want_settings"
		grep -v '^==' "$tmp/auto" | grep ' = ' > "$tmp/settings"
		cmp -s "$tmp/want_settings" "$tmp/settings" || { bad "$name: --settings differs:"; diff "$tmp/want_settings" "$tmp/settings" | head -n 5; }
		settings=$((settings + 1))
	fi

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
