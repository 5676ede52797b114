/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-calls.h - what the zms size programs share: a mount of the linked
 * image for the readers, and one call of each ZMS engine entry point on a
 * RAM flash for the programs that must link all of them. */
#ifndef BENCH_SIZE_ZMS_CALLS_H
#define BENCH_SIZE_ZMS_CALLS_H
#include "fdtcache/zms.h"

extern const uint8_t example_image[];

/* The image as a partition in flash (read-only device): 8 x 4 KiB sectors. */
static inline int zms_rom_mount(struct fc_zms *fs)
{
	static struct fc_rom_flash rom;
	static struct fc_zms_slot slots[512];
	static uint8_t read_buf[FC_ZMS_READ_BUF_SIZE];
	const struct fc_flash_geometry geo = { 8 * 4096, 4096, 4, 0xff };
	const struct fc_zms_config cfg = { .flash = &rom.dev, .sector_size = 4096,
					   .sector_count = 8, .index_slots = slots,
					   .index_slot_count = 512, .read_buf = read_buf,
					   .read_buf_size = sizeof(read_buf) };
	int rc = fc_rom_flash_init(&rom, &geo, example_image);

	return rc < 0 ? rc : fc_zms_mount(fs, &cfg);
}

#ifndef FC_READONLY
/* Every zms entry point once, on a blank 3 x 1 KiB RAM flash with the
 * index, ATE cache and data CRC (fc_zms_clear left to the caller). */
static inline int zms_calls(struct fc_zms *fs, uint8_t *v, size_t len)
{
	static uint8_t mem[3 * 1024];
	static struct fc_ram_flash ram;
	static struct fc_zms_slot slots[16];
	static uint8_t ate_cache[64], read_buf[FC_ZMS_READ_BUF_SIZE];
	const struct fc_flash_geometry geo = { sizeof(mem), 1024, 4, 0xff };
	const struct fc_zms_config cfg = { .flash = &ram.dev, .sector_size = 1024,
					   .sector_count = 3, .data_crc = true, .index_slots = slots,
					   .index_slot_count = 16, .ate_cache = ate_cache,
					   .ate_cache_size = sizeof(ate_cache), .read_buf = read_buf,
					   .read_buf_size = sizeof(read_buf) };
	int sum = fc_ram_flash_init(&ram, &geo, mem);

	if (sum < 0)
		return sum;
	sum += fc_zms_mount(fs, &cfg);
	sum += fc_zms_write(fs, 1, v, len);
	sum += fc_zms_write_hint(fs, 2, v, 4, FC_ZMS_HINT_ABSENT);
	sum += fc_zms_read(fs, 1, v, len);
	sum += fc_zms_read_hist(fs, 1, v, len, 1);
	sum += fc_zms_delete(fs, 2);
	sum += fc_zms_calc_free_space(fs);
	sum += fc_zms_active_sector_free_space(fs);
	sum += fc_zms_sector_use_next(fs);
	return sum;
}
#endif /* FC_READONLY */

#endif /* BENCH_SIZE_ZMS_CALLS_H */
