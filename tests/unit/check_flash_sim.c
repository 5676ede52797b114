/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

#include "fdtcache/flash_sim.h"

/* Fault tests: 4 units of 1 KiB, 4-byte write blocks, zero time. */
#define SIZE 4096u
#define UNIT 1024u

struct bench {
	struct fc_flash_sim sim;
	struct fc_flash_sim_unit units[FC_FLASH_SIM_UNITS(SIZE, UNIT)];
	uint8_t mem[SIZE];
	const struct fc_flash *dev;
};

static const struct fc_flash_sim_config small_cfg = {
	.geo = { .size = SIZE, .erase_size = UNIT, .write_size = 4, .erase_value = 0xff },
	.timing = { .read = { 0, 0, 1 }, .prog = { 0, 0, 1 }, .erase = { 0, 0, 1 } },
};

static void setup(struct bench *b, const struct fc_flash_sim_config *cfg)
{
	memset(b->mem, 0xff, sizeof(b->mem));
	ck_assert_int_eq(fc_flash_sim_init(&b->sim, cfg, b->mem, b->units), 0);
	b->dev = &b->sim.dev;
}

static unsigned int count_bits(const uint8_t *p, size_t len)
{
	unsigned int n = 0;

	while (len--)
		n += (unsigned int)__builtin_popcount(*p++);
	return n;
}

START_TEST(presets_by_name)
{
	static const char *const names[] = { "nrf52840", "stm32f4", "spi-nor", "nand", "ram" };
	struct fc_flash_sim_config cfg;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		ck_assert_ptr_eq(fc_flash_sim_preset(names[i]), fc_flash_sim_preset_at(i));
		ck_assert_str_eq(fc_flash_sim_preset_at(i)->name, names[i]);
	}
	ck_assert_ptr_null(fc_flash_sim_preset_at(5));
	ck_assert_ptr_null(fc_flash_sim_preset("w25q"));
	ck_assert_ptr_null(fc_flash_sim_preset(NULL));
	ck_assert_uint_eq(fc_flash_sim_preset("stm32f4")->erase_size, 16384);
	ck_assert_uint_eq(fc_flash_sim_preset("nand")->write_size, 2048);
	ck_assert_uint_eq(fc_flash_sim_preset("nand")->erase_size, 131072);

	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("nand"), 65536),
			 FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, NULL, 65536), FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("spi-nor"), 0),
			 FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("spi-nor"), 8192), 0);
	ck_assert_uint_eq(cfg.geo.size, 8192);
	ck_assert_uint_eq(cfg.geo.write_size, 1);
	ck_assert_uint_eq(cfg.timing.prog.unit, 256);
}
END_TEST

START_TEST(init_rejects_bad_config)
{
	struct bench b;
	struct fc_flash_sim_config cfg = small_cfg;

	ck_assert_int_eq(fc_flash_sim_init(&b.sim, &cfg, NULL, b.units), FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_init(&b.sim, &cfg, b.mem, NULL), FC_EINVAL);
	cfg.timing.erase.unit = 0;
	ck_assert_int_eq(fc_flash_sim_init(&b.sim, &cfg, b.mem, b.units), FC_EINVAL);
	cfg = small_cfg;
	cfg.geo.write_size = 6;
	ck_assert_int_eq(fc_flash_sim_init(&b.sim, &cfg, b.mem, b.units), FC_EINVAL);
}
END_TEST

START_TEST(misaligned_and_out_of_bounds)
{
	struct bench b;
	uint8_t buf[8] = { 0 };

	setup(&b, &small_cfg);
	ck_assert_int_eq(fc_flash_prog(b.dev, 2, buf, 4), FC_EALIGN);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, buf, 6), FC_EALIGN);
	ck_assert_int_eq(fc_flash_erase(b.dev, 100, UNIT), FC_EALIGN);
	ck_assert_int_eq(fc_flash_prog(b.dev, SIZE - 4, buf, 8), FC_ERANGE);
	ck_assert_int_eq(fc_flash_read(b.dev, SIZE, buf, 1), FC_ERANGE);
	ck_assert_int_eq(fc_flash_erase(b.dev, SIZE, UNIT), FC_ERANGE);
	/* rejected before the device: nothing counted */
	ck_assert_uint_eq(b.sim.stats.progs + b.sim.stats.reads + b.sim.stats.erases, 0);
}
END_TEST

START_TEST(double_write_is_an_error)
{
	struct bench b;
	uint8_t a[8] = { 0xf0, 0xf0, 0xf0, 0xf0, 1, 2, 3, 4 }, c[4] = { 0x3c, 0x3c, 0x3c, 0x3c };

	setup(&b, &small_cfg);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, a, 8), 0);
	/* overlaps the written block at 4: refused, nothing changes */
	ck_assert_int_eq(fc_flash_prog(b.dev, 4, c, 4), FC_ENOTERASED);
	ck_assert_mem_eq(b.mem, a, 8);
	ck_assert_uint_eq(b.sim.stats.progs, 2);
	ck_assert_uint_eq(b.sim.stats.ops, 2);
	/* an erased neighbour is fine */
	ck_assert_int_eq(fc_flash_prog(b.dev, 8, c, 4), 0);
}
END_TEST

