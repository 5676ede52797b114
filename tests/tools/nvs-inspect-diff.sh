#!/bin/sh
# nvs-inspect --diff on pairs of Zephyr vectors written by successive passes
# of one workload (fixtures/nvs/zephyr/README.md), and on pairs of ZMS
# vectors of one geometry (fixtures/zms/zephyr/README.md): the ids it lists
# as added, changed and deleted are exactly those the two expect files
# differ in, computed here from the expect files alone; the settings the
# same by name; a dump against itself shows no change; the JSON form parses.
set -u
. "${top_srcdir:-.}/tests/tools/nvs-inspect-common.sh"

# expected OLD.expect NEW.expect: "added|changed|deleted id=0x....", sorted
expected() {
	awk 'FNR == 1 { f++ } /^id=/ { split($1, a, "="); split($3, d, "=");
		if (f == 1) old[a[2]] = d[2]; else new[a[2]] = d[2] }
	END { for (k in new) if (!(k in old)) print "added id=" k;
		else if (old[k] != new[k]) print "changed id=" k;
		for (k in old) if (!(k in new)) print "deleted id=" k }' "$1" "$2" | LC_ALL=C sort
}

# expected_settings OLD.expect NEW.expect: "added|changed|deleted setting NAME"
expected_settings() {
	awk 'FNR == 1 { f++ } /^name=/ { n = substr($1, 6); split($3, d, "=");
		if (f == 1) old[n] = d[2]; else new[n] = d[2] }
	END { for (k in new) if (!(k in old)) print "added setting " k;
		else if (old[k] != new[k]) print "changed setting " k;
		for (k in old) if (!(k in new)) print "deleted setting " k }' "$1" "$2" | LC_ALL=C sort
}

# check_pair DIR OLD NEW
check_pair() {
	dir=$1 old=$2 new=$3 pair=$2:$3
	timeout 60 "$tool" --diff "$dir/$old.bin" "$dir/$new.bin" > "$tmp/out" 2> "$tmp/err" ||
		{ bad "$pair: exit $?: $(cat "$tmp/err")"; return; }
	expected "$dir/$old.expect.txt" "$dir/$new.expect.txt" > "$tmp/want"
	sed -n 's/^\(added\|changed\|deleted\) id=\(0x[0-9a-f]*\) .*/\1 id=\2/p' "$tmp/out" |
		LC_ALL=C sort > "$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		{ bad "$pair: ids differ from the expect files:"; diff "$tmp/want" "$tmp/got" | head -n 5; }
	expected_settings "$dir/$old.expect.txt" "$dir/$new.expect.txt" > "$tmp/want"
	sed -n 's/^\(added\|changed\|deleted\) setting \([^ ]*\) = .*/\1 setting \2/p' "$tmp/out" |
		LC_ALL=C sort > "$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		{ bad "$pair: settings differ from the expect files:"; diff "$tmp/want" "$tmp/got" | head -n 5; }
	timeout 60 "$tool" --diff --format json "$dir/$old.bin" "$dir/$new.bin" > "$tmp/json" 2>&1
	"$damage" json "$tmp/json" schema old new ids settings sectors mount_old mount_new ||
		bad "$pair: bad JSON"
}

for pair in nvs_rpl_2pass:nvs_rpl_wrapped settings_rpl:settings_rpl_wrapped \
	nvs_cut_data:nvs_cut_ate nvs_gc_copies:nvs_cut_erase nvs_deletes_nowrap:nvs_deletes \
	kvss_settings_rpl:settings_rpl nvs_history:nvs_history; do
	check_pair "$vec" "${pair%%:*}" "${pair#*:}"
done
grep -q '^0 ids added, 0 changed, 0 deleted; 0 settings changed$' "$tmp/out" ||
	bad "a dump against itself: $(tail -n 1 "$tmp/out")"

# ZMS: ids of 32 bits, settings_zms names, the mounts' GC recovery
zvec=$top_srcdir/fixtures/zms/zephyr
for pair in zms_cut_data:zms_cut_ate zms_cut_gc_copy:zms_cut_erase zms_cache_off:zms_cache_on \
	zms_rram_cut_empty:zms_rram_cycles settings_cut:settings_many_saves \
	zms_crc_small:zms_deletes_nowrap zms_history:zms_history; do
	check_pair "$zvec" "${pair%%:*}" "${pair#*:}"
done
grep -q '^0 ids added, 0 changed, 0 deleted; 0 settings changed$' "$tmp/out" ||
	bad "a dump against itself: $(tail -n 1 "$tmp/out")"
# a ZMS diff's ids are strings in JSON, as in its other views
timeout 60 "$tool" --diff -f json "$zvec/zms_cut_data.bin" "$zvec/zms_cut_gc_copy.bin" > "$tmp/json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["ids"] and all(isinstance(c["id"], str) for c in d["ids"])' "$tmp/json" ||
	bad "ZMS --diff JSON: ids are not strings"
timeout 60 "$tool" --diff "$vec/nvs_history.bin" "$zvec/zms_history.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q 'nvs_history.bin is NVS, .*zms_history.bin is ZMS: --diff compares two dumps of one format' "$tmp/err" ||
	bad "--diff of an NVS and a ZMS dump: $(cat "$tmp/err")"
"$tool" --diff "$vec/nvs_history.bin" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q -- '--diff needs OLD and NEW' "$tmp/err" || bad "--diff with one file must be a usage error"
exit $fail
