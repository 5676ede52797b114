/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ZMS power-loss recovery, cut by cut: a workload on a strict NOR
 * simulator (it refuses any program over bytes that are not erased) is cut
 * at one chosen program or erase, found by a dry run of the same workload,
 * in a chosen cut mode. After the power comes back the mount must succeed,
 * every acknowledged value must read back (the cut one: old or new), and so
 * must more writes that drive the log through every sector again, with a
 * remount after each round, in both lookup modes. Also: value bytes that
 * pass for an ATE do not move the write position.
 */
#include "check_util.h"
#include "check_zms_util.h"

#include <string.h>

#include "fdtcache/crc.h"

#define IDS 12u
#define VMAX 40u  /* longest value */
#define VMOD 24u  /* workload values: 1..VMOD bytes */

/* Which flash operation a run is cut at. */
struct target {
	bool erase;      /* an erase (else a program) */
	uint32_t off;    /* device offset it starts at */
	unsigned int nth; /* 1: the first such op after the first mount, 2: the second... */
};

struct rig {
	uint8_t mem[8 * 512];
	struct fc_flash_sim_unit units[8];
	struct fc_flash_sim sim;
	struct fc_flash tap;        /* the simulator, with ops counted */
	uint32_t ops, seen, hit;    /* ops since mount; target ops met; op number of the target */
	struct target want;
	uint8_t before[8 * 512];    /* the flash just before the target op */
	struct fc_zms fs;
	struct fc_zms_config cfg;
	struct fc_zms_slot slots[64];
	uint8_t read_buf[FC_ZMS_READ_BUF_SIZE];
	uint8_t model[IDS][VMAX];   /* acknowledged values (len 0: absent) */
	uint32_t model_len[IDS];
	uint32_t cut_id, cut_len;   /* the write the cut interrupted */
	uint8_t cut_val[VMAX];
};

static void note_op(struct rig *r, bool erase, uint32_t off)
{
	r->ops++;
	if (erase == r->want.erase && off == r->want.off && ++r->seen == r->want.nth) {
		r->hit = r->ops;
		memcpy(r->before, r->mem, sizeof(r->mem));
	}
}

static int tap_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	return fc_flash_read(&((struct rig *)ctx)->sim.dev, off, buf, len);
}

static int tap_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct rig *r = ctx;

	note_op(r, false, off);
	return fc_flash_prog(&r->sim.dev, off, buf, len);
}

static int tap_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct rig *r = ctx;

	note_op(r, true, off);
	return fc_flash_erase(&r->sim.dev, off, len);
}

static void rig_init(struct rig *r, uint32_t sectors, uint32_t wbs, bool zephyr)
{
	struct fc_flash_sim_config scfg = {
		.geo = { .size = sectors * 512, .erase_size = 512, .write_size = wbs,
			 .erase_value = 0xff },
		.timing = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
	};

	memset(r->mem, 0xff, sizeof(r->mem));
	ck_assert_int_eq(fc_flash_sim_init(&r->sim, &scfg, r->mem, r->units), 0);
	r->tap = (struct fc_flash){ .geo = r->sim.dev.geo, .read = tap_read, .prog = tap_prog,
				    .erase = tap_erase, .ctx = r };
	r->cfg = (struct fc_zms_config){
		.flash = &r->tap, .sector_size = 512, .sector_count = sectors, .data_crc = true,
		.lookup = zephyr ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX,
		.index_slots = r->slots, .index_slot_count = zephyr ? 8 : 64,
		.read_buf = r->read_buf, .read_buf_size = sizeof(r->read_buf),
	};
	memset(r->model_len, 0, sizeof(r->model_len));
	r->cut_len = UINT32_MAX;
	ck_assert_int_eq(fc_zms_mount(&r->fs, &r->cfg), 0);
	r->ops = r->seen = r->hit = 0;
}

static uint32_t value_of(uint32_t id, uint32_t round, uint8_t *v)
{
	uint32_t len = 1 + (id * 7 + round * 5) % VMOD;

	for (uint32_t i = 0; i < len; i++)
		v[i] = (uint8_t)(id * 31 + round * 17 + i);
	return len;
}

/* Write id's value of this round (len 0: delete). Returns 0, or the engine's error. */
static int put(struct rig *r, uint32_t id, uint32_t round, bool del)
{
	uint8_t v[VMAX];
	uint32_t len = del ? 0 : value_of(id, round, v);
	int rc = del ? fc_zms_delete(&r->fs, id) : fc_zms_write(&r->fs, id, v, len);

	if (rc < 0) {
		r->cut_id = id;
		r->cut_len = len;
		memcpy(r->cut_val, v, len);
		return rc;
	}
	r->model_len[id] = len;
	memcpy(r->model[id], v, len);
	return 0;
}

