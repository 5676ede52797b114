/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_index.c - the exact id -> newest ATE map over the caller's slots.
 *
 * Open addressing with linear probing from a multiplicative hash of the
 * id; removal shifts the run back, so no tombstones pile up. One slot
 * always stays empty, which ends every probe run. A slot also keeps the
 * value length, so free space is counted from the slots alone.
 */
#include "zms_int.h"

#define GOLDEN32 0x61C88647u
#define FOLD64 0x9E3779B1u

static uint32_t mask(const struct fc_zms *fs)
{
	return fs->cfg.index_slot_count - 1u;
}

static uint32_t home(const struct fc_zms *fs, fc_zms_id_t id)
{
	uint32_t key = (uint32_t)id ^ (uint32_t)(id >> 32) * FOLD64;

	uint32_t h = key * GOLDEN32;

	return fs->index_bits ? h >> (32 - fs->index_bits) : 0;
}

static bool slot_empty(const struct fc_zms_slot *slot)
{
	return slot->addr == ZMS_NO_ADDR;
}

void zms_index_clear_(struct fc_zms *fs)
{
	uint32_t n = fs->cfg.index_slot_count, bits = 0;

	while ((1u << bits) < n)
		bits++;
	fs->index_bits = (uint8_t)bits;
	for (uint32_t i = 0; i < n; i++)
		fs->cfg.index_slots[i].addr = ZMS_NO_ADDR;
	fs->index_used = 0;
	fs->index_refused = false;
}

static uint32_t find_pos(const struct fc_zms *fs, fc_zms_id_t id, bool *hit)
{
	uint32_t i = home(fs, id);

	for (;;) {
		const struct fc_zms_slot *slot = &fs->cfg.index_slots[i];

		if (slot_empty(slot)) {
			*hit = false;
			return i;
		}
		if (slot->id_lo == (uint32_t)id && slot->id_hi == (uint32_t)(id >> 32)) {
			*hit = true;
			return i;
		}
		i = (i + 1) & mask(fs);
	}
}

/* The slot of id, or NULL when the index does not hold it. */
struct fc_zms_slot *zms_index_get_(const struct fc_zms *fs, fc_zms_id_t id)
{
	bool hit;
	uint32_t i;

	if (!fs->cfg.index_slot_count)
		return NULL;
	i = find_pos(fs, id, &hit);
	return hit ? &fs->cfg.index_slots[i] : NULL;
}

/* Store id -> addr (ZMS_DEL_FLAG set for a delete); a full map refuses the id. */
void zms_index_note_(struct fc_zms *fs, fc_zms_id_t id, uint32_t addr, uint32_t len)
{
	struct fc_zms_slot *slot;
	bool hit;
	uint32_t i;

	if (!fs->cfg.index_slot_count || zephyr_mode(fs)) {
		fs->index_refused = true;
		return;
	}
	i = find_pos(fs, id, &hit);
	slot = &fs->cfg.index_slots[i];
	if (!hit) {
		if (fs->index_used + 1 >= fs->cfg.index_slot_count) {
			fs->index_refused = true;
			return;
		}
		fs->index_used++;
		slot->id_lo = (uint32_t)id;
		slot->id_hi = (uint32_t)(id >> 32);
	}
	slot->addr = addr | (len ? 0 : ZMS_DEL_FLAG);
	slot->len = len;
}

/* Empty slot i and shift the rest of its run back towards their homes. */
static void remove_at(struct fc_zms *fs, uint32_t i)
{
	struct fc_zms_slot *slots = fs->cfg.index_slots;
	uint32_t j = i;

	for (;;) {
		uint32_t k;

		j = (j + 1) & mask(fs);
		if (slot_empty(&slots[j]))
			break;
		k = home(fs, zms_slot_id(&slots[j]));
		/* move j into the hole unless its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		slots[i] = slots[j];
		i = j;
	}
	slots[i].addr = ZMS_NO_ADDR;
	fs->index_used--;
}

/* Forget the ids whose newest ATE is in sector s (about to be erased). */
void zms_index_drop_sector_(struct fc_zms *fs, uint32_t s)
{
	uint32_t i = 0;

	while (i < fs->cfg.index_slot_count) {
		const struct fc_zms_slot *slot = &fs->cfg.index_slots[i];

		if (!slot_empty(slot) && zsect(fs, slot->addr) == s)
			remove_at(fs, i);
		else
			i++;
	}
}

/* Note the valid id ATEs of sector s from offset lo up, newest first. */
static int build_sector(struct fc_zms *fs, uint32_t s, uint32_t lo)
{
	struct fc_zms_ate a;
	uint8_t cycle;
	int rc = zms_cycle_or_zero_(fs, s, &cycle);

	if (rc)
		return rc;
	for (uint32_t o = lo; o <= top_slot(fs); o += fs->ate_size) {
		uint32_t at = zaddr(fs, s, o);

		rc = zms_win_ate_(fs, at, &a);
		if (rc)
			return rc;
		if (!zms_valid_(&a, cycle) || a.id == zhead_id(fs) || zms_index_get_(fs, a.id))
			continue;
		zms_index_note_(fs, a.id, at, a.len);
	}
	return 0;
}

/* Fill the index from the log, newest ATE first: the first ATE of an id wins. */
int zms_index_build_(struct fc_zms *fs)
{
	uint32_t ws = zsect(fs, fs->ate_wra), s = ws, lo = zoffs(fs, fs->ate_wra);
	int rc;

	zms_index_clear_(fs);
	zms_win_reset_(fs);
	if (!fs->cfg.index_slot_count) {
		fs->index_refused = true;
		return 0;
	}
	for (uint32_t k = 0; k < fs->cfg.sector_count; k++) {
		rc = build_sector(fs, s, lo);
		if (rc)
			return rc;
		s = zprev(fs, s);
		if (s == ws)
			break;
		rc = zms_closed_(fs, s);
		if (rc <= 0)
			return rc;
		lo = fs->close.offset;
	}
	return 0;
}

/*
 * Zephyr's free space from the slots: for each of the n - 1 sectors back
 * from the write sector, the room a GC would leave (its live values and
 * their ATEs taken from an empty sector).
 */
int zms_index_free_space_(const struct fc_zms *fs)
{
	uint32_t s = zsect(fs, fs->ate_wra);
	int free_space = 0;

	for (uint32_t k = 0; k + 1 < fs->cfg.sector_count; k++) {
		uint32_t data = 0, ate = zss(fs) - 4 * fs->ate_size;

		for (uint32_t i = 0; i < fs->cfg.index_slot_count; i++) {
			const struct fc_zms_slot *slot = &fs->cfg.index_slots[i];

			if (slot_empty(slot) || (slot->addr & ZMS_DEL_FLAG) ||
			    zsect(fs, slot->addr) != s)
				continue;
			if (slot->len > fs->inline_max)
				data += zal(fs, slot->len);
			ate -= fs->ate_size;
		}
		free_space += zms_free_in_(fs, data, ate);
		s = zprev(fs, s);
	}
	return free_space;
}
