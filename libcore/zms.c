/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms.c - the ZMS engine: mount and recovery, write, read, delete, free
 * space, clear (GC and closing a sector are in zms_gc.c).
 *
 * Flash traffic that Zephyr's format defines (which bytes go where, in
 * which program calls) is Zephyr's, so a workload leaves Zephyr's image.
 * What differs is how an id's newest ATE is found (the index instead of a
 * walk over the log) and the power-loss rules of the mount: the free area
 * is checked so no value is ever programmed over half-written bytes; a
 * write sector a cut left without its empty ATE gets one before any entry;
 * a torn delete in a sector's last slot leaves the sector full; an erase a
 * cut left unfinished in the sector after the write sector is done again
 * (and with two sectors it does not make the remnant the write sector); a
 * torn close ATE is never programmed again: the sector counts as closed
 * and the engine moves on.
 */
#include "zms_int.h"
#include "fdtcache/crc.h"

/* ---- configuration ---- */

/* Caller memory of size units at p: none (size 0), or a power of two in [min, max] at p. */
static bool mem_ok(const void *p, uint32_t size, uint32_t min, uint32_t max)
{
	return !size || (p && fc_is_pow2(size) && size >= min && size <= max);
}

static int check_config(const struct fc_zms_config *cfg)
{
	const struct fc_flash *f = cfg->flash;
	uint32_t wbs, ate, n = cfg->sector_count;

	if (!f || !f->geo.write_size || f->geo.write_size > FC_ZMS_BLOCK || n < 2)
		return FC_EINVAL;
	wbs = f->geo.write_size;
	ate = FC_ALIGN_UP(FC_ZMS_ATE_BYTES, wbs);
	if (cfg->sector_size < FC_ZMS_MIN_ATES * ate || cfg->sector_size % ate ||
	    cfg->sector_size > 0x40000000u)
		return FC_EINVAL;
	if (!cfg->no_erase && (cfg->sector_size % f->geo.erase_size || cfg->offset % f->geo.erase_size))
		return FC_EINVAL;
	if ((uint64_t)cfg->offset + (uint64_t)cfg->sector_size * n > f->geo.size)
		return FC_EINVAL;
	if (!mem_ok(cfg->index_slots, cfg->index_slot_count, 1, UINT32_MAX) ||
	    !mem_ok(cfg->read_buf, cfg->read_buf_size, FC_ZMS_BLOCK, UINT32_MAX) ||
	    !mem_ok(cfg->ate_cache, cfg->ate_cache_size, 2 * ate, cfg->sector_size))
		return FC_EINVAL;
	if (cfg->id64 && cfg->data_crc)
		return FC_EINVAL; /* no room for a CRC beside a 64-bit id */
#ifdef FC_NO_DATA_CRC
	if (cfg->data_crc)
		return FC_EINVAL;
#endif
#ifdef FC_NO_EMULATION
	if (cfg->lookup != FC_ZMS_LOOKUP_INDEX)
		return FC_EINVAL;
#endif
	return 0;
}

static int setup(struct fc_zms *fs, const struct fc_zms_config *cfg)
{
	uint32_t shift = 0;
	int rc = check_config(cfg);

	if (rc)
		return rc;
	FC_MEMSET(fs, 0, sizeof(*fs));
	fs->cfg = *cfg;
	while ((1u << shift) < cfg->sector_size)
		shift++;
	/* every address and ZMS_NO_ADDR must fit 32 bits */
	if (shift + 1 < 32 && ((uint64_t)cfg->sector_count << shift) >= UINT32_MAX)
		return FC_EINVAL;
	fs->addr_shift = (uint8_t)shift;
	fs->ate_size = FC_ALIGN_UP(FC_ZMS_ATE_BYTES, cfg->flash->geo.write_size);
	fs->inline_max = cfg->id64 ? 4 : 8;
	fs->torn_sector = ZMS_NO_ADDR;
	if (zephyr_mode(fs))
		zms_zcache_fill_(fs, ZMS_NO_ADDR);
	else
		zms_index_clear_(fs);
	return 0;
}

/* ---- sector headers ---- */

static uint8_t meta_format(const struct fc_zms_ate *empty)
{
	return zhdr_format(empty->raw);
}

