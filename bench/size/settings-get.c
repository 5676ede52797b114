/* SPDX-License-Identifier: BSD-2-Clause */
/* settings-get - a bootloader's settings reader: mount read-only, load the
 * settings (without a callback) and get one, with no id index (the name
 * cache finds the name; each read walks the log, as Zephyr's does;
 * FC_NO_INDEX builds libcore for that). Its libcore code is a size figure. */
#include "fdtcache/settings.h"

extern const uint8_t example_image[];
int main(void);

int main(void)
{
	static struct fc_rom_flash rom;
	static struct fc_nvs fs;
	static struct fc_settings s;
	static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	static uint16_t names[256];
	const struct fc_flash_geometry geo = { 8 * 4096, 4096, 4, 0xff };
	uint8_t value[16];

	if (fc_rom_flash_init(&rom, &geo, example_image) < 0)
		return 1;
	const struct fc_nvs_config cfg = { .flash = &rom.dev, .sector_size = 4096,
					   .sector_count = 8, .read_buf = read_buf,
					   .read_buf_size = sizeof(read_buf) };
	const struct fc_settings_config scfg = { .fs = &fs, .cache = names, .cache_len = 256 };
	if (fc_nvs_mount(&fs, &cfg) < 0 || fc_settings_init(&s, &scfg) < 0 ||
	    fc_settings_load(&s, value, sizeof(value), NULL, NULL) < 0)
		return 1;
	return fc_settings_get(&s, "bt/mesh/rpl/1a2b", value, sizeof(value)) == 4 ? 0 : 1;
}
