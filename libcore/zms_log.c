/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_log.c - the ZMS log on flash: addresses, aligned programs, the ATE
 * codec, sector headers and Zephyr's newest-to-oldest walk.
 *
 * A sector ends with its empty ATE (cycle counter, version, magic, ATE
 * format) and its close ATE (offset of the sector's last ATE); ATEs grow
 * down below them, values up from offset 0. An ATE is valid when its crc8
 * (over bytes 1..15) is right and its cycle byte is its sector's.
 */
#include "zms_int.h"
#include "fdtcache/crc.h"

/* ---- flash access ---- */

static uint32_t dev_off(const struct fc_zms *fs, uint32_t addr)
{
	return fs->cfg.offset + zsect(fs, addr) * zss(fs) + zoffs(fs, addr);
}

static bool cache_on(const struct fc_zms *fs)
{
	return fs->cfg.ate_cache_size && !zephyr_mode(fs);
}

int zms_flash_rd_(const struct fc_zms *fs, uint32_t addr, void *buf, uint32_t len)
{
	return fc_flash_read(fs->cfg.flash, dev_off(fs, addr), buf, len);
}

#ifndef FC_READONLY
/* The ATE cache mirrors flash: a program stores its bytes, a failed one empties it. */
static void cache_programmed(struct fc_zms *fs, uint32_t addr, const uint8_t *buf, uint32_t len,
			     int rc)
{
	uint32_t lo = fs->cache_win.addr, hi = lo + fs->cache_win.len;
	uint32_t from = FC_MAX(addr, lo), to = FC_MIN(addr + len, hi);

	if (!fs->cache_win.len || from >= to)
		return;
	if (rc)
		fs->cache_win.len = 0;
	else
		FC_MEMCPY(fs->cfg.ate_cache + (from - lo), buf + (from - addr), to - from);
}

int zms_flash_wr_(struct fc_zms *fs, uint32_t addr, const void *buf, uint32_t len)
{
	int rc = fc_flash_prog(fs->cfg.flash, dev_off(fs, addr), buf, len);

	cache_programmed(fs, addr, buf, len, rc);
	return rc;
}

/* Zephyr's aligned write: the whole blocks, then the tail padded to one block. */
int zms_al_write_(struct fc_zms *fs, uint32_t addr, const uint8_t *data, uint32_t len)
{
	uint8_t buf[FC_ZMS_BLOCK];
	uint32_t blen = len & ~(zwbs(fs) - 1u);
	int rc;

	if (blen) {
		rc = zms_flash_wr_(fs, addr, data, blen);
		if (rc || len == blen)
			return rc;
	}
	if (len == blen)
		return 0;
	FC_MEMSET(buf, zerase_value(fs), zwbs(fs));
	FC_MEMCPY(buf, data + blen, len - blen);
	return zms_flash_wr_(fs, addr + blen, buf, zwbs(fs));
}

/* Zephyr checks every erase by reading the sector back in ZMS_BLOCK_SIZE pieces. */
static int erase_check(struct fc_zms *fs, uint32_t s)
{
	uint8_t buf[FC_ZMS_BLOCK];
	uint32_t step = FC_ZMS_BLOCK & ~(zwbs(fs) - 1u);

	for (uint32_t o = 0; o < zss(fs); o += step) {
		uint32_t n = FC_MIN(step, zss(fs) - o);
		int rc = zms_flash_rd_(fs, zaddr(fs, s, o), buf, n);

		if (rc)
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if (buf[i] != zerase_value(fs))
				return FC_EIO;
	}
	return 0;
}

/* Erase sector s (nothing on a device without explicit erase). */
int zms_erase_(struct fc_zms *fs, uint32_t s)
{
	int rc;

	if (fs->cfg.no_erase)
		return 0;
	if (fs->cache_win.len && zsect(fs, fs->cache_win.addr) == s)
		fs->cache_win.len = 0;
	rc = fc_flash_erase(fs->cfg.flash, dev_off(fs, zaddr(fs, s, 0)), zss(fs));
	if (!rc && zephyr_mode(fs))
		rc = erase_check(fs, s);
	return rc;
}

#endif /* FC_READONLY */

/*
 * The buffer of len bytes of reads that are not ATE scans: piece
 * (FC_ZMS_BLOCK bytes) when they fit it, one read either way, so the ATE
 * window a scan holds in cfg.read_buf stays; longer ones cfg.read_buf (its
 * window is lost), else piece. *unit gets its size.
 */
static FC_NOINLINE uint8_t *scratch(struct fc_zms *fs, uint8_t *piece, uint32_t len,
				    uint32_t *unit)
{
	*unit = FC_ZMS_BLOCK;
	if (len <= FC_ZMS_BLOCK || !fs->cfg.read_buf_size)
		return piece;
	zms_win_reset_(fs);
	*unit = fs->cfg.read_buf_size;
	return fs->cfg.read_buf;
}

/*
 * *end = offset just past the last byte that is not erased in [addr, addr +
 * len) of one sector, or offs(addr) when all is erased. Reads top down.
 */
int zms_dirty_end_(struct fc_zms *fs, uint32_t addr, uint32_t len, uint32_t *end)
{
	uint8_t piece[FC_ZMS_BLOCK];
	uint32_t lo = zoffs(fs, addr), hi = lo + len, unit;
	uint8_t *buf = scratch(fs, piece, len, &unit);

	while (hi > lo) {
		uint32_t n = FC_MIN(unit, hi - lo);
		int rc = zms_flash_rd_(fs, zaddr(fs, zsect(fs, addr), hi - n), buf, n);

		if (rc)
			return rc;
		for (uint32_t i = n; i > 0; i--) {
			if (buf[i - 1] != zerase_value(fs)) {
				*end = hi - n + i;
				return 0;
			}
		}
		hi -= n;
	}
	*end = lo;
	return 0;
}

/* ---- the ATE codec ---- */

uint8_t zms_format_(const struct fc_zms *fs)
{
	return fs->cfg.id64 ? 1 : 0;
}

/*
 * Decode the ATE read at addr. An entry whose value, outside the ATE, would
 * not end below its own slot is out of range: values grow up from the
 * sector start, each programmed before its ATE, so only a cut ATE whose
 * crc8 matched by chance (a torn offset reads as the erase value) has one.
 * decode_raw: the bytes already in a->raw.
 */
static void decode_raw(const struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a)
{
	const uint8_t *b = a->raw;
	uint32_t at = zms_value_at(fs);

	a->len = fc_get_le16(b + 2);
	a->id = fc_get_le32(b + 4);
	if (fs->cfg.id64)
		a->id |= (fc_zms_id_t)fc_get_le32(b + 8) << 32;
	a->offset = fc_get_le32(b + at);
	a->crc_ok = fc_crc8_ccitt(0xff, b + 1, FC_ZMS_ATE_BYTES - 1) == b[0];
	a->in_range = a->id == zhead_id(fs) || a->len <= fs->inline_max ||
		      (uint64_t)a->offset + zal(fs, a->len) <= zoffs(fs, addr);
}

/* Are all 16 bytes of a the erase value? */
bool zms_erased_(const struct fc_zms *fs, const struct fc_zms_ate *a)
{
	for (uint32_t i = 0; i < FC_ZMS_ATE_BYTES; i++)
		if (a->raw[i] != zerase_value(fs))
			return false;
	return true;
}

/* Read straight into a->raw: no copy, no buffer in this frame. */
int zms_ate_read_(const struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a)
{
	int rc = zms_flash_rd_(fs, addr, a->raw, FC_ZMS_ATE_BYTES);

	if (!rc)
		decode_raw(fs, addr, a);
	return rc;
}

/*
 * The ATE at addr through window w: fs->cache_win over cfg.ate_cache or
 * fs->win over cfg.read_buf (a power of two bytes). On a miss the
 * size-aligned piece of the sector around addr is read, so scans up or
 * down and lookups that land near each other read each piece once.
 */
static int window_ate(struct fc_zms *fs, struct fc_zms_win *w, uint32_t addr, struct fc_zms_ate *a)
{
	bool cache = w == &fs->cache_win;
	uint8_t *buf = cache ? fs->cfg.ate_cache : fs->cfg.read_buf;
	uint32_t size = cache ? fs->cfg.ate_cache_size : fs->cfg.read_buf_size;
	uint32_t lo = w->addr;

	if (!w->len || zsect(fs, lo) != zsect(fs, addr) || addr < lo ||
	    addr + FC_ZMS_ATE_BYTES > lo + w->len) {
		uint32_t start = zoffs(fs, addr) & ~(size - 1u);
		uint32_t len = FC_MIN(size, zss(fs) - start);
		int rc;

		w->len = 0;
		lo = zaddr(fs, zsect(fs, addr), start);
		rc = zms_flash_rd_(fs, lo, buf, len);
		if (rc)
			return rc;
		w->addr = lo;
		w->len = len;
	}
	FC_MEMCPY(a->raw, buf + (addr - lo), FC_ZMS_ATE_BYTES);
	decode_raw(fs, addr, a);
	return 0;
}

/* An ATE through the caller's cache window. */
int zms_ate_read_cached_(struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a)
{
	if (!cache_on(fs))
		return zms_ate_read_(fs, addr, a);
	return window_ate(fs, &fs->cache_win, addr, a);
}

/*
 * An ATE of a scan through cfg.read_buf. Zephyr mode reads each ATE on its
 * own, as Zephyr does, and so does a configuration without the buffer.
 */
int zms_win_ate_(struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a)
{
	if (zephyr_mode(fs) || !fs->cfg.read_buf_size)
		return zms_ate_read_(fs, addr, a);
	return window_ate(fs, &fs->win, addr, a);
}

#ifndef FC_READONLY
void zms_ate_seal_(uint8_t *b)
{
	b[0] = fc_crc8_ccitt(0xff, b + 1, FC_ZMS_ATE_BYTES - 1);
}

static void put_id(const struct fc_zms *fs, uint8_t *b, fc_zms_id_t id)
{
	fc_put_le32(b + 4, (uint32_t)id);
	if (fs->cfg.id64)
		fc_put_le32(b + 8, (uint32_t)(id >> 32));
}

/* The bytes every ATE starts from: fill, then its cycle and length. */
static void ate_start(uint8_t *b, uint8_t fill, uint8_t cycle, uint32_t len)
{
	FC_MEMSET(b, fill, FC_ZMS_ATE_BYTES);
	b[1] = cycle;
	fc_put_le16(b + 2, (uint16_t)len);
}

/* An entry ATE (len 0: a delete): zeroes, id, len, cycle, inline value or offset (+CRC). */
void zms_ate_entry_(const struct fc_zms *fs, uint8_t *b, fc_zms_id_t id, const uint8_t *data,
		    uint32_t len, uint32_t offset)
{
	uint32_t at = zms_value_at(fs);

	ate_start(b, 0, fs->sector_cycle, len);
	put_id(fs, b, id);
	if (len > fs->inline_max) {
		fc_put_le32(b + at, offset);
		if (zms_data_crc(fs))
			fc_put_le32(b + 12, fc_crc32_ieee(data, len));
	} else if (len) {
		FC_MEMCPY(b + at, data, len);
	}
	zms_ate_seal_(b);
}

/* A close or gc_done ATE: 0xff, head id, len 0, offset, cycle. */
void zms_ate_special_(const struct fc_zms *fs, uint8_t *b, uint32_t offset, uint8_t cycle)
{
	ate_start(b, 0xff, cycle, 0);
	fc_put_le32(b + zms_value_at(fs), offset);
	zms_ate_seal_(b);
}

/* An empty ATE: zeroes, head id, len 0xffff, cycle, version | magic | format. */
void zms_ate_empty_(const struct fc_zms *fs, uint8_t *b, uint8_t cycle)
{
	ate_start(b, 0, cycle, ZMS_EMPTY_LEN);
	put_id(fs, b, zhead_id(fs));
	fc_put_le32(b + ZMS_META_AT, ZMS_VERSION | ZMS_MAGIC << 8 | (uint32_t)zms_format_(fs) << 16);
	zms_ate_seal_(b);
}

/* Program an ATE at ate_wra and move ate_wra down one slot. */
int zms_ate_program_(struct fc_zms *fs, const uint8_t *b)
{
	int rc = zms_al_write_(fs, fs->ate_wra, b, FC_ZMS_ATE_BYTES);

	if (!rc)
		fs->ate_wra -= fs->ate_size;
	return rc;
}
#endif /* FC_READONLY */

/* ---- validity ---- */

bool zms_valid_(const struct fc_zms_ate *a, uint8_t cycle)
{
	return a->crc_ok && a->in_range && zcycle(a) == cycle;
}

bool zms_empty_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a)
{
	return a->crc_ok && a->len == ZMS_EMPTY_LEN && a->id == zhead_id(fs);
}

