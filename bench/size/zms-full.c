/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-full - every entry point of the ZMS engine (not the tools' walk) on a
 * RAM flash: its libcore code is the "full zms" size figure. */
#include "fdtcache/zms.h"

int main(void);

int main(void)
{
	static uint8_t mem[3 * 1024];
	static struct fc_ram_flash ram;
	static struct fc_zms fs;
	static struct fc_zms_slot slots[16];
	static uint8_t ate_cache[64];
	const struct fc_flash_geometry geo = { sizeof(mem), 1024, 4, 0xff };
	uint8_t v[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	int sum = 0;

	if (fc_ram_flash_init(&ram, &geo, mem) < 0)
		return 1;
	const struct fc_zms_config cfg = { .flash = &ram.dev, .sector_size = 1024,
					   .sector_count = 3, .data_crc = true, .index_slots = slots,
					   .index_slot_count = 16, .ate_cache = ate_cache,
					   .ate_cache_size = sizeof(ate_cache) };
	sum += fc_zms_mount(&fs, &cfg);
	sum += fc_zms_write(&fs, 1, v, sizeof(v));
	sum += fc_zms_write_hint(&fs, 2, v, 4, FC_ZMS_HINT_ABSENT);
	sum += fc_zms_read(&fs, 1, v, sizeof(v));
	sum += fc_zms_read_hist(&fs, 1, v, sizeof(v), 1);
	sum += fc_zms_delete(&fs, 2);
	sum += fc_zms_calc_free_space(&fs);
	sum += fc_zms_active_sector_free_space(&fs);
	sum += fc_zms_sector_use_next(&fs);
	sum += fc_zms_clear(&fs);
	return sum == 0;
}
