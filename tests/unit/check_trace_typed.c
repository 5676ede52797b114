/* SPDX-License-Identifier: BSD-2-Clause */
/* Typed trace lookups (path, alias, parent, cells): parsing, order, errors. */
#include "check_util.h"
#include "check_trace_util.h"

#include <glib.h>
#include <string.h>

#include "phandle/ph_trace.h"

static void assert_typed(const struct ph_trace *t, guint i, enum ph_kind kind, guint at,
			 guint line, const char *arg, const char *cells)
{
	const struct ph_typed *item = ph_trace_typed_at(t, i);

	ck_assert_int_eq(item->kind, kind);
	ck_assert_uint_eq(item->at, at);
	ck_assert_uint_eq(item->line, line);
	ck_assert_str_eq(item->arg, arg);
	if (cells)
		ck_assert_str_eq(item->cells, cells);
	else
		ck_assert_ptr_null(item->cells);
}

START_TEST(parse_mixed_keeps_order)
{
	struct ph_trace t;
	GError *error = NULL;
	static const char text[] =
		"# dtb: b.dtb sha256 "
		"6098f71baea5daa1634d4368617149fe040141c083a06b8d19f6502711542144\n"
		"alias serial0 # /aliases\n"
		"path /soc/serial@2020000\n"
		"0x1c\n"
		"@core_init\n"
		"\tparent   /soc/i2c@3000\n"
		"cells /clocks/cru #clock-cells # a provider's argument count\n"
		"phandle 0x3d\n"
		"cells /soc/i2c@3000 reg\n"
		"path serial0/child\n";

	ck_assert(trace_parse(&t, text, &error));
	ck_assert_uint_eq(ph_trace_lookups(&t), 2);
	ck_assert_uint_eq(ph_trace_typed(&t), 6);
	ck_assert_str_eq(t.dtb_name, "b.dtb");
	ck_assert_uint_eq(t.core_init_at, 1);
	assert_typed(&t, 0, PH_KIND_ALIAS, 0, 2, "serial0", NULL);
	assert_typed(&t, 1, PH_KIND_PATH, 0, 3, "/soc/serial@2020000", NULL);
	assert_typed(&t, 2, PH_KIND_PARENT, 1, 6, "/soc/i2c@3000", NULL);
	assert_typed(&t, 3, PH_KIND_CELLS, 1, 7, "/clocks/cru", "#clock-cells");
	assert_typed(&t, 4, PH_KIND_REG_CELLS, 2, 9, "/soc/i2c@3000", NULL);
	assert_typed(&t, 5, PH_KIND_PATH, 2, 10, "serial0/child", NULL);
	ph_trace_clear(&t);
	/* a trace of typed lookups only has lookups */
	ck_assert(trace_parse(&t, "path /chosen\n", &error));
	ck_assert(ph_trace_require_lookups(&t, "t.trace", &error));
	ph_trace_clear(&t);
}
END_TEST

START_TEST(format_round_trips)
{
	struct ph_trace t, back;
	GError *error = NULL;
	GString *out = g_string_new(NULL);

	ck_assert(trace_parse(&t, "path /a@1\nalias mmc0\nparent /a@1/b\ncells /c #gpio-cells\n"
			    "cells /a@1/b reg\n", &error));
	for (guint i = 0; i < ph_trace_typed(&t); i++) {
		ph_typed_format(out, ph_trace_typed_at(&t, i));
		g_string_append_c(out, '\n');
	}
	ck_assert_str_eq(out->str, "path /a@1\nalias mmc0\nparent /a@1/b\ncells /c #gpio-cells\n"
				   "cells /a@1/b reg\n");
	ck_assert(trace_parse(&back, out->str, &error));
	ck_assert_uint_eq(ph_trace_typed(&back), 5);
	ph_trace_clear(&back);
	ph_trace_clear(&t);
	g_string_free(out, TRUE);
}
END_TEST

START_TEST(parse_typed_errors_name_file_and_line)
{
	BAD("1\npath\n", "t.trace:2: path: expected one path");
	BAD("path /a /b\n", "t.trace:1: path: expected one path");
	BAD("path /a\xc3\xa9\n", "t.trace:1: path: expected one path");
	BAD("alias\n", "t.trace:1: alias: expected one name without '/'");
	BAD("alias a/b\n", "t.trace:1: alias: expected one name without '/'");
	BAD("path /a\nparent a\n", "t.trace:2: parent: expected a node's absolute path");
	BAD("parent /a /b\n", "t.trace:1: parent: expected a node's absolute path");
	BAD("cells /a\n", "t.trace:1: cells: expected a node's absolute path and #xxx-cells or reg");
	BAD("cells /a clock-cells\n",
	    "t.trace:1: cells: expected a node's absolute path and #xxx-cells or reg");
	BAD("cells /a #\n", "t.trace:1: cells: expected a node's absolute path and #xxx-cells or reg");
	BAD("cells #clock-cells\n",
	    "t.trace:1: cells: expected a node's absolute path and #xxx-cells or reg");
	BAD("cells /a #x-cells extra\n",
	    "t.trace:1: cells: expected a node's absolute path and #xxx-cells or reg");
	BAD("paths /a\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("path\x01 /a\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
}
END_TEST

static Suite *trace_typed_suite(void)
{
	Suite *s = suite_create("trace_typed");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_mixed_keeps_order);
	tcase_add_test(tc, format_round_trips);
	tcase_add_test(tc, parse_typed_errors_name_file_and_line);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(trace_typed_suite());
}