/* Also checks the offset stays inside the sector, so a walk never leaves it. */
bool zms_close_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a)
{
	return a->crc_ok && !a->len && a->id == zhead_id(fs) && a->offset < close_slot(fs) &&
	       !((zss(fs) - a->offset) & (fs->ate_size - 1u));
}

bool zms_gc_done_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a)
{
	return a->crc_ok && !a->len && a->id == zhead_id(fs);
}

/* Read sector s's close and empty ATEs into fs->close and fs->empty. */
int zms_header_(struct fc_zms *fs, uint32_t s)
{
	int rc = zms_ate_read_(fs, zaddr(fs, s, close_slot(fs)), &fs->close);

	return rc ? rc : zms_ate_read_(fs, zaddr(fs, s, empty_slot(fs)), &fs->empty);
}

/* 1 when the close slot of s holds bytes but no valid close ATE (a cut close). */
int zms_close_torn_(const struct fc_zms *fs, uint32_t s, const struct fc_zms_ate *close)
{
	/* the slot's padding: at most FC_ZMS_BLOCK - FC_ZMS_ATE_BYTES bytes, one read */
	uint8_t pad[FC_ZMS_BLOCK - FC_ZMS_ATE_BYTES];
	uint32_t n = fs->ate_size - FC_ZMS_ATE_BYTES;
	int rc;

	if (fs->cfg.no_erase || zms_close_valid_(fs, close))
		return 0;
	if (!zms_erased_(fs, close))
		return 1;
	if (!n)
		return 0;
	rc = zms_flash_rd_(fs, zaddr(fs, s, close_slot(fs) + FC_ZMS_ATE_BYTES), pad, n);
	for (uint32_t i = 0; !rc && i < n; i++)
		if (pad[i] != zerase_value(fs))
			return 1;
	return rc;
}

