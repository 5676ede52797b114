/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * checks.c - integrity verdicts on the dump: its geometry, each sector
 * as the walk finishes it (ATEs, data CRCs, overlapping data, data without an
 * ATE) and the sequence of sector states.
 */
#include "inspect.h"

#include <string.h>

const char *const severity_names[] = { "error", "warning", "info" };

static void add_verdict(GArray *list, enum severity sev, const char *code, int sector,
			long offset, const char *fmt, va_list ap)
{
	struct verdict v = { sev, code, sector, offset, NULL };

	v.message = g_strdup_vprintf(fmt, ap);
	g_array_append_val(list, v);
}

/* A verdict on the whole image, the mount or the reads. */
void verdict(struct inspect *in, enum severity sev, const char *code, int sector, long offset,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_verdict(in->verdicts, sev, code, sector, offset, fmt, ap);
	va_end(ap);
}

/* A verdict of the per-sector checks, which run during the walk. */
void sector_verdict(struct inspect *in, enum severity sev, const char *code, int sector,
		    long offset, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_verdict(in->sector_verdicts, sev, code, sector, offset, fmt, ap);
	va_end(ap);
}

/* Empty an array of verdicts, freeing their messages. */
void free_verdicts(GArray *verdicts)
{
	guint i;

	for (i = 0; i < verdicts->len; i++)
		g_free(g_array_index(verdicts, struct verdict, i).message);
	g_array_set_size(verdicts, 0);
}

void tally_verdicts(struct inspect *in)
{
	guint i;

	in->errors = in->warnings = 0;
	for (i = 0; i < in->verdicts->len; i++) {
		enum severity sev = g_array_index(in->verdicts, struct verdict, i).sev;

		in->errors += sev == SEV_ERROR;
		in->warnings += sev == SEV_WARNING;
	}
}

static void check_geometry(struct inspect *in)
{
	const struct nvs_geometry_report *g = &in->geo;

	if (g->missing)
		verdict(in, SEV_ERROR, "truncated", -1, (long)(in->file_len - g->geo.offset),
			"the image is %u bytes short of %u sectors of %u bytes (truncated dump?); "
			"the missing bytes read as erased",
			g->missing, g->geo.sector_count, g->geo.sector_size);
	if (g->trailing)
		verdict(in, SEV_WARNING, "trailing-bytes", -1, -1,
			"%u bytes after the last whole sector are ignored (truncated dump or wrong "
			"geometry?)",
			g->trailing);
	if (g->sector_conf == NVS_CONF_LIKELY || g->sector_conf == NVS_CONF_WEAK)
		verdict(in, SEV_INFO, "geometry-guess", -1, -1,
			"sector size %u is %s: %u-byte sectors scored %ld against %ld",
			g->geo.sector_size, nvs_confidence_name(g->sector_conf),
			g->runner_up_sector_size, g->runner_up_score, g->score);
	if (g->ev_conf == NVS_CONF_WEAK)
		verdict(in, SEV_INFO, "erase-value-guess", -1, -1,
			"erase value 0x%02x is a guess: the image reads as NVS under neither 0xff "
			"nor 0x00; give --erase-value",
			g->geo.erase_value);
	else if (g->ev_conf == NVS_CONF_LIKELY)
		verdict(in, SEV_INFO, "erase-value-guess", -1, -1,
			"erase value 0x%02x is likely, not certain: no sector has an erased close "
			"slot under one value only; give --erase-value if it is wrong",
			g->geo.erase_value);
	if (g->wb_conf == NVS_CONF_WEAK)
		verdict(in, SEV_INFO, "write-block-guess", -1, -1,
			"write block %u is a guess: the records fit %s", g->geo.write_block,
			g->wb_options == 0xf ? "any size" : "several sizes equally");
}

static void check_ate(struct inspect *in, const struct ate_rec *r)
{
	const struct fc_nvs_ate_info *a = &r->info;
	uint32_t s = addr_sector(a->addr), off = addr_offset(a->addr);

	switch (a->status) {
	case FC_NVS_ATE_CRC_BAD:
		sector_verdict(in, SEV_ERROR, "ate-crc", (int)s, off,
			"ATE crc8 mismatch (id 0x%04x offset 0x%04x len %u, crc8 0x%02x): skipped",
			a->id, a->offset, a->len, a->crc8);
		break;
	case FC_NVS_ATE_OUT_OF_BOUNDS:
		sector_verdict(in, SEV_ERROR, "ate-bounds", (int)s, off,
			"ATE of id 0x%04x points outside its sector's data area "
			"(offset 0x%04x len %u)",
			a->id, a->offset, a->len);
		break;
	case FC_NVS_ATE_TORN:
		/* a torn close ATE is the sector's bad-close verdict */
		if (off != in->geo.geo.sector_size - in->geo.geo.ate_size)
			sector_verdict(in, SEV_WARNING, "torn-ate", (int)s, off,
				"torn ATE (a write was cut by a power loss): skipped");
		break;
	default:
		break;
	}
	/* with data CRC on, the walk checked the value's CRC-32 */
	if (value_crc_state(in, a) == 0)
		sector_verdict(in, SEV_ERROR, "data-crc", (int)s, a->offset,
			       "data of id 0x%04x (ATE at 0x%04x, %s) fails its CRC-32", a->id, off,
			       a->status == FC_NVS_ATE_LIVE ? "live" : "stale");
}

