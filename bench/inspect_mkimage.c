/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inspect_mkimage - write a well-filled NVS partition with the engine, for
 * the nvs-inspect benchmark: 2,000 ids rewritten round-robin with values of
 * 8..64 bytes until every sector but the last is closed and full.
 *   inspect_mkimage OUT SECTORS SECTOR_SIZE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/nvs.h"

#define IDS 2000u
#define WRITE_BLOCK 4u
#define INDEX_SLOTS 4096u

static int fill(struct fc_nvs *fs, uint32_t sectors, unsigned long *writes)
{
	uint8_t value[64];
	uint32_t gen = 0, i, k, len;
	int rc;

	for (;; gen++) {
		for (i = 0; i < IDS; i++) {
			if (fs->ate_wra >> FC_NVS_ADDR_SECTOR_SHIFT == sectors - 1)
				return 0;
			len = 8 + (i * 7 + gen) % 57;
			for (k = 0; k < len; k++)
				value[k] = (uint8_t)(gen * 31 + i + k);
			rc = fc_nvs_write(fs, (uint16_t)(i + 1), value, len);
			if (rc < 0)
				return rc;
			(*writes)++;
		}
	}
}

int main(int argc, char **argv)
{
	static struct fc_cache_slot slots[INDEX_SLOTS];
	struct fc_flash_geometry geo;
	struct fc_ram_flash ram;
	struct fc_nvs_config cfg;
	struct fc_nvs fs;
	unsigned long writes = 0;
	uint32_t sectors, sector_size;
	uint8_t *mem;
	FILE *f;
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: inspect_mkimage OUT SECTORS SECTOR_SIZE\n");
		return 2;
	}
	sectors = (uint32_t)strtoul(argv[2], NULL, 0);
	sector_size = (uint32_t)strtoul(argv[3], NULL, 0);
	geo.size = sectors * sector_size;
	geo.erase_size = sector_size;
	geo.write_size = WRITE_BLOCK;
	geo.erase_value = 0xff;
	mem = malloc(geo.size);
	if (!mem || sectors < 2 || fc_ram_flash_init(&ram, &geo, mem) < 0) {
		fprintf(stderr, "inspect_mkimage: bad geometry %s x %s\n", argv[2], argv[3]);
		return 2;
	}
	memset(mem, 0xff, geo.size);
	memset(&cfg, 0, sizeof(cfg));
	cfg.flash = &ram.dev;
	cfg.sector_size = sector_size;
	cfg.sector_count = (uint16_t)sectors;
	cfg.lookup = FC_NVS_LOOKUP_INDEX;
	cfg.index_slots = slots;
	cfg.index_slot_count = INDEX_SLOTS;
	rc = fc_nvs_mount(&fs, &cfg);
	if (rc == 0)
		rc = fill(&fs, sectors, &writes);
	if (rc < 0) {
		fprintf(stderr, "inspect_mkimage: %s\n", fc_strerror(rc));
		return 1;
	}
	f = fopen(argv[1], "wb");
	if (!f || fwrite(mem, 1, geo.size, f) != geo.size || fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	printf("%s: %u sectors of %u bytes, %lu writes of %u ids\n", argv[1], sectors, sector_size,
	       writes, IDS);
	free(mem);
	return 0;
}