/*
 * The valid ATEs of cycle in sector s, as the mount's scan finds them (from
 * the top down to the end of the values written before them, that slot
 * included: a delete may take it): *last gets the lowest one's offset
 * (top_slot when none); returns 1 when a gc_done ATE is among them. a:
 * the caller's scratch.
 */
static int scan_valid(const struct fc_zms *fs, uint32_t s, uint8_t cycle, uint32_t *last,
		      struct fc_zms_ate *a)
{
	uint32_t data_end = 0;
	int gc_done = 0;

	*last = top_slot(fs);
	for (uint32_t o = top_slot(fs); o >= data_end && o; o -= fs->ate_size) {
		int rc = zms_ate_read_(fs, zaddr(fs, s, o), a);

		if (rc)
			return rc;
		if (!zms_valid_(a, cycle))
			continue;
		if (a->len > fs->inline_max)
			data_end = a->offset + zal(fs, a->len);
		gc_done |= zms_gc_done_valid_(fs, a);
		*last = o;
	}
	return gc_done;
}

/*
 * A sector whose close ATE a cut left torn counts as closed once the next
 * sector holds a gc_done ATE (the GC that follows a close ended), or while
 * it is fs->torn_sector (the mount that found the cut moved on from it):
 * the close ATE is never programmed again. Its last ATE is found by a scan.
 * The scans read through fs->close (no ATE of their own on the deepest
 * path), which then holds the one field callers of a closed sector read:
 * the offset of its last ATE (the cycle is fs->empty's).
 */
