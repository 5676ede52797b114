/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-inspect - read a Zephyr NVS / settings flash dump and report what is in
 * it, what a mount would do with it and what is wrong with it.
 *
 * The dump is mapped and never written: the as-found state is walked on a
 * read-only device over the mapping, and mount and recovery run on a RAM
 * device over a private copy-on-write mapping of the same file.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "fdtcache/crc.h"
#include "fdtcache/flash.h"
#include "fdtcache/nvs.h"
#include "fdtcache/settings.h"

#include "common/escape.h"
#include "common/input.h"
#include "common/json.h"
#include "common/nvs_geometry.h"

#define MAX_IDS 0x10000u
#define HEX_PREVIEW 32 /* value bytes shown per line in tables */
#define ZEPHYR_FREE_MAX_ATES 4096u /* Zephyr's free space count is O(n^2) */
#define CRC_VOTES 1024u /* values sampled by --data-crc auto */

enum severity { SEV_ERROR, SEV_WARNING, SEV_INFO };

static const char *const severity_names[] = { "error", "warning", "info" };

struct verdict {
	enum severity sev;
	const char *code;
	int sector;    /* -1: the whole image */
	long offset;   /* within the sector (the image when sector is -1); -1: none */
	char *message;
};

/* One ATE as found in the dump. */
struct ate_rec {
	struct fc_nvs_ate_info info;
	uint32_t seq;       /* walk order */
};

struct live_entry {
	uint16_t id;
	int rc;             /* fc_nvs_read's result */
	GBytes *value;
};

struct setting {
	char *name;
	uint16_t name_id;
	GBytes *value;
};

struct salvage_rec {
	const char *kind;   /* "ate-crc-bad" or "data-without-ate" */
	uint32_t addr;      /* of the ATE or of the data */
	int id;             /* -1 when unknown */
	GBytes *value;
};

struct options {
	guint32 sector_size, sectors, write_block, offset;
	gchar *sector_size_s, *sectors_s, *write_block_s, *offset_s;
	gchar *erase_value, *data_crc, *format, *history;
	gboolean summary, live, ates, settings, check, salvage;
};

struct inspect {
	struct options opt;
	const char *path;     /* as given */
	struct tool_input input; /* the dump, never written; input.name for messages */
	const uint8_t *file;
	gsize file_len;
	struct nvs_geometry_report geo;

	const uint8_t *part;  /* partition bytes as found (read-only device) */
	size_t part_len;
	uint8_t *padded;      /* part and copy of a short dump, padded with erased bytes */
	struct fc_rom_flash rom;
	struct fc_flash_geometry fgeo;
	struct fc_cache_slot *scratch;
	uint32_t nslots;

	/* walk of the dump */
	GArray *sectors;      /* struct fc_nvs_sector_info, by sector number */
	GArray *ates;         /* struct ate_rec, walk order (--ates, --history) */
	bool keep_ates;
	/* --check, --salvage, JSON: each sector is checked when the walk has
	 * given its ATEs, so no list of every ATE is needed */
	bool check_sectors;
	GArray *sector_recs;  /* struct ate_rec of the sector being walked */
	GArray *walk_verdicts; /* struct verdict from those checks, merged in run_checks */
	uint32_t seq;         /* ATEs reported so far */
	bool walk_failed;
	uint32_t crc_checked, crc_matched, crc_short;
	bool data_crc;
	char crc_reason[160];

	/* mount on a copy */
	uint8_t *copy;
	struct fc_ram_flash ram;
	struct fc_flash copy_dev; /* ram, noting which sectors the mount changes */
	uint8_t *touched;         /* per sector: programmed or erased by the mount */
	struct fc_cache_slot *index;
	struct fc_nvs fs;
	struct fc_nvs_config mount_cfg;
	int mount_rc;
	int free_space;       /* exact, from the index */
	int zephyr_free;      /* Zephyr's own count; < 0 when not computed */
	uint32_t stack_ates;  /* valid ATEs in the dump */
	uint8_t ids[MAX_IDS / 8]; /* ids of those ATEs: the candidates of --live */
	GPtrArray *actions;   /* char *: what the mount changed */

	GArray *live;         /* struct live_entry */
	GArray *settings;     /* struct setting */
	GArray *salvage;      /* struct salvage_rec */
	GArray *verdicts;     /* struct verdict */
	int errors, warnings;
};

/* ---- verdicts ---- */

G_GNUC_PRINTF(6, 7)
static void verdict(struct inspect *in, enum severity sev, const char *code, int sector,
		    long offset, const char *fmt, ...)
{
	struct verdict v = { sev, code, sector, offset, NULL };
	va_list ap;

	va_start(ap, fmt);
	v.message = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_array_append_val(in->verdicts, v);
}

/* Empty an array of verdicts, or of salvage records, freeing what they hold. */
static void free_verdicts(GArray *verdicts)
{
	guint i;

	for (i = 0; i < verdicts->len; i++)
		g_free(g_array_index(verdicts, struct verdict, i).message);
	g_array_set_size(verdicts, 0);
}

static void free_salvage(GArray *salvage)
{
	guint i;

	for (i = 0; i < salvage->len; i++)
		g_bytes_unref(g_array_index(salvage, struct salvage_rec, i).value);
	g_array_set_size(salvage, 0);
}

static void tally_verdicts(struct inspect *in)
{
	guint i;

	in->errors = in->warnings = 0;
	for (i = 0; i < in->verdicts->len; i++) {
		enum severity sev = g_array_index(in->verdicts, struct verdict, i).sev;

		in->errors += sev == SEV_ERROR;
		in->warnings += sev == SEV_WARNING;
	}
}

static uint32_t addr_sector(uint32_t addr)
{
	return addr >> FC_NVS_ADDR_SECTOR_SHIFT;
}

static uint32_t addr_offset(uint32_t addr)
{
	return addr & FC_NVS_ADDR_OFFSET_MASK;
}

static const uint8_t *sector_bytes(const struct inspect *in, uint32_t sector)
{
	return in->part + (size_t)sector * in->geo.geo.sector_size;
}

/* ---- loading and geometry ---- */