/* rounds of writes over every id; stops at the first error (the cut). */
static int workload(struct rig *r, uint32_t from, uint32_t rounds)
{
	for (uint32_t round = from; round < from + rounds; round++)
		for (uint32_t id = 0; id < IDS; id++) {
			int rc = put(r, id, round, false);

			if (rc)
				return rc;
		}
	return 0;
}

static void check_model(struct rig *r, const char *when)
{
	for (uint32_t id = 0; id < IDS; id++) {
		uint8_t got[VMAX];
		int rc = fc_zms_read(&r->fs, id, got, sizeof(got));
		uint32_t want = r->model_len[id];

		if (id == r->cut_id && r->cut_len != UINT32_MAX &&
		    (rc == (int)r->cut_len || (!r->cut_len && rc == FC_ENOENT)) &&
		    !memcmp(got, r->cut_val, r->cut_len)) {
			r->model_len[id] = r->cut_len;
			memcpy(r->model[id], r->cut_val, r->cut_len);
			continue;
		}
		if (!want)
			ck_assert_msg(rc == FC_ENOENT, "%s: id %u reads %d, deleted", when, id, rc);
		else
			ck_assert_msg(rc == (int)want && !memcmp(got, r->model[id], want),
				      "%s: id %u reads %d, acknowledged %u", when, id, rc, want);
	}
	r->cut_len = UINT32_MAX;
}

typedef int (*scenario_fn)(struct rig *r);

/* The op number of target t in an uncut run of scen. */
static uint32_t target_op(struct rig *r, uint32_t sectors, uint32_t wbs, bool zephyr,
			  const struct target *t, scenario_fn scen)
{
	rig_init(r, sectors, wbs, zephyr);
	r->want = *t;
	ck_assert_int_eq(scen(r), 0);
	ck_assert_msg(r->hit, "the target op never happened");
	return r->hit;
}

/*
 * Cut scen at op at in mode (seeded), then, when second > 0, the recovering
 * mount at its op second; recover and check through more rounds with
 * remounts. Returns false when the mount ended before op second.
 */
static bool run_cut(struct rig *r, uint32_t sectors, uint32_t wbs, bool zephyr, uint32_t at,
		    uint32_t second, enum fc_flash_sim_cut_mode mode, uint32_t seed, scenario_fn scen)
{
	bool cut2;
	int rc;

	rig_init(r, sectors, wbs, zephyr);
	ck_assert_int_eq(fc_flash_sim_cut_after(&r->sim, at, mode, seed), 0);
	ck_assert_int_eq(scen(r), FC_EPOWER);
	fc_flash_sim_power_on(&r->sim);
	if (second)
		ck_assert_int_eq(fc_flash_sim_cut_after(&r->sim, second, mode, seed + 1), 0);
	rc = fc_zms_mount(&r->fs, &r->cfg);
	cut2 = second && rc == FC_EPOWER;
	if (cut2) {
		fc_flash_sim_power_on(&r->sim);
		rc = fc_zms_mount(&r->fs, &r->cfg);
	}
	ck_assert_int_eq(fc_flash_sim_cut_after(&r->sim, 0, mode, 0), 0);
	ck_assert_int_eq(rc, 0);
	check_model(r, "after the cut");
	for (uint32_t round = 0; round < 3 * sectors; round++) {
		ck_assert_int_eq(workload(r, 100 + round, 1), 0);
		ck_assert_int_eq(fc_zms_mount(&r->fs, &r->cfg), 0);
		check_model(r, "after more writes and a remount");
	}
	return cut2 || !second;
}

/* Cut scen at target t in mode (seeded); recover and check, in both lookup modes. */
static void cut_and_recover(uint32_t sectors, uint32_t wbs, const struct target *t,
			    enum fc_flash_sim_cut_mode mode, uint32_t seed, scenario_fn scen)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++)
		run_cut(&r, sectors, wbs, zephyr, target_op(&r, sectors, wbs, zephyr, t, scen), 0,
			mode, seed, scen);
}

/* As cut_and_recover, then again with a second cut at each op of the recovering mount. */
static void cut_twice_and_recover(uint32_t sectors, uint32_t wbs, const struct target *t,
				  enum fc_flash_sim_cut_mode mode, uint32_t seed, scenario_fn scen)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint32_t at = target_op(&r, sectors, wbs, zephyr, t, scen), second = 0;

		while (run_cut(&r, sectors, wbs, zephyr, at, second, mode, seed, scen))
			ck_assert_uint_lt(++second, 400);
	}
}

/* ---- the write sector's empty ATE ---- */

static int until_first_gc(struct rig *r)
{
	return workload(r, 0, 4);
}

