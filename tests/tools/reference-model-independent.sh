#!/bin/sh
# fdtcache-trace --model reference against a second implementation of the
# same rules (tests/tools/linux-phandle-model.py --reference, which reads the
# blob's structure block itself): the same lookups in the same order on every
# committed DTB. `make check-debian-dtbs` runs the comparison over Debian's
# kernel DTBs.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-trace"
model="$src/tests/tools/linux-phandle-model.py"
if ! command -v python3 > /dev/null; then
	echo "# python3 not installed: skipped"
	exit 77
fi
dtbs=0
# fixtures/dt/*.dtb are built from their .dts (in the build tree)
for dtb in "$bld"/fixtures/dt/*.dtb "$src"/fixtures/dt/kernel/*.dtb "$src"/fixtures/boots/*/*.dtb; do
	name=${dtb#"$src"/}
	name=${name#"$bld"/}
	"$tool" --model reference "$dtb" | awk '/^0x/ { print $1 }' > "$tmp/tool"
	python3 "$model" --reference "$dtb" > "$tmp/model"
	[ -s "$tmp/model" ] && cmp -s "$tmp/tool" "$tmp/model"
	same=$?
	check "$name: $(wc -l < "$tmp/model") lookups, the same from both" "$same"
	dtbs=$((dtbs + 1))
done
[ "$dtbs" -ge 8 ]
check "at least 8 DTBs compared ($dtbs)" $?
exit $fail
