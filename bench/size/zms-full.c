/* SPDX-License-Identifier: BSD-2-Clause */
/* zms-full - every entry point of the ZMS engine (not the tools' walk) on a
 * RAM flash: its libcore code is the "full zms" size figure. */
#include "zms-calls.h"

int main(void);

int main(void)
{
	static struct fc_zms fs;
	uint8_t v[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	int sum = zms_calls(&fs, v, sizeof(v));

	sum += fc_zms_clear(&fs);
	return sum == 0;
}
