#!/bin/sh
# Builds the seed corpus of every fuzz target in DIR/<target>/ from the
# fixtures (Zephyr vectors with their geometry header, DTBs, traces, boot
# capture logs, nvs-bench CSVs), the images fuzz_mkseeds writes (both erase values, up to
# 3 MiB) and the inputs that once found a bug (tests/fuzz/found/<target>/).
#   fuzz-corpus.sh DIR     (with $top_srcdir and $top_builddir set)
set -eu
top=${top_srcdir:-.}
bld=${top_builddir:-.}
dir=$1
rm -rf "$dir"
for t in nvs_image nvs_ops settings dtb geometry inspect trace_parse trace_import trace_generate \
	bench_defs bench_csv bench_plot; do
	mkdir -p "$dir/$t"
done

# bytes HEX...: the bytes on stdout
bytes() { for h in "$@"; do printf "\\$(printf %03o "0x$h")"; done; }
log2() { n=$1; l=0; while [ "$n" -gt 1 ]; do n=$((n / 2)); l=$((l + 1)); done; echo $l; }

# Op scripts (4 bytes per op; see fuzz_targets.h): writes of several sizes,
# an identical rewrite, deletes, free space, sector changes (GC), remounts.
nvs_ops="0f 00 05 40 01 01 06 ff 02 02 07 10 03 03 05 00 00 04 06 00 00 05 00 00 00 \
	06 00 00 00 07 00 00 00 00 1f 80 09 06 00 00 00 06 00 00 00 07 00 00 00 00 00 00 00 \
	04 1f 00 00 07 00 00 00"
settings_ops="0c 00 01 20 01 01 02 00 02 02 04 50 03 04 00 00 00 05 00 10 00 06 00 00 00 \
	07 41 00 00 03 02 00 00 08 01 00 00 04 00 00 00 00 07 30 07 08 02 00 00"

n=0
for expect in "$top"/fixtures/nvs/zephyr/*.expect.txt; do
	geo=$(grep '^# geometry:' "$expect")
	ss=$(echo "$geo" | sed -E 's/.*sector_size=([0-9]+).*/\1/')
	wbs=$(echo "$geo" | sed -E 's/.*write_block_size=([0-9]+).*/\1/')
	crc=0
	grep -q 'nvs_data_crc=on' "$expect" && crc=1
	bin=${expect%.expect.txt}.bin
	name=$(basename "$bin" .bin)
	hdr="$(printf %02x $(($(log2 "$ss") - 8))) $(printf %02x "$(log2 "$wbs")")"
	{ bytes $hdr "0$crc"; cat "$bin"; } >"$dir/nvs_image/$name.bin"
	{ bytes $hdr "$(printf %02x $((crc + 2)))"; cat "$bin"; } >"$dir/nvs_image/$name-zephyr.bin"
	{ bytes $hdr "$(printf %02x $((crc + 16)))" $nvs_ops; cat "$bin"; } >"$dir/nvs_ops/$name.bin"
	{ bytes $hdr "0$crc" $settings_ops; cat "$bin"; } >"$dir/settings/$name.bin"
	{ bytes 00; cat "$bin"; } >"$dir/geometry/$name.bin"
	# the views in turn: default, every view as a table, every view in JSON, --history
	opts=$(echo "00:00 3f:00 bf:00 41:81" | cut -d' ' -f$((n % 4 + 1)))
	n=$((n + 1))
	{ bytes "${opts%:*}" "${opts#*:}"; cat "$bin"; } >"$dir/inspect/$name.bin"
done

# the ZMS vectors for nvs-inspect (the format is told from the content): every view, the
# default, a given 8 KiB sector with --history 3, every view wide
n=0
for bin in "$top"/fixtures/zms/zephyr/*.bin; do
	opts=$(echo "3f:00 00:00 41:83 7f:00" | cut -d' ' -f$((n % 4 + 1)))
	n=$((n + 1))
	{ bytes "${opts%:*}" "${opts#*:}"; cat "$bin"; } >"$dir/inspect/zms-$(basename "$bin")"
done

"$bld/tests/fuzz/fuzz_mkseeds" "$dir/nvs_image"
for img in "$dir"/nvs_image/*-ff.bin "$dir"/nvs_image/*-00.bin; do
	name=$(basename "$img")
	{ head -c 3 "$img"; bytes $nvs_ops; tail -c +4 "$img"; } >"$dir/nvs_ops/$name"
	{ head -c 3 "$img"; bytes $settings_ops; tail -c +4 "$img"; } >"$dir/settings/$name"
	{ bytes 00; tail -c +4 "$img"; } >"$dir/geometry/$name"
	{ bytes 3f 00; tail -c +4 "$img"; } >"$dir/inspect/$name"
done

for dtb in "$bld"/fixtures/dt/*.dtb "$top"/fixtures/dt/kernel/*.dtb "$top"/fixtures/boots/*/*.dtb; do
	cp "$dtb" "$dir/dtb/"
	cp "$dtb" "$dir/trace_generate/"
done
cp "$top"/fixtures/traces/*.trace "$top"/fixtures/boots/*/*.trace "$dir/trace_parse/"
for log in "$top"/fixtures/boots/*/*.log; do
	[ -f "$log" ] || continue
	{ bytes 00; cat "$log"; } >"$dir/trace_import/$(basename "$log")"
done
for trace in "$top"/fixtures/traces/*.trace; do
	{ bytes 02; grep -v '^[#@]' "$trace"; } >"$dir/trace_import/list-$(basename "$trace")"
done

# -D/-G arguments as the README and the tests give them, one per line
printf 'entries=8,range(16,80,16)\nvariant=zephyr,ours\nGnrf52840,spi-nor\n' \
	>"$dir/bench_defs/readme"
printf 'variant=zephyr,ours,zms-zephyr,zms\nsector_size=131072\n' >"$dir/bench_defs/zms"
printf 'sectors=range(2,12)\nentries=range(4,44,4)\nvalue_size=4,8,16,32,64\n' \
	>"$dir/bench_defs/sweep"
printf 'wait=tick,spin,adaptive\nlookup_slots=auto,0,512\ndata_crc=off,on\nGnand,ram\n' \
	>"$dir/bench_defs/names"
printf 'seed=range(2000000,8796093022207M,8796093022207M)\nwrite_block=3\n' \
	>"$dir/bench_defs/limits"
for csv in "$top"/fixtures/bench/*.csv; do
	cp "$csv" "$dir/bench_csv/"
	{ bytes 03 09 00; cat "$csv"; } >"$dir/bench_plot/$(basename "$csv")"
	{ bytes 07 0a 0f; cat "$csv"; } >"$dir/bench_plot/log-$(basename "$csv")"
done

for found in "$top"/tests/fuzz/found/*/*; do
	[ -f "$found" ] || continue
	t=$(basename "$(dirname "$found")")
	cp "$found" "$dir/$t/"
done
