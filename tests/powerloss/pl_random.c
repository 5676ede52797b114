/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pl_random - the randomised power-loss sweep (see pl_random.h).
 *
 * Each case (from a seed): 2..8 sectors of 512..8192 bytes, write block
 * 1..32, erase value 0xff or 0x00, data CRC on or off, index or Zephyr
 * lookup with 0..1024 slots, ATE cache on or off, and a workload of 300..480
 * operations over up to 40 keys: writes (values of all-0xff and all-0x00
 * bytes among them), deletes, identical rewrites, reads, free-space queries
 * and remounts. For every engine and cut mode, runs cut the workload, then
 * the recovering mounts: with the random schedule a cut at a random op,
 * then a second cut at a random op of the recovery, then a third. After the
 * last recovery every key must read its last acknowledged value (the
 * interrupted operation: old or new), deleted keys must be absent, and 30
 * more operations, a remount and a mount in the other lookup mode must
 * agree too.
 *
 *   pl_random [--cases N] [--seed S] [--experiments K] [--min-cuts M]
 *             [--schedule random|none|linear|log|exhaustive] [--depth D]
 *             [--engine nvs|settings|zms|settings_zms] [--mode NAME] [--case SEED [--cuts A,B,C]]
 *
 * Prints per engine and mode the cut points tried (those in recovering
 * mounts too) and the failures, each failure with the options that replay
 * it. Exit 1 on any failure. A failure whose torn image another history of
 * acknowledged writes leaves byte for byte (format_limit()) is printed as a
 * FORMAT LIMIT with that history and counted apart: neither a failure nor
 * a pass.
 */
#include "pl_random.h"

#include "fdtcache/crc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	unsigned long cases, experiments, min_cuts;
	uint32_t seed;
	int schedule; /* -1: random, else enum fc_flash_sim_schedule */
	unsigned int depth;
	int engine, mode; /* -1: all */
	bool one_case;
	uint32_t case_seed;
	uint32_t cuts[FC_FLASH_SIM_SCHED_DEPTH_MAX];
	unsigned int ncuts;
};

/* Counts per engine and mode. */
struct tally {
	unsigned long runs, cuts, recovery_cuts, failures, limits;
};

static const struct pl_engine *const engines[] = { &pl_nvs_engine, &pl_settings_engine,
						    &pl_zms_engine, &pl_settings_zms_engine };
#define ENGINES (sizeof(engines) / sizeof(engines[0]))
static struct tally tallies[ENGINES][FC_FLASH_SIM_CUT_MODES];
static struct pl_rig rig;
static struct pl_case cs;

static uint32_t rnd(uint32_t *x, uint32_t n)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x % n;
}

/* Keys, and the longest value, that the partition holds with room to spare. */
static uint16_t size_workload(struct pl_case *c, uint32_t *x, bool settings)
{
	uint32_t ate = c->wbs < 8 ? 8 : c->wbs;
	uint32_t vmax = c->sector_size - 4 * ate - (c->data_crc ? 4 : 0);
	uint32_t room = (c->sectors - 1u) * (c->sector_size - 2 * ate) * 3 / 4;
	uint32_t per_key = 2 * ate + (settings ? 2 * ate + 48 : 0);

	c->keys = 2 + rnd(x, PL_KEYS_MAX - 1);
	while (c->keys > 2 && room / c->keys < per_key + 8)
		c->keys--;
	vmax = vmax < PL_VMAX ? vmax : PL_VMAX;
	if (room / c->keys > per_key && room / c->keys - per_key < vmax)
		vmax = room / c->keys - per_key;
	return (uint16_t)(vmax < 4 ? 4 : vmax);
}

static void gen_op(struct pl_op *o, uint32_t *x, const struct pl_case *c, uint16_t maxlen,
		   bool extra)
{
	uint32_t p = rnd(x, 100);

	o->key = (uint8_t)rnd(x, c->keys);
	o->vseed = rnd(x, 0xffffffffu);
	/* short values mostly, the longest now and then */
	o->len = (uint16_t)(p % 7 ? 1 + rnd(x, maxlen < 24 ? maxlen : 24) : 1 + rnd(x, maxlen));
	if (extra)
		o->kind = p < 80 ? PL_WRITE : PL_DELETE;
	else if (p < 55)
		o->kind = PL_WRITE;
	else if (p < 67)
		o->kind = PL_DELETE;
	else if (p < 77)
		o->kind = PL_REWRITE;
	else if (p < 87)
		o->kind = PL_READ;
	else if (p < 95)
		o->kind = PL_FREE;
	else
		o->kind = PL_REMOUNT;
}

