/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_zephyr.c - Zephyr's lookup algorithms, for comparisons
 * (FC_NVS_LOOKUP_ZEPHYR): the index slots act as Zephyr's lookup cache
 * (the newest ATE of the ids hashing to a slot, a walk from there) and free
 * space is computed Zephyr's O(n^2) way. FC_NO_EMULATION leaves it out.
 */
#include "nvs_int.h"

#ifndef FC_NO_EMULATION

/* Zephyr's lookup cache position: a 16-bit integer hash, modulo the size. */
static uint32_t zcache_pos(const struct fc_nvs *fs, uint16_t id)
{
	uint16_t h = id;

	h ^= (uint16_t)(h >> 8);
	h = (uint16_t)(h * 0x88b5u);
	h ^= (uint16_t)(h >> 7);
	h = (uint16_t)(h * 0xdb2du);
	h ^= (uint16_t)(h >> 9);
	return h % fs->cfg.index_slot_count;
}

void nvs_zephyr_forget_(struct fc_nvs *fs, uint32_t s)
{
	for (uint32_t i = 0; i < fs->cfg.index_slot_count; i++)
		if (fs->cfg.index_slots[i].value != NVS_NO_ADDR &&
		    sect(fs->cfg.index_slots[i].value) == s)
			fs->cfg.index_slots[i].value = NVS_NO_ADDR;
}

void nvs_zephyr_note_(struct fc_nvs *fs, uint16_t id, uint32_t addr)
{
	if (id == FC_NVS_ID_SPECIAL || !fs->cfg.index_slot_count)
		return;
	fs->cfg.index_slots[zcache_pos(fs, id)].value = addr;
}

int nvs_zephyr_find_(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct fc_nvs_ate *a,
		     bool may_walk)
{
	uint32_t start = fs->ate_wra;

	if (!may_walk)
		return 0;
	if (fs->cfg.index_slot_count) {
		start = fs->cfg.index_slots[zcache_pos(fs, id)].value;
		if (start == NVS_NO_ADDR)
			return 0;
	}
	return nvs_walk_find_(fs, start, id, NVS_NO_ADDR, addr, a);
}

/* Zephyr's cache rebuild: a walk from the newest ATE, first valid one per slot wins. */
int nvs_zephyr_build_(struct fc_nvs *fs)
{
	struct nvs_win w = { .len = 0 };
	uint32_t addr = fs->ate_wra, steps = 0;
	struct fc_nvs_ate a;

	for (uint32_t i = 0; i < fs->cfg.index_slot_count; i++) {
		fs->cfg.index_slots[i].key = FC_CACHE_EMPTY;
		fs->cfg.index_slots[i].value = NVS_NO_ADDR;
	}
	if (!fs->cfg.index_slot_count)
		return 0;
	do {
		uint32_t cur = addr;
		int rc = nvs_walk_prev_(fs, &w, &addr, &a);

		if (rc)
			return rc;
		if (a.id != FC_NVS_ID_SPECIAL && ate_valid(fs, &a) &&
		    fs->cfg.index_slots[zcache_pos(fs, a.id)].value == NVS_NO_ADDR)
			fs->cfg.index_slots[zcache_pos(fs, a.id)].value = cur;
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (addr != fs->ate_wra);
	return 0;
}

/* Zephyr's free-space count: for each ATE, a walk to its id's newest ATE. */
int nvs_zephyr_free_space_(struct fc_nvs *fs, uint32_t *space)
{
	struct nvs_win w = { .len = 0 }; /* unused: Zephyr mode reads ATE by ATE */
	uint32_t step = fs->ate_wra, steps = 0;
	struct fc_nvs_ate sa, wa;
	int rc;

	do {
		uint32_t wlk = fs->ate_wra, inner = 0;

		rc = nvs_walk_prev_(fs, &w, &step, &sa);
		if (rc)
			return rc;
		do {
			rc = nvs_walk_prev_(fs, &w, &wlk, &wa);
			if (rc)
				return rc;
			if (++inner > max_steps(fs))
				return FC_ECORRUPT;
		} while (wa.id != sa.id && wlk != fs->ate_wra);
		if (ate_valid(fs, &sa)) {
			if (!sa.len)
				*space -= sa.id == FC_NVS_ID_SPECIAL ? fs->ate_size : 0;
			else if (wlk == step)
				*space -= entry_bytes(fs, sa.len);
		}
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (step != fs->ate_wra);
	return 0;
}

#endif /* FC_NO_EMULATION */