/* Data order; records at the same offset in walk order, for stable messages. */
static int by_data_offset(gconstpointer pa, gconstpointer pb)
{
	const struct ate_rec *a = *(const struct ate_rec *const *)pa;
	const struct ate_rec *b = *(const struct ate_rec *const *)pb;

	if (a->info.offset != b->info.offset)
		return a->info.offset < b->info.offset ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Records of one sector must not share data bytes: each one is compared with
 * the record reaching furthest among those before it in data order.
 */
static void check_overlaps(struct inspect *in, GPtrArray *recs, uint32_t s)
{
	const struct ate_rec *reach = NULL;
	uint32_t reach_end = 0;
	guint i;

	/* newest first, data grows up: a healthy sector's records come in
	 * strictly descending data order, which only needs reversing */
	for (i = 1; i < recs->len; i++)
		if (((const struct ate_rec *)recs->pdata[i - 1])->info.offset <=
		    ((const struct ate_rec *)recs->pdata[i])->info.offset)
			break;
	if (i == recs->len)
		for (i = 0; i < recs->len / 2; i++) {
			gpointer t = recs->pdata[i];

			recs->pdata[i] = recs->pdata[recs->len - 1 - i];
			recs->pdata[recs->len - 1 - i] = t;
		}
	else
		g_ptr_array_sort(recs, by_data_offset);
	for (i = 0; i < recs->len; i++) {
		const struct ate_rec *n = g_ptr_array_index(recs, i);
		uint32_t end = (uint32_t)n->info.offset + n->info.len;

		if (reach && n->info.offset < reach_end)
			sector_verdict(in, SEV_ERROR, "data-overlap", (int)s, n->info.offset,
				"data of id 0x%04x (ATE at 0x%04x) overlaps data of id 0x%04x "
				"(ATE at 0x%04x)",
				n->info.id, addr_offset(n->info.addr), reach->info.id,
				addr_offset(reach->info.addr));
		if (!reach || end > reach_end) {
			reach = n;
			reach_end = end;
		}
	}
}

/* Lowest offset of the ATE area: the first erased slot below the top. */
static uint32_t ate_area_low(const struct inspect *in, uint32_t s)
{
	const struct nvs_geometry *g = &in->geo.geo;
	const uint8_t *sec = sector_bytes(in, s);
	uint32_t p = g->sector_size - g->ate_size;

	while (p >= g->ate_size && !nvs_erased(sec + p - g->ate_size, g->ate_size, g->erase_value))
		p -= g->ate_size;
	return p;
}

/* Bytes between the last record's data and the ATE area that no ATE claims. */
static void check_orphan_data(struct inspect *in, uint32_t s, uint32_t data_end)
{
	const struct nvs_geometry *g = &in->geo.geo;
	const uint8_t *sec = sector_bytes(in, s);
	uint32_t low = ate_area_low(in, s), first, last;

	for (first = data_end; first < low && sec[first] == g->erase_value; first++)
		;
	if (first >= low)
		return;
	for (last = low; last > first && sec[last - 1] == g->erase_value; last--)
		;
	sector_verdict(in, SEV_WARNING, "data-without-ate", (int)s, first,
		"%u bytes of data without an ATE (a write cut before its ATE?); a mount skips them",
		last - first);
	salvage_data(in, s << FC_NVS_ADDR_SECTOR_SHIFT | first, sec + first, last - first);
}

/* The checks of one sector: its ATEs (recs, walk order) and its data area. */
void check_sector(struct inspect *in, uint32_t s, const GArray *recs)
{
	const struct nvs_geometry *g = &in->geo.geo;
	GPtrArray *records = g_ptr_array_new();
	uint32_t data_end = 0;
	guint i;

	g_array_set_size(in->salvaged, 0);
	for (i = 0; i < recs->len; i++) {
		const struct ate_rec *r = &g_array_index(recs, struct ate_rec, i);

		check_ate(in, r);
		salvage_ate(in, r);
		if (is_record(&r->info) && r->info.len) {
			g_ptr_array_add(records, (gpointer)r);
			data_end = MAX(data_end, FC_ALIGN_UP((uint32_t)r->info.offset + r->info.len,
							     g->write_block));
		} else if (r->info.status == FC_NVS_ATE_DELETED ||
			   r->info.status == FC_NVS_ATE_GC_DONE) {
			data_end = MAX(data_end, r->info.offset);
		}
	}
	check_overlaps(in, records, s);
	if (data_end < g->sector_size)
		check_orphan_data(in, s, data_end);
	g_ptr_array_free(records, TRUE);
}

/* The sector a mount opens: after a closed sector whose successor is not closed. */
static int open_sector(const struct inspect *in, uint32_t *closed)
{
	uint32_t n = in->geo.geo.sector_count, s;
	int open = -1;

	*closed = 0;
	for (s = 0; s < n; s++) {
		const struct fc_nvs_sector_info *a = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, s);
		const struct fc_nvs_sector_info *b = &g_array_index(
			in->sectors, struct fc_nvs_sector_info, (s + 1) % n);

		*closed += a->state == FC_NVS_SECTOR_CLOSED;
		if (open < 0 && a->state == FC_NVS_SECTOR_CLOSED && b->state != FC_NVS_SECTOR_CLOSED)
			open = (int)((s + 1) % n);
	}
	return *closed == 0 ? 0 : open;
}

