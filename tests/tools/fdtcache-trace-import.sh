#!/bin/sh
# fdtcache-trace --import (capture, kprobe, list) and hostile inputs: large
# DTBs in linear time, file names that are not UTF-8.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-trace"

# --import capture: the raw log of scripts/capture-boot-trace
sha=6098f71baea5daa1634d4368617149fe040141c083a06b8d19f6502711542144
{
	printf '# fdtcache-capture 1\r\n# board: sabrelite\n# dtb: b.dtb sha256 %s\n' "$sha"
	printf 'lookup 0x0000001c of_irq_init+0x1a0\nlookup 0x00000000 of_irq_find_parent+0x40\n'
	printf 'mark core_init\nlookup 0x0000001d of_phandle_iterator_next+0x8c\n'
	printf 'lookup 0xffffffff 0xc0a1b2c3\nmark user\nlookup 0x0000001c\n'
} > "$tmp/raw.log"
"$tool" --import capture -o "$tmp/cap.trace" "$tmp/raw.log"
check "--import capture exits 0" $?
cat > "$tmp/cap.want" <<EOF
# Imported by fdtcache-trace --import capture from raw.log
# board: sabrelite
# dtb: b.dtb sha256 $sha
0x1c # of_irq_init+0x1a0
# 0x0 of_irq_find_parent+0x40 (phandle 0: no lookup)
@core_init
0x1d # of_phandle_iterator_next+0x8c
0xffffffff # 0xc0a1b2c3
@user
0x1c
EOF
diff "$tmp/cap.want" "$tmp/cap.trace" > "$tmp/diff"
check "capture: lookups with their callers, markers, header kept" $?
cat "$tmp/diff"
printf '# fdtcache-capture 1\nlookup 0x1c f+0x1\nlookup zz f+0x2\n' > "$tmp/bad.log"
expect_exit "capture: bad lookup" 1 "$tool" --import capture "$tmp/bad.log"
grep -qx "fdtcache-trace: $tmp/bad.log:3: expected 'lookup 0xPHANDLE \[CALLER\]'" "$tmp/err"
check "capture: bad lookup: FILE:LINE: why" $?
printf '0x1c\n' > "$tmp/notcap.log"
expect_exit "capture: not a capture log" 1 "$tool" --import capture "$tmp/notcap.log"
grep -q "notcap.log:1: not a capture log" "$tmp/err"
check "capture: first line checked" $?
printf '# fdtcache-capture 1\nmark user\nmark core_init\n' > "$tmp/order.log"
expect_exit "capture: core_init after user" 1 "$tool" --import capture "$tmp/order.log"
grep -q "order.log:3: mark core_init after mark user" "$tmp/err"
check "capture: markers in order" $?
printf '# fdtcache-capture 1\nmark core_init\n' > "$tmp/none.log"
expect_exit "capture: no lookup" 1 "$tool" --import capture "$tmp/none.log"
grep -q "none.log:2: no lookup found" "$tmp/err"
check "capture: no lookup is an error naming FILE:LINE" $?

# --import kprobe: ftrace text of kprobe_event=p:phk/lookup,of_find_node_by_phandle,h=%x0:x32
cat > "$tmp/kp.txt" <<'EOF'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
       swapper/0-1       [000] .....     1.045120: lookup: (of_find_node_by_phandle+0x0/0x98) h=0x1c
     kworker/0:1-23      [000] d....     1.046000: sched_switch: prev_comm=x
       swapper/0-1       [000] .....     1.047003: lookup: (of_find_node_by_phandle+0x0/0x98) h=0x3
EOF
"$tool" --import kprobe "$tmp/kp.txt" > "$tmp/kp.trace"
check "--import kprobe exits 0" $?
grep -v '^#' "$tmp/kp.trace" > "$tmp/kp.lookups"
printf '0x1c # swapper/0-1 1.045120\n0x3 # swapper/0-1 1.047003\n' | diff - "$tmp/kp.lookups" > "$tmp/diff"
check "kprobe: the probe's lookups with task and time, other events skipped" $?
cat "$tmp/diff"
printf 'CPU:0 [LOST 12 EVENTS]\n' >> "$tmp/kp.txt"
expect_exit "kprobe: lost events" 1 "$tool" --import kprobe "$tmp/kp.txt"
grep -q "kp.txt:8: the trace buffer lost events" "$tmp/err"
check "kprobe: lost events are an error naming FILE:LINE" $?

