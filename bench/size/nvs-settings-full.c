/* SPDX-License-Identifier: BSD-2-Clause */
/* nvs-settings-full - every entry point of the NVS engine and the settings
 * layer on a RAM flash: the "full nvs + settings" size figure. */
#include "fdtcache/settings.h"
#include "nvs-calls.h"

int main(void);

static int count(void *ctx, const struct fc_settings_entry *e)
{
	(void)e;
	++*(int *)ctx;
	return 0;
}

int main(void)
{
	static uint8_t mem[3 * 1024];
	static struct fc_ram_flash ram;
	static struct fc_nvs fs;
	static struct fc_settings s;
	static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	static struct fc_cache_slot slots[16];
	static uint8_t ate_cache[64];
	static uint16_t names[16];
	const struct fc_flash_geometry geo = { sizeof(mem), 1024, 4, 0xff };
	uint8_t v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	int sum = 0, n = 0;

	if (fc_ram_flash_init(&ram, &geo, mem) < 0)
		return 1;
	const struct fc_nvs_config cfg = { .flash = &ram.dev, .sector_size = 1024,
					   .sector_count = 3, .index_slots = slots,
					   .index_slot_count = 16, .ate_cache = ate_cache,
					   .ate_cache_size = sizeof(ate_cache),
					   .read_buf = read_buf, .read_buf_size = sizeof(read_buf) };
	const struct fc_settings_config scfg = { .fs = &fs, .cache = names, .cache_len = 16 };
	sum += nvs_calls(&fs, &cfg, v, sizeof(v));
	sum += fc_settings_init(&s, &scfg);
	sum += fc_settings_save(&s, "a/b", v, sizeof(v));
	sum += fc_settings_load(&s, v, sizeof(v), count, &n);
	sum += fc_settings_load_subtree(&s, "a", v, sizeof(v), count, &n);
	sum += fc_settings_get(&s, "a/b", v, sizeof(v));
	sum += fc_settings_delete(&s, "a/b");
	sum += fc_nvs_clear(&fs);
	return sum + n == 0;
}
