/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * salvage.c - unverified values readable from damaged regions: ATEs
 * whose crc8 fails but whose fields make sense, and data without an ATE.
 */
#include "inspect.h"

/* Empty an array of salvage records, freeing their values. */
void free_salvage(GArray *salvage)
{
	guint i;

	for (i = 0; i < salvage->len; i++)
		g_bytes_unref(g_array_index(salvage, struct salvage_rec, i).value);
	g_array_set_size(salvage, 0);
}

/*
 * Does [lo, hi) overlap a value salvaged before in this sector? If not, it
 * is added: in->salvaged holds the sector's salvaged ranges, disjoint and
 * sorted, so no byte is offered twice and --salvage prints at most a
 * sector's worth of values per sector, however many ATEs point at them.
 */
static bool salvaged_before(struct inspect *in, uint32_t lo, uint32_t hi)
{
	GArray *r = in->salvaged;
	guint a = 0, b = r->len;
	struct salvage_range n = { lo, hi };

	while (a < b) { /* first range ending after lo */
		guint m = a + (b - a) / 2;

		if (g_array_index(r, struct salvage_range, m).hi <= lo)
			a = m + 1;
		else
			b = m;
	}
	if (a < r->len && g_array_index(r, struct salvage_range, a).lo < hi)
		return true;
	g_array_insert_val(r, a, n);
	return false;
}

/* A record of len bytes at p (the dump outlives the records: no copy). */
static void add_salvage(struct inspect *in, const char *kind, uint32_t addr, bool has_id,
			uint64_t id, const uint8_t *p, uint32_t len)
{
	struct salvage_rec sr = { kind, addr, has_id, id, g_bytes_new_static(p, len) };

	g_array_append_val(in->salvage, sr);
}

/*
 * The value [lo, lo + len) of sector_data that an ATE at addr whose crc8
 * fails names, unless an earlier record of the sector offered its bytes.
 */
void salvage_value(struct inspect *in, uint32_t addr, uint64_t id, const uint8_t *sector_data,
		   uint32_t lo, uint32_t len)
{
	if (!salvaged_before(in, lo, lo + len))
		add_salvage(in, "ate-crc-bad", addr, true, id, sector_data + lo, len);
}

/* An ATE whose crc8 fails but whose fields make sense may still name its value. */
void salvage_ate(struct inspect *in, const struct ate_rec *r)
{
	const struct fc_nvs_ate_info *a = &r->info;
	const struct nvs_geometry *g = &in->geo.geo;

	if (a->status != FC_NVS_ATE_CRC_BAD || a->id == FC_NVS_ID_SPECIAL || a->part != FC_NVS_ATE_PART ||
	    (uint32_t)a->offset + a->len > addr_offset(a->addr) ||
	    a->len > g->sector_size - 4 * g->ate_size)
		return;
	salvage_value(in, a->addr, a->id, sector_bytes(in, addr_sector(a->addr)), a->offset,
		      a->len);
}

/* Bytes that no ATE claims: len of them at addr, p in the dump. */
void salvage_data(struct inspect *in, uint32_t addr, const uint8_t *p, uint32_t len)
{
	add_salvage(in, "data-without-ate", addr, false, 0, p, len);
}
