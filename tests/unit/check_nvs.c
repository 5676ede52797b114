/* SPDX-License-Identifier: BSD-2-Clause */
/* The nvs engine on RAM devices: API behaviour, flash work counted exactly. */
#include "check_util.h"
#include "check_nvs_util.h"

#include <glib.h>
#include <string.h>

#include "fdtcache/crc.h"
#include "fdtcache/nvs.h"

struct rig {
	uint8_t *mem;
	struct fc_ram_flash ram;
	struct counting_flash cnt;
	struct fc_cache_slot slots[1024];
	uint8_t ate_cache[256];
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	struct fc_nvs_config cfg;
	struct fc_nvs fs;
};

/* A blank partition of n sectors of s bytes, write block wbs, index of slots. */
static struct rig *rig_new(uint32_t s, uint16_t n, uint32_t wbs, uint32_t slots)
{
	struct rig *r = g_new0(struct rig, 1);
	struct fc_flash_geometry geo = {
		.size = s * n, .erase_size = s, .write_size = wbs, .erase_value = 0xff,
	};

	r->mem = g_malloc(geo.size);
	memset(r->mem, 0xff, geo.size);
	ck_assert_int_eq(fc_ram_flash_init(&r->ram, &geo, r->mem), 0);
	counting_flash_init(&r->cnt, &r->ram.dev);
	r->cfg.flash = &r->cnt.dev;
	r->cfg.sector_size = s;
	r->cfg.sector_count = n;
	r->cfg.lookup = FC_NVS_LOOKUP_INDEX;
	r->cfg.index_slots = slots ? r->slots : NULL;
	r->cfg.index_slot_count = slots;
	r->cfg.read_buf = r->read_buf;
	r->cfg.read_buf_size = sizeof(r->read_buf);
	return r;
}

static void rig_mount(struct rig *r)
{
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &r->cfg), 0);
}

static void rig_free(struct rig *r)
{
	g_free(r->mem);
	g_free(r);
}

static void value(uint8_t *buf, uint16_t id, unsigned int gen, unsigned int len)
{
	nvs_vector_value(buf, id, gen, len);
}

static void expect_value(struct fc_nvs *fs, uint16_t id, unsigned int gen, unsigned int len)
{
	uint8_t want[256], got[256];

	value(want, id, gen, len);
	ck_assert_int_eq(fc_nvs_read(fs, id, got, sizeof(got)), (int)len);
	ck_assert_mem_eq(got, want, len);
}

START_TEST(config_is_validated)
{
	struct rig *r = rig_new(4096, 4, 4, 16);
	struct fc_nvs_config bad;
	uint8_t b = 0;

	bad = r->cfg;
	bad.flash = NULL;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.sector_count = 1;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.sector_count = 5; /* past the device */
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.sector_size = 2048; /* not a multiple of the erase unit */
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.offset = 100;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.index_slot_count = 12;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.index_slots = NULL;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.read_buf_size = 16; /* smaller than FC_NVS_BLOCK */
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.read_buf_size = 96; /* not a power of two */
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.read_buf = NULL;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	bad = r->cfg;
	bad.lookup = (enum fc_nvs_lookup)7;
	ck_assert_int_eq(fc_nvs_mount(&r->fs, &bad), FC_EINVAL);
	ck_assert_int_eq(fc_nvs_mount(NULL, &r->cfg), FC_EINVAL);
	/* nothing was read or written while validating */
	ck_assert_uint_eq(r->cnt.reads + r->cnt.progs + r->cnt.erases, 0);

	memset(&r->fs, 0, sizeof(r->fs));
	ck_assert_int_eq(fc_nvs_write(&r->fs, 1, &b, 1), FC_ENOTMOUNTED);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 1, &b, 1), FC_ENOTMOUNTED);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), FC_ENOTMOUNTED);
	ck_assert_int_eq(fc_nvs_sector_use_next(&r->fs), FC_ENOTMOUNTED);
	ck_assert_int_eq(fc_nvs_clear(&r->fs), FC_ENOTMOUNTED);
	rig_mount(r);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 0xffff, &b, 1), FC_EINVAL);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 1, NULL, 1), FC_EINVAL);
	rig_free(r);
}
END_TEST

