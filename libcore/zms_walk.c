/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_walk.c - a read-only walk over a ZMS partition, for tools: every
 * sector with its header and, for sectors of the log, every ATE with what
 * the engine makes of it.
 */
#include "zms_int.h"
#include "fdtcache/crc.h"

struct walk {
	struct fc_zms fs;
	const struct fc_zms_walk_ops *ops;
	void *ctx;
};

static enum fc_zms_ate_status ate_status(const struct fc_zms *fs, const struct fc_zms_ate *a,
					 uint32_t addr, uint8_t cycle)
{
	const struct fc_zms_slot *slot;

	if (!zms_valid_(a, cycle))
		return FC_ZMS_ATE_BAD;
	if (a->id == zhead_id(fs))
		return FC_ZMS_ATE_GC_DONE;
	slot = zms_index_get_(fs, a->id);
	if (!slot || (slot->addr & ~ZMS_DEL_FLAG) != addr)
		return FC_ZMS_ATE_STALE;
	return a->len ? FC_ZMS_ATE_LIVE : FC_ZMS_ATE_DELETED;
}

static void count(struct fc_zms_sector_info *si, const struct fc_zms *fs,
		  const struct fc_zms_ate_info *ai)
{
	switch (ai->status) {
	case FC_ZMS_ATE_LIVE:
		si->live++;
		if (ai->len > fs->inline_max)
			si->live_bytes += zal(fs, ai->len);
		break;
	case FC_ZMS_ATE_STALE:
		si->stale++;
		break;
	case FC_ZMS_ATE_DELETED:
		si->deleted++;
		break;
	case FC_ZMS_ATE_BAD:
		si->bad++;
		break;
	case FC_ZMS_ATE_GC_DONE:
		break;
	}
}

/* Report the non-erased slots of sector s from offset lo up. */
static int walk_ates(struct walk *wk, uint32_t s, uint32_t lo, struct fc_zms_sector_info *si)
{
	struct fc_zms *fs = &wk->fs;
	struct fc_zms_ate_info ai;
	struct fc_zms_ate a;

	zms_win_reset_(fs);
	for (uint32_t o = lo; o <= top_slot(fs); o += fs->ate_size) {
		uint32_t at = zaddr(fs, s, o);
		int rc = zms_win_ate_(fs, at, &a);

		if (rc)
			return rc;
		if (zms_erased_(fs, &a))
			continue;
		FC_MEMSET(&ai, 0, sizeof(ai));
		ai.addr = at;
		ai.id = a.id;
		ai.len = a.len;
		ai.offset = a.len > fs->inline_max ? a.offset : 0;
		ai.cycle = zcycle(&a);
		FC_MEMCPY(ai.raw, a.raw, sizeof(ai.raw));
		ai.status = ate_status(fs, &a, at, si->cycle);
		if (ai.status == FC_ZMS_ATE_LIVE) {
			rc = zms_data_crc_ok_(fs, s, &a, &ai.data_crc_ok);
			if (rc)
				return rc;
		}
		count(si, fs, &ai);
		if (wk->ops->ate) {
			rc = wk->ops->ate(wk->ctx, &ai);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* A torn close ATE the engine counts as closed (zms_closed_) is labelled closed too. */
static int sector_info(struct fc_zms *fs, uint32_t s, struct fc_zms_sector_info *si)
{
	const struct fc_zms_ate *empty = &fs->empty;
	int rc = zms_ate_read_(fs, zaddr(fs, s, close_slot(fs)), &fs->close);

	if (rc)
		return rc;
	FC_MEMSET(si, 0, sizeof(*si));
	si->sector = s;
	si->close_cycle = zcycle(&fs->close);
	rc = zms_closed_(fs, s);
	if (rc < 0)
		return rc;
	if (!zms_empty_valid_(fs, empty))
		return 0;
	si->state = rc ? FC_ZMS_SECTOR_CLOSED : FC_ZMS_SECTOR_OPEN;
	si->cycle = zcycle(empty);
	si->format = zhdr_format(empty->raw);
	si->version = zhdr_version(empty->raw);
	return 0;
}

static int report(struct walk *wk, const struct fc_zms_sector_info *si)
{
	return wk->ops->sector ? wk->ops->sector(wk->ctx, si) : 0;
}

/* The next older sector of the log after s, or ZMS_NO_ADDR where the log ends. */
static int older(struct fc_zms *fs, uint32_t s, uint32_t ws, uint32_t *prev, uint32_t *lo)
{
	int rc;

	*prev = zprev(fs, s);
	if (*prev == ws)
		goto end;
	rc = zms_closed_(fs, *prev);
	if (rc < 0)
		return rc;
	if (rc) {
		*lo = fs->close.offset;
		return 0;
	}
end:
	*prev = ZMS_NO_ADDR;
	return 0;
}

int fc_zms_walk(const struct fc_zms_config *cfg, const struct fc_zms_walk_ops *ops, void *ctx)
{
	struct walk wk = { .ops = ops, .ctx = ctx };
	struct fc_zms *fs = &wk.fs;
	struct fc_zms_sector_info si;
	uint32_t n, ws, s, lo, age = 0;
	int rc;

	if (!ops || cfg->lookup != FC_ZMS_LOOKUP_INDEX)
		return FC_EINVAL;
	rc = zms_mount_ro_(fs, cfg);
	if (rc)
		return rc;
	if (fs->index_refused)
		return FC_ENOMEM;
	n = cfg->sector_count;
	ws = zsect(fs, fs->ate_wra);
	lo = zoffs(fs, fs->ate_wra) + fs->ate_size;
	for (s = ws; s != ZMS_NO_ADDR; age++) {
		rc = sector_info(fs, s, &si);
		if (rc)
			return rc;
		if (s == ws)
			si.cycle = fs->sector_cycle;
		si.age = age;
		si.in_log = true;
		rc = walk_ates(&wk, s, lo, &si);
		if (!rc)
			rc = report(&wk, &si);
		if (!rc)
			rc = older(fs, s, ws, &s, &lo);
		if (rc)
			return rc;
	}
	for (; age < n; age++) {
		rc = sector_info(fs, ws >= age ? ws - age : ws + n - age, &si);
		if (rc)
			return rc;
		si.age = age;
		rc = report(&wk, &si);
		if (rc)
			return rc;
	}
	return 0;
}

int fc_zms_header_decode(const void *raw, struct fc_zms_header *h)
{
	const uint8_t *b = raw;
	uint32_t i, id_end;

	if (!b || !h)
		return FC_EINVAL;
	id_end = zhdr_format(b) ? 12 : 8;
	if (zhdr_magic(b) != ZMS_MAGIC || zhdr_format(b) > 1 || fc_get_le16(b + 2) != ZMS_EMPTY_LEN)
		return FC_ENOENT;
	for (i = 4; i < id_end; i++)
		if (b[i] != 0xff)
			return FC_ENOENT; /* the head id, all ones at the format's width */
	if (fc_crc8_ccitt(0xff, b + 1, FC_ZMS_ATE_BYTES - 1) != b[0])
		return FC_ENOENT;
	h->cycle = b[1];
	h->format = zhdr_format(b);
	h->version = zhdr_version(b);
	return h->version == ZMS_VERSION ? 0 : FC_ENOTSUP;
}