/*
 * The first GC erases the new write sector (it never had an empty ATE) and
 * programs its empty ATE. Cut before that ATE is whole, the sector follows
 * a closed one but has no cycle: the mount gives it its empty ATE before
 * any entry goes there (an entry of no cycle is lost at the next mount).
 */
START_TEST(write_sector_without_empty_ate)
{
	static const struct {
		struct target t;
		enum fc_flash_sim_cut_mode mode;
	} cuts[] = {
		{ { true, 512, 1 }, FC_FLASH_SIM_CUT_ATOMIC },
		{ { false, 1024 - 16, 1 }, FC_FLASH_SIM_CUT_TORN },
		{ { false, 1024 - 16, 1 }, FC_FLASH_SIM_CUT_BITS },
	};

	for (unsigned int k = 0; k < FC_ARRAY_SIZE(cuts); k++)
		cut_and_recover(4, 4, &cuts[k].t, cuts[k].mode, 7, until_first_gc);
}
END_TEST

/* ---- a torn delete in the last slot ---- */

static bool all_erased(const uint8_t *p, uint32_t n)
{
	while (n--)
		if (*p++ != 0xff)
			return false;
	return true;
}

/* Long values until the sector is full, then deletes: the first takes its last slot. */
static int fill_then_delete(struct rig *r)
{
	uint8_t v[VMAX];
	int rc;

	memset(v, 0x3c, sizeof(v));
	for (uint32_t id = 0; id < 7; id++) {
		rc = fc_zms_write(&r->fs, id, v, VMAX);
		if (rc < 0)
			return rc;
		r->model_len[id] = VMAX;
		memcpy(r->model[id], v, VMAX);
	}
	for (uint32_t id = 0; id < 7; id++) {
		rc = put(r, id, 0, true);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * 7 values of 40 bytes (48 with the write block of 16) and their ATEs meet
 * at 0x150: that slot, at data_wra, is the sector's last, kept for a
 * delete. A delete cut there leaves a slot that is neither erased nor a
 * valid ATE (here with a length set): the mount takes the sector as full,
 * not as corrupt.
 */
START_TEST(torn_delete_in_last_slot)
{
	static const struct target t = { false, 0x150, 1 };
	static struct rig r;
	uint32_t at;

	rig_init(&r, 3, 16, false);
	r.want = t;
	ck_assert_int_eq(fill_then_delete(&r), 0);
	at = r.hit;
	ck_assert_uint_ne(at, 0);
	for (uint32_t seed = 1; seed < 4; seed++) {
		rig_init(&r, 3, 16, false);
		ck_assert_int_eq(fc_flash_sim_cut_after(&r.sim, at, FC_FLASH_SIM_CUT_BITS, seed), 0);
		ck_assert_int_eq(fill_then_delete(&r), FC_EPOWER);
		ck_assert_uint_eq(r.fs.ate_wra, 0x150);
		ck_assert_uint_eq(r.fs.data_wra, 0x150);
		ck_assert(r.mem[0x152] || r.mem[0x153]);
		ck_assert(!all_erased(r.mem + 0x150, 16));
		cut_and_recover(3, 16, &t, FC_FLASH_SIM_CUT_BITS, seed, fill_then_delete);
	}
}
END_TEST

/* ---- the erase of the collected sector ---- */

static int gc_rounds(struct rig *r)
{
	return workload(r, 0, 8);
}

static bool intact(const struct rig *r, uint32_t off, uint32_t n)
{
	return !memcmp(r->mem + off, r->before + off, n);
}

typedef bool (*cut_pred)(const struct rig *r);

/* A seed with which the OOO cut at t leaves what pred wants. */
static uint32_t ooo_seed(uint32_t sectors, const struct target *t, cut_pred pred)
{
	static struct rig r;
	uint32_t at, seed;

	rig_init(&r, sectors, 4, false);
	r.want = *t;
	ck_assert_int_eq(gc_rounds(&r), 0);
	at = r.hit;
	ck_assert_uint_ne(at, 0);
	for (seed = 1; seed < 256; seed++) {
		rig_init(&r, sectors, 4, false);
		r.want = *t;
		ck_assert_int_eq(fc_flash_sim_cut_after(&r.sim, at, FC_FLASH_SIM_CUT_OOO, seed), 0);
		ck_assert_int_eq(gc_rounds(&r), FC_EPOWER);
		if (pred(&r))
			return seed;
	}
	ck_abort_msg("no seed leaves the state the test is about");
	return 0;
}

/* Sector 0 keeps its empty ATE and more, but not its close ATE. */
static bool open_and_dirty(const struct rig *r)
{
	return intact(r, 512 - 16, 16) && !intact(r, 512 - 32, 16) &&
	       !all_erased(r->mem, 512 - 32);
}

/*
 * Three sectors: the second GC copies sector 0 into sector 2, writes
 * gc_done and erases sector 0. Cut in random blocks, sector 0 can keep its
 * empty ATE and other bytes but lose its close ATE: neither closed nor
 * clean. The mount erases it again; else the GC that next writes there
 * programs over those bytes (the strict simulator refuses).
 */
START_TEST(torn_erase_of_collected_sector)
{
	static const struct target t = { true, 0, 1 };

	cut_and_recover(3, 4, &t, FC_FLASH_SIM_CUT_OOO, ooo_seed(3, &t, open_and_dirty), gc_rounds);
}
END_TEST

/* Sector 1 keeps its empty ATE and first entry slot, not its close ATE. */
static bool looks_like_write_sector(const struct rig *r)
{
	return intact(r, 1024 - 16, 16) && intact(r, 1024 - 48, 16) && !intact(r, 1024 - 32, 16);
}

/*
 * Two sectors, none closed after a GC: Zephyr takes sector 1 as the write
 * sector when its first entry slot holds a valid ATE. A cut erase of sector
 * 1 after the GC into sector 0 can keep that slot and the empty ATE while
 * the close ATE is gone; sector 0 ending in its gc_done tells the two
 * apart (else the mount would take sector 1 and erase sector 0).
 */
START_TEST(two_sectors_torn_erase_keeps_first_slot)
{
	static const struct target t = { true, 512, 2 };

	cut_and_recover(2, 4, &t, FC_FLASH_SIM_CUT_OOO, ooo_seed(2, &t, looks_like_write_sector),
			gc_rounds);
}
END_TEST

/* ---- a close ATE torn inside its write block ---- */

/*
 * Write block 16: the close ATE of sector 0 (at 0x1e0) is one block. Cut
 * with a random part of its bits programmed, it can only be made valid by
 * programming that block again, which the simulator refuses (as strict
 * NOR drivers do). The mount leaves it torn, counts the sector as closed
 * and moves on; later mounts know it by the next sector's gc_done ATE
 * (with two sectors, the GC that follows collects the torn one at once).
 * Two, three and four sectors, every op of the recovering mount cut too.
 */
/* The walk's view of each sector. */
static int note_sector(void *ctx, const struct fc_zms_sector_info *si)
{
	((struct fc_zms_sector_info *)ctx)[si->sector] = *si;
	return 0;
}

/* The read-only walk labels the torn sector as the mount counts it: closed, in the log. */
static void walk_sees_closed(struct rig *r, uint32_t s)
{
	struct fc_zms_sector_info si[8];
	struct fc_zms_walk_ops ops = { .sector = note_sector };
	struct fc_zms_config cfg = r->cfg;

	memset(si, 0, sizeof(si));
	ck_assert_int_eq(fc_zms_walk(&cfg, &ops, si), 0);
	ck_assert_int_eq(si[s].state, FC_ZMS_SECTOR_CLOSED);
	ck_assert(si[s].in_log);
}

START_TEST(torn_close_never_programmed_again)
{
	static const struct target t = { false, 512 - 32, 1 };
	static struct rig r;

	/* two sectors hold the ids only with write block 8 (the ATE is still 16 bytes) */
	for (uint32_t sectors = 2; sectors <= 4; sectors++) {
		uint32_t wbs = sectors == 2 ? 8 : 16;
		uint32_t at = target_op(&r, sectors, wbs, false, &t, until_first_gc);
		uint8_t torn[16];

		/* the cut leaves the block neither erased nor the close ATE */
		rig_init(&r, sectors, wbs, false);
		ck_assert_int_eq(fc_flash_sim_cut_after(&r.sim, at, FC_FLASH_SIM_CUT_BITS, 9), 0);
		ck_assert_int_eq(until_first_gc(&r), FC_EPOWER);
		memcpy(torn, r.mem + 512 - 32, 16);
		ck_assert(!all_erased(torn, 16));
		fc_flash_sim_power_on(&r.sim);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		/* left as cut; with two sectors the GC that follows collects it */
		if (sectors == 2)
			ck_assert(all_erased(r.mem + 512 - 32, 16));
		else
			ck_assert(!memcmp(r.mem + 512 - 32, torn, 16));
		if (sectors > 2)
			walk_sees_closed(&r, 0);
		ck_assert_uint_eq(fc_zms_addr_sector(&r.fs, r.fs.ate_wra), 1);
		check_model(&r, "after the torn close");
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_uint_eq(fc_zms_addr_sector(&r.fs, r.fs.ate_wra), 1);
		check_model(&r, "after a remount");
		cut_twice_and_recover(sectors, wbs, &t, FC_FLASH_SIM_CUT_BITS, 9, until_first_gc);
	}
}
END_TEST

/* ---- value bytes that pass for an ATE ---- */

/*
 * A value whose bytes at a slot-aligned offset form a crc-valid ATE of the
 * sector's cycle (1 in 65536 for random bytes), below an inline entry:
 * Zephyr's scan for the last ATE goes on through the values after an
 * inline ATE and takes it (here for an ATE whose value would run past the
 * sector end). The mount must find the real write position.
 */
START_TEST(value_bytes_pass_for_ate)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint8_t v[48], back[48], in[4] = { 1, 2, 3, 4 }, *fake = v + 16;
		uint32_t ate_wra, data_wra;

		memset(v, 0x11, sizeof(v));
		memset(fake, 0, 16);
		fake[1] = 1;                      /* the sector's cycle */
		fc_put_le16(fake + 2, 0x100);     /* a value outside the ATE... */
		fc_put_le32(fake + 4, 0x77);
		fc_put_le32(fake + 8, 0x1c0);     /* ...reaching past the sector end */
		fake[0] = fc_crc8_ccitt(0xff, fake + 1, 15);
		rig_init(&r, 3, 4, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 1, v, sizeof(v)), (int)sizeof(v));
		ck_assert_int_eq(fc_zms_write(&r.fs, 2, in, sizeof(in)), (int)sizeof(in));
		ck_assert(!memcmp(r.mem + 16, fake, 16));
		ate_wra = r.fs.ate_wra;
		data_wra = r.fs.data_wra;
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_uint_eq(r.fs.ate_wra, ate_wra);
		ck_assert_uint_eq(r.fs.data_wra, data_wra);
		ck_assert_int_eq(fc_zms_write(&r.fs, 3, v, 30), 30);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 1, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
		ck_assert_int_eq(fc_zms_read(&r.fs, 2, back, sizeof(back)), (int)sizeof(in));
		ck_assert(!memcmp(back, in, sizeof(in)));
		ck_assert_int_eq(fc_zms_read(&r.fs, 3, back, sizeof(back)), 30);
		ck_assert(!memcmp(back, v, 30));
		ck_assert_int_eq(fc_zms_read(&r.fs, 0x77, back, sizeof(back)), FC_ENOENT);
	}
}
END_TEST