static void check_sectors(struct inspect *in)
{
	uint32_t n = in->geo.geo.sector_count, s, closed;
	int open = open_sector(in, &closed);

	for (s = 0; s < n; s++) {
		const struct fc_nvs_sector_info *si = &g_array_index(in->sectors,
								     struct fc_nvs_sector_info, s);
		if (si->state == FC_NVS_SECTOR_CORRUPT)
			verdict(in, SEV_WARNING, "bad-close", (int)s,
				(long)(in->geo.geo.sector_size - in->geo.geo.ate_size),
				"close slot is neither erased nor a valid close ATE (torn close ATE?)");
	}
	if (closed == n) {
		verdict(in, SEV_ERROR, "all-closed", -1, -1,
			"all %u sectors are closed: Zephyr's mount fails (-EDEADLK)", n);
		return;
	}
	if (open >= 0 && g_array_index(in->sectors, struct fc_nvs_sector_info, open).state !=
				 FC_NVS_SECTOR_CORRUPT) {
		uint32_t next = ((uint32_t)open + 1) % n;
		const struct fc_nvs_sector_info *o = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, open);
		const struct fc_nvs_sector_info *x = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, next);

		if (x->state == FC_NVS_SECTOR_ERASED)
			return;
		if (o->gc_done)
			verdict(in, SEV_WARNING, "interrupted-gc", (int)next, -1,
				"sector %u after the open sector %d is not erased and the open "
				"sector has its gc_done ATE: the erase after a garbage collection "
				"was interrupted; a mount erases sector %u",
				next, open, next);
		else
			verdict(in, SEV_WARNING, "interrupted-gc", (int)next, -1,
				"sector %u after the open sector %d is not erased and the open "
				"sector has no gc_done ATE: a garbage collection was interrupted; "
				"a mount erases sector %d and collects sector %u again",
				next, open, open, next);
	}
}

static enum nvs_sector_look look_at(const struct inspect *in, size_t off)
{
	const struct nvs_geometry *g = &in->geo.geo;

	return nvs_sector_look(in->file + off, g->sector_size, g->ate_size, g->erase_value);
}

static bool looks_nvs(enum nvs_sector_look l)
{
	return l == NVS_LOOK_OPEN || l == NVS_LOOK_CLOSED;
}

/* Sectors beside the partition that read as NVS: the range cuts a layout. */
static void check_outside(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	size_t ss = g->sector_size, start = g->offset, end = start + in->part_len, lo = start, hi = end;

	while (lo >= ss && looks_nvs(look_at(in, lo - ss)))
		lo -= ss;
	while (hi + ss <= in->file_len && looks_nvs(look_at(in, hi)))
		hi += ss;
	if (lo < start)
		verdict(in, SEV_WARNING, "layout-before", -1, (long)lo,
			"the %zu bytes before the partition, from image offset 0x%zx, read as NVS "
			"sectors: the partition probably starts there (--offset 0x%zx)",
			start - lo, lo, lo);
	if (hi > end)
		verdict(in, SEV_WARNING, "layout-after", -1, (long)end,
			"the %zu bytes after the partition, from image offset 0x%zx, read as NVS "
			"sectors: the partition probably goes on (--sectors %zu)",
			hi - end, end, (hi - start) / ss);
}