START_TEST(blank_mount_counts)
{
	struct rig *r = rig_new(4096, 8, 4, 256);

	rig_mount(r);
	/*
	 * 8 close slots + the last sector's first slot, one 256-byte window of
	 * the write sector, 16 reads proving its data area blank, the previous
	 * sector's close slot, 16 reads proving the next sector erased.
	 */
	ck_assert_uint_eq(r->cnt.reads, 9 + 1 + 16 + 1 + 16);
	ck_assert_uint_eq(r->cnt.progs, 1); /* the gc_done ATE */
	ck_assert_uint_eq(r->cnt.prog_bytes, 8);
	ck_assert_uint_eq(r->cnt.erases, 0);
	ck_assert_uint_eq(r->fs.ate_wra, 0x0fe8);
	ck_assert_uint_eq(r->fs.data_wra, 0);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 7 * (4096 - 16) - 8);
	rig_free(r);
}
END_TEST

/*
 * The same blank mount through smaller read buffers: the write sector's
 * window and the two erased-range checks take size-long pieces; without a
 * buffer the window is one read per slot down to the first erased one, and
 * the checks take Zephyr's 32-byte blocks.
 */
START_TEST(blank_mount_read_buffers)
{
	static const uint32_t sizes[] = { 32, 64, 128, 1024, 0 };
	static const uint32_t reads[] = {
		9 + 1 + 128 + 1 + 128, 9 + 1 + 64 + 1 + 64, 9 + 1 + 32 + 1 + 32,
		9 + 1 + 4 + 1 + 4, 9 + 1 + 128 + 1 + 128,
	};

	for (size_t k = 0; k < G_N_ELEMENTS(sizes); k++) {
		struct rig *r = rig_new(4096, 8, 4, 256);

		r->cfg.read_buf = sizes[k] ? r->read_buf : NULL;
		r->cfg.read_buf_size = sizes[k];
		if (sizes[k] > sizeof(r->read_buf))
			r->cfg.read_buf = g_malloc(sizes[k]);
		rig_mount(r);
		ck_assert_uint_eq(r->cnt.reads, reads[k]);
		ck_assert_uint_eq(r->fs.ate_wra, 0x0fe8);
		ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 7 * (4096 - 16) - 8);
		if (sizes[k] > sizeof(r->read_buf))
			g_free(r->cfg.read_buf);
		rig_free(r);
	}
}
END_TEST

START_TEST(index_answers_without_reads)
{
	struct rig *r = rig_new(4096, 8, 4, 256);
	uint8_t v[4], buf[4];

	rig_mount(r);
	for (uint16_t id = 1; id <= 255; id++) {
		value(v, id, 1, 4);
		ck_assert_int_eq(fc_nvs_write(&r->fs, id, v, 4), 4);
	}
	counting_flash_reset(&r->cnt);
	for (uint32_t id = 256; id < 0xffff; id++)
		ck_assert_int_eq(fc_nvs_read(&r->fs, (uint16_t)id, buf, 4), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 0, buf, 4), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 7 * 4080 - 8 - 255 * 12);
	ck_assert_uint_eq(r->cnt.reads, 0);
	/* a hit reads the ATE and the data */
	expect_value(&r->fs, 77, 1, 4);
	ck_assert_uint_eq(r->cnt.reads, 2);
	/* a deleted id is known absent without reading */
	ck_assert_int_eq(fc_nvs_delete(&r->fs, 77), 0);
	counting_flash_reset(&r->cnt);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 77, buf, 4), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_delete(&r->fs, 77), 0);
	ck_assert_uint_eq(r->cnt.reads + r->cnt.progs, 0);
	/* and the index survives a remount */
	rig_mount(r);
	counting_flash_reset(&r->cnt);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 77, buf, 4), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 300, buf, 4), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 7 * 4080 - 8 - 254 * 12);
	ck_assert_uint_eq(r->cnt.reads, 0);
	rig_free(r);
}
END_TEST

/* An identical rewrite writes nothing, with and without data CRC (Zephyr PR #90311). */
START_TEST(identical_write_writes_nothing)
{
	for (int crc = 0; crc <= 1; crc++) {
		struct rig *r = rig_new(4096, 4, 4, 64);
		uint8_t v[13], buf[13];

		r->cfg.data_crc = crc;
		rig_mount(r);
		value(v, 5, 1, 13);
		ck_assert_int_eq(fc_nvs_write(&r->fs, 5, v, 13), 13);
		counting_flash_reset(&r->cnt);
		ck_assert_int_eq(fc_nvs_write(&r->fs, 5, v, 13), 0);
		ck_assert_uint_eq(r->cnt.progs, 0);
		ck_assert_uint_eq(r->cnt.reads, 2); /* the ATE, then the value (+ CRC) in one block */
		/* a changed last byte is written */
		v[12] ^= 1;
		ck_assert_int_eq(fc_nvs_write(&r->fs, 5, v, 13), 13);
		ck_assert_int_eq(fc_nvs_read(&r->fs, 5, buf, sizeof(buf)), 13);
		ck_assert_mem_eq(buf, v, 13);
		/* with CRC off a read never reads more than with it on */
		counting_flash_reset(&r->cnt);
		ck_assert_int_eq(fc_nvs_read(&r->fs, 5, buf, sizeof(buf)), 13);
		ck_assert_uint_eq(r->cnt.reads, crc ? 3 : 2);
		rig_free(r);
	}
}
END_TEST