/*
 * A GC whose only copy with a value outside its ATE lands in the new
 * sector's top slot, followed by inline entries only, down to the slot at
 * the data's end, where a delete is cut (case 1008 of the randomised
 * sweep). Zephyr's scan for the last ATE starts one slot below the top one
 * and misses the copied value's end: with the data pointer at the sector
 * start, the search for a free slot runs down through the value and the
 * mount fails as corrupt. The mount must find the sector full, and keep
 * every value through the GCs that follow.
 */
START_TEST(gc_copy_in_top_slot)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint8_t v[48], back[48], small[4] = { 9, 8, 7, 6 }, torn[16];
		uint32_t id = 2;

		for (uint32_t i = 0; i < sizeof(v); i++)
			v[i] = (uint8_t)(0xa0 + i);
		rig_init(&r, 3, 4, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 1, v, sizeof(v)), (int)sizeof(v));
		ck_assert_int_eq(fc_zms_sector_use_next(&r.fs), 0);
		ck_assert_int_eq(fc_zms_sector_use_next(&r.fs), 0);
		/* sector 0 was collected into sector 2: the copy's ATE in the top slot */
		ck_assert_uint_eq(fc_zms_addr_sector(&r.fs, r.fs.ate_wra), 2);
		ck_assert_uint_eq(fc_get_le16(r.mem + 3 * 512 - 3 * 16 + 2), sizeof(v));
		while (fc_zms_addr_offset(&r.fs, r.fs.ate_wra) > sizeof(v))
			ck_assert_int_eq(fc_zms_write(&r.fs, id++, small, sizeof(small)), 4);
		/* a delete cut in the data's end slot: its first half landed */
		memset(torn, 0xff, sizeof(torn));
		memset(torn, 0, 8);
		torn[1] = r.fs.sector_cycle;
		fc_put_le32(torn + 4, 2);
		ck_assert_int_eq(fc_flash_prog(&r.sim.dev, r.fs.ate_wra, torn, sizeof(torn)), 0);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_uint_eq(fc_zms_addr_offset(&r.fs, r.fs.data_wra), sizeof(v));
		ck_assert_int_eq(fc_zms_write(&r.fs, id, v + 1, 30), 30);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 1, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
		ck_assert_int_eq(fc_zms_read(&r.fs, id, back, sizeof(back)), 30);
		ck_assert(!memcmp(back, v + 1, 30));
		for (uint32_t k = 2; k < id; k++) {
			ck_assert_int_eq(fc_zms_read(&r.fs, k, back, sizeof(back)), 4);
			ck_assert(!memcmp(back, small, 4));
		}
	}
}
END_TEST

