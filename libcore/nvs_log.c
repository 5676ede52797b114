/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_log.c - access to the NVS log: flash reads and programs (kept equal
 * in the caller's ATE cache), ATE slots through the read window, the backward walk
 * (Zephyr's nvs_prev_ate) and the search for the write position that mount
 * and the tools' walk share.
 */
#include "nvs_int.h"

/* The ATE slot size of a valid cfg, else FC_EINVAL. */
int nvs_check_config_(const struct fc_nvs_config *cfg)
{
	const struct fc_flash_geometry *geo;
	uint32_t ate_size;

	if (!cfg || !cfg->flash || fc_flash_geometry_check(&cfg->flash->geo))
		return FC_EINVAL;
	geo = &cfg->flash->geo;
	if (geo->write_size > NVS_BLOCK)
		return FC_EINVAL;
	ate_size = FC_MAX(FC_NVS_ATE_BYTES, geo->write_size); /* a power of two, as write_size */
	if (cfg->sector_size > 65536u || cfg->sector_size < 6 * ate_size ||
	    cfg->sector_size % geo->erase_size || (cfg->sector_size & (ate_size - 1u)))
		return FC_EINVAL;
	if (cfg->sector_count < 2 || cfg->offset % geo->erase_size ||
	    (cfg->data_crc && NVS_DATA_CRC_OFF))
		return FC_EINVAL;
	/* no overflow: at most 65535 sectors of 64 KiB */
	if (cfg->offset > geo->size || cfg->sector_count * cfg->sector_size > geo->size - cfg->offset)
		return FC_EINVAL;
	if (cfg->lookup != FC_NVS_LOOKUP_INDEX && (cfg->lookup != FC_NVS_LOOKUP_ZEPHYR ||
						   NVS_EMULATED_OFF))
		return FC_EINVAL;
	if (cfg->index_slot_count &&
	    (NVS_INDEX_OFF || !cfg->index_slots || !fc_is_pow2(cfg->index_slot_count)))
		return FC_EINVAL;
	if (cfg->ate_cache_size && (NVS_ATE_CACHE_OFF || !cfg->ate_cache ||
				    !fc_is_pow2(cfg->ate_cache_size) ||
				    cfg->ate_cache_size < FC_NVS_ATE_CACHE_WAYS * ate_size))
		return FC_EINVAL;
	if (cfg->read_buf_size && (!cfg->read_buf || !fc_is_pow2(cfg->read_buf_size) ||
				   cfg->read_buf_size < FC_NVS_BLOCK))
		return FC_EINVAL;
	return (int)ate_size;
}

/* ---- flash access ---- */

int nvs_read_(const struct fc_nvs *fs, uint32_t addr, void *buf, uint32_t len)
{
	return fc_flash_read(fs->cfg.flash, nvs_dev_off_(fs, addr), buf, len);
}

int nvs_prog_(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len)
{
	int rc = fc_flash_prog(fs->cfg.flash, nvs_dev_off_(fs, addr), buf, len);

	nvs_ate_cache_programmed_(fs, addr, buf, len, rc);
	return rc;
}

/*
 * Find the end of the written bytes in [addr, addr + len) of one sector:
 * *end = offset just past the last byte that is not erased, or offs(addr)
 * when the range is erased. Reads from the top down through the read
 * buffer, in Zephyr's blocks without one or in Zephyr mode.
 */
int nvs_dirty_end_(struct fc_nvs *fs, uint32_t addr, uint32_t len, uint32_t *end)
{
	uint8_t block[NVS_BLOCK];
	uint8_t *buf = fs->cfg.read_buf_size ? fs->cfg.read_buf : block;
	uint32_t lo = offs(addr), hi = lo + len;
	uint32_t unit = NVS_EMULATED(fs) || !fs->cfg.read_buf_size ? NVS_BLOCK
								   : fs->cfg.read_buf_size;

	nvs_win_reset_(fs);

	while (hi > lo) {
		uint32_t n = FC_MIN(unit, hi - lo);
		int rc = nvs_read_(fs, mkaddr(sect(addr), hi - n), buf, n);

		if (rc)
			return rc;
		for (uint32_t i = n; i > 0; i--) {
			if (buf[i - 1] != erase_value(fs)) {
				*end = hi - n + i;
				return 0;
			}
		}
		hi -= n;
	}
	*end = lo;
	return 0;
}

/* ---- ATE slots ---- */

int nvs_ate_read_(const struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a)
{
	uint8_t b[FC_NVS_ATE_BYTES];
	int rc = nvs_read_(fs, addr, b, sizeof(b));

	if (!rc)
		fc_nvs_ate_decode(b, erase_value(fs), a);
	return rc;
}

int nvs_win_get_(struct fc_nvs *fs, struct fc_nvs_win *w, uint32_t addr, bool up)
{
	bool rwin = NVS_ATE_CACHE_OFF || w == &fs->win;
	uint32_t way = (uint32_t)(w - fs->ate_cache);
	uint32_t unit = rwin ? win_unit(fs) : fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS;
	uint8_t *buf = rwin ? fs->cfg.read_buf : fs->cfg.ate_cache + way * unit;
	uint32_t o = offs(addr), start = up ? o : o & ~(unit - 1u); /* unit: a power of two */
	uint32_t len = FC_MIN(unit, ssize(fs) - start);
	int rc;

	if (nvs_win_holds_(w, addr))
		return 0;
	w->addr = mkaddr(sect(addr), start);
	w->len = len;
	rc = nvs_read_(fs, w->addr, buf, len);
	if (rc)
		w->len = 0; /* the buffer's bytes are unknown */
	return rc;
}

/*
 * The FC_NVS_ATE_BYTES raw bytes of the slot at addr: *raw points into the
 * window, or, without a read buffer, into b, where they are read.
 */
int nvs_slot_raw_(struct fc_nvs *fs, uint32_t addr, bool up, uint8_t *b, const uint8_t **raw)
{
	int rc;

	if (!fs->cfg.read_buf_size) {
		*raw = b;
		return nvs_read_(fs, addr, b, FC_NVS_ATE_BYTES);
	}
	rc = nvs_win_get_(fs, &fs->win, addr, up);
	*raw = fs->cfg.read_buf + (offs(addr) - offs(fs->win.addr));
	return rc;
}

/* Read the ATE slot at addr through the read window (alone without a read buffer). */
int nvs_win_ate_(struct fc_nvs *fs, uint32_t addr, bool up, struct fc_nvs_ate *a)
{
	int rc;

	if (!fs->cfg.read_buf_size)
		return nvs_ate_read_(fs, addr, a);
	rc = nvs_win_get_(fs, &fs->win, addr, up);
	if (!rc)
		fc_nvs_ate_decode(fs->cfg.read_buf + (addr - fs->win.addr), erase_value(fs), a);
	return rc;
}

int nvs_close_read_(const struct fc_nvs *fs, uint32_t s, struct fc_nvs_ate *a)
{
	return nvs_ate_read_(fs, mkaddr(s, close_slot(fs)), a);
}

/*
 * How scan_down reads: a closed sector's slots through the window aligned,
 * or (up) starting at each slot, for a walk going up; the write sector's
 * slots down to the first erased one, to set the write pointers; or, to
 * score a sector for first_write_sector(), its slots while not below the
 * data of every valid ATE seen (the score below).
 */
enum scan_mode { SCAN_DOWN, SCAN_UP, SCAN_WRITE_SECTOR, SCAN_SCORE };
#define SEEN_GAP 1u     /* an erased slot */
#define SEEN_GC_DONE 2u /* the newest valid ATE is a gc_done ATE (its weight in the score) */

/*
 * Scan the ATE slots of sector s down from the top slot while not below
 * the data of the ATEs kept, to the lowest valid ATE kept (*low; the top
 * slot when none). A slot that starts where the data ends is still an ATE
 * slot: the one kept free for a delete in a full sector (Zephyr stops above
 * it and loses that delete). A valid ATE whose data starts below the data
 * end seen so far was torn out of order (see find_write_pointers) and is
 * stepped over. SCAN_SCORE returns the score (*low is then of no use, as
 * after an error).
 *
 * The score: how much sector s looks like the write sector, 2 when its
 * newest valid ATE is a gc_done ATE (GC erases the other sector of a
 * 2-sector partition right after the write sector's gc_done, and a cut of
 * that erase, or of the recovering mount's, leaves nothing written after
 * it; the remnant's own gc_done is followed by its later writes), plus 1
 * when no erased ATE slot lies above a valid ATE (the write sector's ATE
 * pointer is the first erased slot; an erase that stopped part way
 * through, in any order, leaves such gaps, and can erase the close slot of
 * the sector GC collected so that nothing is closed).
 */
static int scan_down(struct fc_nvs *fs, uint32_t s, enum scan_mode mode, uint32_t *low)
{
	uint32_t end = 0, seen = 0; /* SCAN_SCORE: SEEN_* */
	int32_t o = (int32_t)top_slot(fs); /* below slot 0 when the scan passes it */
	bool torn = false;
	struct fc_nvs_ate a;

	*low = mkaddr(s, (uint32_t)o);
	for (; o >= (int32_t)end; o -= (int32_t)fs->ate_size) {
		int rc = nvs_win_ate_(fs, mkaddr(s, (uint32_t)o), mode == SCAN_UP, &a);

		if (rc)
			return rc;
		if (mode >= SCAN_WRITE_SECTOR && a.erased) {
			if (mode == SCAN_WRITE_SECTOR)
				break;
			seen |= SEEN_GAP;
			continue;
		}
		torn = ate_valid(fs, &a); /* until its data is seen to start at or past end */
		if (!torn)
			continue;
		if (seen & SEEN_GAP)
			return (int)(seen & SEEN_GC_DONE); /* a valid ATE below a gap */
		seen = a.len == 0 && a.id == FC_NVS_ID_SPECIAL ? SEEN_GC_DONE : 0;
		/* a score counts the data of every valid ATE */
		if (a.offset >= end || mode == SCAN_SCORE) {
			torn = false;
			end = FC_MAX(end, (uint32_t)a.offset + a.len);
			*low = mkaddr(s, (uint32_t)o);
		}
	}
	if (mode == SCAN_WRITE_SECTOR) {
		/* the ATE pointer is the slot the scan stopped at (past slot 0: full) */
		uint32_t data = al(fs, end);

		fs->torn_last = torn; /* the slot above it (false past slot 0: no data starts below 0) */
		if (o < (int32_t)data) {
			o = FC_MAX(o, 0);
			data = (uint32_t)o + fs->ate_size;
		}
		fs->ate_wra = mkaddr(s, (uint32_t)o);
		fs->data_wra = mkaddr(s, data);
	}
	return mode == SCAN_SCORE ? (int)(1 + (seen & SEEN_GC_DONE)) : 0;
}

/* Lowest (newest) ATE slot of a written sector other than the write sector. */
int nvs_sector_low_(struct fc_nvs *fs, uint32_t s, const struct fc_nvs_ate *close,
		    uint32_t *low)
{
	if (close_valid(fs, close)) {
		*low = mkaddr(s, close->offset);
		return 0;
	}
	return scan_down(fs, s, SCAN_DOWN, low);
}

/* ---- walking back ---- */

uint32_t nvs_age_key_(const struct fc_nvs *fs, uint32_t addr)
{
	uint32_t n = fs->cfg.sector_count, behind;

	if (addr == NVS_NO_ADDR)
		return UINT32_MAX;
	/* sectors behind the write sector, without a division */
	behind = sect(fs->ate_wra) + n - sect(addr);
	if (behind >= n)
		behind -= n;
	return behind << FC_NVS_ADDR_SECTOR_SHIFT | offs(addr);
}

/* A walk reads ATE areas through the window upward, or each ATE alone as Zephyr does. */
static int walk_read(struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a)
{
	return walk_alone(fs) ? nvs_ate_read_(fs, addr, a) : nvs_win_ate_(fs, addr, true, a);
}

/*
 * One step of a backward walk (Zephyr's nvs_prev_ate): read the ATE at
 * *addr and move *addr to the next older slot, hopping to the previous
 * sector through its close ATE; back at fs->ate_wra when the log ends.
 * The caller has reset the window when it starts walking.
 */
int nvs_walk_prev_(struct fc_nvs *fs, uint32_t *addr, struct fc_nvs_ate *a)
{
	struct fc_nvs_ate close;
	uint32_t s, cs;
	int rc = walk_read(fs, *addr, a);

	if (rc)
		return rc;
	cs = close_slot(fs);
	*addr += fs->ate_size;
	if (offs(*addr) != cs)
		return 0;
	s = prev_sector(fs, sect(*addr));
	rc = walk_read(fs, mkaddr(s, cs), &close);
	if (rc)
		return rc;
	if (close.erased) {
		*addr = fs->ate_wra;
		return 0;
	}
	if (close_valid(fs, &close)) {
		*addr = mkaddr(s, close.offset);
		return 0;
	}
	return scan_down(fs, s, SCAN_UP, addr);
}

/*
 * Walk back from *addr to the first valid ATE of id, not past the age of
 * limit. Returns 1 with *addr (that ATE's) and *a, 0 when there is none
 * (*addr is then of no use).
 */
int nvs_walk_find_(struct fc_nvs *fs, uint32_t *addr, uint16_t id, uint32_t limit,
		   struct fc_nvs_ate *a)
{
	uint32_t stop = nvs_age_key_(fs, limit), steps = 0;

	nvs_win_reset_(fs);
	do {
		uint32_t cur = *addr;
		int rc = nvs_walk_prev_(fs, addr, a);

		if (rc)
			return rc;
		if (a->id == id && ate_valid(fs, a)) {
			*addr = cur;
			return 1;
		}
		if (nvs_age_key_(fs, cur) >= stop)
			break;
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (*addr != fs->ate_wra);
	return 0;
}

int nvs_slots_up_(struct fc_nvs *fs, uint32_t low, nvs_slot_fn fn, void *arg)
{
	struct fc_nvs_ate a;
	int rc = 0;

	for (uint32_t at = low; !rc && offs(at) <= top_slot(fs); at += fs->ate_size) {
		rc = nvs_win_ate_(fs, at, false, &a);
		if (!rc)
			rc = fn(fs, at, &a, arg);
	}
	return rc;
}

int nvs_sector_start_(struct fc_nvs *fs, uint32_t s, uint32_t *low)
{
	struct fc_nvs_ate close;
	int rc = nvs_close_read_(fs, s, &close);

	if (rc || close.erased)
		return rc ? rc : NVS_SECTOR_ERASED;
	nvs_win_reset_(fs);
	return nvs_sector_low_(fs, s, &close, low);
}

/*
 * The written sectors newest first: the write sector above its ATE
 * pointer, then back while sectors are closed.
 */
int nvs_for_each_slot_(struct fc_nvs *fs, nvs_slot_fn fn, void *arg)
{
	uint32_t ws = sect(fs->ate_wra), s = ws, low = fs->ate_wra + fs->ate_size;
	int rc;

	nvs_win_reset_(fs);
	do {
		rc = nvs_slots_up_(fs, low, fn, arg);
		if (rc || (s = prev_sector(fs, s)) == ws)
			break;
		rc = nvs_sector_start_(fs, s, &low);
	} while (!rc);
	return rc == NVS_SECTOR_ERASED ? 0 : rc;
}

/* ---- locating the write position ---- */

/*
 * None closed: sector 0, unless the last sector holds ATEs (Zephyr's rule);
 * when both hold ATEs, the one that looks more like the write sector (a tie
 * keeps Zephyr's choice).
 */
static int first_write_sector(struct fc_nvs *fs, uint32_t *ws)
{
	uint32_t last = fs->cfg.sector_count - 1u, low;
	struct fc_nvs_ate a;
	int rc, best = 0;

	*ws = 0;
	for (uint32_t s = last;; s = 0) { /* the last sector's top slot, then sector 0's */
		rc = nvs_ate_read_(fs, mkaddr(s, top_slot(fs)), &a);
		if (rc || a.erased)
			return rc;
		*ws = last;
		if (!s)
			break;
	}
	/*
	 * No window reset: locate's fs starts cleared, and a window holds one
	 * sector. A tie keeps the last sector.
	 */
	for (uint32_t s = last;; s = 0) {
		rc = scan_down(fs, s, SCAN_SCORE, &low);
		if (rc < 0)
			return rc;
		if (rc > best) {
			best = rc;
			*ws = s;
		}
		if (!s)
			return 0;
	}
}

/*
 * The write sector, as Zephyr finds it: the first sector after a closed one
 * whose close slot is erased; with none closed, first_write_sector(). Every
 * sector closed: FC_ECORRUPT. One pass reads each close slot once, sector
 * 0's again after a closed last sector; the emulation reads a closed
 * sector's successor twice, as Zephyr does. Without a closed sector before
 * an erased one in 0..n-1, the erased ones come first: an erased last
 * sector means none is closed, a closed one that sector 0 tells the rest.
 */
static int find_write_sector(struct fc_nvs *fs, uint32_t *ws)
{
	bool closed = false; /* the sector before s */
	struct fc_nvs_ate a;

	for (uint32_t s = 0;; s = next_sector(fs, s)) {
		int rc = nvs_close_read_(fs, s, &a);

		if (!rc && closed && s && !a.erased && NVS_EMULATED(fs))
			rc = nvs_close_read_(fs, s, &a);
		if (rc)
			return rc;
		if (closed && a.erased) {
			*ws = s;
			return 0;
		}
		if (closed && !s)
			return FC_ECORRUPT;
		closed = !a.erased;
		if (!closed && s == fs->cfg.sector_count - 1u)
			return first_write_sector(fs, ws);
	}
}

/*
 * Write pointers of the write sector: the ATE pointer is the first erased
 * slot below the ATEs, the data pointer ends the newest valid ATE's data;
 * torn ATEs are stepped over. Data offsets never go down from one ATE to
 * the next (Zephyr's too): an ATE whose data starts inside the data before
 * it was torn out of order (the crc8's write block landed, a field's did
 * not) and its crc8 matched by chance; when it is the newest, the mount
 * closes the sector above it (fs->torn_last). A sector with no free slot
 * above its data is full: the data pointer is put past the ATE pointer so
 * nothing fits.
 */
static int find_write_pointers(struct fc_nvs *fs, uint32_t ws)
{
	uint32_t low;

	nvs_win_reset_(fs); /* reads of its own, not a scored sector's window */
	return scan_down(fs, ws, SCAN_WRITE_SECTOR, &low);
}

/*
 * Step the data pointer over bytes written without their ATE (to a write
 * block boundary: the pointers are aligned, so the ATE pointer bounds it).
 */
static int skip_dirty_data(struct fc_nvs *fs)
{
	uint32_t end, o = offs(fs->data_wra);
	int rc;

	if (fs->data_wra >= fs->ate_wra)
		return 0;
	rc = nvs_dirty_end_(fs, fs->data_wra, offs(fs->ate_wra) - o, &end);
	if (!rc)
		fs->data_wra += al(fs, end) - o;
	return rc;
}

int nvs_locate_(struct fc_nvs *fs, const struct fc_nvs_config *cfg)
{
	uint32_t ws = 0; /* for the compiler: set on success */
	int rc = nvs_check_config_(cfg);

	if (rc < 0)
		return rc;
	FC_MEMSET(fs, 0, sizeof(*fs));
	FC_MEMCPY(&fs->cfg, cfg, sizeof(*cfg)); /* a call, where an assignment inlines the copy */
	fs->ate_size = (uint32_t)rc;
	/* the mount's one division: walks are bounded without one per step */
	fs->max_steps = cfg->sector_count * (cfg->sector_size / fs->ate_size + 1);
	rc = find_write_sector(fs, &ws);
	if (!rc)
		rc = find_write_pointers(fs, ws);
	if (!rc)
		rc = skip_dirty_data(fs);
	return rc;
}
