#!/bin/sh
# installed.sh ROOT LIBDIR - a program outside the tree builds against an
# installed libfdtcache with `pkg-config --cflags --libs libfdtcache` alone,
# linked shared and then static (-static, pkg-config --static), and runs.
# ROOT is the DESTDIR of the install ("" for a real one). Run by
# `make installcheck` (so by distcheck) and `make check-install`.
set -eu
root=$1
libdir=$2
CC=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/app.c" <<'EOF_C'
#include <stdio.h>
#include <string.h>
#include <fdtcache/nvs.h>
#include <fdtcache/dt.h>

/* The smallest DTB: a header, an empty reserve map, the root node alone. */
static const unsigned char fdt[72] = {
	0xd0, 0x0d, 0xfe, 0xed, 0, 0, 0, 72, 0, 0, 0, 56, 0, 0, 0, 72, 0, 0, 0, 40,
	0, 0, 0, 17, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16,
	[56] = 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 9,
};

int main(void)
{
	static unsigned char mem[3 * 1024];
	struct fc_flash_geometry geo = { sizeof(mem), 1024, 4, 0xff };
	struct fc_ram_flash ram;
	struct fc_cache_slot slots[8];
	struct fc_nvs fs;
	struct fc_nvs_config cfg = { .flash = &ram.dev, .sector_size = 1024, .sector_count = 3,
				     .index_slots = slots, .index_slot_count = 8 };
	char back[6] = "";

	memset(mem, 0xff, sizeof(mem));
	if (fc_ram_flash_init(&ram, &geo, mem) || fc_nvs_mount(&fs, &cfg) ||
	    fc_nvs_write(&fs, 1, "hello", 6) != 6 || fc_nvs_read(&fs, 1, back, 6) != 6)
		return 1;
	if (fc_dt_count_nodes(fdt) != 1)
		return 1;
	printf("%s from nvs, 1 node in the DTB\n", back);
	return 0;
}
EOF_C
export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$root"
flags=$(pkg-config --cflags --libs libfdtcache)
# shellcheck disable=SC2086
$CC -o "$work/app-shared" "$work/app.c" $flags
out=$(LD_LIBRARY_PATH="$root$libdir" "$work/app-shared")
echo "shared: $CC app.c $flags: $out"
readelf -d "$work/app-shared" | grep -q 'NEEDED.*libfdtcache' ||
	{ echo "installed.sh: the shared build does not use libfdtcache.so" >&2; exit 1; }
flags=$(pkg-config --static --cflags --libs libfdtcache)
# shellcheck disable=SC2086
$CC -static -o "$work/app-static" "$work/app.c" $flags
out=$("$work/app-static")
echo "static: $CC -static app.c $flags: $out"
if readelf -d "$work/app-static" 2> /dev/null | grep -q NEEDED; then
	echo "installed.sh: the static build needs shared libraries" >&2
	exit 1
fi
