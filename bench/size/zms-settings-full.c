/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-settings-full - every entry point of the ZMS engine and of settings
 * on ZMS on a RAM flash: the "full zms + settings" size figure. */
#include "fdtcache/settings_zms.h"
#include "zms-calls.h"

int main(void);

static int count(void *ctx, const struct fc_settings_zms_entry *e)
{
	(void)e;
	++*(int *)ctx;
	return 0;
}

int main(void)
{
	static struct fc_zms fs;
	static struct fc_settings_zms s;
	uint8_t v[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	int sum = zms_calls(&fs, v, sizeof(v)), n = 0;

	sum += fc_settings_zms_init(&s, &fs);
	sum += fc_settings_zms_save(&s, "a/b", v, sizeof(v));
	sum += fc_settings_zms_load(&s, v, sizeof(v), count, &n);
	sum += fc_settings_zms_get(&s, "a/b", v, sizeof(v));
	sum += fc_settings_zms_delete(&s, "a/b");
	sum += fc_zms_clear(&fs);
	return sum + n == 0;
}
