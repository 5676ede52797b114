/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs.c - a Zephyr-compatible NVS engine.
 *
 * The log: data grows up from the start of a sector, 8-byte ATEs (padded to
 * the write block) grow down from its end; the last slot closes a full
 * sector and points at its last ATE. Sectors are used round-robin; GC copies
 * the live entries of the oldest sector into the write sector and erases it.
 *
 * Lookups: in FC_NVS_LOOKUP_INDEX mode an exact id -> newest-ATE map
 * (FC_CACHE_PROBE over the caller's slots) answers hits and misses without
 * reading flash; bit 0 of a stored address marks a delete ATE (ATE slots
 * are multiples of 8). When the map is full, the ids it refused are found
 * by walking back only as far as the oldest refused ATE (fs->gap_addr).
 * In FC_NVS_LOOKUP_ZEPHYR mode the slots behave as Zephyr's lookup cache.
 */
#include "fdtcache/nvs.h"
#include "fdtcache/crc.h"

#define ID_SPECIAL 0xffffu /* close and gc_done ATEs */
#define CRC_SIZE 4u
#define BLOCK 32u  /* Zephyr's NVS_BLOCK_SIZE: compare/copy unit, largest write block */
#define CHUNK 256u /* bytes of ATE area read at once when scanning */
#define DEL_FLAG 1u
#define NO_ADDR UINT32_MAX

struct ate {
	uint16_t id, offset, len;
	uint8_t part, crc8;
	bool crc_ok, erased;
};

/* A window of one sector's ATE area, so scans read CHUNK bytes at a time. */
struct slot_win {
	uint32_t addr, len;
	bool up; /* filled from the slot asked for upward (walks), else chunk-aligned */
	uint8_t buf[CHUNK];
};

/* ---- geometry and addresses ---- */

static uint32_t sect(uint32_t addr)
{
	return addr >> FC_NVS_ADDR_SECTOR_SHIFT;
}

static uint32_t offs(uint32_t addr)
{
	return addr & FC_NVS_ADDR_OFFSET_MASK;
}

static uint32_t mkaddr(uint32_t sector, uint32_t offset)
{
	return sector << FC_NVS_ADDR_SECTOR_SHIFT | offset;
}

static uint32_t ssize(const struct fc_nvs *fs)
{
	return fs->cfg.sector_size;
}

static uint32_t wbs(const struct fc_nvs *fs)
{
	return fs->cfg.flash->geo.write_size;
}

static uint32_t al(const struct fc_nvs *fs, uint32_t len)
{
	return FC_ALIGN_UP(len, wbs(fs));
}

static uint32_t crc_size(const struct fc_nvs *fs)
{
	return fs->cfg.data_crc ? CRC_SIZE : 0;
}

static uint8_t erase_value(const struct fc_nvs *fs)
{
	return fs->cfg.flash->geo.erase_value;
}

/* Offset of the first ATE slot of a sector (the gc_done one after GC). */
static uint32_t top_slot(const struct fc_nvs *fs)
{
	return ssize(fs) - 2 * fs->ate_size;
}

static uint32_t next_sector(const struct fc_nvs *fs, uint32_t s)
{
	return s + 1 == fs->cfg.sector_count ? 0 : s + 1;
}

static uint32_t prev_sector(const struct fc_nvs *fs, uint32_t s)
{
	return s ? s - 1 : fs->cfg.sector_count - 1u;
}

/* Bound on the ATEs a walk may visit: every slot of every sector. */
static uint32_t max_steps(const struct fc_nvs *fs)
{
	return fs->cfg.sector_count * (ssize(fs) / fs->ate_size + 1);
}

/* Age of an address, larger = older: sectors behind the write sector, then offset. */
static uint32_t age_key(const struct fc_nvs *fs, uint32_t addr)
{
	uint32_t n = fs->cfg.sector_count;

	if (addr == NO_ADDR)
		return UINT32_MAX;
	return (sect(fs->ate_wra) + n - sect(addr)) % n << FC_NVS_ADDR_SECTOR_SHIFT | offs(addr);
}

/* ---- flash access ---- */

static uint32_t dev_off(const struct fc_nvs *fs, uint32_t addr)
{
	return fs->cfg.offset + sect(addr) * ssize(fs) + offs(addr);
}

static int flash_rd(const struct fc_nvs *fs, uint32_t addr, void *buf, uint32_t len)
{
	return fc_flash_read(fs->cfg.flash, dev_off(fs, addr), buf, len);
}

static uint8_t *way_buf(const struct fc_nvs *fs, uint32_t way)
{
	return fs->cfg.ate_cache + way * (fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS);
}

/*
 * The ATE cache mirrors flash: a program stores its bytes as they are (the
 * engine only programs erased bytes), a failed one leaves them unknown.
 */
static void ate_cache_programmed(struct fc_nvs *fs, uint32_t addr, const void *buf,
				 uint32_t len, int rc)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++) {
		uint32_t lo = fs->ate_cache_addr[way], hi = lo + fs->ate_cache_len[way];
		uint32_t from = FC_MAX(addr, lo), to = FC_MIN(addr + len, hi);

		if (from >= to)
			continue;
		if (rc)
			fs->ate_cache_len[way] = 0;
		else
			FC_MEMCPY(way_buf(fs, way) + (from - lo),
				  (const uint8_t *)buf + (from - addr), to - from);
	}
}

static void ate_cache_erased(struct fc_nvs *fs, uint32_t s)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++)
		if (sect(fs->ate_cache_addr[way]) == s)
			fs->ate_cache_len[way] = 0;
}

static int flash_wr(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len)
{
	int rc = fc_flash_prog(fs->cfg.flash, dev_off(fs, addr), buf, len);

	ate_cache_programmed(fs, addr, buf, len, rc);
	return rc;
}

/* Zephyr's aligned write: the whole blocks, then the tail padded to one block. */
static int prog_aligned(struct fc_nvs *fs, uint32_t addr, const uint8_t *data, uint32_t len)
{
	uint8_t buf[BLOCK];
	uint32_t blen = len & ~(wbs(fs) - 1u);
	int rc;

	if (blen) {
		rc = flash_wr(fs, addr, data, blen);
		if (rc)
			return rc;
	}
	if (len == blen)
		return 0;
	FC_MEMSET(buf, erase_value(fs), wbs(fs));
	FC_MEMCPY(buf, data + blen, len - blen);
	return flash_wr(fs, addr + blen, buf, wbs(fs));
}

static bool all_erased(const struct fc_nvs *fs, const uint8_t *b, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (b[i] != erase_value(fs))
			return false;
	return true;
}

/*
 * Find the end of the written bytes in [addr, addr + len) of one sector:
 * *end = offset just past the last byte that is not erased, or offs(addr)
 * when the range is erased. Reads from the top down in CHUNK pieces.
 */
