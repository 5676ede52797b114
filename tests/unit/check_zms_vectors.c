/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interoperability with Zephyr's ZMS: every image of fixtures/zms/zephyr
 * mounts and reads back exactly what Zephyr read from it, with Zephyr's
 * write pointers, cycle and free space (in every lookup mode; the
 * differences on power-cut images are the torn-data rule, checked here),
 * and replaying the README's workloads on a blank device writes the same
 * image byte for byte with the same number of programs and erases.
 */
#include "check_util.h"
#include "check_zms_util.h"
#include "fdtcache/crc.h"

#include <stdio.h>
#include <string.h>

static const char *const images[] = {
	"zms_small_wbs1", "zms_small_wbs2", "zms_small_wbs4", "zms_small_wbs8",
	"zms_small_wbs32", "zms_inline_only", "zms_large_values", "zms_history",
	"zms_deletes_nowrap", "zms_gc_wrap_nor", "zms_rram_cycles", "zms_rram_cycle_wrap",
	"zms_crc_small", "zms_crc_gc", "zms_id64_small", "zms_cache_on", "zms_cache_off",
	"zms_no_double_write", "zms_cut_data", "zms_cut_ate", "zms_cut_ate_inline",
	"zms_cut_gc_copy", "zms_cut_erase", "zms_rram_cut_empty", "settings_rpl",
	"settings_many_saves", "settings_cut",
};

/* Images where a cut value or ATE left bytes above Zephyr's data_wra. */
static bool torn_data(const char *name)
{
	return !strcmp(name, "zms_cut_data") || !strcmp(name, "zms_cut_ate");
}

static void check_entries(struct fc_zms *fs, const char *name, const struct zms_expect *e)
{
	static uint8_t buf[1100];

	for (guint k = 0; k < e->entries->len; k++) {
		const struct zms_entry *en = &g_array_index(e->entries, struct zms_entry, k);
		int rc = fc_zms_read(fs, en->id, buf, sizeof(buf));

		ck_assert_msg(rc == (int)en->len, "%s: id 0x%llx: read %d, want len %u", name,
			      (unsigned long long)en->id, rc, en->len);
		ck_assert_msg(!memcmp(buf, en->data, en->len), "%s: id 0x%llx: data differs", name,
			      (unsigned long long)en->id);
	}
}

static bool expected_id(const struct zms_expect *e, uint64_t id)
{
	for (guint k = 0; k < e->entries->len; k++)
		if (g_array_index(e->entries, struct zms_entry, k).id == id)
			return true;
	return false;
}

static void check_state(struct fc_zms *fs, const char *name, const struct zms_expect *e)
{
	uint32_t ds = fc_zms_addr_sector(fs, fs->data_wra), dof = fc_zms_addr_offset(fs, fs->data_wra);

	ck_assert_msg(fc_zms_addr_sector(fs, fs->ate_wra) == e->ate_sector &&
			      fc_zms_addr_offset(fs, fs->ate_wra) == e->ate_off,
		      "%s: ate_wra %x, Zephyr %u:%x", name, fs->ate_wra, e->ate_sector, e->ate_off);
	ck_assert_uint_eq(fs->sector_cycle, e->cycle);
	ck_assert_int_eq(fc_zms_calc_free_space(fs), e->free_space);
	if (!torn_data(name)) {
		ck_assert_msg(ds == e->data_sector && dof == e->data_off,
			      "%s: data_wra %u:%x, Zephyr %u:%x", name, ds, dof, e->data_sector,
			      e->data_off);
		ck_assert_int_eq(fc_zms_active_sector_free_space(fs), e->active_free);
	} else {
		/* past the torn bytes, still below the ATEs */
		ck_assert_uint_eq(ds, e->data_sector);
		ck_assert_uint_gt(dof, e->data_off);
		ck_assert_uint_le(dof, fc_zms_addr_offset(fs, fs->ate_wra));
	}
}

/* Zephyr's state after its mount is ours (FC_READONLY: where Zephyr's mount wrote nothing). */
static bool state_as_zephyr(const struct zms_expect *e)
{
#ifdef FC_READONLY
	return !e->mount_progs && !e->mount_erases;
#else
	(void)e;
	return true;
#endif
}