static bool id_used(const struct pl_case *c, unsigned int n, uint16_t id)
{
	for (unsigned int j = 0; j < n; j++)
		if (c->ids[j] == id)
			return true;
	return false;
}

static void gen_case(struct pl_case *c, uint32_t seed, bool settings)
{
	static const uint32_t slot_counts[] = { 0, 8, 64, 1024 };
	uint32_t x = seed * 2654435761u ^ 0x5bd1e995u;
	uint16_t maxlen;

	if (!x)
		x = 1;
	memset(c, 0, sizeof(*c));
	c->seed = seed;
	c->sectors = (uint16_t)(2 + rnd(&x, 7));
	c->sector_size = 512u << rnd(&x, 5);
	c->wbs = 1u << rnd(&x, 6);
	c->erase_value = rnd(&x, 2) ? 0xff : 0x00;
	c->data_crc = rnd(&x, 2);
	c->lookup = rnd(&x, 4) ? FC_NVS_LOOKUP_INDEX : FC_NVS_LOOKUP_ZEPHYR;
	c->slots = slot_counts[rnd(&x, 4)];
	if (settings && c->lookup == FC_NVS_LOOKUP_INDEX && c->slots == 8)
		c->slots = 64; /* settings ids: an 8-slot index overflows at once (tried by nvs) */
	c->ate_cache = rnd(&x, 2);
	maxlen = size_workload(c, &x, settings);
	for (unsigned int k = 0; k < c->keys; k++) {
		/* id 0 and 0xfffe among them; no duplicates, never 0xffff */
		uint16_t id = k == 0 ? 0 : k == 1 ? 0xfffe : (uint16_t)(1 + rnd(&x, 0xfffd));

		while (id_used(c, k, id))
			id = (uint16_t)(id % 0xfffd + 1);
		c->ids[k] = id;
	}
	c->nops = 300 + rnd(&x, PL_OPS_MAX - 300 + 1);
	for (unsigned int i = 0; i < c->nops; i++)
		gen_op(&c->ops[i], &x, c, maxlen, false);
	for (unsigned int i = 0; i < PL_EXTRA; i++)
		gen_op(&c->extra[i], &x, c, maxlen, true);
}

static void describe(const struct pl_case *c, char *buf, size_t size)
{
	snprintf(buf, size, "%u x %u B, write block %u, erase 0x%02x, data CRC %s, %s lookup, %u slots%s, "
		 "%u keys, %u ops", c->sectors, c->sector_size, c->wbs, c->erase_value,
		 c->data_crc ? "on" : "off", c->lookup == FC_NVS_LOOKUP_INDEX ? "index" : "zephyr",
		 c->slots, c->ate_cache ? ", ATE cache" : "", c->keys, c->nops);
}

/* ---- one run ---- */

struct run {
	const struct pl_engine *e;
	const struct pl_case *c;
	enum fc_flash_sim_cut_mode mode;
	const uint32_t *cuts;
	unsigned int ncuts;
	struct pl_val model[PL_KEYS_MAX];
	bool inflight;
	unsigned int inflight_key;
	struct pl_val inflight_new;
	unsigned long failures;
	char what[300];           /* the first failure (a run stops at it) */
	int failed_key;           /* the key its check read wrong, -1 for another failure */
	struct pl_val failed_got; /* what that read gave */
	bool first_cut_in_op;     /* the first cut hit a write or delete: ops[first_cut_op] */
	unsigned int first_cut_op;
};

static void fail(struct run *rn, const char *what)
{
	if (!rn->failures++)
		snprintf(rn->what, sizeof(rn->what), "%s", what);
}

/* A key read wrong: the failure, and what the read gave (for format_limit()). */
static void fail_read(struct run *rn, const char *what, unsigned int key, const struct pl_val *got)
{
	if (!rn->failures) {
		rn->failed_key = (int)key;
		rn->failed_got = *got;
	}
	fail(rn, what);
}

