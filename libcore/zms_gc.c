/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_gc.c - ZMS garbage collection (Zephyr's block steps, the newest-ATE
 * test through the index or the log) and closing the write sector.
 */
#include "zms_int.h"
#include "fdtcache/crc.h"

#ifndef FC_READONLY /* nothing here: GC writes */

/* ---- GC ---- */

/* Is the valid ATE a at addr the newest of its id? w: scratch. */
static int is_newest(struct fc_zms *fs, const struct fc_zms_ate *a, uint32_t addr, struct fc_zms_ate *w)
{
	struct fc_zms_slot *slot = zephyr_mode(fs) ? NULL : zms_index_get_(fs, a->id);
	uint32_t start, found = addr;
	int rc;

	if (slot)
		return (slot->addr & ~ZMS_DEL_FLAG) == addr;
	start = zms_zcache_start_(fs, a->id);
	if (start == ZMS_NO_ADDR)
		start = fs->ate_wra;
	rc = zms_find_id_(fs, a->id, start, fs->ate_wra, w, &found);
	return rc < 0 ? rc : found == addr;
}

/* A block of a GC copy, for flash_block_move. */
static int block_write(void *fs, uint32_t addr, const uint8_t *buf, uint32_t len)
{
	return zms_al_write_(fs, addr, buf, len);
}

/*
 * Copy one live ATE (and its value) of the GC'ed sector into the write
 * sector. Out of line: its block buffer stays off the frame the newest-ATE
 * walk runs under.
 */
static FC_NOINLINE int gc_copy(struct fc_zms *fs, struct fc_zms_ate *a, uint32_t addr)
{
	uint32_t at;
	int rc;

	if (a->len > fs->inline_max) {
		uint32_t src = fs->cfg.offset + zsect(fs, addr) * zss(fs) + a->offset;

		if ((uint64_t)a->offset + a->len > zss(fs))
			return FC_ECORRUPT;
		fc_put_le32(a->raw + zms_value_at(fs), zoffs(fs, fs->data_wra));
		rc = flash_block_move(fs, fs->cfg.flash, block_write, src, &fs->data_wra, a->len);
		if (rc)
			return rc;
	}
	a->raw[1] = fs->sector_cycle;
	zms_ate_seal_(a->raw);
	at = fs->ate_wra;
	rc = zms_ate_program_(fs, a->raw);
	if (rc)
		return rc;
	zms_index_note_(fs, a->id, at, a->len);
	zms_zcache_note_(fs, a->id, at);
	return 0;
}

/* Copy the live entries of closed sector gs, newest first (z: two scratch ATEs). */
static int gc_sector(struct fc_zms *fs, uint32_t gs, uint32_t lo, uint8_t gs_cycle, struct fc_zms_ate *z)
{
	struct fc_zms_ate *a = &z[0];

	zms_win_reset_(fs);
	for (uint32_t o = lo; o <= top_slot(fs); o += fs->ate_size) {
		uint32_t addr = zaddr(fs, gs, o);
		int rc = zms_win_ate_(fs, addr, a);

		if (rc)
			return rc;
		if (!zms_valid_(a, gs_cycle) || !a->len || a->id == zhead_id(fs))
			continue;
		rc = is_newest(fs, a, addr, &z[1]);
		if (rc > 0)
			rc = gc_copy(fs, a, addr);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * GC after the write sector moved on: see that the new write sector has a
 * settled empty ATE (zms_enter_sector_), copy the live entries of the sector after it (when
 * closed), mark gc_done, erase that sector and give it its empty ATE.
 */
int zms_gc_(struct fc_zms *fs)
{
	uint32_t ws = zsect(fs, fs->ate_wra), gs = znext(fs, ws);
	struct fc_zms_ate z[2]; /* the copy's scratch */
	int rc = zms_enter_sector_(fs, ws);

	if (rc)
		return rc;
	rc = zms_closed_(fs, gs);
	if (rc > 0)
		rc = gc_sector(fs, gs, fs->close.offset, zcycle(&fs->empty), z);
	if (rc < 0)
		return rc;
	zms_ate_special_(fs, z[0].raw, zoffs(fs, fs->data_wra), fs->sector_cycle);
	rc = zms_ate_program_(fs, z[0].raw);
	return rc ? rc : zms_erase_and_empty_(fs, gs);
}

int zms_sector_close_(struct fc_zms *fs)
{
	return zms_sector_close_at_(fs, zoffs(fs, fs->ate_wra + fs->ate_size));
}

/*
 * Close the write sector, its log ending at offset last: fill its unused
 * slots with erase-value ATEs (so stale ATEs of an RRAM sector cannot come
 * back to life), write the close ATE and move to the next sector.
 */
int zms_sector_close_at_(struct fc_zms *fs, uint32_t last)
{
	uint8_t b[FC_ZMS_ATE_BYTES];
	uint32_t ws = zsect(fs, fs->ate_wra), nx = znext(fs, ws);
	int rc;

	zms_ate_special_(fs, b, last, fs->sector_cycle);
	while (zoffs(fs, fs->ate_wra) && fs->ate_wra >= fs->data_wra) {
		uint8_t garbage[FC_ZMS_ATE_BYTES];

		FC_MEMSET(garbage, zerase_value(fs), sizeof(garbage));
		rc = zms_ate_program_(fs, garbage);
		if (rc)
			return rc;
	}
	fs->ate_wra = zaddr(fs, ws, close_slot(fs));
	rc = zms_ate_program_(fs, b);
	if (rc)
		return rc;
	fs->ate_wra = zaddr(fs, nx, top_slot(fs));
	fs->data_wra = zaddr(fs, nx, 0);
	return zms_cycle_or_zero_(fs, nx, &fs->sector_cycle);
}
#endif /* FC_READONLY */