/*
 * A cut ATE of a value outside it, with its offset's write blocks left
 * erased (0xffffffff) and its crc8 matching by chance (case 1041 of the
 * randomised sweep): the mount steps over it, but the index took it for the
 * id's newest entry, and reads and settings loads failed as corrupt
 * (Zephyr reads past the partition). It must read as not written: the id
 * keeps its value, in both lookup modes, and the walk calls the slot bad.
 */
static int count_bad(void *ctx, const struct fc_zms_ate_info *ai)
{
	*(uint32_t *)ctx += ai->status == FC_ZMS_ATE_BAD;
	return 0;
}

START_TEST(torn_offset_out_of_range)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		struct fc_zms_walk_ops ops = { .ate = count_bad };
		struct fc_zms_config wcfg;
		uint8_t v[20], back[20], b[16];
		uint32_t bad = 0;

		memset(v, 0x3c, sizeof(v));
		rig_init(&r, 3, 4, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 5, v, sizeof(v)), (int)sizeof(v));
		memset(b, 0xff, sizeof(b));
		b[1] = r.fs.sector_cycle;
		fc_put_le16(b + 2, 19);
		fc_put_le32(b + 4, 5);
		b[0] = fc_crc8_ccitt(0xff, b + 1, 15);
		ck_assert_int_eq(fc_flash_prog(&r.sim.dev, r.fs.ate_wra, b, sizeof(b)), 0);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 5, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
		ck_assert_int_eq(fc_zms_write(&r.fs, 7, v, 12), 12);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 5, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
		wcfg = r.cfg;
		wcfg.lookup = FC_ZMS_LOOKUP_INDEX;
		wcfg.index_slot_count = 64;
		ck_assert_int_eq(fc_zms_walk(&wcfg, &ops, &bad), 0);
		ck_assert_uint_eq(bad, 1);
	}
}
END_TEST