START_TEST(data_crc_detects_corruption)
{
	struct rig *r = rig_new(4096, 4, 4, 64);
	uint8_t v[8] = "abcdefg", buf[8];

	r->cfg.data_crc = true;
	rig_mount(r);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 9, v, 8), 8);
	/* the value sits at offset 0 of sector 0, its CRC-32 right after */
	ck_assert_uint_eq(fc_get_le32(r->mem + 8), fc_crc32_ieee(v, 8));
	ck_assert_uint_eq(fc_get_le16(r->mem + 4096 - 24 + 4), 12); /* ate.len = len + 4 */
	r->mem[3] ^= 0x10;
	ck_assert_int_eq(fc_nvs_read(&r->fs, 9, buf, sizeof(buf)), FC_EBADCRC);
	/* a short read does not check (as Zephyr) */
	ck_assert_int_eq(fc_nvs_read(&r->fs, 9, buf, 4), 8);
	/* rewriting the intended value heals it */
	ck_assert_int_eq(fc_nvs_write(&r->fs, 9, v, 8), 8);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 9, buf, sizeof(buf)), 8);
	rig_free(r);
}
END_TEST

START_TEST(read_returns_stored_length_and_history)
{
	struct rig *r = rig_new(1024, 3, 1, 32);
	uint8_t v[40], buf[40];

	rig_mount(r);
	for (unsigned int g = 1; g <= 3; g++) {
		value(v, 1, g, 10 + g);
		ck_assert_int_eq(fc_nvs_write(&r->fs, 1, v, 10 + g), (int)(10 + g));
	}
	ck_assert_int_eq(fc_nvs_read(&r->fs, 1, buf, 4), 13); /* buffer smaller than the value */
	for (unsigned int k = 0; k < 3; k++) {
		value(v, 1, 3 - k, 13 - k);
		ck_assert_int_eq(fc_nvs_read_hist(&r->fs, 1, buf, sizeof(buf), (uint16_t)k),
				 (int)(13 - k));
		ck_assert_mem_eq(buf, v, 13 - k);
	}
	ck_assert_int_eq(fc_nvs_read_hist(&r->fs, 1, buf, sizeof(buf), 3), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_delete(&r->fs, 1), 0);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 1, buf, sizeof(buf)), FC_ENOENT);
	ck_assert_int_eq(fc_nvs_read_hist(&r->fs, 1, buf, sizeof(buf), 1), 13);
	ck_assert_int_eq(fc_nvs_read_hist(&r->fs, 2, buf, sizeof(buf), 0), FC_ENOENT);
	rig_free(r);
}
END_TEST

START_TEST(limits_and_sector_control)
{
	struct rig *r = rig_new(1024, 3, 4, 32);
	static uint8_t big[1024];

	rig_mount(r);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 1, big, 1024 - 4 * 8 + 1), FC_ETOOBIG);
	ck_assert_int_eq(fc_nvs_sector_max_data_size(&r->fs), 1024 - 16 - 8 - 8);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 1, big, 1024 - 4 * 8), 1024 - 4 * 8);
	ck_assert_int_eq(fc_nvs_sector_max_data_size(&r->fs), 0);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 2, big, 4), 4); /* moves on to sector 1 */
	ck_assert_uint_eq(r->fs.ate_wra >> 16, 1);
	ck_assert_int_eq(fc_nvs_sector_use_next(&r->fs), 0);
	ck_assert_uint_eq(r->fs.ate_wra >> 16, 2);
	/* sector 0 was collected: both entries still read back */
	ck_assert_int_eq(fc_nvs_read(&r->fs, 1, NULL, 0), 1024 - 4 * 8);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 2, NULL, 0), 4);
	ck_assert_int_eq(fc_nvs_clear(&r->fs), 0);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 2, NULL, 0), FC_ENOTMOUNTED);
	rig_mount(r);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 2, NULL, 0), FC_ENOENT);
	rig_free(r);
}
END_TEST