static gboolean parse_erase_value(struct inspect *in, int *ev)
{
	char *end;
	unsigned long v;

	*ev = -1;
	if (!in->opt.erase_value)
		return TRUE;
	v = strtoul(in->opt.erase_value, &end, 0);
	if (*end || end == in->opt.erase_value || v > 0xff)
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
	parse_erase_value(in, &hint.erase_value);
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

static struct fc_nvs_config nvs_config(const struct inspect *in, const struct fc_flash *dev,
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

/* ---- walk of the dump ---- */

static bool is_record(const struct fc_nvs_ate_info *a)
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
 * With data CRC on: 1 when the value ends with the CRC-32 of the bytes before
 * it, 0 if not; -1 when that does not apply (CRC off, no value).
 */
static int value_crc_state(const struct inspect *in, const struct fc_nvs_ate_info *a)
{
	const uint8_t *d = sector_bytes(in, addr_sector(a->addr)) + a->offset;

	if (!in->data_crc || !is_record(a) || a->len < 4 || (uint32_t)a->offset + a->len > in->geo.geo.sector_size)
		return -1;
	return fc_crc32_ieee(d, a->len - 4u) == fc_get_le32(d + a->len - 4);
}

/*
 * Every valid ATE of the dump counts, names a --live candidate id, and up to
 * CRC_VOTES values vote on --data-crc auto.
 */
static void note_ate(struct inspect *in, uint32_t sector, uint32_t slot, uint16_t id,
		     uint16_t offset, uint16_t len)
{
	const uint8_t *d = sector_bytes(in, sector) + offset;

	in->stack_ates++;
	if (id == NVS_SPECIAL_ID)
		return;
	in->ids[id / 8] |= (uint8_t)(1u << (id % 8));
	if (len == 0 || (uint32_t)offset + len > slot || in->crc_checked >= CRC_VOTES)
		return;
	in->crc_checked++;
	if (len < 4)
		in->crc_short++;
	else
		in->crc_matched += fc_crc32_ieee(d, len - 4u) == fc_get_le32(d + len - 4);
}

/* The same from the raw stacks, when the walk refuses the partition. */
static void note_slot(void *ctx, uint32_t sector, uint32_t slot, const struct nvs_raw_ate *a,
		      bool crc_ok)
{
	if (crc_ok)
		note_ate(ctx, sector, slot, a->id, a->offset, a->len);
}

static void check_sector(struct inspect *in, uint32_t s, const GArray *recs);

/* A sector's info comes after its ATEs: check them now, then forget them. */
static int walk_sector_cb(void *ctx, const struct fc_nvs_sector_info *info)
{
	struct inspect *in = ctx;
	GArray *verdicts = in->verdicts;

	if (info->sector < in->sectors->len)
		g_array_index(in->sectors, struct fc_nvs_sector_info, info->sector) = *info;
	if (in->check_sectors) {
		in->verdicts = in->walk_verdicts;
		check_sector(in, info->sector, in->sector_recs);
		in->verdicts = verdicts;
		g_array_set_size(in->sector_recs, 0);
	}
	return 0;
}

static int walk_ate_cb(void *ctx, const struct fc_nvs_ate_info *info)
{
	struct inspect *in = ctx;
	struct ate_rec r = { *info, in->seq++ };

	if (ate_valid(info))
		note_ate(in, addr_sector(info->addr), addr_offset(info->addr), info->id,
			 info->offset, info->len);
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
		struct nvs_raw_ate a;

		memset(si, 0, sizeof(*si));
		si->sector = (uint16_t)s;
		si->age = (uint16_t)s;
		nvs_ate_decode(close, &a);
		if (nvs_erased(sector_bytes(in, s), g->sector_size, g->erase_value))
			si->state = FC_NVS_SECTOR_ERASED;
		else if (nvs_erased(close, g->ate_size, g->erase_value))
			si->state = FC_NVS_SECTOR_OPEN;
		else if (nvs_ate_crc_ok(close) && a.id == NVS_SPECIAL_ID && a.len == 0)
			si->state = FC_NVS_SECTOR_CLOSED;
		else
			si->state = FC_NVS_SECTOR_CORRUPT;
	}
}

static void walk_dump(struct inspect *in)
{
	struct fc_nvs_config cfg = nvs_config(in, &in->rom.dev, in->scratch);
	uint32_t words = FC_NVS_WALK_BITS_WORDS(cfg.sector_size, cfg.sector_count);
	struct fc_nvs_walk_ops ops = { .sector = walk_sector_cb, .ate = walk_ate_cb };
	int rc;

	/* each ATE's crc8 and live check once, not once per pass of the walk */
	ops.slot_bits = g_new(uint32_t, words);
	ops.slot_bits_words = words;
	cfg.data_crc = false;
	g_array_set_size(in->sectors, in->geo.geo.sector_count);
	rc = fc_nvs_walk(&cfg, &ops, in);
	g_free(ops.slot_bits);
	if (rc < 0) {
		verdict(in, SEV_ERROR, "walk-fails", -1, -1,
			"the partition cannot be walked (%s): sector states below come from the "
			"close slots alone",
			fc_strerror(rc));
		g_array_set_size(in->ates, 0);
		free_verdicts(in->walk_verdicts);
		free_salvage(in->salvage);
		g_array_set_size(in->sector_recs, 0);
		in->walk_failed = true;
		memset(in->ids, 0, sizeof(in->ids));
		in->stack_ates = in->crc_checked = in->crc_matched = in->crc_short = 0;
		nvs_stack_foreach(in->part, &in->geo.geo, note_slot, in);
		raw_sector_states(in);
	}
}

/* --data-crc auto: values carry a CRC-32 when most of them end with theirs. */
static int decide_data_crc(struct inspect *in)
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

/* ---- mount on a copy ---- */

static void describe_change(struct inspect *in, uint32_t s)
{
	const uint8_t *a = sector_bytes(in, s);
	const uint8_t *b = in->copy + (size_t)s * in->geo.geo.sector_size;
	uint32_t ss = in->geo.geo.sector_size, i, first = ss, last = 0, written = 0;
	uint8_t ev = in->geo.geo.erase_value;
	bool erased = false;

	if (memcmp(a, b, ss) == 0)
		return;
	for (i = 0; i < ss; i++) {
		if (a[i] == b[i])
			continue;
		first = MIN(first, i);
		last = i;
		/* programming only moves bits away from the erase value */
		if ((uint8_t)(a[i] ^ ev) & (uint8_t)~(b[i] ^ ev))
			erased = true;
		written += b[i] != ev;
	}
	if (first == ss)
		return;
	if (erased && nvs_erased(b, ss, ev))
		g_ptr_array_add(in->actions, g_strdup_printf("erase sector %u", s));
	else if (erased)
		g_ptr_array_add(in->actions,
				g_strdup_printf("erase sector %u and write %u bytes into it", s,
						written));
	else
		g_ptr_array_add(in->actions,
				g_strdup_printf("write %u bytes in sector %u at 0x%04x..0x%04x", written,
						s, first, last));
}

/*
 * Free space as Zephyr itself reports it: its O(n^2) count skips a live
 * entry whose id a later torn ATE carries, so it can differ from the exact
 * figure. Run on a second copy, only where n is small enough.
 */
static void zephyr_free_space(struct inspect *in)
{
	uint8_t *mem;
	struct fc_ram_flash ram;
	struct fc_nvs fs;
	struct fc_nvs_config cfg;

	in->zephyr_free = -1;
	if (in->stack_ates > ZEPHYR_FREE_MAX_ATES)
		return;
	mem = g_memdup2(in->part, in->part_len);
	fc_ram_flash_init(&ram, &in->fgeo, mem);
	cfg = nvs_config(in, &ram.dev, NULL);
	cfg.lookup = FC_NVS_LOOKUP_ZEPHYR;
	cfg.index_slot_count = 0;
	if (fc_nvs_mount(&fs, &cfg) == 0)
		in->zephyr_free = fc_nvs_calc_free_space(&fs);
	g_free(mem);
}

/*
 * The mount of the copy and the walk of the dump touch disjoint memory, so
 * the mount runs on a second thread while the walk runs. Mount never uses
 * data_crc (only reads, writes and walks do): the walk's verdict on it is
 * put into the mounted fs once both are done.
 */
static void note_touched(struct inspect *in, uint32_t off, uint32_t len)
{
	uint32_t ss = in->geo.geo.sector_size, s;

	for (s = off / ss; len && s <= (off + len - 1) / ss && s < in->geo.geo.sector_count; s++)
		in->touched[s] = 1;
}

static int copy_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct inspect *in = ctx;

	return in->ram.dev.read(in->ram.dev.ctx, off, buf, len);
}

