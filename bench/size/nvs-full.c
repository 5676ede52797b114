/* SPDX-License-Identifier: BSD-2-Clause */
/* nvs-full - every entry point of the NVS engine (not the tools' walk) on a
 * RAM flash: its libcore code is the "full nvs" size figure. */
#include "nvs-calls.h"

int main(void);

int main(void)
{
	static uint8_t mem[3 * 1024];
	static struct fc_ram_flash ram;
	static struct fc_nvs fs;
	static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	static struct fc_cache_slot slots[16];
	static uint8_t ate_cache[64];
	const struct fc_flash_geometry geo = { sizeof(mem), 1024, 4, 0xff };
	uint8_t v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	int sum = 0;

	if (fc_ram_flash_init(&ram, &geo, mem) < 0)
		return 1;
	const struct fc_nvs_config cfg = { .flash = &ram.dev, .sector_size = 1024,
					   .sector_count = 3, .index_slots = slots,
					   .index_slot_count = 16, .ate_cache = ate_cache,
					   .ate_cache_size = sizeof(ate_cache),
					   .read_buf = read_buf, .read_buf_size = sizeof(read_buf) };
	sum += nvs_calls(&fs, &cfg, v, sizeof(v));
	sum += fc_nvs_clear(&fs);
	return sum == 0;
}
