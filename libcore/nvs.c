/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs.c - a Zephyr-compatible NVS engine: mount and recovery, read, write,
 * GC, free space, over the log of nvs_log.c and the lookup state of
 * nvs_index.c (or nvs_zephyr.c, for comparisons).
 *
 * GC copies the live entries of the oldest sector into the write sector and
 * erases it; a write that does not fit closes the write sector and collects
 * the next, up to once per sector.
 */
#include "nvs_int.h"

#ifndef FC_READONLY

/* ---- writes ---- */

/* Zephyr's aligned write: the whole blocks, then the tail padded to one block. */
static int prog_aligned(void *arg, uint32_t addr, const uint8_t *data, uint32_t len)
{
	struct fc_nvs *fs = arg;
	uint8_t buf[NVS_BLOCK];
	uint32_t blen = len & ~(wbs(fs) - 1u);
	int rc;

	if (blen) {
		rc = nvs_prog_(fs, addr, data, blen);
		if (rc)
			return rc;
	}
	if (len == blen)
		return 0;
	FC_MEMSET(buf, erase_value(fs), wbs(fs));
	FC_MEMCPY(buf, data + blen, len - blen);
	return nvs_prog_(fs, addr + blen, buf, wbs(fs));
}

static int ate_write(struct fc_nvs *fs, uint16_t id, uint16_t offset, uint16_t len)
{
	uint8_t b[FC_NVS_ATE_BYTES];
	uint32_t at = fs->ate_wra;
	int rc;

	/* the slot: the ATE, padded with the erase value to the write block */
	fc_nvs_ate_encode(b, id, offset, len);
	rc = prog_aligned(fs, at, b, sizeof(b));
	fs->ate_wra -= fs->ate_size;
	if (rc)
		return rc;
	if (id == FC_NVS_ID_SPECIAL)
		fs->gc_done_ates += offs(at) != close_slot(fs); /* not a close ATE */
	else
		lookup_note(fs, id, at, len == 0);
	return 0;
}

/* len bytes at data_wra, padded to the write block; data_wra moves past them. */
static int data_prog(struct fc_nvs *fs, const uint8_t *data, uint32_t len)
{
	int rc = prog_aligned(fs, fs->data_wra, data, len);

	fs->data_wra += al(fs, len);
	return rc;
}

/*
 * Data at data_wra: its whole write blocks, then the rest padded to the
 * write block, with cfg.data_crc its CRC-32 (crc) directly after the value.
 */
static int data_write(struct fc_nvs *fs, const uint8_t *data, uint32_t len, uint32_t crc)
{
	uint8_t buf[NVS_BLOCK + NVS_CRC_SIZE];
	uint32_t whole = len & ~(wbs(fs) - 1u), tail = len - whole;
	int rc;

	if (!NVS_DATA_CRC(fs) || !len)
		return data_prog(fs, data, len);
	rc = data_prog(fs, data, whole);
	if (rc)
		return rc;
	FC_MEMCPY(buf, data + whole, tail);
	fc_put_le32(buf + tail, crc);
	return data_prog(fs, buf, tail + NVS_CRC_SIZE);
}

/* A close or gc_done ATE (the special id, no data) pointing at offset. */
static FC_NOINLINE int special_write(struct fc_nvs *fs, uint32_t offset)
{
	return ate_write(fs, FC_NVS_ID_SPECIAL, (uint16_t)offset, 0);
}

static int gc_done_write(struct fc_nvs *fs)
{
	return special_write(fs, offs(fs->data_wra));
}

static int sector_close(struct fc_nvs *fs)
{
	uint32_t last = offs(fs->ate_wra) + fs->ate_size;
	uint32_t next = next_sector(fs, sect(fs->ate_wra));
	int rc;

	fs->ate_wra = mkaddr(sect(fs->ate_wra), close_slot(fs));
	rc = special_write(fs, last);
	fs->ate_wra = mkaddr(next, top_slot(fs));
	fs->data_wra = mkaddr(next, 0);
	return rc;
}

