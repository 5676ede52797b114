/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_walk.c - a read-only walk over an NVS partition for tools: every
 * sector's state and counts, every ATE slot with its verdict (live, stale,
 * deleted, damaged), located as mount locates the log but never writing.
 */
#include "nvs_int.h"

struct walk_sector {
	uint32_t s, low; /* sector, lowest ATE slot listed */
	bool in_log;     /* its ATEs belong to the log */
	struct fc_nvs_ate close;
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

static bool id_entry(const struct fc_nvs *fs, const struct fc_nvs_ate *a)
{
	return ate_valid(fs, a) && a->id != FC_NVS_ID_SPECIAL && a->len;
}

/* Flags of a decoded ATE: live when the index holds it as its id's newest. */
static uint32_t slot_flags(struct fc_nvs *fs, bool in_log, uint32_t addr, const struct fc_nvs_ate *a)
{
	uint32_t v;

	if (!a->crc_ok)
		return 0;
	if (in_log && id_entry(fs, a) && nvs_index_get_(fs, a->id, &v) && v == addr)
		return SLOT_CRC_OK | SLOT_LIVE;
	return SLOT_CRC_OK;
}

/*
 * Index build of the walk, newest first: the ATE the index takes for its id
 * is the live one, noted with the crc8 result so later passes skip both.
 */
static int walk_build_slot(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a, void *arg)
{
	const struct walk_bits *wb = arg;
	uint32_t flags = a->crc_ok ? SLOT_CRC_OK : 0;
	int rc = 0;

	if (ate_valid(fs, a) && a->id != FC_NVS_ID_SPECIAL) {
		uint32_t v = addr | (a->len ? 0 : NVS_DEL_FLAG);

		rc = nvs_index_put_(fs, a->id, v, true);
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

static enum fc_nvs_ate_status slot_status(struct fc_nvs *fs, const struct fc_nvs_ate *a, uint32_t flags)
{
	if (!(flags & SLOT_CRC_OK))
		return a->crc8 == erase_value(fs) ? FC_NVS_ATE_TORN : FC_NVS_ATE_CRC_BAD;
	if (a->part != FC_NVS_ATE_PART)
		return FC_NVS_ATE_TORN;
	if (!ate_valid(fs, a))
		return FC_NVS_ATE_OUT_OF_BOUNDS;
	if (a->id == FC_NVS_ID_SPECIAL)
		return a->len ? FC_NVS_ATE_STALE : FC_NVS_ATE_GC_DONE;
	if (!a->len)
		return FC_NVS_ATE_DELETED;
	return flags & SLOT_LIVE ? FC_NVS_ATE_LIVE : FC_NVS_ATE_STALE;
}

/* Does the value of a (at sector s) match the CRC-32 stored after it? */
static int value_crc_ok(const struct fc_nvs *fs, uint32_t s, const struct fc_nvs_ate *a, bool *ok)
{
	uint8_t buf[NVS_BLOCK];
	uint32_t vlen = a->len - NVS_CRC_SIZE, crc = 0;
	int rc;

	for (uint32_t pos = 0; pos < vlen; pos += sizeof(buf)) {
		uint32_t n = FC_MIN((uint32_t)sizeof(buf), vlen - pos);

		rc = nvs_read_(fs, mkaddr(s, a->offset + pos), buf, n);
		if (rc)
			return rc;
		crc = fc_crc32_ieee_update(crc, buf, n);
	}
	rc = nvs_read_(fs, mkaddr(s, a->offset + vlen), buf, NVS_CRC_SIZE);
	*ok = !rc && fc_get_le32(buf) == crc;
	return rc;
}

/*
 * The flags of the slot at addr: from the bits when the index build noted
 * them (slots of the log), else from its crc8 and the index.
 */
static uint32_t walk_flags(struct fc_nvs *fs, const struct walk_bits *wb, bool in_log,
			   uint32_t addr, const uint8_t *b, struct fc_nvs_ate *a)
{
	if (wb->words && in_log)
		return bits_get(wb, fs, addr);
	a->crc_ok = nvs_ate_crc_ok_(b);
	return slot_flags(fs, in_log, addr, a);
}

/* One pass over a sector's listed slots: count them into ws->info and report each ATE. */
static int walk_slots(struct fc_nvs *fs, struct walk_sector *ws, const struct walk_bits *wb,
		      const struct fc_nvs_walk_ops *ops, void *ctx)
{
	struct fc_nvs_sector_info *si = &ws->info;
	uint32_t data_end = 0;
	uint32_t top = close_slot(fs);
	uint8_t raw[FC_NVS_ATE_BYTES];
	struct fc_nvs_ate a;
	int rc;

	nvs_win_reset_(fs);
	for (uint32_t o = offs(ws->low); o <= top_slot(fs); o += fs->ate_size) {
		struct fc_nvs_ate_info ai;
		const uint8_t *b;
		uint32_t flags;

		ai.addr = mkaddr(ws->s, o);
		rc = nvs_slot_raw_(fs, ai.addr, false, raw, &b);
		if (rc)
			return rc;
		nvs_ate_fields_(b, erase_value(fs), &a);
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
		if (NVS_DATA_CRC(fs) && a.len >= NVS_CRC_SIZE &&
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
	ai.addr = mkaddr(ws->s, close_slot(fs));
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
	uint32_t o;
	struct fc_nvs_ate a;
	int rc;

	if (sect(fs->ate_wra) == ws->s) {
		ws->low = fs->ate_wra + fs->ate_size;
		return 0;
	}
	nvs_win_reset_(fs);
	if (ws->in_log)
		return nvs_sector_low_(fs, ws->s, &ws->close, &ws->low);
	for (o = top_slot(fs);; o -= fs->ate_size) {
		rc = nvs_win_ate_(fs, mkaddr(ws->s, o), false, &a);
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
	struct fc_nvs_config icfg;
	struct fc_nvs fs;
	struct walk_bits wb;
	uint32_t wsec, n, log_len = 0;
	int rc;

	if (!ops || nvs_check_config_(cfg) < 0)
		return FC_EINVAL;
	/* the log is located as the engine's own mount locates it */
	icfg = *cfg;
	icfg.lookup = FC_NVS_LOOKUP_INDEX;
	if (!cfg->index_slot_count)
		return FC_ENOMEM;
	n = cfg->sector_count;
	rc = nvs_locate_(&fs, &icfg);
	wsec = sect(fs.ate_wra);
	if (!rc)
		rc = fc_cache_init(&fs.index, FC_CACHE_PROBE, cfg->index_slots, cfg->index_slot_count);
	walk_bits_init(&fs, ops, &wb);
	if (!rc)
		rc = wb.words ? nvs_for_each_slot_(&fs, walk_build_slot, &wb)
			      : nvs_for_each_slot_(&fs, nvs_index_slot_, NULL);
	if (rc)
		return rc;
	if (fs.gap)
		return FC_ENOMEM;
	/* how many sectors behind the write sector still belong to the log */
	for (uint32_t s = prev_sector(&fs, wsec); s != wsec; s = prev_sector(&fs, s)) {
		struct fc_nvs_ate close;

		rc = nvs_close_read_(&fs, s, &close);
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
		rc = nvs_close_read_(&fs, ws.s, &ws.close);
		if (rc)
			return rc;
		if (!ws.close.erased)
			ws.info.state = close_valid(&fs, &ws.close) ? FC_NVS_SECTOR_CLOSED
								     : FC_NVS_SECTOR_CORRUPT;
		else {
			rc = nvs_dirty_end_(&fs, mkaddr(ws.s, 0), ssize(&fs), &end);
			if (rc)
				return rc;
			ws.info.state = end ? FC_NVS_SECTOR_OPEN : FC_NVS_SECTOR_ERASED;
		}
		ws.low = mkaddr(ws.s, close_slot(&fs));
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
