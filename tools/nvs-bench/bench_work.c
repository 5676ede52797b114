/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_work.h"
#include "bench_zms.h"

#include <stdio.h>
#include <string.h>

/* Value bytes of (id, generation): distinct per generation, so rewrites write. */
static void make_value(const struct bench_rig *rig, uint8_t *buf, uint32_t id, uint32_t gen)
{
	uint32_t x = (uint32_t)rig->perm->v[BENCH_K_SEED] * 0x9e3779b9u ^ id * 0x85ebca6bu ^
		     gen * 0xc2b2ae35u;

	for (uint32_t i = 0; i < rig->value_size; i++) {
		x = x * 1664525u + 1013904223u;
		buf[i] = (uint8_t)(x >> 24);
	}
}

static uint32_t entries(const struct bench_rig *rig)
{
	return (uint32_t)rig->perm->v[BENCH_K_ENTRIES];
}

static uint32_t updates(const struct bench_rig *rig, uint32_t automatic)
{
	int64_t u = rig->perm->v[BENCH_K_UPDATES];

	return u == BENCH_AUTO ? automatic : (uint32_t)u;
}

/* Records that fit in the whole partition, an upper bound of live ids. */
static uint32_t partition_records(const struct bench_rig *rig)
{
	return rig->sector_size / bench_rig_record_size(rig) *
	       (uint32_t)rig->perm->v[BENCH_K_SECTORS];
}

static int mount_phase(struct bench_rig *rig, uint32_t ids)
{
	bench_phase_begin(rig);
	return bench_phase_end(rig, "mount", 1, bench_rig_mount(rig, ids));
}

/* settings: the Bluetooth mesh replay protection list names of the seed. */
static void rpl_name(char *buf, size_t len, uint32_t i)
{
	snprintf(buf, len, "bt/mesh/RPL/%x", i + 1);
}

static int save_all(struct bench_rig *rig, uint32_t gen)
{
	uint8_t *value = g_malloc(rig->value_size + 1);
	char name[32];
	int rc = 0;

	for (uint32_t i = 0; i < entries(rig) && rc >= 0; i++) {
		rpl_name(name, sizeof(name), i);
		make_value(rig, value, i, gen);
		rc = bench_set_save(rig, name, value, rig->value_size);
	}
	g_free(value);
	return rc;
}

/* Mount, attach settings and load everything, as a device boots. */
static int attach(struct bench_rig *rig, uint32_t *loaded)
{
	/* ids per name: name and value, and on ZMS its list node */
	uint32_t per_name = bench_is_zms(rig->perm) ? 3 : 2;
	int rc = bench_rig_mount(rig, per_name * entries(rig) + 1);

	if (!rc)
		rc = bench_rig_settings(rig);
	if (!rc)
		rc = bench_set_load(rig, loaded);
	return rc;
}

/* One phase that boots; gen != 0 then stores every entry with that generation. */
static int attach_phase(struct bench_rig *rig, const char *phase, uint32_t gen)
{
	uint32_t loaded = 0;
	int rc;

	bench_phase_begin(rig);
	rc = attach(rig, &loaded);
	if (gen && rc >= 0)
		rc = save_all(rig, gen);
	return bench_phase_end(rig, phase, gen ? entries(rig) : loaded, rc);
}

static int boot_phase(struct bench_rig *rig)
{
	return attach_phase(rig, "boot", 0);
}

static int save_phase(struct bench_rig *rig, const char *phase, uint32_t gen)
{
	bench_phase_begin(rig);
	return bench_phase_end(rig, phase, entries(rig), save_all(rig, gen));
}

/* The seed's story: boot, store every RPL entry for the first time, then again. */
static int run_rpl(struct bench_rig *rig)
{
	int rc = boot_phase(rig);

	if (rc >= 0)
		rc = save_phase(rig, "pass1", 1);
	if (rc >= 0)
		rc = save_phase(rig, "pass2", 2);
	return rc;
}

/* Boot time as a function of the stored names: fill, then boot again. */
static int run_boot(struct bench_rig *rig)
{
	int rc = attach_phase(rig, "fill", 1);

	if (rc >= 0)
		rc = boot_phase(rig);
	return rc;
}

/* ids 1..count, as the spec's reference workload (Zephyr's lookup hash sees the same ids) */
static int write_ids(struct bench_rig *rig, uint32_t count, uint32_t gen)
{
	uint8_t *value = g_malloc(rig->value_size + 1);
	int rc = 0;

	for (uint32_t id = 1; id <= count && rc >= 0; id++) {
		make_value(rig, value, id, gen);
		rc = bench_kv_write(rig, id, value, rig->value_size);
	}
	g_free(value);
	return rc;
}

/* Read every id back and check it, so a benchmark never times a wrong answer. */
static int verify_ids(struct bench_rig *rig, uint32_t count, uint32_t gen)
{
	uint8_t *want = g_malloc(rig->value_size + 1), *got = g_malloc(rig->value_size + 1);
	int rc = 0;

	for (uint32_t id = 1; id <= count && rc >= 0; id++) {
		make_value(rig, want, id, gen);
		rc = bench_kv_read(rig, id, got, rig->value_size);
		if (rc >= 0 && ((uint32_t)rc != rig->value_size || memcmp(want, got, rc)))
			rc = FC_ECORRUPT;
	}
	g_free(want);
	g_free(got);
	return rc;
}