static int copy_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct inspect *in = ctx;

	note_touched(in, off, len);
	return in->ram.dev.prog(in->ram.dev.ctx, off, buf, len);
}

static int copy_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct inspect *in = ctx;

	note_touched(in, off, len);
	return in->ram.dev.erase(in->ram.dev.ctx, off, len);
}

/* Map a mapping's pages in one call, not one fault per few pages as they are read. */
static void populate(const void *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo = (uintptr_t)p & ~(page - 1);

	(void)madvise((void *)lo, (uintptr_t)p + len - lo, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

static gpointer mount_thread(gpointer data)
{
	struct inspect *in = data;

	populate(in->copy, in->part_len);

	in->mount_rc = fc_nvs_mount(&in->fs, &in->mount_cfg);
	return NULL;
}

static GThread *mount_copy_start(struct inspect *in)
{
	fc_ram_flash_init(&in->ram, &in->fgeo, in->copy);
	in->copy_dev = in->ram.dev;
	in->copy_dev.read = copy_read;
	in->copy_dev.prog = copy_prog;
	in->copy_dev.erase = copy_erase;
	in->copy_dev.ctx = in;
	in->touched = g_new0(uint8_t, in->geo.geo.sector_count);
	in->mount_cfg = nvs_config(in, &in->copy_dev, in->index);
	return g_thread_new("mount", mount_thread, in);
}

static void mount_copy_finish(struct inspect *in, GThread *mount)
{
	uint32_t s;

	g_thread_join(mount);
	in->fs.cfg.data_crc = in->data_crc;
	/* only sectors the mount wrote can differ from the dump */
	for (s = 0; s < in->geo.geo.sector_count; s++)
		if (in->touched[s])
			describe_change(in, s);
	if (in->mount_rc < 0) {
		verdict(in, SEV_ERROR, "mount-fails", -1, -1, "a mount fails: %s",
			fc_strerror(in->mount_rc));
		return;
	}
	in->free_space = fc_nvs_calc_free_space(&in->fs);
	zephyr_free_space(in);
}

/* ---- what a mount reads back ---- */

static void read_live(struct inspect *in)
{
	uint8_t *buf = g_malloc(in->geo.geo.sector_size);
	uint32_t id;
	int rc;

	/* Candidates: every id with a valid ATE in the dump (a mount only
	 * drops ATEs or copies them); the reads decide. */
	for (id = 0; id < NVS_SPECIAL_ID; id++) {
		struct live_entry e = { (uint16_t)id, 0, NULL };

		if (!(in->ids[id / 8] & (1u << (id % 8))))
			continue;
		rc = fc_nvs_read(&in->fs, (uint16_t)id, buf, in->geo.geo.sector_size);
		if (rc == FC_ENOENT)
			continue;
		e.rc = rc;
		if (rc >= 0)
			e.value = g_bytes_new(buf, MIN((uint32_t)rc, in->geo.geo.sector_size));
		else
			verdict(in, SEV_ERROR, "read-fails", -1, -1, "id 0x%04x: a read fails: %s",
				id, fc_strerror(rc));
		g_array_append_val(in->live, e);
	}
	g_free(buf);
}

/* ---- settings ---- */

static int setting_pair_cb(void *ctx, const struct fc_settings_entry *e)
{
	struct inspect *in = ctx;
	struct setting s = { g_strndup(e->name, e->name_len), e->name_id,
			     g_bytes_new(e->value, e->value_read) };

	g_array_append_val(in->settings, s);
	return 0;
}

static const char *settings_problem_text(enum fc_settings_problem_kind k)
{
	switch (k) {
	case FC_SETTINGS_ORPHAN_NAME:
		return "name without its value (a load deletes both)";
	case FC_SETTINGS_ORPHAN_VALUE:
		return "value without its name (a load deletes both)";
	case FC_SETTINGS_COUNTER_TOP:
		return "last_name_id points at an absent pair (a load lowers it)";
	case FC_SETTINGS_COUNTER_MISSING:
		return "no last_name_id at id 0x8000: stored names are invisible";
	case FC_SETTINGS_COUNTER_BAD:
		return "last_name_id is not a u16 in 0x8000..0xbfff";
	case FC_SETTINGS_ABOVE_COUNTER:
		return "entry above last_name_id: a load never sees it";
	case FC_SETTINGS_NAME_INVALID:
		return "stored name is invalid (too long, '=' or NUL)";
	case FC_SETTINGS_READ_ERROR:
		return "read fails";
	}
	return "unknown problem";
}

static int setting_problem_cb(void *ctx, const struct fc_settings_problem *p)
{
	struct inspect *in = ctx;

	if (p->kind == FC_SETTINGS_READ_ERROR)
		verdict(in, SEV_ERROR, "settings-read", -1, -1, "settings id 0x%04x: %s: %s", p->id,
			settings_problem_text(p->kind), fc_strerror(p->err));
	else
		verdict(in, SEV_WARNING,
			p->kind == FC_SETTINGS_ORPHAN_NAME || p->kind == FC_SETTINGS_ORPHAN_VALUE
				? "settings-orphan"
				: "settings-counter",
			-1, -1, "settings id 0x%04x (last_name_id 0x%04x): %s", p->id, p->counter,
			settings_problem_text(p->kind));
	return 0;
}

static void read_settings(struct inspect *in)
{
	struct fc_settings_scan_ops ops = { setting_pair_cb, setting_problem_cb };
	uint8_t *buf = g_malloc(in->geo.geo.sector_size);
	int rc = fc_settings_scan(&in->fs, buf, in->geo.geo.sector_size, &ops, in);

	if (rc < 0)
		verdict(in, SEV_ERROR, "settings-scan", -1, -1, "settings scan fails: %s",
			fc_strerror(rc));
	g_free(buf);
}

/* ---- checks on the dump ---- */

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
		verdict(in, SEV_ERROR, "ate-crc", (int)s, off,
			"ATE crc8 mismatch (id 0x%04x offset 0x%04x len %u, crc8 0x%02x): skipped",
			a->id, a->offset, a->len, a->crc8);
		break;
	case FC_NVS_ATE_OUT_OF_BOUNDS:
		verdict(in, SEV_ERROR, "ate-bounds", (int)s, off,
			"ATE of id 0x%04x points outside its sector's data area "
			"(offset 0x%04x len %u)",
			a->id, a->offset, a->len);
		break;
	case FC_NVS_ATE_TORN:
		/* a torn close ATE is the sector's bad-close verdict */
		if (off != in->geo.geo.sector_size - in->geo.geo.ate_size)
			verdict(in, SEV_WARNING, "torn-ate", (int)s, off,
				"torn ATE (a write was cut by a power loss): skipped");
		break;
	default:
		break;
	}
}

