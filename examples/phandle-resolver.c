/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * phandle-resolver - index a DTB's phandles in one walk, then resolve every
 * phandle through the index and check each answer against libfdt's own
 * linear search, as a bootloader that fixes up a device tree would.
 *
 * Output: one line per node with a phandle, in tree order, `0xPHANDLE
 * PATH` (the path of the node the index returned), then a count.
 */
#include <libfdt.h>
#include "fdtcache/dt.h"
#include "port/port.h"

/* Up to 512 phandles (the index keeps its load at or below 1/2). */
#define INDEX_SLOTS 1024u

extern const uint8_t example_image[], example_image_end[];

static struct fc_cache_slot slots[INDEX_SLOTS];

/* As dtc writes a cell: 0x and at least two hex digits. */
static void put_phandle(uint32_t ph)
{
	unsigned int digits = 2;

	while (digits < 8 && (ph >> (4u * digits)))
		digits++;
	port_puts("0x");
	port_put_hex(ph, digits);
}

/* Resolve ph through the index, compare with libfdt, print the line. */
static void resolve(struct fc_cache *index, const void *fdt, uint32_t ph)
{
	static char path[256];
	int off = fc_dt_index_lookup(index, ph);
	int ref = fdt_node_offset_by_phandle(fdt, ph);

	if (off < 0)
		port_fail("index lookup", off);
	if (off != ref) {
		put_phandle(ph);
		port_puts(": the index and libfdt disagree\n");
		board_exit(1);
	}
	if (fdt_get_path(fdt, off, path, sizeof(path)) < 0)
		port_fail("fdt_get_path", FC_EBADDTB);
	put_phandle(ph);
	port_putc(' ');
	port_puts(path);
	port_putc('\n');
}

int main(void)
{
	const void *fdt = example_image;
	static struct fc_cache index;
	uint32_t resolved = 0;
	int off, rc;

	if (fdt_check_header(fdt) != 0 ||
	    fdt_totalsize(fdt) > (size_t)(example_image_end - example_image))
		port_fail("DTB header", FC_EBADDTB);
	rc = fc_dt_index_build(&index, fdt, slots, INDEX_SLOTS);
	if (rc < 0)
		port_fail("index build", rc);
	for (off = fdt_next_node(fdt, -1, NULL); off >= 0; off = fdt_next_node(fdt, off, NULL)) {
		uint32_t ph = fdt_get_phandle(fdt, off);

		if (ph == 0 || ph == 0xffffffffu)
			continue;
		resolve(&index, fdt, ph);
		resolved++;
	}
	if (off != -FDT_ERR_NOTFOUND)
		port_fail("tree walk", FC_EBADDTB);
	port_puts("phandles: ");
	port_put_dec(resolved);
	port_puts(" resolved, ");
	port_put_dec((uint32_t)rc);
	port_puts(" in the index, libfdt agrees\n");
	port_flush();
	return 0;
}
