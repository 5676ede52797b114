#!/bin/sh
# nvs-inspect on every Zephyr-written ZMS vector: the format is detected
# (and given); --live prints exactly the id lines of the .expect.txt with
# the geometry detected and given; --summary detects the expect's sector
# size, sector count, device kind and (where the layout proves it) write
# block, and prints its "# after mount" line (the two torn-data images,
# where libcore's mount steps over the torn bytes, on purpose, match in
# everything but data_wra); --settings lists what settings_load() reported;
# --check finds nothing wrong in the vectors no power cut damaged, and
# names the damage in those a cut did; JSON parses; the dump is never
# modified.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"
vec=$top_srcdir/fixtures/zms/zephyr
n=0
settings=0

for bin in "$vec"/*.bin; do
	vector_start "$bin"

	# shellcheck disable=SC2086
	read_back --format-kind zms $geo
	grep -q '^format: ZMS (detected' "$tmp/auto" || bad "$name: the format is not detected as ZMS"
	grep -q "^geometry: offset 0, $sectors sectors of $ss bytes, write block " "$tmp/auto" || bad "$name: detected $(grep '^geometry:' "$tmp/auto"), expected $sectors x $ss"
	if [ "$erase" = no ]; then kind="no explicit erase"; else kind="explicit erase"; fi
	grep -q "^geometry: .*, $kind\$" "$tmp/auto" || bad "$name: device kind: $(grep '^geometry:' "$tmp/auto"), expected $kind"
	if grep -q '^  write block: detected, certain' "$tmp/auto"; then
		grep -q "^geometry: .* write block $wb," "$tmp/auto" || bad "$name: write block (certain) $(grep '^geometry:' "$tmp/auto"), expected $wb"
	fi

	# an intact image has nothing to report; a cut one reports its damage
	timeout 60 "$tool" --check "$bin" > "$tmp/check" 2> "$tmp/err"
	rc=$?
	case $name in
	zms_rram_cut_empty) intact=yes ;; # its torn empty ATE kept bytes 0-1: harmless (README)
	*_cut_* | settings_cut) intact=no ;;
	*) intact=yes ;;
	esac
	if [ $intact = no ]; then
		[ $rc -le 1 ] || bad "$name: --check exit $rc"
		grep -Eq '^(error|warning) ' "$tmp/check" || bad "$name: --check finds nothing in a power-cut image"
	else
		[ $rc -eq 0 ] || bad "$name: --check exit $rc"
		grep -q ': 0 errors, 0 warnings$' "$tmp/check" || { bad "$name: --check reports damage:"; head -n 5 "$tmp/check"; }
	fi

	timeout 60 "$tool" -f json --summary --live --ates --settings --check --history 1 "$bin" > "$tmp/json" 2> "$tmp/err"
	[ $? -le 1 ] || bad "$name: JSON exit $?"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format_kind"] == "zms"; assert len(d["live"]) == int(sys.argv[2])' "$tmp/json" "$(wc -l < "$tmp/want")" || bad "$name: JSON does not parse or lacks the live entries"

	[ "$(cksum < "$bin")" = "$sum_before" ] || bad "$name: the dump was modified"
done

# the damage a cut left is named where it is
timeout 60 "$tool" --check "$vec/zms_cut_ate.bin" > "$tmp/check"
grep -Eq '^error +ate-crc +sector 2 offset 0x0520: ' "$tmp/check" || bad "zms_cut_ate: no ate-crc at sector 2 offset 0x0520"
grep -Eq '^warning +torn-data +sector 2 offset 0x03f0: ' "$tmp/check" || bad "zms_cut_ate: no torn-data at sector 2 offset 0x03f0"
timeout 60 "$tool" --check "$vec/zms_cut_data.bin" > "$tmp/check"
grep -Eq '^warning +torn-data +sector 2 offset 0x03f0: 12 bytes' "$tmp/check" || bad "zms_cut_data: no torn-data of 12 bytes at sector 2 offset 0x03f0"
timeout 60 "$tool" --check "$vec/zms_cut_erase.bin" > "$tmp/check"
grep -q 'a mount would erase sector 3 and write its empty ATE' "$tmp/check" || bad "zms_cut_erase: the mount's erase of sector 3 is not said"

# --salvage: one bit of a live ATE's id flipped (its crc8 fails): its value,
# stored outside it, is offered unverified with the id as stored; the 12
# bytes zms_cut_data's cut left without an ATE are offered as such
cp "$vec/zms_large_values.bin" "$tmp/damaged.bin"
timeout 60 "$tool" -f json --ates "$vec/zms_large_values.bin" > "$tmp/json"
set -- $(python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
a=[a for a in d["ates"] if a["status"] == "live" and a["data"]][0]
print(a["sector"] * d["geometry"]["sector_size"] + a["slot"] + 4, a["addr"], a["id"], a["data"])' "$tmp/json")
"$damage" flip "$tmp/damaged.bin" "$1" 0
timeout 60 "$tool" --salvage --check "$tmp/damaged.bin" > "$tmp/out"
grep -Eq "^error +ate-crc +sector [0-9]+ offset 0x[0-9a-f]{4}: " "$tmp/out" || bad "damaged ZMS ATE: no ate-crc verdict"
flipped=$(printf '0x%08x' $(($3 ^ 1)))
grep -qx "unverified ate-crc-bad at $2: id=$flipped len=$((${#4} / 2)) data=$4" "$tmp/out" ||
	{ bad "damaged ZMS ATE: its value is not salvaged:"; grep unverified "$tmp/out" | cut -c1-100; }
[ "$(grep -c '^unverified ' "$tmp/out")" -eq 1 ] || bad "damaged ZMS ATE: a byte salvaged twice"
timeout 60 "$tool" -f json --salvage "$tmp/damaged.bin" > "$tmp/json"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["salvage"]; assert len(s) == 1 and s[0]["kind"] == "ate-crc-bad" and s[0]["id"] == sys.argv[2] and s[0]["verified"] is False' "$tmp/json" "$flipped" ||
	bad "damaged ZMS ATE: JSON salvage"
timeout 60 "$tool" --salvage "$vec/zms_cut_data.bin" > "$tmp/out"
grep -qx 'unverified data-without-ate at 2:0x03f0: len=12 data=140000049495969798999a9b' "$tmp/out" ||
	bad "zms_cut_data --salvage: $(cat "$tmp/out")"
timeout 60 "$tool" --salvage "$vec/zms_small_wbs4.bin" > "$tmp/out"
[ "$(cat "$tmp/out")" = "nothing to salvage" ] || bad "an intact ZMS image offers salvage: $(cat "$tmp/out")"

# settings_cut: setting 10's value and list node stay stored, unreached by the list
timeout 60 "$tool" --check "$vec/settings_cut.bin" > "$tmp/check"
for id in 0xbd8d1501 0xfd8d1500; do
	grep -Eq "^warning +settings-unlinked +sector 0 offset 0x[0-9a-f]{4}: settings id $id is stored" "$tmp/check" ||
		bad "settings_cut: no settings-unlinked verdict for $id"
done
[ "$(grep -c settings-unlinked "$tmp/check")" -eq 2 ] || bad "settings_cut: $(grep -c settings-unlinked "$tmp/check") settings-unlinked verdicts, expected 2"

# history: four passes over id 5 (new, new, new, same), newest first
timeout 60 "$tool" --history 5 "$vec/zms_history.bin" > "$tmp/hist"
[ "$(grep -c ' len=4 data=' "$tmp/hist")" -eq 4 ] || { bad "zms_history: --history 5 lists $(grep -c ' len=' "$tmp/hist") values, expected 4"; cat "$tmp/hist"; }
newest=$(sed -n 's/^id=0x00000005 len=4 data=//p' "$vec/zms_history.expect.txt")
head -n 1 "$tmp/hist" | grep -q "^[0-9]*:0x[0-9a-f]* live  *len=4 data=$newest\$" || bad "zms_history: newest value $(head -n 1 "$tmp/hist"), expected $newest"
# a setting's history, by name
timeout 60 "$tool" --history bt/mesh/rpl/1a2b "$vec/settings_many_saves.bin" > "$tmp/hist"
grep -q ' live  *len=4 data=' "$tmp/hist" || bad "settings_many_saves: --history by name shows no live value"

# 64-bit ids: printed with 16 digits, --history takes them
timeout 60 "$tool" --format-kind zms --history 0x5a00000200000102 "$vec/zms_id64_small.bin" > "$tmp/hist"
grep -q ' live  *len=2 data=0200$' "$tmp/hist" || bad "zms_id64_small: --history of a 64-bit id: $(cat "$tmp/hist")"

# the format can be forced either way, with a clear message when it does not fit
timeout 60 "$tool" --format-kind zms "$top_srcdir/fixtures/nvs/zephyr/nvs_rpl_2pass.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || bad "--format-kind zms on an NVS image must exit 1"
grep -q 'nvs_rpl_2pass.bin: --format-kind zms: no sector ends with a ZMS empty ATE' "$tmp/err" || bad "--format-kind zms on NVS: $(cat "$tmp/err")"
timeout 60 "$tool" --format-kind nvs "$vec/zms_small_wbs4.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] || bad "--format-kind nvs on a ZMS image must exit 1"
timeout 60 "$tool" --format-kind zfs "$vec/zms_small_wbs4.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || bad "--format-kind zfs must be a usage error"

[ "$n" -eq 27 ] || bad "expected 27 vectors, found $n"
[ "$settings" -eq 3 ] || bad "expected 3 settings vectors, found $settings"
echo "$n ZMS vectors checked, $settings with settings"
exit $fail
