/* SPDX-License-Identifier: BSD-2-Clause */
#include "dt_int.h"

#include <libfdt.h>

static bool is_phandle(uint32_t phandle)
{
	return phandle != 0 && phandle != UINT32_MAX;
}

int fc_dt_count_nodes(const void *fdt)
{
	struct dt_walk w;
	struct dt_walk_node node;
	int count = 0;
	int ev = dt_walk_start_(&w, fdt);

	if (!fdt)
		return FC_EINVAL;
	while (ev >= 0 && (ev = dt_walk_next_(&w, &node)) != DT_WALK_DONE)
		if (ev == DT_WALK_NODE)
			count++;
	return ev < 0 ? ev : count;
}

/* Add the node the walk found under the current node; it becomes current. */
static int table_push(struct fc_dt *dt, uint32_t cap, uint32_t *cur, const struct dt_walk_node *w)
{
	struct fc_dt_node *node;

	if (dt->nnodes == cap)
		return FC_ENOMEM;
	/* a second top-level node: fdt_check_full() refuses such a blob */
	if (dt->nnodes && *cur == UINT32_MAX)
		return FC_EBADDTB;
	node = &dt->nodes[dt->nnodes];
	node->offset = w->offset;
	node->phandle = w->phandle;
	node->parent = *cur == UINT32_MAX ? 0 : *cur;
	node->end = 0;
	node->address_cells = w->address_cells;
	node->size_cells = w->size_cells;
	node->reg_address_cells = dt->nnodes ? dt->nodes[node->parent].address_cells : -1;
	node->reg_size_cells = dt->nnodes ? dt->nodes[node->parent].size_cells : -1;
	if (node->phandle)
		dt->nphandles++;
	*cur = dt->nnodes++;
	return 0;
}

int fc_dt_init(struct fc_dt *dt, const void *fdt, struct fc_dt_node *nodes, uint32_t cap)
{
	struct dt_walk w;
	struct dt_walk_node found;
	uint32_t cur = UINT32_MAX; /* no open node */
	int ev;

	if (!dt || !fdt || (!nodes && cap))
		return FC_EINVAL;
	dt->fdt = fdt;
	dt->nodes = nodes;
	dt->nnodes = 0;
	dt->nphandles = 0;
	ev = dt_walk_start_(&w, fdt);
	while (ev >= 0 && (ev = dt_walk_next_(&w, &found)) != DT_WALK_DONE) {
		if (ev == DT_WALK_NODE) {
			ev = table_push(dt, cap, &cur, &found);
		} else if (cur == UINT32_MAX) {
			ev = FC_EBADDTB; /* an end without a node */
		} else {
			nodes[cur].end = dt->nnodes;
			cur = cur ? nodes[cur].parent : UINT32_MAX;
		}
	}
	if (ev < 0)
		return ev;
	return cur == UINT32_MAX && dt->nnodes ? (int)dt->nnodes : FC_EBADDTB;
}