START_TEST(and_mode_clears_bits_only)
{
	struct bench b;
	struct fc_flash_sim_config cfg = small_cfg;
	uint8_t a[4] = { 0xf0, 0xff, 0x0f, 0x00 }, c[4] = { 0x3c, 0x00, 0xff, 0xff };
	uint8_t want[4] = { 0x30, 0x00, 0x0f, 0x00 };

	cfg.flags = FC_FLASH_SIM_AND;
	setup(&b, &cfg);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, a, 4), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, c, 4), 0);
	ck_assert_mem_eq(b.mem, want, 4);
}
END_TEST

START_TEST(erase_value_zero_sets_bits)
{
	struct bench b;
	struct fc_flash_sim_config cfg = small_cfg;
	uint8_t a[4] = { 0x0f, 0, 0, 0 }, c[4] = { 0xf0, 0, 0, 0 };

	cfg.flags = FC_FLASH_SIM_AND;
	cfg.geo.erase_value = 0x00;
	setup(&b, &cfg);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), 0);
	ck_assert_uint_eq(b.mem[5], 0x00);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, a, 4), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, c, 4), 0);
	ck_assert_uint_eq(b.mem[0], 0xff);
}
END_TEST

/* After a cut every request fails uncounted until power-on. */
static void assert_dead_until_power_on(struct bench *b)
{
	struct fc_flash_sim_stats before = b->sim.stats;
	uint8_t buf[4] = { 0 };

	ck_assert_int_eq(fc_flash_read(b->dev, 0, buf, 4), FC_EPOWER);
	ck_assert_int_eq(fc_flash_prog(b->dev, SIZE - 4, buf, 4), FC_EPOWER);
	ck_assert_int_eq(fc_flash_erase(b->dev, UNIT, UNIT), FC_EPOWER);
	ck_assert_mem_eq(&b->sim.stats, &before, sizeof(before));
	fc_flash_sim_power_on(&b->sim);
	ck_assert_int_eq(fc_flash_read(b->dev, 0, buf, 4), 0);
	ck_assert_int_eq(fc_flash_prog(b->dev, SIZE - 4, buf, 4), 0);
}

START_TEST(cut_prog_atomic)
{
	struct bench b;
	uint8_t data[16] = { 0 };

	setup(&b, &small_cfg);
	ck_assert_int_eq(fc_flash_sim_cut_after(&b.sim, 2, FC_FLASH_SIM_CUT_ATOMIC, 0), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, data, 4), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 16, data, 16), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem + 16, 16), 128); /* untouched */
	ck_assert_uint_eq(b.sim.stats.ops, 2);
	assert_dead_until_power_on(&b);
}
END_TEST

START_TEST(cut_prog_torn)
{
	struct bench b;
	uint8_t data[16] = { 0 };

	setup(&b, &small_cfg);
	/* 4 write blocks: the first 2 (8 bytes) are written */
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_TORN, 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, data, 16), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem, 8), 0);
	ck_assert_uint_eq(count_bits(b.mem + 8, 8), 64);
	assert_dead_until_power_on(&b);
	/* 3 write blocks: floor(3 / 2) = 1 block (4 bytes) */
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_TORN, 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 32, data, 12), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem + 32, 4), 0);
	ck_assert_uint_eq(count_bits(b.mem + 36, 8), 64);
}
END_TEST

static void cut_prog_bits_run(uint32_t seed, uint8_t *out)
{
	struct bench b;
	uint8_t data[64];
	unsigned int i;

	memset(data, 0x0f, sizeof(data));
	setup(&b, &small_cfg);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_BITS, seed);
	ck_assert_int_eq(fc_flash_prog(b.dev, 64, data, 64), FC_EPOWER);
	for (i = 0; i < 64; i++)
		ck_assert_uint_eq(b.mem[64 + i] & 0x0f, 0x0f); /* bits that stay 1 never move */
	/* 256 bits were changing: some, not all, changed */
	ck_assert_uint_gt(count_bits(b.mem + 64, 64), 256);
	ck_assert_uint_lt(count_bits(b.mem + 64, 64), 512);
	ck_assert_uint_eq(count_bits(b.mem, 64) + count_bits(b.mem + 128, SIZE - 128),
			  8 * (SIZE - 64));
	assert_dead_until_power_on(&b);
	memcpy(out, b.mem + 64, 64);
}

START_TEST(cut_prog_bits)
{
	uint8_t a[64], again[64], other[64];

	cut_prog_bits_run(7, a);
	cut_prog_bits_run(7, again);
	cut_prog_bits_run(8, other);
	ck_assert_mem_eq(a, again, 64);
	ck_assert_int_ne(memcmp(a, other, 64), 0);
}
END_TEST

/* Units 0 and 1 programmed to 0x00. */
static void setup_programmed(struct bench *b)
{
	static const uint8_t zeros[2 * UNIT];

	setup(b, &small_cfg);
	ck_assert_int_eq(fc_flash_prog(b->dev, 0, zeros, 2 * UNIT), 0);
}