/* The run's failure, or (evidence set) its format limit, with the options that replay it. */
static void print_failure(const struct run *rn, const char *evidence)
{
	char desc[200];

	describe(rn->c, desc, sizeof(desc));
	fprintf(stderr, "pl_random: %s %s case %u (%s), mode %s, cuts",
		evidence ? "FORMAT LIMIT" : "FAIL", rn->e->name, rn->c->seed, desc,
		fc_flash_sim_cut_mode_name(rn->mode));
	for (unsigned int i = 0; i < rn->ncuts; i++)
		fprintf(stderr, "%s%u", i ? "," : " ", rn->cuts[i]);
	fprintf(stderr, "%s: %s\n", rn->ncuts ? "" : " none", rn->what);
	if (evidence)
		fprintf(stderr, "  %s\n", evidence);
	fprintf(stderr, "  replay: --engine %s --mode %s --case %u%s", rn->e->name,
		fc_flash_sim_cut_mode_name(rn->mode), rn->c->seed, rn->ncuts ? " --cuts " : "");
	for (unsigned int i = 0; i < rn->ncuts; i++)
		fprintf(stderr, "%s%u", i ? "," : "", rn->cuts[i]);
	fputc('\n', stderr);
}

static bool same(const struct pl_val *a, const struct pl_val *b)
{
	return a->len == b->len && (a->len <= 0 || !memcmp(a->b, b->b, (size_t)a->len));
}

/* Every key against the model (the interrupted op's key: old or new); settles that key. */
static bool verify(struct run *rn, const char *when)
{
	static struct pl_val got;
	char what[300];

	for (unsigned int k = 0; k < rn->c->keys; k++) {
		int rc = rn->e->get(&rig, k, &got);

		if (rc) {
			snprintf(what, sizeof(what), "%s: key %u (id %u) read fails: %s", when, k,
				 rn->c->ids[k], fc_strerror(rc));
			fail(rn, what);
			return false;
		}
		if (same(&got, &rn->model[k]))
			continue;
		if (rn->inflight && k == rn->inflight_key && same(&got, &rn->inflight_new)) {
			rn->model[k] = got;
			continue;
		}
		snprintf(what, sizeof(what), "%s: key %u (id %u) reads %s%d bytes, acknowledged %s%d",
			 when, k, rn->c->ids[k], got.len < 0 ? "absent " : "", got.len,
			 rn->model[k].len < 0 ? "absent " : "", rn->model[k].len);
		fail_read(rn, what, k, &got);
		return false;
	}
	rn->inflight = false;
	return true;
}

static bool cut_now(void)
{
	return !rig.sim.powered;
}

static bool mount_ok(struct run *rn, const char *when)
{
	char what[300];
	int rc;

	rig.why[0] = 0;
	rc = rn->e->mount(&rig);
	if (!rc || (rc == FC_EPOWER && cut_now()))
		return true;
	snprintf(what, sizeof(what), "%s: %s (%s)", when, rig.why, fc_strerror(rc));
	fail(rn, what);
	return false;
}

/*
 * One operation of a workload. Returns 1 when the power was cut during it,
 * 0 when it completed (or was refused for space), -1 on a failure.
 */
static int step(struct run *rn, const struct pl_op *o)
{
	static struct pl_val v;
	char what[200];
	int rc;

	switch (o->kind) {
	case PL_READ:
		rc = rn->e->get(&rig, o->key, &v);
		if (rc || !same(&v, &rn->model[o->key])) {
			snprintf(what, sizeof(what), "read of key %u: %s, len %d, acknowledged %d",
				 o->key, fc_strerror(rc), v.len, rn->model[o->key].len);
			if (rc)
				fail(rn, what);
			else
				fail_read(rn, what, o->key, &v);
			return -1;
		}
		return 0;
	case PL_FREE:
		rc = rn->e->free_space(&rig);
		if (rc < 0) {
			snprintf(what, sizeof(what), "free space: %s", fc_strerror(rc));
			fail(rn, what);
			return -1;
		}
		return 0;
	case PL_REMOUNT:
		if (!mount_ok(rn, "remount"))
			return -1;
		if (cut_now())
			return 1;
		return verify(rn, "after a remount") ? 0 : -1;
	case PL_REWRITE:
		if (rn->model[o->key].len < 0)
			return 0;
		v = rn->model[o->key];
		break;
	case PL_DELETE:
		v.len = -1;
		break;
	default:
		pl_value(&v, o->len, o->vseed);
	}
	rc = rn->e->apply(&rig, o, &v);
	if (!rc) {
		rn->model[o->key] = v;
		return 0;
	}
	if (rc == FC_ENOSPC)
		return 0;
	if (rc == FC_EPOWER && cut_now()) {
		rn->inflight = true;
		rn->inflight_key = o->key;
		rn->inflight_new = v;
		return 1;
	}
	snprintf(what, sizeof(what), "%s of key %u (%d bytes): %s",
		 v.len < 0 ? "delete" : "write", o->key, v.len, fc_strerror(rc));
	fail(rn, what);
	return -1;
}

