/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * load.c - the dump, its geometry and the partition device.
 */
#include "inspect.h"

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
	if (nvs_geometry_detect(in->file, in->file_len, &free_hint, &r, NULL, 0) < 0 ||
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

static int load_geometry(struct inspect *in)
{
	struct nvs_geometry_hint hint = { 0, 0, 0, 0, -1 };
	char why[256];

	hint.offset = in->opt.offset;
	hint.sector_size = in->opt.sector_size;
	hint.sector_count = in->opt.sectors;
	hint.write_block = in->opt.write_block;
	parse_erase_value(in->opt.erase_value, &hint.erase_value);
	if (nvs_geometry_detect(in->file, in->file_len, &hint, &in->geo, why, sizeof(why)) < 0) {
		g_printerr("nvs-inspect: %s: cannot tell the geometry: %s\n", in->input.name, why);
		return -1;
	}
	if (hint.sector_size || hint.write_block)
		compare_with_detection(in, &hint);
	return 0;
}

/* The partition as the device sees it: missing bytes of a short dump read as erased. */
static int build_partition(struct inspect *in)
{
	const struct nvs_geometry *g = &in->geo.geo;
	size_t have = in->file_len - g->offset;
	GError *err = NULL;

	in->part_len = (size_t)g->sector_count * g->sector_size;
	if (have >= in->part_len) {
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
		in->padded = g_malloc(2 * in->part_len);
		memcpy(in->padded, in->file + g->offset, have);
		memset(in->padded + have, g->erase_value, in->part_len - have);
		memcpy(in->padded + in->part_len, in->padded, in->part_len);
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
				struct fc_cache_slot *slots)
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

/* The dump loaded, its geometry told and the partition's device made. */
int inspect_load(struct inspect *in)
{
	GError *err = NULL;

	/* a file is mapped, never read into a buffer; a pipe is read into memory */
	if (!tool_input_load(&in->input, in->path, &err)) {
		g_printerr("nvs-inspect: %s\n", err->message);
		g_error_free(err);
		return -1;
	}
	in->file = in->input.data;
	in->file_len = in->input.len;
	if (in->file_len == 0) {
		g_printerr("nvs-inspect: %s: the file is empty\n", in->input.name);
		return -1;
	}
	populate(in->file, in->file_len);
	if (load_geometry(in) < 0 || build_partition(in) < 0)
		return -1;
	return 0;
}
