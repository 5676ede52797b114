/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-inspect's geometry detection over any dump, with or without hints:
 * a geometry it reports lies inside the bytes, and its slot walk stays there.
 */
#include <string.h>

#include "geometry.h"

#include "fuzz_util.h"

struct walk {
	const struct nvs_geometry *g;
	uint32_t slots;
};

static int count_slot(void *ctx, uint32_t sector, uint32_t slot, const struct fc_nvs_ate *ate)
{
	struct walk *w = ctx;

	(void)ate;
	if (sector >= w->g->sector_count || (uint64_t)slot + w->g->ate_size > w->g->sector_size)
		fuzz_violated("slot walk stays inside the partition", 0);
	w->slots++;
	return 0;
}

int fuzz_geometry(const uint8_t *data, size_t size)
{
	struct nvs_geometry_hint hint = { .erase_value = -1 };
	struct nvs_geometry_report rep;
	char why[256];
	uint8_t h;

	if (size < 1 || size - 1 > FUZZ_MAX_IMAGE)
		return 0;
	h = data[0];
	data++;
	size--;
	/* bits 0-1: sector size hint; 2-3: write block; 4-5: erase value; 6: sector count */
	if (h & 3)
		hint.sector_size = 1024u << (h & 3) >> 1;
	if (h & 0xc)
		hint.write_block = 1u << ((h >> 2) & 3) << 1;
	if (h & 0x30)
		hint.erase_value = (h & 0x10) ? 0xff : 0x00;
	if (h & 0x40)
		hint.sector_count = 1u + (h >> 7) * 7u;
	memset(why, 0, sizeof(why));
	if (nvs_geometry_detect(data, size, &hint, &rep, why, sizeof(why)) == 0) {
		const struct nvs_geometry *g = &rep.geo;
		struct walk w = { g, 0 };

		if (!g->sector_size || !g->sector_count || !g->ate_size ||
		    (uint64_t)g->offset + (uint64_t)g->sector_size * g->sector_count >
		    size + (uint64_t)rep.missing)
			fuzz_violated("a detected geometry lies inside the dump (or says what is missing)",
				      0);
		if (!rep.missing)
			nvs_stack_foreach(data + g->offset, g, count_slot, &w);
	} else if (!why[0] || !memchr(why, '\0', sizeof(why))) {
		fuzz_violated("a failed detection says why", 0);
	}
	return 0;
}
