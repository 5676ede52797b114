/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * walk.c - the data CRC decision and the walk of the dump (libcore's
 * fc_nvs_walk): sector states and counts, ATEs with their status, data CRCs.
 */
#include "inspect.h"

#include <string.h>

#include "fdtcache/crc.h"

bool is_record(const struct fc_nvs_ate_info *a)
{
	return a->status == FC_NVS_ATE_LIVE || a->status == FC_NVS_ATE_STALE;
}

/* crc8 and bounds good: an ATE a mount takes into account */
static bool ate_valid(const struct fc_nvs_ate_info *a)
{
	return is_record(a) || a->status == FC_NVS_ATE_DELETED || a->status == FC_NVS_ATE_CLOSE ||
	       a->status == FC_NVS_ATE_GC_DONE;
}

/*
 * With data CRC on: 1 when the value passed its CRC-32 in the walk, 0 if
 * not; -1 when that does not apply (CRC off, no value).
 */
int value_crc_state(const struct inspect *in, const struct fc_nvs_ate_info *a)
{
	if (!in->data_crc || !is_record(a) || a->len < 4)
		return -1;
	return a->data_crc_ok;
}

/* Up to CRC_VOTES stored values vote on --data-crc auto, before the walk. */
static int vote_slot(void *ctx, uint32_t sector, uint32_t slot, const struct fc_nvs_ate *a)
{
	struct inspect *in = ctx;
	const uint8_t *d = sector_bytes(in, sector) + a->offset;

	if (!fc_nvs_ate_valid(a, in->geo.geo.sector_size, in->geo.geo.ate_size) ||
	    a->id == FC_NVS_ID_SPECIAL || a->len == 0 || (uint32_t)a->offset + a->len > slot)
		return 0;
	in->crc_checked++;
	if (a->len < 4)
		in->crc_short++;
	else
		in->crc_matched += fc_crc32_ieee(d, a->len - 4u) == fc_get_le32(d + a->len - 4);
	return in->crc_checked >= CRC_VOTES;
}

void vote_data_crc(struct inspect *in)
{
	nvs_stack_foreach(in->part, &in->geo.geo, vote_slot, in);
}

/* Every valid ATE of the dump counts, and names a --live candidate id. */
static void note_ate(struct inspect *in, uint16_t id)
{
	in->stack_ates++;
	if (id != FC_NVS_ID_SPECIAL)
		in->ids[id / 8] |= (uint8_t)(1u << (id % 8));
}

/* The same from the raw stacks, when the walk refuses the partition. */
static int note_slot(void *ctx, uint32_t sector, uint32_t slot, const struct fc_nvs_ate *a)
{
	(void)sector;
	(void)slot;
	if (a->crc_ok)
		note_ate(ctx, a->id);
	return 0;
}

/* A sector's info comes after its ATEs: check them now, then forget them. */
static int walk_sector_cb(void *ctx, const struct fc_nvs_sector_info *info)
{
	struct inspect *in = ctx;

	if (info->sector < in->sectors->len)
		g_array_index(in->sectors, struct fc_nvs_sector_info, info->sector) = *info;
	if (in->check_sectors) {
		check_sector(in, info->sector, in->sector_recs);
		g_array_set_size(in->sector_recs, 0);
	}
	return 0;
}

static int walk_ate_cb(void *ctx, const struct fc_nvs_ate_info *info)
{
	struct inspect *in = ctx;
	struct ate_rec r = { *info, in->seq++ };

	if (ate_valid(info))
		note_ate(in, info->id);
	if (in->keep_ates)
		g_array_append_val(in->ates, r);
	if (in->check_sectors)
		g_array_append_val(in->sector_recs, r);
	return 0;
}

/* Sector states from the raw bytes, when the walk refuses the partition. */
static void raw_sector_states(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	uint32_t s;

	for (s = 0; s < g->sector_count; s++) {
		struct fc_nvs_sector_info *si = &g_array_index(in->sectors,
							       struct fc_nvs_sector_info, s);
		const uint8_t *close = sector_bytes(in, s) + g->sector_size - g->ate_size;
		struct fc_nvs_ate a;

		memset(si, 0, sizeof(*si));
		si->sector = (uint16_t)s;
		si->age = (uint16_t)s;
		fc_nvs_ate_decode(close, g->erase_value, &a);
		if (nvs_erased(sector_bytes(in, s), g->sector_size, g->erase_value))
			si->state = FC_NVS_SECTOR_ERASED;
		else if (nvs_erased(close, g->ate_size, g->erase_value))
			si->state = FC_NVS_SECTOR_OPEN;
		else if (fc_nvs_ate_close_valid(&a, g->sector_size, g->ate_size))
			si->state = FC_NVS_SECTOR_CLOSED;
		else
			si->state = FC_NVS_SECTOR_CORRUPT;
	}
}

/* The walk of the dump, with the data CRC decided (the walk checks each value's). */
void walk_dump(struct inspect *in)
{
	struct fc_nvs_config cfg = nvs_config(in, &in->rom.dev, in->scratch, in->walk_read_buf);
	uint32_t words = FC_NVS_WALK_BITS_WORDS(cfg.sector_size, cfg.sector_count);
	struct fc_nvs_walk_ops ops = { .sector = walk_sector_cb, .ate = walk_ate_cb };
	int rc;

	/* each ATE's crc8 and live check once, not once per pass of the walk */
	ops.slot_bits = g_new(uint32_t, words);
	ops.slot_bits_words = words;
	g_array_set_size(in->sectors, in->geo.geo.sector_count);
	rc = fc_nvs_walk(&cfg, &ops, in);
	g_free(ops.slot_bits);
	if (rc < 0) {
		verdict(in, SEV_ERROR, "walk-fails", -1, -1,
			"the partition cannot be walked (%s): sector states below come from the "
			"close slots alone",
			fc_strerror(rc));
		g_array_set_size(in->ates, 0);
		free_verdicts(in->sector_verdicts);
		free_salvage(in->salvage);
		g_array_set_size(in->sector_recs, 0);
		in->walk_failed = true;
		memset(in->ids, 0, sizeof(in->ids));
		in->stack_ates = 0;
		nvs_stack_foreach(in->part, &in->geo.geo, note_slot, in);
		raw_sector_states(in);
	}
}

/* --data-crc auto: values carry a CRC-32 when most of them end with theirs. */
int decide_data_crc(struct inspect *in)
{
	const char *mode = in->opt.data_crc ? in->opt.data_crc : "auto";

	if (!strcmp(mode, "on") || !strcmp(mode, "off")) {
		in->data_crc = !strcmp(mode, "on");
		g_snprintf(in->crc_reason, sizeof(in->crc_reason), "%s (given)", mode);
		return 0;
	}
	if (strcmp(mode, "auto"))
		return -1;
	if (in->crc_checked == 0) {
		in->data_crc = false;
		g_snprintf(in->crc_reason, sizeof(in->crc_reason),
			   "auto: off (no stored value to judge)");
	} else if (in->crc_short) {
		in->data_crc = false;
		g_snprintf(in->crc_reason, sizeof(in->crc_reason),
			   "auto: off (%u of %u stored values are shorter than a CRC-32)",
			   in->crc_short, in->crc_checked);
	} else {
		in->data_crc = in->crc_matched * 2 > in->crc_checked;
		g_snprintf(in->crc_reason, sizeof(in->crc_reason),
			   "auto: %s (%u of %u stored values sampled end with the CRC-32 of their "
			   "bytes)",
			   in->data_crc ? "on" : "off", in->crc_matched, in->crc_checked);
	}
	return 0;
}