# --import list: phandles separated by white space or commas
printf '0x1c, 3 # comment\n\n7\t0x8\n' > "$tmp/list.txt"
"$tool" --import list "$tmp/list.txt" | grep -v '^#' | tr '\n' ' ' > "$tmp/list.out"
[ "$(cat "$tmp/list.out")" = "0x1c 0x3 0x7 0x8 " ]
check "list: every phandle, normalised to hex" $?
printf '1\n0\n' > "$tmp/list0.txt"
expect_exit "list: phandle 0" 1 "$tool" --import list "$tmp/list0.txt"
grep -q "list0.txt:2: phandle out of range" "$tmp/err"
check "list: a bad value names FILE:LINE" $?
expect_exit "--import bogus" 2 "$tool" --import bogus "$tmp/list.txt"
expect_exit "--import, missing file" 1 "$tool" --import list "$tmp/nope.txt"
grep -q "nope.txt" "$tmp/err"
check "--import, missing file: named" $?
"$tool" --import list - < "$tmp/list.txt" | grep -vc '^#' > "$tmp/n"
[ "$(cat "$tmp/n")" -eq 4 ]
check "--import list - reads standard input" $?

# Large DTBs in linear time (they took minutes when each reference was
# resolved by a scan and each node's path rebuilt from the root). The
# timeout only guards against a hang; the growth benchmark measures speed.
if command -v dtc > /dev/null && command -v timeout > /dev/null; then
	awk 'BEGIN { print "/dts-v1/;"; print "/ {"; for (i = 1; i <= 5000; i++) {
		printf "n%d { compatible = \"v,d\"; phandle = <%d>; #clock-cells = <1>; clocks =", i, i
		for (k = 0; k < 10; k++) printf "%s <%d %d>", k ? "," : "", (i * 7 + k * 13) % 5000 + 1, k
		print "; };" } print "};" }' > "$tmp/refs.dts"
	dtc -q -I dts -O dtb -o "$tmp/refs.dtb" "$tmp/refs.dts"
	timeout 60 "$tool" --model reference "$tmp/refs.dtb" > "$tmp/refs.trace"
	check "5,000 nodes x 10 clocks references: done" $?
	[ "$(grep -vc '^#' "$tmp/refs.trace")" -eq 50000 ]
	check "5,000 nodes x 10 clocks references: 50,000 lookups" $?
	timeout 60 "$tool" "$tmp/refs.dtb" > /dev/null
	check "5,000 nodes x 10 clocks references, boot model: done" $?
	awk 'BEGIN { print "/dts-v1/;"; print "/ {"; for (i = 0; i < 200; i++) {
		printf "b%d {", i; for (k = 0; k < 99; k++) printf " c%d { };", k; print " };" }
		print "x { phandle = <1>; }; y { p-supply = <1>; }; };" }' > "$tmp/wide.dts"
	dtc -q -I dts -O dtb -o "$tmp/wide.dtb" "$tmp/wide.dts"
	timeout 60 "$tool" --model reference "$tmp/wide.dtb" > "$tmp/wide.trace"
	check "20,000 nodes: done" $?
	grep -qx '0x1 # /y p-supply' "$tmp/wide.trace"
	check "20,000 nodes: the one reference, with its path" $?
else
	echo "# dtc or timeout missing: large-DTB checks skipped"
fi

# Non-UTF-8 and control bytes in a file name never reach the trace raw.
name=$(printf 'bad\377\033name.dtb')
cp "$bld/fixtures/dt/small-board.dtb" "$tmp/$name"
"$tool" --model reference "$tmp/$name" > "$tmp/esc.trace"
grep -q 'bad\\xff\\x1bname.dtb' "$tmp/esc.trace" && ! grep -q "$(printf '\033')" "$tmp/esc.trace"
check "a non-UTF-8 DTB name is escaped in the trace" $?
exit $fail
