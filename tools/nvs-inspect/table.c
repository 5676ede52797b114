/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * table.c - the views as text tables (every input byte escaped).
 */
#include "inspect.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/escape.h"
#include "zms_inspect.h"

void table_heading(const struct inspect *in, const char *title)
{
	if (view_count(&in->opt) > 1)
		printf("\n== %s\n", title);
}

static void wb_options_text(GString *s, uint32_t mask)
{
	uint32_t w;
	bool first = true;

	for (w = 1; w <= 32; w <<= 1)
		if (mask & w) {
			g_string_append_printf(s, first ? "%u" : ", %u", w);
			first = false;
		}
}

#define COLUMNS 80

/*
 * A line of text wrapped at spaces to COLUMNS (continuation lines indented
 * by indent + 2) when wrap.
 */
static void print_wrapped(const char *text, int indent, bool wrap)
{
	const char *p = text;

	while (wrap && strlen(p) + (size_t)(p == text ? 0 : indent + 2) > COLUMNS) {
		size_t room = COLUMNS - (size_t)(p == text ? 0 : indent + 2), cut = room;

		while (cut > 0 && p[cut] != ' ')
			cut--;
		if (cut == 0)
			break;
		printf("%*s%.*s\n", p == text ? 0 : indent + 2, "", (int)cut, p);
		p += cut + 1;
	}
	printf("%*s%s\n", p == text ? 0 : indent + 2, "", p);
}

/* A line of prose: wrapped unless --wide. */
void para(const struct inspect *in, int indent, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	print_wrapped(text, indent, !in->opt.wide);
	g_free(text);
}

/* The input and where the partition is in it: the lines both formats' summaries start with. */
void table_image(const struct inspect *in)
{
	if (in->image.format == TOOL_IMAGE_RAW)
		printf("image: %s (%" G_GSIZE_FORMAT " bytes)\n", in->input.name, in->file_len);
	else
		para(in, 0, "image: %s (%s, %u records, %" G_GSIZE_FORMAT " bytes at 0x%08"
		     G_GINT64_MODIFIER "x)", in->input.name, tool_image_format_title(in->image.format),
		     in->image.records, in->file_len, in->image_base);
	if (in->scanned && in->region.zms)
		para(in, 0, "partition: found by the scan at 0x%zx, %zu bytes (%u sector%s with a "
		     "ZMS header, %u erased at the end%s)", in->region.offset, in->region.size,
		     in->region.closed, in->region.closed == 1 ? "" : "s", in->region.erased_after,
		     in->region.size_guessed ? "; only erased bytes follow, so the size is a guess "
					       "and free space with it" : ", up to other data");
	else if (in->scanned)
		para(in, 0, "partition: found by the scan at 0x%zx, %zu bytes (%u sectors that look "
		     "closed, %u open, %u erased at the end%s)", in->region.offset, in->region.size,
		     in->region.closed, in->region.open, in->region.erased_after,
		     in->region.size_guessed ? "; only erased bytes follow, so the size is a guess "
					       "and free space with it" : ", up to other data");
	if (in->have_dt)
		para(in, 0, "partition: %s (%s) at 0x%08" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT
		     " bytes, from the devicetree; erase block %u, write block %u", in->dt.label,
		     in->dt.path, in->dt.flash_base + in->dt.offset, in->dt.size, in->dt.erase_block,
		     in->dt.write_block);
}

