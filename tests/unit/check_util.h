/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared helpers of the check suites. */
#ifndef FDTCACHE_CHECK_UTIL_H
#define FDTCACHE_CHECK_UTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

/* Run every test of s, print check's summary; returns main()'s exit code. */
int fc_check_run(Suite *s);

/* Path of a file below the source tree ($top_srcdir, else "."); g_free it. */
char *fc_check_path(const char *relative);

/* Whole contents of a file below the source tree; fails the test if unreadable. g_free it. */
uint8_t *fc_check_load(const char *relative, size_t *len);

#endif
