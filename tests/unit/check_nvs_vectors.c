/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interoperability with Zephyr: every image of fixtures/nvs/zephyr mounts and
 * reads back exactly what Zephyr read from it (in every lookup mode), and
 * replaying the README's workloads on a blank device writes the same image
 * byte for byte.
 */
#include "check_util.h"
#include "check_nvs_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/nvs.h"

#define VEC_DIR "fixtures/nvs/zephyr"

struct entry {
	uint16_t id;
	uint16_t len;
	uint8_t data[512];
};

struct expect {
	unsigned int sector_size, sectors, wbs, page;
	bool crc;
	uint32_t ate_wra, data_wra;
	int free_space;
	GArray *entries; /* struct entry */
	uint8_t present[0x10000 / 8];
};

static GPtrArray *images; /* image names without suffix */

static void parse_expect(const char *name, struct expect *e)
{
	char *rel = g_strdup_printf(VEC_DIR "/%s.expect.txt", name);
	size_t len;
	char *text = (char *)fc_check_load(rel, &len);
	char **lines = g_strsplit(text, "\n", -1);
	unsigned int as, ao, ds, dof;
	int geo = 0, after = 0;

	memset(e, 0, sizeof(*e));
	e->entries = g_array_new(FALSE, TRUE, sizeof(struct entry));
	for (char **l = lines; *l; l++) {
		struct entry en;
		unsigned int id, n;
		char hex[1100];

		if (g_str_has_prefix(*l, "# build:")) {
			e->crc = strstr(*l, "nvs_data_crc=on") != NULL;
		} else if (sscanf(*l, "# geometry: sector_size=%u sectors=%u write_block_size=%u "
				  "erase_value=0xff page_size=%u",
				  &e->sector_size, &e->sectors, &e->wbs, &e->page) == 4) {
			geo = 1;
		} else if (sscanf(*l, "# after mount: ate_wra=%u:0x%x data_wra=%u:0x%x free_space=%d",
				  &as, &ao, &ds, &dof, &e->free_space) == 5) {
			e->ate_wra = as << 16 | ao;
			e->data_wra = ds << 16 | dof;
			after = 1;
		} else if (sscanf(*l, "id=0x%x len=%u data=%1099s", &id, &n, hex) == 3) {
			ck_assert_uint_le(n, sizeof(en.data));
			ck_assert_uint_eq(strlen(hex), 2 * n);
			en.id = (uint16_t)id;
			en.len = (uint16_t)n;
			for (unsigned int k = 0; k < n; k++)
				en.data[k] = (uint8_t)g_ascii_strtoull((char[]){ hex[2 * k], hex[2 * k + 1], 0 },
								      NULL, 16);
			g_array_append_val(e->entries, en);
			e->present[id / 8] |= (uint8_t)(1u << id % 8);
		}
	}
	ck_assert_msg(geo && after, "%s: geometry or after-mount line missing", rel);
	g_strfreev(lines);
	g_free(text);
	g_free(rel);
}

struct dev {
	uint8_t *mem;
	size_t size;
	struct fc_ram_flash ram;
	struct counting_flash cnt;
	struct fc_cache_slot slots[1024];
	uint8_t read_buf[4096];
};

static void dev_load(struct dev *d, const char *name, const struct expect *e)
{
	char *rel = g_strdup_printf(VEC_DIR "/%s.bin", name);
	struct fc_flash_geometry geo = {
		.erase_size = e->page, .write_size = e->wbs, .erase_value = 0xff,
	};

	d->mem = fc_check_load(rel, &d->size);
	ck_assert_uint_eq(d->size, (size_t)e->sector_size * e->sectors);
	geo.size = (uint32_t)d->size;
	ck_assert_int_eq(fc_ram_flash_init(&d->ram, &geo, d->mem), 0);
	counting_flash_init(&d->cnt, &d->ram.dev);
	g_free(rel);
}