static void table_geometry(const struct inspect *in)
{
	const struct nvs_geometry_report *r = &in->geo;
	GString *wb = g_string_new(NULL);

	table_image(in);
	/* one line, whatever its length: scripts read it */
	printf("geometry: offset %u, %u sectors of %u bytes, write block %u, erase value 0x%02x\n",
	       r->geo.offset, r->geo.sector_count, r->geo.sector_size, r->geo.write_block,
	       r->geo.erase_value);
	if (r->sector_conf == NVS_CONF_GIVEN)
		printf("  sector size: given\n");
	else
		para(in, 2, "  sector size: detected, %s (%u close ATEs, %u gc_done ATEs, %u ATEs on "
		     "sector stacks; score %ld, next best %u-byte sectors with %u-byte slots: %ld)",
		     nvs_confidence_name(r->sector_conf), r->close_ates, r->gc_done_ates, r->ates,
		     r->score, r->runner_up_sector_size, r->runner_up_ate_size, r->runner_up_score);
	wb_options_text(wb, r->wb_options);
	if (r->wb_conf == NVS_CONF_GIVEN)
		printf("  write block: given (ATE slot %u)\n", r->geo.ate_size);
	else
		para(in, 2, "  write block: detected, %s (ATE slot %u; %s fit the spacing of %u "
		     "record pairs in %u of %u sectors)",
		     nvs_confidence_name(r->wb_conf), r->geo.ate_size, wb->str, r->wb_pairs,
		     r->wb_sectors, r->geo.sector_count);
	if (r->ev_conf == NVS_CONF_GIVEN)
		printf("  erase value: given\n");
	else
		para(in, 2, "  erase value: detected, %s (sectors with an erased close slot: %u as "
		     "0xff, %u as 0x00)",
		     nvs_confidence_name(r->ev_conf), r->ev_open[0], r->ev_open[1]);
	para(in, 0, "data crc: %s", in->crc_reason);
	g_string_free(wb, TRUE);
}

/* The write position and free space after the mount of the copy. */
static void table_mount(const struct inspect *in)
{
	printf("next write: sector %u (ATE at 0x%04x, data at 0x%04x)\n",
	       addr_sector(in->fs.ate_wra), addr_offset(in->fs.ate_wra),
	       addr_offset(in->fs.data_wra));
	printf("after mount: ate_wra=%u:0x%04x data_wra=%u:0x%04x free_space=%d\n",
	       addr_sector(in->fs.ate_wra), addr_offset(in->fs.ate_wra),
	       addr_sector(in->fs.data_wra), addr_offset(in->fs.data_wra),
	       in->zephyr_free >= 0 ? in->zephyr_free : in->free_space);
	if (in->zephyr_free < 0)
		para(in, 0, "free space: %d bytes (exact; Zephyr's O(n^2) count skipped for %u "
		     "ATEs in %zu bytes)", in->free_space, in->stack_ates, in->part_len);
	else if (in->zephyr_free != in->free_space)
		para(in, 0, "free space: %d bytes exactly; Zephyr reports %d (its count skips a "
		     "live entry whose id a torn ATE carries)", in->free_space, in->zephyr_free);
}

/* What the mount of the copy changed, a line each. */
static void table_actions(const struct inspect *in)
{
	guint i;

	if (in->actions->len == 0)
		printf("a mount changes nothing\n");
	for (i = 0; i < in->actions->len; i++)
		para(in, 0, "a mount would %s", (const char *)g_ptr_array_index(in->actions, i));
}

static void table_sectors(const struct inspect *in)
{
	guint i;

	printf("%-6s %-4s %-7s %-7s %6s %6s %7s %5s %6s %6s\n", "sector", "age", "state", "gc_done",
	       "live", "stale", "deleted", "bad", "used", "free");
	for (i = 0; i < in->sectors->len; i++) {
		const struct fc_nvs_sector_info *s = &g_array_index(in->sectors,
								    struct fc_nvs_sector_info, i);

		printf("%-6u %-4u %-7s %-7s %6u %6u %7u %5u %6u %6u\n", s->sector, s->age,
		       sector_state_name(s->state), s->gc_done ? "yes" : "no", s->live, s->stale,
		       s->deleted, s->bad, s->used_bytes, s->free_bytes);
	}
}

/* Verdicts on where the partition is, shown in the summary too. */
static bool summary_verdict(const char *code)
{
	return g_str_has_prefix(code, "layout-") || !strcmp(code, "blank") ||
	       !strcmp(code, "records-ignored") || g_str_has_prefix(code, "partition-");
}

static void table_summary(struct inspect *in, const struct table_views *v)
{
	guint i;

	table_heading(in, "summary");
	v->geometry(in);
	v->sectors(in);
	if (in->mount_rc < 0)
		para(in, 0, "mount: fails: %s", fc_strerror(in->mount_rc));
	else
		v->mount(in);
	table_actions(in);
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *vd = &g_array_index(in->verdicts, struct verdict, i);

		if (v->summary_verdict(vd->code))
			para(in, 2, "%s: %s", severity_names[vd->sev], vd->message);
	}
}

