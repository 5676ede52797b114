/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_json.c - the ZMS views as one JSON object (schema 1 with
 * "format_kind": "zms"; README.md, "nvs-inspect JSON"). Ids are strings
 * ("0x%08x", 16 digits with 64-bit ids): a 64-bit id does not fit JSON
 * numbers.
 */
#include "zms_inspect.h"

#include <string.h>

#include "json_view.h"

#include "common/escape.h"
#include "common/json.h"

static const char *conf(enum nvs_confidence c)
{
	return nvs_confidence_name(c);
}

static void json_geometry(JsonBuilder *b, struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	const uint32_t g[6] = { z->offset, z->sector_size, z->sectors, z->write_block, z->ate_size,
				z->erase_value };

	json_geometry_begin(b, g);
	json_int(b, "id_bits", z->id64 ? 64 : 32);
	json_bool(b, "explicit_erase", !z->no_erase);
	tool_json_str(b, "sector_size_confidence", conf(z->ss_conf));
	tool_json_str(b, "write_block_confidence", conf(z->wb_conf));
	tool_json_str(b, "explicit_erase_confidence", conf(z->erase_conf));
	json_int(b, "sector_headers", z->headers);
	json_geometry_end(b, z->trailing, z->missing);
	json_data_crc(b, in, z->data_crc, z->crc_why);
}

static void json_mount(JsonBuilder *b, const struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	const struct fc_zms *fs = &z->fs;

	json_addr(b, in, "ate_wra", fs->ate_wra);
	json_addr(b, in, "data_wra", fs->data_wra);
	json_int(b, "open_sector", fc_zms_addr_sector(fs, fs->ate_wra));
	json_int(b, "sector_cycle", fs->sector_cycle);
	json_int(b, "free_space", z->free_space);
	json_int(b, "active_sector_free", z->active_free);
}

static guint json_sectors(const struct inspect *in)
{
	return in->zms->sectors_info->len;
}

static void json_sector(JsonBuilder *b, const struct inspect *in, guint i)
{
	const struct fc_zms_sector_info *s =
		&g_array_index(in->zms->sectors_info, struct fc_zms_sector_info, i);
	const uint32_t counts[4] = { s->live, s->stale, s->deleted, s->bad };
	bool used = s->state != FC_ZMS_SECTOR_UNUSED;

	json_sector_place(b, s->sector, s->age, zms_sector_state_name(s->state));
	json_bool(b, "in_log", s->in_log);
	json_int_or_null(b, "cycle", used ? s->cycle : -1);
	json_int(b, "close_cycle", s->close_cycle);
	json_int_or_null(b, "format", used ? s->format : -1);
	json_ate_counts(b, counts);
	json_int(b, "live_bytes", s->live_bytes);
}

static void json_ate(JsonBuilder *b, const struct inspect *in, const struct fc_zms_ate_info *a)
{
	const struct zms_inspect *z = in->zms;
	GBytes *d = zms_ate_value(z, a);
	bool crc = z->data_crc && d && a->status == FC_ZMS_ATE_LIVE;
	char *raw = hex_of(a->raw, sizeof(a->raw));

	json_addr(b, in, "addr", a->addr);
	json_int(b, "sector", zms_addr_sector(z, a->addr));
	json_int(b, "slot", zms_addr_offset(z, a->addr));
	json_id(b, in, "id", a->id);
	json_int(b, "len", a->len);
	json_int(b, "offset", a->offset);
	json_int(b, "cycle", a->cycle);
	tool_json_str(b, "status", zms_ate_status_name(a->status));
	tool_json_str(b, "raw", raw);
	json_hex(b, "data", d);
	tool_json_str(b, "data_crc", crc ? a->data_crc_ok ? "ok" : "bad" : NULL);
	g_free(raw);
	if (d)
		g_bytes_unref(d);
}

static guint json_ates(struct inspect *in)
{
	return in->zms->ates->len;
}

/* --ates in walk order, newest first */
static void json_ate_at(JsonBuilder *b, const struct inspect *in, guint i)
{
	json_builder_begin_object(b);
	json_ate(b, in, &g_array_index(in->zms->ates, struct fc_zms_ate_info, i));
	json_builder_end_object(b);
}

static void json_history(JsonBuilder *b, struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	guint i;

	json_builder_set_member_name(b, "history");
	json_builder_begin_object(b);
	if (z->history_ok)
		json_id(b, in, "id", z->history_id);
	else
		tool_json_str(b, "id", NULL);
	tool_json_str(b, "name", g_ascii_isdigit(*in->opt.history) ? NULL : in->opt.history);
	json_builder_set_member_name(b, "values");
	json_builder_begin_array(b);
	for (i = 0; i < z->history->len; i++) {
		const struct zms_hist *h = &g_array_index(z->history, struct zms_hist, i);

		json_builder_begin_object(b);
		json_ate(b, in, &h->ate);
		json_hex(b, "value", h->value);
		json_bool(b, "deleted", h->rc == FC_ENOENT);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

const struct json_views zms_json_views = { json_geometry, json_sectors, json_sector, json_mount,
					   json_ates, json_ate_at, json_history };