/* Note ZMS's magic; a version this engine does not know is refused. */
static int check_magic(const struct fc_zms_ate *empty, bool *magic)
{
	if (zhdr_magic(empty->raw) != ZMS_MAGIC)
		return 0;
	*magic = true;
	return zhdr_version(empty->raw) == ZMS_VERSION ? 0 : FC_ECORRUPT;
}


/* ---- finding the write position (Zephyr's zms_init) ---- */

/*
 * The last valid ATE of the write sector, scanning down from the top slot
 * while above the end of the values seen, and the end of the lowest value
 * outside an ATE. Unlike Zephyr, the top slot is read too (Zephyr starts
 * one slot lower, but a GC's first copy lands there: with only inline
 * entries after it, its value's end was missed and the next value
 * programmed over it), and value bytes are never read as ATEs (an inline
 * ATE resets Zephyr's end, and its scan goes on through the values): every
 * ATE lies above the values written before it, so a "valid" one whose
 * value would reach its own slot is value bytes that pass the crc8 by
 * chance (its decode puts it out of range). *above gets the offset
 * of the valid ATE above the last one (the top slot when there is none).
 * Returns 1 when a valid ATE was found (ate_wra is at it), 0 when none, or
 * an error.
 */
static int recover_last(struct fc_zms *fs, uint32_t ws, uint32_t *above)
{
	uint32_t o = top_slot(fs), last = o - fs->ate_size, data_end = 0;
	struct fc_zms_ate a;
	int found = 0;

	*above = top_slot(fs);
	zms_win_reset_(fs); /* a scan of its own (skip_used_slots goes on with it) */
	for (; o > data_end; o -= fs->ate_size) {
		int rc = zms_win_ate_(fs, zaddr(fs, ws, o), &a);

		if (rc)
			return rc;
		if (!zms_valid_(&a, fs->sector_cycle))
			continue;
		if (a.len > fs->inline_max)
			data_end = a.offset + zal(fs, a.len);
		if (found)
			*above = last;
		last = o;
		found = 1;
	}
	fs->ate_wra = zaddr(fs, ws, last);
	fs->data_wra = zaddr(fs, ws, data_end);
	return found;
}

/*
 * 1 when the lowest valid ATE of sector s is a gc_done: a GC into s ended
 * and nothing was written after it.
 */
static int ends_in_gc_done(struct fc_zms *fs, uint32_t s)
{
	uint8_t keep = fs->sector_cycle, cycle;
	uint32_t above;
	struct fc_zms_ate a;
	int rc = zms_cycle_or_zero_(fs, s, &fs->sector_cycle);

	if (!rc)
		rc = recover_last(fs, s, &above);
	if (rc >= 0)
		rc = zms_ate_read_(fs, fs->ate_wra, &a);
	cycle = fs->sector_cycle;
	fs->sector_cycle = keep;
	if (rc)
		return rc;
	return zms_valid_(&a, cycle) && zms_gc_done_valid_(fs, &a);
}

/* 1 when sector s's close slot holds a torn close ATE. */
static int torn_close_at(struct fc_zms *fs, uint32_t s)
{
	int rc = zms_header_(fs, s);

	return rc ? rc : zms_close_torn_(fs, s, &fs->close);
}

/*
 * With no sector closed, Zephyr takes the last sector when its first entry
 * slot holds a valid ATE. When sector 0's does too (or it has a torn close
 * ATE, as a first sector whose first slot stays empty can), a cut left two
 * sectors that both look in use (two sectors: a GC copies everything into
 * the other one, then erases the one collected). The write sector is the
 * one that ends in the GC's gc_done (the erase after it was cut); else the
 * one with a torn close ATE (the GC after that close was cut: its copies
 * are in the other). Else Zephyr's rule.
 */