START_TEST(full_partition_says_no_space)
{
	struct rig *r = rig_new(1024, 2, 4, 32);
	uint8_t v[200];
	int rc = 0;
	uint16_t id;

	rig_mount(r);
	memset(v, 0x5a, sizeof(v));
	for (id = 1; id < 20 && rc >= 0; id++)
		rc = fc_nvs_write(&r->fs, id, v, sizeof(v));
	ck_assert_int_eq(rc, FC_ENOSPC);
	/* what was acknowledged is still there, and the engine still works */
	for (uint16_t k = 1; k < id - 1; k++)
		ck_assert_int_eq(fc_nvs_read(&r->fs, k, NULL, 0), 200);
	ck_assert_int_eq(fc_nvs_delete(&r->fs, 1), 0);
	ck_assert_int_eq(fc_nvs_read(&r->fs, 1, NULL, 0), FC_ENOENT);
	rig_free(r);
}
END_TEST

static void rig_ate_cache(struct rig *r, uint32_t size)
{
	r->cfg.ate_cache = size ? r->ate_cache : NULL;
	r->cfg.ate_cache_size = size;
}

/*
 * Run the same workload with several GC wrap-arounds through the index, an
 * index too small for the ids, the ATE cache, and Zephyr's algorithms: all
 * must leave the same bytes on flash, read the same values and report the
 * same free space; so must smaller read buffers, or none.
 */
START_TEST(lookup_modes_agree_through_gc)
{
	static const struct {
		enum fc_nvs_lookup lookup;
		uint32_t slots, ate_cache, read_buf;
	} modes[] = {
		{ FC_NVS_LOOKUP_ZEPHYR, 32, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_ZEPHYR, 0, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 128, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 16, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 0, 0, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 128, 256, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 16, 32, FC_NVS_READ_BUF_SIZE },
		{ FC_NVS_LOOKUP_INDEX, 16, 0, 0 },
		{ FC_NVS_LOOKUP_INDEX, 16, 0, FC_NVS_BLOCK },
		{ FC_NVS_LOOKUP_INDEX, 128, 0, 0 },
		{ FC_NVS_LOOKUP_ZEPHYR, 32, 0, 0 },
	};
	struct rig *rigs[G_N_ELEMENTS(modes)];
	unsigned int gen[64] = { 0 };
	uint8_t v[32];

	for (size_t m = 0; m < G_N_ELEMENTS(modes); m++) {
		rigs[m] = rig_new(1024, 4, 4, modes[m].slots);
		rigs[m]->cfg.lookup = modes[m].lookup;
		rig_ate_cache(rigs[m], modes[m].ate_cache);
		rigs[m]->cfg.read_buf = modes[m].read_buf ? rigs[m]->read_buf : NULL;
		rigs[m]->cfg.read_buf_size = modes[m].read_buf;
		rig_mount(rigs[m]);
	}
	for (unsigned int op = 0; op < 600; op++) {
		uint16_t id = (uint16_t)(op * 7 % 40 + 1);
		unsigned int len = 1 + op % 23;
		bool del = op % 11 == 0;

		if (!del)
			value(v, id, op, len);
		for (size_t m = 0; m < G_N_ELEMENTS(modes); m++) {
			int rc = del ? fc_nvs_delete(&rigs[m]->fs, id)
				     : fc_nvs_write(&rigs[m]->fs, id, v, len);

			ck_assert_int_ge(rc, 0);
			if (m)
				ck_assert_mem_eq(rigs[m]->mem, rigs[0]->mem, 4096);
		}
		gen[id] = del ? 0 : op + 1;
		if (op % 97 == 0 || op == 599) {
			for (size_t m = 0; m < G_N_ELEMENTS(modes); m++) {
				rig_mount(rigs[m]);
				ck_assert_int_eq(fc_nvs_calc_free_space(&rigs[m]->fs),
						 fc_nvs_calc_free_space(&rigs[0]->fs));
				for (uint16_t k = 1; k <= 40; k++) {
					if (!gen[k]) {
						ck_assert_int_eq(fc_nvs_read(&rigs[m]->fs, k, NULL, 0),
								 FC_ENOENT);
						continue;
					}
					value(v, k, gen[k] - 1, 1 + (gen[k] - 1) % 23);
					expect_value(&rigs[m]->fs, k, gen[k] - 1, 1 + (gen[k] - 1) % 23);
				}
			}
		}
	}
	/* the partition wrapped several times; Zephyr erases the 2 sectors GC
	 * finds still blank on the first wrap, the index modes leave them */
	ck_assert_uint_eq(rigs[0]->cnt.erases, 12);
	ck_assert_uint_eq(rigs[1]->cnt.erases, 12);
	for (size_t m = 2; m < G_N_ELEMENTS(modes); m++)
		ck_assert_uint_eq(rigs[m]->cnt.erases,
				  modes[m].lookup == FC_NVS_LOOKUP_ZEPHYR ? 12 : 12 - 2);
	/* the ATE cache only saves reads */
	ck_assert_uint_lt(rigs[5]->cnt.reads, rigs[2]->cnt.reads);
	ck_assert_uint_lt(rigs[6]->cnt.reads, rigs[3]->cnt.reads);
	/* a smaller read buffer costs reads, none costs most */
	ck_assert_uint_lt(rigs[3]->cnt.reads, rigs[8]->cnt.reads);
	ck_assert_uint_lt(rigs[8]->cnt.reads, rigs[7]->cnt.reads);
	ck_assert_uint_lt(rigs[2]->cnt.reads, rigs[9]->cnt.reads);
	for (size_t m = 0; m < G_N_ELEMENTS(modes); m++)
		rig_free(rigs[m]);
}
END_TEST