/* Sectors at the partition's end that are other data: it probably ends before them. */
static void check_tail(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	uint32_t n = g->sector_count, last = n, s;
	size_t ss = g->sector_size;

	if (in->geo.sector_conf == NVS_CONF_GIVEN && in->opt.sectors)
		return;
	for (s = 0; s < n; s++)
		if (looks_nvs(look_at(in, g->offset + s * ss)))
			last = s;
	for (s = last + 1; last < n && s < n && look_at(in, g->offset + s * ss) == NVS_LOOK_ERASED; s++)
		;
	if (last < n && s < n)
		verdict(in, SEV_WARNING, "layout-other-data", (int)s, -1,
			"sectors %u..%u after the last one that reads as NVS hold other data: the "
			"partition probably ends before them (--sectors %u)",
			s, n - 1, s);
}

/*
 * Close ATEs (id 0xffff, len 0, crc valid, in a sector's last slot) whose
 * offset lies beyond their sector: the sectors are larger than the range's.
 * The likely size ends a sector at each such slot: the largest power of two
 * dividing every slot's end, when it holds the offset.
 */
static void check_close_outside(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	uint32_t s, first = 0, count = 0, far = 0, ss = g->sector_size, as = g->ate_size, m, end;
	uint32_t align = UINT32_MAX;
	struct fc_nvs_ate a;

	for (s = 0; s < g->sector_count; s++) {
		fc_nvs_ate_decode(sector_bytes(in, s) + ss - as, g->erase_value, &a);
		if (a.part != FC_NVS_ATE_PART || !a.crc_ok || a.id != 0xffff || a.len ||
		    a.offset < ss - as)
			continue;
		if (!count++)
			first = s;
		far = MAX(far, (uint32_t)a.offset);
		end = (s + 1) * ss;
		align = MIN(align, end & -end);
	}
	if (!count)
		return;
	for (m = 2 * ss; m < far + 2 * as; m *= 2)
		;
	if (align >= m)
		m = align;
	verdict(in, SEV_WARNING, "layout-close-outside", (int)first, (long)(ss - as),
		"%u close ATE%s, the first in sector %u (image offset 0x%zx), point%s up to offset "
		"0x%04x, outside their %u-byte sectors: the sectors are probably %u bytes "
		"(--sector-size %u)%s",
		count, count == 1 ? "" : "s", first, (size_t)g->offset + (size_t)first * ss + ss - as,
		count == 1 ? "s" : "", far, ss, m, m,
		in->part_len % m ? ", and the partition's size is no whole number of them" : "");
}

/*
 * A given partition size that is no whole number of sectors (or of the
 * devicetree's erase blocks, which a sector spans whole): the last one is cut.
 */
static void check_mid_sector(struct inspect *in)
{
	uint64_t size = in->dt.size, unit = in->geo.geo.sector_size;
	const char *what = "sector";

	if (!in->have_dt || !unit)
		return;
	if (!(size % unit) && in->dt.erase_block && size % in->dt.erase_block) {
		unit = in->dt.erase_block;
		what = "erase block";
	}
	if (!(size % unit))
		return;
	verdict(in, SEV_WARNING, "partition-mid-sector", -1,
		(long)(in->dt.offset_in_image + size - size % unit),
		"the partition %s is %" G_GUINT64_FORMAT " bytes, not a multiple of the %"
		G_GUINT64_FORMAT "-byte %s: it ends %" G_GUINT64_FORMAT " bytes into %s %"
		G_GUINT64_FORMAT " (likely size %" G_GUINT64_FORMAT " or %" G_GUINT64_FORMAT ")",
		in->dt.path, size, unit, what, size % unit, what, size / unit,
		size - size % unit, size - size % unit + unit);
}

/* A blank partition is blank, not damaged. */
static void check_blank(struct inspect *in)
{
	guint s;

	for (s = 0; s < in->sectors->len; s++)
		if (g_array_index(in->sectors, struct fc_nvs_sector_info, s).state !=
		    FC_NVS_SECTOR_ERASED)
			return;
	verdict(in, SEV_INFO, "blank", -1, -1,
		"the partition is blank (every byte 0x%02x): a mount starts it empty",
		in->geo.geo.erase_value);
}

/* Where the partition sits: verdicts shown in the summary too. */
void check_placement(struct inspect *in)
{
	check_outside(in);
	check_tail(in);
	check_mid_sector(in);
	check_close_outside(in);
	check_blank(in);
}

/* All verdicts: the geometry's, each sector's (made during the walk), the sequence's. */
void run_checks(struct inspect *in)
{
	guint i;

	check_geometry(in);
	if (in->walk_failed) {
		GArray *none = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));

		for (i = 0; i < in->geo.geo.sector_count; i++)
			check_sector(in, i, none);
		g_array_free(none, TRUE);
	}
	g_array_append_vals(in->verdicts, in->sector_verdicts->data, in->sector_verdicts->len);
	g_array_set_size(in->sector_verdicts, 0);
	check_sectors(in);
}