START_TEST(cut_erase_atomic)
{
	struct bench b;

	setup_programmed(&b);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_ATOMIC, 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem, UNIT), 0);
	ck_assert_uint_eq(b.units[0].erases, 0);
	assert_dead_until_power_on(&b);
}
END_TEST

START_TEST(cut_erase_torn)
{
	struct bench b;

	setup_programmed(&b);
	/* one unit: its first half is erased and it counts one cycle */
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_TORN, 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem, UNIT / 2), 8 * UNIT / 2);
	ck_assert_uint_eq(count_bits(b.mem + UNIT / 2, UNIT / 2), 0);
	ck_assert_uint_eq(b.units[0].erases, 1);
	assert_dead_until_power_on(&b);

	/* two units: the first is erased, the second untouched */
	setup_programmed(&b);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_TORN, 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, 2 * UNIT), FC_EPOWER);
	ck_assert_uint_eq(count_bits(b.mem, UNIT), 8 * UNIT);
	ck_assert_uint_eq(count_bits(b.mem + UNIT, UNIT), 0);
	ck_assert_uint_eq(b.units[0].erases, 1);
	ck_assert_uint_eq(b.units[1].erases, 0);
}
END_TEST

START_TEST(cut_erase_bits)
{
	struct bench b;
	uint8_t first[UNIT];
	unsigned int ones;

	setup_programmed(&b);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_BITS, 99);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
	ones = count_bits(b.mem, UNIT);
	ck_assert_uint_gt(ones, 0);
	ck_assert_uint_lt(ones, 8 * UNIT);
	ck_assert_uint_eq(count_bits(b.mem + UNIT, UNIT), 0);
	ck_assert_uint_eq(b.units[0].erases, 1);
	memcpy(first, b.mem, UNIT);
	assert_dead_until_power_on(&b);

	setup_programmed(&b);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_BITS, 99);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
	ck_assert_mem_eq(b.mem, first, UNIT);
}
END_TEST


/* SOMEBITS moves one changing bit, MOSTBITS all but one, on programs and erases. */
START_TEST(cut_somebits_mostbits)
{
	static const struct {
		enum fc_flash_sim_cut_mode mode;
		unsigned int moved; /* of the 256 changing bits */
	} cases[] = { { FC_FLASH_SIM_CUT_SOMEBITS, 1 }, { FC_FLASH_SIM_CUT_MOSTBITS, 255 } };
	uint8_t data[64];

	memset(data, 0x0f, sizeof(data));
	for (unsigned int i = 0; i < 2; i++) {
		struct bench b;

		setup(&b, &small_cfg);
		fc_flash_sim_cut_after(&b.sim, 1, cases[i].mode, 5);
		ck_assert_int_eq(fc_flash_prog(b.dev, 64, data, 64), FC_EPOWER);
		ck_assert_uint_eq(count_bits(b.mem + 64, 64), 512 - cases[i].moved);
		ck_assert_uint_eq(count_bits(b.mem, 64) + count_bits(b.mem + 128, SIZE - 128),
				  8 * (SIZE - 64));
		assert_dead_until_power_on(&b);
		/* an erase of a programmed unit: the moved bits go back to 1 */
		setup_programmed(&b);
		fc_flash_sim_cut_after(&b.sim, 1, cases[i].mode, 5);
		ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
		ck_assert_uint_eq(count_bits(b.mem, UNIT),
				  cases[i].moved == 1 ? 1 : 8 * UNIT - 1);
		ck_assert_uint_eq(count_bits(b.mem + UNIT, UNIT), 0);
	}
}
END_TEST

/* OOO: each write block of the program lands whole or not at all. */
START_TEST(cut_ooo)
{
	unsigned int landed_sum = 0;
	uint8_t data[64] = { 0 };

	for (uint32_t seed = 1; seed <= 8; seed++) {
		struct bench b;
		unsigned int landed = 0;

		setup(&b, &small_cfg);
		fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_OOO, seed);
		ck_assert_int_eq(fc_flash_prog(b.dev, 64, data, 64), FC_EPOWER);
		for (unsigned int blk = 0; blk < 16; blk++) {
			unsigned int ones = count_bits(b.mem + 64 + 4 * blk, 4);

			ck_assert(ones == 0 || ones == 32);
			landed += ones == 0;
		}
		landed_sum += landed;
	}
	/* a subset, neither always none nor always all of the 8 x 16 blocks */
	ck_assert_uint_gt(landed_sum, 0);
	ck_assert_uint_lt(landed_sum, 128);
}
END_TEST

