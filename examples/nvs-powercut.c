/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-powercut - write NVS records on a RAM flash, cut the power in the
 * middle of a program or erase, power on, mount again and check that every
 * acknowledged write reads back: what a board's power-fail test does.
 *
 * The flash is libcore's simulator over a RAM array (3 sectors of 1 KiB,
 * 4-byte write blocks); a cut tears the interrupted operation (its first
 * half is written) and fails everything after it. The workload writes 120
 * records over 6 ids, enough for several garbage collections; the power is
 * cut at every CUT_STEP-th program or erase of it. Output: one line per
 * cut, then a summary; any lost or wrong value fails the program.
 */
#include "fdtcache/nvs.h"
#include "fdtcache/flash_sim.h"
#include "port/port.h"

#define SECTOR_SIZE 1024u
#define SECTOR_COUNT 3u
#define IDS 6u
#define WRITES 120u
#define VALUE_LEN 12u
#define CUT_STEP 9u

static uint8_t flash_mem[SECTOR_SIZE * SECTOR_COUNT];
static struct fc_flash_sim_unit units[SECTOR_COUNT];
static struct fc_cache_slot index_slots[16];
static uint8_t read_buf[FC_NVS_READ_BUF_SIZE]; /* mount's and GC's scans read through it */

/* The value of the i-th write (id 1 + i % IDS): i, then a pattern. */
static void value_of(uint32_t i, uint8_t *v)
{
	fc_put_le32(v, i);
	for (uint32_t k = 4; k < VALUE_LEN; k++)
		v[k] = (uint8_t)(i * 7u + k);
}

static int mount(struct fc_nvs *fs, struct fc_flash_sim *sim)
{
	const struct fc_nvs_config cfg = {
		.flash = &sim->dev,
		.sector_size = SECTOR_SIZE,
		.sector_count = SECTOR_COUNT,
		.index_slots = index_slots,
		.index_slot_count = FC_ARRAY_SIZE(index_slots),
		.read_buf = read_buf,
		.read_buf_size = sizeof(read_buf),
	};
	return fc_nvs_mount(fs, &cfg);
}

static void blank_flash(struct fc_flash_sim *sim)
{
	struct fc_flash_sim_config cfg = {
		.geo = { .size = sizeof(flash_mem), .erase_size = SECTOR_SIZE, .write_size = 4,
			 .erase_value = 0xff },
		.timing = { .read = { 0, 0, 1 }, .prog = { 0, 0, 1 }, .erase = { 0, 0, 1 } },
	};
	int rc;

	FC_MEMSET(flash_mem, 0xff, sizeof(flash_mem));
	rc = fc_flash_sim_init(sim, &cfg, flash_mem, units);
	if (rc < 0)
		port_fail("flash init", rc);
}

/* Write until done or the power fails; acked[id] gets the last write index
 * acknowledged for id (UINT32_MAX: none). Returns the interrupted write's
 * index, or WRITES when every write completed. */
static uint32_t run(struct fc_nvs *fs, uint32_t *acked)
{
	uint8_t v[VALUE_LEN];

	for (uint32_t id = 0; id < IDS; id++)
		acked[id] = UINT32_MAX;
	for (uint32_t i = 0; i < WRITES; i++) {
		uint32_t id = i % IDS;
		int rc;

		value_of(i, v);
		rc = fc_nvs_write(fs, (uint16_t)(1 + id), v, VALUE_LEN);
		if (rc == FC_EPOWER)
			return i;
		if (rc < 0)
			port_fail("write", rc);
		acked[id] = i;
	}
	return WRITES;
}

/* After the cut: each id holds its last acknowledged value, or the
 * interrupted write's value. Returns 1 when the interrupted write survived. */
static int verify(struct fc_nvs *fs, const uint32_t *acked, uint32_t cut_write)
{
	uint8_t want[VALUE_LEN], got[VALUE_LEN];
	int kept = 0;

	for (uint32_t id = 0; id < IDS; id++) {
		int rc = fc_nvs_read(fs, (uint16_t)(1 + id), got, sizeof(got));

		if (cut_write < WRITES && cut_write % IDS == id && rc == (int)VALUE_LEN) {
			value_of(cut_write, want);
			if (FC_MEMCMP(got, want, VALUE_LEN) == 0) {
				kept = 1;
				continue;
			}
		}
		if (acked[id] == UINT32_MAX) {
			if (rc != FC_ENOENT)
				port_fail("a never-acknowledged id reads back", FC_ECORRUPT);
			continue;
		}
		value_of(acked[id], want);
		if (rc != (int)VALUE_LEN || FC_MEMCMP(got, want, VALUE_LEN) != 0)
			port_fail("an acknowledged write was lost", FC_ECORRUPT);
	}
	return kept;
}

int main(void)
{
	static struct fc_flash_sim sim;
	static struct fc_nvs fs;
	uint32_t acked[IDS], ops, cuts = 0;
	int rc;

	blank_flash(&sim);
	if ((rc = mount(&fs, &sim)) < 0)
		port_fail("mount", rc);
	run(&fs, acked);
	ops = sim.stats.ops;
	port_puts("workload: ");
	port_put_dec(WRITES);
	port_puts(" writes, ");
	port_put_dec(ops);
	port_puts(" programs and erases\n");

	for (uint32_t cut = 1; cut <= ops; cut += CUT_STEP, cuts++) {
		blank_flash(&sim);
		if ((rc = mount(&fs, &sim)) < 0)
			port_fail("mount", rc);
		fc_flash_sim_cut_after(&sim, cut, FC_FLASH_SIM_CUT_TORN, 0);
		uint32_t cut_write = run(&fs, acked);
		fc_flash_sim_power_on(&sim);
		if ((rc = mount(&fs, &sim)) < 0)
			port_fail("mount after the cut", rc);
		int kept = verify(&fs, acked, cut_write);
		uint8_t v[VALUE_LEN];
		value_of(WRITES, v);
		if ((rc = fc_nvs_write(&fs, 1, v, VALUE_LEN)) < 0)
			port_fail("write after the cut", rc);
		port_puts("cut at op ");
		port_put_dec(cut);
		port_puts(": write ");
		port_put_dec(cut_write);
		port_puts(kept ? " kept" : " lost");
		port_puts(", acknowledged writes intact\n");
	}
	port_puts("power cuts: ");
	port_put_dec(cuts);
	port_puts(", no acknowledged write lost\n");
	port_flush();
	return 0;
}