/* With data CRC on (known only after the walk): a value that fails its CRC-32. */
static int check_data_crc(void *ctx, const struct fc_nvs_ate_info *a)
{
	struct inspect *in = ctx;

	if (value_crc_state(in, a) == 0)
		verdict(in, SEV_ERROR, "data-crc", (int)addr_sector(a->addr), a->offset,
			"data of id 0x%04x (ATE at 0x%04x, %s) fails its CRC-32", a->id,
			addr_offset(a->addr), a->status == FC_NVS_ATE_LIVE ? "live" : "stale");
	return 0;
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
			verdict(in, SEV_ERROR, "data-overlap", (int)s, n->info.offset,
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
	struct salvage_rec sr;

	for (first = data_end; first < low && sec[first] == g->erase_value; first++)
		;
	if (first >= low)
		return;
	for (last = low; last > first && sec[last - 1] == g->erase_value; last--)
		;
	verdict(in, SEV_WARNING, "data-without-ate", (int)s, first,
		"%u bytes of data without an ATE (a write cut before its ATE?); a mount skips them",
		last - first);
	sr.kind = "data-without-ate";
	sr.addr = s << FC_NVS_ADDR_SECTOR_SHIFT | first;
	sr.id = -1;
	sr.value = g_bytes_new(sec + first, last - first);
	g_array_append_val(in->salvage, sr);
}

/* An ATE whose crc8 fails but whose fields make sense may still name its value. */
static void salvage_ate(struct inspect *in, const struct ate_rec *r)
{
	const struct fc_nvs_ate_info *a = &r->info;
	const struct nvs_geometry *g = &in->geo.geo;
	struct salvage_rec sr;

	if (a->status != FC_NVS_ATE_CRC_BAD || a->id == NVS_SPECIAL_ID || a->part != 0xff ||
	    (uint32_t)a->offset + a->len > addr_offset(a->addr) ||
	    a->len > g->sector_size - 4 * g->ate_size)
		return;
	sr.kind = "ate-crc-bad";
	sr.addr = a->addr;
	sr.id = a->id;
	sr.value = g_bytes_new(sector_bytes(in, addr_sector(a->addr)) + a->offset, a->len);
	g_array_append_val(in->salvage, sr);
}

/* The checks of one sector: its ATEs (recs, walk order) and its data area. */
static void check_sector(struct inspect *in, uint32_t s, const GArray *recs)
{
	const struct nvs_geometry *g = &in->geo.geo;
	GPtrArray *records = g_ptr_array_new();
	uint32_t data_end = 0;
	guint i;

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

static void run_checks(struct inspect *in)
{
	guint i;

	check_geometry(in);
	if (in->walk_failed) {
		GArray *none = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));

		for (i = 0; i < in->geo.geo.sector_count; i++)
			check_sector(in, i, none);
		g_array_free(none, TRUE);
	} else {
		g_array_append_vals(in->verdicts, in->walk_verdicts->data, in->walk_verdicts->len);
		g_array_set_size(in->walk_verdicts, 0);
		if (in->data_crc) {
			struct fc_nvs_config cfg = nvs_config(in, &in->rom.dev, in->scratch);
			struct fc_nvs_walk_ops ops = { .ate = check_data_crc };

			cfg.data_crc = false;
			(void)fc_nvs_walk(&cfg, &ops, in); /* it walked the same image above */
		}
	}
	check_sectors(in);
}

/* ---- history ---- */

static int newest_first(gconstpointer pa, gconstpointer pb, gpointer ctx)
{
	const struct inspect *in = ctx;
	const struct ate_rec *a = *(const struct ate_rec *const *)pa;
	const struct ate_rec *b = *(const struct ate_rec *const *)pb;
	uint16_t age_a = g_array_index(in->sectors, struct fc_nvs_sector_info,
				       addr_sector(a->info.addr)).age;
	uint16_t age_b = g_array_index(in->sectors, struct fc_nvs_sector_info,
				       addr_sector(b->info.addr)).age;

	if (age_a != age_b)
		return age_a > age_b ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Every stored value of id (records and deletes), newest first. */
static GPtrArray *history_of(struct inspect *in, uint16_t id)
{
	GPtrArray *h = g_ptr_array_new();
	guint i;

	for (i = 0; i < in->ates->len; i++) {
		struct ate_rec *r = &g_array_index(in->ates, struct ate_rec, i);

		if (r->info.id == id && (is_record(&r->info) || r->info.status == FC_NVS_ATE_DELETED))
			g_ptr_array_add(h, r);
	}
	g_ptr_array_sort_with_data(h, newest_first, in);
	return h;
}

/* ---- output ---- */

static const char *sector_state_name(enum fc_nvs_sector_state s)
{
	switch (s) {
	case FC_NVS_SECTOR_ERASED:
		return "erased";
	case FC_NVS_SECTOR_OPEN:
		return "open";
	case FC_NVS_SECTOR_CLOSED:
		return "closed";
	case FC_NVS_SECTOR_CORRUPT:
		return "corrupt";
	}
	return "?";
}

static const char *ate_status_name(enum fc_nvs_ate_status s)
{
	switch (s) {
	case FC_NVS_ATE_LIVE:
		return "live";
	case FC_NVS_ATE_STALE:
		return "stale";
	case FC_NVS_ATE_DELETED:
		return "deleted";
	case FC_NVS_ATE_CRC_BAD:
		return "crc-bad";
	case FC_NVS_ATE_OUT_OF_BOUNDS:
		return "out-of-bounds";
	case FC_NVS_ATE_TORN:
		return "torn";
	case FC_NVS_ATE_CLOSE:
		return "close";
	case FC_NVS_ATE_GC_DONE:
		return "gc_done";
	}
	return "?";
}

static char *hex_of(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *s = g_malloc(n * 2 + 1);
	size_t i;

	/* by hand: a printf per byte was the cost of --live on big images */
	for (i = 0; i < n; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 0xf];
	}
	s[2 * n] = '\0';
	return s;
}

static char *bytes_hex(GBytes *b)
{
	gsize n;
	const uint8_t *p = g_bytes_get_data(b, &n);

	return hex_of(p, n);
}

/* Bytes an ATE points at, NULL when it points nowhere sensible. */
static GBytes *ate_data(const struct inspect *in, const struct fc_nvs_ate_info *a)
{
	if (a->len == 0 || a->status == FC_NVS_ATE_CLOSE || a->status == FC_NVS_ATE_GC_DONE ||
	    (uint32_t)a->offset + a->len > in->geo.geo.sector_size)
		return NULL;
	return g_bytes_new(sector_bytes(in, addr_sector(a->addr)) + a->offset, a->len);
}

static char *addr_text(uint32_t addr)
{
	return g_strdup_printf("%u:0x%04x", addr_sector(addr), addr_offset(addr));
}

static bool printable(GBytes *b)
{
	gsize n, i;
	const uint8_t *p = g_bytes_get_data(b, &n);

	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return n > 0;
}