/* METASTABLE: torn, then the next block reads back differently until settled. */
START_TEST(cut_metastable)
{
	struct bench b;
	uint8_t data[16] = { 0 }, r1[4], r2[4], rd[8];
	bool differ = false;

	setup(&b, &small_cfg);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_METASTABLE, 3);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, data, 16), FC_EPOWER);
	fc_flash_sim_power_on(&b.sim);
	ck_assert_uint_eq(count_bits(b.mem, 8), 0);       /* the torn half */
	ck_assert_uint_eq(count_bits(b.mem + 8, 8), 64); /* the cells keep their old value */
	ck_assert_int_eq(fc_flash_read(b.dev, 12, rd, 4), 0);
	ck_assert_uint_eq(count_bits(rd, 4), 32); /* the block after the metastable one is stable */
	for (unsigned int k = 0; k < 8 && !differ; k++) {
		ck_assert_int_eq(fc_flash_read(b.dev, 8, r1, 4), 0);
		ck_assert_int_eq(fc_flash_read(b.dev, 8, r2, 4), 0);
		differ = memcmp(r1, r2, 4) != 0;
	}
	ck_assert(differ);
	/* a program over the block settles it */
	ck_assert_int_eq(fc_flash_prog(b.dev, 8, data, 4), 0);
	ck_assert_int_eq(fc_flash_read(b.dev, 8, r1, 4), 0);
	ck_assert_uint_eq(count_bits(r1, 4), 0);
	/* an erase cut: the bits past the erased half read back at random until erased */
	setup_programmed(&b);
	fc_flash_sim_cut_after(&b.sim, 1, FC_FLASH_SIM_CUT_METASTABLE, 3);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EPOWER);
	fc_flash_sim_power_on(&b.sim);
	differ = false;
	for (unsigned int k = 0; k < 8 && !differ; k++) {
		ck_assert_int_eq(fc_flash_read(b.dev, UNIT / 2, r1, 4), 0);
		ck_assert_int_eq(fc_flash_read(b.dev, UNIT / 2, r2, 4), 0);
		differ = memcmp(r1, r2, 4) != 0;
	}
	ck_assert(differ);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), 0);
	ck_assert_int_eq(fc_flash_read(b.dev, UNIT / 2, r1, 4), 0);
	ck_assert_uint_eq(count_bits(r1, 4), 32);
}
END_TEST

/* Reads of a region that may be metastable: do two of them differ in 8 tries? */
static bool unstable(struct bench *b, uint32_t off)
{
	uint8_t r1[4], r2[4];

	for (unsigned int k = 0; k < 8; k++) {
		ck_assert_int_eq(fc_flash_read(b->dev, off, r1, 4), 0);
		ck_assert_int_eq(fc_flash_read(b->dev, off, r2, 4), 0);
		if (memcmp(r1, r2, 4))
			return true;
	}
	return false;
}

/*
 * Each cut leaves its own metastable bytes: a later cut does not make an
 * earlier one's cells read erased again; past FC_FLASH_SIM_META_REGIONS
 * cuts the oldest settles where its bits were going.
 */
START_TEST(metastable_regions_accumulate)
{
	static const uint8_t zeros[4];
	uint32_t plan[FC_FLASH_SIM_META_REGIONS + 1];
	struct bench b;
	uint8_t rd[4];

	for (uint32_t i = 0; i < FC_ARRAY_SIZE(plan); i++)
		plan[i] = 1;
	setup(&b, &small_cfg);
	ck_assert_int_eq(fc_flash_sim_cut_plan(&b.sim, plan, FC_ARRAY_SIZE(plan),
					       FC_FLASH_SIM_CUT_METASTABLE, 9), 0);
	for (uint32_t i = 0; i < FC_ARRAY_SIZE(plan); i++) {
		ck_assert_int_eq(fc_flash_prog(b.dev, 64 * i, zeros, 4), FC_EPOWER);
		fc_flash_sim_power_on(&b.sim);
		for (uint32_t j = i + 1 > FC_FLASH_SIM_META_REGIONS ? i + 1 - FC_FLASH_SIM_META_REGIONS : 0;
		     j <= i; j++)
			ck_assert_msg(unstable(&b, 64 * j), "cut %u: region %u stable", i, j);
	}
	/* the first region settled to its target: programmed */
	ck_assert_int_eq(fc_flash_read(b.dev, 0, rd, 4), 0);
	ck_assert_uint_eq(count_bits(rd, 4), 0);
}
END_TEST

START_TEST(cut_mode_names)
{
	ck_assert_str_eq(fc_flash_sim_cut_mode_name(FC_FLASH_SIM_CUT_ATOMIC), "atomic");
	ck_assert_str_eq(fc_flash_sim_cut_mode_name(FC_FLASH_SIM_CUT_METASTABLE), "metastable");
	ck_assert_ptr_null(fc_flash_sim_cut_mode_name((enum fc_flash_sim_cut_mode)FC_FLASH_SIM_CUT_MODES));
}
END_TEST

/* A plan arms its next cut at each power-on, counted from there. */
START_TEST(cut_plan_rearms_at_power_on)
{
	static const uint32_t plan[] = { 3, 2 }, zero[] = { 1, 0 };
	struct bench b;
	uint8_t rec[8] = { 0 };
	uint32_t off = 0;

	setup(&b, &small_cfg);
	ck_assert_int_eq(fc_flash_sim_cut_plan(&b.sim, zero, 2, FC_FLASH_SIM_CUT_TORN, 1), FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_cut_plan(&b.sim, plan, 2, FC_FLASH_SIM_CUT_ATOMIC, 1), 0);
	for (int k = 0; k < 2; k++, off += 8)
		ck_assert_int_eq(fc_flash_prog(b.dev, off, rec, 8), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, off, rec, 8), FC_EPOWER);
	fc_flash_sim_power_on(&b.sim);
	ck_assert_int_eq(fc_flash_prog(b.dev, off, rec, 8), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, off + 8, rec, 8), FC_EPOWER);
	fc_flash_sim_power_on(&b.sim);
	for (int k = 0; k < 4; k++) /* the plan is used up */
		ck_assert_int_eq(fc_flash_prog(b.dev, 64 + 8 * k, rec, 8), 0);
	ck_assert_uint_eq(b.sim.stats.cuts, 2);
}
END_TEST

