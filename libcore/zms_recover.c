/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_recover.c - what the ZMS mount writes to recover from a power cut:
 * giving a sector its empty ATE, redoing an interrupted GC or the erase
 * after it, and moving past a torn close ATE without programming it again.
 */
#include "zms_int.h"

#ifndef FC_READONLY /* nothing here: recovery writes */

/*
 * Give sector s its empty ATE: the old cycle plus one (0 when it had no
 * empty ATE), skipping the cycle of the close ATE still there.
 */
static int add_empty(struct fc_zms *fs, uint32_t s)
{
	uint8_t b[FC_ZMS_ATE_BYTES], cycle;
	int rc = zms_cycle_or_zero_(fs, s, &cycle);

	if (rc)
		return rc;
	rc = zms_ate_read_(fs, zaddr(fs, s, close_slot(fs)), &fs->close);
	if (rc)
		return rc;
	cycle++;
	if (zcycle(&fs->close) == cycle)
		cycle++;
	zms_ate_empty_(fs, b, cycle);
	return zms_al_write_(fs, zaddr(fs, s, empty_slot(fs)), b, FC_ZMS_ATE_BYTES);
}

int zms_erase_and_empty_(struct fc_zms *fs, uint32_t s)
{
	int rc = zms_erase_(fs, s);

	if (zephyr_mode(fs))
		zms_zcache_drop_sector_(fs, s);
	else
		zms_index_drop_sector_(fs, s);
	if (s == fs->torn_sector)
		fs->torn_sector = ZMS_NO_ADDR;
	return rc ? rc : add_empty(fs, s);
}

/*
 * A cut while the empty ATE of a sector was programmed can leave cells
 * half programmed that read back differently from read to read: entries
 * written under the cycle one read gives would turn invalid when a later
 * read gives another. So before write sector ws (which holds nothing yet)
 * takes its first entry, its empty ATE must read the same
 * ZMS_SETTLE_READS times, else the sector is erased and given a new one.
 */
int zms_enter_sector_(struct fc_zms *fs, uint32_t ws)
{
	struct fc_zms_ate e;
	int rc = zms_ate_settled_(fs, zaddr(fs, ws, empty_slot(fs)), &e);

	if (rc < 0)
		return rc;
	if (rc && zms_empty_valid_(fs, &e)) {
		fs->sector_cycle = zcycle(&e);
		return 0;
	}
	rc = zms_erase_and_empty_(fs, ws);
	return rc ? rc : zms_sector_cycle_(fs, ws, &fs->sector_cycle, &e);
}

/*
 * A gc_done ATE of the write sector's cycle above ate_wra? (Zephyr takes
 * one of any cycle: on a device without erase, a stale one from the
 * sector's last use then skips the GC a cut interrupted.)
 */
static int has_gc_done(const struct fc_zms *fs)
{
	struct fc_zms_ate a;

	for (uint32_t at = fs->ate_wra + fs->ate_size;
	     zoffs(fs, at) < close_slot(fs); at += fs->ate_size) {
		int rc = zms_ate_read_(fs, at, &a);

		if (rc)
			return rc;
		if (zms_valid_(&a, fs->sector_cycle) && zms_gc_done_valid_(fs, &a))
			return 1;
	}
	return 0;
}

/*
 * The sector after the write sector, not closed, must hold nothing but its
 * empty ATE: anything else is left by a cut erase (the one after a GC, or
 * the one the next GC starts with), which is done again here so that no
 * later program meets those bytes. Erasable flash only.
 */
static int finish_torn_erase(struct fc_zms *fs, uint32_t s, const struct fc_zms_ate *empty)
{
	uint32_t end;
	int rc;

	if (fs->cfg.no_erase)
		return 0;
	rc = zms_dirty_end_(fs, zaddr(fs, s, 0), empty_slot(fs), &end);
	if (rc)
		return rc;
	if (!end && (zms_erased_(fs, empty) || zms_empty_valid_(fs, empty)))
		return 0;
	return zms_erase_and_empty_(fs, s);
}

/*
 * The sector after the write sector is still closed: with a gc_done ATE
 * in the write sector only its erase was cut; without one, the GC itself
 * was, and runs again into the write sector, erased first (as Zephyr).
 */
int zms_recover_gc_(struct fc_zms *fs)
{
	uint32_t ws = zsect(fs, fs->ate_wra), nx = znext(fs, ws);
	int rc = zms_closed_(fs, nx);

	if (rc < 0)
		return rc;
	if (!rc)
		return finish_torn_erase(fs, nx, &fs->empty);
	rc = has_gc_done(fs);
	if (rc < 0)
		return rc;
	if (rc)
		return zms_erase_and_empty_(fs, nx);
	rc = zms_erase_and_empty_(fs, ws);
	if (rc)
		return rc;
	fs->ate_wra = zaddr(fs, ws, top_slot(fs));
	fs->data_wra = zaddr(fs, ws, 0);
	if (zephyr_mode(fs))
		zms_zcache_fill_(fs, fs->ate_wra);
	else
		rc = zms_index_build_(fs);
	return rc ? rc : zms_gc_(fs);
}

/*
 * The write sector holds a cut ATE whose cells read differently from read
 * to read (zms.c, unsettled_close()). The sector is closed above it, its
 * close ATE pointing at the valid ATE above (every reader, Zephyr's too,
 * starts a closed sector's log there, so none reads that slot again), the
 * lookups are built again without it, and the next sector is collected, as
 * after any close. The cut ATE is the write the cut interrupted, never
 * acknowledged.
 */
int zms_close_above_torn_(struct fc_zms *fs, uint32_t last)
{
	int rc = zms_sector_close_at_(fs, last);

	if (!rc)
		rc = zephyr_mode(fs) ? zms_zcache_rebuild_(fs) : zms_index_build_(fs);
	return rc ? rc : zms_gc_(fs);
}

/*
 * A close ATE cut while being written leaves the write sector full and
 * open, with a dirty close slot. Zephyr programs the close ATE there again
 * (over bytes that are not erased); here it is never programmed: the
 * sector counts as closed with its torn close ATE (zms_closed_) and the
 * engine moves on to the next sector and its GC, whose gc_done ATE tells
 * later mounts that the torn sector was closed.
 */
int zms_move_past_torn_close_(struct fc_zms *fs)
{
	uint32_t ws = zsect(fs, fs->ate_wra), nx = znext(fs, ws), end;
	int rc;

	if (fs->cfg.no_erase)
		return 0;
	rc = zms_dirty_end_(fs, zaddr(fs, ws, close_slot(fs)), fs->ate_size, &end);
	if (rc || end == close_slot(fs))
		return rc;
	fs->torn_sector = ws;
	fs->ate_wra = zaddr(fs, nx, top_slot(fs));
	fs->data_wra = zaddr(fs, nx, 0);
	rc = zms_cycle_or_zero_(fs, nx, &fs->sector_cycle);
	return rc ? rc : zms_gc_(fs);
}

#endif /* FC_READONLY */
