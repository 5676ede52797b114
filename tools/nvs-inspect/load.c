/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * load.c - the dump, its geometry and the partition device.
 */
#include "inspect.h"
#include "zms_inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

/* --erase-value: NULL is -1 (detect). */
gboolean parse_erase_value(const char *s, int *ev)
{
	char *end;
	unsigned long v;

	*ev = -1;
	if (!s)
		return TRUE;
	v = strtoul(s, &end, 0);
	if (*end || end == s || v > 0xff)
		return FALSE;
	*ev = (int)v;
	return TRUE;
}

/* A given geometry that the image contradicts is worth a warning. */
static void compare_with_detection(struct inspect *in, const struct nvs_geometry_hint *given)
{
	struct nvs_geometry_hint free_hint = *given;
	struct nvs_geometry_report r;
	const struct nvs_geometry *g = &in->geo.geo;

	free_hint.sector_size = free_hint.sector_count = free_hint.write_block = 0;
	if (nvs_geometry_detect(in->file, in->window_end, &free_hint, &r, NULL, 0) < 0 ||
	    r.sector_conf != NVS_CONF_CERTAIN)
		return;
	if (r.geo.sector_size != g->sector_size || r.geo.ate_size != g->ate_size ||
	    (r.wb_conf == NVS_CONF_CERTAIN && r.geo.write_block != g->write_block))
		verdict(in, SEV_WARNING, "geometry-mismatch", -1, -1,
			"the image looks like %u-byte sectors with %u-byte ATE slots and write "
			"block %u (detected, %s), not the %u-byte sectors, write block %u given",
			r.geo.sector_size, r.geo.ate_size, r.geo.write_block,
			nvs_confidence_name(r.sector_conf), g->sector_size, g->write_block);
}

/* A blank partition is said to be blank, not refused as damage (returns true). */
static bool is_blank(struct inspect *in, uint32_t offset)
{
	const uint8_t *p = in->file + offset;
	size_t n = in->window_end - offset;
	int ev = -1;

	/* all 0x00 is blank only on a flash said to erase to 0x00: NOR's is 0xff */
	parse_erase_value(in->opt.erase_value, &ev);
	if (!nvs_erased(p, n, p[0]) || p[0] != (ev < 0 ? 0xff : ev))
		return false;
	if (in->opt.format && !strcmp(in->opt.format, "json"))
		print_json_blank(in, offset, n, p[0]);
	else
		printf("%s: the partition is blank (all %zu bytes from offset 0x%x are 0x%02x): a "
		       "mount starts it empty; give --sector-size and --write-block for its "
		       "sectors\n",
		       in->input.name, n, offset, p[0]);
	return true;
}

static int load_geometry(struct inspect *in)
{
	struct nvs_geometry_hint hint = { 0, 0, 0, 0, -1 };
	char why[256];

	hint.offset = in->opt.offset;
	hint.sector_size = in->opt.sector_size;
	hint.sector_count = in->opt.sectors;
	hint.write_block = in->opt.write_block;
	if (in->scanned)
		hint.offset = (uint32_t)in->region.offset;
	if (in->have_dt) {
		hint.offset = (uint32_t)in->dt.offset_in_image;
		if (!hint.write_block && in->dt.write_block && in->dt.write_block <= 32)
			hint.write_block = in->dt.write_block;
	}
	parse_erase_value(in->opt.erase_value, &hint.erase_value);
	if (nvs_geometry_detect(in->file, in->window_end, &hint, &in->geo, why, sizeof(why)) < 0) {
		if (hint.offset < in->window_end && is_blank(in, hint.offset))
			return 1;
		g_printerr("nvs-inspect: %s: cannot tell the geometry: %s\n", in->input.name, why);
		return -1;
	}
	if (hint.sector_size || hint.write_block)
		compare_with_detection(in, &hint);
	return 0;
}

uint8_t *padded_pair(const uint8_t *p, size_t have, size_t len, uint8_t erase_value)
{
	uint8_t *pair = g_malloc(2 * len);

	memcpy(pair, p, have);
	memset(pair + have, erase_value, len - have);
	memcpy(pair + len, pair, len);
	return pair;
}