/*
 * An index exactly as large as the ids: every slot is used, and deletes
 * dropped by GC remove keys from a completely full PROBE map (whose
 * removal must stop after one lap); everything stays exact.
 */
START_TEST(full_index_drops_deletes)
{
	struct rig *r = rig_new(512, 3, 4, 8);
	uint8_t v[8], buf[8];

	rig_mount(r);
	for (uint16_t id = 1; id <= 8; id++) {
		value(v, id, 1, 8);
		ck_assert_int_eq(fc_nvs_write(&r->fs, id, v, 8), 8);
	}
	ck_assert_uint_eq(r->fs.index.used, 8);
	ck_assert(!r->fs.gap);
	for (uint16_t id = 1; id <= 8; id += 2)
		ck_assert_int_eq(fc_nvs_delete(&r->fs, id), 0);
	for (int k = 0; k < 6; k++)
		ck_assert_int_eq(fc_nvs_sector_use_next(&r->fs), 0);
	for (uint16_t id = 1; id <= 8; id++) {
		if (id % 2) {
			ck_assert_int_eq(fc_nvs_read(&r->fs, id, buf, 8), FC_ENOENT);
			continue;
		}
		expect_value(&r->fs, id, 1, 8);
	}
	/* 4 live entries and the gc_done ATEs of the two written sectors */
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 2 * (512 - 16) - 4 * 16 - 2 * 8);
	r->cfg.lookup = FC_NVS_LOOKUP_ZEPHYR;
	rig_mount(r);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), 2 * (512 - 16) - 4 * 16 - 2 * 8);
	rig_free(r);
}
END_TEST

/*
 * Remounting with an index smaller than the ids: mount costs what it costs
 * with a full index (the refused ids' live bytes are not summed then), the
 * first free-space query reads the ATE areas once per group of 1024 ids
 * holding refused ids, and the total is exact, also after writes, deletes
 * and GC made while it was not yet counted.
 */
START_TEST(small_index_remount_counts_free_space_lazily)
{
	static const uint16_t base[] = { 0x0000, 0x8000, 0xc000 };
	struct rig *small = rig_new(4096, 8, 4, 64), *full = rig_new(4096, 8, 4, 1024);
	struct rig *rigs[] = { small, full };
	uint8_t v[4];

	for (size_t m = 0; m < G_N_ELEMENTS(rigs); m++) {
		rig_mount(rigs[m]);
		for (unsigned int pass = 1; pass <= 2; pass++)
			for (uint16_t id = 1; id <= 255; id++) {
				value(v, id, pass, 4);
				ck_assert_int_eq(fc_nvs_write(&rigs[m]->fs, id, v, 4), 4);
			}
		counting_flash_reset(&rigs[m]->cnt);
		rig_mount(rigs[m]);
	}
	/* the spec's reference partition: both mounts read alike */
	ck_assert(small->fs.gap);
	ck_assert_uint_eq(small->cnt.reads, full->cnt.reads);
	ck_assert_uint_eq(small->cnt.reads, 51);
	counting_flash_reset(&small->cnt);
	ck_assert_int_eq(fc_nvs_calc_free_space(&small->fs), 7 * 4080 - 2 * 8 - 255 * 12);
	ck_assert_uint_eq(small->cnt.reads, 19); /* one pass: ids 1..255 are one group */
	counting_flash_reset(&small->cnt);
	ck_assert_int_eq(fc_nvs_calc_free_space(&small->fs), 7 * 4080 - 2 * 8 - 255 * 12);
	ck_assert_uint_eq(small->cnt.reads, 0);

	/* ids in three groups; changes made before the first query */
	for (size_t m = 0; m < G_N_ELEMENTS(rigs); m++) {
		for (size_t g = 0; g < G_N_ELEMENTS(base); g++)
			for (uint16_t k = 1; k <= 40; k++) {
				value(v, (uint16_t)(base[g] + k), 3, 4);
				ck_assert_int_eq(fc_nvs_write(&rigs[m]->fs, (uint16_t)(base[g] + k), v, 4), 4);
			}
		rig_mount(rigs[m]);
		for (uint16_t k = 1; k <= 40; k += 3) {
			ck_assert_int_eq(fc_nvs_delete(&rigs[m]->fs, (uint16_t)(0x8000 + k)), 0);
			value(v, (uint16_t)(0xc000 + k), 4, 3);
			ck_assert_int_eq(fc_nvs_write(&rigs[m]->fs, (uint16_t)(0xc000 + k), v, 3), 3);
		}
		ck_assert_int_eq(fc_nvs_sector_use_next(&rigs[m]->fs), 0);
	}
	ck_assert_mem_eq(small->mem, full->mem, 8 * 4096);
	ck_assert(small->fs.gap);
	counting_flash_reset(&small->cnt);
	ck_assert_int_eq(fc_nvs_calc_free_space(&small->fs), fc_nvs_calc_free_space(&full->fs));
	/* the newest ids (0xc0xx) all fit in the index: a pass for the refused
	 * 0x80xx ids, then one wrapping round to the low ids, 26 reads each */
	ck_assert_uint_eq(small->cnt.reads, 2 * 26);
	/* from here on it is kept exact without reads */
	for (uint16_t k = 2; k <= 40; k += 5) {
		ck_assert_int_eq(fc_nvs_delete(&small->fs, (uint16_t)(0xc000 + k)), 0);
		ck_assert_int_eq(fc_nvs_delete(&full->fs, (uint16_t)(0xc000 + k)), 0);
	}
	counting_flash_reset(&small->cnt);
	ck_assert_int_eq(fc_nvs_calc_free_space(&small->fs), fc_nvs_calc_free_space(&full->fs));
	ck_assert_uint_eq(small->cnt.reads, 0);
	rig_free(small);
	rig_free(full);
}
END_TEST