/*
 * A workload whose segment after each cut does as many ops as the cut's
 * position (the recovery of a cut at op k costs k ops): every schedule's
 * runs are listed, as "k" or "k.j" per run.
 */
static void sched_runs(enum fc_flash_sim_schedule kind, uint32_t depth, const uint32_t *list,
		       uint32_t n, char *out, size_t size)
{
	struct fc_flash_sim_sched it;
	uint32_t last = 0;

	out[0] = 0;
	ck_assert_int_eq(fc_flash_sim_sched_init(&it, kind, depth, list, n), 0);
	while (fc_flash_sim_sched_next(&it, last)) {
		size_t len = strlen(out);

		if (!it.n)
			snprintf(out + len, size - len, "- ");
		for (uint32_t i = 0; i < it.n; i++) {
			len = strlen(out);
			snprintf(out + len, size - len, "%u%s", it.cuts[i], i + 1 < it.n ? "." : " ");
		}
		last = it.n ? it.cuts[it.n - 1] : 5; /* the uncut run has 5 ops */
	}
}

START_TEST(schedules)
{
	static const uint32_t list[] = { 4, 1, 2 };
	struct fc_flash_sim_sched it;
	char runs[512];

	sched_runs(FC_FLASH_SIM_SCHED_NONE, 0, NULL, 0, runs, sizeof(runs));
	ck_assert_str_eq(runs, "- ");
	sched_runs(FC_FLASH_SIM_SCHED_LINEAR, 0, NULL, 0, runs, sizeof(runs));
	ck_assert_str_eq(runs, "- 1 2 3 4 5 ");
	sched_runs(FC_FLASH_SIM_SCHED_LOG, 0, NULL, 0, runs, sizeof(runs));
	ck_assert_str_eq(runs, "- 1 2 4 ");
	sched_runs(FC_FLASH_SIM_SCHED_EXHAUSTIVE, 2, NULL, 0, runs, sizeof(runs));
	ck_assert_str_eq(runs, "- 1 1.1 2 2.1 2.2 3 3.1 3.2 3.3 4 4.1 4.2 4.3 4.4 5 5.1 5.2 5.3 5.4 5.5 ");
	sched_runs(FC_FLASH_SIM_SCHED_LIST, 0, list, 3, runs, sizeof(runs));
	ck_assert_str_eq(runs, "4.1.2 ");
	ck_assert_int_eq(fc_flash_sim_sched_init(&it, FC_FLASH_SIM_SCHED_EXHAUSTIVE, 0, NULL, 0),
			 FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_sched_init(&it, FC_FLASH_SIM_SCHED_LIST, 0, NULL, 0),
			 FC_EINVAL);
	ck_assert_int_eq(fc_flash_sim_sched_init(&it, (enum fc_flash_sim_schedule)9, 1, NULL, 0),
			 FC_EINVAL);
}
END_TEST

