/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engines the randomised sweep drives: nvs (keys are ids) and settings
 * on nvs (keys are names; every mount also loads, which repairs).
 */
#include "pl_random.h"

#include <stdio.h>
#include <string.h>

void pl_value(struct pl_val *v, unsigned int len, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 12345u;

	v->len = (int)len;
	for (unsigned int i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		v->b[i] = (uint8_t)x;
	}
	if (seed % 16 == 3 || seed % 16 == 4)
		memset(v->b, seed % 16 == 3 ? 0xff : 0x00, len);
}

void pl_name(const struct pl_case *c, unsigned int key, char *buf, unsigned int size)
{
	if ((c->seed + key) % 3)
		snprintf(buf, size, "pl/%u", key);
	else
		snprintf(buf, size, "powerloss/a/rather/long/settings/name/%u", key);
}

int pl_key_of(const struct pl_case *c, const char *name)
{
	char k_name[80];

	for (unsigned int k = 0; k < c->keys; k++) {
		pl_name(c, k, k_name, sizeof(k_name));
		if (!strcmp(k_name, name))
			return (int)k;
	}
	return -1;
}

int pl_got(int rc, struct pl_val *v)
{
	if (rc == FC_ENOENT) {
		v->len = -1;
		return 0;
	}
	if (rc > (int)PL_VMAX)
		rc = FC_ETOOBIG;
	v->len = rc;
	return rc < 0 ? rc : 0;
}

int pl_why(struct pl_rig *r, const char *what, int rc)
{
	if (rc)
		snprintf(r->why, sizeof(r->why), "%s: %s", what, fc_strerror(rc));
	return rc;
}

static int nvs_mount(struct pl_rig *r)
{
	const struct pl_case *c = r->c;
	struct fc_nvs_config cfg = {
		.flash = &r->sim.dev, .sector_size = c->sector_size, .sector_count = c->sectors,
		.data_crc = c->data_crc, .lookup = c->lookup, .index_slots = r->slots,
		.index_slot_count = c->slots,
	};

	if (c->ate_cache && c->lookup == FC_NVS_LOOKUP_INDEX) {
		cfg.ate_cache = r->ate_cache;
		cfg.ate_cache_size = sizeof(r->ate_cache);
	}
	if (c->ate_cache) { /* the cases with ATE caches also scan through the read buffer */
		cfg.read_buf = r->read_buf;
		cfg.read_buf_size = sizeof(r->read_buf);
	}
	if (r->other_lookup) {
		cfg.lookup = c->lookup == FC_NVS_LOOKUP_INDEX ? FC_NVS_LOOKUP_ZEPHYR
							      : FC_NVS_LOOKUP_INDEX;
		cfg.index_slot_count = cfg.lookup == FC_NVS_LOOKUP_INDEX ? 128 : 16;
		cfg.ate_cache = NULL;
		cfg.ate_cache_size = 0;
	}
	return pl_why(r, "nvs mount", fc_nvs_mount(&r->fs, &cfg));
}

static int nvs_apply(struct pl_rig *r, const struct pl_op *o, const struct pl_val *v)
{
	uint16_t id = r->c->ids[o->key];
	int rc = v->len < 0 ? fc_nvs_delete(&r->fs, id)
			    : fc_nvs_write(&r->fs, id, v->b, (size_t)v->len);

	return rc < 0 ? rc : 0;
}

static int nvs_get(struct pl_rig *r, unsigned int key, struct pl_val *v)
{
	return pl_got(fc_nvs_read(&r->fs, r->c->ids[key], v->b, PL_VMAX), v);
}

static int nvs_free(struct pl_rig *r)
{
	return fc_nvs_calc_free_space(&r->fs);
}

const struct pl_engine pl_nvs_engine = { "nvs", nvs_mount, nvs_apply, nvs_get, nvs_free };

/* ---- settings ---- */

static int settings_get(struct pl_rig *r, unsigned int key, struct pl_val *v)
{
	char name[80];

	pl_name(r->c, key, name, sizeof(name));
	return pl_got(fc_settings_get(&r->st, name, v->b, PL_VMAX), v);
}

/* What a load delivers: each name once, each a key's name. */
struct delivered {
	struct pl_rig *r;
	bool seen[PL_KEYS_MAX];
	uint8_t val[PL_KEYS_MAX][PL_VMAX];
	int len[PL_KEYS_MAX];
	bool bad;
};