/* The first cut's image and the program it cut (length 0: an erase), for format_limit(). */
static uint8_t torn_img[PL_SECTORS_MAX * PL_SECTOR_MAX];
static uint32_t cut_off, cut_len, torn_off, torn_len;
static int (*sim_prog)(void *ctx, uint32_t off, const void *buf, uint32_t len);

static int prog_noting_cut(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	bool powered = rig.sim.powered;
	int rc = sim_prog(ctx, off, buf, len);

	if (powered && !rig.sim.powered) {
		cut_off = off;
		cut_len = len;
	}
	return rc;
}

static void rig_init(const struct pl_case *c)
{
	struct fc_flash_sim_config cfg = {
		.geo = { .size = c->sectors * c->sector_size, .erase_size = c->sector_size,
			 .write_size = c->wbs, .erase_value = c->erase_value },
		.timing = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
	};

	rig.c = c;
	rig.other_lookup = false;
	memset(rig.mem, c->erase_value, cfg.geo.size);
	if (fc_flash_sim_init(&rig.sim, &cfg, rig.mem, rig.units))
		abort();
	sim_prog = rig.sim.dev.prog;
	rig.sim.dev.prog = prog_noting_cut;
	cut_len = 0;
}

/* After the last recovery: more operations, a remount, a mount in the other lookup mode. */
static void after_recovery(struct run *rn)
{
	if (!verify(rn, "after recovery"))
		return;
	for (unsigned int i = 0; i < PL_EXTRA; i++)
		if (step(rn, &rn->c->extra[i]))
			return;
	if (!mount_ok(rn, "remount after more writes") || !verify(rn, "after more writes"))
		return;
	rig.other_lookup = true;
	if (mount_ok(rn, "mount in the other lookup mode"))
		verify(rn, "in the other lookup mode");
}

static void run_init(struct run *rn, const struct pl_engine *e, const struct pl_case *c,
		     enum fc_flash_sim_cut_mode mode, const uint32_t *cuts, unsigned int ncuts)
{
	memset(rn, 0, sizeof(*rn));
	rn->e = e;
	rn->c = c;
	rn->mode = mode;
	rn->cuts = cuts;
	rn->ncuts = ncuts;
	rn->failed_key = -1;
	for (unsigned int k = 0; k < PL_KEYS_MAX; k++)
		rn->model[k].len = -1;
}

/*
 * The workload with cuts[0..ncuts) planned into rn; *last_ops gets the
 * program/erase ops of the last segment (the uncut run, or the last
 * recovering mount).
 */
static unsigned long run_cuts(struct run *rn, uint32_t *last_ops)
{
	const struct pl_case *c = rn->c;
	uint32_t seed = c->seed * 2654435761u, seg;
	unsigned int i = 0;
	int rc = 0;

	/* from the first cut only: a run and its longer variants see the same first cut */
	if (rn->ncuts)
		seed = seed * 31u + rn->cuts[0];
	*last_ops = 0;
	rig_init(c);
	fc_flash_sim_cut_plan(&rig.sim, rn->cuts, rn->ncuts, rn->mode, seed);
	if (!mount_ok(rn, "first mount"))
		return rn->failures;
	for (; !cut_now() && i < c->nops && !rc; i++)
		rc = step(rn, &c->ops[i]);
	if (rc < 0)
		return rn->failures;
	if (cut_now()) {
		memcpy(torn_img, rig.mem, (size_t)c->sectors * c->sector_size);
		torn_off = cut_off;
		torn_len = cut_len;
		rn->first_cut_in_op = rn->inflight;
		rn->first_cut_op = i - 1;
	}
	if (!cut_now()) {
		*last_ops = rig.sim.stats.ops;
		if (rn->ncuts)
			fail(rn, "the first cut was never reached");
		else
			after_recovery(rn);
		return rn->failures;
	}
	do {
		fc_flash_sim_power_on(&rig.sim);
		seg = rig.sim.stats.ops;
		if (!mount_ok(rn, "recovering mount"))
			return rn->failures;
	} while (cut_now());
	*last_ops = rig.sim.stats.ops - seg;
	if (rig.sim.stats.cuts != rn->ncuts) {
		fail(rn, "a planned cut was never reached");
		return rn->failures;
	}
	fc_flash_sim_cut_after(&rig.sim, 0, rn->mode, 0);
	after_recovery(rn);
	return rn->failures;
}

