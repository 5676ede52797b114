/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_table.c - the ZMS views as text (every input byte escaped): summary
 * with the sector map and cycle counters, live entries in the vectors'
 * format, ATEs, an id's history, settings, check.
 */
#include "zms_inspect.h"

#include <stdio.h>
#include <string.h>

#include "common/escape.h"

const char *zms_sector_state_name(enum fc_zms_sector_state s)
{
	static const char *const names[] = {
		[FC_ZMS_SECTOR_UNUSED] = "unused", [FC_ZMS_SECTOR_OPEN] = "open",
		[FC_ZMS_SECTOR_CLOSED] = "closed",
	};

	return name_of(names, G_N_ELEMENTS(names), s);
}

const char *zms_ate_status_name(enum fc_zms_ate_status s)
{
	static const char *const names[] = {
		[FC_ZMS_ATE_LIVE] = "live", [FC_ZMS_ATE_STALE] = "stale",
		[FC_ZMS_ATE_DELETED] = "deleted", [FC_ZMS_ATE_GC_DONE] = "gc_done",
		[FC_ZMS_ATE_BAD] = "bad",
	};

	return name_of(names, G_N_ELEMENTS(names), s);
}

/* "given", or "detected, certain" and the like. */
static const char *how(enum nvs_confidence c)
{
	static const char *const detected[] = {
		[NVS_CONF_GIVEN] = "given", [NVS_CONF_CERTAIN] = "detected, certain",
		[NVS_CONF_LIKELY] = "detected, likely", [NVS_CONF_WEAK] = "detected, weak",
	};

	return detected[c];
}

static void table_geometry(const struct inspect *in)
{
	const struct zms_inspect *z = in->zms;

	table_image(in);
	para(in, 0, "format: ZMS (%s; %u %s with an empty ATE carrying ZMS's 0x42 magic)",
	      in->opt.format_kind && !strcmp(in->opt.format_kind, "zms") ? "given" : "detected",
	      z->headers, z->headers == 1 ? "sector ends" : "sectors end");
	/* one line, whatever its length: scripts read it */
	printf("geometry: offset %u, %u sectors of %u bytes, write block %u, ATE slot %u, erase "
	       "value 0x%02x, %s ids, %s\n", z->offset, z->sectors, z->sector_size, z->write_block,
	       z->ate_size, z->erase_value, z->id64 ? "64-bit" : "32-bit",
	       z->no_erase ? "no explicit erase" : "explicit erase");
	para(in, 2, "  sector size: %s (%s)", how(z->ss_conf), z->ss_why);
	para(in, 2, "  write block: %s (%s)", how(z->wb_conf), z->wb_why);
	para(in, 2, "  device: %s, %s (%s)", z->no_erase ? "no explicit erase (RRAM, MRAM)" :
	      "erasable flash", how(z->erase_conf), z->erase_why);
	para(in, 0, "data crc: %s", z->crc_why);
	if (z->no_erase)
		para(in, 0, "wear: a sector's cycle counter advances by one (mod 256) each time "
		      "it is reused without an erase; the cycle column counts reuses modulo 256");
	else
		para(in, 0, "wear: an erase restarts a sector's cycle counter at 1, so the dump "
		      "holds no count of erases");
}

static void table_mount(const struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	const struct fc_zms *fs = &z->fs;

	printf("next write: sector %u (ATE at 0x%04x, data at 0x%04x), cycle %u\n",
	       fc_zms_addr_sector(fs, fs->ate_wra), fc_zms_addr_offset(fs, fs->ate_wra),
	       fc_zms_addr_offset(fs, fs->data_wra), fs->sector_cycle);
	printf("after mount: ate_wra=%u:0x%04x data_wra=%u:0x%04x sector_cycle=%u "
	       "free_space=%d active_sector_free=%d\n",
	       fc_zms_addr_sector(fs, fs->ate_wra), fc_zms_addr_offset(fs, fs->ate_wra),
	       fc_zms_addr_sector(fs, fs->data_wra), fc_zms_addr_offset(fs, fs->data_wra),
	       fs->sector_cycle, z->free_space, z->active_free);
}