/* The partition as the device sees it: missing bytes of a short dump read as erased. */
static int build_partition(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	size_t have = in->file_len - g->offset;
	GError *err = NULL;

	in->part_len = (size_t)g->sector_count * g->sector_size;
	if (have >= in->part_len && in->image.format != TOOL_IMAGE_RAW) {
		in->part = in->file + g->offset;
		in->copy = in->copy_mem = g_memdup2(in->part, in->part_len);
	} else if (have >= in->part_len) {
		in->part = in->file + g->offset;
		/* the mount's copy: a private copy-on-write mapping of a file */
		in->copy = tool_input_private_copy(&in->input, &err);
		if (!in->copy) {
			g_printerr("nvs-inspect: %s\n", err->message);
			g_error_free(err);
			return -1;
		}
		in->copy += g->offset;
	} else {
		in->padded = padded_pair(in->file + g->offset, have, in->part_len, g->erase_value);
		in->part = in->padded;
		in->copy = in->padded + in->part_len;
	}
	in->fgeo.size = (uint32_t)in->part_len;
	in->fgeo.erase_size = g->sector_size;
	in->fgeo.write_size = g->write_block;
	in->fgeo.erase_value = g->erase_value;
	if (fc_rom_flash_init(&in->rom, &in->fgeo, in->part) < 0) {
		g_printerr("nvs-inspect: %s: geometry %u x %u bytes, write block %u is not usable\n",
			   in->input.name, g->sector_count, g->sector_size, g->write_block);
		return -1;
	}
	in->nslots = 2 * MAX_IDS;
	in->scratch = g_new0(struct fc_cache_slot, in->nslots);
	in->index = g_new0(struct fc_cache_slot, in->nslots);
	return 0;
}

/* The engine's view of the partition on dev (the dump, or the mount's copy). */
struct fc_nvs_config nvs_config(const struct inspect *in, const struct fc_flash *dev,
				struct fc_cache_slot *slots, uint8_t *read_buf)
{
	struct fc_nvs_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.flash = dev;
	cfg.sector_size = in->geo.geo.sector_size;
	cfg.sector_count = (uint16_t)in->geo.geo.sector_count;
	cfg.data_crc = in->data_crc;
	cfg.lookup = FC_NVS_LOOKUP_INDEX;
	cfg.index_slots = slots;
	cfg.index_slot_count = in->nslots;
	cfg.read_buf = read_buf;
	cfg.read_buf_size = read_buf ? INSPECT_READ_BUF : 0;
	return cfg;
}