/* ---- format limits ---- */

/* The acknowledged ops before the one the first cut of failed hit, uncut, into rig and *pre. */
static bool replay_prefix(const struct run *failed, struct run *pre)
{
	run_init(pre, failed->e, failed->c, FC_FLASH_SIM_CUT_ATOMIC, NULL, 0);
	rig_init(failed->c);
	if (!mount_ok(pre, "first mount"))
		return false;
	for (unsigned int i = 0; i < failed->first_cut_op; i++)
		if (step(pre, &failed->c->ops[i]))
			return false;
	return !pre->failures;
}

/* An nvs id the case does not use, for the write the other history cuts. */
static uint16_t spare_id(const struct pl_case *c, uint16_t also)
{
	uint16_t id = 1;

	while (id == also || id_used(c, c->keys, id))
		id++;
	return id;
}

/*
 * The other history for a torn ATE a (its slot in sector base): the prefix,
 * an acknowledged write of a's id with the bytes a points at (a delete when
 * its length is 0), then, when tail_k > 0, a write of the torn image's bytes
 * from there to the end of its written data, cut (atomic) at its tail_k-th
 * program. Returns 1 when it leaves the torn image byte for byte, 0 when
 * not, -1 when it cannot be made; *pre gets its model before the write of a.
 */
static int other_history(const struct run *failed, struct run *pre, uint32_t base,
			 const struct fc_nvs_ate *a, unsigned int tail_k, uint32_t *tail_len)
{
	const struct pl_case *c = failed->c;
	uint32_t size = (uint32_t)c->sectors * c->sector_size, crc = c->data_crc ? 4 : 0;
	uint32_t from, to;
	int rc;

	if (!replay_prefix(failed, pre))
		return -1;
	rc = a->len ? fc_nvs_write(&rig.fs, a->id, torn_img + base + a->offset, a->len - crc)
		    : fc_nvs_delete(&rig.fs, a->id);
	if (rc < 0)
		return -1;
	*tail_len = 0;
	if (tail_k) {
		from = base + (rig.fs.data_wra & FC_NVS_ADDR_OFFSET_MASK);
		to = base + (rig.fs.ate_wra & FC_NVS_ADDR_OFFSET_MASK);
		while (to > from && torn_img[to - 1] == c->erase_value)
			to--;
		if (to <= from || to - from > PL_VMAX)
			return -1;
		*tail_len = to - from;
		fc_flash_sim_cut_after(&rig.sim, tail_k, FC_FLASH_SIM_CUT_ATOMIC, 0);
		if (fc_nvs_write(&rig.fs, spare_id(c, a->id), torn_img + from, to - from) != FC_EPOWER)
			return -1;
	}
	return !memcmp(rig.mem, torn_img, size);
}

/*
 * The zms engines' format limit: the first cut tore the ATE of the op it
 * hit into one whose crc8 holds, with a value inside it (a delete when its
 * length is 0), and the torn image is byte for byte the one the same
 * acknowledged ops leave with an acknowledged zms write of that id and value
 * in place of that op (the torn bytes read as the erase value, 0x00, and
 * the crc8 matched once in 256). The key the check read wrong must be the
 * interrupted op's, and what the mount read that value.
 */
static bool zms_format_limit(const struct run *failed, char *evidence, size_t size)
{
	static struct run pre;
	const struct pl_case *c = failed->c;
	const uint8_t *a = torn_img + torn_off;
	uint32_t id = fc_get_le32(a + 4), len = fc_get_le16(a + 2);
	struct pl_val other;
	int rc;

	if (!failed->first_cut_in_op || torn_len != FC_ALIGN_UP(16u, c->wbs) ||
	    failed->failed_key != (int)failed->inflight_key || id == UINT32_MAX || len > 8 ||
	    fc_crc8_ccitt(0xff, a + 1, 15) != a[0] || !replay_prefix(failed, &pre))
		return false;
	rc = len ? fc_zms_write(&rig.zfs, id, a + 8, len) : fc_zms_delete(&rig.zfs, id);
	if (rc < 0 || memcmp(rig.mem, torn_img, (size_t)c->sectors * c->sector_size))
		return false;
	other.len = len ? (int)len : -1;
	memcpy(other.b, a + 8, len);
	if (!same(&other, &failed->failed_got))
		return false;
	snprintf(evidence, size,
		 "the torn ATE at sector %u offset %u reads id 0x%x, length %u, valid: the image is "
		 "byte for byte the one the same acknowledged ops leave with an acknowledged zms %s "
		 "of id 0x%x in place of workload op %u, and what the mount read is that history's "
		 "value", torn_off / c->sector_size, torn_off % c->sector_size, (unsigned int)id,
		 (unsigned int)len, len ? "write of those bytes" : "delete", (unsigned int)id,
		 failed->first_cut_op + 1);
	return true;
}