/*
 * Erase a sector and check that it reads back erased (as Zephyr does). A
 * sector that already reads back erased is left alone (Zephyr erases it
 * anyway, and so does Zephyr mode): same bytes, no erase time or wear.
 */
static int erase_verified(struct fc_nvs *fs, uint32_t s)
{
	uint32_t end;
	int rc;

	/* a check before the erase (none in Zephyr mode), and one after it */
	for (bool erase = erase_erased(fs);; erase = true) {
		if (erase) {
			nvs_ate_cache_erased_(fs, s);
			rc = fc_flash_erase(fs->cfg.flash, nvs_sector_dev_off_(fs, s), ssize(fs));
			if (rc)
				return rc;
		}
		rc = nvs_dirty_end_(fs, mkaddr(s, 0), ssize(fs), &end);
		if (rc || !end)
			return rc;
		if (erase)
			return FC_EIO;
	}
}

/* Copy a value of len bytes at src (sector s) to the write position. */
static FC_NOINLINE int value_move(struct fc_nvs *fs, uint32_t s, uint16_t src, uint16_t len)
{
	return flash_block_move(fs, fs->cfg.flash, prog_aligned, nvs_sector_dev_off_(fs, s) + src,
				&fs->data_wra, len);
}

/* Is the valid ATE at addr the newest of its id? */
static int is_newest(struct fc_nvs *fs, uint16_t id, uint32_t addr)
{
	struct fc_nvs_ate a;
	uint32_t found;
	int rc = lookup_find(fs, id, &found, &a, false, true);

	if (rc <= 0)
		return rc;
	return found == addr;
}

/*
 * Collect the sector after the write sector: copy every entry whose newest
 * ATE is there (newest first, as Zephyr), mark the GC done, erase it. The
 * lookup state drops the rest of the sector (deletes, gc_done ATEs) on the
 * way. The gc_done ATE always gets its slot before the erase: without it a
 * mount could not tell a finished GC whose erase was cut from one cut while
 * copying. FC_ENOSPC when the copies and gc_done do not fit (only with
 * records packed tighter than this engine writes them), before any erase;
 * the lookup state is then built again over the sector, which stays.
 */
static int gc(struct fc_nvs *fs)
{
	uint32_t s = next_sector(fs, sect(fs->ate_wra)), low;
	struct fc_nvs_ate a;
	int rc = nvs_sector_start_(fs, s, &low);

	for (uint32_t at = low; !rc && offs(at) <= top_slot(fs); at += fs->ate_size) {
		rc = nvs_win_ate_(fs, at, false, &a);
		if (rc || !ate_valid(fs, &a))
			continue;
		if (a.id == FC_NVS_ID_SPECIAL || !a.len) {
			lookup_forget_slot(fs, at, &a);
			continue;
		}
		rc = is_newest(fs, a.id, at);
		if (rc <= 0)
			continue;
		if (fs->ate_wra < fs->data_wra + nvs_entry_bytes_(fs, a.len) + fs->ate_size) {
			rc = FC_ENOSPC;
			break;
		}
		uint16_t offset = (uint16_t)offs(fs->data_wra);

		rc = value_move(fs, s, a.offset, a.len);
		if (!rc)
			rc = ate_write(fs, a.id, offset, a.len);
	}
	if (rc >= 0 && fs->ate_wra < fs->data_wra + fs->ate_size)
		rc = FC_ENOSPC;
	if (rc == FC_ENOSPC) {
		rc = lookup_build(fs);
		return rc ? rc : FC_ENOSPC;
	}
	if (rc < 0)
		return rc;
	rc = gc_done_write(fs);
	if (rc)
		return rc;
	lookup_forget(fs, s);
	return erase_verified(fs, s);
}

/* ---- mount ---- */