/*
 * The mount's writes and state: Zephyr's (FC_READONLY: nothing written, and
 * Zephyr's state where Zephyr's own mount wrote nothing either).
 */
static void check_mount(struct zms_dev *d, struct fc_zms *fs, const char *name,
			const struct zms_expect *e)
{
#ifdef FC_READONLY
	ck_assert_uint_eq(d->cnt.progs + d->cnt.erases, 0);
#else
	ck_assert_uint_eq(d->cnt.progs, e->mount_progs);
	ck_assert_uint_eq(d->cnt.erases, e->mount_erases);
#endif
	if (state_as_zephyr(e))
		check_state(fs, name, e);
}

/*
 * An FC_NO_DATA_CRC build (check_zms_nocrc) refuses a configuration with
 * data CRC: true when cfg is one.
 */
static bool crc_refused(const struct fc_zms_config *cfg)
{
#ifdef FC_NO_DATA_CRC
	struct fc_zms fs;

	if (cfg->data_crc) {
		ck_assert_int_eq(fc_zms_mount(&fs, cfg), FC_EINVAL);
		return true;
	}
#endif
	(void)cfg;
	return false;
}

/* The full index: Zephyr's state and values; misses and free space read nothing. */
START_TEST(vector_index)
{
	const char *name = images[_i];
	struct zms_expect e;
	struct zms_dev *d;
	struct fc_zms fs;
	struct fc_zms_config cfg;
	uint8_t buf[8];

	zms_expect_load(name, &e);
	d = zms_dev_new(name, &e);
	cfg = zms_dev_config(d, &e, FC_ZMS_LOOKUP_INDEX, 1024);
	if (_i % 2) {
		cfg.ate_cache = d->ate_cache;
		cfg.ate_cache_size = sizeof(d->ate_cache);
	}
	if (crc_refused(&cfg))
		goto done;
	ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
	check_mount(d, &fs, name, &e);
	check_entries(&fs, name, &e);
	counting_flash_reset(&d->cnt);
	for (uint64_t id = 0; id < 0x1000; id++) {
		uint64_t probe = e.id64 ? ((0x5a000000ull + id) << 32 | (0x100 + id)) + 1 : id;

		if (!expected_id(&e, probe))
			ck_assert_int_eq(fc_zms_read(&fs, probe, buf, sizeof(buf)), FC_ENOENT);
	}
	for (guint k = 0; k < e.entries->len; k++) {
		uint64_t id = g_array_index(e.entries, struct zms_entry, k).id ^ 0x2;

		if (!expected_id(&e, id))
			ck_assert_int_eq(fc_zms_read(&fs, id, buf, sizeof(buf)), FC_ENOENT);
	}
	if (state_as_zephyr(&e))
		ck_assert_int_eq(fc_zms_calc_free_space(&fs), e.free_space);
	ck_assert_uint_eq(d->cnt.reads, 0);
	/* a second mount finds the same and writes nothing */
	counting_flash_reset(&d->cnt);
	ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
	ck_assert_uint_eq(d->cnt.progs + d->cnt.erases, 0);
	check_entries(&fs, name, &e);
done:
	zms_dev_free(d);
	zms_expect_free(&e);
}
END_TEST

/*
 * Without the scan buffer (slot by slot) and with other sizes than
 * FC_ZMS_READ_BUF_SIZE: the same writes, state, values and image as with it.
 */
START_TEST(vector_read_buf_sizes)
{
	static const uint32_t sizes[] = { FC_ZMS_READ_BUF_SIZE, 0, 32, 64, 4096 };
	static uint8_t buf[4096];
	const char *name = images[_i];
	uint8_t *want = NULL;
	struct zms_expect e;
	struct fc_zms fs;

	zms_expect_load(name, &e);
	for (size_t k = 0; k < FC_ARRAY_SIZE(sizes); k++) {
		struct zms_dev *d = zms_dev_new(name, &e);
		struct fc_zms_config cfg = zms_dev_config(d, &e, FC_ZMS_LOOKUP_INDEX, 1024);

		cfg.read_buf = sizes[k] ? buf : NULL;
		cfg.read_buf_size = sizes[k];
		if (crc_refused(&cfg)) {
			zms_dev_free(d);
			continue;
		}
		ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
		check_mount(d, &fs, name, &e);
		check_entries(&fs, name, &e);
#ifndef FC_READONLY
		/* identical values write nothing: the compare reads them through the buffer or not */
		fs.cfg.rewrite_same = false;
		counting_flash_reset(&d->cnt);
		for (guint j = 0; j < e.entries->len; j++) {
			const struct zms_entry *en = &g_array_index(e.entries, struct zms_entry, j);

			ck_assert_int_eq(fc_zms_write(&fs, en->id, en->data, en->len), 0);
		}
		ck_assert_uint_eq(d->cnt.progs + d->cnt.erases, 0);
#endif
		if (!want)
			want = g_memdup2(d->mem, d->size);
		else
			ck_assert(!memcmp(d->mem, want, d->size));
		zms_dev_free(d);
	}
	g_free(want);
	zms_expect_free(&e);
}
END_TEST