static int torn_closed(struct fc_zms *fs, uint32_t s)
{
	const struct fc_zms_ate *empty = &fs->empty;
	struct fc_zms_ate *close = &fs->close;
	uint32_t last, nx = znext(fs, s);
	uint8_t cycle;
	int rc;

	if (!zms_empty_valid_(fs, empty))
		return 0;
	rc = zms_close_torn_(fs, s, close);
	if (rc <= 0)
		return rc;
	if (s != fs->torn_sector) {
		rc = zms_sector_cycle_(fs, nx, &cycle, close);
		if (rc)
			return rc == FC_ENOENT ? 0 : rc;
		rc = scan_valid(fs, nx, cycle, &last, close);
		if (rc <= 0)
			return rc;
	}
	rc = scan_valid(fs, s, zcycle(empty), &last, close);
	if (rc < 0)
		return rc;
	close->offset = last;
	return 1;
}

/*
 * 1 when sector s is closed (valid empty and close ATEs of one cycle, or a
 * torn close ATE as torn_closed() allows), 0 if not; its header is left in
 * fs->empty and fs->close.
 */
int zms_closed_(struct fc_zms *fs, uint32_t s)
{
	int rc = zms_header_(fs, s);

	if (rc)
		return rc;
	if (zms_empty_valid_(fs, &fs->empty) && zms_close_valid_(fs, &fs->close) &&
	    zcycle(&fs->empty) == zcycle(&fs->close))
		return 1;
	return torn_closed(fs, s);
}