/*
 * Is the failure of failed a limit of the format? The first cut tore an ATE
 * of the op it hit into fields that pass every check (crc8, part, bounds),
 * and the torn image is byte for byte the one another history of
 * acknowledged writes leaves (other_history()): no reader can tell the two
 * apart, so none reads both right. It counts as a limit only when the key
 * the check read wrong is the torn ATE's or the interrupted op's, and the
 * mount read the other history's value of it. evidence says which history.
 */
static bool format_limit(const struct run *failed, char *evidence, size_t size)
{
	static struct run pre;
	const struct pl_case *c = failed->c;
	uint32_t ate = c->wbs < 8 ? 8 : c->wbs, base, tail_len = 0;
	uint32_t crc = c->data_crc ? 4 : 0;
	struct pl_val other;
	struct fc_nvs_ate a;
	char tail[80] = "";
	unsigned int k;
	int same_image = 0, key = -1;

	if (failed->e == &pl_zms_engine || failed->e == &pl_settings_zms_engine)
		return zms_format_limit(failed, evidence, size);
	if (failed->e != &pl_nvs_engine || !failed->first_cut_in_op || torn_len != ate ||
	    failed->failed_key < 0)
		return false;
	base = torn_off - torn_off % c->sector_size;
	fc_nvs_ate_decode(torn_img + torn_off, c->erase_value, &a);
	if (!fc_nvs_ate_valid(&a, c->sector_size, ate) || a.id == FC_NVS_ID_SPECIAL ||
	    (a.len && (a.len <= crc || a.len - crc > PL_VMAX)))
		return false;
	for (k = 0; k <= 4 && same_image == 0; k++)
		same_image = other_history(failed, &pre, base, &a, k, &tail_len);
	if (same_image != 1)
		return false;
	for (unsigned int j = 0; j < c->keys; j++)
		if (c->ids[j] == a.id)
			key = (int)j;
	other.len = -1;
	if (failed->failed_key == key && a.len) {
		other.len = (int)(a.len - crc);
		memcpy(other.b, torn_img + base + a.offset, a.len - crc);
	} else if (failed->failed_key != key) {
		other = pre.model[failed->failed_key];
	}
	if ((failed->failed_key != key && failed->failed_key != (int)failed->inflight_key) ||
	    !same(&other, &failed->failed_got))
		return false;
	if (tail_len)
		snprintf(tail, sizeof(tail), ", then a write of the next %u bytes cut before its ATE",
			 tail_len);
	snprintf(evidence, size,
		 "the torn ATE at sector %u offset %u reads id %u, offset %u, length %u: the image is "
		 "byte for byte the one the same acknowledged ops leave with %s id %u in place of "
		 "workload op %u%s, and what the mount read is that history's value",
		 torn_off / c->sector_size, torn_off % c->sector_size, a.id, a.offset, a.len,
		 a.len ? "an acknowledged write of those bytes to" : "an acknowledged delete of",
		 a.id, failed->first_cut_op + 1, tail);
	return true;
}

/*
 * The workload with cuts[0..ncuts) planned (see run_cuts()); a failure is
 * printed, as a format limit when format_limit() proves one (*limit set,
 * and it is not counted as a failure).
 */
static unsigned long run(const struct pl_engine *e, const struct pl_case *c,
			 enum fc_flash_sim_cut_mode mode, const uint32_t *cuts, unsigned int ncuts,
			 uint32_t *last_ops, bool *limit)
{
	static struct run rn;
	char evidence[400];
	unsigned long failures;

	run_init(&rn, e, c, mode, cuts, ncuts);
	failures = run_cuts(&rn, last_ops);
	*limit = failures && format_limit(&rn, evidence, sizeof(evidence));
	if (failures)
		print_failure(&rn, *limit ? evidence : NULL);
	return *limit ? 0 : failures;
}

/* ---- schedules ---- */

static void count(struct tally *t, unsigned int ncuts, unsigned long failures, bool limit)
{
	t->runs++;
	t->cuts += ncuts > 0;
	t->recovery_cuts += ncuts > 1;
	t->failures += failures;
	t->limits += limit;
}