/*
 * An inline write cut in metastable mode: its crc8 block lands, the block
 * holding its value is left with one cell half programmed, which reads
 * back at random (the value differs from erased bytes in one bit), so the
 * ATE passes its crc8 on about half the reads. Whatever the recovering
 * mount makes of it (the old value or the new one) must hold: through
 * reads, more writes and remounts in both lookup modes, for many seeds
 * (cases 1106, 1123 and 1163 of the randomised sweep; Zephyr reads such an
 * ATE again at every lookup).
 */
static void expect_value(struct rig *r, uint32_t id, const uint8_t *want, int len)
{
	uint8_t got[8];

	ck_assert_int_eq(fc_zms_read(&r->fs, id, got, sizeof(got)), len);
	ck_assert(!memcmp(got, want, (size_t)len));
}

START_TEST(metastable_ate_holds)
{
	static const uint8_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint8_t b[8] = { 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static struct rig r;

	for (uint32_t seed = 1; seed <= 48; seed++) {
		bool zephyr = seed & 1;
		const uint8_t *held;
		uint8_t got[8];

		rig_init(&r, 3, 8, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 1, a, 8), 8);
		ck_assert_int_eq(fc_flash_sim_cut_after(&r.sim, 1, FC_FLASH_SIM_CUT_METASTABLE, seed), 0);
		ck_assert_int_eq(fc_zms_write(&r.fs, 1, b, 8), FC_EPOWER);
		fc_flash_sim_power_on(&r.sim);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 1, got, 8), 8);
		held = memcmp(got, b, 8) ? a : b;
		for (uint32_t k = 0; k < 24; k++) {
			expect_value(&r, 1, held, 8);
			ck_assert_int_eq(fc_zms_write(&r.fs, 2 + k % 5, a, 1 + k % 7), (int)(1 + k % 7));
			r.cfg.lookup = k & 1 ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX;
			r.cfg.index_slot_count = k & 1 ? 8 : 64;
			ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		}
		expect_value(&r, 1, held, 8);
	}
}
END_TEST

/*
 * The sector's last ATE is a delete in the slot at the end of the values
 * (the slot Zephyr keeps for deletes), and the close ATE after it is cut
 * (case 7106 of the randomised sweep, mostbits). The scan that stands in
 * for the torn close ATE stopped above that slot: the delete was dropped
 * and the deleted value came back.
 */