/* A little workload: returns the first error, or 0. */
static int workload(const struct fc_flash *dev)
{
	uint8_t rec[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[8];
	uint32_t off;
	int rc;

	for (off = 0; off < 64; off += 8)
		if ((rc = fc_flash_prog(dev, off, rec, 8)) || (rc = fc_flash_read(dev, off, out, 8)))
			return rc;
	if ((rc = fc_flash_erase(dev, 0, UNIT)))
		return rc;
	return fc_flash_prog(dev, UNIT, rec, 8);
}

START_TEST(cut_sweep_hits_each_op)
{
	struct bench b;
	uint32_t n, k;

	setup(&b, &small_cfg);
	ck_assert_int_eq(workload(b.dev), 0);
	n = b.sim.stats.ops;
	ck_assert_uint_eq(n, 10); /* 8 programs, 1 erase, 1 program */
	for (k = 1; k <= n; k++) {
		setup(&b, &small_cfg);
		fc_flash_sim_cut_after(&b.sim, k, FC_FLASH_SIM_CUT_ATOMIC, 0);
		ck_assert_int_eq(workload(b.dev), FC_EPOWER);
		ck_assert_uint_eq(b.sim.stats.ops, k);
	}
	/* disarmed: the whole run completes */
	setup(&b, &small_cfg);
	fc_flash_sim_cut_after(&b.sim, 3, FC_FLASH_SIM_CUT_ATOMIC, 0);
	fc_flash_sim_cut_after(&b.sim, 0, FC_FLASH_SIM_CUT_ATOMIC, 0);
	ck_assert_int_eq(workload(b.dev), 0);
	ck_assert_int_eq(fc_flash_sim_cut_after(&b.sim, 1, (enum fc_flash_sim_cut_mode)7, 0),
			 FC_EINVAL);
}
END_TEST

START_TEST(bad_units)
{
	struct bench b;
	uint8_t data[8] = { 0 }, out[40];

	setup_programmed(&b);
	ck_assert_int_eq(fc_flash_sim_set_bad(&b.sim, 4, FC_FLASH_SIM_BAD_PROG), FC_ERANGE);
	ck_assert_int_eq(fc_flash_sim_set_bad(&b.sim, 2, FC_FLASH_SIM_BAD_PROG), 0);
	ck_assert_int_eq(fc_flash_sim_set_bad(&b.sim, 1, FC_FLASH_SIM_BAD_ERASE), 0);
	ck_assert_int_eq(fc_flash_sim_set_bad(&b.sim, 3, FC_FLASH_SIM_BAD_READ), 0);

	/* program error: nothing written */
	ck_assert_int_eq(fc_flash_prog(b.dev, 2 * UNIT, data, 8), FC_EIO);
	ck_assert_uint_eq(count_bits(b.mem + 2 * UNIT, 8), 64);
	/* a program spanning units 2..3 hits the bad one too */
	ck_assert_int_eq(fc_flash_prog(b.dev, 3 * UNIT - 4, data, 8), FC_EIO);
	/* erase error: unit 1 keeps its data; unit 0 erases fine */
	ck_assert_int_eq(fc_flash_erase(b.dev, UNIT, UNIT), FC_EIO);
	ck_assert_uint_eq(count_bits(b.mem + UNIT, UNIT), 0);
	ck_assert_uint_eq(b.units[1].erases, 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, 2 * UNIT), FC_EIO);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), 0);
	/* read flips: unit offsets 0, 16, 32 of unit 3, memory itself intact */
	ck_assert_int_eq(fc_flash_read(b.dev, 3 * UNIT, out, 40), 0);
	ck_assert_uint_eq(out[0], 0xfe);
	ck_assert_uint_eq(out[1], 0xff);
	ck_assert_uint_eq(out[16], 0xfe);
	ck_assert_uint_eq(out[32], 0xfe);
	ck_assert_uint_eq(count_bits(out, 40), 8 * 40 - 3);
	ck_assert_uint_eq(b.mem[3 * UNIT], 0xff);
	/* a read of the same bytes starting elsewhere sees the same flips */
	ck_assert_int_eq(fc_flash_read(b.dev, 3 * UNIT + 15, out, 2), 0);
	ck_assert_uint_eq(out[0], 0xff);
	ck_assert_uint_eq(out[1], 0xfe);
	/* made good again */
	ck_assert_int_eq(fc_flash_sim_set_bad(&b.sim, 2, 0), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 2 * UNIT, data, 8), 0);
}
END_TEST

START_TEST(wear_out_after_limit)
{
	struct bench b;
	struct fc_flash_sim_config cfg = small_cfg;
	uint8_t data[4] = { 0 };
	int i;

	cfg.wear_limit = 3;
	setup(&b, &cfg);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), 0);
	ck_assert_int_eq(fc_flash_prog(b.dev, 0, data, 4), 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, UNIT), FC_EWORN);
	ck_assert_uint_eq(b.mem[0], 0x00); /* not erased */
	ck_assert_uint_eq(b.units[0].erases, 3);
	ck_assert_uint_eq(b.sim.stats.max_wear, 3);
	ck_assert_uint_eq(b.sim.stats.erases, 4);
	/* a span including the worn unit fails as a whole */
	ck_assert_int_eq(fc_flash_erase(b.dev, 0, 2 * UNIT), FC_EWORN);
	ck_assert_uint_eq(b.units[1].erases, 0);
	ck_assert_int_eq(fc_flash_erase(b.dev, UNIT, UNIT), 0);
	/* reset_stats keeps the wear, which is physical */
	fc_flash_sim_reset_stats(&b.sim);
	ck_assert_uint_eq(b.sim.stats.erases, 0);
	ck_assert_uint_eq(b.sim.stats.ops, 0);
	ck_assert_uint_eq(b.sim.stats.max_wear, 3);
}
END_TEST

/* A preset device of size bytes, blank. */
static void setup_preset(struct fc_flash_sim *sim, const char *name, uint32_t size, uint8_t *mem,
			 struct fc_flash_sim_unit *units)
{
	struct fc_flash_sim_config cfg;

	ck_assert_int_eq(fc_flash_sim_config_init(&cfg, fc_flash_sim_preset(name), size), 0);
	memset(mem, 0xff, size);
	ck_assert_int_eq(fc_flash_sim_init(sim, &cfg, mem, units), 0);
}

static void assert_counts(const struct fc_flash_sim_stats *st, uint32_t reads, uint64_t rbytes,
			  uint32_t progs, uint64_t pbytes, uint32_t erases, uint64_t ebytes)
{
	ck_assert_uint_eq(st->reads, reads);
	ck_assert_uint_eq(st->read_bytes, rbytes);
	ck_assert_uint_eq(st->progs, progs);
	ck_assert_uint_eq(st->prog_bytes, pbytes);
	ck_assert_uint_eq(st->erases, erases);
	ck_assert_uint_eq(st->erase_bytes, ebytes);
	ck_assert_uint_eq(st->ops, progs + erases);
}

