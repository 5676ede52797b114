/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Settings on any image: save, delete, get, load, subtree load, scan and
 * re-init in any order; a name saved or deleted reads back as acknowledged
 * (names the image held before are not modelled: a damaged image may hold
 * them twice).
 */
#include <stdlib.h>
#include <string.h>

#include "fdtcache/settings.h"

#include "fuzz_util.h"

#define MAX_VALUE 80u

static const char *const names[] = {
	"a", "a/b", "a/b/c", "a/bc", "bt/mesh/RPL/1", "bt/mesh/RPL/2", "wifi/ssid",
	"x/this-name-is-sixty-four-bytes-long-which-is-the-largest-allowed-",
};
#define NNAMES FC_ARRAY_SIZE(names)

struct rig {
	struct fuzz_nvs nvs;
	struct fc_settings st;
	struct fc_settings_config cfg;
	uint16_t cache[64];
	bool preexisting[NNAMES];
	enum { UNKNOWN, ABSENT, STORED } state[NNAMES];
	uint8_t len[NNAMES];
	uint32_t seed[NNAMES];
};

static int check_entry(void *ctx, const struct fc_settings_entry *e)
{
	(void)ctx;
	/* a stored name may hold NUL bytes: name_len counts them all */
	if (e->value_read > e->value_len || e->name[e->name_len] != '\0' ||
	    strlen(e->name) > e->name_len)
		fuzz_violated("load/scan entry consistent", -1);
	return 0;
}

static int mark_present(void *ctx, const struct fc_settings_entry *e)
{
	struct rig *r = ctx;

	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(e->name, names[i]))
			r->preexisting[i] = true;
	return check_entry(ctx, e);
}

static int count_problem(void *ctx, const struct fc_settings_problem *p)
{
	(void)ctx;
	(void)p;
	return 0;
}

static bool attach(struct rig *r, uint8_t mode)
{
	r->cfg = (struct fc_settings_config){ .fs = &r->nvs.fs };
	switch (mode % 3) {
	case 0:
		r->cfg.cache_mode = FC_SETTINGS_CACHE_INDEX;
		break;
	case 1:
		r->cfg.cache_mode = FC_SETTINGS_CACHE_ZEPHYR_RING;
		break;
	default:
		r->cfg.cache_mode = FC_SETTINGS_CACHE_ZEPHYR_RING_FIX;
		break;
	}
	r->cfg.cache = r->cache;
	r->cfg.cache_len = FC_ARRAY_SIZE(r->cache);
	return fc_settings_init(&r->st, &r->cfg) == 0;
}

static void check_model(struct rig *r, const char *when)
{
	uint8_t want[MAX_VALUE], got[MAX_VALUE];

	for (size_t i = 0; i < NNAMES; i++) {
		int rc;

		if (r->preexisting[i] || r->state[i] == UNKNOWN)
			continue;
		rc = fc_settings_get(&r->st, names[i], got, sizeof(got));
		if (r->state[i] == ABSENT) {
			if (rc != FC_ENOENT)
				fuzz_nvs_violated(&r->nvs, when, rc);
			continue;
		}
		fuzz_value(want, r->len[i], r->seed[i]);
		if (rc != r->len[i] || memcmp(want, got, r->len[i]))
			fuzz_nvs_violated(&r->nvs, when, rc);
	}
}

/* A name made of input bytes: may be empty, hold '=', or be too long. */
static int odd_name_op(struct rig *r, struct fuzz_bytes *ops, uint8_t arg)
{
	char name[72];
	size_t n = arg % sizeof(name);
	uint8_t v[4] = { 1, 2, 3, 4 };

	for (size_t i = 0; i < n; i++)
		name[i] = (char)(fuzz_u8(ops) | 1);
	name[n] = '\0';
	if (fc_settings_name_len(name) < 0 && fc_settings_save(&r->st, name, v, sizeof(v)) != FC_ENAME)
		fuzz_violated("an invalid name is refused", -1);
	return 0;
}

static void run_op(struct rig *r, struct fuzz_bytes *ops)
{
	uint8_t kind = fuzz_u8(ops), arg = fuzz_u8(ops), lenb = fuzz_u8(ops), sb = fuzz_u8(ops);
	size_t i = arg % NNAMES;
	uint8_t len = (uint8_t)(lenb % (MAX_VALUE + 1)), value[MAX_VALUE], buf[32];
	uint32_t seed = sb | (uint32_t)arg << 8;
	int rc;

	switch (kind % 9) {
	case 0: case 1: case 2: /* save; len 0 deletes */
		fuzz_value(value, len, seed);
		rc = fc_settings_save(&r->st, names[i], value, len);
		if (rc >= 0) {
			r->state[i] = len ? STORED : ABSENT;
			r->len[i] = len;
			r->seed[i] = seed;
		} else if (rc != FC_ENOSPC) {
			r->state[i] = UNKNOWN;
		}
		break;
	case 3:
		rc = fc_settings_delete(&r->st, names[i]);
		if (rc >= 0)
			r->state[i] = ABSENT;
		else
			r->state[i] = UNKNOWN;
		break;
	case 4:
		check_model(r, "saved or deleted name reads back");
		break;
	case 5:
		fc_settings_load_subtree(&r->st, names[i], buf, lenb % sizeof(buf), check_entry, r);
		break;
	case 6: {
		struct fc_settings_scan_ops sops = { .pair = check_entry, .problem = count_problem };

		fc_settings_scan(&r->nvs.fs, buf, sizeof(buf), &sops, NULL);
		break;
	}
	case 7:
		odd_name_op(r, ops, arg);
		break;
	default: /* reboot: mount, init and load again */
		rc = fc_nvs_mount(&r->nvs.fs, &r->nvs.cfg);
		if (rc)
			fuzz_nvs_violated(&r->nvs, "remount after acknowledged saves", rc);
		if (!attach(r, arg))
			fuzz_nvs_violated(&r->nvs, "settings init after a remount", -1);
		fc_settings_load(&r->st, buf, sizeof(buf), check_entry, r);
		check_model(r, "saved or deleted name reads back after a reboot");
		break;
	}
}

int fuzz_settings(const uint8_t *data, size_t size)
{
	struct fc_settings_scan_ops present = { .pair = mark_present, .problem = count_problem };
	struct rig *r = calloc(1, sizeof(*r));
	struct fuzz_bytes ops;
	uint8_t buf[32];

	if (fuzz_nvs_ops_mount(&r->nvs, data, size, &ops) &&
	    fc_settings_scan(&r->nvs.fs, buf, sizeof(buf), &present, r) == 0 &&
	    attach(r, data[2] >> 5)) {
		fc_settings_load(&r->st, buf, sizeof(buf), check_entry, r);
		while (ops.n && r->nvs.fs.mounted && !fuzz_nvs_spent(&r->nvs))
			run_op(r, &ops);
		if (r->nvs.fs.mounted)
			check_model(r, "saved or deleted name reads back at the end");
	}
	fuzz_nvs_free(&r->nvs);
	free(r);
	return 0;
}