static int deliver(void *ctx, const struct fc_settings_entry *e)
{
	struct delivered *d = ctx;
	int k = pl_key_of(d->r->c, e->name);

	if (k >= 0 && !d->seen[k] && e->value_len <= PL_VMAX) {
		d->seen[k] = true;
		d->len[k] = (int)e->value_len;
		memcpy(d->val[k], e->value, e->value_read);
		return 0;
	}
	d->bad = true;
	snprintf(d->r->why, sizeof(d->r->why), "load: unexpected or repeated name \"%.64s\"",
		 e->name);
	return 0;
}

static int present(struct pl_rig *r, uint16_t id, bool *yes)
{
	uint8_t probe;
	int rc = fc_nvs_read(&r->fs, id, &probe, 0);

	*yes = rc > 0;
	return rc == FC_ENOENT || rc >= 0 ? 0 : rc;
}

/*
 * A load leaves nothing for the next load to repair: no half pair, nothing
 * above the counter, the counter's own pair stored. (fc_settings_scan says
 * the same over every id; the ids a case can use are enough here.)
 */
static int load_left_nothing(struct pl_rig *r)
{
	uint16_t counter = r->st.last_name_id, top = (uint16_t)(FC_SETTINGS_ID_NAME_FIRST + 2 * PL_KEYS_MAX);
	int rc = 0;

	for (uint16_t id = FC_SETTINGS_ID_NAME_FIRST; id <= top && !rc; id++) {
		bool name, value;

		rc = present(r, id, &name);
		if (!rc)
			rc = present(r, (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET), &value);
		if (rc)
			break;
		if (name != value || (id > counter && name) || (id == counter && !name)) {
			snprintf(r->why, sizeof(r->why),
				 "after load: id 0x%04x has name %d value %d, counter 0x%04x", id, name,
				 value, counter);
			return FC_ECORRUPT;
		}
	}
	return rc;
}

/* Every name the load delivered reads back the same with get, and no other. */
static int load_matches_get(struct pl_rig *r, const struct delivered *d)
{
	static struct pl_val v;

	for (unsigned int k = 0; k < r->c->keys; k++) {
		int rc = settings_get(r, k, &v);

		if (rc) {
			snprintf(r->why, sizeof(r->why), "get key %u: %s", k, fc_strerror(rc));
			return rc;
		}
		if (v.len != (d->seen[k] ? d->len[k] : -1) ||
		    (v.len > 0 && memcmp(v.b, d->val[k], (size_t)v.len))) {
			snprintf(r->why, sizeof(r->why), "key %u: load delivered len %d, get reads %d",
				 k, d->seen[k] ? d->len[k] : -1, v.len);
			return FC_ECORRUPT;
		}
	}
	return 0;
}

static int settings_mount(struct pl_rig *r)
{
	static struct delivered d;
	static uint8_t buf[PL_VMAX];
	struct fc_settings_config cfg = {
		.fs = &r->fs, .cache_mode = FC_SETTINGS_CACHE_INDEX, .cache = r->name_cache,
		.cache_len = (uint32_t)(sizeof(r->name_cache) / sizeof(r->name_cache[0])),
	};
	int rc = nvs_mount(r);

	if (rc)
		return rc;
	if (r->other_lookup)
		cfg.cache_mode = FC_SETTINGS_CACHE_ZEPHYR_RING_FIX;
	rc = pl_why(r, "settings init", fc_settings_init(&r->st, &cfg));
	if (rc)
		return rc;
	memset(&d, 0, sizeof(d));
	d.r = r;
	rc = pl_why(r, "settings load", fc_settings_load(&r->st, buf, sizeof(buf), deliver, &d));
	if (rc)
		return rc;
	if (d.bad)
		return FC_ECORRUPT;
	if (!r->st.repair_err) {
		rc = load_left_nothing(r);
		if (rc)
			return rc;
	}
	return load_matches_get(r, &d);
}

static int settings_apply(struct pl_rig *r, const struct pl_op *o, const struct pl_val *v)
{
	char name[80];

	pl_name(r->c, o->key, name, sizeof(name));
	if (v->len < 0)
		return fc_settings_delete(&r->st, name);
	return fc_settings_save(&r->st, name, v->b, (size_t)v->len);
}

const struct pl_engine pl_settings_engine = {
	"settings", settings_mount, settings_apply, settings_get, nvs_free,
};
