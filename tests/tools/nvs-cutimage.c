/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-cutimage - a power-cut NVS image for the nvs-inspect tests.
 *   nvs-cutimage OUT atomic|torn|bits N [ERASE_VALUE [zeros]]
 * Runs a workload (4 sectors of 1 KiB, write block 4, 24 ids, writes of
 * 1..29 bytes and deletes, wrapping the partition) on the flash simulator,
 * on a flash that erases to ERASE_VALUE (default 0xff), cuts the power
 * during the N-th program or erase in the given mode, and
 * writes the flash to OUT. With `zeros`, values are 100..199 bytes, all
 * zero but the first: data that looks erased on a flash erasing to 0x00. Prints what the engine reads back after mounting
 * a copy, as `id=0x%04x len=N data=HEX` lines: what nvs-inspect --live must
 * print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/nvs.h"

#define SECTOR 1024u
#define SECTORS 4u
#define SIZE (SECTOR * SECTORS)
#define IDS 24u
#define OPS 600u
#define MAXLEN 29u
#define ZEROS_LEN 100u /* zeros workload: values of ZEROS_LEN..2 * ZEROS_LEN - 1 bytes */

static uint8_t mem[SIZE];
static struct fc_flash_sim_unit units[SECTORS];
static struct fc_cache_slot slots[64];

static int workload(struct fc_flash_sim *sim, bool zeros)
{
	struct fc_nvs_config cfg = { .flash = &sim->dev, .sector_size = SECTOR,
				     .sector_count = SECTORS, .index_slots = slots,
				     .index_slot_count = 64 };
	struct fc_nvs fs;
	uint8_t val[2 * ZEROS_LEN];
	unsigned int k, i, len;
	int rc = fc_nvs_mount(&fs, &cfg);

	for (k = 0; rc >= 0 && k < OPS; k++) {
		uint16_t id = (uint16_t)((k * 7) % IDS + 1);

		len = k % 13 == 12 ? 0 : zeros ? ZEROS_LEN + k % ZEROS_LEN : 1 + k % MAXLEN;
		for (i = 0; i < len; i++)
			val[i] = zeros && i ? 0 : (uint8_t)(k * 31 + i * 7 + 1);
		rc = len ? fc_nvs_write(&fs, id, val, len) : fc_nvs_delete(&fs, id);
	}
	return rc < 0 ? rc : 0;
}

/* What a mount of a copy reads back. */
static int print_reads(uint8_t erase_value)
{
	static uint8_t copy[SIZE];
	struct fc_flash_geometry geo = { SIZE, SECTOR, 4, erase_value };
	struct fc_ram_flash ram;
	struct fc_nvs_config cfg = { .sector_size = SECTOR, .sector_count = SECTORS,
				     .index_slots = slots, .index_slot_count = 64 };
	struct fc_nvs fs;
	uint8_t buf[SECTOR];
	unsigned int id;
	int rc, i;

	memcpy(copy, mem, SIZE);
	fc_ram_flash_init(&ram, &geo, copy);
	cfg.flash = &ram.dev;
	rc = fc_nvs_mount(&fs, &cfg);
	if (rc < 0) {
		printf("# mount fails: %s\n", fc_strerror(rc));
		return 0;
	}
	for (id = 1; id <= IDS; id++) {
		rc = fc_nvs_read(&fs, (uint16_t)id, buf, sizeof(buf));
		if (rc == FC_ENOENT)
			continue;
		if (rc < 0)
			return rc;
		printf("id=0x%04x len=%d data=", id, rc);
		for (i = 0; i < rc; i++)
			printf("%02x", buf[i]);
		printf("\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fc_flash_sim_config cfg = {
		.geo = { .size = SIZE, .erase_size = SECTOR, .write_size = 4, .erase_value = 0xff },
		.timing = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
	};
	struct fc_flash_sim sim;
	enum fc_flash_sim_cut_mode mode;
	FILE *f;

	if (argc < 4 || argc > 6 || (argc == 6 && strcmp(argv[5], "zeros"))) {
		fprintf(stderr, "usage: nvs-cutimage OUT atomic|torn|bits N [ERASE_VALUE [zeros]]\n");
		return 2;
	}
	if (argc >= 5)
		cfg.geo.erase_value = (uint8_t)strtoul(argv[4], NULL, 0);
	if (!strcmp(argv[2], "atomic"))
		mode = FC_FLASH_SIM_CUT_ATOMIC;
	else if (!strcmp(argv[2], "torn"))
		mode = FC_FLASH_SIM_CUT_TORN;
	else if (!strcmp(argv[2], "bits"))
		mode = FC_FLASH_SIM_CUT_BITS;
	else
		return 2;
	memset(mem, cfg.geo.erase_value, sizeof(mem));
	if (fc_flash_sim_init(&sim, &cfg, mem, units) < 0 ||
	    fc_flash_sim_cut_after(&sim, (uint32_t)strtoul(argv[3], NULL, 0), mode, 6) < 0)
		return 2;
	if (workload(&sim, argc == 6) == 0) {
		fprintf(stderr, "nvs-cutimage: the workload ended before cut %s\n", argv[3]);
		return 1;
	}
	f = fopen(argv[1], "wb");
	if (!f || fwrite(mem, 1, SIZE, f) != SIZE || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	return print_reads(cfg.geo.erase_value) < 0;
}
