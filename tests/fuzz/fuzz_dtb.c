/* SPDX-License-Identifier: BSD-2-Clause */
/* DTB: libcore's index over any checked blob, and every cache policy's replay. */
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/dt.h"

#include "fuzz_util.h"

#define MAX_DTB (1u << 22)

int fuzz_dtb(const uint8_t *data, size_t size)
{
	static const enum fc_dt_policy policies[] = { FC_DT_NONE, FC_DT_MASK, FC_DT_HASH32,
						      FC_DT_INDEX };
	void *fdt;
	int n;

	if (size < sizeof(struct fdt_header) || size > MAX_DTB)
		return 0;
	fdt = malloc(size);
	memcpy(fdt, data, size);
	if (fdt_check_full(fdt, size) == 0 && (n = fc_dt_count_nodes(fdt)) > 0) {
		struct fc_dt_node *nodes = calloc((size_t)n, sizeof(*nodes));
		struct fc_dt dt;

		if (fc_dt_init(&dt, fdt, nodes, (uint32_t)n) >= 0) {
			uint32_t nslots = fc_dt_index_slots(dt.nphandles);
			/* slots of the scanning replay, of the index-resolved one, of the index */
			struct fc_cache_slot *slots = calloc(3 * (size_t)(nslots ? nslots : 1),
							     sizeof(*slots));
			struct fc_cache index;

			if (fc_dt_index_build(&index, fdt, slots + 2 * nslots, nslots) < 0)
				fuzz_violated("a checked blob's index builds in its slots", 0);
			for (size_t p = 0; p < FC_ARRAY_SIZE(policies); p++) {
				struct fc_dt_replay r, ri;

				if (fc_dt_replay_init(&r, &dt, policies[p], slots, nslots) ||
				    fc_dt_replay_init(&ri, &dt, policies[p], slots + nslots, nslots))
					continue;
				for (uint32_t i = 0; i < dt.nnodes && i < 512; i++) {
					uint32_t ph = dt.nodes[i].phandle ^ (i & 1);

					if (i == dt.nnodes / 2) {
						fc_dt_replay_core_init(&r);
						fc_dt_replay_core_init(&ri);
					}
					if (fc_dt_replay_lookup(&r, ph) !=
					    fc_dt_replay_lookup_indexed(&ri, ph, &index))
						fuzz_violated("the index resolves a miss to the scan's node", 0);
				}
				if (r.stats.hits + r.stats.misses != r.stats.lookups)
					fuzz_violated("every lookup is a hit or a miss", 0);
				if (memcmp(&r.stats, &ri.stats, sizeof(r.stats)))
					fuzz_violated("the index-resolved replay counts as the scan", 0);
			}
			free(slots);
		}
		free(nodes);
	}
	free(fdt);
	return 0;
}
