#!/bin/sh
# fdtcache-trace: the committed fixture traces are what the tool writes for
# the fixture DTBs; bad DTBs exit 1 naming the file; bad usage exits 2.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-trace"

# The committed fixture traces are the reference model's; the DTB is built by
# dtc here, so its sha256 (the header's) is checked against the blob itself.
without_sha() { grep -v '^# dtb: ' "$1"; }
for board in small-board board-500 soc-900; do
	# the trace names the DTB by its base name, so copy it to that name
	cp "$bld/fixtures/dt/$board.dtb" "$tmp/$board.dtb"
	"$tool" --model reference "$tmp/$board.dtb" > "$tmp/$board.trace"
	without_sha "$src/fixtures/traces/$board.trace" > "$tmp/want"
	without_sha "$tmp/$board.trace" | cmp -s - "$tmp/want"
	check "fixtures/traces/$board.trace is what fdtcache-trace --model reference writes" $?
	sha=$(sha256sum "$tmp/$board.dtb" | cut -d' ' -f1)
	grep -qx "# dtb: $board.dtb sha256 $sha" "$tmp/$board.trace"
	check "$board: the header names the DTB and its sha256" $?
done
"$tool" --model reference -o "$tmp/o.trace" "$tmp/small-board.dtb"
cmp -s "$tmp/o.trace" "$tmp/small-board.trace"
check "--output writes the same trace" $?
n=$(grep -vc '^#' "$tmp/small-board.trace")
[ "$n" -eq 19 ]
check "small-board: 19 lookups (got $n)" $?

head -c 100 "$tmp/small-board.dtb" > "$tmp/cut.dtb"
expect_exit "truncated DTB" 1 "$tool" "$tmp/cut.dtb"
grep -q "^fdtcache-trace: $tmp/cut.dtb: not a valid DTB: " "$tmp/err"
check "truncated DTB: message names the file and libfdt's reason" $?
expect_exit "a .dts is not a DTB" 1 "$tool" "$src/fixtures/dt/small-board.dts"
expect_exit "empty file" 1 "$tool" /dev/null
expect_exit "missing file" 1 "$tool" "$tmp/none.dtb"
grep -q "none.dtb" "$tmp/err"
check "missing file: message names it" $?
expect_exit "no DTB" 2 "$tool"
grep -q "Usage:" "$tmp/err"
check "no DTB: usage on stderr" $?
expect_exit "two DTBs" 2 "$tool" "$tmp/small-board.dtb" "$tmp/small-board.dtb"
expect_exit "unknown option" 2 "$tool" --frobnicate "$tmp/small-board.dtb"
expect_exit "--core-init-after -1" 2 "$tool" --model reference --core-init-after -1 "$tmp/small-board.dtb"
expect_exit "--core-init-after with the boot model" 2 "$tool" --core-init-after 2 "$tmp/small-board.dtb"
expect_exit "--model bogus" 2 "$tool" --model bogus "$tmp/small-board.dtb"
expect_exit "--version" 0 "$tool" --version
grep -q "^fdtcache-trace " "$tmp/out"
check "--version prints the name and version" $?
expect_exit "-V" 0 "$tool" -V
expect_exit "-h" 0 "$tool" -h
grep -q "Usage:" "$tmp/out"
check "-h prints the usage" $?
exit $fail
