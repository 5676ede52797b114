/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_powerloss - cut the power at every program and erase of an NVS
 * workload, in each of the simulator's cut modes, and check what a remount
 * finds: every acknowledged write reads back its latest value, the
 * interrupted operation reads back old or new, no other id appears, and the
 * engine keeps working (more writes with GC, another remount).
 *
 * Workload: 4 sectors of 512 B, write block 4, 24 ids, 400 operations
 * (writes of 1..29 bytes, rewrites, every 13th a delete) wrapping the
 * partition several times. Every cut point is tried; nothing is sampled.
 * Then every program/erase of the recovering mount is cut too. Two setups:
 * write block 4 without data CRC, write block 8 with data CRC.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/nvs.h"

#define SECTOR 512u
#define SECTORS 4u
#define SIZE (SECTOR * SECTORS)
#define IDS 24u
#define OPS 400u
#define MAXLEN 29u
#define EXTRA_OPS 40u /* after recovery: enough to wrap the partition again */

struct op {
	uint16_t id;
	uint8_t len; /* 0 = delete */
	uint8_t val[MAXLEN];
};

/* What the application knows: the acknowledged value of each id. */
struct model {
	int len[IDS + 1]; /* -1 = absent */
	uint8_t val[IDS + 1][MAXLEN];
};

struct rig {
	uint8_t mem[SIZE];
	struct fc_flash_sim_unit units[SECTORS];
	struct fc_flash_sim sim;
	struct fc_cache_slot slots[64];
	uint8_t ate_cache[64];
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	struct fc_nvs fs;
};

static unsigned int failures;

/* The flash and engine setup of the current sweep. */
static struct {
	uint32_t wbs;
	bool data_crc;
} setup;

#define FAIL(...)                                  \
	do {                                       \
		fprintf(stderr, "nvs_powerloss: " __VA_ARGS__); \
		fputc('\n', stderr);               \
		failures++;                        \
	} while (0)

static void make_op(struct op *o, unsigned int k)
{
	o->id = (uint16_t)((k * 7) % IDS + 1);
	o->len = k % 13 == 12 ? 0 : (uint8_t)(1 + k % MAXLEN);
	for (unsigned int i = 0; i < o->len; i++)
		o->val[i] = (uint8_t)(k * 31 + i * 7 + 1);
}

static void model_apply(struct model *m, const struct op *o)
{
	m->len[o->id] = o->len ? o->len : -1;
	memcpy(m->val[o->id], o->val, o->len);
}

static void rig_init(struct rig *r)
{
	struct fc_flash_sim_config cfg = {
		.geo = { .size = SIZE, .erase_size = SECTOR, .write_size = setup.wbs, .erase_value = 0xff },
		.timing = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
	};

	memset(r->mem, 0xff, sizeof(r->mem));
	if (fc_flash_sim_init(&r->sim, &cfg, r->mem, r->units))
		abort();
}

/*
 * The full index also runs with an ATE cache (2 windows of 4 slots) and the
 * read buffer, the small one without either.
 */
static int rig_mount(struct rig *r, enum fc_nvs_lookup lookup, uint32_t slots)
{
	struct fc_nvs_config cfg = {
		.flash = &r->sim.dev, .sector_size = SECTOR, .sector_count = SECTORS,
		.data_crc = setup.data_crc, .lookup = lookup, .index_slots = r->slots,
		.index_slot_count = slots, .ate_cache = slots == 64 ? r->ate_cache : NULL,
		.ate_cache_size = slots == 64 ? sizeof(r->ate_cache) : 0,
		.read_buf = slots == 64 ? r->read_buf : NULL,
		.read_buf_size = slots == 64 ? sizeof(r->read_buf) : 0,
	};

	return fc_nvs_mount(&r->fs, &cfg);
}

static int apply(struct fc_nvs *fs, const struct op *o)
{
	int rc = o->len ? fc_nvs_write(fs, o->id, o->val, o->len) : fc_nvs_delete(fs, o->id);

	return rc < 0 ? rc : 0;
}

/* Does id read back as the model says (or, for the interrupted op, as either)? */
static bool reads_as(struct fc_nvs *fs, uint16_t id, int len, const uint8_t *val)
{
	uint8_t buf[MAXLEN + 8];
	int rc = fc_nvs_read(fs, id, buf, sizeof(buf));

	if (len < 0)
		return rc == FC_ENOENT;
	return rc == len && !memcmp(buf, val, (size_t)len);
}

static void verify(struct fc_nvs *fs, const struct model *m, const struct op *cut_op,
		   const char *what, unsigned int cut, const char *mode)
{
	for (uint16_t id = 1; id <= IDS + 4; id++) {
		int len = id <= IDS ? m->len[id] : -1;
		const uint8_t *val = id <= IDS ? m->val[id] : NULL;

		if (reads_as(fs, id, len, val))
			continue;
		if (cut_op && cut_op->id == id &&
		    reads_as(fs, id, cut_op->len ? cut_op->len : -1, cut_op->val))
			continue;
		FAIL("%s cut %u: %s: id %u reads wrong", mode, cut, what, id);
	}
}

/*
 * Run the workload with the power cut at the cut-th program/erase (0: never);
 * with again > 0, cut the recovering mount too, at its again-th operation.
 * Returns the number of programs/erases the (first) recovering mount did.
 */