START_TEST(torn_close_after_delete_in_last_slot)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint8_t v[16], torn[16];
		uint32_t ws;

		memset(v, 0x5a, sizeof(v));
		rig_init(&r, 4, 4, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 1, v, 16), 16);
		ws = fc_zms_addr_sector(&r.fs, r.fs.ate_wra);
		while (fc_zms_addr_offset(&r.fs, r.fs.ate_wra) >
		       fc_zms_addr_offset(&r.fs, r.fs.data_wra) + 32) {
			v[0]++;
			ck_assert_int_eq(fc_zms_write(&r.fs, 2, v, 16), 16);
		}
		while (r.fs.ate_wra > r.fs.data_wra &&
		       fc_zms_addr_sector(&r.fs, r.fs.ate_wra) == ws) {
			v[0]++;
			ck_assert_int_eq(fc_zms_write(&r.fs, 3, v, 8), 8);
		}
		ck_assert_uint_eq(r.fs.ate_wra, r.fs.data_wra);
		ck_assert_int_eq(fc_zms_delete(&r.fs, 1), 0);
		ck_assert_uint_eq(fc_zms_addr_sector(&r.fs, r.fs.ate_wra), ws);
		/* the close ATE, cut with some of its bits programmed */
		memset(torn, 0xff, sizeof(torn));
		torn[0] = 0x12;
		torn[1] = 0x01;
		ck_assert_int_eq(fc_flash_prog(&r.sim.dev, ws * 512 + 512 - 32, torn, 16), 0);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 1, v, sizeof(v)), FC_ENOENT);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 1, v, sizeof(v)), FC_ENOENT);
		ck_assert_int_eq(fc_zms_read(&r.fs, 2, v, sizeof(v)), 16);
	}
}
END_TEST

/*
 * The newest ATE, of a value outside it with its data CRC, cut with its
 * CRC field left erased and its crc8 matching by chance (case 7056 of the
 * randomised sweep): every read of the id, and settings loads, failed on
 * the data CRC. The mount must take it for the cut write it is.
 */
START_TEST(torn_ate_data_crc_erased)
{
	static struct rig r;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint8_t v[20], w[20], back[20], b[16];
		uint32_t at;

		memset(v, 0x21, sizeof(v));
		memset(w, 0x43, sizeof(w));
		rig_init(&r, 3, 4, zephyr);
		ck_assert_int_eq(fc_zms_write(&r.fs, 4, v, sizeof(v)), (int)sizeof(v));
		/* the new value's data lands, its ATE keeps bytes 0..11 only */
		at = r.fs.data_wra;
		ck_assert_int_eq(fc_flash_prog(&r.sim.dev, at, w, sizeof(w)), 0);
		memset(b, 0xff, sizeof(b));
		b[1] = r.fs.sector_cycle;
		fc_put_le16(b + 2, sizeof(w));
		fc_put_le32(b + 4, 4);
		fc_put_le32(b + 8, fc_zms_addr_offset(&r.fs, at));
		b[0] = fc_crc8_ccitt(0xff, b + 1, 15);
		ck_assert_int_eq(fc_flash_prog(&r.sim.dev, r.fs.ate_wra, b, sizeof(b)), 0);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 4, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
		ck_assert_int_eq(fc_zms_write(&r.fs, 5, w, 9), 9);
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		ck_assert_int_eq(fc_zms_read(&r.fs, 4, back, sizeof(back)), (int)sizeof(v));
		ck_assert(!memcmp(back, v, sizeof(v)));
	}
}
END_TEST

/* ---- the cycle counter through its wrap (Zephyr #84874) ---- */

/* A device without erase (RRAM): programs overwrite; a cut program keeps its first half. */
struct rram {
	struct fc_flash dev;
	uint8_t mem[3 * 512];
	uint32_t ops, cut_at; /* programs since armed; the one that is cut (0: none) */
	uint32_t close_off;   /* note the op number of the first program there... */
	uint32_t close_op;    /* ...here */
	bool off;
};

static int rram_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	memcpy(buf, ((struct rram *)ctx)->mem + off, len);
	return 0;
}

static int rram_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct rram *d = ctx;

	if (d->off)
		return FC_EPOWER;
	if (++d->ops == d->cut_at) {
		memcpy(d->mem + off, buf, len / 2);
		d->off = true;
		return FC_EPOWER;
	}
	if (off == d->close_off && !d->close_op)
		d->close_op = d->ops;
	memcpy(d->mem + off, buf, len);
	return 0;
}

static int rram_erase(void *ctx, uint32_t off, uint32_t len)
{
	(void)ctx;
	(void)off;
	(void)len;
	ck_abort_msg("a device without erase was erased");
	return FC_EIO;
}