/* read_buf: bytes of read buffer, 0 for none (slots read one by one). */
static struct fc_nvs_config dev_config(struct dev *d, const struct expect *e,
				       enum fc_nvs_lookup lookup, uint32_t slots, uint32_t read_buf)
{
	struct fc_nvs_config cfg = {
		.flash = &d->cnt.dev, .offset = 0, .sector_size = e->sector_size,
		.sector_count = (uint16_t)e->sectors, .data_crc = e->crc, .lookup = lookup,
		.index_slots = slots ? d->slots : NULL, .index_slot_count = slots,
		.read_buf = read_buf ? d->read_buf : NULL, .read_buf_size = read_buf,
	};
	return cfg;
}

static void check_entries(struct fc_nvs *fs, const char *name, const struct expect *e)
{
	uint8_t buf[600];

	for (guint k = 0; k < e->entries->len; k++) {
		const struct entry *en = &g_array_index(e->entries, struct entry, k);
		int rc = fc_nvs_read(fs, en->id, buf, sizeof(buf));

		ck_assert_msg(rc == en->len, "%s: id 0x%04x: read %d, want len %u", name, en->id, rc,
			      en->len);
		ck_assert_msg(memcmp(buf, en->data, en->len) == 0, "%s: id 0x%04x: data differs",
			      name, en->id);
	}
}

static bool expected_id(const struct expect *e, uint32_t id)
{
	return e->present[id / 8] >> id % 8 & 1;
}

#ifndef FC_NO_INDEX
/* Every id Zephyr did not read back is absent. */
static void check_absent(struct fc_nvs *fs, const char *name, const struct expect *e)
{
	uint8_t buf[8];

	for (uint32_t id = 0; id <= 0xffff; id++) {
		if (expected_id(e, id))
			continue;
		ck_assert_msg(fc_nvs_read(fs, (uint16_t)id, buf, sizeof(buf)) == FC_ENOENT,
			      "%s: id 0x%04x should be absent", name, id);
	}
}
#endif

/*
 * Where our free space knowingly differs from Zephyr's: a torn ATE carrying
 * a live id's number makes Zephyr's O(n^2) count skip that live entry
 * (it matches ids without checking the crc8), so Zephyr reports its 12 bytes
 * as free. The index counts live entries exactly. A read-only mount leaves
 * the sector whose erase was cut after its GC as it is, and counts the
 * gc_done ATE it still holds, which Zephyr's mount erases.
 */
static int free_space_deviation(const char *name, const struct fc_nvs *fs)
{
	if (fs->cfg.lookup == FC_NVS_LOOKUP_INDEX && !strcmp(name, "nvs_cut_ate"))
		return -12;
#ifdef FC_READONLY
	if (!strcmp(name, "nvs_cut_erase"))
		return -(int)fs->ate_size;
#endif
	return 0;
}

#ifdef FC_READONLY
/*
 * An FC_READONLY (and FC_NO_EMULATION) build on every vector, the power-cut
 * ones too: with no repairs it reads back exactly what Zephyr read after its
 * repairing mount, every other id is absent, and it never programs or
 * erases (the device is read-only: any attempt would also fail the mount);
 * with any read buffer, or none. Free space is Zephyr's (see
 * free_space_deviation). Built with FC_NO_INDEX too
 * (check_nvs_noindex): the same without an index.
 */
#ifdef FC_NO_INDEX
#define READONLY_SLOTS 0 /* every lookup walks the log */

/*
 * Without an index each absent id walks the whole log: the ids to try are
 * those of every ATE slot with a good crc8 in the image (deleted, stale and
 * torn ones), and every 97th other id.
 */