static char *value_text(GBytes *b)
{
	gsize n;
	const char *p = g_bytes_get_data(b, &n);

	if (printable(b))
		return g_strdup_printf("\"%.*s\"", (int)n, p);
	return bytes_hex(b);
}

static int ate_by_flash_order(gconstpointer pa, gconstpointer pb)
{
	const struct ate_rec *a = pa, *b = pb;

	if (addr_sector(a->info.addr) != addr_sector(b->info.addr))
		return addr_sector(a->info.addr) < addr_sector(b->info.addr) ? -1 : 1;
	return addr_offset(a->info.addr) > addr_offset(b->info.addr) ? -1
	       : addr_offset(a->info.addr) < addr_offset(b->info.addr);
}

static int view_count(const struct options *o)
{
	return o->summary + o->live + o->ates + (o->history != NULL) + o->settings + o->check +
	       o->salvage;
}

static void table_heading(const struct inspect *in, const char *title)
{
	if (view_count(&in->opt) > 1)
		printf("\n== %s\n", title);
}

static void wb_options_text(GString *s, uint32_t mask)
{
	uint32_t w;
	bool first = true;

	for (w = 1; w <= 32; w <<= 1)
		if (mask & w) {
			g_string_append_printf(s, first ? "%u" : ", %u", w);
			first = false;
		}
}

static void table_geometry(const struct inspect *in)
{
	const struct nvs_geometry_report *r = &in->geo;
	GString *wb = g_string_new(NULL);

	printf("image: %s (%" G_GSIZE_FORMAT " bytes)\n", in->input.name, in->file_len);
	printf("geometry: offset %u, %u sectors of %u bytes, write block %u (ATE slot %u), "
	       "erase value 0x%02x\n",
	       r->geo.offset, r->geo.sector_count, r->geo.sector_size, r->geo.write_block,
	       r->geo.ate_size, r->geo.erase_value);
	if (r->sector_conf == NVS_CONF_GIVEN)
		printf("  sector size: given\n");
	else
		printf("  sector size: detected, %s (%u close ATEs, %u gc_done ATEs, %u ATEs on "
		       "sector stacks; score %ld, next best %u-byte sectors with %u-byte slots: "
		       "%ld)\n",
		       nvs_confidence_name(r->sector_conf), r->close_ates, r->gc_done_ates, r->ates,
		       r->score, r->runner_up_sector_size, r->runner_up_ate_size,
		       r->runner_up_score);
	wb_options_text(wb, r->wb_options);
	if (r->wb_conf == NVS_CONF_GIVEN)
		printf("  write block: given\n");
	else
		printf("  write block: detected, %s (%s fit the spacing of %u record pairs in "
		       "%u of %u sectors)\n",
		       nvs_confidence_name(r->wb_conf), wb->str, r->wb_pairs, r->wb_sectors,
		       r->geo.sector_count);
	if (r->ev_conf == NVS_CONF_GIVEN)
		printf("  erase value: given\n");
	else
		printf("  erase value: detected, %s (sectors with an erased close slot: %u as "
		       "0xff, %u as 0x00)\n",
		       nvs_confidence_name(r->ev_conf), r->ev_open[0], r->ev_open[1]);
	printf("data crc: %s\n", in->crc_reason);
	g_string_free(wb, TRUE);
}

static void table_mount(const struct inspect *in)
{
	guint i;

	if (in->mount_rc < 0) {
		printf("mount: fails: %s\n", fc_strerror(in->mount_rc));
	} else {
		printf("next write: sector %u (ATE at 0x%04x, data at 0x%04x)\n",
		       addr_sector(in->fs.ate_wra), addr_offset(in->fs.ate_wra),
		       addr_offset(in->fs.data_wra));
		printf("after mount: ate_wra=%u:0x%04x data_wra=%u:0x%04x free_space=%d\n",
		       addr_sector(in->fs.ate_wra), addr_offset(in->fs.ate_wra),
		       addr_sector(in->fs.data_wra), addr_offset(in->fs.data_wra),
		       in->zephyr_free >= 0 ? in->zephyr_free : in->free_space);
		if (in->zephyr_free < 0)
			printf("free space: %d bytes (exact; Zephyr's O(n^2) count skipped for %u "
			       "ATEs)\n",
			       in->free_space, in->stack_ates);
		else if (in->zephyr_free != in->free_space)
			printf("free space: %d bytes exactly; Zephyr reports %d (its count skips "
			       "a live entry whose id a torn ATE carries)\n",
			       in->free_space, in->zephyr_free);
	}
	if (in->actions->len == 0)
		printf("a mount changes nothing\n");
	for (i = 0; i < in->actions->len; i++)
		printf("a mount would %s\n", (const char *)g_ptr_array_index(in->actions, i));
}

static void table_summary(const struct inspect *in)
{
	guint i;

	table_heading(in, "summary");
	table_geometry(in);
	printf("%-6s %-4s %-7s %-7s %6s %6s %7s %5s %6s %6s\n", "sector", "age", "state", "gc_done",
	       "live", "stale", "deleted", "bad", "used", "free");
	for (i = 0; i < in->sectors->len; i++) {
		const struct fc_nvs_sector_info *s = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, i);

		printf("%-6u %-4u %-7s %-7s %6u %6u %7u %5u %6u %6u\n", s->sector, s->age,
		       sector_state_name(s->state), s->gc_done ? "yes" : "no", s->live, s->stale,
		       s->deleted, s->bad, s->used_bytes, s->free_bytes);
	}
	table_mount(in);
}

static void table_live(const struct inspect *in)
{
	guint i;

	table_heading(in, "live entries (what a mount reads back)");
	for (i = 0; i < in->live->len; i++) {
		const struct live_entry *e = &g_array_index(in->live, struct live_entry, i);
		char *hex;

		if (e->rc < 0) {
			printf("# id=0x%04x read fails: %s\n", e->id, fc_strerror(e->rc));
			continue;
		}
		hex = bytes_hex(e->value);
		printf("id=0x%04x len=%d data=%s\n", e->id, e->rc, hex);
		g_free(hex);
	}
}

static void table_ates(const struct inspect *in)
{
	GArray *sorted = g_array_copy(in->ates);
	guint i;

	table_heading(in, "ATEs (flash order: sector by sector, in write order)");
	g_array_sort(sorted, ate_by_flash_order);
	printf("%-9s %-6s %-6s %-5s %-4s %-4s %-13s %s\n", "addr", "id", "offset", "len", "part",
	       "crc8", "status", "data");
	for (i = 0; i < sorted->len; i++) {
		const struct ate_rec *r = &g_array_index(sorted, struct ate_rec, i);
		GBytes *d = ate_data(in, &r->info);
		char *addr = addr_text(r->info.addr), *hex = NULL;
		gsize n = 0;

		if (d) {
			const uint8_t *p = g_bytes_get_data(d, &n);

			hex = hex_of(p, MIN(n, HEX_PREVIEW));
		}
		printf("%-9s 0x%04x 0x%04x %-5u 0x%02x 0x%02x %-13s %s%s%s\n", addr, r->info.id,
		       r->info.offset, r->info.len, r->info.part, r->info.crc8,
		       ate_status_name(r->info.status), hex ? hex : "", n > HEX_PREVIEW ? "..." : "",
		       value_crc_state(in, &r->info) == 0 ? " (data crc bad)" : "");
		g_free(addr);
		g_free(hex);
		if (d)
			g_bytes_unref(d);
	}
	g_array_free(sorted, TRUE);
}