static int dirty_end(const struct fc_nvs *fs, uint32_t addr, uint32_t len, uint32_t *end)
{
	uint8_t buf[CHUNK];
	uint32_t lo = offs(addr), hi = lo + len;
	/* Zephyr mode reads in Zephyr's blocks, so its read counts are Zephyr's */
	uint32_t unit = fs->cfg.lookup == FC_NVS_LOOKUP_ZEPHYR ? BLOCK : CHUNK;

	while (hi > lo) {
		uint32_t n = FC_MIN(unit, hi - lo);
		int rc = flash_rd(fs, mkaddr(sect(addr), hi - n), buf, n);

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

/* ---- ATEs ---- */

/* The slot's fields and erased state, without the crc8 check. */
static void ate_fields(const struct fc_nvs *fs, const uint8_t *b, struct ate *a)
{
	a->id = fc_get_le16(b);
	a->offset = fc_get_le16(b + 2);
	a->len = fc_get_le16(b + 4);
	a->part = b[6];
	a->crc8 = b[7];
	a->crc_ok = false;
	a->erased = all_erased(fs, b, FC_NVS_ATE_BYTES);
}

static void ate_decode(const struct fc_nvs *fs, const uint8_t *b, struct ate *a)
{
	ate_fields(fs, b, a);
	a->crc_ok = fc_crc8_ccitt(0xff, b, 7) == b[7];
}

/* One ATE slot: the 8 ATE bytes then erase-value padding. */
static void ate_encode(const struct fc_nvs *fs, uint8_t *b, uint16_t id, uint16_t offset,
		       uint16_t len)
{
	FC_MEMSET(b, erase_value(fs), fs->ate_size);
	fc_put_le16(b, id);
	fc_put_le16(b + 2, offset);
	fc_put_le16(b + 4, len);
	b[6] = 0xff;
	b[7] = fc_crc8_ccitt(0xff, b, 7);
}

static bool ate_valid(const struct fc_nvs *fs, const struct ate *a)
{
	return a->crc_ok && (uint32_t)a->offset + a->len < ssize(fs) - fs->ate_size;
}

static bool close_valid(const struct fc_nvs *fs, const struct ate *a)
{
	return ate_valid(fs, a) && a->len == 0 && a->id == ID_SPECIAL &&
	       (ssize(fs) - a->offset) % fs->ate_size == 0;
}

static bool is_gc_done(const struct fc_nvs *fs, const struct ate *a)
{
	return ate_valid(fs, a) && a->len == 0 && a->id == ID_SPECIAL;
}

static int ate_read(const struct fc_nvs *fs, uint32_t addr, struct ate *a)
{
	uint8_t b[FC_NVS_ATE_BYTES];
	int rc = flash_rd(fs, addr, b, sizeof(b));

	if (!rc)
		ate_decode(fs, b, a);
	return rc;
}

static bool way_holds(const struct fc_nvs *fs, uint32_t way, uint32_t addr)
{
	uint32_t lo = fs->ate_cache_addr[way];

	return fs->ate_cache_len[way] && sect(lo) == sect(addr) && addr >= lo &&
	       addr + FC_NVS_ATE_BYTES <= lo + fs->ate_cache_len[way];
}

/* An ATE through the caller's cache: on a miss, its aligned window is read. */
static int cached_ate_read(struct fc_nvs *fs, uint32_t addr, struct ate *a)
{
	uint32_t size = fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS, o = offs(addr);
	uint32_t way = 0, start;
	int rc;

	if (!size || fs->cfg.lookup == FC_NVS_LOOKUP_ZEPHYR)
		return ate_read(fs, addr, a);
	while (way < FC_NVS_ATE_CACHE_WAYS && !way_holds(fs, way, addr))
		way++;
	if (way == FC_NVS_ATE_CACHE_WAYS) {
		way = fs->ate_cache_lru;
		start = o - o % size;
		fs->ate_cache_len[way] = 0;
		rc = flash_rd(fs, mkaddr(sect(addr), start), way_buf(fs, way),
			      FC_MIN(size, ssize(fs) - start));
		if (rc)
			return rc;
		fs->ate_cache_addr[way] = mkaddr(sect(addr), start);
		fs->ate_cache_len[way] = FC_MIN(size, ssize(fs) - start);
	}
	fs->ate_cache_lru = (way + 1) % FC_NVS_ATE_CACHE_WAYS;
	ate_decode(fs, way_buf(fs, way) + (addr - fs->ate_cache_addr[way]), a);
	return 0;
}

/* Fill the window over addr's sector's ATE area so it holds the slot at addr. */
static int win_fill(const struct fc_nvs *fs, struct slot_win *w, uint32_t addr)
{
	uint32_t o = offs(addr);

	if (!w->len || sect(w->addr) != sect(addr) || o < offs(w->addr) ||
	    o + FC_NVS_ATE_BYTES > offs(w->addr) + w->len) {
		/* Zephyr mode reads slot by slot, as Zephyr does */
		uint32_t unit = fs->cfg.lookup == FC_NVS_LOOKUP_ZEPHYR ? fs->ate_size : CHUNK;
		uint32_t start = w->up ? o : o - o % unit;
		uint32_t len = FC_MIN(unit, ssize(fs) - start);
		int rc = flash_rd(fs, mkaddr(sect(addr), start), w->buf, len);

		if (rc) {
			w->len = 0;
			return rc;
		}
		w->addr = mkaddr(sect(addr), start);
		w->len = len;
	}
	return 0;
}

/* Read the ATE slot at addr through a window over its sector's ATE area. */
static int win_ate(const struct fc_nvs *fs, struct slot_win *w, uint32_t addr, struct ate *a)
{
	int rc = win_fill(fs, w, addr);

	if (!rc)
		ate_decode(fs, w->buf + (offs(addr) - offs(w->addr)), a);
	return rc;
}

static int close_read(const struct fc_nvs *fs, uint32_t s, struct ate *a)
{
	return ate_read(fs, mkaddr(s, ssize(fs) - fs->ate_size), a);
}

/*
 * The lowest valid ATE of a sector whose close ATE cannot be trusted,
 * scanning down from the top slot while above the data seen so far (as
 * Zephyr's recovery does). The top slot when there is none.
 */
static int recover_last(const struct fc_nvs *fs, struct slot_win *w, uint32_t s, uint32_t *addr)
{
	uint32_t data_end = 0;
	struct ate a;

	*addr = mkaddr(s, top_slot(fs));
	for (uint32_t o = top_slot(fs); o > data_end; o -= fs->ate_size) {
		int rc = win_ate(fs, w, mkaddr(s, o), &a);

		if (rc)
			return rc;
		if (ate_valid(fs, &a)) {
			data_end = (uint32_t)a.offset + a.len;
			*addr = mkaddr(s, o);
		}
	}
	return 0;
}

/* Lowest (newest) ATE slot of a written sector other than the write sector. */
static int sector_low(const struct fc_nvs *fs, struct slot_win *w, uint32_t s,
		      const struct ate *close, uint32_t *low)
{
	if (close_valid(fs, close)) {
		*low = mkaddr(s, close->offset);
		return 0;
	}
	return recover_last(fs, w, s, low);
}

static bool zephyr_mode(const struct fc_nvs *fs)
{
	return fs->cfg.lookup == FC_NVS_LOOKUP_ZEPHYR;
}

/* A walk reads ATE areas through a window; Zephyr mode reads each ATE alone, as Zephyr. */
static int walk_read(const struct fc_nvs *fs, struct slot_win *w, uint32_t addr, struct ate *a)
{
	return zephyr_mode(fs) ? ate_read(fs, addr, a) : win_ate(fs, w, addr, a);
}

/*
 * One step of a backward walk (Zephyr's nvs_prev_ate): read the ATE at
 * *addr and move *addr to the next older slot, hopping to the previous
 * sector through its close ATE; back at fs->ate_wra when the log ends.
 */
static int walk_prev(const struct fc_nvs *fs, struct slot_win *w, uint32_t *addr, struct ate *a)
{
	struct ate close;
	uint32_t s;
	int rc = walk_read(fs, w, *addr, a);

	if (rc)
		return rc;
	*addr += fs->ate_size;
	if (offs(*addr) != ssize(fs) - fs->ate_size)
		return 0;
	s = prev_sector(fs, sect(*addr));
	rc = walk_read(fs, w, mkaddr(s, ssize(fs) - fs->ate_size), &close);
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
	return recover_last(fs, w, s, addr);
}

/*
 * Walk back from start to the first valid ATE of id, not past the age of
 * limit. Returns 1 with *found and *a, 0 when there is none.
 */
static int walk_find(const struct fc_nvs *fs, uint32_t start, uint16_t id, uint32_t limit,
		     uint32_t *found, struct ate *a)
{
	struct slot_win w = { .len = 0, .up = true };
	uint32_t addr = start, stop = age_key(fs, limit), steps = 0;

	do {
		uint32_t cur = addr;
		int rc = walk_prev(fs, &w, &addr, a);

		if (rc)
			return rc;
		if (a->id == id && ate_valid(fs, a)) {
			*found = cur;
			return 1;
		}
		if (age_key(fs, cur) >= stop)
			break;
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (addr != fs->ate_wra);
	return 0;
}

/* ---- lookup: the index or Zephyr's cache ---- */

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

static void zcache_invalidate(struct fc_nvs *fs, uint32_t s)
{
	for (uint32_t i = 0; i < fs->cfg.index_slot_count; i++)
		if (fs->cfg.index_slots[i].value != NO_ADDR && sect(fs->cfg.index_slots[i].value) == s)
			fs->cfg.index_slots[i].value = NO_ADDR;
}

/*
 * Map id -> v in the index; with if_empty an id already held is kept.
 * Returns 1 stored, 0 kept, FC_ENOSPC when refused. One slot always stays
 * empty: the PROBE map's removal stops at an empty slot and would circle
 * a completely full map forever.
 */
static int index_put(struct fc_nvs *fs, uint16_t id, uint32_t v, bool if_empty)
{
	if (!fc_cache_peek(&fs->index, id, NULL) && fs->index.used + 1 >= fs->index.nslots)
		return FC_ENOSPC;
	if (if_empty)
		return fc_cache_prefill(&fs->index, id, v, FC_CACHE_IF_EMPTY);
	return fc_cache_fill(&fs->index, id, v) ? FC_ENOSPC : 1;
}

/* Remember that the ATE at addr is now the newest of id. */
static void index_note(struct fc_nvs *fs, uint16_t id, uint32_t addr, bool del)
{
	if (id == ID_SPECIAL || !fs->cfg.index_slot_count)
		return;
	if (zephyr_mode(fs)) {
		fs->cfg.index_slots[zcache_pos(fs, id)].value = addr;
		return;
	}
	if (index_put(fs, id, addr | (del ? DEL_FLAG : 0), false) == FC_ENOSPC && !fs->gap) {
		fs->gap = true;
		fs->gap_addr = addr;
	}
}

/*
 * Newest valid ATE of id. Returns 1 with *addr (and *a when want_ate; an
 * index hit on a delete fills a->len = 0 without reading), 0 when absent.
 * Without may_walk, only the index is asked: an id it lacks counts as absent.
 */
static int find_newest(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct ate *a,
		       bool want_ate, bool may_walk)
{
	uint32_t v;

	if (zephyr_mode(fs) && !may_walk)
		return 0;
	if (zephyr_mode(fs)) {
		uint32_t start = fs->ate_wra;

		if (fs->cfg.index_slot_count) {
			start = fs->cfg.index_slots[zcache_pos(fs, id)].value;
			if (start == NO_ADDR)
				return 0;
		}
		return walk_find(fs, start, id, NO_ADDR, addr, a);
	}
	if (fc_cache_lookup(&fs->index, id, &v)) {
		*addr = v & ~DEL_FLAG;
		if (v & DEL_FLAG) {
			a->id = id;
			a->len = 0;
			return 1;
		}
		if (!want_ate)
			return 1;
		int rc = cached_ate_read(fs, *addr, a);

		if (rc)
			return rc;
		return a->id == id && ate_valid(fs, a) ? 1 : FC_ECORRUPT;
	}
	if (!fs->gap || !may_walk)
		return 0;
	return walk_find(fs, fs->ate_wra, id, fs->gap_addr, addr, a);
}

/* ---- writes ---- */

static int ate_write(struct fc_nvs *fs, uint16_t id, uint16_t offset, uint16_t len)
{
	uint8_t b[BLOCK];
	uint32_t at = fs->ate_wra;
	int rc;

	ate_encode(fs, b, id, offset, len);
	rc = flash_wr(fs, at, b, fs->ate_size);
	fs->ate_wra -= fs->ate_size;
	if (rc)
		return rc;
	if (id == ID_SPECIAL)
		fs->gc_done_ates += offs(at) != ssize(fs) - fs->ate_size; /* not a close ATE */
	else
		index_note(fs, id, at, len == 0);
	return 0;
}

/* Data at data_wra, padded to the write block; the CRC-32 follows the value directly. */
static int data_write(struct fc_nvs *fs, const uint8_t *data, uint32_t len, bool add_crc)
{
	uint8_t buf[BLOCK + CRC_SIZE];
	uint32_t whole, tail;
	int rc;

	if (!add_crc || !len) {
		rc = prog_aligned(fs, fs->data_wra, data, len);
		fs->data_wra += al(fs, len);
		return rc;
	}
	whole = len & ~(wbs(fs) - 1u);
	rc = prog_aligned(fs, fs->data_wra, data, whole);
	fs->data_wra += whole;
	if (rc)
		return rc;
	tail = len - whole;
	FC_MEMCPY(buf, data + whole, tail);
	fc_put_le32(buf + tail, fc_crc32_ieee(data, len));
	rc = prog_aligned(fs, fs->data_wra, buf, tail + CRC_SIZE);
	fs->data_wra += al(fs, tail + CRC_SIZE);
	return rc;
}

static uint32_t entry_bytes(const struct fc_nvs *fs, uint16_t stored_len)
{
	return al(fs, stored_len) + fs->ate_size;
}

static int gc_done_write(struct fc_nvs *fs)
{
	return ate_write(fs, ID_SPECIAL, (uint16_t)offs(fs->data_wra), 0);
}

static int sector_close(struct fc_nvs *fs)
{
	uint32_t last = offs(fs->ate_wra) + fs->ate_size;
	uint32_t next = next_sector(fs, sect(fs->ate_wra));
	int rc;

	fs->ate_wra = mkaddr(sect(fs->ate_wra), ssize(fs) - fs->ate_size);
	rc = ate_write(fs, ID_SPECIAL, (uint16_t)last, 0);
	fs->ate_wra = mkaddr(next, top_slot(fs));
	fs->data_wra = mkaddr(next, 0);
	return rc;
}

/*
 * Forget a sector about to be erased: index entries still pointing into it
 * (deletes GC did not copy) and its gc_done ATEs.
 */
static int sector_forget(struct fc_nvs *fs, uint32_t s)
{
	struct slot_win w = { .len = 0 };
	struct ate close, a;
	uint32_t low, v;
	int rc;

	if (zephyr_mode(fs)) {
		zcache_invalidate(fs, s);
		return 0;
	}
	if (fs->gap && fs->gap_addr != NO_ADDR && sect(fs->gap_addr) == s)
		fs->gap_addr = NO_ADDR;
	rc = close_read(fs, s, &close);
	if (rc || close.erased)
		return rc;
	rc = sector_low(fs, &w, s, &close, &low);
	for (uint32_t o = offs(low); !rc && o <= top_slot(fs); o += fs->ate_size) {
		uint32_t at = mkaddr(s, o);

		rc = win_ate(fs, &w, at, &a);
		if (rc || !ate_valid(fs, &a))
			continue;
		if (a.id == ID_SPECIAL) {
			if (a.len == 0 && fs->gc_done_ates)
				fs->gc_done_ates--;
		} else if (fc_cache_peek(&fs->index, a.id, &v) && (v & ~DEL_FLAG) == at) {
			fc_cache_invalidate(&fs->index, a.id);
			if (a.len && !fs->live_unknown)
				fs->live_bytes -= entry_bytes(fs, a.len);
		}
	}
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

	if (!zephyr_mode(fs)) {
		rc = dirty_end(fs, mkaddr(s, 0), ssize(fs), &end);
		if (rc || !end)
			return rc;
	}
	ate_cache_erased(fs, s);
	rc = fc_flash_erase(fs->cfg.flash, dev_off(fs, mkaddr(s, 0)), ssize(fs));
	if (!rc)
		rc = dirty_end(fs, mkaddr(s, 0), ssize(fs), &end);
	if (!rc && end)
		rc = FC_EIO;
	return rc;
}

static int sector_erase(struct fc_nvs *fs, uint32_t s)
{
	int rc = sector_forget(fs, s);

	return rc ? rc : erase_verified(fs, s);
}

/* Copy a value of len bytes at src to data_wra in Zephyr's block steps. */
static int block_move(struct fc_nvs *fs, uint32_t src, uint32_t len)
{
	uint8_t buf[BLOCK];
	uint32_t step = BLOCK & ~(wbs(fs) - 1u);

	while (len) {
		uint32_t n = FC_MIN(step, len);
		int rc = flash_rd(fs, src, buf, n);

		if (!rc)
			rc = data_write(fs, buf, n, false);
		if (rc)
			return rc;
		src += n;
		len -= n;
	}
	return 0;
}

/* Is the valid ATE at addr the newest of its id? */
static int is_newest(struct fc_nvs *fs, uint16_t id, uint32_t addr)
{
	struct ate a;
	uint32_t found;
	int rc = find_newest(fs, id, &found, &a, false, true);

	if (rc <= 0)
		return rc;
	return found == addr;
}

/*
 * Collect the sector after the write sector: copy every entry whose newest
 * ATE is there (newest first, as Zephyr), mark the GC done, erase it.
 * FC_ENOSPC when a copy does not fit (only when resuming a torn GC).
 */
static int gc(struct fc_nvs *fs)
{
	struct slot_win w = { .len = 0 };
	uint32_t s = next_sector(fs, sect(fs->ate_wra));
	struct ate close, a;
	uint32_t low;
	int rc = close_read(fs, s, &close);

	if (rc)
		return rc;
	if (!close.erased) {
		rc = sector_low(fs, &w, s, &close, &low);
		for (uint32_t o = offs(low); !rc && o <= top_slot(fs); o += fs->ate_size) {
			uint32_t at = mkaddr(s, o);

			rc = win_ate(fs, &w, at, &a);
			if (rc || !ate_valid(fs, &a) || a.id == ID_SPECIAL || !a.len)
				continue;
			rc = is_newest(fs, a.id, at);
			if (rc <= 0)
				continue;
			if (fs->ate_wra < fs->data_wra + entry_bytes(fs, a.len))
				return FC_ENOSPC;
			uint16_t offset = (uint16_t)offs(fs->data_wra);

			rc = block_move(fs, mkaddr(s, a.offset), a.len);
			if (!rc)
				rc = ate_write(fs, a.id, offset, a.len);
		}
		if (rc)
			return rc;
	}
	if (fs->ate_wra >= fs->data_wra + fs->ate_size) {
		rc = gc_done_write(fs);
		if (rc)
			return rc;
	}
	return sector_erase(fs, s);
}

/* ---- mount ---- */

static int check_config(const struct fc_nvs_config *cfg)
{
	const struct fc_flash_geometry *geo;
	uint32_t ate_size;

	if (!cfg || !cfg->flash || fc_flash_geometry_check(&cfg->flash->geo))
		return FC_EINVAL;
	geo = &cfg->flash->geo;
	if (geo->write_size > BLOCK)
		return FC_EINVAL;
	ate_size = FC_MAX(FC_NVS_ATE_BYTES, geo->write_size);
	if (cfg->sector_size > 65536u || cfg->sector_size < 6 * ate_size ||
	    cfg->sector_size % geo->erase_size || cfg->sector_size % ate_size)
		return FC_EINVAL;
	if (cfg->sector_count < 2 || cfg->offset % geo->erase_size)
		return FC_EINVAL;
	if ((uint64_t)cfg->offset + (uint64_t)cfg->sector_count * cfg->sector_size > geo->size)
		return FC_EINVAL;
	if (cfg->lookup != FC_NVS_LOOKUP_INDEX && cfg->lookup != FC_NVS_LOOKUP_ZEPHYR)
		return FC_EINVAL;
	if (cfg->index_slot_count && (!cfg->index_slots || !fc_is_pow2(cfg->index_slot_count)))
		return FC_EINVAL;
	if (cfg->ate_cache_size && (!cfg->ate_cache || !fc_is_pow2(cfg->ate_cache_size) ||
				    cfg->ate_cache_size < FC_NVS_ATE_CACHE_WAYS * ate_size))
		return FC_EINVAL;
	return 0;
}

/*
 * The write sector, as Zephyr finds it: the first sector after a closed one
 * whose close slot is erased; with none closed, sector 0 (unless only the
 * last sector holds ATEs). Every sector closed: FC_ECORRUPT.
 */
static int find_write_sector(const struct fc_nvs *fs, uint32_t *ws)
{
	uint32_t n = fs->cfg.sector_count, closed = 0;
	struct ate a;
	int rc;

	for (uint32_t s = 0; s < n; s++) {
		rc = close_read(fs, s, &a);
		if (rc)
			return rc;
		if (a.erased)
			continue;
		closed++;
		rc = close_read(fs, next_sector(fs, s), &a);
		if (rc)
			return rc;
		if (a.erased) {
			*ws = next_sector(fs, s);
			return 0;
		}
	}
	if (closed == n)
		return FC_ECORRUPT;
	rc = ate_read(fs, mkaddr(n - 1, top_slot(fs)), &a);
	*ws = a.erased ? 0 : n - 1;
	return rc;
}

/*
 * Write pointers of the write sector: the ATE pointer is the first erased
 * slot below the ATEs, the data pointer ends the newest valid ATE's data;
 * torn ATEs are stepped over. A sector with no free slot above its data is
 * full: the data pointer is put past the ATE pointer so nothing fits.
 */
static int find_write_pointers(struct fc_nvs *fs, uint32_t ws)
{
	struct slot_win w = { .len = 0 };
	int32_t o = (int32_t)top_slot(fs);
	uint32_t data = 0;
	struct ate a;
	int rc;

	for (; o >= (int32_t)data; o -= (int32_t)fs->ate_size) {
		rc = win_ate(fs, &w, mkaddr(ws, (uint32_t)o), &a);
		if (rc)
			return rc;
		if (a.erased)
			break;
		if (ate_valid(fs, &a))
			data = al(fs, (uint32_t)a.offset + a.len);
	}
	if (o < (int32_t)data) {
		o = FC_MAX(o, 0);
		data = (uint32_t)o + fs->ate_size;
	}
	fs->ate_wra = mkaddr(ws, (uint32_t)o);
	fs->data_wra = mkaddr(ws, data);
	return 0;
}

/* Step the data pointer over bytes written without their ATE. */
static int skip_dirty_data(struct fc_nvs *fs)
{
	uint32_t end, o = offs(fs->data_wra);
	int rc;

	if (fs->data_wra >= fs->ate_wra)
		return 0;
	rc = dirty_end(fs, fs->data_wra, offs(fs->ate_wra) - o, &end);
	if (rc)
		return rc;
	if (end > o)
		fs->data_wra += FC_MIN(al(fs, end - o), offs(fs->ate_wra) - o);
	return 0;
}

/*
 * Visit the written sectors newest first (the write sector, then back while
 * sectors are closed), each ATE slot newest first. fn returns < 0 to stop.
 */
typedef int (*slot_fn)(struct fc_nvs *fs, uint32_t addr, const struct ate *a, void *arg);

static int for_each_slot(struct fc_nvs *fs, slot_fn fn, void *arg)
{
	struct slot_win w = { .len = 0 };
	uint32_t ws = sect(fs->ate_wra), s = ws, low = fs->ate_wra + fs->ate_size;
	struct ate a;
	int rc;

	for (;;) {
		for (uint32_t o = offs(low); o <= top_slot(fs); o += fs->ate_size) {
			rc = win_ate(fs, &w, mkaddr(s, o), &a);
			if (!rc)
				rc = fn(fs, mkaddr(s, o), &a, arg);
			if (rc)
				return rc;
		}
		s = prev_sector(fs, s);
		if (s == ws)
			return 0;
		rc = close_read(fs, s, &a);
		if (rc || a.erased)
			return rc;
		rc = sector_low(fs, &w, s, &a, &low);
		if (rc)
			return rc;
	}
}

/* Index build, newest first: the first valid ATE seen of an id is its newest. */
static int build_slot(struct fc_nvs *fs, uint32_t addr, const struct ate *a, void *arg)
{
	(void)arg;
	if (!ate_valid(fs, a))
		return 0;
	if (a->id == ID_SPECIAL) {
		fs->gc_done_ates += a->len == 0;
		return 0;
	}
	if (!fs->cfg.index_slot_count)
		return 0;
	int rc = index_put(fs, a->id, addr | (a->len ? 0 : DEL_FLAG), true);

	if (rc == FC_ENOSPC) {
		fs->gap = true;
		fs->gap_addr = addr; /* the oldest refused ATE so far */
		return 0;
	}
	if (rc > 0 && a->len)
		fs->live_bytes += entry_bytes(fs, a->len);
	return rc < 0 ? rc : 0;
}

/* Zephyr's cache rebuild: a walk from the newest ATE, first valid one per slot wins. */
static int zcache_rebuild(struct fc_nvs *fs)
{
	struct slot_win w = { .len = 0 };
	uint32_t addr = fs->ate_wra, steps = 0;
	struct ate a;

	for (uint32_t i = 0; i < fs->cfg.index_slot_count; i++) {
		fs->cfg.index_slots[i].key = FC_CACHE_EMPTY;
		fs->cfg.index_slots[i].value = NO_ADDR;
	}
	if (!fs->cfg.index_slot_count)
		return 0;
	do {
		uint32_t cur = addr;
		int rc = walk_prev(fs, &w, &addr, &a);

		if (rc)
			return rc;
		if (a.id != ID_SPECIAL && ate_valid(fs, &a) &&
		    fs->cfg.index_slots[zcache_pos(fs, a.id)].value == NO_ADDR)
			fs->cfg.index_slots[zcache_pos(fs, a.id)].value = cur;
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (addr != fs->ate_wra);
	return 0;
}

static int index_build(struct fc_nvs *fs)
{
	int rc;

	fs->live_bytes = 0;
	fs->live_unknown = false;
	fs->gc_done_ates = 0;
	fs->gap = false;
	fs->gap_addr = 0;
	if (zephyr_mode(fs))
		return zcache_rebuild(fs);
	if (fs->cfg.index_slot_count)
		rc = fc_cache_init(&fs->index, FC_CACHE_PROBE, fs->cfg.index_slots,
				   fs->cfg.index_slot_count);
	else
		rc = fc_cache_init(&fs->index, FC_CACHE_NONE, NULL, 0);
	if (rc)
		return rc;
	rc = for_each_slot(fs, build_slot, NULL);
	if (rc)
		return rc;
	if (!fs->cfg.index_slot_count) {
		fs->gap = true;
		fs->gap_addr = NO_ADDR;
	}
	/* the refused ids' live bytes are counted when free space is asked */
	fs->live_unknown = fs->gap;
	return 0;
}

/* A gc_done ATE above the write pointer of the write sector? */
static int has_gc_done(const struct fc_nvs *fs)
{
	struct slot_win w = { .len = 0 };
	uint32_t ws = sect(fs->ate_wra);
	struct ate a;

	for (uint32_t o = offs(fs->ate_wra) + fs->ate_size; o <= top_slot(fs); o += fs->ate_size) {
		int rc = win_ate(fs, &w, mkaddr(ws, o), &a);

		if (rc)
			return rc;
		if (is_gc_done(fs, &a))
			return 1;
	}
	return 0;
}

static int restart_write_sector(struct fc_nvs *fs)
{
	uint32_t ws = sect(fs->ate_wra);
	int rc = erase_verified(fs, ws);

	if (rc)
		return rc;
	fs->ate_wra = mkaddr(ws, top_slot(fs));
	fs->data_wra = mkaddr(ws, 0);
	return index_build(fs);
}

/*
 * The sector after the write sector is not erased: a GC or its erase was
 * cut. With its gc_done ATE, or outside the log, it only needs the erase.
 * Otherwise GC resumes where it stopped: entries already copied are newer
 * than their originals, so nothing is copied twice, and a cut erase (whose
 * live data were all copied) is never copied from. Only when the copies no
 * longer fit is the write sector restarted, as Zephyr always does.
 */
static int recover_gc(struct fc_nvs *fs)
{
	uint32_t nx = next_sector(fs, sect(fs->ate_wra)), end;
	struct ate close;
	int rc = dirty_end(fs, mkaddr(nx, 0), ssize(fs), &end);

	if (rc || !end)
		return rc;
	rc = close_read(fs, nx, &close);
	if (rc)
		return rc;
	rc = close.erased ? 1 : has_gc_done(fs);
	if (rc < 0)
		return rc;
	if (rc)
		return sector_erase(fs, nx);
	rc = gc(fs);
	if (rc != FC_ENOSPC)
		return rc;
	rc = restart_write_sector(fs);
	return rc ? rc : gc(fs);
}

int fc_nvs_mount(struct fc_nvs *fs, const struct fc_nvs_config *cfg)
{
	uint32_t ws;
	int rc;

	if (!fs)
		return FC_EINVAL;
	rc = check_config(cfg);
	if (rc)
		return rc;
	FC_MEMSET(fs, 0, sizeof(*fs));
	fs->cfg = *cfg;
	fs->ate_size = FC_MAX(FC_NVS_ATE_BYTES, cfg->flash->geo.write_size);
	rc = find_write_sector(fs, &ws);
	if (!rc)
		rc = find_write_pointers(fs, ws);
	if (!rc)
		rc = skip_dirty_data(fs);
	if (!rc)
		rc = index_build(fs);
	if (!rc)
		rc = recover_gc(fs);
	if (rc)
		return rc;
	/* an open sector with no ATE but stray data starts over */
	if (offs(fs->ate_wra) == top_slot(fs) && offs(fs->data_wra)) {
		rc = restart_write_sector(fs);
		if (rc)
			return rc;
	}
	if (offs(fs->ate_wra) == top_slot(fs)) {
		rc = gc_done_write(fs);
		if (rc)
			return rc;
	}
	fs->mounted = true;
	return 0;
}

int fc_nvs_clear(struct fc_nvs *fs)
{
	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	fs->mounted = false;
	return fc_flash_erase(fs->cfg.flash, fs->cfg.offset,
			      (uint32_t)fs->cfg.sector_count * ssize(fs));
}

/* ---- read and write ---- */

/*
 * Compare the value at addr with data followed (with CRC) by its CRC-32,
 * in Zephyr's block steps. Returns 0 when equal, 1 when not, or an error.
 */
static int value_cmp(const struct fc_nvs *fs, uint32_t addr, const uint8_t *data, uint32_t len,
		     uint32_t stored_len)
{
	uint8_t buf[BLOCK], crc[CRC_SIZE];
	uint32_t step = BLOCK & ~(wbs(fs) - 1u);

	fc_put_le32(crc, fc_crc32_ieee(data, len));
	for (uint32_t pos = 0; pos < stored_len;) {
		uint32_t n = FC_MIN(step, stored_len - pos);
		int rc = flash_rd(fs, addr + pos, buf, n);

		if (rc)
			return rc;
		for (uint32_t i = 0; i < n; i++, pos++)
			if (buf[i] != (pos < len ? data[pos] : crc[pos - len]))
				return 1;
	}
	return 0;
}

static int write_entry(struct fc_nvs *fs, uint16_t id, const uint8_t *data, uint32_t len)
{
	uint16_t offset = (uint16_t)offs(fs->data_wra);
	uint32_t stored = len + (len ? crc_size(fs) : 0);
	int rc = data_write(fs, data, len, fs->cfg.data_crc);

	return rc ? rc : ate_write(fs, id, offset, (uint16_t)stored);
}

static int write_locked(struct fc_nvs *fs, uint16_t id, const uint8_t *data, uint32_t len,
			unsigned int hints)
{
	uint32_t old_addr, required = 0;
	struct ate old;
	int found, rc;

	found = find_newest(fs, id, &old_addr, &old, true, !(hints & FC_NVS_HINT_ABSENT));
	if (found < 0)
		return found;
	if (found) {
		if (!len && !old.len)
			return 0;
		if (len && !hints && old.len == len + crc_size(fs)) {
			rc = value_cmp(fs, mkaddr(sect(old_addr), old.offset), data, len, old.len);
			if (rc <= 0)
				return rc;
		}
	} else if (!len) {
		return 0;
	}
	if (len)
		required = al(fs, len) + fs->ate_size + crc_size(fs);
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
	rc = write_entry(fs, id, data, len);
	if (rc)
		return rc;
	if (found && old.len && !fs->live_unknown)
		fs->live_bytes -= entry_bytes(fs, old.len);
	if (len && !fs->live_unknown)
		fs->live_bytes += entry_bytes(fs, (uint16_t)(len + crc_size(fs)));
	return (int)len;
}

int fc_nvs_write_hint(struct fc_nvs *fs, uint16_t id, const void *data, size_t len,
		      unsigned int hints)
{
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	if (id == ID_SPECIAL || (len && !data) ||
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

int fc_nvs_read_hist(struct fc_nvs *fs, uint16_t id, void *data, size_t len, uint16_t cnt)
{
	uint32_t addr, vlen;
	struct ate a;
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	if (len && !data)
		return FC_EINVAL;
	rc = find_newest(fs, id, &addr, &a, true, true);
	for (uint16_t k = 0; rc > 0 && k < cnt; k++) {
		struct slot_win w = { .len = 0, .up = true };
		uint32_t older = addr;
		struct ate skip;

		rc = walk_prev(fs, &w, &older, &skip);
		if (!rc)
			rc = older == fs->ate_wra ? 0 : walk_find(fs, older, id, NO_ADDR, &addr, &a);
	}
	if (rc < 0)
		return rc;
	if (!rc || !a.len || a.len < crc_size(fs))
		return FC_ENOENT;
	vlen = a.len - crc_size(fs);
	addr = mkaddr(sect(addr), a.offset);
	rc = flash_rd(fs, addr, data, FC_MIN((uint32_t)len, vlen));
	if (rc)
		return rc;
	if (fs->cfg.data_crc && len >= vlen) {
		uint8_t crc[CRC_SIZE];

		rc = flash_rd(fs, addr + vlen, crc, CRC_SIZE);
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

/* Zephyr's free-space count: for each ATE, a walk to its id's newest ATE. */
static int zephyr_free_space(struct fc_nvs *fs, uint32_t *space)
{
	struct slot_win w = { .len = 0 }; /* unused: Zephyr mode reads ATE by ATE */
	uint32_t step = fs->ate_wra, steps = 0;
	struct ate sa, wa;
	int rc;

	do {
		uint32_t wlk = fs->ate_wra, inner = 0;

		rc = walk_prev(fs, &w, &step, &sa);
		if (rc)
			return rc;
		do {
			rc = walk_prev(fs, &w, &wlk, &wa);
			if (rc)
				return rc;
			if (++inner > max_steps(fs))
				return FC_ECORRUPT;
		} while (wa.id != sa.id && wlk != fs->ate_wra);
		if (ate_valid(fs, &sa)) {
			if (!sa.len)
				*space -= sa.id == ID_SPECIAL ? fs->ate_size : 0;
			else if (wlk == step)
				*space -= entry_bytes(fs, sa.len);
		}
		if (++steps > max_steps(fs))
			return FC_ECORRUPT;
	} while (step != fs->ate_wra);
	return 0;
}

/*
 * Counting the live bytes after a mount whose index overflowed. An indexed
 * id is live at the ATE the index names. A refused id is live at its first
 * valid ATE in scan order (newest first); with no memory to spare for every
 * id, each pass remembers the ids of one group of GROUP_IDS in a bitmap and
 * the next group holding refused ids, so the passes are as many as the
 * groups in use, each reading the ATE areas once.
 */
#define GROUP_SHIFT 10u
#define GROUP_IDS (1u << GROUP_SHIFT)
#define GROUPS (0x10000u >> GROUP_SHIFT)
#define NO_GROUP UINT32_MAX

struct live_count {
	uint32_t bytes;
	uint32_t pass;
	uint32_t first; /* group of the first refused ATE: groups are taken in order from it */
	uint32_t group; /* counted in this pass (NO_GROUP until the first pass meets one) */
	uint32_t next;  /* the nearest later group holding refused ids */
	uint8_t seen[GROUP_IDS / 8];
};

/* Position of a group in the order of passes. */
static uint32_t group_rank(const struct live_count *c, uint32_t g)
{
	return g == NO_GROUP ? GROUPS : (g + GROUPS - c->first) % GROUPS;
}

static int count_slot(struct fc_nvs *fs, uint32_t addr, const struct ate *a, void *arg)
{
	struct live_count *c = arg;
	uint32_t v, g = a->id >> GROUP_SHIFT, bit = a->id & (GROUP_IDS - 1u);

	if (!ate_valid(fs, a) || a->id == ID_SPECIAL)
		return 0;
	if (fc_cache_peek(&fs->index, a->id, &v)) {
		if (!c->pass && v == addr && a->len)
			c->bytes += entry_bytes(fs, a->len);
		return 0;
	}
	if (c->group == NO_GROUP)
		c->group = c->first = g;
	if (g != c->group) {
		if (group_rank(c, g) > group_rank(c, c->group) &&
		    group_rank(c, g) < group_rank(c, c->next))
			c->next = g;
		return 0;
	}
	if (c->seen[bit / 8] & 1u << bit % 8)
		return 0;
	c->seen[bit / 8] |= (uint8_t)(1u << bit % 8);
	if (a->len)
		c->bytes += entry_bytes(fs, a->len);
	return 0;
}

static int live_recount(struct fc_nvs *fs)
{
	struct live_count c = { .bytes = 0, .pass = 0, .first = 0, .group = NO_GROUP };

	do {
		int rc;

		FC_MEMSET(c.seen, 0, sizeof(c.seen));
		c.next = NO_GROUP;
		rc = for_each_slot(fs, count_slot, &c);
		if (rc)
			return rc;
		c.group = c.next;
		c.pass++;
	} while (c.group != NO_GROUP);
	fs->live_bytes = c.bytes;
	fs->live_unknown = false;
	return 0;
}

int fc_nvs_calc_free_space(struct fc_nvs *fs)
{
	uint32_t space;
	int rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	space = (fs->cfg.sector_count - 1u) * (ssize(fs) - 2 * fs->ate_size);
	if (zephyr_mode(fs)) {
		rc = zephyr_free_space(fs, &space);
		if (rc)
			return rc;
	} else {
		uint32_t used;

		if (fs->live_unknown) {
			rc = live_recount(fs);
			if (rc)
				return rc;
		}
		used = fs->live_bytes + fs->gc_done_ates * fs->ate_size;

		/* garbage can claim more than the partition holds */
		space = used < space ? space - used : 0;
	}
	return (int)FC_MIN(space, (uint32_t)INT_MAX);
}

int fc_nvs_sector_max_data_size(struct fc_nvs *fs)
{
	uint32_t room;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	room = fs->ate_wra >= fs->data_wra ? fs->ate_wra - fs->data_wra : 0;
	if (room < fs->ate_size + crc_size(fs))
		return 0;
	return (int)(room - fs->ate_size - crc_size(fs));
}

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

/* ---- read-only walk for tools ---- */

struct walk_sector {
	uint32_t s, low; /* sector, lowest ATE slot listed */
	bool in_log;     /* its ATEs belong to the log */
	struct ate close;
	struct fc_nvs_sector_info info;
};

/*
 * What the walk learns of an ATE slot, kept in the caller's ops->slot_bits
 * (2 bits a slot) so a later pass neither recomputes the crc8 nor probes the
 * index again.
 */
#define SLOT_CRC_OK 1u
#define SLOT_LIVE 2u

struct walk_bits {
	uint32_t *words; /* NULL: flags are recomputed on every pass */
};

static void walk_bits_init(const struct fc_nvs *fs, const struct fc_nvs_walk_ops *ops,
			   struct walk_bits *wb)
{
	uint32_t units = ssize(fs) * fs->cfg.sector_count / FC_NVS_ATE_BYTES;

	wb->words = ops->slot_bits && ops->slot_bits_words >= units / 16 + 1 ? ops->slot_bits : NULL;
}

/*
 * Slots are at least FC_NVS_ATE_BYTES apart, so a slot's partition offset
 * over that is a unique number for it, and a shift instead of a division.
 */
static uint32_t slot_no(const struct fc_nvs *fs, uint32_t addr)
{
	return (sect(addr) * ssize(fs) + offs(addr)) / FC_NVS_ATE_BYTES;
}

static void bits_put(const struct walk_bits *wb, const struct fc_nvs *fs, uint32_t addr,
		     uint32_t flags)
{
	uint32_t n = slot_no(fs, addr), sh = n % 16 * 2;

	wb->words[n / 16] = (wb->words[n / 16] & ~(3u << sh)) | flags << sh;
}

static uint32_t bits_get(const struct walk_bits *wb, const struct fc_nvs *fs, uint32_t addr)
{
	uint32_t n = slot_no(fs, addr);

	return wb->words[n / 16] >> (n % 16 * 2) & 3u;
}

static bool id_entry(const struct fc_nvs *fs, const struct ate *a)
{
	return ate_valid(fs, a) && a->id != ID_SPECIAL && a->len;
}

/* Flags of a decoded ATE: live when the index holds it as its id's newest. */
static uint32_t slot_flags(struct fc_nvs *fs, bool in_log, uint32_t addr, const struct ate *a)
{
	uint32_t v;

	if (!a->crc_ok)
		return 0;
	if (in_log && id_entry(fs, a) && fc_cache_peek(&fs->index, a->id, &v) && v == addr)
		return SLOT_CRC_OK | SLOT_LIVE;
	return SLOT_CRC_OK;
}

/*
 * Index build of the walk, newest first: the ATE the index takes for its id
 * is the live one, noted with the crc8 result so later passes skip both.
 */
static int walk_build_slot(struct fc_nvs *fs, uint32_t addr, const struct ate *a, void *arg)
{
	const struct walk_bits *wb = arg;
	uint32_t flags = a->crc_ok ? SLOT_CRC_OK : 0;
	int rc = 0;

	if (ate_valid(fs, a) && a->id != ID_SPECIAL) {
		uint32_t v = addr | (a->len ? 0 : DEL_FLAG);

		/* room for one more key: no need to look for this one first */
		rc = fs->index.used + 1 < fs->index.nslots
			     ? fc_cache_prefill(&fs->index, a->id, v, FC_CACHE_IF_EMPTY)
			     : index_put(fs, a->id, v, true);
		if (rc == FC_ENOSPC) {
			fs->gap = true;
			rc = 0;
		}
		if (rc > 0 && a->len)
			flags |= SLOT_LIVE;
	}
	bits_put(wb, fs, addr, flags);
	return rc < 0 ? rc : 0;
}

static enum fc_nvs_ate_status slot_status(struct fc_nvs *fs, const struct ate *a, uint32_t flags)
{
	if (!(flags & SLOT_CRC_OK))
		return a->crc8 == erase_value(fs) ? FC_NVS_ATE_TORN : FC_NVS_ATE_CRC_BAD;
	if (!ate_valid(fs, a))
		return FC_NVS_ATE_OUT_OF_BOUNDS;
	if (a->id == ID_SPECIAL)
		return a->len ? FC_NVS_ATE_STALE : FC_NVS_ATE_GC_DONE;
	if (!a->len)
		return FC_NVS_ATE_DELETED;
	return flags & SLOT_LIVE ? FC_NVS_ATE_LIVE : FC_NVS_ATE_STALE;
}

/* Does the value of a (at sector s) match the CRC-32 stored after it? */
static int value_crc_ok(const struct fc_nvs *fs, uint32_t s, const struct ate *a, bool *ok)
{
	uint8_t buf[BLOCK];
	uint32_t vlen = a->len - CRC_SIZE, crc = 0;
	int rc;

	for (uint32_t pos = 0; pos < vlen; pos += sizeof(buf)) {
		uint32_t n = FC_MIN((uint32_t)sizeof(buf), vlen - pos);

		rc = flash_rd(fs, mkaddr(s, a->offset + pos), buf, n);
		if (rc)
			return rc;
		crc = fc_crc32_ieee_update(crc, buf, n);
	}
	rc = flash_rd(fs, mkaddr(s, a->offset + vlen), buf, CRC_SIZE);
	*ok = !rc && fc_get_le32(buf) == crc;
	return rc;
}

/*
 * The flags of the slot at addr: from the bits when the index build noted
 * them (slots of the log), else from its crc8 and the index.
 */
static uint32_t walk_flags(struct fc_nvs *fs, const struct walk_bits *wb, bool in_log,
			   uint32_t addr, const uint8_t *b, struct ate *a)
{
	if (wb->words && in_log)
		return bits_get(wb, fs, addr);
	a->crc_ok = fc_crc8_ccitt(0xff, b, 7) == b[7];
	return slot_flags(fs, in_log, addr, a);
}

/* One pass over a sector's listed slots: count them into ws->info and report each ATE. */
static int walk_slots(struct fc_nvs *fs, struct walk_sector *ws, const struct walk_bits *wb,
		      const struct fc_nvs_walk_ops *ops, void *ctx)
{
	struct slot_win w = { .len = 0 };
	struct fc_nvs_sector_info *si = &ws->info;
	uint32_t data_end = 0, win_end = 0; /* offset just past the window */
	uint32_t top = ssize(fs) - fs->ate_size;
	struct ate a;
	int rc;

	for (uint32_t o = offs(ws->low); o <= top_slot(fs); o += fs->ate_size) {
		struct fc_nvs_ate_info ai;
		const uint8_t *b;
		uint32_t flags;

		ai.addr = mkaddr(ws->s, o);
		/* slots go up and a window starts at or below the slot it is read for */
		if (o + FC_NVS_ATE_BYTES > win_end) {
			rc = win_fill(fs, &w, ai.addr);
			if (rc)
				return rc;
			win_end = offs(w.addr) + w.len;
		}
		b = w.buf + (o - offs(w.addr));
		ate_fields(fs, b, &a);
		if (a.erased)
			continue;
		flags = walk_flags(fs, wb, ws->in_log, ai.addr, b, &a);
		a.crc_ok = flags & SLOT_CRC_OK;
		ai.status = slot_status(fs, &a, flags);
		if (ate_valid(fs, &a))
			data_end = FC_MAX(data_end, al(fs, (uint32_t)a.offset + a.len));
		si->live += ai.status == FC_NVS_ATE_LIVE;
		si->stale += ai.status == FC_NVS_ATE_STALE;
		si->deleted += ai.status == FC_NVS_ATE_DELETED;
		si->bad += ai.status == FC_NVS_ATE_CRC_BAD || ai.status == FC_NVS_ATE_TORN ||
			   ai.status == FC_NVS_ATE_OUT_OF_BOUNDS;
		si->gc_done |= ai.status == FC_NVS_ATE_GC_DONE;
		if (!ops->ate)
			continue;
		ai.id = a.id;
		ai.offset = a.offset;
		ai.len = a.len;
		ai.part = a.part;
		ai.crc8 = a.crc8;
		ai.data_crc_ok = false;
		if (fs->cfg.data_crc && a.len >= CRC_SIZE &&
		    (ai.status == FC_NVS_ATE_LIVE || ai.status == FC_NVS_ATE_STALE)) {
			rc = value_crc_ok(fs, ws->s, &a, &ai.data_crc_ok);
			if (rc)
				return rc;
		}
		rc = ops->ate(ctx, &ai);
		if (rc)
			return rc;
	}
	si->used_bytes = data_end + (top - FC_MIN(offs(ws->low), top)) +
			 (ws->close.erased ? 0 : fs->ate_size);
	si->free_bytes = offs(ws->low) > data_end ? offs(ws->low) - data_end : 0;
	return 0;
}

static int walk_close(const struct walk_sector *ws, const struct fc_nvs_walk_ops *ops, void *ctx,
		      struct fc_nvs *fs)
{
	struct fc_nvs_ate_info ai;

	if (ws->close.erased || !ops->ate)
		return 0;
	ai.addr = mkaddr(ws->s, ssize(fs) - fs->ate_size);
	ai.id = ws->close.id;
	ai.offset = ws->close.offset;
	ai.len = ws->close.len;
	ai.part = ws->close.part;
	ai.crc8 = ws->close.crc8;
	ai.status = close_valid(fs, &ws->close)
			    ? FC_NVS_ATE_CLOSE
			    : slot_status(fs, &ws->close, slot_flags(fs, ws->in_log, ai.addr, &ws->close));
	ai.data_crc_ok = false;
	return ops->ate(ctx, &ai);
}

/* Lowest slot to list in a sector: the log's ATEs, else down to the first erased slot. */
static int walk_low(struct fc_nvs *fs, struct walk_sector *ws)
{
	struct slot_win w = { .len = 0 };
	uint32_t o;
	struct ate a;
	int rc;

	if (sect(fs->ate_wra) == ws->s) {
		ws->low = fs->ate_wra + fs->ate_size;
		return 0;
	}
	if (ws->in_log)
		return sector_low(fs, &w, ws->s, &ws->close, &ws->low);
	for (o = top_slot(fs);; o -= fs->ate_size) {
		rc = win_ate(fs, &w, mkaddr(ws->s, o), &a);
		if (rc)
			return rc;
		if (a.erased || o < fs->ate_size)
			break;
	}
	ws->low = mkaddr(ws->s, a.erased ? o + fs->ate_size : o);
	return 0;
}

int fc_nvs_walk(const struct fc_nvs_config *cfg, const struct fc_nvs_walk_ops *ops, void *ctx)
{
	struct fc_nvs fs;
	struct walk_bits wb;
	uint32_t wsec, n, log_len = 0;
	int rc = check_config(cfg);

	if (rc || !ops)
		return FC_EINVAL;
	if (!cfg->index_slot_count)
		return FC_ENOMEM;
	FC_MEMSET(&fs, 0, sizeof(fs));
	fs.cfg = *cfg;
	fs.cfg.lookup = FC_NVS_LOOKUP_INDEX;
	fs.ate_size = FC_MAX(FC_NVS_ATE_BYTES, cfg->flash->geo.write_size);
	n = cfg->sector_count;
	rc = find_write_sector(&fs, &wsec);
	if (!rc)
		rc = find_write_pointers(&fs, wsec);
	if (!rc)
		rc = skip_dirty_data(&fs);
	if (!rc)
		rc = fc_cache_init(&fs.index, FC_CACHE_PROBE, cfg->index_slots, cfg->index_slot_count);
	walk_bits_init(&fs, ops, &wb);
	if (!rc)
		rc = wb.words ? for_each_slot(&fs, walk_build_slot, &wb)
			      : for_each_slot(&fs, build_slot, NULL);
	if (rc)
		return rc;
	if (fs.gap)
		return FC_ENOMEM;
	/* how many sectors behind the write sector still belong to the log */
	for (uint32_t s = prev_sector(&fs, wsec); s != wsec; s = prev_sector(&fs, s)) {
		struct ate close;

		rc = close_read(&fs, s, &close);
		if (rc)
			return rc;
		if (close.erased)
			break;
		log_len++;
	}
	for (uint32_t age = 0; age < n; age++) {
		struct walk_sector ws;
		uint32_t end;

		FC_MEMSET(&ws, 0, sizeof(ws));
		ws.s = (wsec + 1 + age) % n;
		ws.in_log = (wsec + n - ws.s) % n <= log_len;
		ws.info.sector = (uint16_t)ws.s;
		ws.info.age = (uint16_t)age;
		rc = close_read(&fs, ws.s, &ws.close);
		if (rc)
			return rc;
		if (!ws.close.erased)
			ws.info.state = close_valid(&fs, &ws.close) ? FC_NVS_SECTOR_CLOSED
								     : FC_NVS_SECTOR_CORRUPT;
		else {
			rc = dirty_end(&fs, mkaddr(ws.s, 0), ssize(&fs), &end);
			if (rc)
				return rc;
			ws.info.state = end ? FC_NVS_SECTOR_OPEN : FC_NVS_SECTOR_ERASED;
		}
		ws.low = mkaddr(ws.s, ssize(&fs) - fs.ate_size);
		if (ws.info.state != FC_NVS_SECTOR_ERASED)
			rc = walk_low(&fs, &ws);
		if (!rc)
			rc = walk_close(&ws, ops, ctx, &fs);
		if (!rc)
			rc = walk_slots(&fs, &ws, &wb, ops, ctx);
		if (!rc && ws.s == wsec)
			ws.info.free_bytes = offs(fs.ate_wra) + fs.ate_size - offs(fs.data_wra);
		if (!rc && ops->sector)
			rc = ops->sector(ctx, &ws.info);
		if (rc)
			return rc;
	}
	return 0;
}
