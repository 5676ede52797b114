/* SPDX-License-Identifier: BSD-2-Clause */
/* json_view.h - json.c's members that the ZMS views (zms_json.c) use too. */
#ifndef FDTCACHE_NVS_INSPECT_JSON_VIEW_H
#define FDTCACHE_NVS_INSPECT_JSON_VIEW_H

#include <json-glib/json-glib.h>

#include "inspect.h"

void json_int(JsonBuilder *b, const char *key, gint64 v);
void json_int_or_null(JsonBuilder *b, const char *key, gint64 v); /* v < 0: null */
void json_bool(JsonBuilder *b, const char *key, gboolean v);
void json_hex(JsonBuilder *b, const char *key, GBytes *v);         /* NULL: null */
/* One element of "verdicts". */
void json_verdict(JsonBuilder *b, const struct verdict *v);

#endif
