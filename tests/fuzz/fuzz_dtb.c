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
			struct fc_cache_slot *slots = calloc(nslots ? nslots : 1, sizeof(*slots));

			for (size_t p = 0; p < FC_ARRAY_SIZE(policies); p++) {
				struct fc_dt_replay r;

				if (fc_dt_replay_init(&r, &dt, policies[p], slots, nslots))
					continue;
				for (uint32_t i = 0; i < dt.nnodes && i < 512; i++) {
					if (i == dt.nnodes / 2)
						fc_dt_replay_core_init(&r);
					fc_dt_replay_lookup(&r, dt.nodes[i].phandle ^ (i & 1));
				}
				if (r.stats.hits + r.stats.misses != r.stats.lookups)
					fuzz_violated("every lookup is a hit or a miss", 0);
			}
			free(slots);
		}
		free(nodes);
	}
	free(fdt);
	return 0;
}
