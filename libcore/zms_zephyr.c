/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_zephyr.c - Zephyr's lookup cache, for FC_ZMS_LOOKUP_ZEPHYR (the
 * comparison model: its flash reads are Zephyr's). FC_NO_EMULATION leaves
 * it out.
 *
 * Zephyr's lookup cache keeps, per slot, the newest ATE of any id hashing
 * there; a lookup walks from that ATE towards older ones (from the newest
 * ATE without a cache).
 */
#include "zms_int.h"

#ifndef FC_NO_EMULATION

/* CONFIG_ZMS_LOOKUP_CACHE's slot: an integer hash of the id, mod the (power of two) size. */
static uint32_t zcache_pos(const struct fc_zms *fs, fc_zms_id_t id)
{
	if (fs->cfg.id64) {
		uint64_t h = id;

		h ^= h >> 32;
		h *= 0x42ab4abe4c475039ull;
		h ^= h >> 31;
		h *= 0xfa90c4424c537791ull;
		h ^= h >> 32;
		return (uint32_t)h & (fs->cfg.index_slot_count - 1u);
	}
	uint32_t h = (uint32_t)id;

	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h & (fs->cfg.index_slot_count - 1u);
}

/* Where Zephyr starts looking for id: its cache slot, or the newest ATE. */
uint32_t zms_zcache_start_(const struct fc_zms *fs, fc_zms_id_t id)
{
	if (!zephyr_mode(fs) || !fs->cfg.index_slot_count)
		return fs->ate_wra;
	return fs->cfg.index_slots[zcache_pos(fs, id)].addr;
}

void zms_zcache_note_(struct fc_zms *fs, fc_zms_id_t id, uint32_t addr)
{
	if (zephyr_mode(fs) && fs->cfg.index_slot_count && id != zhead_id(fs))
		fs->cfg.index_slots[zcache_pos(fs, id)].addr = addr;
}

void zms_zcache_fill_(struct fc_zms *fs, uint32_t addr)
{
	for (uint32_t i = 0; zephyr_mode(fs) && i < fs->cfg.index_slot_count; i++)
		fs->cfg.index_slots[i].addr = addr;
}

void zms_zcache_drop_sector_(struct fc_zms *fs, uint32_t s)
{
	for (uint32_t i = 0; zephyr_mode(fs) && i < fs->cfg.index_slot_count; i++) {
		struct fc_zms_slot *slot = &fs->cfg.index_slots[i];

		if (slot->addr != ZMS_NO_ADDR && zsect(fs, slot->addr) == s)
			slot->addr = ZMS_NO_ADDR;
	}
}

/* zms_lookup_cache_rebuild: walk the whole log once, newest first. */
int zms_zcache_rebuild_(struct fc_zms *fs)
{
	uint32_t addr = fs->ate_wra, last_sector = ZMS_NO_ADDR, steps = 0;
	uint8_t cycle = 0;
	struct fc_zms_ate a;

	zms_zcache_fill_(fs, ZMS_NO_ADDR);
	if (!fs->cfg.index_slot_count)
		return 0;
	do {
		uint32_t cur = addr;
		struct fc_zms_slot *slot;
		int rc = zms_ate_read_(fs, cur, &a);

		if (!rc)
			rc = zms_prev_addr_(fs, &addr);
		if (rc)
			return rc;
		slot = &fs->cfg.index_slots[zcache_pos(fs, a.id)];
		if (a.id != zhead_id(fs) && slot->addr == ZMS_NO_ADDR) {
			rc = zms_cycle_at_(fs, cur, &last_sector, &cycle);
			if (rc)
				return rc;
			if (zms_valid_(&a, cycle))
				slot->addr = cur;
		}
		if (++steps > zms_max_steps_(fs))
			return FC_ECORRUPT;
	} while (addr != fs->ate_wra);
	return 0;
}
#endif /* FC_NO_EMULATION */
