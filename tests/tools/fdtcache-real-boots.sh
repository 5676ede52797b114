#!/bin/sh
# fdtcache-bench on the real boots of fixtures/boots/ (captured under QEMU by
# scripts/capture-boot-trace): per board, the trace holds the raw log's
# lookups and marks in order and names its DTB; its counters (none, mask,
# hash32 64/128/256, index) equal the committed ones of the independent Linux
# model and, with python3, the model run now on the raw log; the mask cache
# misses exactly the lookups made before of_core_init.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
bench="$bld/tools/fdtcache-bench"
model="$src/tests/tools/linux-phandle-model.py"
counters() { # the model's columns, picked by name from fdtcache-bench's CSV
	awk -F, -v want=policy,size,lookups,hits,misses,unresolved,evictions,scan_steps,memory_bytes '
		NF == 0 { exit } # the typed lookups (path, alias) follow after a blank line
		NR == 1 { n = split(want, name, ","); for (i = 1; i <= NF; i++) col[$i] = i }
		{ row = $col[name[1]]; for (k = 2; k <= n; k++) row = row "," $col[name[k]]; print row }'
}
log_as_trace() { # the log's lookups and marks, spelled as the trace spells them
	sed -n -e 's/^lookup 0x0*\([0-9a-f][0-9a-f]*\) \(.*\)$/0x\1 # \2/p' \
		-e 's/^mark core_init$/@core_init/p' -e 's/^mark user$/@user/p' "$1"
}
trace_body() { # lookups and marks of a trace
	sed -n '/^[0-9@]/p' "$1"
}

boards=0
for dir in "$src"/fixtures/boots/*/; do
	board=$(basename "$dir")
	log="$dir$board.log" trace="$dir$board.trace" expect="$dir$board.expect.csv"
	set -- "$dir"*.dtb
	dtb=$1
	[ $# -eq 1 ] && [ -f "$dtb" ] && [ -f "$log" ] && [ -f "$trace" ] && [ -f "$expect" ]
	check "$board: one DTB, the raw log, the trace and the expected counters" $?
	boards=$((boards + 1))

	named=$(sed -n 's/^# dtb: \([^ ]*\) sha256 \([0-9a-f]*\)$/\1 \2/p' "$trace")
	[ "$named" = "$(basename "$dtb") $(sha256sum < "$dtb" | cut -d' ' -f1)" ]
	check "$board: the trace's header names its DTB and its sha256" $?
	log_as_trace "$log" > "$tmp/from-log"
	trace_body "$trace" | diff "$tmp/from-log" - > /dev/null
	check "$board: the trace holds the raw log's lookups and marks, in order" $?
	[ "$(grep -c '^lookup ' "$log")" -gt 0 ]
	check "$board: the raw log has lookups" $?

	"$bench" --format csv --policy none,mask,hash32,index --sizes 64,128,256 \
		--trace "$trace" "$dtb" | counters > "$tmp/tool.csv"
	diff "$expect" "$tmp/tool.csv" > "$tmp/diff"
	check "$board: fdtcache-bench counters = committed model counters" $?
	cat "$tmp/diff"
	before=$(sed -n '/^@core_init$/q;/^0x/p' "$trace" | wc -l)
	lookups=$(grep -c '^lookup ' "$log")
	distinct=$(awk '$1 == "lookup" { print $2 }' "$log" | sort -u | wc -l)
	"$bench" --policy none --trace "$trace" "$dtb" | tr '\n' ' ' | tr -s ' ' > "$tmp/table"
	grep -q ": $lookups lookups of $distinct phandles, $before before of_core_init," "$tmp/table"
	check "$board: fdtcache-bench counts $lookups lookups, $distinct distinct, $before early" $?
	misses=$(awk -F, '$1 == "mask" { print $5 }' "$tmp/tool.csv")
	[ "$misses" -eq "$before" ]
	check "$board: mask misses ($misses) = lookups before of_core_init ($before)" $?
	if command -v python3 > /dev/null; then
		python3 "$model" "$dtb" "$log" | diff - "$tmp/tool.csv" > "$tmp/diff"
		check "$board: fdtcache-bench counters = Linux model on the raw log" $?
		cat "$tmp/diff"
	fi
done
[ "$boards" -ge 4 ]
check "at least 4 real boots replayed ($boards)" $?
command -v python3 > /dev/null ||
	echo "# python3 not installed: live model runs skipped, committed counters checked"
exit $fail
