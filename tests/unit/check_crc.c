/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include "fdtcache/crc.h"

static const char check_string[] = "123456789";

START_TEST(crc8_check_values)
{
	/* CRC-8/SMBUS (init 0) check value, and the NVS ATE of the spec. */
	static const uint8_t ate[7] = { 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff };

	ck_assert_uint_eq(fc_crc8_ccitt(0x00, check_string, 9), 0xf4);
	ck_assert_uint_eq(fc_crc8_ccitt(0xff, ate, sizeof(ate)), 0x5c);
	ck_assert_uint_eq(fc_crc8_ccitt(0xff, "", 0), 0xff);
}
END_TEST

START_TEST(crc16_check_values)
{
	/* CRC-16/MCRF4XX (seed 0xffff) and CRC-16/KERMIT (seed 0) check values */
	ck_assert_uint_eq(fc_crc16_ccitt(0xffff, check_string, 9), 0x6f91);
	ck_assert_uint_eq(fc_crc16_ccitt(0x0000, check_string, 9), 0x2189);
}
END_TEST

START_TEST(crc32_check_values)
{
	ck_assert_uint_eq(fc_crc32_ieee(check_string, 9), 0xcbf43926u);
	ck_assert_uint_eq(fc_crc32_ieee("", 0), 0);
	/* continuing in pieces gives the same result */
	ck_assert_uint_eq(fc_crc32_ieee_update(fc_crc32_ieee(check_string, 4), check_string + 4, 5),
			  0xcbf43926u);
}
END_TEST

START_TEST(crc_incremental_equals_whole)
{
	uint8_t buf[300];

	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	ck_assert_uint_eq(fc_crc8_ccitt(fc_crc8_ccitt(0xff, buf, 100), buf + 100, 200),
			  fc_crc8_ccitt(0xff, buf, 300));
	ck_assert_uint_eq(fc_crc16_ccitt(fc_crc16_ccitt(0xffff, buf, 7), buf + 7, 293),
			  fc_crc16_ccitt(0xffff, buf, 300));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("crc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, crc8_check_values);
	tcase_add_test(tc, crc16_check_values);
	tcase_add_test(tc, crc32_check_values);
	tcase_add_test(tc, crc_incremental_equals_whole);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
