/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.c - the views as one JSON object (schema in README.md, "nvs-inspect
 * JSON"); strings are valid UTF-8.
 */
#include "inspect.h"
#include "json_view.h"

#include <json-glib/json-glib.h>

#include "common/escape.h"
#include "common/json.h"

void json_int(JsonBuilder *b, const char *key, gint64 v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_int_value(b, v);
}

/* v < 0 is null */
void json_int_or_null(JsonBuilder *b, const char *key, gint64 v)
{
	if (v >= 0)
		json_int(b, key, v);
	else
		tool_json_str(b, key, NULL);
}

void json_bool(JsonBuilder *b, const char *key, gboolean v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_boolean_value(b, v);
}

void json_hex(JsonBuilder *b, const char *key, GBytes *v)
{
	char *hex = v ? bytes_hex(v) : NULL;

	tool_json_str(b, key, hex);
	g_free(hex);
}

void json_addr(JsonBuilder *b, const struct inspect *in, const char *key, uint32_t addr)
{
	char *a = place_text(in, addr);

	tool_json_str(b, key, a);
	g_free(a);
}

/* NVS ids are numbers; ZMS ids strings, as a 64-bit id does not fit a JSON number. */
void json_id(JsonBuilder *b, const struct inspect *in, const char *key, uint64_t id)
{
	char *t;

	if (!in->zms) {
		json_int(b, key, (gint64)id);
		return;
	}
	t = id_text(in, id);
	tool_json_str(b, key, t);
	g_free(t);
}

/* The mount's actions, strings in an array. */
void json_actions(JsonBuilder *b, const char *key, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, key);
	json_builder_begin_array(b);
	for (i = 0; i < in->actions->len; i++)
		tool_json_string(b, g_ptr_array_index(in->actions, i));
	json_builder_end_array(b);
}

/*
 * The geometry object's members in both formats, g[]: offset, sector_size,
 * sectors, write_block, ate_size, erase_value (the object is left open).
 */
void json_geometry_begin(JsonBuilder *b, const uint32_t g[6])
{
	static const char *const names[6] = { "offset", "sector_size", "sectors", "write_block",
					      "ate_size", "erase_value" };
	int i;

	json_builder_set_member_name(b, "geometry");
	json_builder_begin_object(b);
	for (i = 0; i < 6; i++)
		json_int(b, names[i], g[i]);
}

/* ... and its last members; the object is closed. */
void json_geometry_end(JsonBuilder *b, uint32_t trailing, uint32_t missing)
{
	json_int(b, "trailing_bytes", trailing);
	json_int(b, "missing_bytes", missing);
	json_builder_end_object(b);
}

static void json_geometry(JsonBuilder *b, struct inspect *in)
{
	const struct nvs_geometry_report *r = &in->geo;

	const uint32_t g[6] = { r->geo.offset, r->geo.sector_size, r->geo.sector_count,
				r->geo.write_block, r->geo.ate_size, r->geo.erase_value };

	json_geometry_begin(b, g);
	tool_json_str(b, "sector_size_confidence", nvs_confidence_name(r->sector_conf));
	tool_json_str(b, "write_block_confidence", nvs_confidence_name(r->wb_conf));
	tool_json_str(b, "erase_value_confidence", nvs_confidence_name(r->ev_conf));
	json_int(b, "close_ates", r->close_ates);
	json_int(b, "gc_done_ates", r->gc_done_ates);
	json_geometry_end(b, r->trailing, r->missing);
	json_data_crc(b, in, in->data_crc, in->crc_reason);
}

/* A sector's first members in both formats: where it is in the log. */
void json_sector_place(JsonBuilder *b, uint32_t sector, uint32_t age, const char *state)
{
	json_int(b, "sector", sector);
	json_int(b, "age", age);
	tool_json_str(b, "state", state);
}

/* A sector's ATE counts in both formats: live, stale, deleted, bad. */
void json_ate_counts(JsonBuilder *b, const uint32_t counts[4])
{
	json_int(b, "live", counts[0]);
	json_int(b, "stale", counts[1]);
	json_int(b, "deleted", counts[2]);
	json_int(b, "bad", counts[3]);
}

static void json_nvs_sector(JsonBuilder *b, const struct inspect *in, guint i)
{
	const struct fc_nvs_sector_info *s = &g_array_index(in->sectors, struct fc_nvs_sector_info, i);
	const uint32_t counts[4] = { s->live, s->stale, s->deleted, s->bad };

	json_sector_place(b, s->sector, s->age, sector_state_name(s->state));
	json_bool(b, "gc_done", s->gc_done);
	json_ate_counts(b, counts);
	json_int(b, "used_bytes", s->used_bytes);
	json_int(b, "free_bytes", s->free_bytes);
}

static guint json_nvs_sectors(const struct inspect *in)
{
	return in->sectors->len;
}

static void json_nvs_mount(JsonBuilder *b, const struct inspect *in)
{
	json_addr(b, in, "ate_wra", in->fs.ate_wra);
	json_addr(b, in, "data_wra", in->fs.data_wra);
	json_int(b, "open_sector", addr_sector(in->fs.ate_wra));
	json_int(b, "free_space", in->free_space);
	json_int_or_null(b, "free_space_zephyr", in->zephyr_free);
}