static void check_absent_walked(struct fc_nvs *fs, const char *name, const struct expect *e,
				const uint8_t *mem)
{
	uint8_t buf[8], tried[0x10000 / 8] = { 0 };
	uint32_t ate = FC_MAX(FC_NVS_ATE_BYTES, e->wbs);

	for (uint32_t id = 0; id <= 0xffff; id += 97)
		tried[id / 8] |= (uint8_t)(1u << id % 8);
	for (uint32_t s = 0; s < e->sectors; s++) {
		for (uint32_t o = ate; o <= e->sector_size; o += ate) {
			struct fc_nvs_ate a;

			fc_nvs_ate_decode(mem + s * e->sector_size + e->sector_size - o, 0xff, &a);
			if (a.crc_ok)
				tried[a.id / 8] |= (uint8_t)(1u << a.id % 8);
		}
	}
	for (uint32_t id = 0; id <= 0xffff; id++) {
		if (expected_id(e, id) || !(tried[id / 8] >> id % 8 & 1))
			continue;
		ck_assert_msg(fc_nvs_read(fs, (uint16_t)id, buf, sizeof(buf)) == FC_ENOENT,
			      "%s: id 0x%04x should be absent", name, id);
	}
}
#else
#define READONLY_SLOTS 1024
#endif

START_TEST(vector_readonly)
{
	const char *name = g_ptr_array_index(images, _i);
	struct expect e;
	struct dev *d = g_new0(struct dev, 1);
	struct fc_rom_flash rom;
	struct fc_nvs fs;
	struct fc_nvs_config cfg;

	parse_expect(name, &e);
	dev_load(d, name, &e);
	ck_assert_int_eq(fc_rom_flash_init(&rom, &d->ram.dev.geo, d->mem), 0);
	counting_flash_init(&d->cnt, &rom.dev);
	for (uint32_t rb = 0; rb <= sizeof(d->read_buf); rb = rb ? rb * 8 : FC_NVS_BLOCK) {
		cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, READONLY_SLOTS, rb);
		ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
		check_entries(&fs, name, &e);
		int free = fc_nvs_calc_free_space(&fs);

		ck_assert_msg(free == e.free_space + free_space_deviation(name, &fs),
			      "%s: read buffer %u: free %d, Zephyr %d", name, rb, free, e.free_space);
#ifdef FC_NO_INDEX
		check_absent_walked(&fs, name, &e, d->mem);
#else
		check_absent(&fs, name, &e);
#endif
	}
	ck_assert_uint_eq(d->cnt.progs, 0);
	ck_assert_uint_eq(d->cnt.erases, 0);
#ifdef FC_NO_INDEX
	cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 1024, FC_NVS_READ_BUF_SIZE);
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), FC_EINVAL); /* built without one */
	cfg.index_slots = NULL;
	cfg.index_slot_count = 0;
#endif
#ifdef FC_NO_ATE_CACHE
	cfg.ate_cache = d->read_buf;
	cfg.ate_cache_size = 64;
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), FC_EINVAL); /* built without one */
#endif
	g_array_free(e.entries, TRUE);
	g_free(d->mem);
	g_free(d);
}
END_TEST

#else
static void check_mount_state(struct fc_nvs *fs, const char *name, const struct expect *e)
{
	int want = e->free_space + free_space_deviation(name, fs);

	ck_assert_msg(fs->ate_wra == e->ate_wra, "%s: ate_wra %x, Zephyr %x", name, fs->ate_wra,
		      e->ate_wra);
	ck_assert_msg(fs->data_wra == e->data_wra, "%s: data_wra %x, Zephyr %x", name,
		      fs->data_wra, e->data_wra);
	ck_assert_msg(fc_nvs_calc_free_space(fs) == want, "%s: lookup %d/%u: free %d, want %d",
		      name, fs->cfg.lookup, fs->cfg.index_slot_count, fc_nvs_calc_free_space(fs), want);
}

/*
 * An FC_NO_DATA_CRC build (check_nvs_nocrc, the size report's full
 * engine) refuses a configuration with data CRC: true when cfg is one.
 */
