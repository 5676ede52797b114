/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-read - the smallest ZMS reader: mount a Zephyr ZMS partition in flash
 * (read-only device) and read one id. Its libcore code is a size figure. */
#include "fdtcache/zms.h"

extern const uint8_t example_image[];
int main(void);

int main(void)
{
	static struct fc_rom_flash rom;
	static struct fc_zms fs;
	static struct fc_zms_slot slots[512];
	const struct fc_flash_geometry geo = { 8 * 4096, 4096, 4, 0xff };
	uint8_t value[4];

	if (fc_rom_flash_init(&rom, &geo, example_image) < 0)
		return 1;
	const struct fc_zms_config cfg = { .flash = &rom.dev, .sector_size = 4096,
					   .sector_count = 8, .index_slots = slots,
					   .index_slot_count = 512 };
	if (fc_zms_mount(&fs, &cfg) < 0)
		return 1;
	return fc_zms_read(&fs, 0x1, value, sizeof(value)) == 4 ? 0 : 1;
}
