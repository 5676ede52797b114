# Sourced by the nvs-inspect tool tests: sanitizer exit codes, the path
# of the tool under test, the fixtures, a temporary folder and bad().
# under the sanitizers a report must not pass for the tool's exit status 1
ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=99}
export ASAN_OPTIONS UBSAN_OPTIONS
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tool=$top_builddir/tools/nvs-inspect/nvs-inspect
# the program itself, not libtool's wrapper script (which forks a shell and
# sed on every run); its uninstalled library is in libcore/.libs
if [ -x "$top_builddir/tools/nvs-inspect/.libs/nvs-inspect" ]; then
	tool=$top_builddir/tools/nvs-inspect/.libs/nvs-inspect
	LD_LIBRARY_PATH=$top_builddir/libcore/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
fi
damage=$top_builddir/tests/tools/nvs-damage
vec=$top_srcdir/fixtures/nvs/zephyr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# vector_start BIN: name, expect and sum_before of a vector, its expect
# file's id lines sorted in $tmp/want, its geometry (ss, sectors, wb, erase:
# explicit_erase, ZMS only) and geo, the options that give it; n counts the
# vectors
vector_start() {
	bin=$1 name=$(basename "$1" .bin) expect=${1%.bin}.expect.txt
	n=$((n + 1))
	sum_before=$(cksum < "$bin")
	grep '^id=' "$expect" | LC_ALL=C sort > "$tmp/want"
	[ -s "$tmp/want" ] || bad "$name: expect file has no id lines"
	line=$(grep '^# geometry: ' "$expect") || bad "$name: no geometry line"
	ss=$(echo "$line" | sed -n 's/.* sector_size=\([0-9]*\).*/\1/p')
	sectors=$(echo "$line" | sed -n 's/.* sectors=\([0-9]*\).*/\1/p')
	wb=$(echo "$line" | sed -n 's/.* write_block_size=\([0-9]*\).*/\1/p')
	erase=$(echo "$line" | sed -n 's/.* explicit_erase=\([a-z]*\).*/\1/p')
	geo="--sector-size $ss --sectors $sectors --write-block $wb${erase:+ --explicit-erase $erase}"
}
# mount_of: the "after mount" line on stdin as far as it is compared with a
# vector's (zms_cut_data and zms_cut_ate: libcore's mount steps over the torn
# bytes that Zephyr's programs the next value over, so data_wra and
# active_sector_free differ on purpose)
mount_of() {
	case $name in
	zms_cut_data | zms_cut_ate) sed 's/ data_wra=[^ ]*//; s/ active_sector_free=.*//' ;;
	*) cat ;;
	esac
}
# read_back OPTION...: on the vector vector_start set, --live with the
# options (the geometry given) prints exactly $tmp/want; --summary --live
# (--settings too on a settings vector) with the geometry detected, kept in
# $tmp/auto, prints those lines too, the expect file's "after mount" line
# and the names and values settings_load() reported, by name (counted in
# settings)
read_back() {
	timeout 60 "$tool" --live "$@" "$bin" > "$tmp/given" 2> "$tmp/err" || bad "$name: --live $* exit $? ($(cat "$tmp/err"))"
	cmp -s "$tmp/want" "$tmp/given" || { bad "$name: --live $* differs:"; diff "$tmp/want" "$tmp/given" | head -n 5; }
	views="--summary --live"
	grep -q '^name=' "$expect" && views="$views --settings"
	# shellcheck disable=SC2086
	timeout 60 "$tool" $views "$bin" > "$tmp/auto" 2> "$tmp/err" || bad "$name: $views exit $? ($(cat "$tmp/err"))"
	grep '^id=' "$tmp/auto" > "$tmp/auto_live"
	cmp -s "$tmp/want" "$tmp/auto_live" || { bad "$name: --live (detected geometry) differs:"; diff "$tmp/want" "$tmp/auto_live" | head -n 5; }
	want_mount=$(sed -n 's/^# after mount: //p' "$expect" | mount_of)
	got_mount=$(sed -n 's/^after mount: //p' "$tmp/auto" | mount_of)
	[ "$want_mount" = "$got_mount" ] || bad "$name: --summary after mount '$got_mount', expected '$want_mount'"
	if grep -q '^name=' "$expect"; then
		sed -n 's/^name=\(.*\) len=[0-9]* data=\(.*\)$/\1 = \2/p' "$expect" | LC_ALL=C sort > "$tmp/want_settings"
		grep -v '^==' "$tmp/auto" | grep ' = ' > "$tmp/settings"
		cmp -s "$tmp/want_settings" "$tmp/settings" || { bad "$name: --settings differs:"; diff "$tmp/want_settings" "$tmp/settings" | head -n 5; }
		settings=$((settings + 1))
	fi
}
