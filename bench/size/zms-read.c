/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-read - the smallest ZMS reader: mount a Zephyr ZMS partition in flash
 * (read-only device) and read one id. Its libcore code is a size figure. */
#include "zms-calls.h"

int main(void);

int main(void)
{
	static struct fc_zms fs;
	uint8_t value[4];

	if (zms_rom_mount(&fs) < 0)
		return 1;
	return fc_zms_read(&fs, 0x1, value, sizeof(value)) == 4 ? 0 : 1;
}