static void table_history(struct inspect *in, uint16_t id)
{
	GPtrArray *h = history_of(in, id);
	char *title = g_strdup_printf("history of id 0x%04x (%u stored, newest first)", id, h->len);
	guint i;

	table_heading(in, title);
	for (i = 0; i < h->len; i++) {
		const struct ate_rec *r = g_ptr_array_index(h, i);
		GBytes *d = ate_data(in, &r->info);
		char *addr = addr_text(r->info.addr), *hex = d ? bytes_hex(d) : g_strdup("");

		printf("%s %-7s len=%u data=%s\n", addr, ate_status_name(r->info.status), r->info.len,
		       hex);
		g_free(addr);
		g_free(hex);
		if (d)
			g_bytes_unref(d);
	}
	g_free(title);
	g_ptr_array_free(h, TRUE);
}

static void table_settings(const struct inspect *in)
{
	guint i;

	table_heading(in, "settings (name = value; \"text\" or hex)");
	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);
		char *v = value_text(s->value), *name = tool_esc_text(s->name, -1, 0);

		printf("%s = %s\n", name, v);
		g_free(name);
		g_free(v);
	}
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);

		if (g_str_has_prefix(v->code, "settings-"))
			printf("! %s\n", v->message);
	}
}

static void table_salvage(const struct inspect *in)
{
	guint i;

	table_heading(in, "salvage (UNVERIFIED values from damaged regions)");
	for (i = 0; i < in->salvage->len; i++) {
		const struct salvage_rec *s = &g_array_index(in->salvage, struct salvage_rec, i);
		char *addr = addr_text(s->addr), *hex = bytes_hex(s->value);

		if (s->id >= 0)
			printf("unverified %s at %s: id=0x%04x len=%" G_GSIZE_FORMAT " data=%s\n",
			       s->kind, addr, (unsigned)s->id, g_bytes_get_size(s->value), hex);
		else
			printf("unverified %s at %s: len=%" G_GSIZE_FORMAT " data=%s\n", s->kind,
			       addr, g_bytes_get_size(s->value), hex);
		g_free(addr);
		g_free(hex);
	}
	if (in->salvage->len == 0)
		printf("nothing to salvage\n");
}

static void table_check(const struct inspect *in)
{
	guint i;

	table_heading(in, "check");
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);

		printf("%-7s %-17s ", severity_names[v->sev], v->code);
		if (v->sector >= 0 && v->offset >= 0)
			printf("sector %d offset 0x%04lx: ", v->sector, v->offset);
		else if (v->sector >= 0)
			printf("sector %d: ", v->sector);
		else if (v->offset >= 0)
			printf("image offset 0x%lx: ", v->offset);
		printf("%s\n", v->message);
	}
	printf("%s: %d errors, %d warnings\n", in->input.name, in->errors, in->warnings);
}

/* ---- JSON (schema in README.md, "nvs-inspect JSON") ---- */

static void json_str(JsonBuilder *b, const char *key, const char *v)
{
	tool_json_str(b, key, v);
}

static void json_int(JsonBuilder *b, const char *key, gint64 v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_int_value(b, v);
}

/* v < 0 is null */
static void json_int_or_null(JsonBuilder *b, const char *key, gint64 v)
{
	if (v >= 0)
		json_int(b, key, v);
	else
		json_str(b, key, NULL);
}

static void json_bool(JsonBuilder *b, const char *key, gboolean v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_boolean_value(b, v);
}

static void json_hex(JsonBuilder *b, const char *key, GBytes *v)
{
	char *hex = v ? bytes_hex(v) : NULL;

	json_str(b, key, hex);
	g_free(hex);
}

static void json_addr(JsonBuilder *b, const char *key, uint32_t addr)
{
	char *a = addr_text(addr);

	json_str(b, key, a);
	g_free(a);
}

static void json_geometry(JsonBuilder *b, const struct inspect *in)
{
	const struct nvs_geometry_report *r = &in->geo;

	json_builder_set_member_name(b, "geometry");
	json_builder_begin_object(b);
	json_int(b, "offset", r->geo.offset);
	json_int(b, "sector_size", r->geo.sector_size);
	json_int(b, "sectors", r->geo.sector_count);
	json_int(b, "write_block", r->geo.write_block);
	json_int(b, "ate_size", r->geo.ate_size);
	json_int(b, "erase_value", r->geo.erase_value);
	json_str(b, "sector_size_confidence", nvs_confidence_name(r->sector_conf));
	json_str(b, "write_block_confidence", nvs_confidence_name(r->wb_conf));
	json_str(b, "erase_value_confidence", nvs_confidence_name(r->ev_conf));
	json_int(b, "close_ates", r->close_ates);
	json_int(b, "gc_done_ates", r->gc_done_ates);
	json_int(b, "trailing_bytes", r->trailing);
	json_int(b, "missing_bytes", r->missing);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "data_crc");
	json_builder_begin_object(b);
	json_str(b, "mode", in->opt.data_crc ? in->opt.data_crc : "auto");
	json_bool(b, "enabled", in->data_crc);
	json_str(b, "reason", in->crc_reason);
	json_builder_end_object(b);
}

