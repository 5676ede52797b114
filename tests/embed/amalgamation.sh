#!/bin/sh
# scripts/amalgamate makes one fdtcache.c and fdtcache.h that compile with
# -Werror: all modules and a selection (settings alone brings nvs, flash,
# crc, cache...), on the host and, where the compilers are installed, for
# Cortex-M0+/M4/M33 (gcc), and thumbv6m (clang) and RV32 without a C
# library's headers.
# Each build's symbols must match the separately built library's.
set -eu
out=${TMPDIR:-/tmp}/amalgamation.$$
trap 'rm -rf "$out"' EXIT
port=$top_srcdir/examples/port
warn="-std=c11 $WARN_CFLAGS -Werror"
bare="-Os -ffreestanding -Wall -Wextra -Wno-unused-parameter -Werror -std=c11 -I$port/include"
fail=0
try() { # label, compiler and flags...
	label=$1
	shift
	if "$@" > "$out/log" 2>&1; then
		echo "ok: $label"
	else
		echo "FAIL: $label"
		head -n 20 "$out/log"
		fail=1
	fi
}
python3 "$top_srcdir/scripts/amalgamate" --top "$top_srcdir" "$out/all"
python3 "$top_srcdir/scripts/amalgamate" --top "$top_srcdir" --modules settings "$out/settings"
grep -Eq 'modules: env err crc cache (.* )?flash nvs settings \*/' "$out/settings/fdtcache.c" ||
	{ echo "FAIL: --modules settings did not bring its dependencies"; fail=1; }
if python3 "$top_srcdir/scripts/amalgamate" --top "$top_srcdir" --modules nosuch "$out/x" 2> "$out/err"; then
	echo "FAIL: an unknown module was accepted"; fail=1
else
	grep -q "unknown module 'nosuch'" "$out/err" || { cat "$out/err"; fail=1; }
fi

# shellcheck disable=SC2086
try "host, all modules" $CC $warn $LIBFDT_CFLAGS -c "$out/all/fdtcache.c" -o "$out/all.o"
# shellcheck disable=SC2086
try "host, settings" $CC $warn -c "$out/settings/fdtcache.c" -o "$out/settings.o"
# the amalgamation defines the library's exported symbols, and otherwise
# only internal helpers (named with a trailing _)
nm -g --defined-only "$out/all.o" | awk '{ print $3 }' | grep -v '_$' | sort > "$out/amal.syms"
grep -o 'fc_[A-Za-z0-9_]*' "$top_srcdir/libcore/libfdtcache.sym" | sort -u > "$out/lib.syms"
if ! cmp -s "$out/amal.syms" "$out/lib.syms"; then
	echo "FAIL: global symbols of the amalgamation differ from libfdtcache.sym:"
	diff "$out/lib.syms" "$out/amal.syms" | head -n 10
	fail=1
fi
if command -v arm-none-eabi-gcc > /dev/null; then
	for cpu in cortex-m0plus cortex-m4 cortex-m33; do
		# shellcheck disable=SC2086
		try "arm-none-eabi-gcc -mcpu=$cpu" arm-none-eabi-gcc -mcpu=$cpu -mthumb $bare \
			-c "$out/settings/fdtcache.c" -o "$out/$cpu.o"
	done
fi
# without any C library header: the examples' FC_CONFIG supplies the
# mem*/str* hooks, the compiler's own directories stddef.h and the rest
nolibc="-Os -ffreestanding -Wall -Wextra -Werror -std=c11 -nostdinc -I$port -DFC_CONFIG=\"fc_port.h\""
if command -v clang > /dev/null; then
	# shellcheck disable=SC2086
	try "clang --target=thumbv6m-none-eabi -nostdinc" clang --target=thumbv6m-none-eabi $nolibc \
		-isystem "$(clang -print-resource-dir)/include" -c "$out/settings/fdtcache.c" -o "$out/clang.o"
fi
if command -v riscv64-unknown-elf-gcc > /dev/null; then
	inc=$(riscv64-unknown-elf-gcc -print-file-name=include)
	# shellcheck disable=SC2086
	try "riscv64-unknown-elf-gcc -march=rv32imac -nostdlib -nostdinc" riscv64-unknown-elf-gcc \
		-march=rv32imac -mabi=ilp32 -nostdlib $nolibc -isystem "$inc" -isystem "$inc-fixed" \
		-c "$out/settings/fdtcache.c" -o "$out/rv32.o"
fi
exit "$fail"
