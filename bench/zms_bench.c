/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_bench - flash reads, programs and erases of the spec's reference
 * workload (255 ids, 4-byte values, pass 1 writes each, pass 2 rewrites
 * each with a new value) and of the seed's Bluetooth mesh RPL settings
 * workload (255 names "bt/mesh/rpl/XXXX", 4-byte values, two passes), on
 * 8 x 4 KiB sectors with write block 4 (nRF52840-like), then a reboot
 * (mount, and settings init + load).
 *
 * Rows: Zephyr's ZMS algorithms (FC_ZMS_LOOKUP_ZEPHYR: every lookup walks
 * the ATEs, optionally from CONFIG_ZMS_LOOKUP_CACHE's slot) and ours (the
 * index covering the ids), each run in the same engine and format, so the
 * programs are the same bytes; NVS (Zephyr's algorithms and ours) beside.
 * Every figure is counted in this run; the ratio column divides Zephyr's
 * reads (no cache) by the row's. The bench exits 1 if ours programs
 * anything Zephyr would not, or reads more than a tenth of Zephyr's in a
 * write pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_nvs_util.h"
#include "fdtcache/nvs.h"
#include "fdtcache/settings.h"
#include "fdtcache/settings_zms.h"
#include "fdtcache/zms.h"

#define SECTOR 4096u
#define SECTORS 8u
#define N 255u
#define PASSES 3 /* pass 1, pass 2, reboot */

struct counts {
	uint32_t reads[PASSES], progs[PASSES], erases[PASSES];
};

struct rig {
	uint8_t mem[SECTOR * SECTORS];
	struct fc_ram_flash ram;
	struct counting_flash cnt;
	struct fc_zms_slot zslots[1024];
	uint8_t zread_buf[FC_ZMS_READ_BUF_SIZE]; /* ZMS scans read through it */
	struct fc_cache_slot nslots[1024];
	uint16_t name_cache[1024];
	struct fc_zms zfs;
	struct fc_nvs nfs;
	struct fc_settings_zms zst;
	struct fc_settings nst;
};

static struct rig rig;

static void rig_blank(void)
{
	struct fc_flash_geometry geo = {
		.size = sizeof(rig.mem), .erase_size = SECTOR, .write_size = 4, .erase_value = 0xff,
	};

	memset(rig.mem, 0xff, sizeof(rig.mem));
	if (fc_ram_flash_init(&rig.ram, &geo, rig.mem))
		abort();
	counting_flash_init(&rig.cnt, &rig.ram.dev);
}

static void take(struct counts *c, int pass)
{
	c->reads[pass] = rig.cnt.reads;
	c->progs[pass] = rig.cnt.progs;
	c->erases[pass] = rig.cnt.erases;
	counting_flash_reset(&rig.cnt);
}

static void check(int rc, const char *what)
{
	if (rc < 0) {
		fprintf(stderr, "zms_bench: %s: %s\n", what, fc_strerror(rc));
		exit(2);
	}
}

static void value(uint8_t *v, unsigned int i, unsigned int g)
{
	nvs_vector_value(v, i, g, 4);
}

/* ---- engines ---- */

struct engine {
	const char *name;
	bool zms;
	int lookup;     /* enum fc_zms_lookup or enum fc_nvs_lookup */
	uint32_t slots; /* index slots, or Zephyr's lookup cache entries */
	bool rewrite_same;
};

static void mount(const struct engine *e)
{
	if (e->zms) {
		struct fc_zms_config cfg = {
			.flash = &rig.cnt.dev, .sector_size = SECTOR, .sector_count = SECTORS,
			.rewrite_same = e->rewrite_same, .lookup = (enum fc_zms_lookup)e->lookup,
			.index_slots = e->slots ? rig.zslots : NULL, .index_slot_count = e->slots,
			.read_buf = rig.zread_buf, .read_buf_size = sizeof(rig.zread_buf),
		};

		check(fc_zms_mount(&rig.zfs, &cfg), "zms mount");
	} else {
		struct fc_nvs_config cfg = {
			.flash = &rig.cnt.dev, .sector_size = SECTOR, .sector_count = SECTORS,
			.lookup = (enum fc_nvs_lookup)e->lookup,
			.index_slots = e->slots ? rig.nslots : NULL, .index_slot_count = e->slots,
		};

		check(fc_nvs_mount(&rig.nfs, &cfg), "nvs mount");
	}
}

static void put(const struct engine *e, unsigned int i, const uint8_t *v)
{
	if (e->zms)
		check(fc_zms_write(&rig.zfs, i + 1, v, 4), "zms write");
	else
		check(fc_nvs_write(&rig.nfs, (uint16_t)(i + 1), v, 4), "nvs write");
}

static void run_ids(const struct engine *e, struct counts *c)
{
	uint8_t v[4];

	rig_blank();
	mount(e);
	counting_flash_reset(&rig.cnt);
	for (unsigned int g = 1; g <= 2; g++) {
		for (unsigned int i = 0; i < N; i++) {
			value(v, i, g);
			put(e, i, v);
		}
		take(c, g - 1);
	}
	mount(e);
	take(c, 2);
}

static int ignore(void *ctx, const void *entry)
{
	(void)ctx;
	(void)entry;
	return 0;
}

static void settings_up(const struct engine *e)
{
	uint8_t buf[16];

	mount(e);
	if (e->zms) {
		check(fc_settings_zms_init(&rig.zst, &rig.zfs), "settings_zms init");
		check(fc_settings_zms_load(&rig.zst, buf, sizeof(buf),
					   (fc_settings_zms_cb)(void (*)(void))ignore, NULL),
		      "settings_zms load");
	} else {
		struct fc_settings_config cfg = {
			.fs = &rig.nfs,
			.cache_mode = e->lookup == FC_NVS_LOOKUP_INDEX ? FC_SETTINGS_CACHE_INDEX
								     : FC_SETTINGS_CACHE_ZEPHYR_RING_FIX,
			.cache = rig.name_cache, .cache_len = e->lookup == FC_NVS_LOOKUP_INDEX ? 1024 : 256,
		};

		check(fc_settings_init(&rig.nst, &cfg), "settings init");
		check(fc_settings_load(&rig.nst, buf, sizeof(buf),
				       (fc_settings_load_cb)(void (*)(void))ignore, NULL),
		      "settings load");
	}
}

static void run_settings(const struct engine *e, struct counts *c)
{
	uint8_t v[4];
	char name[24];

	rig_blank();
	settings_up(e);
	counting_flash_reset(&rig.cnt);
	for (unsigned int g = 1; g <= 2; g++) {
		for (unsigned int i = 0; i < N; i++) {
			snprintf(name, sizeof(name), "bt/mesh/rpl/%04x", 0x1a2b + i);
			value(v, i, g);
			if (e->zms)
				check(fc_settings_zms_save(&rig.zst, name, v, 4), "settings_zms save");
			else
				check(fc_settings_save(&rig.nst, name, v, 4), "settings save");
		}
		take(c, g - 1);
	}
	settings_up(e);
	take(c, 2);
}

/* ---- report ---- */

static const struct engine zms_rows[] = {
	{ "zms zephyr, no cache", true, FC_ZMS_LOOKUP_ZEPHYR, 0, false },
	{ "zms zephyr, cache 128", true, FC_ZMS_LOOKUP_ZEPHYR, 128, false },
	{ "zms ours, index 512", true, FC_ZMS_LOOKUP_INDEX, 512, false },
	{ "nvs zephyr, cache 128", false, FC_NVS_LOOKUP_ZEPHYR, 128, false },
	{ "nvs ours, index 512", false, FC_NVS_LOOKUP_INDEX, 512, false },
};

static const struct engine settings_rows[] = {
	{ "settings_zms zephyr, no cache", true, FC_ZMS_LOOKUP_ZEPHYR, 0, false },
	{ "settings_zms zephyr, cache 128", true, FC_ZMS_LOOKUP_ZEPHYR, 128, false },
	{ "settings_zms ours, index 1024", true, FC_ZMS_LOOKUP_INDEX, 1024, false },
	{ "settings_nvs zephyr, 128 + ring 128", false, FC_NVS_LOOKUP_ZEPHYR, 128, false },
	{ "settings_nvs ours, index 1024", false, FC_NVS_LOOKUP_INDEX, 1024, false },
};

static void ratio(char *buf, size_t size, uint32_t base, uint32_t reads)
{
	if (reads)
		snprintf(buf, size, "%.1fx", (double)base / reads);
	else
		snprintf(buf, size, "no reads");
}

static int table(const char *title, const struct engine *rows, size_t n,
		 void (*run)(const struct engine *, struct counts *))
{
	static struct counts c[8];
	int bad = 0;

	printf("\n%s\n", title);
	printf("%-36s %10s %8s %6s  %10s %8s %6s  %8s  %9s %9s\n", "engine", "p1 reads", "progs",
	       "erases", "p2 reads", "progs", "erases", "reboot r", "p1 ratio", "p2 ratio");
	for (size_t k = 0; k < n; k++) {
		run(&rows[k], &c[k]);
		char r1[16], r2[16];

		ratio(r1, sizeof(r1), c[0].reads[0], c[k].reads[0]);
		ratio(r2, sizeof(r2), c[0].reads[1], c[k].reads[1]);
		printf("%-36s %10u %8u %6u  %10u %8u %6u  %8u  %9s %9s\n", rows[k].name,
		       c[k].reads[0], c[k].progs[0], c[k].erases[0], c[k].reads[1], c[k].progs[1],
		       c[k].erases[1], c[k].reads[2], r1, r2);
	}
	/* rows 0..2 are zms: the same programs, ours at most a tenth of Zephyr's reads */
	for (int p = 0; p < 2; p++) {
		for (size_t k = 1; k < 3; k++)
			bad |= c[k].progs[p] != c[0].progs[p] || c[k].erases[p] != c[0].erases[p];
		bad |= (uint64_t)c[2].reads[p] * 10 > c[0].reads[p] ||
		       (uint64_t)c[2].reads[p] * 10 > c[1].reads[p];
	}
	printf("zms ours vs Zephyr: programs and erases %s; reads %s 1/10 of Zephyr's (cache or none) "
	       "in both passes\n", bad ? "CHECK" : "equal", bad ? "NOT within" : "within");
	return bad;
}

int main(void)
{
	int bad;

	printf("zms_bench: 8 x 4 KiB sectors, write block 4, 255 entries of 4 bytes, two passes "
	       "(flash calls counted; ratio = Zephyr no-cache reads / row's reads)\n");
	bad = table("reference workload (ids 1..255)", zms_rows, FC_ARRAY_SIZE(zms_rows), run_ids);
	bad |= table("RPL settings workload (bt/mesh/rpl/1a2b..)", settings_rows,
		     FC_ARRAY_SIZE(settings_rows), run_settings);
	return bad ? 1 : 0;
}