/*
 * Zephyr's own lookups (with the build's cache, and none; FC_NO_EMULATION:
 * refused), and an index too small for the ids.
 */
START_TEST(vector_other_lookups)
{
	const char *name = images[_i];
	struct zms_expect e;

	zms_expect_load(name, &e);
	for (int mode = 0; mode < 3; mode++) {
		struct zms_dev *d = zms_dev_new(name, &e);
		enum fc_zms_lookup lookup = mode < 2 ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX;
		uint32_t slots = mode == 0 ? (e.cache ? e.cache : 128) : mode == 1 ? 0 : 8;
		struct fc_zms_config cfg = zms_dev_config(d, &e, lookup, slots);
		struct fc_zms fs;

#ifdef FC_NO_EMULATION
		if (lookup == FC_ZMS_LOOKUP_ZEPHYR) {
			/* compiled out: refused before the flash is read */
			ck_assert_int_eq(fc_zms_mount(&fs, &cfg), FC_EINVAL);
			ck_assert_uint_eq(d->cnt.reads, 0);
			zms_dev_free(d);
			continue;
		}
#endif
		if (crc_refused(&cfg)) {
			zms_dev_free(d);
			continue;
		}
		ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
		check_mount(d, &fs, name, &e);
		check_entries(&fs, name, &e);
		zms_dev_free(d);
	}
	zms_expect_free(&e);
}
END_TEST

/*
 * What a walk saw: live ATEs, sectors, and the reads it made between two
 * ATEs of one read-buffer window.
 */
struct walk_count {
	const struct zms_expect *e;
	const struct zms_dev *d;
	unsigned int live, sectors;
	uint32_t last;     /* the last ATE's window, UINT32_MAX before the first */
	uint32_t reads;    /* the read counter at its callback */
	bool lost;         /* its data CRC was read through the read buffer */
	unsigned int same; /* ATEs checked after another of their window */
};

/*
 * A walk reads each window of ATEs once, data CRC checks or not: between
 * two ATEs of one window it reads only the second one's value for its CRC
 * (and the window again after a value longer than FC_ZMS_BLOCK).
 */
static void walk_reads(struct walk_count *wc, const struct fc_zms_ate_info *ai)
{
	uint32_t window = ai->addr / FC_ZMS_READ_BUF_SIZE, crc_reads = 0;
	bool checked = wc->e->crc && ai->status == FC_ZMS_ATE_LIVE && ai->len > 8;

	/* a value that fits FC_ZMS_BLOCK is read beside the window, a longer one through it */
	if (checked)
		crc_reads = ai->len <= FC_ZMS_BLOCK ? 1 : (ai->len + FC_ZMS_READ_BUF_SIZE - 1) /
								 FC_ZMS_READ_BUF_SIZE;
	if (window == wc->last) {
		ck_assert_uint_eq(wc->d->cnt.reads - wc->reads, crc_reads + (wc->lost ? 1 : 0));
		wc->same++;
	}
	wc->last = window;
	wc->reads = wc->d->cnt.reads;
	wc->lost = checked && ai->len > FC_ZMS_BLOCK;
}

static int walk_ate(void *ctx, const struct fc_zms_ate_info *ai)
{
	struct walk_count *wc = ctx;

	if (ai->status == FC_ZMS_ATE_LIVE) {
		ck_assert(expected_id(wc->e, ai->id));
		wc->live++;
	}
	walk_reads(wc, ai);
	return 0;
}