/* The cycle of sector s's empty ATE, read into *e; FC_ENOENT when it has none. */
int zms_sector_cycle_(const struct fc_zms *fs, uint32_t s, uint8_t *cycle, struct fc_zms_ate *e)
{
	int rc = zms_ate_read_(fs, zaddr(fs, s, empty_slot(fs)), e);

	if (rc)
		return rc;
	if (!zms_empty_valid_(fs, e))
		return FC_ENOENT;
	*cycle = zcycle(e);
	return 0;
}

/* 1 when ZMS_SETTLE_READS reads of the ATE at addr agree (*a: the first), 0 if not. */
int zms_ate_settled_(const struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a)
{
	struct fc_zms_ate again;
	int rc = zms_ate_read_(fs, addr, a);

	for (uint32_t k = 1; !rc && k < ZMS_SETTLE_READS; k++) {
		rc = zms_ate_read_(fs, addr, &again);
		if (!rc && FC_MEMCMP(again.raw, a->raw, FC_ZMS_ATE_BYTES))
			return 0;
	}
	return rc ? rc : 1;
}

/* As zms_sector_cycle_, with cycle 0 for a sector without an empty ATE (as Zephyr). */
int zms_cycle_or_zero_(const struct fc_zms *fs, uint32_t s, uint8_t *cycle)
{
	struct fc_zms_ate e;
	int rc = zms_sector_cycle_(fs, s, cycle, &e);

	if (rc == FC_ENOENT) {
		*cycle = 0;
		rc = 0;
	}
	return rc;
}

/* The cycle the ATE at addr is checked against, read again only on a new sector. */
int zms_cycle_at_(const struct fc_zms *fs, uint32_t addr, uint32_t *last_sector, uint8_t *cycle)
{
	int rc;

	if (zsect(fs, addr) == *last_sector)
		return 0;
	rc = zms_cycle_or_zero_(fs, zsect(fs, addr), cycle);
	if (!rc)
		*last_sector = zsect(fs, addr);
	return rc;
}

/* ---- Zephyr's walk ---- */

/*
 * The next older slot after *addr: up one slot, or at the top of a sector
 * into the previous sector at its last ATE when that one is closed; back
 * at ate_wra when the log ends.
 */
int zms_prev_addr_(struct fc_zms *fs, uint32_t *addr)
{
	uint32_t s;
	int rc;

	*addr += fs->ate_size;
	if (zoffs(fs, *addr) != close_slot(fs))
		return 0;
	s = zprev(fs, zsect(fs, *addr));
	rc = zms_closed_(fs, s);
	if (rc < 0)
		return rc;
	*addr = rc ? zaddr(fs, s, fs->close.offset) : fs->ate_wra;
	return 0;
}

uint32_t zms_max_steps_(const struct fc_zms *fs)
{
	uint32_t shift = fs->ate_size == 32 ? 5 : 4;

	return fs->cfg.sector_count * ((zss(fs) >> shift) + 1);
}

/*
 * Zephyr's zms_find_ate_with_id: walk from start towards older ATEs until
 * end, stopping at the first ATE of id valid in its sector's cycle.
 * Returns 1 with *a and *found, 0 when there is none, or an error.
 */