static int gc_done_slot(struct fc_nvs *fs, uint32_t at, const struct fc_nvs_ate *a, void *arg)
{
	(void)at, (void)arg;
	return is_gc_done(fs, a);
}

/* A gc_done ATE above the write pointer of the write sector? */
static int has_gc_done(struct fc_nvs *fs)
{
	nvs_win_reset_(fs);
	return nvs_slots_up_(fs, fs->ate_wra + fs->ate_size, gc_done_slot, NULL);
}

static int restart_write_sector(struct fc_nvs *fs)
{
	uint32_t ws = sect(fs->ate_wra);
	int rc = erase_verified(fs, ws);

	if (rc)
		return rc;
	fs->ate_wra = mkaddr(ws, top_slot(fs));
	fs->data_wra = mkaddr(ws, 0);
	fs->torn_last = false;
	return lookup_build(fs);
}

#define GC_ERASE 1   /* the GC finished, its erase was cut */
#define GC_RESTART 2 /* the GC was cut */

/*
 * Was a GC cut? The sector after the write sector is not erased: a GC or
 * its erase was cut. With a gc_done ATE in the write sector (written only
 * once every copy is complete), or outside the log, it only needs the
 * erase. Otherwise the GC starts over from an erased write sector: nothing
 * the cut GC, or a cut restart of it, left in the write sector is trusted
 * (a copy's ATE may survive a torn erase that took its data), and the
 * sector collected is intact, since it is erased only after its gc_done.
 */
static int gc_cut(struct fc_nvs *fs, uint32_t nx)
{
	uint32_t end;
	struct fc_nvs_ate close;
	int rc = nvs_dirty_end_(fs, mkaddr(nx, 0), ssize(fs), &end);

	if (rc || !end)
		return rc;
	rc = nvs_close_read_(fs, nx, &close);
	if (rc)
		return rc;
	rc = close.erased ? 1 : has_gc_done(fs);
	if (rc < 0)
		return rc;
	return rc ? GC_ERASE : GC_RESTART;
}

/*
 * Recover a cut GC and build the lookup state (the erase comes first, so
 * the sector erased is never indexed). Any number of cuts of this recovery
 * lead back here.
 */
static int recover_gc(struct fc_nvs *fs)
{
	uint32_t nx = next_sector(fs, sect(fs->ate_wra));
	int rc = gc_cut(fs, nx);

	if (rc == GC_RESTART) {
		rc = restart_write_sector(fs);
		return rc ? rc : gc(fs);
	}
	if (rc == GC_ERASE)
		rc = erase_verified(fs, nx);
	return rc ? rc : lookup_build(fs);
}

/*
 * The write sector's newest ATE is torn out of order (find_write_pointers):
 * its id and length cannot be told from real ones, so no reader may see it.
 * The sector is closed above it (readers, Zephyr's too, start a closed
 * sector's log at its close ATE's offset; a torn close ATE is recovered
 * down to the same slot) and the next one collected, as after any close;
 * a cut in here leaves the usual GC recovery.
 */
static int close_above_torn(struct fc_nvs *fs)
{
	int rc;

	fs->ate_wra += fs->ate_size;
	fs->torn_last = false;
	rc = sector_close(fs);
	if (!rc)
		rc = lookup_build(fs);
	return rc ? rc : gc(fs);
}

/* Mount's repairs, which write, and the lookup state: a cut GC, a torn last ATE, stray data, a missing gc_done ATE. */
static int recover(struct fc_nvs *fs)
{
	int rc = recover_gc(fs);

	if (!rc && fs->torn_last)
		rc = close_above_torn(fs);
	if (rc)
		return rc;
	if (offs(fs->ate_wra) != top_slot(fs))
		return 0;
	/* an open sector with no ATE but stray data starts over (still with no ATE) */
	if (offs(fs->data_wra)) {
		rc = restart_write_sector(fs);
		if (rc)
			return rc;
	}
	return gc_done_write(fs);
}