/* A cut at a random op, then one at a random op of each recovering mount that follows. */
static void sched_random(const struct pl_engine *e, const struct pl_case *c,
			 enum fc_flash_sim_cut_mode mode, unsigned long experiments, uint32_t total,
			 struct tally *t)
{
	uint32_t x = c->seed * 0x9e3779b9u + (uint32_t)mode * 7919u + 1u;
	uint32_t cuts[3], ops = total;

	for (unsigned long k = 0; k < experiments && total; k++) {
		ops = total;
		for (unsigned int n = 1; n <= 3 && ops; n++) {
			unsigned long f;
			bool limit;

			cuts[n - 1] = 1 + rnd(&x, ops);
			f = run(e, c, mode, cuts, n, &ops, &limit);
			count(t, n, f, limit);
			if (f || limit)
				break;
		}
	}
}

static void sched_iter(const struct pl_engine *e, const struct pl_case *c,
		       enum fc_flash_sim_cut_mode mode, const struct opts *o, struct tally *t)
{
	struct fc_flash_sim_sched it;
	uint32_t last = 0;
	unsigned long f;
	bool limit;

	if (fc_flash_sim_sched_init(&it, (enum fc_flash_sim_schedule)o->schedule, o->depth,
				    o->cuts, o->ncuts))
		abort();
	while (fc_flash_sim_sched_next(&it, last)) {
		f = run(e, c, mode, it.cuts, it.n, &last, &limit);
		count(t, it.n, f, limit);
	}
}

static void one_case(const struct opts *o, uint32_t seed)
{
	/* the zms engines run when asked for (--engine; make powerloss-zms) */
	for (unsigned int ei = 0; ei < (o->engine >= 0 ? ENGINES : 2); ei++) {
		uint32_t total;
		unsigned long f;
		bool limit;

		if (o->engine >= 0 && (unsigned int)o->engine != ei)
			continue;
		gen_case(&cs, seed, ei % 2 == 1);
		/* the uncut run: its failures count under every mode's "atomic" row */
		f = run(engines[ei], &cs, FC_FLASH_SIM_CUT_ATOMIC, NULL, 0, &total, &limit);
		count(&tallies[ei][0], 0, f, limit);
		for (unsigned int m = 0; m < FC_FLASH_SIM_CUT_MODES; m++) {
			enum fc_flash_sim_cut_mode mode = (enum fc_flash_sim_cut_mode)m;

			if (o->mode >= 0 && (unsigned int)o->mode != m)
				continue;
			if (o->one_case && o->ncuts) {
				f = run(engines[ei], &cs, mode, o->cuts, o->ncuts, &total, &limit);
				count(&tallies[ei][m], o->ncuts, f, limit);
			} else if (o->schedule < 0)
				sched_random(engines[ei], &cs, mode, o->experiments, total,
					     &tallies[ei][m]);
			else
				sched_iter(engines[ei], &cs, mode, o, &tallies[ei][m]);
		}
	}
}

/* ---- options and report ---- */

static int usage(const char *msg)
{
	fprintf(stderr, "pl_random: %s\nusage: pl_random [--cases N] [--seed S] [--experiments K] "
		"[--min-cuts M] [--schedule random|none|linear|log|exhaustive] [--depth D] "
		"[--engine nvs|settings|zms|settings_zms] [--mode NAME] [--case SEED [--cuts A,B,C]]\n", msg);
	return 2;
}

static bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!s || !*s)
		return false;
	*v = strtoul(s, &end, 0);
	return !*end;
}

static int parse_cuts(struct opts *o, const char *s)
{
	char *end;

	for (o->ncuts = 0; s && *s && o->ncuts < FC_FLASH_SIM_SCHED_DEPTH_MAX; s = end + (*end == ',')) {
		o->cuts[o->ncuts] = (uint32_t)strtoul(s, &end, 0);
		if (end == s || !o->cuts[o->ncuts] || (*end && *end != ','))
			return usage("--cuts wants a list of op numbers >= 1, as 117,3,1");
		o->ncuts++;
		if (!*end)
			return 0;
	}
	return usage("--cuts wants 1 to 8 op numbers");
}