static int last_is_write_sector(struct fc_zms *fs, uint32_t last)
{
	struct fc_zms_ate first;
	uint8_t cycle;
	int rc = zms_ate_read_(fs, zaddr(fs, last, top_slot(fs)), &first), g0, gl;

	if (rc || !zms_valid_(&first, fs->sector_cycle))
		return rc;
	rc = zms_cycle_or_zero_(fs, 0, &cycle);
	if (!rc)
		rc = zms_ate_read_(fs, zaddr(fs, 0, top_slot(fs)), &first);
	if (rc)
		return rc;
	if (!zms_valid_(&first, cycle)) {
		/* sector 0 is in use with a valid first slot or a torn close */
		rc = torn_close_at(fs, 0);
		if (rc <= 0)
			return rc < 0 ? rc : 1;
	}
	g0 = ends_in_gc_done(fs, 0);
	gl = ends_in_gc_done(fs, last);
	if (g0 < 0 || gl < 0)
		return g0 < 0 ? g0 : gl;
	if (g0 != gl)
		return gl;
	g0 = torn_close_at(fs, 0);
	gl = torn_close_at(fs, last);
	if (g0 < 0 || gl < 0)
		return g0 < 0 ? g0 : gl;
	return g0 != gl ? gl : 1;
}

/*
 * The write sector: the first open sector after a closed one; with none
 * closed, the last sector if its first entry slot holds a valid ATE, else
 * sector 0 (given an empty ATE when it has none and may_write).
 */
static int find_write_sector(struct fc_zms *fs, bool may_write, uint32_t *ws)
{
	uint32_t n = fs->cfg.sector_count, i, cur = 0, closed = 0;
	const struct fc_zms_ate *empty = &fs->empty;
	bool magic = false;
	int rc;

	(void)may_write; /* FC_READONLY: never */
	for (i = 0; i < n; i++) {
		cur = i;
		rc = zms_closed_(fs, i);
		if (rc < 0)
			return rc;
		fs->sector_cycle = zcycle(empty);
		if (meta_format(empty) != zms_format_(fs) || !rc)
			continue;
		closed++;
		rc = check_magic(empty, &magic);
		if (rc)
			return rc;
		cur = znext(fs, i);
		rc = zms_closed_(fs, cur);
		if (rc < 0)
			return rc;
		fs->sector_cycle = zcycle(empty);
		if (!rc)
			break;
	}
	if (closed == n && !magic)
		return FC_ENOTSUP;
#ifndef FC_READONLY
	/* a cut before the empty ATE of a GC's new write sector: it holds nothing yet */
	if (i < n && may_write && !zms_empty_valid_(fs, empty)) {
		rc = zms_erase_and_empty_(fs, cur);
		if (!rc)
			rc = zms_cycle_or_zero_(fs, cur, &fs->sector_cycle);
		if (rc)
			return rc;
	}
#endif
	if (i == n) {
		rc = last_is_write_sector(fs, cur);
		if (rc < 0)
			return rc;
		if (!rc)
			cur = znext(fs, cur);
		rc = zms_header_(fs, cur);
		if (rc)
			return rc;
		if (meta_format(empty) == zms_format_(fs) && zms_empty_valid_(fs, empty))
			rc = check_magic(empty, &magic);
#ifndef FC_READONLY
		else if (may_write)
			rc = zms_erase_and_empty_(fs, cur);
#endif
		if (rc)
			return rc;
		rc = zms_cycle_or_zero_(fs, cur, &fs->sector_cycle);
		if (rc)
			return rc;
	}
	*ws = cur;
	return 0;
}

/*
 * Move ate_wra down past slots in use: not erased (erasable flash) or valid
 * (RRAM). A torn delete in the slot at data_wra leaves the sector full.
 * *torn gets the address of the first slot passed that is neither erased
 * nor valid (a cut ATE), ZMS_NO_ADDR when there is none, and *above the
 * offset of the lowest valid ATE above it (the top slot when none). With found,
 * ate_wra starts at the ATE recover_last() found valid. Slots above
 * data_wra keep recover_last()'s verdict whatever they read now: cells a
 * cut left half programmed read differently each time, and one decision
 * must hold.
 */
