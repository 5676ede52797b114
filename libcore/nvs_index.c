/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_index.c - the engine's lookup state: an exact id -> newest-ATE map
 * (FC_CACHE_PROBE over the caller's slots) that answers hits and misses
 * without reading flash, and the live-byte count behind O(1) free space.
 * Bit 0 of a stored address marks a delete ATE. When the map is full, the
 * ids it refused are found by walking back only as far as the oldest
 * refused ATE (fs->gap_addr).
 */
#include "nvs_int.h"

/* One copy for the engine, GC and free space (an ATE slot and the aligned value). */
uint32_t nvs_entry_bytes_(const struct fc_nvs *fs, uint16_t stored_len)
{
	return stored_len ? al(fs, stored_len) + fs->ate_size : 0;
}

/*
 * Map id -> v in the index; with if_empty an id already held is kept.
 * Returns 1 stored, 0 kept, FC_ENOSPC when refused (the map is full and
 * lacks id). Every slot may be used: the PROBE map's probes and removal
 * stop after one lap of a full map.
 */
int nvs_index_put_(struct fc_nvs *fs, uint16_t id, uint32_t v, bool if_empty)
{
	return fc_cache_probe_put(&fs->index, id, v, if_empty ? FC_CACHE_IF_EMPTY : FC_CACHE_OVERWRITE);
}

void nvs_index_note_(struct fc_nvs *fs, uint16_t id, uint32_t addr, bool del)
{
	if (!index_slots(fs))
		return;
	if (nvs_index_put_(fs, id, addr | (del ? NVS_DEL_FLAG : 0), false) == FC_ENOSPC &&
	    !fs->gap) {
		fs->gap = true;
		fs->gap_addr = addr;
	}
}

int nvs_index_find_(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct fc_nvs_ate *a,
		    unsigned int how)
{
	uint32_t v;
	bool hit = nvs_index_get_(fs, id, &v);

	/* the statistics fc_cache_lookup keeps */
	fs->index.stats.lookups++;
	if (hit) {
		fs->index.stats.hits++;
		*addr = v & ~NVS_DEL_FLAG;
		if (v & NVS_DEL_FLAG) {
			a->len = 0;
			return 1;
		}
		if (!(how & NVS_FIND_ATE))
			return 1;
		int rc = nvs_cached_ate_read_(fs, *addr, a);

		if (rc)
			return rc;
		return a->id == id && ate_valid(fs, a) ? 1 : FC_ECORRUPT;
	}
	fs->index.stats.misses++;
	if (!fs->gap || !(how & NVS_FIND_WALK))
		return 0;
	*addr = fs->ate_wra;
	return nvs_walk_find_(fs, addr, id, fs->gap_addr, a);
}

/*
 * What the index drops of a valid special or delete ATE at addr, in a sector
 * GC erases: a gc_done ATE's count, a delete still the newest of its id
 * (GC copies the newest of the other ATEs).
 */
void nvs_index_forget_slot_(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a)
{
	uint32_t v;

	if (a->id == FC_NVS_ID_SPECIAL) {
		if (!a->len && fs->gc_done_ates)
			fs->gc_done_ates--;
	} else if (nvs_index_get_(fs, a->id, &v) && v == (addr | NVS_DEL_FLAG))
		fc_cache_probe_invalidate(&fs->index, a->id);
}

/* Index build, newest first: the first valid ATE seen of an id is its newest. */
int nvs_index_slot_(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a, void *arg)
{
	(void)arg;
	if (!ate_valid(fs, a))
		return 0;
	if (a->id == FC_NVS_ID_SPECIAL) {
		if (!a->len)
			fs->gc_done_ates++;
		return 0;
	}
	if (!index_slots(fs))
		return 0;
	int rc = nvs_index_put_(fs, a->id, addr | (a->len ? 0 : NVS_DEL_FLAG), true);

	if (rc == FC_ENOSPC) { /* the put's only error */
		/* its live bytes are counted when free space is asked */
		fs->gap = fs->live_unknown = true;
		fs->gap_addr = addr; /* the oldest refused ATE so far */
	} else if (rc) {
		fs->live_bytes += nvs_entry_bytes_(fs, a->len);
	}
	return 0;
}

int nvs_index_build_(struct fc_nvs *fs)
{
	/*
	 * FC_NO_INDEX (a reader: built once, never written) keeps nvs_locate_'s
	 * zeroed FC_CACHE_NONE cache and reads no ATE here: its gc_done ATEs
	 * are counted with the live bytes, by the first free-space query.
	 * The init cannot fail: the mount's nvs_check_config_ took these slots.
	 */
	if (!NVS_INDEX_OFF)
		(void)fc_cache_probe_init(&fs->index, fs->cfg.index_slots, index_slots(fs));
	fs->live_bytes = 0;
	fs->gc_done_ates = 0;
	/* with no slots every id is refused (gap_addr matters only with gap) */
	fs->gap = fs->live_unknown = !index_slots(fs);
	fs->gap_addr = NVS_NO_ADDR;
	return NVS_INDEX_OFF ? 0 : nvs_for_each_slot_(fs, nvs_index_slot_, NULL);
}

/*
 * Counting the live bytes after a mount whose index overflowed. An indexed
 * id is live at the ATE the index names. A refused id is live at its first
 * valid ATE in scan order (newest first); with no memory to spare for every
 * id, each pass remembers the ids of one group of GROUP_IDS in a bitmap and
 * the next group holding refused ids, so the passes are as many as the
 * groups in use, each reading the ATE areas once.
 */
#define GROUP_SHIFT 10u
#define GROUP_IDS (1u << GROUP_SHIFT)
#define GROUPS (0x10000u >> GROUP_SHIFT)
#define NO_GROUP UINT32_MAX

/* Groups are held by rank: their position in the order of passes. */
struct live_count {
	uint32_t bytes;
	uint32_t first; /* group of the first refused ATE (rank 0), NO_GROUP until met */
	uint32_t rank;  /* counted in this pass: rank 0 is the first pass */
	uint32_t next;  /* the nearest later rank holding refused ids, GROUPS if none */
	uint32_t gc_done; /* FC_NO_INDEX: gc_done ATEs, counted in the first pass */
	uint32_t seen[GROUP_IDS / 32];
};

static int count_slot(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a, void *arg)
{
	struct live_count *c = arg;
	uint32_t v, r, bit = a->id & (GROUP_IDS - 1u);

	if (!ate_valid(fs, a))
		return 0;
	if (a->id == FC_NVS_ID_SPECIAL) {
		c->gc_done += NVS_INDEX_OFF && !c->rank && !a->len;
		return 0;
	}
	if (nvs_index_get_(fs, a->id, &v)) {
		if (!c->rank && v == addr)
			c->bytes += nvs_entry_bytes_(fs, a->len);
		return 0;
	}
	if (c->first == NO_GROUP)
		c->first = a->id >> GROUP_SHIFT;
	r = ((a->id >> GROUP_SHIFT) - c->first) % GROUPS;
	if (r != c->rank) {
		if (r > c->rank && r < c->next)
			c->next = r;
		return 0;
	}
	if (c->seen[bit / 32] & 1u << bit % 32)
		return 0;
	c->seen[bit / 32] |= 1u << bit % 32;
	c->bytes += nvs_entry_bytes_(fs, a->len);
	return 0;
}

static int live_recount(struct fc_nvs *fs)
{
	struct live_count c; /* seen is cleared by each pass */

	c.bytes = 0;
	c.first = NO_GROUP;
	c.rank = 0;
	c.gc_done = 0;

	do {
		int rc;

		FC_MEMSET(c.seen, 0, sizeof(c.seen));
		c.next = GROUPS;
		rc = nvs_for_each_slot_(fs, count_slot, &c);
		if (rc)
			return rc;
		c.rank = c.next;
	} while (c.rank != GROUPS);
	fs->live_bytes = c.bytes;
	if (NVS_INDEX_OFF)
		fs->gc_done_ates = c.gc_done;
	fs->live_unknown = false;
	return 0;
}

int nvs_index_free_space_(struct fc_nvs *fs, uint32_t *space)
{
	uint32_t used;

	if (fs->live_unknown) {
		int rc = live_recount(fs);

		if (rc)
			return rc;
	}
	used = fs->live_bytes + fs->gc_done_ates * fs->ate_size;
	/* garbage can claim more than the partition holds */
	*space = used < *space ? *space - used : 0;
	return 0;
}