static bool crc_refused(const struct fc_nvs_config *cfg)
{
#ifdef FC_NO_DATA_CRC
	struct fc_nvs fs;

	if (cfg->data_crc) {
		ck_assert_int_eq(fc_nvs_mount(&fs, cfg), FC_EINVAL);
		return true;
	}
#endif
	(void)cfg;
	return false;
}

/* The full index: exact values, no other id, and misses and free space read nothing. */
START_TEST(vector_index)
{
	const char *name = g_ptr_array_index(images, _i);
	struct expect e;
	struct dev *d = g_new0(struct dev, 1);
	struct fc_nvs fs;
	struct fc_nvs_config cfg;

	parse_expect(name, &e);
	dev_load(d, name, &e);
	cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 1024, FC_NVS_READ_BUF_SIZE);
	if (!crc_refused(&cfg)) {
		ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
		check_mount_state(&fs, name, &e);
		check_entries(&fs, name, &e);
		counting_flash_reset(&d->cnt);
		check_absent(&fs, name, &e);
		fc_nvs_calc_free_space(&fs);
		ck_assert_uint_eq(d->cnt.reads, 0);
	}
	g_array_free(e.entries, TRUE);
	g_free(d->mem);
	g_free(d);
}
END_TEST

#ifndef FC_NO_EMULATION /* Zephyr's lookups and the walk's comparisons with them */
/*
 * Zephyr's lookup cache and O(n^2) free space, an index too small for every
 * id, and read buffers of every size (none: slot by slot).
 */
START_TEST(vector_other_lookups)
{
	static const struct {
		enum fc_nvs_lookup lookup;
		uint32_t slots, read_buf;
	} modes[] = {
		{ FC_NVS_LOOKUP_ZEPHYR, 128, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_ZEPHYR, 0, 0 },
		{ FC_NVS_LOOKUP_INDEX, 16, 64 },
		{ FC_NVS_LOOKUP_INDEX, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 1024, 0 },
		{ FC_NVS_LOOKUP_INDEX, 1024, FC_NVS_BLOCK },
		{ FC_NVS_LOOKUP_INDEX, 16, 4096 },
		{ FC_NVS_LOOKUP_INDEX, 0, 0 },
	};
	const char *name = g_ptr_array_index(images, _i);
	struct expect e;

	parse_expect(name, &e);
	for (size_t m = 0; m < G_N_ELEMENTS(modes); m++) {
		struct dev *d = g_new0(struct dev, 1);
		struct fc_nvs fs;
		struct fc_nvs_config cfg;
		uint8_t buf[8];

		dev_load(d, name, &e);
		cfg = dev_config(d, &e, modes[m].lookup, modes[m].slots, modes[m].read_buf);
		ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
		check_mount_state(&fs, name, &e);
		check_entries(&fs, name, &e);
		for (uint32_t id = 0; id < 0x10000; id += 0x3f1)
			if (!expected_id(&e, id))
				ck_assert_int_eq(fc_nvs_read(&fs, (uint16_t)id, buf, 8), FC_ENOENT);
		g_free(d->mem);
		g_free(d);
	}
	g_array_free(e.entries, TRUE);
}
END_TEST

/* ---- the read-only walk ---- */

struct walk_log {
	const struct expect *e;
	const uint8_t *mem;
	unsigned int sector_size;
	unsigned int sectors, live, torn, corrupt, ages, crc_ok, last_age;
	int stop_after;
	unsigned int ates;
	uint32_t sig; /* of every callback's fields, in order */
};

static void sig_mix(struct walk_log *w, uint32_t v)
{
	w->sig = (w->sig ^ v) * 16777619u;
}

