/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The version macros agree with each other, with the package version
 * configure was given, and with the linked library; the shared library
 * exports its symbols under the LIBFDTCACHE_6 version node.
 */
#include "check_util.h"

#include <stdio.h>
#include <string.h>

#include "fdtcache/version.h"

START_TEST(macros_agree)
{
	char s[32];

	snprintf(s, sizeof(s), "%d.%d.%d", FC_VERSION_MAJOR, FC_VERSION_MINOR, FC_VERSION_PATCH);
	ck_assert_str_eq(s, FC_VERSION_STRING);
	ck_assert_str_eq(FC_VERSION_STRING, PACKAGE_VERSION);
	ck_assert_uint_eq(FC_VERSION >> 16, FC_VERSION_MAJOR);
	ck_assert_uint_eq(FC_VERSION >> 8 & 0xff, FC_VERSION_MINOR);
	ck_assert_uint_eq(FC_VERSION & 0xff, FC_VERSION_PATCH);
}
END_TEST

START_TEST(linked_library_is_this_version)
{
	ck_assert_uint_eq(fc_version(), FC_VERSION);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("version");
	TCase *tc = tcase_create("version");

	tcase_add_test(tc, macros_agree);
	tcase_add_test(tc, linked_library_is_this_version);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
