#!/bin/sh
# fdtcache-trace --model bootloader: on every committed DTB its typed lookups
# match an independent count (tests/tools/bootloader-model-count.py walks the
# blob itself), the trace parses back, and fdtcache-bench replays it with
# every answer equal to libfdt's.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
trace_tool="$bld/tools/fdtcache-trace"
bench="$bld/tools/fdtcache-bench"

# The kinds as the trace shows them (comments tell reg from climb lookups).
kinds() {
	awk '
	/^alias / { n["alias"]++ }
	/^path / { n["path"]++ }
	/^cells [^ ]* reg / { n["reg-cells"]++ }
	/^parent .* # reg$/ { n["parent-reg"]++ }
	/^parent .* # interrupt-parent climb$/ { n["parent-climb"]++ }
	/^cells [^ ]* #interrupt-cells # interrupts$/ { n["irq-cells"]++ }
	END { split("alias irq-cells parent-climb parent-reg path reg-cells", k, " ");
	      for (i = 1; i <= 6; i++) print k[i], n[k[i]] + 0 }'
}

for dtb in "$src/fixtures/dt/kernel/rk3399-rock960.dtb" "$src"/fixtures/boots/*/*.dtb \
	"$bld/fixtures/dt/small-board.dtb" "$bld/fixtures/dt/board-500.dtb" \
	"$bld/fixtures/dt/soc-900.dtb"; do
	name=$(basename "$dtb")
	"$trace_tool" --model bootloader -o "$tmp/$name.trace" "$dtb"
	check "$name: fdtcache-trace --model bootloader exits 0" $?
	python3 "$src/tests/tools/bootloader-model-count.py" "$dtb" > "$tmp/want"
	kinds < "$tmp/$name.trace" | diff "$tmp/want" - > "$tmp/diff"
	check "$name: typed lookups match the independent count" $?
	cat "$tmp/diff"
	"$bench" -f csv -p index -t "$tmp/$name.trace" "$dtb" > "$tmp/out.csv"
	check "$name: fdtcache-bench replays it, every answer libfdt's" $?
	# the bench's per-kind lookups are the trace's lines of each kind
	for k in path alias parent cells; do
		lines=$(grep -c "^$k " "$tmp/$name.trace")
		got=$(awk -F, -v k="$k" '$1 == k || (k == "cells" && $1 == "reg-cells") { s += $3 }
			END { print s + 0 }' "$tmp/out.csv")
		[ "$lines" -eq "$got" ]
		check "$name: $k lookups replayed ($got of $lines)" $?
	done
done

# rk3399-rock960: a real kernel DTB, its counters exactly (256-slot name caches).
typed_counters -p index -t "$tmp/rk3399-rock960.dtb.trace" \
	"$src/fixtures/dt/kernel/rk3399-rock960.dtb" > "$tmp/rk.csv"
diff "$src/tests/tools/fdtcache-trace-bootloader-rk3399.csv" "$tmp/rk.csv"
check "rk3399-rock960 bootloader counters" $?
exit $fail