static int on_sector(void *ctx, const struct fc_nvs_sector_info *si)
{
	struct walk_log *w = ctx;

	ck_assert_uint_eq(si->age, w->sectors); /* oldest first, each sector once */
	sig_mix(w, si->sector);
	sig_mix(w, si->state);
	sig_mix(w, si->gc_done);
	sig_mix(w, si->live);
	sig_mix(w, si->stale);
	sig_mix(w, si->deleted);
	sig_mix(w, si->bad);
	sig_mix(w, si->used_bytes);
	sig_mix(w, si->free_bytes);
	w->sectors++;
	w->corrupt += si->state == FC_NVS_SECTOR_CORRUPT;
	ck_assert_uint_le(si->used_bytes + si->free_bytes, w->sector_size);
	return 0;
}

static int on_ate(void *ctx, const struct fc_nvs_ate_info *ai)
{
	struct walk_log *w = ctx;

	sig_mix(w, ai->addr);
	sig_mix(w, ai->id);
	sig_mix(w, ai->offset);
	sig_mix(w, ai->len);
	sig_mix(w, ai->status);
	sig_mix(w, ai->data_crc_ok);
	w->ates++;
	if (w->stop_after && (int)w->ates == w->stop_after)
		return 42;
	w->torn += ai->status == FC_NVS_ATE_TORN;
	if (ai->status != FC_NVS_ATE_LIVE)
		return 0;
	w->live++;
	w->crc_ok += ai->data_crc_ok;
	for (guint k = 0; k < w->e->entries->len; k++) {
		const struct entry *en = &g_array_index(w->e->entries, struct entry, k);
		const uint8_t *data = w->mem + (ai->addr >> 16) * w->sector_size + ai->offset;

		if (en->id != ai->id)
			continue;
		ck_assert_uint_eq(ai->len, en->len + (w->e->crc ? 4 : 0));
		ck_assert_mem_eq(data, en->data, en->len);
		return 0;
	}
	ck_abort_msg("live id 0x%04x not expected", ai->id);
	return 0;
}

START_TEST(vector_walk)
{
	const char *name = g_ptr_array_index(images, _i);
	struct expect e;
	struct dev *d = g_new0(struct dev, 1);
	struct fc_rom_flash rom;
	struct fc_nvs_config cfg;
	struct fc_nvs_walk_ops ops = { .sector = on_sector, .ate = on_ate };
	struct walk_log w = { 0 }, wbits;
	uint8_t *orig;
	uint32_t sig;

	parse_expect(name, &e);
	dev_load(d, name, &e);
	orig = g_memdup2(d->mem, d->size);
	/* a read-only device: the walk must not try to write */
	ck_assert_int_eq(fc_rom_flash_init(&rom, &d->ram.dev.geo, d->mem), 0);
	counting_flash_init(&d->cnt, &rom.dev);
	cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 1024, FC_NVS_READ_BUF_SIZE);
	w.e = &e;
	w.mem = d->mem;
	w.sector_size = e.sector_size;
	ck_assert_int_eq(fc_nvs_walk(&cfg, &ops, &w), 0);
	ck_assert_uint_eq(w.sectors, e.sectors);
	ck_assert_uint_eq(w.live, e.entries->len);
	ck_assert_uint_eq(w.crc_ok, e.crc ? e.entries->len : 0);
	ck_assert_uint_eq(w.torn, !strcmp(name, "nvs_cut_ate") || !strcmp(name, "nvs_cut_close"));
	ck_assert_uint_eq(w.corrupt, !strcmp(name, "nvs_cut_close"));
	ck_assert_uint_eq(d->cnt.progs + d->cnt.erases, 0);
	ck_assert_mem_eq(d->mem, orig, d->size);
	/* slot bits for the walk to remember crc8 and live checks: same callbacks */
	sig = w.sig;
	memset(&wbits, 0, sizeof(wbits));
	wbits.e = &e;
	wbits.mem = d->mem;
	wbits.sector_size = e.sector_size;
	ops.slot_bits_words = FC_NVS_WALK_BITS_WORDS(e.sector_size, e.sectors);
	ops.slot_bits = g_new(uint32_t, ops.slot_bits_words);
	memset(ops.slot_bits, 0xa5, ops.slot_bits_words * sizeof(uint32_t)); /* not cleared */
	ck_assert_int_eq(fc_nvs_walk(&cfg, &ops, &wbits), 0);
	ck_assert_uint_eq(wbits.ates, w.ates);
	ck_assert_uint_eq(wbits.live, w.live);
	ck_assert_uint_eq(wbits.sig, sig);
	/* and without a read buffer, or with the smallest */
	for (uint32_t rb = 0; rb <= FC_NVS_BLOCK; rb += FC_NVS_BLOCK) {
		memset(&wbits, 0, sizeof(wbits));
		wbits.e = &e;
		wbits.mem = d->mem;
		wbits.sector_size = e.sector_size;
		cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 1024, rb);
		ck_assert_int_eq(fc_nvs_walk(&cfg, &ops, &wbits), 0);
		ck_assert_uint_eq(wbits.sig, sig);
	}
	cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 1024, FC_NVS_READ_BUF_SIZE);
	g_free(ops.slot_bits);
	ops.slot_bits = NULL;
	ops.slot_bits_words = 0;
	/* a callback's value stops the walk */
	memset(&w, 0, sizeof(w));
	w.e = &e;
	w.mem = d->mem;
	w.sector_size = e.sector_size;
	w.stop_after = 3;
	ck_assert_int_eq(fc_nvs_walk(&cfg, &ops, &w), 42);
	/* too few scratch slots for the ids present */
	cfg = dev_config(d, &e, FC_NVS_LOOKUP_INDEX, 4, FC_NVS_READ_BUF_SIZE);
	ck_assert_int_eq(fc_nvs_walk(&cfg, &ops, &w), FC_ENOMEM);
	g_free(orig);
	g_array_free(e.entries, TRUE);
	g_free(d->mem);
	g_free(d);
}
END_TEST
#endif /* FC_NO_EMULATION */

