/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ZMS engines of the randomised sweep: zms (keys are 32-bit ids) and
 * settings on zms (keys are names; every mount also inits and loads, which
 * repairs the list). A value longer than ZMS allows in the case's sector is
 * refused like a full partition: nothing is written.
 *
 * The engines program through the simulator, which refuses (FC_ENOTERASED)
 * any program over bytes that are not erased: recovery never programs a
 * write block twice.
 */
#include "pl_random.h"

#include <stdio.h>
#include <string.h>

static int zms_mount(struct pl_rig *r)
{
	const struct pl_case *c = r->c;
	bool index = (c->lookup == FC_NVS_LOOKUP_INDEX) != r->other_lookup;
	struct fc_zms_config cfg = {
		.flash = &r->sim.dev, .sector_size = c->sector_size, .sector_count = c->sectors,
		.data_crc = c->data_crc,
		.lookup = index ? FC_ZMS_LOOKUP_INDEX : FC_ZMS_LOOKUP_ZEPHYR,
		.index_slots = r->zslots, .index_slot_count = c->slots,
		.read_buf = r->read_buf, .read_buf_size = sizeof(r->read_buf), /* 256 bytes, as nvs */
	};

	if (r->other_lookup)
		cfg.index_slot_count = index ? 128 : 16;
	else if (c->ate_cache && index && sizeof(r->ate_cache) >= 2 * FC_ALIGN_UP(16u, c->wbs)) {
		cfg.ate_cache = r->ate_cache;
		cfg.ate_cache_size = sizeof(r->ate_cache);
	}
	return pl_why(r, "zms mount", fc_zms_mount(&r->zfs, &cfg));
}

static int refused(int rc)
{
	return rc == FC_ETOOBIG ? FC_ENOSPC : rc;
}

static int zms_apply(struct pl_rig *r, const struct pl_op *o, const struct pl_val *v)
{
	uint16_t id = r->c->ids[o->key];
	int rc = v->len < 0 ? fc_zms_delete(&r->zfs, id)
			    : fc_zms_write(&r->zfs, id, v->b, (size_t)v->len);

	return rc < 0 ? refused(rc) : 0;
}

static int zms_get(struct pl_rig *r, unsigned int key, struct pl_val *v)
{
	return pl_got(fc_zms_read(&r->zfs, r->c->ids[key], v->b, PL_VMAX), v);
}

static int zms_free(struct pl_rig *r)
{
	return fc_zms_calc_free_space(&r->zfs);
}

const struct pl_engine pl_zms_engine = { "zms", zms_mount, zms_apply, zms_get, zms_free };

/* ---- settings on zms ---- */

static int szms_get(struct pl_rig *r, unsigned int key, struct pl_val *v)
{
	char name[80];

	pl_name(r->c, key, name, sizeof(name));
	return pl_got(fc_settings_zms_get(&r->zst, name, v->b, PL_VMAX), v);
}

/* What a load delivers: each name once, each a key's name, each as get reads it. */
struct delivered {
	struct pl_rig *r;
	bool seen[PL_KEYS_MAX];
	bool bad;
};

static int deliver(void *ctx, const struct fc_settings_zms_entry *e)
{
	static struct pl_val v;
	struct delivered *d = ctx;
	int k = pl_key_of(d->r->c, e->name);

	if (k >= 0 && !d->seen[k] && !szms_get(d->r, (unsigned int)k, &v) &&
	    v.len == (int)e->value_len && !memcmp(v.b, e->value, e->value_read)) {
		d->seen[k] = true;
		return 0;
	}
	d->bad = true;
	snprintf(d->r->why, sizeof(d->r->why), "load: unexpected, repeated or differing \"%.64s\"",
		 e->name);
	return 0;
}

static int szms_mount(struct pl_rig *r)
{
	static struct delivered d;
	static uint8_t buf[PL_VMAX];
	static struct pl_val v;
	int rc = zms_mount(r);

	if (rc)
		return rc;
	rc = fc_settings_zms_init(&r->zst, &r->zfs);
	if (!rc) {
		memset(&d, 0, sizeof(d));
		d.r = r;
		rc = fc_settings_zms_load(&r->zst, buf, sizeof(buf), deliver, &d);
	}
	if (pl_why(r, "settings init/load", rc))
		return rc;
	if (d.bad)
		return FC_ECORRUPT;
	/* a name get finds is one the load delivered */
	for (unsigned int k = 0; k < r->c->keys; k++) {
		rc = szms_get(r, k, &v);
		if (rc || (v.len >= 0) != d.seen[k]) {
			snprintf(r->why, sizeof(r->why), "key %u: get %s, len %d, load %s", k,
				 fc_strerror(rc), v.len, d.seen[k] ? "delivered it" : "did not");
			return rc ? rc : FC_ECORRUPT;
		}
	}
	return 0;
}

static int szms_apply(struct pl_rig *r, const struct pl_op *o, const struct pl_val *v)
{
	char name[80];

	pl_name(r->c, o->key, name, sizeof(name));
	if (v->len < 0)
		return fc_settings_zms_delete(&r->zst, name);
	return refused(fc_settings_zms_save(&r->zst, name, v->b, (size_t)v->len));
}

const struct pl_engine pl_settings_zms_engine = {
	"settings_zms", szms_mount, szms_apply, szms_get, zms_free,
};