static void table_live(struct inspect *in)
{
	guint i;

	table_heading(in, "live entries (what a mount reads back)");
	for (i = 0; i < in->live->len; i++) {
		const struct live_entry *e = &g_array_index(in->live, struct live_entry, i);
		char *id = id_text(in, e->id), *hex;

		if (e->rc < 0) {
			printf("# id=%s read fails: %s\n", id, fc_strerror(e->rc));
		} else {
			hex = bytes_hex(e->value);
			printf("id=%s len=%d data=%s\n", id, e->rc, hex);
			g_free(hex);
		}
		g_free(id);
	}
}

/*
 * Mostly printable: worth a text line (names of settings, strings). Only
 * the bytes the line can show are judged (each takes at least a column).
 */
static bool mostly_printable(const struct inspect *in, const uint8_t *p, gsize n)
{
	gsize i, k = 0;

	if (!in->opt.wide)
		n = MIN(n, (gsize)COLUMNS);
	for (i = 0; i < n; i++)
		k += p[i] >= 0x20 && p[i] <= 0x7e;
	return n && 2 * k >= n;
}

/*
 * The value as escaped text on a line of its own under its ATE row, cut at
 * a whole escape so the line fits 80 columns (the whole value with --wide).
 * more: the ATE's value goes on past these n bytes.
 */
static void ate_text_line(const struct inspect *in, const uint8_t *p, gsize n, bool more)
{
	const gsize indent = 10, room = COLUMNS - indent - sizeof("text \"\"...") + 1;
	GString *t = g_string_new(NULL);
	gsize i, before;

	for (i = 0; i < n; i++) {
		before = t->len;
		tool_esc_append(t, p + i, 1, TOOL_ESC_QUOTE);
		if (!in->opt.wide && t->len > room) {
			g_string_truncate(t, before);
			break;
		}
	}
	printf("%*s%s \"%s\"%s\n", (int)indent, "", "text", t->str, i < n || more ? "..." : "");
	g_string_free(t, TRUE);
}

static void table_ates(struct inspect *in)
{
	guint i;

	table_heading(in, "ATEs (flash order: sector by sector, in write order)");
	g_array_sort(in->ates, ate_by_flash_order);
	printf("%-9s %-6s %-6s %-5s %-4s %-4s %-13s %s\n", "addr", "id", "offset", "len", "part",
	       "crc8", "status", "data");
	for (i = 0; i < in->ates->len; i++) {
		const struct ate_rec *r = &g_array_index(in->ates, struct ate_rec, i);
		size_t n;
		const uint8_t *d = ate_bytes(in, &r->info, &n);
		bool crc_bad = value_crc_state(in, &r->info) == 0;
		/* 80 columns: fewer value bytes when the row says its CRC is bad */
		gsize preview = in->opt.wide ? HEX_PREVIEW_WIDE : crc_bad ? HEX_PREVIEW / 2 - 1 : HEX_PREVIEW;
		char *addr = addr_text(r->info.addr), *hex = d ? hex_of(d, MIN(n, preview)) : NULL;

		printf("%-9s 0x%04x 0x%04x %-5u 0x%02x 0x%02x %-13s %s%s%s\n", addr, r->info.id,
		       r->info.offset, r->info.len, r->info.part, r->info.crc8,
		       ate_status_name(r->info.status), hex ? hex : "",
		       d && r->info.len > preview ? "..." : "", crc_bad ? " (data crc bad)" : "");
		if (d && mostly_printable(in, d, n))
			ate_text_line(in, d, n, r->info.len > n);
		g_free(addr);
		g_free(hex);
	}
}