static int run_seq(struct bench_rig *rig)
{
	int rc = mount_phase(rig, entries(rig));

	if (rc >= 0) {
		bench_phase_begin(rig);
		rc = bench_phase_end(rig, "write", entries(rig), write_ids(rig, entries(rig), 1));
	}
	if (rc >= 0) {
		bench_phase_begin(rig);
		rc = bench_phase_end(rig, "rewrite", entries(rig), write_ids(rig, entries(rig), 2));
	}
	if (rc >= 0) {
		bench_phase_begin(rig);
		rc = bench_phase_end(rig, "read", entries(rig), verify_ids(rig, entries(rig), 2));
	}
	return rc;
}

/* Seeded rewrites (4 in 5) and deletes (1 in 5) of random ids. */
static int random_updates(struct bench_rig *rig, uint32_t count)
{
	GRand *rng = g_rand_new_with_seed((guint32)rig->perm->v[BENCH_K_SEED]);
	uint8_t *value = g_malloc(rig->value_size + 1);
	int rc = 0;

	for (uint32_t i = 0; i < count && rc >= 0; i++) {
		uint16_t id = (uint16_t)g_rand_int_range(rng, 1, (gint32)entries(rig) + 1);

		if (g_rand_int_range(rng, 0, 5) == 0) {
			rc = bench_kv_delete(rig, id);
		} else {
			make_value(rig, value, id, i + 2);
			rc = bench_kv_write(rig, id, value, rig->value_size);
		}
	}
	g_free(value);
	g_rand_free(rng);
	return rc;
}

static int run_random(struct bench_rig *rig)
{
	uint32_t n = updates(rig, 4 * entries(rig));
	int rc = mount_phase(rig, entries(rig));

	if (rc >= 0) {
		bench_phase_begin(rig);
		rc = bench_phase_end(rig, "fill", entries(rig), write_ids(rig, entries(rig), 1));
	}
	if (rc >= 0) {
		bench_phase_begin(rig);
		rc = bench_phase_end(rig, "update", n, random_updates(rig, n));
	}
	return rc;
}

/* One id rewritten until the partition wrapped twice (GC at every sector). */
static int run_logging(struct bench_rig *rig)
{
	uint32_t n = updates(rig, 2 * partition_records(rig));
	uint8_t *value = g_malloc(rig->value_size + 1);
	int rc = mount_phase(rig, 1);

	if (rc >= 0) {
		bench_phase_begin(rig);
		for (uint32_t i = 0; i < n && rc >= 0; i++) {
			make_value(rig, value, 0, i + 1);
			rc = bench_kv_write(rig, 0, value, rig->value_size);
		}
		rc = bench_phase_end(rig, "log", n, rc);
	}
	g_free(value);
	return rc;
}

/* New ids until the partition is full; running out of space is the goal. */
static int run_many(struct bench_rig *rig)
{
	uint32_t limit = MIN(partition_records(rig), 0xffffu);
	uint8_t *value = g_malloc(rig->value_size + 1);
	uint32_t stored = 0;
	int rc = mount_phase(rig, limit);

	if (rc >= 0) {
		bench_phase_begin(rig);
		for (; stored < limit; stored++) {
			make_value(rig, value, stored, 1);
			rc = bench_kv_write(rig, stored, value, rig->value_size);
			if (rc < 0)
				break;
		}
		if (rc == FC_ENOSPC)
			rc = 0;
		rc = bench_phase_end(rig, "fill", stored, rc);
	}
	g_free(value);
	return rc;
}

const struct bench_workload bench_workloads[] = {
	{ "rpl", "settings: boot, save entries new names (pass1), save them again (pass2)",
	  run_rpl },
	{ "seq", "nvs: write ids 1..entries, rewrite them, read them back", run_seq },
	{ "random", "nvs: fill entries ids, then seeded rewrites and deletes", run_random },
	{ "logging", "nvs: rewrite one id until the partition wrapped twice", run_logging },
	{ "many", "nvs: new small ids until the partition is full", run_many },
	{ "boot", "settings: store entries names, then mount and load them", run_boot },
	{ NULL, NULL, NULL },
};

const struct bench_workload *bench_workload_find(const char *name)
{
	for (const struct bench_workload *w = bench_workloads; w->name; w++)
		if (!strcmp(w->name, name))
			return w;
	return NULL;
}

int bench_run(const struct bench_workload *w, const struct bench_perm *perm, GPtrArray *rows)
{
	struct bench_rig rig;
	int rc = bench_rig_init(&rig, w->name, perm, rows);

	if (rc < 0) {
		bench_phase_begin(&rig);
		bench_phase_end(&rig, "setup", 0, rc);
	} else {
		rc = w->run(&rig);
	}
	bench_rig_free(&rig);
	return rc;
}
