/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_lone.c - the sector size of a ZMS partition in which one sector was
 * ever used (a young device: its first mount gave sector 0 its empty ATE,
 * the other sectors are still erased). The header's place tells only where
 * that sector ends. Partitions are aligned to their sectors in the flash,
 * so the size is a power of two dividing that end; of those, the one whose
 * sector reads as ZMS: libcore's walk over that sector alone names every
 * value's bytes, and every other byte below the ATEs must be erased (a
 * larger guess reaches below the partition, a smaller one places values
 * in the erased middle of the sector).
 */
#include "zms_inspect.h"

#include <string.h>

#define LONE_MIN_SECTOR 1024u
#define LONE_MAX_SECTOR 65536u

/* How well one candidate size explains the sector's bytes. */
struct lone_fit {
	uint32_t crc_ok; /* values whose CRC-32 matches */
	uint64_t stray;  /* non-erased bytes no ATE names, and values that cannot be there */
};

struct lone_walk {
	const struct zms_inspect *z;
	const uint8_t *sec;  /* the candidate sector */
	uint32_t inline_max, ate_low;
	uint8_t *named;      /* per byte of the sector: a value an ATE names */
	struct lone_fit fit;
};

static int lone_ate(void *ctx, const struct fc_zms_ate_info *a)
{
	struct lone_walk *w = ctx;
	uint32_t ss = w->z->sector_size, at = zms_addr_offset(w->z, a->addr);

	if (zms_addr_sector(w->z, a->addr) != 0)
		return 0;
	if (at < w->ate_low)
		w->ate_low = at;
	if (a->status == FC_ZMS_ATE_BAD || a->status == FC_ZMS_ATE_GC_DONE ||
	    a->len <= w->inline_max)
		return 0;
	/* outside the sector, or in its free space: not where this size puts it */
	if ((uint64_t)a->offset + a->len > ss ||
	    nvs_erased(w->sec + a->offset, a->len, w->z->erase_value)) {
		w->fit.stray += a->len;
		return 0;
	}
	memset(w->named + a->offset, 1, a->len);
	w->fit.crc_ok += a->data_crc_ok;
	return 0;
}

/* The sector [end - ss, end) walked as sector 0 of a two-sector partition. */
static bool lone_try(const uint8_t *img, uint32_t end, uint32_t ss, uint32_t as, bool id64,
		     uint8_t ev, struct lone_fit *fit)
{
	struct zms_inspect z;
	struct fc_flash_geometry geo = { 2 * ss, ss, as == 32 ? 32 : 1, ev };
	struct fc_rom_flash rom;
	struct fc_zms_walk_ops ops = { NULL, lone_ate };
	uint32_t nslots = 2 * ss / as * 2, i; /* a power of two above the slots */
	uint8_t *view = g_malloc(2 * (size_t)ss);
	struct fc_zms_slot *slots = g_new(struct fc_zms_slot, nslots);
	struct lone_walk w = { &z, view, id64 ? 4 : 8, ss, g_malloc0(ss), { 0, 0 } };
	struct fc_zms_config cfg;
	int rc;

	memcpy(view, img + end - ss, ss);
	memset(view + ss, ev, ss);
	memset(&z, 0, sizeof(z));
	z.sector_size = ss;
	z.sectors = 2;
	z.erase_value = ev;
	z.id64 = id64;
	z.data_crc = !id64;
	rc = fc_rom_flash_init(&rom, &geo, view);
	if (rc >= 0) {
		cfg = zms_inspect_config(&z, &rom.dev, slots, nslots);
		rc = fc_zms_walk(&cfg, &ops, &w);
	}
	for (i = 0; i < w.ate_low; i++)
		w.fit.stray += !w.named[i] && view[i] != ev;
	*fit = w.fit;
	g_free(w.named);
	g_free(slots);
	g_free(view);
	return rc == 0;
}

static int lone_cmp(const struct lone_fit *a, const struct lone_fit *b)
{
	if (a->crc_ok != b->crc_ok)
		return a->crc_ok > b->crc_ok ? -1 : 1;
	return a->stray < b->stray ? -1 : a->stray > b->stray;
}

uint32_t zms_lone_sector_size(const uint8_t *img, uint32_t end, uint32_t as, bool id64,
			      uint8_t ev, uint32_t *ties)
{
	struct lone_fit best = { 0, UINT64_MAX }, fit;
	uint32_t ss, best_ss = 0;

	*ties = 0;
	/* from the largest: a smaller size must explain the bytes better to win */
	for (ss = LONE_MAX_SECTOR; ss >= LONE_MIN_SECTOR; ss >>= 1) {
		int c;

		if (end % ss || ss > end || ss < FC_ZMS_MIN_ATES * as ||
		    !lone_try(img, end, ss, as, id64, ev, &fit))
			continue;
		c = lone_cmp(&fit, &best);
		if (c < 0) {
			best = fit;
			best_ss = ss;
			*ties = 0;
		} else if (c == 0) {
			(*ties)++;
		}
	}
	return best_ss;
}
