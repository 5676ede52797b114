/* SPDX-License-Identifier: BSD-2-Clause */
/* NVS targets: any image mounts cleanly or fails cleanly; acknowledged writes stay. */
#include <stdlib.h>
#include <string.h>

#include "fdtcache/settings.h"

#include "fuzz_util.h"

#define OPS_IDS 32u         /* ids the op scripts use: 0..31 */
#define OPS_MAX_VALUE 300u  /* bytes; past 256 a value spans several write blocks */

static int settings_pair(void *ctx, const struct fc_settings_entry *e)
{
	(void)ctx;
	if (e->value_read > e->value_len)
		fuzz_violated("settings value longer than stored", -1);
	return 0;
}

/*
 * In Zephyr mode every read, settings name or value read and free-space
 * step walks the log from the head: up to one ATE read per slot, and a
 * 4 MiB image has 500,000 slots. Such calls run only where walks x slots
 * stays within ZEPHYR_WALK_BUDGET ATE reads (Zephyr's own cost, so the
 * bound is the harness's, not the engine's).
 */
#define ZEPHYR_WALK_BUDGET ((uint64_t)1 << 24)

static uint64_t ate_slots(const struct fuzz_nvs *r)
{
	return (uint64_t)r->cfg.sector_count * r->cfg.sector_size /
	       FC_MAX(8u, r->ram.dev.geo.write_size);
}

static bool affordable(const struct fuzz_nvs *r, uint64_t walks)
{
	return r->cfg.lookup != FC_NVS_LOOKUP_ZEPHYR || walks * ate_slots(r) <= ZEPHYR_WALK_BUDGET;
}

/*
 * Whatever the image, a mount either fails cleanly or gives an fs where a
 * write that returned success reads back, also after a remount.
 */
