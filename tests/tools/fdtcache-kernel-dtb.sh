#!/bin/sh
# fdtcache-trace and fdtcache-bench on a kernel-built DTB (Debian's
# rk3399-rock960): the committed trace, the counters of an independent model
# of Linux's lookups, and a damaged copy. With python3, the model is also run
# against the tool on every fixture, with core init first and moved late.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
bench="$bld/tools/fdtcache-bench"
kdir="$src/fixtures/dt/kernel"
kdtb="$kdir/rk3399-rock960.dtb"
ktrace="$src/fixtures/traces/rk3399-rock960.trace"
counters() { # drop the measured ns_per_lookup column
	cut -d, -f1-9
}
core_init_late() { # @core_init before the first line naming an i2c node
	awk '!done && /\/i2c@/ { print "@core_init"; done = 1 } { print }' "$1"
}

"$bld/tools/fdtcache-trace" --model reference "$kdtb" | diff -q "$ktrace" - > /dev/null
check "fdtcache-trace writes the committed rk3399-rock960 trace" $?
"$bench" --format csv --policy none,mask,hash32,index --trace "$ktrace" "$kdtb" | counters |
	diff "$kdir/rk3399-rock960.expect.csv" - > "$tmp/diff"
check "rk3399-rock960 counters = Linux model, core init first" $?
cat "$tmp/diff"
core_init_late "$ktrace" > "$tmp/late.trace"
"$bench" --format csv --policy none,mask,hash32,index --trace "$tmp/late.trace" "$kdtb" | counters |
	diff "$kdir/rk3399-rock960.core-init-late.expect.csv" - > "$tmp/diff"
check "rk3399-rock960 counters = Linux model, core init late" $?
cat "$tmp/diff"

head -c 30000 "$kdtb" > "$tmp/cut.dtb"
expect_exit "truncated kernel DTB" 1 "$bench" "$tmp/cut.dtb"
grep -q "cut.dtb" "$tmp/err"
check "truncated kernel DTB: message names the file" $?

if command -v python3 > /dev/null; then
	model="$src/tests/tools/linux-phandle-model.py"
	for pair in "$kdtb:$ktrace" \
		"$bld/fixtures/dt/small-board.dtb:$src/fixtures/traces/small-board.trace" \
		"$bld/fixtures/dt/board-500.dtb:$src/fixtures/traces/board-500.trace" \
		"$bld/fixtures/dt/soc-900.dtb:$src/fixtures/traces/soc-900.trace"; do
		dtb=${pair%%:*} trace=${pair#*:}
		name=$(basename "$dtb" .dtb)
		core_init_late "$trace" > "$tmp/late.trace"
		for t in "$trace" "$tmp/late.trace"; do
			python3 "$model" "$dtb" "$t" > "$tmp/model.csv" &&
				"$bench" --format csv --policy none,mask,hash32,index --trace "$t" "$dtb" | counters |
				diff -q "$tmp/model.csv" - > /dev/null
			check "$name: tool = model ($(basename "$t"))" $?
		done
	done
else
	echo "# python3 not installed: model runs skipped, committed expectations checked"
fi
exit $fail