/* The sector map with each sector's cycle counter (a wear readout). */
static void table_sectors(const struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	guint i;

	printf("%-6s %-4s %-7s %-6s %5s %6s %6s %7s %5s %7s\n", "sector", "age", "state", "log",
	       "cycle", "live", "stale", "deleted", "bad", "values");
	for (i = 0; i < z->sectors_info->len; i++) {
		const struct fc_zms_sector_info *s =
			&g_array_index(z->sectors_info, struct fc_zms_sector_info, i);
		char cycle[8] = "-";

		if (s->state != FC_ZMS_SECTOR_UNUSED)
			snprintf(cycle, sizeof(cycle), "%u", s->cycle);
		printf("%-6u %-4u %-7s %-6s %5s %6u %6u %7u %5u %7u\n", s->sector, s->age,
		       zms_sector_state_name(s->state), s->in_log ? "yes" : "no", cycle, s->live,
		       s->stale, s->deleted, s->bad, s->live_bytes);
	}
}

static bool summary_verdict(const char *code)
{
	return g_str_has_prefix(code, "partition-") || !strcmp(code, "trailing-bytes");
}

static int by_flash_order(gconstpointer pa, gconstpointer pb)
{
	const struct fc_zms_ate_info *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void table_ates(struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	GArray *sorted = g_array_copy(z->ates);
	gsize preview = in->opt.wide ? HEX_PREVIEW_WIDE : 16;
	guint i;

	table_heading(in, "ATEs (flash order; the raw 16 bytes hold an inline value)");
	printf("%-9s %-7s %-*s %5s %5s %s\n", "addr", "status", z->id64 ? 18 : 10, "id", "len",
	       "cycle", "ate");
	g_array_sort(sorted, by_flash_order);
	for (i = 0; i < sorted->len; i++) {
		const struct fc_zms_ate_info *a = &g_array_index(sorted, struct fc_zms_ate_info, i);
		char *addr = zms_addr_text(z, a->addr), *id = zms_id_text(z, a->id);
		char *raw = hex_of(a->raw, sizeof(a->raw));
		GBytes *d = zms_ate_value(z, a);

		printf("%-9s %-7s %-*s %5u %5u %s\n", addr, zms_ate_status_name(a->status),
		       z->id64 ? 18 : 10, id, a->len, a->cycle, raw);
		if (d) {
			gsize n;
			const uint8_t *p = g_bytes_get_data(d, &n);
			char *hex = hex_of(p, MIN(n, preview));

			printf("%9s value at 0x%04x: %s%s%s\n", "", a->offset, hex,
			       n > preview ? "..." : "",
			       z->data_crc && a->status == FC_ZMS_ATE_LIVE && !a->data_crc_ok
			       ? " (data crc bad)" : "");
			g_free(hex);
			g_bytes_unref(d);
		}
		g_free(addr);
		g_free(id);
		g_free(raw);
	}
	g_array_free(sorted, TRUE);
}

static void table_history(struct inspect *in)
{
	const struct zms_inspect *z = in->zms;
	char *name = tool_esc_name(in->opt.history), *id;
	guint i;

	if (!z->history_ok) {
		table_heading(in, "history");
		printf("no id or setting %s in the image (%u settings)\n", name, in->settings->len);
		g_free(name);
		return;
	}
	id = zms_id_text(z, z->history_id);
	table_heading(in, "history (newest first)");
	for (i = 0; i < z->history->len; i++) {
		const struct zms_hist *h = &g_array_index(z->history, struct zms_hist, i);
		char *addr = zms_addr_text(z, h->ate.addr);

		if (h->value) {
			char *hex = bytes_hex(h->value);

			printf("%s %-7s len=%d data=%s\n", addr, zms_ate_status_name(h->ate.status),
			       h->rc, hex);
			g_free(hex);
		} else {
			printf("%s %-7s %s\n", addr, zms_ate_status_name(h->ate.status),
			       h->rc == FC_ENOENT ? "deleted" : fc_strerror(h->rc));
		}
		g_free(addr);
	}
	if (z->history->len == 0)
		printf("no value of id %s is stored in the image\n", id);
	g_free(id);
	g_free(name);
}

const char *zms_no_settings_why(const struct inspect *in)
{
	return in->mount_rc < 0 ? "a mount fails"
	       : in->zms->id64 ? "settings_zms uses 32-bit ids"
	       : !in->zms->settings_head ? "no settings_zms list head at id 0x80000000"
	       : "the settings_zms list is empty";
}

const struct table_views zms_table_views = { table_geometry, table_sectors, table_mount,
					     summary_verdict, table_ates, table_history };