static uint8_t big[262144];
static struct fc_flash_sim_unit big_units[64];
static const uint8_t zeros[4096];

START_TEST(timing_nrf52840)
{
	struct fc_flash_sim sim;
	uint8_t out[12];

	setup_preset(&sim, "nrf52840", 8192, big, big_units);
	/* erase one 4 KiB page: 85 ms, the device is busy until 85,000,000 ns */
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 4096), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 85000000);
	ck_assert_uint_eq(sim.now_ns, 0);
	/* 8 bytes = 2 words x 41 us = 82,000 ns, started when the erase ends */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 8), 0);
	ck_assert_uint_eq(sim.now_ns, 85000000);
	ck_assert_uint_eq(sim.busy_until_ns, 85082000);
	/* 1 word = 41,000 ns */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 8, zeros, 4), 0);
	/* reads are free; they wait for the program: 85,000,000 + 82,000 + 41,000 */
	ck_assert_int_eq(fc_flash_read(&sim.dev, 0, out, 12), 0);
	ck_assert_uint_eq(sim.now_ns, 85123000);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 85123000);
	ck_assert_uint_eq(sim.stats.busy_ns, 85123000);
	assert_counts(&sim.stats, 1, 12, 2, 12, 1, 4096);
	ck_assert_uint_eq(sim.stats.max_wear, 1);
}
END_TEST

START_TEST(timing_stm32f4)
{
	struct fc_flash_sim sim;
	uint8_t out[8];

	setup_preset(&sim, "stm32f4", 32768, big, big_units);
	/* two 16 KiB sectors x 400 ms = 800,000,000 ns */
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 32768), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 800000000);
	/* 2 words x 16 us = 32,000 ns */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 16384, zeros, 8), 0);
	ck_assert_int_eq(fc_flash_read(&sim.dev, 16384, out, 8), 0);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 800032000);
	assert_counts(&sim.stats, 1, 8, 1, 8, 1, 32768);
	ck_assert_uint_eq(big_units[0].erases, 1);
	ck_assert_uint_eq(big_units[1].erases, 1);
}
END_TEST

START_TEST(timing_spi_nor)
{
	struct fc_flash_sim sim;
	uint8_t out[100];

	setup_preset(&sim, "spi-nor", 8192, big, big_units);
	/* 4 KiB sector: 45 ms */
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 4096, 4096), 0);
	/* bytes 4346..4353 touch pages 16 and 17: 2 x 400 us = 800,000 ns */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 4346, zeros, 8), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 45800000);
	/* one byte is still a page program: 400,000 ns */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 4096, zeros, 1), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 46200000);
	/* 100 bytes x 40 ns = 4,000 ns after the program */
	ck_assert_int_eq(fc_flash_read(&sim.dev, 4096, out, 100), 0);
	ck_assert_uint_eq(sim.now_ns, 46204000);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 46204000);
	ck_assert_uint_eq(sim.stats.busy_ns, 46204000);
	assert_counts(&sim.stats, 1, 100, 2, 9, 1, 4096);
	ck_assert_uint_eq(big_units[0].erases, 0);
	ck_assert_uint_eq(big_units[1].erases, 1);
}
END_TEST

START_TEST(timing_nand)
{
	struct fc_flash_sim sim;
	uint8_t out[2048];

	setup_preset(&sim, "nand", 262144, big, big_units);
	/* one 128 KiB block: 2 ms */
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 131072), 0);
	/* 2 pages x 250 us = 500,000 ns */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 4096), 0);
	/* 2048 bytes from offset 100 touch pages 0 and 1: 2 x 25 us = 50,000 ns */
	ck_assert_int_eq(fc_flash_read(&sim.dev, 100, out, 2048), 0);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 2550000);
	assert_counts(&sim.stats, 1, 2048, 1, 4096, 1, 131072);
	/* the page is not erased any more */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 2048, zeros, 2048), FC_ENOTERASED);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 100, zeros, 2048), FC_EALIGN);
}
END_TEST

START_TEST(timing_ram)
{
	struct fc_flash_sim sim;
	uint8_t out[16];

	setup_preset(&sim, "ram", 8192, big, big_units);
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 8192), 0);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 3, zeros, 5), 0);
	ck_assert_int_eq(fc_flash_read(&sim.dev, 0, out, 16), 0);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 0);
	assert_counts(&sim.stats, 1, 16, 1, 5, 1, 8192);
	ck_assert_uint_eq(sim.stats.max_wear, 1);
	fc_flash_sim_reset_stats(&sim);
	assert_counts(&sim.stats, 0, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(sim.stats.max_wear, 1);
}
END_TEST

START_TEST(caller_time_overlaps_busy)
{
	struct fc_flash_sim sim;

	setup_preset(&sim, "nrf52840", 8192, big, big_units);
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 4096), 0);
	/* 10 ms of caller work hides inside the 85 ms erase */
	fc_flash_sim_advance(&sim, 10000000);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 4), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 85041000);
	/* 100 ms of work after it started at 85 ms: the next program runs 185..185.041 ms */
	fc_flash_sim_advance(&sim, 100000000);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 4, zeros, 4), 0);
	ck_assert_uint_eq(fc_flash_sim_elapsed(&sim), 185041000);
}
END_TEST

