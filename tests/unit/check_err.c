/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <string.h>

#include "fdtcache/fc_err.h"

START_TEST(every_code_is_named)
{
	for (int e = -1; e >= -FC_ERR_MAX; e--) {
		const char *s = fc_strerror(e);

		ck_assert_ptr_nonnull(s);
		ck_assert_str_ne(s, "unknown error");
		/* names are distinct */
		for (int f = e - 1; f >= -FC_ERR_MAX; f--)
			ck_assert_str_ne(s, fc_strerror(f));
	}
}
END_TEST

START_TEST(out_of_range_codes)
{
	ck_assert_str_eq(fc_strerror(0), "success");
	ck_assert_str_eq(fc_strerror(7), "success");
	ck_assert_str_eq(fc_strerror(-FC_ERR_MAX - 1), "unknown error");
	ck_assert_str_eq(fc_strerror(-1000000), "unknown error");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_code_is_named);
	tcase_add_test(tc, out_of_range_codes);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
