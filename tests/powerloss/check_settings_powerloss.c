/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Power-loss sweep of the settings layer: a save/rewrite/delete workload
 * with several GC wrap-arounds on 4 x 1 KiB sectors is cut at every program
 * and erase, in each of the simulator's cut modes. After
 * power-on, remount and load: every acknowledged operation is there, the
 * interrupted one left the old or the new state, nothing else changed, no
 * name is left without its value or the reverse, and settings keep working.
 */
#include "check_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/settings.h"

#define SECTOR 1024u
#define SECTORS 4u
#define NAMES 10u
#define OPS 520u
#define VMAX 8u

struct value {
	bool present;
	uint8_t len;
	uint8_t bytes[VMAX];
};

struct op {
	bool del;
	unsigned name;
	struct value v;
};

struct rig {
	uint8_t mem[SECTOR * SECTORS];
	struct fc_flash_sim_unit units[SECTORS];
	struct fc_flash_sim sim;
	struct fc_cache_slot slots[64];
	uint16_t cache[32];
	struct fc_nvs fs;
	struct fc_settings s;
};

static void name_of(unsigned i, char *buf, size_t len)
{
	/* short and long names, so records differ in size */
	if (i % 3)
		snprintf(buf, len, "pl/%u", i);
	else
		snprintf(buf, len, "powerloss/long/name/%u", i);
}

static struct op op_at(unsigned k)
{
	struct op o = { .name = (k * 7u) % NAMES };

	if (k % 11u == 10u) {
		o.del = true;
		return o;
	}
	o.v.present = true;
	o.v.len = (uint8_t)(1u + k % VMAX);
	for (unsigned j = 0; j < o.v.len; j++)
		o.v.bytes[j] = (uint8_t)(k * 13u + j);
	return o;
}

static void rig_sim(struct rig *r)
{
	struct fc_flash_sim_config cfg;

	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("nrf52840"), 4096), 0);
	cfg.geo.size = SECTOR * SECTORS;
	cfg.geo.erase_size = SECTOR;
	memset(r->mem, 0xff, sizeof(r->mem));
	ck_assert_int_eq(fc_flash_sim_init(&r->sim, &cfg, r->mem, r->units), 0);
}

static int rig_mount(struct rig *r)
{
	struct fc_nvs_config ncfg = {
		.flash = &r->sim.dev, .sector_size = SECTOR, .sector_count = SECTORS,
		.lookup = FC_NVS_LOOKUP_INDEX, .index_slots = r->slots,
		.index_slot_count = G_N_ELEMENTS(r->slots),
	};
	struct fc_settings_config scfg = {
		.fs = &r->fs, .cache_mode = FC_SETTINGS_CACHE_INDEX,
		.cache = r->cache, .cache_len = G_N_ELEMENTS(r->cache),
	};
	int rc = fc_nvs_mount(&r->fs, &ncfg);

	if (!rc)
		rc = fc_settings_init(&r->s, &scfg);
	return rc;
}

static int apply(struct rig *r, const struct op *o)
{
	char name[40];

	name_of(o->name, name, sizeof(name));
	if (o->del)
		return fc_settings_delete(&r->s, name);
	return fc_settings_save(&r->s, name, o->v.bytes, o->v.len);
}

/* What a load reports, per workload name; any other name fails the test. */
struct seen {
	struct value v[NAMES];
};

static int collect(void *ctx, const struct fc_settings_entry *e)
{
	struct seen *seen = ctx;

	for (unsigned i = 0; i < NAMES; i++) {
		char name[40];

		name_of(i, name, sizeof(name));
		if (strcmp(name, e->name))
			continue;
		ck_assert(!seen->v[i].present);
		ck_assert_uint_le(e->value_len, VMAX);
		seen->v[i].present = true;
		seen->v[i].len = (uint8_t)e->value_len;
		memcpy(seen->v[i].bytes, e->value, e->value_len);
		return 0;
	}
	ck_abort_msg("load reported a name never saved: %s", e->name);
	return 0;
}

static bool same(const struct value *a, const struct value *b)
{
	if (a->present != b->present)
		return false;
	return !a->present || (a->len == b->len && !memcmp(a->bytes, b->bytes, a->len));
}

static void load_into(struct rig *r, struct seen *seen)
{
	uint8_t buf[VMAX];

	memset(seen, 0, sizeof(*seen));
	ck_assert_int_eq(fc_settings_load(&r->s, buf, sizeof(buf), collect, seen), 0);
}