int zms_find_id_(struct fc_zms *fs, fc_zms_id_t id, uint32_t start, uint32_t end,
		 struct fc_zms_ate *a, uint32_t *found)
{
	uint32_t addr = start, cur, last_sector = ZMS_NO_ADDR, steps = 0;
	uint8_t cycle = 0;
	int rc;

	do {
		cur = addr;
		rc = zms_ate_read_(fs, cur, a);
		if (!rc)
			rc = zms_prev_addr_(fs, &addr);
		if (rc)
			return rc;
		if (a->id != id)
			goto next;
		rc = zms_cycle_at_(fs, cur, &last_sector, &cycle);
		if (rc)
			return rc;
		if (zms_valid_(a, cycle)) {
			*found = cur;
			return 1;
		}
next:
		if (++steps > zms_max_steps_(fs))
			return FC_ECORRUPT;
	} while (addr != end);
	return 0;
}

/*
 * *ok: the value of ATE a (in sector s, outside the ATE) matches its data
 * CRC; false without cfg->data_crc or a value outside.
 */
int zms_data_crc_ok_(struct fc_zms *fs, uint32_t s, const struct fc_zms_ate *a, bool *ok)
{
	uint8_t piece[FC_ZMS_BLOCK];
	uint32_t crc = 0, src = zaddr(fs, s, 0) + a->offset, unit;
	uint8_t *buf;

	*ok = false;
	if (!zms_data_crc(fs) || a->len <= fs->inline_max || (uint64_t)a->offset + a->len > zss(fs))
		return 0; /* no read: a walk's window stays */
	buf = scratch(fs, piece, a->len, &unit);
	for (uint32_t done = 0; done < a->len; done += unit) {
		uint32_t n = FC_MIN(unit, a->len - done);
		int rc = zms_flash_rd_(fs, src + done, buf, n);

		if (rc)
			return rc;
		crc = fc_crc32_ieee_update(crc, buf, n);
	}
	*ok = crc == zmeta(a);
	return 0;
}

/* Zephyr's zms_free_space: room for values between data_wra and ate_wra. */
int zms_free_in_(const struct fc_zms *fs, uint32_t data_wra, uint32_t ate_wra)
{
	int64_t space;

	if (ate_wra < 2 * fs->ate_size)
		return 0;
	space = (int64_t)ate_wra - data_wra - fs->ate_size;
	if (space < 0)
		return 0;
	if (space < fs->inline_max)
		return fs->inline_max;
	return (int)space;
}

/*
 * zms_calc_free_space, as Zephyr computes it (one walk per counted ATE):
 * Zephyr mode's count, and the one left when the index refused an id.
 */
int zms_zephyr_free_space_(struct fc_zms *fs)
{
	uint32_t step = fs->ate_wra, found;
	uint8_t cycle = fs->sector_cycle;
	struct fc_zms_ate a, w;
	int free_space = 0;

	for (uint32_t left = fs->cfg.sector_count - 1;; ) {
		uint32_t data = 0, ate = zss(fs) - 4 * fs->ate_size, s;
		uint32_t end = zaddr(fs, zsect(fs, step), close_slot(fs));
		int rc;

		for (; step < end; step += fs->ate_size) {
			rc = zms_ate_read_(fs, step, &a);
			if (rc)
				return rc;
			if (!zms_valid_(&a, cycle) || a.id == zhead_id(fs) || !a.len)
				continue;
			rc = zms_find_id_(fs, a.id, fs->ate_wra, step, &w, &found);
			if (rc < 0)
				return rc;
			if (rc)
				continue;
			if (a.len > fs->inline_max)
				data += zal(fs, a.len);
			ate -= fs->ate_size;
		}
		free_space += zms_free_in_(fs, data, ate);
		if (--left == 0)
			return free_space;
		s = zprev(fs, zsect(fs, step));
		rc = zms_closed_(fs, s);
		if (rc < 0)
			return rc;
		if (rc) {
			step = zaddr(fs, s, fs->close.offset);
			cycle = zcycle(&fs->empty);
		} else {
			step = zaddr(fs, s, close_slot(fs));
		}
	}
}
