#!/bin/sh
# fdtcache-trace's boot model against the real boots of fixtures/boots/: on
# each board's DTB the synthetic trace comes within 35% of the real trace's
# lookups and within 25% of its distinct phandles and of its lookups before
# of_core_init (issue 14's criterion). The reference model, which makes no
# early lookups, must fail the same comparison, so the check can fail.
set -u
. "${top_srcdir:-.}/tests/tools/fdtcache-common.sh"
tool="$bld/tools/fdtcache-trace"
stats() { # trace -> "lookups distinct before" (no @core_init: before the first lookup)
	awk '/^0x/ { n++; if (!seen[$1]++) d++; if (!core) b++ }
		/^@core_init$/ { core = 1 }
		END { if (!core) b = 0; printf "%d %d %d\n", n, d, b }' "$1"
}
within() { # model real percent -> success when |model - real| <= percent of real
	awk -v m="$1" -v r="$2" -v p="$3" 'BEGIN { d = m - r; if (d < 0) d = -d; exit !(d * 100 <= p * r) }'
}
close_to_real() { # model-trace real-trace -> success when all three are within tolerance
	set -- $(stats "$1") $(stats "$2")
	within "$1" "$4" 35 && within "$2" "$5" 25 && within "$3" "$6" 25
}

boards=0
for dir in "$src"/fixtures/boots/*/; do
	board=$(basename "$dir")
	real="$dir$board.trace"
	set -- "$dir"*.dtb
	dtb=$1
	"$tool" -o "$tmp/boot.trace" "$dtb"
	check "$board: fdtcache-trace --model boot exits 0" $?
	"$tool" --model reference -o "$tmp/ref.trace" "$dtb"
	check "$board: fdtcache-trace --model reference exits 0" $?
	set -- $(stats "$real") $(stats "$tmp/boot.trace")
	echo "# $board: real $1 lookups, $2 distinct, $3 before core init; boot model $4, $5, $6"
	close_to_real "$tmp/boot.trace" "$real"
	check "$board: boot model within 35% of the lookups, 25% of distinct and early ones" $?
	! close_to_real "$tmp/ref.trace" "$real"
	check "$board: the reference model is not (the comparison can fail)" $?
	boards=$((boards + 1))
done
[ "$boards" -ge 4 ]
check "at least 4 real boots compared ($boards)" $?
exit $fail
