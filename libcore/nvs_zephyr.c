/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_zephyr.c - Zephyr's lookup algorithms, for comparisons
 * (FC_NVS_LOOKUP_ZEPHYR): the index acts as Zephyr's lookup cache (a
 * direct-mapped FC_CACHE_MASK cache keyed by the hash position, holding the
 * newest ATE of the ids hashing there; a lookup walks from it) and free
 * space is computed Zephyr's O(n^2) way. FC_NO_EMULATION leaves it out.
 */
#include "nvs_int.h"

#ifndef FC_NO_EMULATION

/* Zephyr's lookup cache position: a 16-bit integer hash, modulo the
 * (power-of-two) size. The position is the key: Zephyr's slots hold no id. */
static uint32_t zcache_pos(const struct fc_nvs *fs, uint16_t id)
{
	uint16_t h = id;

	h ^= (uint16_t)(h >> 8);
	h = (uint16_t)(h * 0x88b5u);
	h ^= (uint16_t)(h >> 7);
	h = (uint16_t)(h * 0xdb2du);
	h ^= (uint16_t)(h >> 9);
	return h & (fs->cfg.index_slot_count - 1u);
}

void nvs_zephyr_forget_(struct fc_nvs *fs, uint32_t s)
{
	uint32_t v;

	for (uint32_t pos = 0; pos < fs->cfg.index_slot_count; pos++)
		if (fc_cache_peek(&fs->index, pos, &v) && sect(v) == s)
			fc_cache_invalidate(&fs->index, pos);
}

void nvs_zephyr_note_(struct fc_nvs *fs, uint16_t id, uint32_t addr)
{
	if (!fs->cfg.index_slot_count)
		return;
	(void)fc_cache_fill(&fs->index, zcache_pos(fs, id), addr); /* MASK: always stored */
}

int nvs_zephyr_find_(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct fc_nvs_ate *a,
		     bool may_walk)
{
	*addr = fs->ate_wra;
	if (!may_walk)
		return 0;
	if (fs->cfg.index_slot_count && !fc_cache_peek(&fs->index, zcache_pos(fs, id), addr))
		return 0;
	return nvs_walk_find_(fs, addr, id, NVS_NO_ADDR, a);
}

/* Zephyr's cache rebuild: a walk from the newest ATE, first valid one per slot wins. */
int nvs_zephyr_build_(struct fc_nvs *fs)
{
	uint32_t addr = fs->ate_wra, steps = 0;
	struct fc_nvs_ate a;
	int rc;

	if (!fs->cfg.index_slot_count)
		return fc_cache_init(&fs->index, FC_CACHE_NONE, NULL, 0);
	rc = fc_cache_init(&fs->index, FC_CACHE_MASK, fs->cfg.index_slots,
			   fs->cfg.index_slot_count);
	if (rc)
		return rc;
	nvs_win_reset_(fs);
	do {
		uint32_t cur = addr;

		rc = nvs_walk_prev_(fs, &addr, &a);
		if (rc)
			return rc;
		if (a.id != FC_NVS_ID_SPECIAL && ate_valid(fs, &a))
			(void)fc_cache_prefill(&fs->index, zcache_pos(fs, a.id), cur,
					       FC_CACHE_IF_EMPTY);
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (addr != fs->ate_wra);
	return 0;
}

/* Zephyr's free-space count: for each ATE, a walk to its id's newest ATE. */
int nvs_zephyr_free_space_(struct fc_nvs *fs, uint32_t *space)
{
	uint32_t step = fs->ate_wra, steps = 0;
	struct fc_nvs_ate sa, wa;
	int rc;

	nvs_win_reset_(fs); /* both walks share it (Zephyr mode reads ATE by ATE) */
	do {
		uint32_t wlk = fs->ate_wra, inner = 0;

		rc = nvs_walk_prev_(fs, &step, &sa);
		if (rc)
			return rc;
		do {
			rc = nvs_walk_prev_(fs, &wlk, &wa);
			if (rc)
				return rc;
			if (++inner > max_steps(fs))
				return FC_ECORRUPT;
		} while (wa.id != sa.id && wlk != fs->ate_wra);
		if (ate_valid(fs, &sa)) {
			if (!sa.len)
				*space -= sa.id == FC_NVS_ID_SPECIAL ? fs->ate_size : 0;
			else if (wlk == step)
				*space -= nvs_entry_bytes_(fs, sa.len);
		}
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (step != fs->ate_wra);
	return 0;
}

#endif /* FC_NO_EMULATION */