static void table_history(struct inspect *in)
{
	uint16_t id = (uint16_t)in->opt.history_id;
	GPtrArray *h = in->opt.history_id >= 0 ? history_of(in, id) : g_ptr_array_new();
	char *name = in->opt.history_name ? tool_esc_name(in->opt.history_name) : NULL;
	char *title = name ? g_strdup_printf("history of %s (id 0x%04x, %u stored, newest first)",
					     name, id, h->len)
			   : g_strdup_printf("history of id 0x%04x (%u stored, newest first)", id, h->len);
	guint i;

	if (in->opt.history_id < 0) {
		g_free(title);
		title = g_strdup_printf("history of %s", name);
	}
	table_heading(in, title);
	if (in->opt.history_id < 0)
		printf("no setting named %s in the image (%u settings)\n", name, in->settings->len);
	else if (h->len == 0)
		printf("no value of id 0x%04x is stored in the image\n", id);
	for (i = 0; i < h->len; i++) {
		const struct ate_rec *r = g_ptr_array_index(h, i);
		size_t n;
		const uint8_t *d = ate_bytes(in, &r->info, &n);
		char *addr = addr_text(r->info.addr), *hex = d ? hex_of(d, n) : g_strdup("");

		printf("%s %-7s len=%u data=%s\n", addr, ate_status_name(r->info.status), r->info.len,
		       hex);
		g_free(addr);
		g_free(hex);
	}
	g_free(title);
	g_free(name);
	g_ptr_array_free(h, TRUE);
}

static void table_settings(struct inspect *in)
{
	guint i;

	table_heading(in, "settings (by name: name = value; \"text\" or hex)");
	if (in->settings->len == 0 && in->zms)
		printf("no settings in the image (%s)\n", zms_no_settings_why(in));
	else if (in->settings->len == 0)
		printf("no settings in the image (no settings_nvs name at ids 0x8001..0xbfff%s)\n",
		       in->mount_rc < 0 ? "; a mount fails" : "");
	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);
		char *v = value_text(s->value), *name = setting_name_text(s);

		printf("%s = %s\n", name, v);
		g_free(name);
		g_free(v);
	}
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);

		if (g_str_has_prefix(v->code, "settings-"))
			printf("! %s\n", v->message);
	}
}

static void table_salvage(struct inspect *in)
{
	guint i;

	table_heading(in, "salvage (UNVERIFIED values from damaged regions)");
	for (i = 0; i < in->salvage->len; i++) {
		const struct salvage_rec *s = &g_array_index(in->salvage, struct salvage_rec, i);
		char *addr = place_text(in, s->addr), *hex = bytes_hex(s->value);
		char *id = s->has_id ? id_text(in, s->id) : NULL;

		printf("unverified %s at %s: %s%s%slen=%" G_GSIZE_FORMAT " data=%s\n", s->kind, addr,
		       id ? "id=" : "", id ? id : "", id ? " " : "", g_bytes_get_size(s->value), hex);
		g_free(id);
		g_free(addr);
		g_free(hex);
	}
	if (in->salvage->len == 0)
		printf("nothing to salvage\n");
}

/*
 * A verdict on one line, for grep; on a terminal (and without --wide)
 * wrapped to 80 columns, continuation lines indented under the code.
 */
void table_check(const struct inspect *in)
{
	bool wrap = !in->opt.wide && isatty(STDOUT_FILENO);
	guint i;

	table_heading(in, "check");
	for (i = 0; i < in->verdicts->len; i++) {
		const struct verdict *v = &g_array_index(in->verdicts, struct verdict, i);
		GString *line = g_string_new(NULL);

		g_string_printf(line, "%-7s %-17s ", severity_names[v->sev], v->code);
		if (v->sector >= 0 && v->offset >= 0)
			g_string_append_printf(line, "sector %d offset 0x%04lx: ", v->sector, v->offset);
		else if (v->sector >= 0)
			g_string_append_printf(line, "sector %d: ", v->sector);
		else if (v->offset >= 0)
			g_string_append_printf(line, "image offset 0x%lx: ", v->offset);
		g_string_append(line, v->message);
		print_wrapped(line->str, 6, wrap);
		g_string_free(line, TRUE);
	}
	printf("%s: %d errors, %d warnings\n", in->input.name, in->errors, in->warnings);
}

static const struct table_views nvs_views = { table_geometry, table_sectors, table_mount,
					      summary_verdict, table_ates, table_history };

/* The views asked for, in a fixed order; the format's own and the shared ones. */
void print_table(struct inspect *in)
{
	const struct table_views *v = in->zms ? &zms_table_views : &nvs_views;

	if (in->opt.summary)
		table_summary(in, v);
	if (in->opt.live)
		table_live(in);
	if (in->opt.ates)
		v->ates(in);
	if (in->opt.history)
		v->history(in);
	if (in->opt.settings)
		table_settings(in);
	if (in->opt.salvage)
		table_salvage(in);
	if (in->opt.check)
		table_check(in);
}
