#!/bin/sh
# Replays the fuzz targets over the bundled inputs and deterministic
# mutations of them: every Zephyr vector (with its geometry as the NVS
# target's header, under our index and under Zephyr's lookup) and every DTB.
set -e
top=${top_srcdir:-.}
bld=${top_builddir:-.}
replay=$bld/tests/fuzz/fuzz_replay
mutations=${FUZZ_MUTATIONS:-40}

log2() { n=$1; l=0; while [ "$n" -gt 1 ]; do n=$((n / 2)); l=$((l + 1)); done; echo $l; }

set --
for expect in "$top"/fixtures/nvs/zephyr/*.expect.txt; do
	geo=$(grep '^# geometry:' "$expect")
	ss=$(echo "$geo" | sed -E 's/.*sector_size=([0-9]+).*/\1/')
	wbs=$(echo "$geo" | sed -E 's/.*write_block_size=([0-9]+).*/\1/')
	crc=0
	grep -q 'nvs_data_crc=on' "$expect" && crc=1
	hdr=$(printf '%02x%02x' $(($(log2 "$ss") - 8)) "$(log2 "$wbs")")
	bin=${expect%.expect.txt}.bin
	set -- "$@" "$bin:${hdr}0$crc" "$bin:${hdr}0$((crc + 2))"
done
"$replay" nvs "$mutations" "$@"

set --
for dtb in "$bld"/fixtures/dt/*.dtb; do
	set -- "$@" "$dtb"
done
"$replay" dtb "$mutations" "$@"
