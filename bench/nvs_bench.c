/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_bench - the reference workload of the NVS spec (8 x 4 KiB sectors,
 * write block 4, 255 ids of 4 bytes; pass 1 writes all, pass 2 rewrites all
 * with new values) through our index and through our emulation of Zephyr's
 * lookup cache, flash work counted per pass, next to Zephyr's own figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/check_nvs_util.h"
#include "fdtcache/nvs.h"

#define SECTOR 4096u
#define SECTORS 8u
#define IDS 255u

struct counts {
	uint32_t mount_reads, reads[2], read_bytes[2], progs[2], prog_bytes[2], erases[2];
	int free_space, free_reads;
	uint32_t remount_reads;
};

struct mode {
	const char *name;
	enum fc_nvs_lookup lookup;
	uint32_t slots;
	uint32_t ate_cache; /* bytes */
	/* Zephyr's read calls for its matching build (spec table), 0 if none */
	uint32_t zephyr_pass1, zephyr_pass2;
};

static int run(const struct mode *m, struct counts *c)
{
	static uint8_t mem[SECTOR * SECTORS];
	static struct fc_cache_slot slots[512];
	static uint8_t ate_cache[256];
	static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	struct fc_flash_geometry geo = {
		.size = sizeof(mem), .erase_size = SECTOR, .write_size = 4, .erase_value = 0xff,
	};
	struct fc_ram_flash ram;
	struct counting_flash cnt;
	struct fc_nvs_config cfg = {
		.sector_size = SECTOR, .sector_count = SECTORS, .lookup = m->lookup,
		.index_slots = m->slots ? slots : NULL, .index_slot_count = m->slots,
		.ate_cache = m->ate_cache ? ate_cache : NULL, .ate_cache_size = m->ate_cache,
		.read_buf = read_buf, .read_buf_size = sizeof(read_buf),
	};
	struct fc_nvs fs;
	uint8_t v[4];

	memset(mem, 0xff, sizeof(mem));
	if (fc_ram_flash_init(&ram, &geo, mem))
		return 1;
	counting_flash_init(&cnt, &ram.dev);
	cfg.flash = &cnt.dev;
	if (fc_nvs_mount(&fs, &cfg))
		return 1;
	c->mount_reads = cnt.reads;
	for (unsigned int pass = 0; pass < 2; pass++) {
		counting_flash_reset(&cnt);
		for (unsigned int i = 0; i < IDS; i++) {
			nvs_vector_value(v, i, pass + 1, sizeof(v));
			if (fc_nvs_write(&fs, (uint16_t)(i + 1), v, sizeof(v)) != sizeof(v))
				return 1;
		}
		c->reads[pass] = cnt.reads;
		c->read_bytes[pass] = cnt.read_bytes;
		c->progs[pass] = cnt.progs;
		c->prog_bytes[pass] = cnt.prog_bytes;
		c->erases[pass] = cnt.erases;
	}
	counting_flash_reset(&cnt);
	c->free_space = fc_nvs_calc_free_space(&fs);
	c->free_reads = (int)cnt.reads;
	counting_flash_reset(&cnt);
	if (fc_nvs_mount(&fs, &cfg))
		return 1;
	c->remount_reads = cnt.reads;
	return 0;
}

int main(void)
{
	static const struct mode modes[] = {
		{ "zephyr-emulation, cache 128 (baseline)", FC_NVS_LOOKUP_ZEPHYR, 128, 0, 14593,
		  37768 },
		{ "zephyr-emulation, no cache", FC_NVS_LOOKUP_ZEPHYR, 0, 0, 33150, 66004 },
		{ "zephyr-emulation, cache 512", FC_NVS_LOOKUP_ZEPHYR, 512, 0, 4568, 14202 },
		{ "index 256 slots", FC_NVS_LOOKUP_INDEX, 256, 0, 0, 0 },
		{ "index 256 slots + ATE cache 256 B", FC_NVS_LOOKUP_INDEX, 256, 256, 0, 0 },
		{ "index 128 slots", FC_NVS_LOOKUP_INDEX, 128, 0, 0, 0 },
		{ "index 512 slots", FC_NVS_LOOKUP_INDEX, 512, 0, 0, 0 },
		/* 8-byte slots: 64 take the 512 bytes of Zephyr's 128 4-byte ones */
		{ "index 64 slots (Zephyr-128 memory)", FC_NVS_LOOKUP_INDEX, 64, 0, 0, 0 },
		{ "index 32 slots + ATE 256 B (same memory)", FC_NVS_LOOKUP_INDEX, 32, 256, 0, 0 },
	};
	struct counts c[sizeof(modes) / sizeof(modes[0])];

	printf("nvs reference workload: %u x %u B sectors, write block 4, %u ids x 4 B\n",
	       SECTORS, SECTOR, IDS);
	printf("Zephyr's figures (spec): blank mount 776 reads; pass 1 510 progs, 3060 B, 0 erases\n\n");
	printf("%-40s %6s | %7s %7s %5s %6s %3s | %7s %7s %5s %6s %3s | %7s %6s | %7s | %8s %8s\n",
	       "lookup", "mount", "p1 rd", "rd B", "prog", "prog B", "er", "p2 rd", "rd B", "prog",
	       "prog B", "er", "free", "f.rd", "remount", "Zeph p1", "Zeph p2");
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		if (run(&modes[k], &c[k])) {
			fprintf(stderr, "nvs_bench: %s: workload failed\n", modes[k].name);
			return 1;
		}
		printf("%-40s %6u | %7u %7u %5u %6u %3u | %7u %7u %5u %6u %3u | %7d %6d | %7u |",
		       modes[k].name, c[k].mount_reads, c[k].reads[0], c[k].read_bytes[0], c[k].progs[0],
		       c[k].prog_bytes[0], c[k].erases[0], c[k].reads[1], c[k].read_bytes[1],
		       c[k].progs[1], c[k].prog_bytes[1], c[k].erases[1], c[k].free_space,
		       c[k].free_reads, c[k].remount_reads);
		if (modes[k].zephyr_pass1)
			printf(" %8u %8u\n", modes[k].zephyr_pass1, modes[k].zephyr_pass2);
		else
			printf(" %8s %8s\n", "-", "-");
	}
	printf("\nread calls relative to the baseline (zephyr-emulation, cache 128):\n");
	for (size_t k = 1; k < sizeof(modes) / sizeof(modes[0]); k++)
		printf("  %-40s pass 1 %.4f  pass 2 %.4f\n", modes[k].name,
		       (double)c[k].reads[0] / c[0].reads[0], (double)c[k].reads[1] / c[0].reads[1]);
	return 0;
}