static void json_summary(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "sectors");
	json_builder_begin_array(b);
	for (i = 0; i < in->sectors->len; i++) {
		const struct fc_nvs_sector_info *s = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, i);

		json_builder_begin_object(b);
		json_int(b, "sector", s->sector);
		json_int(b, "age", s->age);
		json_str(b, "state", sector_state_name(s->state));
		json_bool(b, "gc_done", s->gc_done);
		json_int(b, "live", s->live);
		json_int(b, "stale", s->stale);
		json_int(b, "deleted", s->deleted);
		json_int(b, "bad", s->bad);
		json_int(b, "used_bytes", s->used_bytes);
		json_int(b, "free_bytes", s->free_bytes);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "mount");
	json_builder_begin_object(b);
	json_bool(b, "ok", in->mount_rc >= 0);
	json_str(b, "error", in->mount_rc < 0 ? fc_strerror(in->mount_rc) : NULL);
	if (in->mount_rc >= 0) {
		json_addr(b, "ate_wra", in->fs.ate_wra);
		json_addr(b, "data_wra", in->fs.data_wra);
		json_int(b, "open_sector", addr_sector(in->fs.ate_wra));
		json_int(b, "free_space", in->free_space);
		json_int_or_null(b, "free_space_zephyr", in->zephyr_free);
	}
	json_builder_set_member_name(b, "actions");
	json_builder_begin_array(b);
	for (i = 0; i < in->actions->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(in->actions, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void json_live(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "live");
	json_builder_begin_array(b);
	for (i = 0; i < in->live->len; i++) {
		const struct live_entry *e = &g_array_index(in->live, struct live_entry, i);

		json_builder_begin_object(b);
		json_int(b, "id", e->id);
		json_int(b, "len", e->rc >= 0 ? e->rc : 0);
		json_hex(b, "data", e->value);
		json_str(b, "error", e->rc < 0 ? fc_strerror(e->rc) : NULL);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_ate(JsonBuilder *b, const struct inspect *in, const struct ate_rec *r)
{
	GBytes *d = ate_data(in, &r->info);
	int crc;

	json_builder_begin_object(b);
	json_addr(b, "addr", r->info.addr);
	json_int(b, "sector", addr_sector(r->info.addr));
	json_int(b, "slot", addr_offset(r->info.addr));
	json_int(b, "id", r->info.id);
	json_int(b, "offset", r->info.offset);
	json_int(b, "len", r->info.len);
	json_int(b, "part", r->info.part);
	json_int(b, "crc8", r->info.crc8);
	json_str(b, "status", ate_status_name(r->info.status));
	json_hex(b, "data", d);
	crc = value_crc_state(in, &r->info);
	json_str(b, "data_crc", crc < 0 ? NULL : crc ? "ok" : "bad");
	json_builder_end_object(b);
	if (d)
		g_bytes_unref(d);
}

static void json_ates(JsonBuilder *b, const struct inspect *in)
{
	GArray *sorted = g_array_copy(in->ates);
	guint i;

	g_array_sort(sorted, ate_by_flash_order);
	json_builder_set_member_name(b, "ates");
	json_builder_begin_array(b);
	for (i = 0; i < sorted->len; i++)
		json_ate(b, in, &g_array_index(sorted, struct ate_rec, i));
	json_builder_end_array(b);
	g_array_free(sorted, TRUE);
}

static void json_history(JsonBuilder *b, struct inspect *in, uint16_t id)
{
	GPtrArray *h = history_of(in, id);
	guint i;

	json_builder_set_member_name(b, "history");
	json_builder_begin_object(b);
	json_int(b, "id", id);
	json_builder_set_member_name(b, "values");
	json_builder_begin_array(b);
	for (i = 0; i < h->len; i++)
		json_ate(b, in, g_ptr_array_index(h, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	g_ptr_array_free(h, TRUE);
}

static void json_settings(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "settings");
	json_builder_begin_array(b);
	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);
		gsize n;
		const char *p = g_bytes_get_data(s->value, &n);
		char *text = printable(s->value) ? g_strndup(p, n) : NULL;

		json_builder_begin_object(b);
		json_str(b, "name", s->name);
		json_int(b, "name_id", s->name_id);
		json_hex(b, "value", s->value);
		json_str(b, "text", text);
		json_builder_end_object(b);
		g_free(text);
	}
	json_builder_end_array(b);
}

static void json_salvage(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "salvage");
	json_builder_begin_array(b);
	for (i = 0; i < in->salvage->len; i++) {
		const struct salvage_rec *s = &g_array_index(in->salvage, struct salvage_rec, i);

		json_builder_begin_object(b);
		json_str(b, "kind", s->kind);
		json_addr(b, "addr", s->addr);
		json_int_or_null(b, "id", s->id);
		json_int(b, "len", (gint64)g_bytes_get_size(s->value));
		json_hex(b, "data", s->value);
		json_bool(b, "verified", FALSE);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_verdicts(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "verdicts");
	json_builder_begin_array(b);
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);

		json_builder_begin_object(b);
		json_str(b, "severity", severity_names[v->sev]);
		json_str(b, "code", v->code);
		json_int_or_null(b, "sector", v->sector);
		json_int_or_null(b, "offset", v->offset);
		json_str(b, "message", v->message);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_int(b, "errors", in->errors);
	json_int(b, "warnings", in->warnings);
}

static void print_json(struct inspect *in, int history_id)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *gen = json_generator_new();
	JsonNode *root;
	char *text;

	json_builder_begin_object(b);
	json_int(b, "schema", 1);
	json_str(b, "file", in->path);
	json_int(b, "file_size", (gint64)in->file_len);
	json_geometry(b, in);
	if (in->opt.summary)
		json_summary(b, in);
	if (in->opt.live)
		json_live(b, in);
	if (in->opt.ates)
		json_ates(b, in);
	if (history_id >= 0)
		json_history(b, in, (uint16_t)history_id);
	if (in->opt.settings)
		json_settings(b, in);
	if (in->opt.salvage)
		json_salvage(b, in);
	json_verdicts(b, in);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	printf("%s\n", text);
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	g_object_unref(b);
}

static void print_table(struct inspect *in, int history_id)
{
	if (in->opt.summary)
		table_summary(in);
	if (in->opt.live)
		table_live(in);
	if (in->opt.ates)
		table_ates(in);
	if (history_id >= 0)
		table_history(in, (uint16_t)history_id);
	if (in->opt.settings)
		table_settings(in);
	if (in->opt.salvage)
		table_salvage(in);
	if (in->opt.check)
		table_check(in);
}

/* ---- main ---- */

static int parse_id(const char *s)
{
	char *end;
	unsigned long v;

	if (!s)
		return -1;
	v = strtoul(s, &end, 0);
	if (*s == '\0' || *end || v >= NVS_SPECIAL_ID)
		return -2;
	return (int)v;
}

/* A size, count or offset option: decimal or 0x hex, 0..0xffffffff. */
static gboolean parse_u32(const char *opt, const char *s, guint32 *v, char **why)
{
	guint64 n;
	char *end, *shown;

	if (!s)
		return TRUE;
	shown = tool_esc_name(s);
	errno = 0;
	n = g_ascii_strtoull(s, &end, 0);
	if (*s == '-')
		*why = g_strdup_printf("%s %s: must not be negative", opt, shown);
	else if (!g_ascii_isdigit(*s) || *end)
		*why = g_strdup_printf("%s %s: not a number (decimal, or hex with 0x)", opt, shown);
	else if (errno == ERANGE || n > G_MAXUINT32)
		*why = g_strdup_printf("%s %s: larger than the largest 32-bit value, %u", opt,
				       shown, G_MAXUINT32);
	g_free(shown);
	*v = (guint32)n;
	return *why == NULL;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
	char *help = g_option_context_get_help(ctx, TRUE, NULL);

	g_printerr("nvs-inspect: %s\n%s", msg, help);
	g_free(help);
	return 2;
}

