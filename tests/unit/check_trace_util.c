/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_trace_util.h"

#include <check.h>
#include <string.h>

gboolean trace_parse(struct ph_trace *t, const char *text, GError **error)
{
	ph_trace_init(t);
	return ph_trace_parse(t, "t.trace", text, strlen(text), error);
}

void trace_parse_error(const char *text, gsize len, const char *message)
{
	struct ph_trace t;
	GError *error = NULL;

	ph_trace_init(&t);
	ck_assert(!ph_trace_parse(&t, "t.trace", text, len, &error));
	ck_assert_str_eq(error->message, message);
	g_error_free(error);
	ph_trace_clear(&t);
}