static int skip_used_slots(struct fc_zms *fs, bool found, uint32_t *torn, uint32_t *above)
{
	uint32_t valid_above = top_slot(fs);
	struct fc_zms_ate a;

	*torn = ZMS_NO_ADDR;
	while (fs->ate_wra >= fs->data_wra) {
		int rc = zms_win_ate_(fs, fs->ate_wra, &a);
		bool valid;

		if (rc)
			return rc;
		/* recover_last() judged the slots above data_wra: valid is the one it found */
		valid = fs->ate_wra > fs->data_wra ? found : zms_valid_(&a, fs->sector_cycle);
		found = false;
		if (fs->cfg.no_erase ? !valid : zms_erased_(fs, &a))
			return 0;
		if ((fs->ate_wra == fs->data_wra && a.len && valid) || !zoffs(fs, fs->ate_wra))
			return FC_ECORRUPT;
		if (valid) {
			valid_above = zoffs(fs, fs->ate_wra);
		} else if (*torn == ZMS_NO_ADDR && !fs->cfg.no_erase) {
			*torn = fs->ate_wra;
			*above = valid_above;
		}
		fs->ate_wra -= fs->ate_size;
	}
	return 0;
}

/*
 * Unlike Zephyr, never leave data_wra below bytes a cut write left in the
 * free area: the next value would be programmed over them and read back
 * wrong. Erasable flash only (elsewhere a write overwrites).
 */
static int skip_dirty_data(struct fc_zms *fs)
{
	uint32_t lo = zoffs(fs, fs->data_wra), hi = zoffs(fs, fs->ate_wra), end;
	int rc;

	if (fs->cfg.no_erase || hi <= lo)
		return 0;
	rc = zms_dirty_end_(fs, fs->data_wra, hi - lo, &end);
	if (rc || end == lo)
		return rc;
	fs->data_wra = zaddr(fs, zsect(fs, fs->data_wra), FC_MIN(zal(fs, end), hi));
	return 0;
}

/*
 * 1 when the ATE at addr reads differently in ZMS_SETTLE_READS reads (or,
 * for the newest ATE, is not valid, or its value fails its data CRC: a cut
 * ATE whose crc8 matched by chance, its CRC field left erased): cells a
 * cut left half programmed.
 */
static int unsettled(struct fc_zms *fs, uint32_t addr, bool newest)
{
	struct fc_zms_ate first;
	bool ok;
	int rc = zms_ate_settled_(fs, addr, &first);

	if (rc <= 0)
		return rc < 0 ? rc : 1;
	if (!newest)
		return 0;
	if (!zms_valid_(&first, fs->sector_cycle))
		return 1;
	if (!zms_data_crc(fs) || first.len <= fs->inline_max)
		return 0;
	rc = zms_data_crc_ok_(fs, zsect(fs, addr), &first, &ok);
	return rc ? rc : !ok;
}

/*
 * The offset the write sector must be closed at to leave a cut ATE with
 * cells half programmed out of its log (ZMS_NO_ADDR: none). Such cells read
 * differently from read to read: the newest ATE could pass the crc8 once
 * and fail it the next time (its value would come and go), a cut slot
 * below it could pass it later (a value never acknowledged, or superseded
 * since, would come back). A cut slot that reads the same every time stays
 * as it is, as in Zephyr. Erasable flash, when writes may follow.
 */
static int unsettled_close(struct fc_zms *fs, uint32_t newest, uint32_t newest_above,
			   uint32_t torn, uint32_t torn_above, uint32_t *close_at)
{
	int rc = 0;

	*close_at = ZMS_NO_ADDR;
	if (torn != ZMS_NO_ADDR) {
		rc = unsettled(fs, torn, false);
		if (rc > 0)
			*close_at = torn_above;
	} else if (newest != ZMS_NO_ADDR) {
		rc = unsettled(fs, newest, true);
		if (rc > 0)
			*close_at = newest_above;
	}
	return rc < 0 ? rc : 0;
}