static void rram_rig(struct rig *r, struct rram *d, bool zephyr)
{
	d->dev = (struct fc_flash){ .geo = { .size = sizeof(d->mem), .erase_size = 512,
					      .write_size = 4, .erase_value = 0xff },
				    .read = rram_read, .prog = rram_prog, .erase = rram_erase,
				    .ctx = d };
	memset(d->mem, 0xff, sizeof(d->mem));
	d->ops = d->cut_at = d->close_op = 0;
	d->close_off = UINT32_MAX;
	d->off = false;
	r->cfg = (struct fc_zms_config){
		.flash = &d->dev, .sector_size = 512, .sector_count = 3, .no_erase = true,
		.data_crc = true, .lookup = zephyr ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX,
		.index_slots = r->slots, .index_slot_count = zephyr ? 8 : 64,
		.read_buf = r->read_buf, .read_buf_size = sizeof(r->read_buf),
	};
	memset(r->model_len, 0, sizeof(r->model_len));
	r->cut_len = UINT32_MAX;
	ck_assert_int_eq(fc_zms_mount(&r->fs, &r->cfg), 0);
}

/*
 * Zephyr #84874: on a device without erase, every GC a cut interrupts is
 * redone by the next mount, which first gives the write sector a new
 * empty ATE, one cycle on. After 256 such cuts the cycle is back where it
 * was; when it equals the cycle of the close ATE the sector kept from its
 * last use, the write sector looks closed. Here 300 mounts are each cut in
 * the GC they redo: the cycle goes round, steps over the close ATE's, and
 * the final mount finds every value.
 */
START_TEST(cycle_wraps_in_cut_gcs)
{
	static struct rig r;
	static struct rram d;

	for (int zephyr = 0; zephyr < 2; zephyr++) {
		uint32_t ws, empty_at, close_op, skips = 0, wraps = 0;
		uint8_t close_cycle, cycle;

		rram_rig(&r, &d, zephyr);
		ck_assert_int_eq(workload(&r, 0, 8), 0);
		ws = fc_zms_addr_sector(&r.fs, r.fs.ate_wra);
		/* cut the GC after closing ws, at its first copy */
		d.close_off = ws * 512 + 512 - 32;
		d.ops = 0;
		d.cut_at = UINT32_MAX;
		ck_assert_int_eq(fc_zms_sector_use_next(&r.fs), 0);
		close_op = d.close_op;
		ck_assert_uint_ne(close_op, 0);
		rram_rig(&r, &d, zephyr);
		ck_assert_int_eq(workload(&r, 0, 8), 0);
		d.ops = 0;
		d.cut_at = close_op + 1;
		ck_assert_int_eq(fc_zms_sector_use_next(&r.fs), FC_EPOWER);
		ws = (ws + 1) % 3;
		empty_at = ws * 512 + 512 - 16;
		close_cycle = d.mem[ws * 512 + 512 - 32 + 1];
		cycle = d.mem[empty_at + 1];
		for (int k = 0; k < 300; k++) {
			uint8_t before = cycle;

			d.off = false;
			d.ops = 0;
			d.cut_at = 2; /* the new empty ATE is written, the first copy is cut */
			ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), FC_EPOWER);
			cycle = d.mem[empty_at + 1];
			ck_assert_uint_ne(cycle, close_cycle);
			skips += cycle == (uint8_t)(before + 2);
			wraps += cycle < before;
			ck_assert(cycle == (uint8_t)(before + 1) || cycle == (uint8_t)(before + 2));
		}
		ck_assert_uint_ge(wraps, 1);
		ck_assert_uint_ge(skips, 1);
		d.off = false;
		d.cut_at = 0;
		ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
		check_model(&r, "after 300 cut GCs");
		for (uint32_t round = 0; round < 6; round++) {
			ck_assert_int_eq(workload(&r, 200 + round, 1), 0);
			ck_assert_int_eq(fc_zms_mount(&r.fs, &r.cfg), 0);
			check_model(&r, "after more writes and a remount");
		}
	}
}
END_TEST

Suite *zms_recovery_suite(void);

Suite *zms_recovery_suite(void)
{
	Suite *s = suite_create("zms_recovery");
	TCase *tc = tcase_create("cuts");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, write_sector_without_empty_ate);
	tcase_add_test(tc, torn_delete_in_last_slot);
	tcase_add_test(tc, torn_erase_of_collected_sector);
	tcase_add_test(tc, two_sectors_torn_erase_keeps_first_slot);
	tcase_add_test(tc, value_bytes_pass_for_ate);
	tcase_add_test(tc, gc_copy_in_top_slot);
	tcase_add_test(tc, torn_offset_out_of_range);
	tcase_add_test(tc, metastable_ate_holds);
	tcase_add_test(tc, torn_close_after_delete_in_last_slot);
	tcase_add_test(tc, torn_ate_data_crc_erased);
	tcase_add_test(tc, torn_close_never_programmed_again);
	tcase_add_test(tc, cycle_wraps_in_cut_gcs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(zms_recovery_suite());
}
