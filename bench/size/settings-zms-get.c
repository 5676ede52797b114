/* SPDX-License-Identifier: BSD-2-Clause */
/* settings-zms-get - a bootloader's settings reader on ZMS: mount
 * read-only, attach settings, load them (without a callback) and get one.
 * Its libcore code is a size figure. */
#include "fdtcache/settings_zms.h"
#include "zms-calls.h"

int main(void);

int main(void)
{
	static struct fc_zms fs;
	static struct fc_settings_zms s;
	uint8_t value[16];

	if (zms_rom_mount(&fs) < 0 || fc_settings_zms_init(&s, &fs) < 0 ||
	    fc_settings_zms_load(&s, value, sizeof(value), NULL, NULL) < 0)
		return 1;
	return fc_settings_zms_get(&s, "bt/mesh/rpl/1a2b", value, sizeof(value)) == 4 ? 0 : 1;
}