/* ---- write-side replay of the README's workloads ---- */

struct workload {
	char name[64];
	unsigned int sector_size, sectors, wbs, count, value_len;
	bool crc, vary;
	char passes[256];
};

static GArray *workloads; /* struct workload */

/* Rows of the README table we can replay: plain NVS images, not cut, not kvss. */
static void load_workloads(void)
{
	char *path = fc_check_path(VEC_DIR "/README.md");
	char *text = NULL;
	char **lines;

	workloads = g_array_new(FALSE, TRUE, sizeof(struct workload));
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return;
	lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		char **f = g_strsplit(*l, "|", -1);
		struct workload w;

		if (g_strv_length(f) == 13 && g_str_has_suffix(g_strstrip(f[1]), ".bin") &&
		    !strcmp(g_strstrip(f[3]), "nvs") && !g_str_has_prefix(f[1], "kvss") &&
		    !strstr(f[11], "--cut")) {
			memset(&w, 0, sizeof(w));
			g_strlcpy(w.name, f[1], strlen(f[1]) - 3);
			w.crc = !strcmp(g_strstrip(f[2]), "crc");
			w.sector_size = (unsigned int)atoi(f[4]);
			w.sectors = (unsigned int)atoi(f[5]);
			w.wbs = (unsigned int)atoi(f[6]);
			w.count = (unsigned int)atoi(f[8]);
			w.value_len = (unsigned int)atoi(f[9]);
			g_strlcpy(w.passes, g_strstrip(f[10]), sizeof(w.passes));
			w.vary = strstr(f[11], "--vary-len") != NULL;
			g_array_append_val(workloads, w);
		}
		g_strfreev(f);
	}
	g_strfreev(lines);
	g_free(text);
	g_free(path);
}