/* --summary: the sectors, and what the mount of the copy found and did. */
static void json_summary(JsonBuilder *b, const struct inspect *in, const struct json_views *v)
{
	guint i, n = v->sectors(in);

	json_builder_set_member_name(b, "sectors");
	json_builder_begin_array(b);
	for (i = 0; i < n; i++) {
		json_builder_begin_object(b);
		v->sector(b, in, i);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "mount");
	json_builder_begin_object(b);
	json_bool(b, "ok", in->mount_rc >= 0);
	tool_json_str(b, "error", in->mount_rc < 0 ? fc_strerror(in->mount_rc) : NULL);
	if (in->mount_rc >= 0)
		v->mount(b, in);
	json_actions(b, "actions", in);
	json_builder_end_object(b);
}

static void json_live(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "live");
	json_builder_begin_array(b);
	for (i = 0; i < in->live->len; i++) {
		const struct live_entry *e = &g_array_index(in->live, struct live_entry, i);

		json_builder_begin_object(b);
		json_id(b, in, "id", e->id);
		json_int(b, "len", e->rc >= 0 ? e->rc : 0);
		json_hex(b, "data", e->value);
		tool_json_str(b, "error", e->rc < 0 ? fc_strerror(e->rc) : NULL);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_nvs_ate(JsonBuilder *b, const struct inspect *in, const struct ate_rec *r)
{
	size_t n;
	const uint8_t *d = ate_bytes(in, &r->info, &n);
	char *hex = d ? hex_of(d, n) : NULL;
	int crc;

	json_builder_begin_object(b);
	json_addr(b, in, "addr", r->info.addr);
	json_int(b, "sector", addr_sector(r->info.addr));
	json_int(b, "slot", addr_offset(r->info.addr));
	json_int(b, "id", r->info.id);
	json_int(b, "offset", r->info.offset);
	json_int(b, "len", r->info.len);
	json_int(b, "part", r->info.part);
	json_int(b, "crc8", r->info.crc8);
	tool_json_str(b, "status", ate_status_name(r->info.status));
	tool_json_str(b, "data", hex);
	crc = value_crc_state(in, &r->info);
	tool_json_str(b, "data_crc", crc < 0 ? NULL : crc ? "ok" : "bad");
	json_builder_end_object(b);
	g_free(hex);
}

/* The devicetree's partition (--dts, --dtb). */
static void json_partition(JsonBuilder *b, const struct inspect *in)
{
	json_builder_set_member_name(b, "partition");
	json_builder_begin_object(b);
	tool_json_str(b, "label", in->dt.label);
	tool_json_str(b, "path", in->dt.path);
	json_int(b, "address", (gint64)(in->dt.flash_base + in->dt.offset));
	json_int(b, "size", (gint64)in->dt.size);
	json_int(b, "erase_block", in->dt.erase_block);
	json_int(b, "write_block", in->dt.write_block);
	json_builder_end_object(b);
}

/* --ates in flash order */
static guint json_nvs_ates(struct inspect *in)
{
	g_array_sort(in->ates, ate_by_flash_order);
	return in->ates->len;
}

static void json_nvs_ate_at(JsonBuilder *b, const struct inspect *in, guint i)
{
	json_nvs_ate(b, in, &g_array_index(in->ates, struct ate_rec, i));
}

/* The --ates and verdicts arrays, streamed: one element per call. */
struct array_stream {
	struct inspect *in;
	guint next, len;
	void (*element)(JsonBuilder *b, const struct inspect *in, guint i);
};

static gboolean next_element(void *ctx, JsonBuilder *eb)
{
	struct array_stream *st = ctx;

	if (st->next >= st->len)
		return FALSE;
	st->element(eb, st->in, st->next++);
	return TRUE;
}

/* id null: no setting of that name; values [] : nothing stored. */
static void json_nvs_history(JsonBuilder *b, struct inspect *in)
{
	int id = in->opt.history_id;
	GPtrArray *h = id >= 0 ? history_of(in, (uint16_t)id) : g_ptr_array_new();
	guint i;

	json_builder_set_member_name(b, "history");
	json_builder_begin_object(b);
	json_int_or_null(b, "id", id);
	tool_json_str(b, "name", in->opt.history_name);
	json_builder_set_member_name(b, "values");
	json_builder_begin_array(b);
	for (i = 0; i < h->len; i++)
		json_nvs_ate(b, in, g_ptr_array_index(h, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	g_ptr_array_free(h, TRUE);
}

static void json_settings(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "settings");
	json_builder_begin_array(b);
	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);
		char *name = setting_name_utf8(s);

		json_builder_begin_object(b);
		tool_json_str(b, "name", name);
		json_setting_value(b, s->name_id, s->value);
		json_builder_end_object(b);
		g_free(name);
	}
	json_builder_end_array(b);
}