static int parse_options(struct inspect *in, int *argc, char ***argv, int *history_id)
{
	struct options *o = &in->opt;
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		{ "sector-size", 0, 0, G_OPTION_ARG_STRING, &o->sector_size_s, "Sector size in bytes (default: detect)", "BYTES" },
		{ "sectors", 0, 0, G_OPTION_ARG_STRING, &o->sectors_s, "Number of sectors (default: detect)", "N" },
		{ "write-block", 0, 0, G_OPTION_ARG_STRING, &o->write_block_s, "Write block size in bytes (default: detect)", "BYTES" },
		{ "offset", 0, 0, G_OPTION_ARG_STRING, &o->offset_s, "Partition start in the image (default 0)", "BYTES" },
		{ "erase-value", 0, 0, G_OPTION_ARG_STRING, &o->erase_value, "Erased byte value (default: detected, 0xff or 0x00)", "BYTE" },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &o->summary, "Geometry, sector map, write position, free space, what a mount does", NULL },
		{ "live", 0, 0, G_OPTION_ARG_NONE, &o->live, "Entries a mount reads back: id=0x%04x len=N data=HEX", NULL },
		{ "ates", 0, 0, G_OPTION_ARG_NONE, &o->ates, "Every ATE with its address, fields, status and data", NULL },
		{ "history", 0, 0, G_OPTION_ARG_STRING, &o->history, "Every stored value of an id, newest first", "ID" },
		{ "settings", 0, 0, G_OPTION_ARG_NONE, &o->settings, "Settings names and values, orphans flagged", NULL },
		{ "check", 0, 0, G_OPTION_ARG_NONE, &o->check, "Integrity verdicts; exit 1 on any error", NULL },
		{ "data-crc", 0, 0, G_OPTION_ARG_STRING, &o->data_crc, "Values carry a CRC-32: auto (default), on, off", "MODE" },
		{ "salvage", 0, 0, G_OPTION_ARG_NONE, &o->salvage, "Unverified values readable from damaged regions", NULL },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &o->format, "Output format: table (default) or json", "FMT" },
		{ "version", 0, 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionContext *ctx = g_option_context_new("IMAGE");
	GError *err = NULL;
	char *bad = NULL;
	int ev, rc = 0;

	g_option_context_set_summary(ctx, "Read a Zephyr NVS / settings flash dump (never writes it).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		rc = usage_error(ctx, err->message);
		g_error_free(err);
	} else if (version) {
		printf("nvs-inspect %s\n", PACKAGE_VERSION);
		rc = -1;
	} else if (*argc != 2) {
		rc = usage_error(ctx, "expected exactly one IMAGE");
	} else if (o->format && strcmp(o->format, "table") && strcmp(o->format, "json")) {
		rc = usage_error(ctx, "--format must be table or json");
	} else if (o->data_crc && strcmp(o->data_crc, "auto") && strcmp(o->data_crc, "on") &&
		   strcmp(o->data_crc, "off")) {
		rc = usage_error(ctx, "--data-crc must be auto, on or off");
	} else if ((*history_id = parse_id(o->history)) == -2) {
		rc = usage_error(ctx, "--history needs an id 0..0xfffe");
	} else if (!parse_erase_value(in, &ev)) {
		rc = usage_error(ctx, "--erase-value must be a byte (0..0xff)");
	} else if (!parse_u32("--sector-size", o->sector_size_s, &o->sector_size, &bad) ||
		   !parse_u32("--sectors", o->sectors_s, &o->sectors, &bad) ||
		   !parse_u32("--write-block", o->write_block_s, &o->write_block, &bad) ||
		   !parse_u32("--offset", o->offset_s, &o->offset, &bad)) {
		rc = usage_error(ctx, bad);
	}
	g_free(bad);
	g_option_context_free(ctx);
	if (rc == 0 && view_count(o) == 0)
		o->summary = o->live = TRUE;
	return rc;
}

static void free_inspect(struct inspect *in)
{
	guint i;

	for (i = 0; i < in->live->len; i++)
		if (g_array_index(in->live, struct live_entry, i).value)
			g_bytes_unref(g_array_index(in->live, struct live_entry, i).value);
	for (i = 0; i < in->settings->len; i++) {
		g_free(g_array_index(in->settings, struct setting, i).name);
		g_bytes_unref(g_array_index(in->settings, struct setting, i).value);
	}
	free_salvage(in->salvage);
	free_verdicts(in->verdicts);
	free_verdicts(in->walk_verdicts);
	g_array_free(in->live, TRUE);
	g_array_free(in->settings, TRUE);
	g_array_free(in->salvage, TRUE);
	g_array_free(in->verdicts, TRUE);
	g_array_free(in->walk_verdicts, TRUE);
	g_array_free(in->sectors, TRUE);
	g_array_free(in->ates, TRUE);
	g_array_free(in->sector_recs, TRUE);
	g_ptr_array_free(in->actions, TRUE);
	g_free(in->scratch);
	g_free(in->index);
	g_free(in->touched);
	g_free(in->padded);
	tool_input_free(&in->input);
	g_free(in->opt.sector_size_s);
	g_free(in->opt.sectors_s);
	g_free(in->opt.write_block_s);
	g_free(in->opt.offset_s);
	g_free(in->opt.erase_value);
	g_free(in->opt.data_crc);
	g_free(in->opt.format);
	g_free(in->opt.history);
}

static int inspect(struct inspect *in, int history_id)
{
	GError *err = NULL;
	const struct options *o = &in->opt;
	bool json;
	GThread *mount;

	/* A file is mapped, never read into a buffer; a pipe is read into memory. */
	if (!tool_input_load(&in->input, in->path, &err)) {
		g_printerr("nvs-inspect: %s\n", err->message);
		g_error_free(err);
		return 1;
	}
	in->file = in->input.data;
	in->file_len = in->input.len;
	if (in->file_len == 0) {
		g_printerr("nvs-inspect: %s: the file is empty\n", in->input.name);
		return 1;
	}
	populate(in->file, in->file_len);
	if (load_geometry(in) < 0 || build_partition(in) < 0)
		return 1;
	json = o->format && !strcmp(o->format, "json");
	in->keep_ates = o->ates || history_id >= 0;
	/* JSON always carries the verdicts, for scripts that diff them */
	in->check_sectors = o->check || o->salvage || json;
	mount = mount_copy_start(in);
	walk_dump(in);
	decide_data_crc(in);
	mount_copy_finish(in, mount);
	if (in->mount_rc >= 0 && o->live)
		read_live(in);
	if (in->mount_rc >= 0 && o->settings)
		read_settings(in);
	if (in->check_sectors)
		run_checks(in);
	tally_verdicts(in);
	if (json)
		print_json(in, history_id);
	else
		print_table(in, history_id);
	return o->check && in->errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct inspect in;
	int history_id = -1, rc;

	memset(&in, 0, sizeof(in));
	in.sectors = g_array_new(FALSE, TRUE, sizeof(struct fc_nvs_sector_info));
	in.ates = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));
	in.live = g_array_new(FALSE, FALSE, sizeof(struct live_entry));
	in.settings = g_array_new(FALSE, FALSE, sizeof(struct setting));
	in.salvage = g_array_new(FALSE, FALSE, sizeof(struct salvage_rec));
	in.verdicts = g_array_new(FALSE, FALSE, sizeof(struct verdict));
	in.walk_verdicts = g_array_new(FALSE, FALSE, sizeof(struct verdict));
	in.sector_recs = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));
	in.actions = g_ptr_array_new_with_free_func(g_free);
	rc = parse_options(&in, &argc, &argv, &history_id);
	if (rc == 0) {
		in.path = argv[1];
		rc = inspect(&in, history_id);
	} else if (rc < 0) {
		rc = 0;
	}
	free_inspect(&in);
	return rc;
}