int fc_nvs_clear(struct fc_nvs *fs)
{
	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	fs->mounted = false;
	return fc_flash_erase(fs->cfg.flash, fs->cfg.offset,
			      (uint32_t)fs->cfg.sector_count * ssize(fs));
}

#endif /* FC_READONLY */

/*
 * FC_READONLY: the log as it is, unrepaired. Reads see what Zephyr reads
 * after its repairing mount: an interrupted GC's source sector is still the
 * oldest in the log, so each id's newest valid ATE, and its value, are the
 * same whether or not its copy was made.
 */
int fc_nvs_mount(struct fc_nvs *fs, const struct fc_nvs_config *cfg)
{
	int rc;

	if (!fs)
		return FC_EINVAL;
	rc = nvs_locate_(fs, cfg);
#ifdef FC_READONLY
	if (!rc)
		rc = lookup_build(fs);
#else
	if (!rc)
		rc = recover(fs); /* which builds the lookup state */
#endif
	if (rc)
		return rc;
	fs->mounted = true;
	return 0;
}

/* ---- read and write ---- */

/*
 * Compare the value at addr with data followed (with CRC) by its CRC-32
 * (data_crc), in Zephyr's block steps. Returns 0 when equal, 1 when not,
 * or an error.
 */
#ifndef FC_READONLY
static int value_cmp(const struct fc_nvs *fs, uint32_t addr, const uint8_t *data, uint32_t len,
		     uint32_t data_crc)
{
	uint8_t buf[NVS_BLOCK], crc[NVS_CRC_SIZE];
	uint32_t step = flash_block_step(fs->cfg.flash), stored_len = len + crc_size(fs);

	fc_put_le32(crc, data_crc);
	for (uint32_t pos = 0; pos < stored_len;) {
		uint32_t n = FC_MIN(step, stored_len - pos);
		int rc = nvs_read_(fs, addr + pos, buf, n);

		if (rc)
			return rc;
		for (uint32_t i = 0; i < n; i++, pos++) {
			/* the value, then its CRC (all value without data CRC) */
			uint8_t want = NVS_DATA_CRC_OFF || pos < len ? data[pos] : crc[pos - len];

			if (buf[i] != want)
				return 1;
		}
	}
	return 0;
}

static int write_locked(struct fc_nvs *fs, uint16_t id, const uint8_t *data, uint32_t len,
			unsigned int hints)
{
	uint32_t old_addr, stored = len ? len + crc_size(fs) : 0, required;
	/* one CRC-32 for the compare and the write */
	uint32_t crc = NVS_DATA_CRC(fs) ? fc_crc32_ieee(data, len) : 0;
	uint16_t offset;
	struct fc_nvs_ate old;
	int found, rc;

	found = lookup_find(fs, id, &old_addr, &old, true, !(hints & FC_NVS_HINT_ABSENT));
	if (found < 0)
		return found;
	if (!found)
		old.len = 0; /* absent: as deleted */
	if (!len && !old.len)
		return 0;
	if (len && !hints && old.len == stored) {
		rc = value_cmp(fs, mkaddr(sect(old_addr), old.offset), data, len, crc);
		if (rc <= 0)
			return rc;
	}
	/* the aligned value, its CRC (stored - len) and the ATE slot */
	required = nvs_entry_bytes_(fs, (uint16_t)len) + (stored - len);
	for (uint32_t gc_count = 0;; gc_count++) {
		if (gc_count == fs->cfg.sector_count)
			return FC_ENOSPC;
		if (fs->ate_wra >= fs->data_wra + required)
			break;
		rc = sector_close(fs);
		if (!rc)
			rc = gc(fs);
		if (rc)
			return rc;
	}
	offset = (uint16_t)offs(fs->data_wra);
	rc = data_write(fs, data, len, crc);
	if (!rc)
		rc = ate_write(fs, id, offset, (uint16_t)stored);
	if (rc)
		return rc;
	/* (an unknown count is counted again when asked) */
	fs->live_bytes += nvs_entry_bytes_(fs, (uint16_t)stored) - nvs_entry_bytes_(fs, old.len);
	return (int)len;
}

