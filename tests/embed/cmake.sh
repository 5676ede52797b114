#!/bin/sh
# CMakeLists.txt builds libcore as a static library from libcore/libcore.mk:
# with the host compiler (all modules) and, when installed, with
# arm-none-eabi-gcc as a bare toolchain (no libfdt: dt left out).
set -eu
command -v cmake > /dev/null || { echo "SKIP: cmake not installed (scripts/install-deps)"; exit 77; }
out=${TMPDIR:-/tmp}/cmake.$$
trap 'rm -rf "$out"' EXIT
mkdir -p "$out"
src=$(cd "$top_srcdir" && pwd)
build() { # dir, cmake options...
	dir=$1
	shift
	cmake -S "$src" -B "$out/$dir" "$@" > "$out/$dir.log" 2>&1 &&
		cmake --build "$out/$dir" >> "$out/$dir.log" 2>&1 ||
		{ echo "FAIL: cmake $dir"; tail -n 20 "$out/$dir.log"; exit 1; }
	lib=$out/$dir/libfdtcache.a
	[ -f "$lib" ] || { echo "FAIL: $dir: no libfdtcache.a"; exit 1; }
}
build host -DCMAKE_C_FLAGS="-Werror"
nm "$out/host/libfdtcache.a" | grep -q ' T fc_dt_index_build$' || { echo "FAIL: host: dt missing"; exit 1; }
nm "$out/host/libfdtcache.a" | grep -q ' T fc_settings_load$' || { echo "FAIL: host: settings missing"; exit 1; }
echo "ok: host: $(ar t "$out/host/libfdtcache.a" | wc -l) objects"
if command -v arm-none-eabi-gcc > /dev/null; then
	build m0plus -DCMAKE_SYSTEM_NAME=Generic -DCMAKE_C_COMPILER=arm-none-eabi-gcc \
		-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
		-DCMAKE_C_FLAGS="-mcpu=cortex-m0plus -mthumb -Os -Werror" -DFDTCACHE_WITH_DT=OFF
	if nm "$out/m0plus/libfdtcache.a" | grep -q 'fc_dt_'; then
		echo "FAIL: m0plus: dt built with FDTCACHE_WITH_DT=OFF"; exit 1
	fi
	nm "$out/m0plus/libfdtcache.a" | grep -q ' T fc_nvs_mount$' || { echo "FAIL: m0plus: nvs missing"; exit 1; }
	echo "ok: arm-none-eabi-gcc cortex-m0plus, without dt: $(ar t "$out/m0plus/libfdtcache.a" | wc -l) objects"
fi