int fc_dt_position(const struct fc_dt *dt, int offset)
{
	uint32_t lo = 0;
	uint32_t hi = dt->nnodes;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (dt->nodes[mid].offset == offset)
			return (int)(mid + 1);
		if (dt->nodes[mid].offset < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return FC_ENOENT;
}

int fc_dt_scan(const struct fc_dt *dt, uint32_t phandle, uint32_t *steps)
{
	if (is_phandle(phandle)) {
		for (uint32_t i = 0; i < dt->nnodes; i++) {
			if (dt->nodes[i].phandle == phandle) {
				if (steps)
					*steps = i + 1;
				return dt->nodes[i].offset;
			}
		}
	}
	if (steps)
		*steps = dt->nnodes;
	return FC_ENOENT;
}

uint32_t fc_dt_index_slots(uint32_t nphandles)
{
	uint32_t slots = 1;

	if (nphandles > UINT32_MAX / 4)
		return 0;
	while (slots < 2 * nphandles)
		slots <<= 1;
	return slots;
}

int fc_dt_index_build(struct fc_cache *index, const void *fdt,
		      struct fc_cache_slot *slots, uint32_t nslots)
{
	struct dt_walk w;
	struct dt_walk_node node;
	int ev = fc_cache_init(index, FC_CACHE_PROBE, slots, nslots);

	if (ev < 0)
		return ev;
	if (!fdt)
		return FC_EINVAL;
	ev = dt_walk_start_(&w, fdt);
	while (ev >= 0 && (ev = dt_walk_next_(&w, &node)) != DT_WALK_DONE) {
		/* if-empty: a duplicate phandle keeps its first node */
		if (ev == DT_WALK_NODE && node.phandle)
			ev = fc_cache_prefill(index, node.phandle, (uint32_t)node.offset,
					      FC_CACHE_IF_EMPTY);
	}
	return ev < 0 ? ev : (int)index->used;
}

int fc_dt_index_lookup(struct fc_cache *index, uint32_t phandle)
{
	uint32_t offset;

	if (!fc_cache_lookup(index, phandle, &offset))
		return FC_ENOENT;
	return (int)offset;
}

uint32_t fc_dt_mask_size(const struct fc_dt *dt)
{
	uint32_t count = 0;
	uint32_t size = 1;

	for (uint32_t i = 0; i < dt->nnodes; i++)
		if (dt->nodes[i].phandle && dt->nodes[i].phandle != FC_DT_PHANDLE_ILLEGAL)
			count++;
	while (size < count)
		size <<= 1;
	return size;
}

int fc_dt_replay_init(struct fc_dt_replay *r, const struct fc_dt *dt, enum fc_dt_policy policy,
		      struct fc_cache_slot *slots, uint32_t nslots)
{
	static const enum fc_cache_policy cache_policy[] = {
		[FC_DT_NONE] = FC_CACHE_NONE,
		[FC_DT_MASK] = FC_CACHE_MASK,
		[FC_DT_HASH32] = FC_CACHE_HASH32,
		[FC_DT_INDEX] = FC_CACHE_PROBE,
		[FC_DT_HASH32_2WAY] = FC_CACHE_HASH32_2WAY,
		[FC_DT_HASH32_4WAY] = FC_CACHE_HASH32_4WAY,
	};
	int rc;

	if (!r || !dt || (unsigned int)policy >= FC_ARRAY_SIZE(cache_policy))
		return FC_EINVAL;
	if (policy == FC_DT_INDEX && nslots < fc_dt_index_slots(dt->nphandles))
		return FC_EINVAL;
	rc = fc_cache_init(&r->cache, cache_policy[policy], slots, nslots);
	if (rc < 0)
		return rc;
	r->dt = dt;
	r->policy = policy;
	r->core_init_done = false;
	r->index_built = false;
	FC_MEMSET(&r->stats, 0, sizeof(r->stats));
	return 0;
}

int fc_dt_replay_core_init(struct fc_dt_replay *r)
{
	const struct fc_dt *dt = r->dt;

	if (r->core_init_done)
		return 0;
	r->core_init_done = true;
	for (uint32_t i = 0; i < dt->nnodes; i++) {
		uint32_t phandle = dt->nodes[i].phandle;
		uint32_t offset = (uint32_t)dt->nodes[i].offset;

		if (!phandle)
			continue;
		if (r->policy == FC_DT_MASK && phandle != FC_DT_PHANDLE_ILLEGAL)
			fc_cache_prefill(&r->cache, phandle, offset, FC_CACHE_OVERWRITE);
		else if (r->policy != FC_DT_MASK && r->policy != FC_DT_NONE && r->policy != FC_DT_INDEX)
			fc_cache_prefill(&r->cache, phandle, offset, FC_CACHE_IF_EMPTY);
	}
	r->stats.evictions = r->cache.stats.evictions;
	return 0;
}

/* The node a miss finds: libfdt's scan, or the same node from a complete index. */
static int miss_offset(const struct fc_dt_replay *r, uint32_t phandle, const struct fc_cache *index)
{
	uint32_t offset;

	/* libfdt refuses -1 outright; Linux scans every node for it */
	if (!is_phandle(phandle))
		return -FDT_ERR_NOTFOUND;
	if (!index)
		return fdt_node_offset_by_phandle(r->dt->fdt, phandle);
	return fc_cache_probe_get(index, phandle, &offset) ? (int)offset : -FDT_ERR_NOTFOUND;
}

/* A lookup the cache did not answer: libfdt's scan, priced by tree position. */
static int scan_miss(struct fc_dt_replay *r, uint32_t phandle, bool store,
		     const struct fc_cache *index)
{
	int offset = miss_offset(r, phandle, index);

	r->stats.misses++;
	if (offset < 0) {
		r->stats.unresolved++;
		r->stats.scan_steps += r->dt->nnodes;
		return offset == -FDT_ERR_NOTFOUND ? FC_ENOENT : FC_EBADDTB;
	}
	r->stats.scan_steps += (uint32_t)fc_dt_position(r->dt, offset);
	if (store) {
		fc_cache_fill(&r->cache, phandle, (uint32_t)offset);
		r->stats.evictions = r->cache.stats.evictions;
	}
	return offset;
}

static int index_lookup(struct fc_dt_replay *r, uint32_t phandle)
{
	bool first = !r->index_built;
	int offset;

	if (first) {
		int rc = fc_dt_index_build(&r->cache, r->dt->fdt, r->cache.slots, r->cache.nslots);

		if (rc < 0)
			return rc;
		r->index_built = true;
		r->stats.scan_steps += r->dt->nnodes; /* the building walk */
	}
	offset = fc_dt_index_lookup(&r->cache, phandle);
	/* complete: an absent phandle is known absent without a scan */
	if (offset < 0)
		r->stats.unresolved++;
	if (first || offset < 0)
		r->stats.misses++;
	else
		r->stats.hits++;
	return offset;
}

int fc_dt_replay_lookup_indexed(struct fc_dt_replay *r, uint32_t phandle,
				const struct fc_cache *index)
{
	uint32_t offset;

	if (!phandle || (index && index->policy != FC_CACHE_PROBE))
		return FC_EINVAL;
	r->stats.lookups++;
	switch (r->policy) {
	case FC_DT_MASK:
		if (!r->core_init_done)
			return scan_miss(r, phandle, false, index);
		/* fall through */
	case FC_DT_HASH32:
	case FC_DT_HASH32_2WAY:
	case FC_DT_HASH32_4WAY:
		if (fc_cache_lookup(&r->cache, phandle, &offset)) {
			r->stats.hits++;
			return (int)offset;
		}
		return scan_miss(r, phandle, true, index);
	case FC_DT_INDEX:
		return index_lookup(r, phandle);
	default:
		return scan_miss(r, phandle, false, index);
	}
}

int fc_dt_replay_lookup(struct fc_dt_replay *r, uint32_t phandle)
{
	return fc_dt_replay_lookup_indexed(r, phandle, NULL);
}