int fc_nvs_write_hint(struct fc_nvs *fs, uint16_t id, const void *data, size_t len,
		      unsigned int hints)
{
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	if (id == FC_NVS_ID_SPECIAL || (len && !data) ||
	    (hints & ~(FC_NVS_HINT_CHANGED | FC_NVS_HINT_ABSENT)))
		return FC_EINVAL;
	if (len > ssize(fs) - 4 * fs->ate_size - crc_size(fs))
		return FC_ETOOBIG;
	rc = write_locked(fs, id, data, (uint32_t)len, hints);
	if (rc < 0 && rc != FC_ENOSPC)
		fs->mounted = false;
	return rc;
}

int fc_nvs_write(struct fc_nvs *fs, uint16_t id, const void *data, size_t len)
{
	return fc_nvs_write_hint(fs, id, data, len, 0);
}

int fc_nvs_delete(struct fc_nvs *fs, uint16_t id)
{
	return fc_nvs_write(fs, id, NULL, 0);
}

#endif /* FC_READONLY */

int fc_nvs_read_hist(struct fc_nvs *fs, uint16_t id, void *data, size_t len, uint16_t cnt)
{
	uint32_t addr, vlen;
	struct fc_nvs_ate a;
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	if (len && !data)
		return FC_EINVAL;
	rc = lookup_find(fs, id, &addr, &a, true, true);
	for (uint32_t k = 0; rc > 0 && k < cnt; k++) {
		struct fc_nvs_ate skip;

		/* from the slot older than the one found */
		nvs_win_reset_(fs);
		rc = nvs_walk_prev_(fs, &addr, &skip);
		if (!rc)
			rc = addr == fs->ate_wra ? 0 : nvs_walk_find_(fs, &addr, id, NVS_NO_ADDR, &a);
	}
	if (rc < 0)
		return rc;
	if (!rc || !a.len || a.len < crc_size(fs))
		return FC_ENOENT;
	vlen = a.len - crc_size(fs);
	addr = mkaddr(sect(addr), a.offset);
	rc = nvs_read_(fs, addr, data, FC_MIN((uint32_t)len, vlen));
	if (rc)
		return rc;
	if (NVS_DATA_CRC(fs) && len >= vlen) {
		uint8_t crc[NVS_CRC_SIZE];

		rc = nvs_read_(fs, addr + vlen, crc, NVS_CRC_SIZE);
		if (rc)
			return rc;
		if (fc_get_le32(crc) != fc_crc32_ieee(data, vlen))
			return FC_EBADCRC;
	}
	return (int)vlen;
}

int fc_nvs_read(struct fc_nvs *fs, uint16_t id, void *data, size_t len)
{
	return fc_nvs_read_hist(fs, id, data, len, 0);
}

int fc_nvs_calc_free_space(struct fc_nvs *fs)
{
	uint32_t space;
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	space = (fs->cfg.sector_count - 1u) * (ssize(fs) - 2 * fs->ate_size);
	rc = lookup_free_space(fs, &space);
	if (rc)
		return rc;
	return (int)FC_MIN(space, (uint32_t)INT_MAX);
}

int fc_nvs_sector_max_data_size(struct fc_nvs *fs)
{
	uint32_t need;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	/* the free bytes between the pointers, less an ATE slot and a CRC */
	need = fs->data_wra + fs->ate_size + crc_size(fs);
	return fs->ate_wra > need ? (int)(fs->ate_wra - need) : 0;
}

#ifndef FC_READONLY
int fc_nvs_sector_use_next(struct fc_nvs *fs)
{
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	rc = sector_close(fs);
	if (!rc)
		rc = gc(fs);
	if (rc)
		fs->mounted = false;
	return rc;
}
#endif /* FC_READONLY */
