/* SPDX-License-Identifier: BSD-2-Clause */
/* nvs-read - the smallest reader: mount a Zephyr NVS partition in flash
 * (read-only device) and read one id, with no id index (a bootloader
 * reading a few ids walks the log, as Zephyr does; FC_NO_INDEX builds
 * libcore for that). Its libcore code is a size figure. */
#include "fdtcache/nvs.h"

extern const uint8_t example_image[];
int main(void);

int main(void)
{
	static struct fc_rom_flash rom;
	static struct fc_nvs fs;
	static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	const struct fc_flash_geometry geo = { 8 * 4096, 4096, 4, 0xff };
	uint8_t value[4];

	if (fc_rom_flash_init(&rom, &geo, example_image) < 0)
		return 1;
	const struct fc_nvs_config cfg = { .flash = &rom.dev, .sector_size = 4096,
					   .sector_count = 8, .read_buf = read_buf,
					   .read_buf_size = sizeof(read_buf) };
	if (fc_nvs_mount(&fs, &cfg) < 0)
		return 1;
	return fc_nvs_read(&fs, 0xc001, value, sizeof(value)) == 4 ? 0 : 1;
}