static unsigned int run_cut(unsigned int cut, unsigned int again, enum fc_flash_sim_cut_mode mode,
			    const char *mname, unsigned int *ops_total)
{
	unsigned int recovery_ops;
	static struct rig r;
	struct model m;
	struct op o, cut_op = { 0 };
	bool cut_hit = false;
	unsigned int k = OPS; /* OPS: no operation was interrupted */

	for (unsigned int id = 0; id <= IDS; id++)
		m.len[id] = -1;
	rig_init(&r);
	if (cut)
		fc_flash_sim_cut_after(&r.sim, cut, mode, cut * 2654435761u);
	if (rig_mount(&r, FC_NVS_LOOKUP_INDEX, 64)) {
		cut_hit = true;
	} else {
		for (k = 0; k < OPS; k++) {
			make_op(&o, k);
			if (apply(&r.fs, &o)) {
				cut_hit = true;
				cut_op = o;
				break;
			}
			model_apply(&m, &o);
		}
	}
	if (!cut) {
		*ops_total = r.sim.stats.ops;
		printf("nvs_powerloss: the uncut run erases %u times (%u wrap-arounds)\n",
		       r.sim.stats.erases, r.sim.stats.erases / SECTORS);
		if (cut_hit)
			FAIL("the workload fails without a power cut");
		return 0;
	}
	if (!cut_hit) {
		FAIL("%s cut %u: never reached", mname, cut);
		return 0;
	}
	fc_flash_sim_power_on(&r.sim);
	if (again) {
		fc_flash_sim_cut_after(&r.sim, again, mode, again * 40503u + cut);
		if (rig_mount(&r, FC_NVS_LOOKUP_INDEX, 64) != FC_EPOWER)
			FAIL("%s cut %u+%u: the recovery was not cut", mname, cut, again);
		fc_flash_sim_power_on(&r.sim);
	}
	/* alternate the index size so the recovery also runs with an overflowing index */
	recovery_ops = r.sim.stats.ops;
	if (rig_mount(&r, FC_NVS_LOOKUP_INDEX, cut % 2 ? 64 : 8)) {
		FAIL("%s cut %u+%u: remount failed", mname, cut, again);
		return 0;
	}
	recovery_ops = r.sim.stats.ops - recovery_ops;
	verify(&r.fs, &m, k < OPS ? &cut_op : NULL, "after remount", cut, mname);
	/* settle the interrupted op as whatever it reads back */
	if (k < OPS) {
		uint8_t buf[MAXLEN + 8];
		int rc = fc_nvs_read(&r.fs, cut_op.id, buf, sizeof(buf));

		m.len[cut_op.id] = rc >= 0 ? rc : -1;
		if (rc > 0)
			memcpy(m.val[cut_op.id], buf, (size_t)rc);
	}
	for (unsigned int e = 0; e < EXTRA_OPS; e++) {
		make_op(&o, OPS + e * 5);
		if (apply(&r.fs, &o)) {
			FAIL("%s cut %u+%u: write %u after recovery failed", mname, cut, again, e);
			return 0;
		}
		model_apply(&m, &o);
	}
	verify(&r.fs, &m, NULL, "after more writes", cut, mname);
	if (rig_mount(&r, FC_NVS_LOOKUP_ZEPHYR, 16)) {
		FAIL("%s cut %u+%u: second remount failed", mname, cut, again);
		return 0;
	}
	verify(&r.fs, &m, NULL, "after second remount", cut, mname);
	return recovery_ops;
}

int main(void)
{
	static const struct {
		uint32_t wbs;
		bool data_crc;
	} setups[] = { { 4, false }, { 8, true } };
	unsigned int tried = 0, tried_again = 0;

	for (size_t si = 0; si < sizeof(setups) / sizeof(setups[0]); si++) {
		unsigned int total = 0;

		setup.wbs = setups[si].wbs;
		setup.data_crc = setups[si].data_crc;
		printf("nvs_powerloss: write block %u, data CRC %s\n", setup.wbs,
		       setup.data_crc ? "on" : "off");
		run_cut(0, 0, FC_FLASH_SIM_CUT_ATOMIC, "none", &total);
		printf("nvs_powerloss: %u ops on %u x %u B sectors = %u program/erase cut points per mode\n",
		       OPS, SECTORS, SECTOR, total);
		for (unsigned int mi = 0; mi < FC_FLASH_SIM_CUT_MODES; mi++) {
			enum fc_flash_sim_cut_mode mode = (enum fc_flash_sim_cut_mode)mi;
			const char *name = fc_flash_sim_cut_mode_name(mode);
			unsigned int before = failures, again = 0;

			for (unsigned int cut = 1; cut <= total; cut++) {
				unsigned int rec = run_cut(cut, 0, mode, name, NULL);

				/* and cut the recovery itself at each of its programs/erases */
				for (unsigned int j = 1; j <= rec; j++)
					run_cut(cut, j, mode, name, NULL);
				again += rec;
			}
			tried += total;
			tried_again += again;
			printf("nvs_powerloss: %s: %u cut points tried, then %u cuts of the recovery, "
			       "%u failures\n", name, total, again, failures - before);
		}
	}
	printf("nvs_powerloss: %u cut points and %u recovery cut points in all, %u failures\n", tried,
	       tried_again, failures);
	return failures ? 1 : 0;
}
