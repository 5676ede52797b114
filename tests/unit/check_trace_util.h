/* SPDX-License-Identifier: BSD-2-Clause */
/* What the trace suites share: parsing a text, and a parse error's message. */
#ifndef FDTCACHE_CHECK_TRACE_UTIL_H
#define FDTCACHE_CHECK_TRACE_UTIL_H

#include <glib.h>

#include "phandle/ph_trace.h"

/* trace_parse - t initialised and filled from the C string text, as file "t.trace". */
gboolean trace_parse(struct ph_trace *t, const char *text, GError **error);

/* trace_parse_error - the len bytes at text fail to parse with exactly message. */
void trace_parse_error(const char *text, gsize len, const char *message);

#define BAD(text, message) trace_parse_error(text, sizeof(text) - 1, message)

#endif /* FDTCACHE_CHECK_TRACE_UTIL_H */