static int parse_named(const char *arg, const char *const *names, unsigned int n, int *out,
		       const char *opt)
{
	char msg[80];

	for (unsigned int i = 0; arg && i < n; i++) {
		if (!strcmp(arg, names[i])) {
			*out = (int)i;
			return 0;
		}
	}
	snprintf(msg, sizeof(msg), "unknown %s value \"%.20s\"", opt, arg ? arg : "");
	return usage(msg);
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const char *const sched_names[] = { "none", "linear", "log", "exhaustive", "random" };
	static const char *const engine_names[] = { "nvs", "settings", "zms", "settings_zms" };
	const char *mode_names[FC_FLASH_SIM_CUT_MODES];
	unsigned long v;
	int rc = 0;

	for (unsigned int m = 0; m < FC_FLASH_SIM_CUT_MODES; m++)
		mode_names[m] = fc_flash_sim_cut_mode_name((enum fc_flash_sim_cut_mode)m);
	for (int i = 1; i < argc && !rc; i += 2) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val)
			return usage("an option lacks its value");
		if (!strcmp(a, "--cases") && parse_ulong(val, &o->cases))
			continue;
		if (!strcmp(a, "--experiments") && parse_ulong(val, &o->experiments))
			continue;
		if (!strcmp(a, "--min-cuts") && parse_ulong(val, &o->min_cuts))
			continue;
		if (!strcmp(a, "--seed") && parse_ulong(val, &v)) {
			o->seed = (uint32_t)v;
			continue;
		}
		if (!strcmp(a, "--depth") && parse_ulong(val, &v) && v >= 1 &&
		    v <= FC_FLASH_SIM_SCHED_DEPTH_MAX) {
			o->depth = (unsigned int)v;
			continue;
		}
		if (!strcmp(a, "--case") && parse_ulong(val, &v)) {
			o->one_case = true;
			o->case_seed = (uint32_t)v;
			continue;
		}
		if (!strcmp(a, "--cuts"))
			rc = parse_cuts(o, val);
		else if (!strcmp(a, "--schedule"))
			rc = parse_named(val, sched_names, 5, &o->schedule, a);
		else if (!strcmp(a, "--engine"))
			rc = parse_named(val, engine_names, ENGINES, &o->engine, a);
		else if (!strcmp(a, "--mode"))
			rc = parse_named(val, mode_names, FC_FLASH_SIM_CUT_MODES, &o->mode, a);
		else
			return usage("unknown option or bad number");
	}
	if (o->schedule == 4)
		o->schedule = -1;
	return rc;
}

static unsigned long total_cuts(void)
{
	unsigned long n = 0;

	for (unsigned int e = 0; e < ENGINES; e++)
		for (unsigned int m = 0; m < FC_FLASH_SIM_CUT_MODES; m++)
			n += tallies[e][m].cuts;
	return n;
}

/* ", N format limits" when there are any: the cases no reader could read right. */
static const char *limits_note(unsigned long limits, char *buf, size_t size)
{
	buf[0] = 0;
	if (limits)
		snprintf(buf, size, ", %lu format limit%s (not passes: listed above)", limits,
			 limits == 1 ? "" : "s");
	return buf;
}

static unsigned long report(unsigned long cases)
{
	unsigned long cuts = 0, rec = 0, failures = 0, limits = 0;
	char note[64];

	for (unsigned int e = 0; e < ENGINES; e++) {
		for (unsigned int m = 0; m < FC_FLASH_SIM_CUT_MODES; m++) {
			const struct tally *t = &tallies[e][m];

			if (!t->runs)
				continue;
			printf("pl_random: %s %s: %lu runs, %lu cut points (%lu in recovering mounts), "
			       "%lu failures%s\n", engines[e]->name,
			       fc_flash_sim_cut_mode_name((enum fc_flash_sim_cut_mode)m), t->runs,
			       t->cuts, t->recovery_cuts, t->failures,
			       limits_note(t->limits, note, sizeof(note)));
			cuts += t->cuts;
			rec += t->recovery_cuts;
			failures += t->failures;
			limits += t->limits;
		}
	}
	printf("pl_random: %lu cases, %lu cut points (%lu in recovering mounts), %lu failures%s\n",
	       cases, cuts, rec, failures, limits_note(limits, note, sizeof(note)));
	return failures;
}

int main(int argc, char **argv)
{
	struct opts o = { .cases = 20, .experiments = 2, .seed = 1, .schedule = -1, .depth = 2,
			  .engine = -1, .mode = -1 };
	unsigned long cases = 0;
	int rc = parse(argc, argv, &o);

	if (rc)
		return rc;
	if (o.one_case) {
		one_case(&o, o.case_seed);
		cases = 1;
	} else {
		for (; cases < o.cases || total_cuts() < o.min_cuts; cases++)
			one_case(&o, o.seed + (uint32_t)cases);
	}
	return report(cases) ? 1 : 0;
}