/* Map a mapping's pages in one call, not one fault per few pages as they are read. */
void populate(const void *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo = (uintptr_t)p & ~(page - 1);

	(void)madvise((void *)lo, (uintptr_t)p + len - lo, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

/*
 * Records of a decoded image may start and end anywhere (erased blocks are
 * often left out): erased bytes before and after it to 64 KiB boundaries
 * of the flash address, so every sector the flash can have is whole.
 */
static void align_image(struct inspect *in, uint8_t ev)
{
	const uint64_t unit = 64u * 1024u;
	uint64_t lo = in->image_base & ~(unit - 1);
	uint64_t hi = (in->image_base + in->file_len + unit - 1) & ~(unit - 1);
	uint8_t *mem;

	if (lo == in->image_base && hi == in->image_base + in->file_len)
		return;
	mem = g_malloc((gsize)(hi - lo));
	memset(mem, ev, (gsize)(hi - lo));
	memcpy(mem + (in->image_base - lo), in->file, in->file_len);
	in->covered = mem;
	in->file = mem;
	in->file_len = (gsize)(hi - lo);
	in->image_base = lo;
	in->window_end = in->file_len;
}

/* The flash contents of the input: raw, or decoded from HEX, S-records or ELF. */
static bool decode_image(struct inspect *in)
{
	int f = in->opt.input_format ? tool_image_format_parse(in->opt.input_format) : 0;
	int ev = -1;
	GError *err = NULL;

	parse_erase_value(in->opt.erase_value, &ev);
	if (!tool_image_decode(&in->input, (enum tool_image_format)f, ev < 0 ? 0xff : (uint8_t)ev,
			       &in->image, &err)) {
		g_printerr("nvs-inspect: %s\n", err->message);
		g_error_free(err);
		return false;
	}
	in->file = in->image.bytes;
	in->file_len = in->window_end = in->image.len;
	in->image_base = in->image.base;
	if (in->image.format != TOOL_IMAGE_RAW)
		align_image(in, ev < 0 ? 0xff : (uint8_t)ev);
	if (in->image.note)
		verdict(in, SEV_WARNING, "records-ignored", -1, -1,
			"records far from the rest of the image are left out: %s", in->image.note);
	return true;
}

/*
 * The partition reaches past the records (an erased head or tail is often
 * left out of a HEX file): its bytes, those no record gave erased.
 */
static void cover_partition(struct inspect *in, uint64_t abs)
{
	struct dt_partition *p = &in->dt;
	uint64_t lo = MAX(abs, in->image_base), hi = MIN(abs + p->size, in->image_base + in->file_len);
	int ev = -1;
	uint8_t *mem = g_malloc((gsize)p->size);

	parse_erase_value(in->opt.erase_value, &ev);
	memset(mem, ev < 0 ? 0xff : ev, (gsize)p->size);
	memcpy(mem + (lo - abs), in->file + (lo - in->image_base), (gsize)(hi - lo));
	g_free(in->covered);
	in->covered = mem;
	in->file = mem;
	in->file_len = (gsize)p->size;
	in->image_base = abs;
	p->offset_in_image = 0;
}

/*
 * The devicetree's partition in the image: a decoded image has absolute
 * addresses; a raw dump of the partition's size is the partition, any other
 * raw dump starts at the flash's base.
 */
static bool place_partition(struct inspect *in)
{
	struct dt_partition *p = &in->dt;
	uint64_t abs = p->flash_base + p->offset, end = in->image_base + in->file_len;
	bool raw = in->image.format == TOOL_IMAGE_RAW;
	uint64_t off = raw ? (in->file_len == p->size ? 0 : p->offset) : abs - in->image_base;

	if (raw ? off >= in->file_len : abs >= end || abs + p->size <= in->image_base) {
		g_printerr("nvs-inspect: %s: the partition %s at 0x%" G_GINT64_MODIFIER "x "
			   "(%" G_GUINT64_FORMAT " bytes) is outside the image, 0x%" G_GINT64_MODIFIER
			   "x..0x%" G_GINT64_MODIFIER "x\n",
			   in->input.name, p->path, abs, p->size, in->image_base, end);
		return false;
	}
	if (!raw && (abs < in->image_base || abs + p->size > end))
		cover_partition(in, abs);
	else
		p->offset_in_image = off;
	in->window_end = (gsize)MIN(p->offset_in_image + p->size, (uint64_t)in->file_len);
	if (raw && off + p->size > in->file_len)
		verdict(in, SEV_WARNING, "partition-cut", -1, (long)in->file_len,
			"the image ends %" G_GUINT64_FORMAT " bytes into the %" G_GUINT64_FORMAT
			"-byte partition %s: the rest reads as erased",
			in->file_len - off, p->size, p->path);
	return true;
}

/* The image, with erased bytes after it up to end (the scan's guessed last sector). */
static void extend_erased(struct inspect *in, size_t end, uint8_t ev)
{
	uint8_t *mem = g_malloc(end);

	memcpy(mem, in->file, in->file_len);
	memset(mem + in->file_len, ev, end - in->file_len);
	g_free(in->covered);
	in->covered = mem;
	in->file = mem;
	in->file_len = end;
}

static void region_text(GString *s, const struct nvs_region *r)
{
	g_string_append_printf(s, "0x%zx..0x%zx (%zu sectors of %u bytes: ", r->offset,
			       r->offset + r->size, r->size / r->sector_size, r->sector_size);
	if (r->zms)
		g_string_append_printf(s, "%u with a ZMS header, ", r->closed);
	else
		g_string_append_printf(s, "%u closed, %u open, ", r->closed, r->open);
	g_string_append_printf(s, "%u erased at the end)", r->erased_after);
}

typedef int scan_fn(const uint8_t *img, size_t len, uint8_t ev, struct nvs_region *out, int max);

/* The regions one format's scan finds, under the erase value given or either. */
static int scan_kind(const struct inspect *in, scan_fn *scan, int ev, struct nvs_region *r,
		     int max)
{
	int n = scan(in->file, in->file_len, ev < 0 ? 0xff : (uint8_t)ev, r, max);

	if (n == 0 && ev < 0)
		n = scan(in->file, in->file_len, 0x00, r, max);
	return n;
}

static bool overlaps(const struct nvs_region *a, const struct nvs_region *b)
{
	return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

/*
 * The NVS regions, after the ZMS ones: one inside a ZMS region is the same
 * sectors misread (the scans judge sectors each their own way).
 */
static int scan_nvs(const struct inspect *in, int ev, struct nvs_region *r, int nz)
{
	int n = nz + scan_kind(in, nvs_scan, ev, r + nz, SCAN_MAX_REGIONS - nz), i, j, k = nz;

	for (i = nz; i < n; i++) {
		for (j = 0; j < nz && !overlaps(&r[i], &r[j]); j++)
			;
		if (j == nz)
			r[k++] = r[i];
	}
	return k;
}

/* --partition auto: the one region of the image that reads as NVS or ZMS. */
static bool scan_partition(struct inspect *in)
{
	struct nvs_region r[SCAN_MAX_REGIONS];
	const char *kind = in->opt.format_kind;
	bool zms = !kind || strcmp(kind, "nvs"), nvs = !kind || strcmp(kind, "zms");
	int ev = -1, nz = 0, n, i;
	uint32_t at;
	const char *what;
	GString *s;

	parse_erase_value(in->opt.erase_value, &ev);
	if (zms)
		nz = scan_kind(in, zms_scan, ev, r, SCAN_MAX_REGIONS);
	for (i = 0; i < nz; i++)
		r[i].zms = true;
	n = nvs ? scan_nvs(in, ev, r, nz) : nz;
	what = !zms ? "NVS" : !nvs ? "ZMS" : "NVS or ZMS";
	if (n == 1) {
		in->region = r[0];
		in->scanned = true;
		if (r[0].offset + r[0].size > in->file_len)
			extend_erased(in, r[0].offset + r[0].size, ev < 0 ? 0xff : (uint8_t)ev);
		in->window_end = r[0].offset + r[0].size;
		return true;
	}
	if (n == 0 && zms && zms_header_count(in->file, in->file_len, &at) == 1) {
		g_printerr("nvs-inspect: %s: one sector of the image ends with a ZMS empty ATE (at "
			   "offset 0x%x), and under no sector size of 1 to 64 KiB that divides its "
			   "end does it read as ZMS; give --dts, or --offset and --sector-size\n",
			   in->input.name, at);
		return false;
	}
	if (n == 0) {
		g_printerr("nvs-inspect: %s: no region of the image reads as %s (%s%s%s)\n",
			   in->input.name, what,
			   nvs ? "sectors of 1024 to 65536 bytes that look closed or open" : "",
			   nvs && zms ? "; " : "",
			   zms ? "two or more sectors ending with ZMS's empty ATE" : "");
		return false;
	}
	s = g_string_new(NULL);
	for (i = 0; i < n; i++) {
		g_string_append(s, i ? ", " : "");
		region_text(s, &r[i]);
	}
	g_printerr("nvs-inspect: %s: %d regions read as %s, the scan does not choose: %s; give "
		   "--dts, or --offset and --sectors\n", in->input.name, n,
		   nz == 0 ? "NVS" : nz == n ? "ZMS" : "NVS or ZMS", s->str);
	g_string_free(s, TRUE);
	return false;
}

/* The dump loaded, its geometry told and the partition's device made. */
int inspect_load(struct inspect *in)
{
	GError *err = NULL;
	int rc;

	/* a file is mapped, never read into a buffer; a pipe is read into memory */
	if (!tool_input_load(&in->input, in->path, &err)) {
		g_printerr("nvs-inspect: %s\n", err->message);
		g_error_free(err);
		return -1;
	}
	if (in->input.len == 0) {
		g_printerr("nvs-inspect: %s: the file is empty\n", in->input.name);
		return -1;
	}
	populate(in->input.data, in->input.len);
	if (!decode_image(in) || (in->have_dt && !place_partition(in)))
		return -1;
	if (in->opt.partition && !strcmp(in->opt.partition, "auto") && !scan_partition(in))
		return -1;
	rc = zms_inspect_load(in);
	if (rc != ZMS_LOAD_NOT_ZMS)
		return rc;
	rc = load_geometry(in);
	if (rc != 0)
		return rc;
	return build_partition(in);
}