START_TEST(failed_ops_cost_time_only_when_attempted)
{
	struct fc_flash_sim sim;
	struct fc_poll_config cfg = { FC_POLL_ADAPTIVE, 1000, 500, 0 };

	setup_preset(&sim, "nrf52840", 8192, big, big_units);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 4), 0);
	ck_assert_uint_eq(sim.busy_until_ns, 41000);
	/* refused before programming: no time */
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 4), FC_ENOTERASED);
	ck_assert_uint_eq(sim.busy_until_ns, 41000);
	/* a bad unit is tried and fails: one word, 41 us more */
	fc_flash_sim_set_bad(&sim, 1, FC_FLASH_SIM_BAD_PROG);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 4096, zeros, 4), FC_EIO);
	ck_assert_uint_eq(sim.busy_until_ns, 82000);
	ck_assert_uint_eq(sim.stats.busy_ns, 82000);
	/* a bad poll config is refused while the device is busy */
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, NULL), FC_EINVAL);
	ck_assert_uint_eq(sim.now_ns, 41000);
}
END_TEST

START_TEST(wait_policies_on_sim_clock)
{
	struct fc_flash_sim sim;
	struct fc_poll_config cfg;
	struct fc_poll_result res;

	setup_preset(&sim, "nrf52840", 8192, big, big_units);
	/* idle device: no poll */
	fc_poll_config_init(&cfg, FC_POLL_TICK);
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 0);

	/* erase issued at 0.3 ms, ready at 85.3 ms; 1 ms ticks poll at 1, 2, ... 86 ms */
	fc_flash_sim_advance(&sim, 300000);
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 0, 4096), 0);
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 86);
	ck_assert_uint_eq(res.overshoot_ns, 700000);
	ck_assert_uint_eq(res.waited_ns, 85700000);
	ck_assert_uint_eq(sim.now_ns, 86000000);

	/*
	 * One word, 41 us. Adaptive sleeps half the time waited, at least 1 us:
	 * polls at +1000, 2000, 3000, 4500, 6750, 10125, 15187, 22780, 34170,
	 * 51255: the 10th sees it, 10,255 ns late.
	 */
	fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 0, zeros, 4), 0);
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 10);
	ck_assert_uint_eq(res.overshoot_ns, 10255);

	/* spin every 1 us: 41 polls, on time */
	fc_poll_config_init(&cfg, FC_POLL_SPIN);
	ck_assert_int_eq(fc_flash_prog(&sim.dev, 4, zeros, 4), 0);
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 41);
	ck_assert_uint_eq(res.overshoot_ns, 0);

	/* a 10 us timeout on an erase: polls at 1..10 us, then gives up */
	cfg.timeout_ns = 10000;
	ck_assert_int_eq(fc_flash_erase(&sim.dev, 4096, 4096), 0);
	ck_assert_int_eq(fc_flash_sim_wait(&sim, &cfg, &res), FC_ETIMEDOUT);
	ck_assert_uint_eq(res.polls, 10);
	ck_assert_uint_eq(res.waited_ns, 10000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flash_sim");
	TCase *tc = tcase_create("rules");
	TCase *faults = tcase_create("faults");
	TCase *timing = tcase_create("timing");

	tcase_add_test(tc, presets_by_name);
	tcase_add_test(tc, init_rejects_bad_config);
	tcase_add_test(tc, misaligned_and_out_of_bounds);
	tcase_add_test(tc, double_write_is_an_error);
	tcase_add_test(tc, and_mode_clears_bits_only);
	tcase_add_test(tc, erase_value_zero_sets_bits);
	tcase_add_test(faults, cut_prog_atomic);
	tcase_add_test(faults, cut_prog_torn);
	tcase_add_test(faults, cut_prog_bits);
	tcase_add_test(faults, cut_erase_atomic);
	tcase_add_test(faults, cut_erase_torn);
	tcase_add_test(faults, cut_erase_bits);
	tcase_add_test(faults, cut_somebits_mostbits);
	tcase_add_test(faults, cut_ooo);
	tcase_add_test(faults, cut_metastable);
	tcase_add_test(faults, metastable_regions_accumulate);
	tcase_add_test(faults, cut_mode_names);
	tcase_add_test(faults, cut_plan_rearms_at_power_on);
	tcase_add_test(faults, schedules);
	tcase_add_test(faults, cut_sweep_hits_each_op);
	tcase_add_test(faults, bad_units);
	tcase_add_test(faults, wear_out_after_limit);
	tcase_add_test(timing, timing_nrf52840);
	tcase_add_test(timing, timing_stm32f4);
	tcase_add_test(timing, timing_spi_nor);
	tcase_add_test(timing, timing_nand);
	tcase_add_test(timing, timing_ram);
	tcase_add_test(timing, caller_time_overlaps_busy);
	tcase_add_test(timing, failed_ops_cost_time_only_when_attempted);
	tcase_add_test(timing, wait_policies_on_sim_clock);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, faults);
	suite_add_tcase(s, timing);
	return fc_check_run(s);
}