START_TEST(replay_writes_zephyr_image)
{
	const struct workload *w = &g_array_index(workloads, struct workload, _i);
	size_t size = (size_t)w->sector_size * w->sectors, zlen;
	char *rel = g_strdup_printf(VEC_DIR "/%s.bin", w->name);
	uint8_t *zimg = fc_check_load(rel, &zlen);
	uint8_t *mem = g_malloc(size);
	struct fc_flash_geometry geo = {
		.size = (uint32_t)size, .erase_size = w->sector_size, .write_size = w->wbs,
		.erase_value = 0xff,
	};
	struct fc_ram_flash ram;
	struct fc_cache_slot slots[512];
	struct fc_nvs_config cfg = {
		.flash = &ram.dev, .sector_size = w->sector_size, .sector_count = (uint16_t)w->sectors,
		.data_crc = w->crc, .lookup = FC_NVS_LOOKUP_INDEX, .index_slots = slots,
		.index_slot_count = 512,
	};
	struct fc_nvs fs;
	char **passes = g_strsplit(w->passes, ",", -1);
	unsigned int g = 0;
	uint8_t val[64];

	memset(mem, 0xff, size);
	ck_assert_int_eq(fc_ram_flash_init(&ram, &geo, mem), 0);
	if (crc_refused(&cfg))
		goto done;
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
	for (char **p = passes; *p; p++) {
		bool del = g_str_has_prefix(*p, "del:"), part = g_str_has_prefix(*p, "part:");
		unsigned int k = del || part ? (unsigned int)atoi(strchr(*p, ':') + 1) : 1;

		if (!del && strcmp(*p, "same"))
			g++;
		for (unsigned int i = 0; i < w->count; i++) {
			unsigned int len = w->vary ? 1 + (7 * i) % w->value_len : w->value_len;

			if (i % k)
				continue;
			nvs_vector_value(val, i, g, len);
			if (del)
				ck_assert_int_eq(fc_nvs_delete(&fs, (uint16_t)(i + 1)), 0);
			else
				ck_assert_int_ge(fc_nvs_write(&fs, (uint16_t)(i + 1), val, len), 0);
		}
	}
	ck_assert_uint_eq(zlen, size);
	for (size_t off = 0; off < size; off++)
		ck_assert_msg(mem[off] == zimg[off], "%s: byte 0x%zx: ours %02x, Zephyr %02x", w->name,
			      off, mem[off], zimg[off]);
done:
	g_strfreev(passes);
	g_free(mem);
	g_free(zimg);
	g_free(rel);
}
END_TEST

#endif /* FC_READONLY */

static void find_images(void)
{
	char *dir = fc_check_path(VEC_DIR);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;

	images = g_ptr_array_new_with_free_func(g_free);
	while (d && (n = g_dir_read_name(d)))
		if (g_str_has_suffix(n, ".expect.txt"))
			g_ptr_array_add(images, g_strndup(n, strlen(n) - strlen(".expect.txt")));
	if (d)
		g_dir_close(d);
	g_free(dir);
}

int main(void)
{
	Suite *s = suite_create("nvs_vectors");
	TCase *tc = tcase_create("zephyr");

	find_images();
#ifdef FC_READONLY
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, vector_readonly, 0, (int)images->len);
	suite_add_tcase(s, tc);
	return images->len == 25 ? fc_check_run(s) : 1;
#else
	load_workloads();
	/* the fixtures hold 25 images, 13 of them replayable */
	if (images->len != 25 || workloads->len != 13) {
		fprintf(stderr, "found %u images and %u workloads, expected 25 and 13\n", images->len,
			workloads->len);
		return 1;
	}
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, vector_index, 0, (int)images->len);
#ifndef FC_NO_EMULATION
	tcase_add_loop_test(tc, vector_other_lookups, 0, (int)images->len);
	tcase_add_loop_test(tc, vector_walk, 0, (int)images->len);
#endif
	tcase_add_loop_test(tc, replay_writes_zephyr_image, 0, (int)workloads->len);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
#endif
}