/*
 * Mount never hangs or crashes on garbage: random bytes, a written
 * partition with random bytes changed, every sector closed. It mounts or
 * returns an error; once mounted, reads and writes behave.
 */
/* Hinted writes skip the compare (CHANGED) and the walk (ABSENT), keep the index exact. */
START_TEST(write_hints_skip_reads)
{
	struct rig *r = rig_new(4096, 8, 4, 256), *small = rig_new(4096, 8, 4, 4);
	uint8_t v[4];
	int free_before;

	rig_mount(r);
	for (uint16_t id = 1; id <= 10; id++) {
		value(v, id, 1, 4);
		ck_assert_int_eq(fc_nvs_write(&r->fs, id, v, 4), 4);
	}
	ck_assert_int_eq(fc_nvs_write_hint(&r->fs, 1, v, 4, 4), FC_EINVAL);
	/* CHANGED: the old ATE (its length, for free space), no compare */
	value(v, 3, 2, 4);
	counting_flash_reset(&r->cnt);
	ck_assert_int_eq(fc_nvs_write_hint(&r->fs, 3, v, 4, FC_NVS_HINT_CHANGED), 4);
	ck_assert_uint_eq(r->cnt.reads, 1);
	ck_assert_uint_eq(r->cnt.progs, 2);
	/* a wrong CHANGED only costs a redundant write */
	counting_flash_reset(&r->cnt);
	ck_assert_int_eq(fc_nvs_write_hint(&r->fs, 3, v, 4, FC_NVS_HINT_CHANGED), 4);
	ck_assert_uint_eq(r->cnt.progs, 2);
	expect_value(&r->fs, 3, 2, 4);
	/* ABSENT with an exact index: no reads, as without the hint */
	value(v, 11, 1, 4);
	counting_flash_reset(&r->cnt);
	ck_assert_int_eq(fc_nvs_write_hint(&r->fs, 11, v, 4, FC_NVS_HINT_ABSENT), 4);
	ck_assert_uint_eq(r->cnt.reads, 0);
	free_before = fc_nvs_calc_free_space(&r->fs);
	rig_mount(r);
	ck_assert_int_eq(fc_nvs_calc_free_space(&r->fs), free_before);

	/* an index of 4 slots: a new id is normally looked for on flash */
	rig_mount(small);
	for (uint16_t id = 1; id <= 10; id++) {
		value(v, id, 1, 4);
		ck_assert_int_eq(fc_nvs_write(&small->fs, id, v, 4), 4);
	}
	counting_flash_reset(&small->cnt);
	value(v, 11, 1, 4);
	ck_assert_int_eq(fc_nvs_write(&small->fs, 11, v, 4), 4);
	ck_assert_uint_eq(small->cnt.reads, 1); /* one window of ATEs */
	counting_flash_reset(&small->cnt);
	value(v, 12, 1, 4);
	ck_assert_int_eq(fc_nvs_write_hint(&small->fs, 12, v, 4, FC_NVS_HINT_ABSENT), 4);
	ck_assert_uint_eq(small->cnt.reads, 0);
	free_before = fc_nvs_calc_free_space(&small->fs);
	expect_value(&small->fs, 12, 1, 4);
	rig_mount(small);
	ck_assert_int_eq(fc_nvs_calc_free_space(&small->fs), free_before);
	expect_value(&small->fs, 12, 1, 4);
	rig_free(r);
	rig_free(small);
}
END_TEST

