#!/bin/sh
# nvs-inspect benchmark: time to inspect a well-filled 64 MiB image (1,024
# sectors of 64 KiB, written by the engine) against `cat IMAGE > /dev/null`
# in the same run, and against a 16 MiB image (256 sectors) to show the
# growth with size. Run from the build directory (make bench).
set -eu
mk=bench/inspect_mkimage
runs=5
. "$(dirname "$0")/inspect_bench_lib.sh"

image() { # image FILE SECTORS
	[ -f "$1" ] || "$mk" "$1" "$2" 65536 > /dev/null
}

catimg() { cat "$1"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }

image bench/inspect-64m.bin 1024
image bench/inspect-16m.bin 256
geo="--sector-size 65536 --sectors 1024 --write-block 4"
geo16="--sector-size 65536 --sectors 256 --write-block 4"

echo "nvs-inspect on bench/inspect-64m.bin (1,024 x 64 KiB, engine-written), best of $runs"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown) on $(nproc 2>/dev/null || echo '?') CPUs"
best catimg bench/inspect-64m.bin; cat64=$best
best "$tool" bench/inspect-64m.bin; auto64=$best
# shellcheck disable=SC2086
best "$tool" $geo bench/inspect-64m.bin; given64=$best
best "$tool" --check bench/inspect-64m.bin; check64=$best
best catimg bench/inspect-16m.bin; cat16=$best
best "$tool" bench/inspect-16m.bin; auto16=$best
# shellcheck disable=SC2086
best "$tool" $geo16 bench/inspect-16m.bin; given16=$best

printf '%-44s %9s %9s\n' "job" "ms" "vs cat"
printf '%-44s %9s %9s\n' "cat IMAGE > /dev/null (64 MiB)" "$cat64" "1.0x"
printf '%-44s %9s %9s\n' "nvs-inspect IMAGE (detect, summary, live)" "$auto64" "$(ratio "$auto64" "$cat64")"
printf '%-44s %9s %9s\n' "nvs-inspect with the geometry given" "$given64" "$(ratio "$given64" "$cat64")"
printf '%-44s %9s %9s\n' "nvs-inspect --check" "$check64" "$(ratio "$check64" "$cat64")"
printf '%-44s %9s %9s\n' "cat IMAGE > /dev/null (16 MiB)" "$cat16" "1.0x"
printf '%-44s %9s %9s\n' "nvs-inspect IMAGE (16 MiB)" "$auto16" "$(ratio "$auto16" "$cat16")"
printf '%-44s %9s %9s\n' "nvs-inspect with the geometry given (16 MiB)" "$given16" "$(ratio "$given16" "$cat16")"
echo "growth 16 -> 64 MiB (4x the bytes): nvs-inspect $(ratio "$auto64" "$auto16"), given geometry $(ratio "$given64" "$given16"), cat $(ratio "$cat64" "$cat16")"