/* Find the write position; *close_at as unsettled_close() gives it. */
static int locate(struct fc_zms *fs, bool may_write, uint32_t *close_at)
{
	uint32_t ws, above, newest = ZMS_NO_ADDR, torn = ZMS_NO_ADDR, torn_above = 0;
	int rc = find_write_sector(fs, may_write, &ws);

	*close_at = ZMS_NO_ADDR;
	if (!rc)
		rc = recover_last(fs, ws, &above);
	if (rc > 0)
		newest = fs->ate_wra;
	if (rc >= 0)
		rc = skip_used_slots(fs, rc, &torn, &torn_above);
	if (!rc && may_write && !fs->cfg.no_erase)
		rc = unsettled_close(fs, newest, above, torn, torn_above, close_at);
	if (!rc)
		rc = skip_dirty_data(fs);
#ifndef FC_READONLY
	/* nothing written in the write sector yet: its empty ATE may be one a cut left unsettled */
	if (!rc && may_write && !fs->cfg.no_erase && newest == ZMS_NO_ADDR && torn == ZMS_NO_ADDR &&
	    !zoffs(fs, fs->data_wra))
		rc = zms_enter_sector_(fs, zsect(fs, fs->ate_wra));
#endif
	return rc;
}

/* ---- recovery of an interrupted GC ---- */

static int build_lookup(struct fc_zms *fs)
{
	return zephyr_mode(fs) ? zms_zcache_rebuild_(fs) : zms_index_build_(fs);
}

#ifndef FC_READONLY
int fc_zms_mount(struct fc_zms *fs, const struct fc_zms_config *cfg)
{
	uint32_t close_at, at;
	int rc = setup(fs, cfg);

	if (!rc)
		rc = locate(fs, true, &close_at);
	at = fs->ate_wra;
	if (!rc && !zephyr_mode(fs))
		rc = zms_index_build_(fs);
	if (!rc)
		rc = zms_recover_gc_(fs);
	if (!rc && zephyr_mode(fs))
		rc = build_lookup(fs);
	if (!rc)
		rc = zms_move_past_torn_close_(fs);
	/* unless a GC redone into the write sector erased the cut ATE, or the sector is left */
	if (!rc && close_at != ZMS_NO_ADDR && fs->ate_wra == at)
		rc = zms_close_above_torn_(fs, close_at);
	fs->mounted = rc == 0;
	return rc;
}
#else
int fc_zms_mount(struct fc_zms *fs, const struct fc_zms_config *cfg)
{
	uint32_t close_at;
	int rc = setup(fs, cfg);

	if (!rc)
		rc = locate(fs, false, &close_at);
	if (!rc)
		rc = build_lookup(fs);
	fs->mounted = rc == 0;
	return rc;
}
#endif /* FC_READONLY */

/* Locate without writing and build the index: the read-only mount of the walk. */
int zms_mount_ro_(struct fc_zms *fs, const struct fc_zms_config *cfg)
{
	uint32_t close_at;
	int rc = setup(fs, cfg);

	if (!rc)
		rc = locate(fs, false, &close_at);
	if (!rc)
		rc = zms_index_build_(fs);
	return rc;
}

#ifndef FC_READONLY
int fc_zms_clear(struct fc_zms *fs)
{
	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	fs->mounted = false;
	for (uint32_t s = 0; s < fs->cfg.sector_count; s++) {
		int rc = zms_erase_and_empty_(fs, s);

		if (rc)
			return rc;
	}
	return 0;
}
#endif /* FC_READONLY */

/* ---- lookups ---- */

/*
 * The newest ATE of id. Returns 1 with *a and *addr (a delete has a->len
 * 0; an index hit on one reads nothing), 0 when id is absent.
 */
static int find_newest(struct fc_zms *fs, fc_zms_id_t id, struct fc_zms_ate *a, uint32_t *addr)
{
	struct fc_zms_slot *slot;
	uint32_t start;
	int rc;

	if (!zephyr_mode(fs)) {
		slot = zms_index_get_(fs, id);
		if (slot) {
			*addr = slot->addr & ~ZMS_DEL_FLAG;
			if (slot->addr & ZMS_DEL_FLAG) {
				a->id = id;
				a->len = 0;
				return 1;
			}
			rc = zms_ate_read_cached_(fs, *addr, a);
			if (rc || (a->id == id && a->crc_ok && a->in_range))
				return rc ? rc : 1;
			/* cells a cut left unsettled read differently now: the older ones count */
			return zms_find_id_(fs, id, *addr, fs->ate_wra, a, addr);
		}
		if (!fs->index_refused)
			return 0;
	}
	start = zms_zcache_start_(fs, id);
	if (start == ZMS_NO_ADDR)
		return 0;
	return zms_find_id_(fs, id, start, fs->ate_wra, a, addr);
}