/*
 * fc_zms_header_decode on the sector's last slot tells a header exactly
 * where the walk (the mount's reading) sees one, with its cycle and format.
 */
static int walk_sector(void *ctx, const struct fc_zms_sector_info *si)
{
	struct walk_count *wc = ctx;
	unsigned int ss = wc->e->sector_size, ate = FC_MAX(wc->e->wbs, FC_ZMS_ATE_BYTES);
	struct fc_zms_header h;
	int rc = fc_zms_header_decode(wc->d->mem + (size_t)(si->sector + 1) * ss - ate, &h);

	wc->sectors++;
	if (si->state == FC_ZMS_SECTOR_UNUSED) {
		ck_assert_int_eq(rc, FC_ENOENT);
		return 0;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_uint_eq(h.cycle, si->cycle);
	ck_assert_uint_eq(h.format, si->format);
	ck_assert_uint_eq(h.format, wc->e->id64);
	return 0;
}

/*
 * The read-only walk: the live ATEs are Zephyr's entries, nothing is
 * written, each window of ATEs is read once (walk_reads), and each sector
 * header is one for fc_zms_header_decode (walk_sector).
 */
START_TEST(vector_walk)
{
	const char *name = images[_i];
	struct zms_expect e;
	struct zms_dev *d;
	struct fc_zms_config cfg;
	struct walk_count wc = { .e = &e, .last = UINT32_MAX };
	struct fc_zms_walk_ops ops = { .sector = walk_sector, .ate = walk_ate };
	guint deletes_alive = 0;

	zms_expect_load(name, &e);
	d = zms_dev_new(name, &e);
	wc.d = d;
	cfg = zms_dev_config(d, &e, FC_ZMS_LOOKUP_INDEX, 1024);
	if (crc_refused(&cfg))
		goto done;
	ck_assert_int_eq(fc_zms_walk(&cfg, &ops, &wc), 0);
	ck_assert_uint_eq(d->cnt.progs + d->cnt.erases, 0);
	ck_assert_uint_eq(wc.sectors, e.sectors);
	ck_assert_uint_gt(wc.same, 0);
	/* a GC the mount would redo leaves copies: those images count each entry once anyway */
	ck_assert_uint_eq(wc.live + deletes_alive, e.entries->len);
done:
	zms_dev_free(d);
	zms_expect_free(&e);
}
END_TEST

/* Any changed bit is no header; another version is said; NULL is refused. */
START_TEST(header_decode_hostile)
{
	struct zms_expect e;
	struct zms_dev *d;
	struct fc_zms_header h;
	uint8_t raw[FC_ZMS_ATE_BYTES];

	zms_expect_load("zms_small_wbs4", &e);
	d = zms_dev_new("zms_small_wbs4", &e);
	memcpy(raw, d->mem + e.sector_size - FC_ZMS_ATE_BYTES, sizeof(raw));
	ck_assert_int_eq(fc_zms_header_decode(raw, &h), 0);
	ck_assert_uint_eq(h.version, 1);
	for (unsigned int bit = 0; bit < 8 * sizeof(raw); bit++) {
		raw[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_int_eq(fc_zms_header_decode(raw, &h), FC_ENOENT);
		raw[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	raw[12] = 2; /* version 2, sealed with its crc8 */
	raw[0] = fc_crc8_ccitt(0xff, raw + 1, sizeof(raw) - 1);
	ck_assert_int_eq(fc_zms_header_decode(raw, &h), FC_ENOTSUP);
	ck_assert_uint_eq(h.version, 2);
	ck_assert_int_eq(fc_zms_header_decode(NULL, &h), FC_EINVAL);
	ck_assert_int_eq(fc_zms_header_decode(raw, NULL), FC_EINVAL);
	zms_dev_free(d);
	zms_expect_free(&e);
}
END_TEST

#ifndef FC_READONLY /* the tests that write */
/*
 * The torn-data trap: after zms_cut_data's and zms_cut_ate's cuts, Zephyr
 * programs the next value over the half-written bytes (a strict NOR device
 * refuses it, a lenient one ANDs the bits and the value reads back
 * corrupted). This engine writes it above them, in either lookup mode, on
 * a simulator that refuses any program of bytes that are not erased.
 */
START_TEST(torn_data_not_programmed_over)
{
	static const char *const cut[] = { "zms_cut_data", "zms_cut_ate" };

	for (int k = 0; k < 2; k++) {
		struct zms_expect e;
		struct zms_dev *d;
		static struct zms_sim zs;
		struct fc_zms_config cfg;
		struct fc_zms fs;
		uint8_t val[24], back[24];

		zms_expect_load(cut[k], &e);
		d = zms_dev_new(cut[k], &e);
		for (int z = 0; z < 2; z++) {
			zms_sim_init(&zs, &e);
			memcpy(zs.mem, d->mem, d->size);
			cfg = zms_dev_config(d, &e, z ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX,
					     z ? 0 : 64);
			cfg.flash = &zs.sim.dev;
			for (int i = 0; i < 24; i++)
				val[i] = (uint8_t)(0x5a + i);
			ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
			/* Zephyr's data_wra is inside the torn bytes */
			ck_assert(zs.mem[(e.data_sector * e.sector_size) + e.data_off] != 0xff);
			ck_assert_int_eq(fc_zms_write(&fs, 0x7e57, val, 24), 24);
			ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
			ck_assert_int_eq(fc_zms_read(&fs, 0x7e57, back, sizeof(back)), 24);
			ck_assert(!memcmp(val, back, 24));
			check_entries(&fs, cut[k], &e);
		}
		zms_dev_free(d);
		zms_expect_free(&e);
	}
}
END_TEST

/* ---- replay: the README's workloads on a blank device ---- */

struct workload {
	const char *name;
	unsigned int entries, len_mod, fixed_len; /* len_mod: 1 + (7i) % len_mod */
	const char *passes;
	unsigned int progs, erases;
};

static const struct workload workloads[] = {
	{ "zms_small_wbs1", 8, 13, 0, "new", 12, 1 },
	{ "zms_small_wbs2", 8, 13, 0, "new", 14, 1 },
	{ "zms_small_wbs4", 8, 13, 0, "new", 15, 1 },
	{ "zms_small_wbs8", 8, 13, 0, "new", 15, 1 },
	{ "zms_small_wbs32", 8, 13, 0, "new", 12, 1 },
	{ "zms_inline_only", 40, 8, 0, "new", 41, 1 },
	{ "zms_large_values", 12, 0, 700, "new", 55, 3 },
	{ "zms_history", 10, 0, 4, "new,new,new,same", 41, 1 },
	{ "zms_deletes_nowrap", 40, 0, 4, "new,del:3", 55, 1 },
	{ "zms_gc_wrap_nor", 20, 13, 0, "new,part:3*60", 924, 13 },
	{ "zms_rram_cycles", 20, 13, 0, "new,part:3*60", 858, 0 },
	{ "zms_rram_cycle_wrap", 4, 0, 4, "new*8000", 36650, 0 },
	{ "zms_crc_small", 8, 13, 0, "new", 15, 1 },
	{ "zms_crc_gc", 16, 40, 0, "new,part:2*12", 294, 6 },
	{ "zms_id64_small", 8, 13, 0, "new", 16, 1 },
	{ "zms_cache_on", 30, 12, 0, "new,part:2*10,del:7", 323, 6 },
	{ "zms_cache_off", 30, 12, 0, "new,part:2*10,del:7", 323, 6 },
	{ "zms_no_double_write", 16, 13, 0, "new,same,part:2,same,del:4,del:4", 35, 1 },
};

static uint64_t vec_id(const struct zms_expect *e, unsigned int i)
{
	return e->id64 ? ((0x5a000000ull + i) << 32 | (0x100 + i)) : i + 1;
}

struct replay {
	const struct workload *w;
	const struct zms_expect *e;
	struct fc_zms *fs;
	unsigned int g;
	int cur_len[64];
	uint8_t cur[64][700];
};

static void put(struct replay *r, unsigned int i, unsigned int len)
{
	uint8_t *v = r->cur[i], old[700];
	bool same = r->cur_len[i] == (int)len;

	memcpy(old, v, len);
	nvs_vector_value(v, i, r->g, len);
	same = same && !memcmp(old, v, len);
	/* short values of one entry are equal in every pass: NO_DOUBLE_WRITE skips them */
	ck_assert_int_eq(fc_zms_write(r->fs, vec_id(r->e, i), v, len), r->e->ndw && same ? 0 : (int)len);
	r->cur_len[i] = (int)len;
}

static void run_pass(struct replay *r, const char *pass)
{
	const struct workload *w = r->w;
	unsigned int k = 0;

	r->g++;
	for (unsigned int i = 0; i < w->entries; i++) {
		unsigned int len = w->len_mod ? 1 + (7 * i) % w->len_mod : w->fixed_len;
		int rc;

		if (!strcmp(pass, "new")) {
			put(r, i, len);
		} else if (!strcmp(pass, "same")) {
			if (r->cur_len[i] < 0)
				continue;
			rc = fc_zms_write(r->fs, vec_id(r->e, i), r->cur[i], (size_t)r->cur_len[i]);
			ck_assert_int_eq(rc, r->e->ndw ? 0 : r->cur_len[i]);
		} else if (sscanf(pass, "del:%u", &k) == 1) {
			if (i % k)
				continue;
			ck_assert_int_eq(fc_zms_delete(r->fs, vec_id(r->e, i)), 0);
			r->cur_len[i] = -1;
		} else if (sscanf(pass, "part:%u", &k) == 1) {
			if (i % k == 0)
				put(r, i, len);
		} else {
			ck_abort_msg("unknown pass %s", pass);
		}
	}
}

START_TEST(replay_workload)
{
	const struct workload *w = &workloads[_i];
	static struct replay r;
	static struct zms_sim zs;
	struct zms_expect e;
	struct zms_dev *d;
	struct fc_zms_config cfg;
	struct fc_zms fs;
	char **passes;

	zms_expect_load(w->name, &e);
	d = zms_dev_new(NULL, &e);
	zms_sim_init(&zs, &e);
	cfg = zms_dev_config(d, &e, FC_ZMS_LOOKUP_INDEX, 64);
	/* RRAM overwrites: the plain RAM device; NOR: the simulator refuses double programs */
	if (!e.no_erase)
		cfg.flash = &zs.sim.dev;
	if (crc_refused(&cfg))
		goto done;
	ck_assert_int_eq(fc_zms_mount(&fs, &cfg), 0);
	memset(&r, 0, sizeof(r));
	r.w = w;
	r.e = &e;
	r.fs = &fs;
	for (unsigned int i = 0; i < 64; i++)
		r.cur_len[i] = -1;
	passes = g_strsplit(w->passes, ",", -1);
	for (char **p = passes; *p; p++) {
		char *star = strchr(*p, '*');
		unsigned int times = star ? (unsigned int)atoi(star + 1) : 1;

		if (star)
			*star = 0;
		for (unsigned int t = 0; t < times; t++)
			run_pass(&r, *p);
	}
	g_strfreev(passes);
	zms_assert_image(w->name, e.no_erase ? d->mem : zs.mem, d->size);
	ck_assert_uint_eq(e.no_erase ? d->cnt.progs : zs.sim.stats.progs, w->progs);
	ck_assert_uint_eq(e.no_erase ? d->cnt.erases : zs.sim.stats.erases, w->erases);
done:
	zms_dev_free(d);
	zms_expect_free(&e);
}
END_TEST

#endif /* FC_READONLY */

static Suite *zms_vectors_suite(void)
{
	Suite *s = suite_create("zms_vectors");
	TCase *tc = tcase_create("vectors");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, vector_index, 0, (int)FC_ARRAY_SIZE(images));
	tcase_add_loop_test(tc, vector_other_lookups, 0, (int)FC_ARRAY_SIZE(images));
	tcase_add_loop_test(tc, vector_walk, 0, (int)FC_ARRAY_SIZE(images));
	tcase_add_test(tc, header_decode_hostile);
	tcase_add_loop_test(tc, vector_read_buf_sizes, 0, (int)FC_ARRAY_SIZE(images));
#ifndef FC_READONLY
	tcase_add_test(tc, torn_data_not_programmed_over);
	tcase_add_loop_test(tc, replay_workload, 0, (int)FC_ARRAY_SIZE(workloads));
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(zms_vectors_suite());
}