static void exercise_mounted(struct fuzz_nvs *r, uint32_t ates)
{
	static const uint8_t value[12] = { 0x5a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	uint8_t buf[64];
	struct fc_settings st;
	struct fc_settings_config scfg = { .fs = &r->fs };
	uint16_t name_cache[64];
	int rc, wrote;

	if (affordable(r, 65)) {
		for (uint32_t id = 0; id < 64; id++)
			fc_nvs_read(&r->fs, (uint16_t)id, buf, sizeof(buf));
		fc_nvs_read_hist(&r->fs, 1, buf, sizeof(buf), 1);
	}
	if (affordable(r, ates))
		fc_nvs_calc_free_space(&r->fs);
	fc_nvs_sector_max_data_size(&r->fs);
	scfg.cache = name_cache;
	scfg.cache_len = FC_ARRAY_SIZE(name_cache);
	if (affordable(r, 2ull * ates) && fc_settings_init(&st, &scfg) == 0)
		fc_settings_load(&st, buf, sizeof(buf), settings_pair, NULL);

	wrote = fc_nvs_write(&r->fs, 0x1234, value, sizeof(value));
	fc_nvs_delete(&r->fs, 3);
	if (wrote < 0)
		return;
	rc = fc_nvs_mount(&r->fs, &r->cfg);
	if (rc)
		fuzz_nvs_violated(r, "remount after a successful write", rc);
	rc = fc_nvs_read(&r->fs, 0x1234, buf, sizeof(buf));
	if (rc != (int)sizeof(value) || memcmp(buf, value, sizeof(value)))
		fuzz_nvs_violated(r, "acknowledged write reads back after remount", rc);
}

static int count_ate(void *ctx, const struct fc_nvs_ate_info *info)
{
	(void)info;
	(*(uint32_t *)ctx)++;
	return 0;
}

int fuzz_nvs_image(const uint8_t *data, size_t size)
{
	struct fuzz_nvs *r;
	struct fc_nvs_walk_ops ops = { .ate = count_ate };
	uint32_t ates = 0;

	if (size < FUZZ_NVS_HEADER)
		return 0;
	r = calloc(1, sizeof(*r));
	if (fuzz_nvs_setup(r, data, data + FUZZ_NVS_HEADER, size - FUZZ_NVS_HEADER)) {
		fc_nvs_walk(&r->cfg, &ops, &ates);
		if (memcmp(r->mem, data + FUZZ_NVS_HEADER, r->ram.dev.geo.size))
			fuzz_violated("walk leaves the image unchanged", 0);
		if (fc_nvs_mount(&r->fs, &r->cfg) == 0)
			exercise_mounted(r, ates);
	}
	fuzz_nvs_free(r);
	free(r);
	return 0;
}

/* What the ops acknowledged: per id, unknown, deleted, or a value. */
struct model {
	enum { UNKNOWN, ABSENT, STORED } state[OPS_IDS];
	uint16_t len[OPS_IDS];
	uint32_t seed[OPS_IDS];
	uint64_t zephyr_free_left; /* see zephyr_free_space() */
};

/*
 * Zephyr's free-space count costs up to the square of the partition's ATE
 * slots (as Zephyr's own code): an op script may spend ZEPHYR_WALK_BUDGET
 * ATE reads on it in all, so 255 queries on a large image cannot take hours.
 */
static void zephyr_free_space(struct fuzz_nvs *r, struct model *m)
{
	uint64_t slots = ate_slots(r);

	if (r->cfg.lookup != FC_NVS_LOOKUP_ZEPHYR) {
		fc_nvs_calc_free_space(&r->fs);
	} else if (slots * slots <= m->zephyr_free_left) {
		m->zephyr_free_left -= slots * slots;
		fc_nvs_calc_free_space(&r->fs);
	}
}

static void check_model(struct fuzz_nvs *r, const struct model *m, const char *when)
{
	uint8_t want[OPS_MAX_VALUE], got[OPS_MAX_VALUE];

	for (uint32_t id = 0; id < OPS_IDS; id++) {
		int rc;

		if (m->state[id] == UNKNOWN)
			continue;
		rc = fc_nvs_read(&r->fs, (uint16_t)id, got, sizeof(got));
		if (m->state[id] == ABSENT) {
			if (rc != FC_ENOENT)
				fuzz_nvs_violated(r, when, rc);
			continue;
		}
		fuzz_value(want, m->len[id], m->seed[id]);
		if (rc != m->len[id] || memcmp(want, got, m->len[id]))
			fuzz_nvs_violated(r, when, rc);
	}
}

/* Errors that say nothing was changed; after any other the id's value is unknown. */
static bool refused(int rc)
{
	return rc == FC_ENOSPC || rc == FC_ETOOBIG;
}

static void run_op(struct fuzz_nvs *r, struct model *m, struct fuzz_bytes *ops)
{
	uint8_t kind = fuzz_u8(ops), arg = fuzz_u8(ops);
	uint16_t id = arg % OPS_IDS, len = (uint16_t)(fuzz_u8(ops) * OPS_MAX_VALUE / 256);
	uint32_t seed = fuzz_u8(ops) | (uint32_t)kind << 8;
	uint8_t value[OPS_MAX_VALUE];
	int rc;

	switch (kind % 8) {
	case 0: case 1: case 2: /* write; len 0 is a delete in Zephyr's API */
		fuzz_value(value, len, seed);
		rc = fc_nvs_write(&r->fs, id, value, len);
		if (rc >= 0) {
			m->state[id] = len ? STORED : ABSENT;
			m->len[id] = len;
			m->seed[id] = seed;
		} else if (!refused(rc)) {
			m->state[id] = UNKNOWN;
		}
		break;
	case 3: /* the same value again: a no-op that must keep it */
		if (m->state[id] == STORED) {
			fuzz_value(value, m->len[id], m->seed[id]);
			rc = fc_nvs_write(&r->fs, id, value, m->len[id]);
			if (rc < 0 && !refused(rc))
				m->state[id] = UNKNOWN;
		}
		break;
	case 4:
		rc = fc_nvs_delete(&r->fs, id);
		if (rc >= 0)
			m->state[id] = ABSENT;
		else if (!refused(rc))
			m->state[id] = UNKNOWN;
		break;
	case 5:
		zephyr_free_space(r, m);
		break;
	case 6: /* close the sector: garbage collection of the next one */
		if (fc_nvs_sector_use_next(&r->fs) < 0 && fc_nvs_mount(&r->fs, &r->cfg))
			memset(m->state, UNKNOWN, sizeof(m->state));
		break;
	default:
		rc = fc_nvs_mount(&r->fs, &r->cfg);
		if (rc)
			fuzz_nvs_violated(r, "remount after acknowledged operations", rc);
		check_model(r, m, "acknowledged write or delete reads back after a remount");
		break;
	}
}

bool fuzz_nvs_ops_mount(struct fuzz_nvs *r, const uint8_t *data, size_t size,
			struct fuzz_bytes *ops)
{
	size_t nops;

	if (size < FUZZ_NVS_HEADER + 1)
		return false;
	nops = data[FUZZ_NVS_HEADER];
	if (size < FUZZ_NVS_HEADER + 1 + 4 * nops)
		return false;
	*ops = (struct fuzz_bytes){ data + FUZZ_NVS_HEADER + 1, 4 * nops };
	return fuzz_nvs_setup(r, data, ops->p + ops->n, size - FUZZ_NVS_HEADER - 1 - ops->n) &&
	       fc_nvs_mount(&r->fs, &r->cfg) == 0;
}

int fuzz_nvs_ops(const uint8_t *data, size_t size)
{
	struct fuzz_nvs *r = calloc(1, sizeof(*r));
	struct fuzz_bytes ops;
	struct model m;

	if (fuzz_nvs_ops_mount(r, data, size, &ops)) {
		memset(&m, 0, sizeof(m)); /* UNKNOWN: the damaged image's own values */
		m.zephyr_free_left = ZEPHYR_WALK_BUDGET;
		while (ops.n && r->fs.mounted && !fuzz_nvs_spent(r))
			run_op(r, &m, &ops);
		if (r->fs.mounted) {
			check_model(r, &m, "acknowledged write or delete reads back");
			int rc = fc_nvs_mount(&r->fs, &r->cfg);

			if (rc)
				fuzz_nvs_violated(r, "remount at the end", rc);
			check_model(r, &m, "acknowledged write or delete reads back after a remount");
		}
	}
	fuzz_nvs_free(r);
	free(r);
	return 0;
}