static int no_orphan(void *ctx, const struct fc_settings_problem *p)
{
	(void)ctx;
	ck_assert_msg(p->kind == FC_SETTINGS_COUNTER_TOP, "after load: problem %d at id 0x%04x",
		      p->kind, p->id);
	return 0;
}

static void check_state(struct rig *r, const struct value *model, int cut_op,
			const struct value *old, unsigned n, int mode)
{
	static const struct fc_settings_scan_ops ops = { .problem = no_orphan };
	struct seen seen;

	load_into(r, &seen);
	for (unsigned i = 0; i < NAMES; i++) {
		struct op o = cut_op >= 0 ? op_at((unsigned)cut_op) : (struct op){ .name = NAMES };

		if (i == o.name)
			ck_assert_msg(same(&seen.v[i], old) || same(&seen.v[i], &model[i]),
				      "cut %u mode %d: interrupted name %u neither old nor new", n,
				      mode, i);
		else
			ck_assert_msg(same(&seen.v[i], &model[i]),
				      "cut %u mode %d: name %u changed", n, mode, i);
	}
	ck_assert_int_eq(fc_settings_scan(&r->fs, NULL, 0, &ops, NULL), 0);
}

/* Runs the workload with a cut after n flash operations; returns true if it was cut. */
static bool run_cut(struct rig *r, unsigned n, enum fc_flash_sim_cut_mode mode)
{
	struct value model[NAMES] = { 0 }, old = { 0 };
	int cut_op = -1;
	uint8_t buf[VMAX];
	struct seen after;

	rig_sim(r);
	ck_assert_int_eq(rig_mount(r), 0);
	ck_assert_int_eq(fc_settings_load(&r->s, buf, sizeof(buf), NULL, NULL), 0);
	ck_assert_int_eq(fc_flash_sim_cut_after(&r->sim, n, mode, n * 2654435761u), 0);
	for (unsigned k = 0; k < OPS; k++) {
		struct op o = op_at(k);
		int rc = apply(r, &o);

		if (rc < 0) {
			ck_assert_int_eq(rc, FC_EPOWER);
			cut_op = (int)k;
			old = model[o.name];
			model[o.name] = o.v;
			break;
		}
		model[o.name] = o.v;
	}
	if (cut_op < 0)
		return false;
	fc_flash_sim_power_on(&r->sim);
	ck_assert_int_eq(rig_mount(r), 0);
	check_state(r, model, cut_op, &old, n, mode);
	/* settings keep working: the interrupted name gets a new value */
	{
		struct op o = op_at((unsigned)cut_op);

		o.del = false;
		o.v = (struct value){ .present = true, .len = 3, .bytes = { 0xaa, 0xbb, 0xcc } };
		ck_assert_int_eq(apply(r, &o), 0);
		model[o.name] = o.v;
	}
	ck_assert_int_eq(rig_mount(r), 0);
	load_into(r, &after);
	for (unsigned i = 0; i < NAMES; i++)
		ck_assert_msg(same(&after.v[i], &model[i]), "cut %u mode %d: after recovery, name %u",
			      n, mode, i);
	return true;
}

START_TEST(sweep)
{
	enum fc_flash_sim_cut_mode mode = (enum fc_flash_sim_cut_mode)_i;
	struct rig *r = g_new0(struct rig, 1);
	unsigned n = 1, gc_erases;

	/* the uncut run: how many operations, and that it wraps the partition */
	rig_sim(r);
	ck_assert_int_eq(rig_mount(r), 0);
	for (unsigned k = 0; k < OPS; k++) {
		struct op o = op_at(k);

		ck_assert_int_eq(apply(r, &o), 0);
	}
	/* GC leaves the sectors never written alone: the first wrap erases one */
	gc_erases = r->sim.stats.erases;
	ck_assert_uint_ge(gc_erases + SECTORS - 1u, 2 * SECTORS);
	while (run_cut(r, n, mode))
		n++;
	printf("settings power-loss sweep, %s: %u cut points, %u erases in the workload\n",
	       fc_flash_sim_cut_mode_name(mode), n - 1, gc_erases);
	ck_assert_uint_gt(n, 300);
	g_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("settings_powerloss");
	TCase *tc = tcase_create("sweep");

	tcase_add_loop_test(tc, sweep, FC_FLASH_SIM_CUT_ATOMIC, FC_FLASH_SIM_CUT_MODES);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