static void json_salvage(JsonBuilder *b, const struct inspect *in)
{
	guint i;

	json_builder_set_member_name(b, "salvage");
	json_builder_begin_array(b);
	for (i = 0; i < in->salvage->len; i++) {
		const struct salvage_rec *s = &g_array_index(in->salvage, struct salvage_rec, i);

		json_builder_begin_object(b);
		tool_json_str(b, "kind", s->kind);
		json_addr(b, in, "addr", s->addr);
		if (s->has_id)
			json_id(b, in, "id", s->id);
		else
			tool_json_str(b, "id", NULL);
		json_int(b, "len", (gint64)g_bytes_get_size(s->value));
		json_hex(b, "data", s->value);
		json_bool(b, "verified", FALSE);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_verdict(JsonBuilder *b, const struct inspect *in, guint i)
{
	const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);

	json_builder_begin_object(b);
	tool_json_str(b, "severity", severity_names[v->sev]);
	tool_json_str(b, "code", v->code);
	json_int_or_null(b, "sector", v->sector);
	json_int_or_null(b, "offset", v->offset);
	tool_json_str(b, "message", v->message);
	json_builder_end_object(b);
}

/* The members every document starts with (the object is left open). */
void json_head(JsonBuilder *b, const struct inspect *in)
{
	json_builder_begin_object(b);
	json_int(b, "schema", 1);
	tool_json_str(b, "file", in->path);
	json_int(b, "file_size", (gint64)in->input.len);
	tool_json_str(b, "input_format", tool_image_format_name(in->image.format));
	json_int(b, "image_base", (gint64)in->image_base);
	json_int(b, "image_size", (gint64)in->file_len);
}

void json_data_crc(JsonBuilder *b, const struct inspect *in, gboolean enabled, const char *reason)
{
	json_builder_set_member_name(b, "data_crc");
	json_builder_begin_object(b);
	tool_json_str(b, "mode", in->opt.data_crc ? in->opt.data_crc : "auto");
	json_bool(b, "enabled", enabled);
	tool_json_str(b, "reason", reason);
	json_builder_end_object(b);
}

/* A setting's members after its name: name_id, value (hex), text (or null). */
void json_setting_value(JsonBuilder *b, gint64 name_id, GBytes *value)
{
	gsize n;
	const char *p = g_bytes_get_data(value, &n);
	char *text = printable(value) ? tool_esc_utf8(p, (gssize)n) : NULL;

	json_int(b, "name_id", name_id);
	json_hex(b, "value", value);
	tool_json_str(b, "text", text);
	g_free(text);
}

/*
 * The members every document ends with, then the document printed: the
 * verdicts, and the array of ates (whose member the caller added as null),
 * streamed.
 */
void json_end(JsonBuilder *b, struct inspect *in, const struct tool_json_stream *ates)
{
	struct array_stream verdicts = { in, 0, in->verdicts->len, json_verdict };
	struct tool_json_stream streams[2];
	gsize n = 0;

	if (ates)
		streams[n++] = *ates;
	streams[n++] = (struct tool_json_stream){ "verdicts", next_element, &verdicts };
	tool_json_str(b, "verdicts", NULL);
	json_int(b, "errors", in->errors);
	json_int(b, "warnings", in->warnings);
	json_builder_end_object(b);
	tool_json_print_stream(b, streams, n);
}

static const struct json_views nvs_views = { json_geometry, json_nvs_sectors, json_nvs_sector,
					     json_nvs_mount, json_nvs_ates, json_nvs_ate_at,
					     json_nvs_history };

/* Every ATE and every verdict can be many: those arrays are streamed. */
void print_json(struct inspect *in)
{
	const struct json_views *v = in->zms ? &zms_json_views : &nvs_views;
	JsonBuilder *b = json_builder_new();
	struct array_stream ates = { in, 0, 0, v->ate };
	const struct tool_json_stream ates_stream = { "ates", next_element, &ates };

	json_head(b, in);
	if (in->zms)
		tool_json_str(b, "format_kind", "zms");
	if (in->have_dt)
		json_partition(b, in);
	v->geometry(b, in);
	if (in->opt.summary)
		json_summary(b, in, v);
	if (in->opt.live)
		json_live(b, in);
	if (in->opt.ates) {
		ates.len = v->ates(in);
		tool_json_str(b, "ates", NULL);
	}
	if (in->opt.history)
		v->history(b, in);
	if (in->opt.settings)
		json_settings(b, in);
	if (in->opt.salvage)
		json_salvage(b, in);
	json_end(b, in, in->opt.ates ? &ates_stream : NULL);
}

/* A blank partition: the document says so, with no views and no verdicts. */
void print_json_blank(struct inspect *in, uint32_t offset, size_t n, unsigned value)
{
	JsonBuilder *b = json_builder_new();

	json_head(b, in);
	json_builder_set_member_name(b, "blank");
	json_builder_begin_object(b);
	json_int(b, "offset", offset);
	json_int(b, "bytes", (gint64)n);
	json_int(b, "erase_value", value);
	json_builder_end_object(b);
	json_end(b, in, NULL);
}