/* Copy out (up to len bytes of) the value of ATE a at addr. */
static int value_read(struct fc_zms *fs, const struct fc_zms_ate *a, uint32_t addr, void *data,
		      size_t len)
{
	uint32_t n = (uint32_t)FC_MIN(len, (size_t)a->len);
	uint32_t src;
	int rc;

	if (!a->len)
		return FC_ENOENT;
	if (a->len <= fs->inline_max) {
		if (n)
			FC_MEMCPY(data, zinline(fs, a), n);
		return a->len;
	}
	if ((uint64_t)a->offset + a->len > zss(fs))
		return FC_ECORRUPT;
	src = zaddr(fs, zsect(fs, addr), 0) + a->offset;
	if (n) {
		rc = zms_flash_rd_(fs, src, data, n);
		if (rc)
			return rc;
	}
	if (zms_data_crc(fs) && len >= a->len && fc_crc32_ieee(data, a->len) != zmeta(a))
		return FC_EBADCRC;
	return a->len;
}

int fc_zms_read_hist(struct fc_zms *fs, fc_zms_id_t id, void *data, size_t len, uint32_t cnt)
{
	struct fc_zms_ate a;
	uint32_t addr;
	int rc;

	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	if (len && !data)
		return FC_EINVAL;
	rc = find_newest(fs, id, &a, &addr);
	for (uint32_t k = 0; rc > 0 && k < cnt; k++) {
		uint32_t from = addr;

		rc = zms_prev_addr_(fs, &from);
		if (rc)
			return rc;
		if (from == fs->ate_wra)
			return FC_ENOENT;
		rc = zms_find_id_(fs, id, from, fs->ate_wra, &a, &addr);
	}
	if (rc < 0)
		return rc;
	if (!rc)
		return FC_ENOENT;
	return value_read(fs, &a, addr, data, len);
}

int fc_zms_read(struct fc_zms *fs, fc_zms_id_t id, void *data, size_t len)
{
	return fc_zms_read_hist(fs, id, data, len, 0);
}

/* ---- writes ---- */
#ifndef FC_READONLY

/*
 * 1 when the value stored under ATE a at addr equals data, 0 if not. Read
 * in FC_ZMS_BLOCK pieces through cfg.read_buf (no scan is under way: each
 * starts its window anew), else in 16-byte pieces through a's bytes (a is
 * spent): no buffer of its own on the stack.
 */
static int value_equal(struct fc_zms *fs, struct fc_zms_ate *a, uint32_t addr, const uint8_t *data,
		       uint32_t len)
{
	uint8_t *buf = fs->cfg.read_buf_size ? fs->cfg.read_buf : a->raw;
	uint32_t step = fs->cfg.read_buf_size ? FC_ZMS_BLOCK : FC_ZMS_ATE_BYTES;
	uint32_t src = zaddr(fs, zsect(fs, addr), 0) + a->offset;

	if (a->len != len)
		return 0;
	if (len <= fs->inline_max)
		return !FC_MEMCMP(zinline(fs, a), data, len);
	if ((uint64_t)a->offset + len > zss(fs))
		return 0;
	for (uint32_t done = 0; done < len; done += step) {
		uint32_t n = FC_MIN(step, len - done);
		int rc = zms_flash_rd_(fs, src + done, buf, n);

		if (rc)
			return rc;
		if (FC_MEMCMP(buf, data + done, n))
			return 0;
	}
	return 1;
}

/* 1 when writing (id, data, len) would change nothing stored. Its ATE and
 * compare buffer stay out of the frame a GC's deeper path runs under. */
static FC_NOINLINE int write_is_noop(struct fc_zms *fs, fc_zms_id_t id, const uint8_t *data, uint32_t len,
			 unsigned int hints)
{
	struct fc_zms_ate a;
	uint32_t addr;
	int rc;

	if (fs->cfg.rewrite_same || (hints & FC_ZMS_HINT_CHANGED && len))
		return 0;
	if (hints & FC_ZMS_HINT_ABSENT)
		return len == 0;
	rc = find_newest(fs, id, &a, &addr);
	if (rc <= 0)
		return rc < 0 ? rc : len == 0;
	if (!len)
		return a.len == 0;
	if (hints & FC_ZMS_HINT_CHANGED)
		return 0;
	return value_equal(fs, &a, addr, data, len);
}

