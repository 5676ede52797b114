#!/bin/sh
# nvs-inspect on a 1 MiB whole-flash Intel HEX dump (512 KiB of firmware-like
# bytes, then a 512 KiB NVS partition of 128 x 4 KiB sectors written by the
# engine), against `objcopy -I ihex -O binary` on the same file in the same
# run: best of 7 wall times each. Run from the build directory
# (make bench-inspect-hex).
set -eu
mk=bench/inspect_mkimage
runs=7
. "$(dirname "$0")/inspect_bench_lib.sh"
dir=bench/inspect-hex
mkdir -p "$dir"
if [ ! -f "$dir/flash.hex" ]; then
	"$mk" "$dir/nvs.bin" 128 4096 > /dev/null
	# 512 KiB of xorshift32 bytes stand for the firmware before the partition
	python3 -c '
import sys
x = 2463534242
out = bytearray()
for _ in range(512 * 1024):
    x ^= (x << 13) & 0xffffffff; x ^= x >> 17; x ^= (x << 5) & 0xffffffff
    out.append(x & 0xff)
sys.stdout.buffer.write(out)' > "$dir/code.bin"
	cat "$dir/code.bin" "$dir/nvs.bin" > "$dir/flash.bin"
	objcopy -I binary -O ihex "$dir/flash.bin" "$dir/flash.hex"
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

best objcopy -I ihex -O binary "$dir/flash.hex" "$dir/objcopy.bin"
obj=$best
best "$tool" --partition auto "$dir/flash.hex"
scan=$best
best "$tool" --offset 0x80000 "$dir/flash.hex"
off=$best
best "$tool" --partition auto --check "$dir/flash.hex"
check=$best
cmp -s "$dir/objcopy.bin" "$dir/flash.bin" || { echo "objcopy did not give the image back"; exit 1; }
echo "1 MiB whole-flash Intel HEX ($(wc -c < "$dir/flash.hex") bytes), best of $runs"
printf '%-52s %8s %8s\n' "job" "ms" "vs objcopy"
printf '%-52s %8s %8s\n' "objcopy -I ihex -O binary" "$obj" "1.00x"
printf '%-52s %8s %8s\n' "nvs-inspect --partition auto (scan, summary, live)" "$scan" "$(ratio "$scan" "$obj")"
printf '%-52s %8s %8s\n' "nvs-inspect --offset 0x80000" "$off" "$(ratio "$off" "$obj")"
printf '%-52s %8s %8s\n' "nvs-inspect --partition auto --check" "$check" "$(ratio "$check" "$obj")"
