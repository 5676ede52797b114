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
void json_addr(JsonBuilder *b, const struct inspect *in, const char *key, uint32_t addr);
void json_id(JsonBuilder *b, const struct inspect *in, const char *key, uint64_t id);
void json_actions(JsonBuilder *b, const char *key, const struct inspect *in);

/* The members each format writes its own way; the rest is json.c's. */
struct json_views {
	void (*geometry)(JsonBuilder *b, struct inspect *in); /* and what places it */
	guint (*sectors)(const struct inspect *in);                       /* --summary: how many */
	void (*sector)(JsonBuilder *b, const struct inspect *in, guint i); /* its members */
	void (*mount)(JsonBuilder *b, const struct inspect *in);  /* when the mount works */
	guint (*ates)(struct inspect *in);                    /* ready, counted */
	void (*ate)(JsonBuilder *b, const struct inspect *in, guint i); /* one object */
	void (*history)(JsonBuilder *b, struct inspect *in);
};
extern const struct json_views zms_json_views;
void json_geometry_begin(JsonBuilder *b, const uint32_t g[6]);
void json_geometry_end(JsonBuilder *b, uint32_t trailing, uint32_t missing);
void json_sector_place(JsonBuilder *b, uint32_t sector, uint32_t age, const char *state);
void json_ate_counts(JsonBuilder *b, const uint32_t counts[4]); /* live, stale, deleted, bad */
/* The members every document starts with; the object is left open. */
void json_head(JsonBuilder *b, const struct inspect *in);
void json_data_crc(JsonBuilder *b, const struct inspect *in, gboolean enabled, const char *reason);
/* A setting's members after its name: name_id, value (hex), text (or null). */
void json_setting_value(JsonBuilder *b, gint64 name_id, GBytes *value);
struct tool_json_stream;
/* verdicts (and ates, if given: its member added as null), errors, warnings; then printed */
void json_end(JsonBuilder *b, struct inspect *in, const struct tool_json_stream *ates);

#endif