static int write_entry(struct fc_zms *fs, fc_zms_id_t id, const uint8_t *data, uint32_t len)
{
	uint8_t b[FC_ZMS_ATE_BYTES];
	uint32_t at;
	int rc;

	zms_ate_entry_(fs, b, id, data, len, zoffs(fs, fs->data_wra));
	if (len > fs->inline_max) {
		rc = zms_al_write_(fs, fs->data_wra, data, len);
		if (rc)
			return rc;
		fs->data_wra += zal(fs, len);
	}
	at = fs->ate_wra;
	rc = zms_ate_program_(fs, b);
	if (rc)
		return rc;
	zms_index_note_(fs, id, at, len);
	zms_zcache_note_(fs, id, at);
	return 0;
}

/* Room in the write sector, keeping slot 0 free and the slot above it for deletes. */
static bool fits(const struct fc_zms *fs, uint32_t len)
{
	uint32_t need = 0, ate = zoffs(fs, fs->ate_wra);

	if (len)
		need = len > fs->inline_max ? zal(fs, len) + fs->ate_size : fs->ate_size;
	return ate && (uint64_t)ate >= (uint64_t)zoffs(fs, fs->data_wra) + need &&
	       (ate - fs->ate_size || !len);
}

static int write_locked(struct fc_zms *fs, fc_zms_id_t id, const uint8_t *data, uint32_t len)
{
	for (uint32_t gcs = 0; gcs < fs->cfg.sector_count; gcs++) {
		int rc;

		if (fits(fs, len))
			return write_entry(fs, id, data, len);
		rc = zms_sector_close_(fs);
		if (!rc)
			rc = zms_gc_(fs);
		if (rc)
			return rc;
	}
	return FC_ENOSPC;
}

int fc_zms_write_hint(struct fc_zms *fs, fc_zms_id_t id, const void *data, size_t len,
		      unsigned int hints)
{
	int rc;

	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	if (id == zhead_id(fs) || (!fs->cfg.id64 && id > UINT32_MAX) || (len && !data) ||
	    hints & ~(FC_ZMS_HINT_CHANGED | FC_ZMS_HINT_ABSENT))
		return FC_EINVAL;
	if (len > UINT16_MAX || len > zss(fs) - 5 * fs->ate_size)
		return FC_ETOOBIG;
	rc = write_is_noop(fs, id, data, (uint32_t)len, hints);
	if (rc)
		return rc < 0 ? rc : 0;
	rc = write_locked(fs, id, data, (uint32_t)len);
	if (rc) {
		if (rc != FC_ENOSPC)
			fs->mounted = false;
		return rc;
	}
	return (int)len;
}

int fc_zms_write(struct fc_zms *fs, fc_zms_id_t id, const void *data, size_t len)
{
	return fc_zms_write_hint(fs, id, data, len, 0);
}

int fc_zms_delete(struct fc_zms *fs, fc_zms_id_t id)
{
	int rc = fc_zms_write_hint(fs, id, NULL, 0, 0);

	return rc < 0 ? rc : 0;
}
#endif /* FC_READONLY */

/* ---- space ---- */

int fc_zms_calc_free_space(struct fc_zms *fs)
{
	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	if (!zephyr_mode(fs) && !fs->index_refused)
		return zms_index_free_space_(fs);
	return zms_zephyr_free_space_(fs);
}

int fc_zms_active_sector_free_space(struct fc_zms *fs)
{
	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	return zms_free_in_(fs, zoffs(fs, fs->data_wra), zoffs(fs, fs->ate_wra));
}

#ifndef FC_READONLY
int fc_zms_sector_use_next(struct fc_zms *fs)
{
	int rc;

	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	rc = zms_sector_close_(fs);
	if (!rc)
		rc = zms_gc_(fs);
	if (rc)
		fs->mounted = false;
	return rc;
}
#endif /* FC_READONLY */