/* The ATE cache: one read per window, kept equal to flash by programs. */
START_TEST(ate_cache_reads_windows)
{
	struct rig *r = rig_new(4096, 8, 4, 256);
	uint8_t v[4];

	ck_assert_int_eq(fc_nvs_mount(&r->fs, &(struct fc_nvs_config){ .flash = r->cfg.flash,
		.sector_size = 4096, .sector_count = 8, .ate_cache = r->ate_cache,
		.ate_cache_size = 8 }), FC_EINVAL); /* less than one slot per way */
	rig_ate_cache(r, 256); /* two windows of 16 slots */
	rig_mount(r);
	for (uint16_t id = 1; id <= 40; id++) {
		value(v, id, 1, 4);
		ck_assert_int_eq(fc_nvs_write(&r->fs, id, v, 4), 4);
	}
	rig_mount(r);
	/* slots 4072..3968 hold ids 1..14: one window read, then the data */
	counting_flash_reset(&r->cnt);
	for (uint16_t id = 1; id <= 14; id++)
		expect_value(&r->fs, id, 1, 4);
	ck_assert_uint_eq(r->cnt.reads, 1 + 14);
	/* id 15 opens the second window; id 1 is still in the first */
	counting_flash_reset(&r->cnt);
	expect_value(&r->fs, 15, 1, 4);
	expect_value(&r->fs, 1, 1, 4);
	ck_assert_uint_eq(r->cnt.reads, 2 + 1);
	/* id 40's window (slots 3712..3832) also holds the next free slots:
	 * rewrites' ATEs are programmed into it and read back from it */
	expect_value(&r->fs, 40, 1, 4);
	value(v, 20, 2, 4);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 20, v, 4), 4);
	value(v, 21, 2, 4);
	ck_assert_int_eq(fc_nvs_write(&r->fs, 21, v, 4), 4);
	counting_flash_reset(&r->cnt);
	expect_value(&r->fs, 21, 2, 4);
	expect_value(&r->fs, 20, 2, 4);
	ck_assert_uint_eq(r->cnt.reads, 2);
	/* Zephyr mode ignores it: reads stay Zephyr's */
	r->cfg.lookup = FC_NVS_LOOKUP_ZEPHYR;
	r->cfg.index_slot_count = 0;
	rig_mount(r);
	counting_flash_reset(&r->cnt);
	expect_value(&r->fs, 1, 1, 4);
	/* the free slot at the write pointer, 2 + 40 ATEs back to id 1, its data */
	ck_assert_uint_eq(r->cnt.reads, 1 + 2 + 40 + 1);
	rig_free(r);
}
END_TEST

START_TEST(garbage_never_hangs)
{
	GRand *rnd = g_rand_new_with_seed(20261201);
	unsigned int mounted = 0, refused = 0;

	for (int round = 0; round < 300; round++) {
		struct rig *r = rig_new(512, 4, 4, 64);
		uint8_t v[16], buf[64];
		int kind = round % 3, rc;

		if (kind == 0) {
			/* random bytes, one close slot erased so a write sector exists */
			for (uint32_t i = 0; i < 2048; i++)
				r->mem[i] = (uint8_t)g_rand_int(rnd);
			memset(r->mem + (round / 3 % 4) * 512 + 512 - 8, 0xff, 8);
		} else {
			rig_mount(r);
			for (unsigned int op = 0; op < 60; op++) {
				value(v, (uint16_t)(op % 9 + 1), op, 1 + op % 16);
				ck_assert_int_ge(fc_nvs_write(&r->fs, (uint16_t)(op % 9 + 1), v, 1 + op % 16), 0);
			}
			for (int k = 0; k < (kind == 1 ? 1 + round % 40 : 0); k++)
				r->mem[g_rand_int_range(rnd, 0, 2048)] = (uint8_t)g_rand_int(rnd);
			if (kind == 2) /* close every sector: Zephyr's -EDEADLK case */
				for (uint32_t sct = 0; sct < 4; sct++) {
					uint8_t *c = r->mem + sct * 512 + 512 - 8;

					fc_nvs_ate_encode(c, FC_NVS_ID_SPECIAL, 512 - 16, 0);
				}
		}
		rc = fc_nvs_mount(&r->fs, &r->cfg);
		if (kind == 2)
			ck_assert_int_eq(rc, FC_ECORRUPT);
		if (rc) {
			ck_assert_int_lt(rc, 0);
			refused++;
			rig_free(r);
			continue;
		}
		mounted++;
		for (uint32_t id = 0; id < 0xffff; id += 97)
			ck_assert_int_ge(fc_nvs_read(&r->fs, (uint16_t)id, buf, sizeof(buf)), FC_ERR_MAX * -1);
		value(v, 3, 99, 16);
		rc = fc_nvs_write(&r->fs, 3, v, 16);
		if (rc >= 0) {
			ck_assert_int_eq(fc_nvs_read(&r->fs, 3, buf, sizeof(buf)), 16);
			ck_assert_mem_eq(buf, v, 16);
		}
		rig_free(r);
	}
	/* garbage with a write sector mounts; only the all-closed partitions are refused */
	ck_assert_uint_eq(mounted, 200);
	ck_assert_uint_eq(refused, 100);
	g_rand_free(rnd);
}
END_TEST

