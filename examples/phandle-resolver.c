/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * phandle-resolver - index a DTB once, then resolve every phandle, the path
 * of every node with a phandle and every alias through libcore, checking
 * each answer against libfdt's own search, as a bootloader that fixes up a
 * device tree would.
 *
 * Output: one line per node with a phandle, in tree order, `0xPHANDLE
 * PATH` (the path of the node the index returned); one line per alias,
 * `alias NAME PATH`; then a summary. Memory: the node table and the
 * phandle index, sized here for a 500-node kernel DTB (14 KiB).
 */
#include <libfdt.h>
#include "fdtcache/dt.h"
#include "port/port.h"

#define NODES_MAX 512u
#define INDEX_SLOTS 512u /* up to 256 phandles: the index keeps its load <= 1/2 */

extern const uint8_t example_image[], example_image_end[];

static struct fc_dt_node nodes[NODES_MAX];
static struct fc_cache_slot slots[INDEX_SLOTS];
static char path[256];

/* As dtc writes a cell: 0x and at least two hex digits. */
static void put_phandle(uint32_t ph)
{
	unsigned int digits = 2;

	while (digits < 8 && (ph >> (4u * digits)))
		digits++;
	port_puts("0x");
	port_put_hex(ph, digits);
}

static _Noreturn void disagree(const char *what, const char *key)
{
	port_puts(what);
	port_puts(" '");
	port_puts(key);
	port_puts("': libcore and libfdt disagree\n");
	board_exit(1);
}

/* Resolve ph through the index and the node's path through the node table;
 * both must give libfdt's answer. */
static void resolve(struct fc_cache *index, struct fc_dt_lookups *lk, const void *fdt, uint32_t ph)
{
	int off = fc_dt_index_lookup(index, ph);

	if (off < 0)
		port_fail("index lookup", off);
	if (fdt_get_path(fdt, off, path, sizeof(path)) < 0)
		port_fail("fdt_get_path", FC_EBADDTB);
	if (off != fdt_node_offset_by_phandle(fdt, ph))
		disagree("phandle of", path);
	if (fc_dt_path_offset(lk, path, (uint32_t)strlen(path)) != off)
		disagree("path", path);
	put_phandle(ph);
	port_putc(' ');
	port_puts(path);
	port_putc('\n');
}

/* Every property of /aliases, resolved by libcore and by libfdt. */
static uint32_t resolve_aliases(struct fc_dt_lookups *lk, const void *fdt)
{
	int aliases = fdt_path_offset(fdt, "/aliases");
	uint32_t count = 0;
	int prop;

	if (aliases < 0)
		return 0;
	fdt_for_each_property_offset(prop, fdt, aliases) {
		const char *name;
		int len;

		if (!fdt_getprop_by_offset(fdt, prop, &name, &len))
			port_fail("alias property", FC_EBADDTB);
		int off = fc_dt_alias_offset(lk, name, (uint32_t)strlen(name));
		if (off != fdt_path_offset(fdt, name))
			disagree("alias", name);
		if (off < 0 || fdt_get_path(fdt, off, path, sizeof(path)) < 0)
			port_fail("alias path", FC_EBADDTB);
		port_puts("alias ");
		port_puts(name);
		port_putc(' ');
		port_puts(path);
		port_putc('\n');
		count++;
	}
	return count;
}

int main(void)
{
	const void *fdt = example_image;
	static struct fc_dt dt;
	static struct fc_cache index;
	static struct fc_dt_lookups lk;
	const struct fc_dt_lookups_config no_caches = { 0 }; /* RAM is short on a micro:bit */
	uint32_t resolved = 0, aliases;
	int off, rc;

	if (fdt_check_header(fdt) != 0 ||
	    fdt_totalsize(fdt) > (size_t)(example_image_end - example_image))
		port_fail("DTB header", FC_EBADDTB);
	rc = fc_dt_init(&dt, fdt, nodes, NODES_MAX);
	if (rc < 0)
		port_fail("node table", rc);
	rc = fc_dt_lookups_init(&lk, &dt, &no_caches);
	if (rc < 0)
		port_fail("lookups", rc);
	rc = fc_dt_index_build(&index, fdt, slots, INDEX_SLOTS);
	if (rc < 0)
		port_fail("index build", rc);
	for (off = fdt_next_node(fdt, -1, NULL); off >= 0; off = fdt_next_node(fdt, off, NULL)) {
		uint32_t ph = fdt_get_phandle(fdt, off);

		if (ph == 0 || ph == 0xffffffffu)
			continue;
		resolve(&index, &lk, fdt, ph);
		resolved++;
	}
	if (off != -FDT_ERR_NOTFOUND)
		port_fail("tree walk", FC_EBADDTB);
	aliases = resolve_aliases(&lk, fdt);
	port_puts("phandles: ");
	port_put_dec(resolved);
	port_puts(" resolved with their paths, ");
	port_put_dec(aliases);
	port_puts(" aliases, ");
	port_put_dec(dt.nnodes);
	port_puts(" nodes; libfdt agrees\n");
	port_flush();
	return 0;
}