/* The ATE codec against ATEs Zephyr wrote (nvs_history.bin, sector 0). */
START_TEST(ate_codec_matches_zephyr)
{
	static const uint8_t gc_done[8] = { 0xff, 0xff, 0, 0, 0, 0, 0xff, 0x5c };
	static const uint8_t first[8] = { 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0xff, 0xc3 };
	uint8_t b[8];
	struct fc_nvs_ate a;

	fc_nvs_ate_encode(b, 1, 0, 4);
	ck_assert_mem_eq(b, first, 8);
	fc_nvs_ate_encode(b, FC_NVS_ID_SPECIAL, 0, 0);
	ck_assert_mem_eq(b, gc_done, 8);
	fc_nvs_ate_decode(first, 0xff, &a);
	ck_assert(a.id == 1 && a.offset == 0 && a.len == 4 && a.part == 0xff && a.crc8 == 0xc3);
	ck_assert(a.crc_ok && !a.erased);
	ck_assert(fc_nvs_ate_valid(&a, 4096, 8));
	ck_assert(!fc_nvs_ate_close_valid(&a, 4096, 8));
	/* data reaching the ATE area is out of bounds */
	fc_nvs_ate_encode(b, 1, 4096 - 12, 4);
	fc_nvs_ate_decode(b, 0xff, &a);
	ck_assert(a.crc_ok && !fc_nvs_ate_valid(&a, 4096, 8));
	/* a flipped bit fails the crc8 */
	memcpy(b, first, 8);
	b[4] ^= 0x10;
	fc_nvs_ate_decode(b, 0xff, &a);
	ck_assert(!a.crc_ok && !fc_nvs_ate_valid(&a, 4096, 8));
	/* a close ATE points at an ATE slot */
	fc_nvs_ate_encode(b, FC_NVS_ID_SPECIAL, 4096 - 24, 0);
	fc_nvs_ate_decode(b, 0xff, &a);
	ck_assert(fc_nvs_ate_close_valid(&a, 4096, 8));
	ck_assert(!fc_nvs_ate_close_valid(&a, 4096, 16));
	memset(b, 0xff, 8);
	fc_nvs_ate_decode(b, 0xff, &a);
	ck_assert(a.erased && !a.crc_ok);
	fc_nvs_ate_decode(b, 0x00, &a);
	ck_assert(!a.erased);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nvs");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc, ate_codec_matches_zephyr);
	tcase_add_test(tc, config_is_validated);
	tcase_add_test(tc, blank_mount_counts);
	tcase_add_test(tc, blank_mount_read_buffers);
	tcase_add_test(tc, index_answers_without_reads);
	tcase_add_test(tc, identical_write_writes_nothing);
	tcase_add_test(tc, data_crc_detects_corruption);
	tcase_add_test(tc, read_returns_stored_length_and_history);
	tcase_add_test(tc, limits_and_sector_control);
	tcase_add_test(tc, full_partition_says_no_space);
	tcase_add_test(tc, lookup_modes_agree_through_gc);
	tcase_add_test(tc, write_hints_skip_reads);
	tcase_add_test(tc, ate_cache_reads_windows);
	tcase_add_test(tc, garbage_never_hangs);
	tcase_add_test(tc, full_index_drops_deletes);
	tcase_add_test(tc, small_index_remount_counts_free_space_lazily);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
