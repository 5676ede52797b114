/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms.c - nvs-inspect on a ZMS partition: libcore's fc_zms_walk over the
 * dump (read-only device), fc_zms_mount on a private copy (what a mount
 * changes, its write position and free space), the entries it reads back,
 * the settings_zms names through fc_settings_zms_scan and an id's history
 * through fc_zms_read_hist.
 */
#include "zms_inspect.h"

#include <stdlib.h>
#include <string.h>

#include "fdtcache/settings_zms.h"

static uint32_t addr_shift(const struct zms_inspect *z)
{
	uint32_t s = 0;

	while ((1u << s) < z->sector_size)
		s++;
	return s;
}

uint32_t zms_addr_sector(const struct zms_inspect *z, uint32_t addr)
{
	return addr >> addr_shift(z);
}

uint32_t zms_addr_offset(const struct zms_inspect *z, uint32_t addr)
{
	return addr & ((1u << addr_shift(z)) - 1u);
}

uint32_t zms_addr(const struct zms_inspect *z, uint32_t sector, uint32_t offset)
{
	return sector << addr_shift(z) | offset;
}

char *zms_addr_text(const struct zms_inspect *z, uint32_t addr)
{
	return g_strdup_printf("%u:0x%04x", zms_addr_sector(z, addr), zms_addr_offset(z, addr));
}

char *zms_id_text(const struct zms_inspect *z, fc_zms_id_t id)
{
	return z->id64 ? g_strdup_printf("0x%016" G_GINT64_MODIFIER "x", (guint64)id)
		       : g_strdup_printf("0x%08x", (uint32_t)id);
}

/* The value bytes an ATE points at outside itself (NULL: inline or out of the sector). */
GBytes *zms_ate_value(const struct zms_inspect *z, const struct fc_zms_ate_info *a)
{
	uint32_t inline_max = z->id64 ? 4 : 8;

	if (a->len <= inline_max || a->status == FC_ZMS_ATE_GC_DONE ||
	    (uint64_t)a->offset + a->len > z->sector_size)
		return NULL;
	return g_bytes_new(z->part + (size_t)zms_addr_sector(z, a->addr) * z->sector_size +
			   a->offset, a->len);
}

/* ---- the walk of the dump ---- */

static int walk_sector(void *ctx, const struct fc_zms_sector_info *si)
{
	struct zms_inspect *z = ctx;

	if (si->sector < z->sectors)
		g_array_index(z->sectors_info, struct fc_zms_sector_info, si->sector) = *si;
	return 0;
}

static int walk_ate(void *ctx, const struct fc_zms_ate_info *a)
{
	struct zms_inspect *z = ctx;

	g_array_append_val(z->ates, *a);
	return 0;
}

static void zms_walk_dump(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	struct fc_zms_walk_ops ops = { walk_sector, walk_ate };
	struct fc_zms_config cfg = zms_inspect_config(z, &z->rom.dev, z->slots, z->nslots);
	uint32_t s;

	g_array_set_size(z->sectors_info, z->sectors);
	for (s = 0; s < z->sectors; s++)
		g_array_index(z->sectors_info, struct fc_zms_sector_info, s).sector = s;
	z->walk_rc = fc_zms_walk(&cfg, &ops, z);
	if (z->walk_rc < 0)
		verdict(in, SEV_ERROR, "walk-fails", -1, -1, "the read-only walk fails: %s",
			fc_strerror(z->walk_rc));
}

/* ---- the mount of a copy ---- */

static void zms_describe_change(struct inspect *in, uint32_t s)
{
	struct zms_inspect *z = in->zms;
	uint32_t ss = z->sector_size;
	const uint8_t *b = z->copy + (size_t)s * ss;
	struct sector_diff d;

	if (!sector_diff(z->part + (size_t)s * ss, b, ss, z->erase_value, &d))
		return;
	if (z->copy_dev.erased[s] && zms_slot_erased(b, ss - z->ate_size, z->erase_value))
		g_ptr_array_add(in->actions, g_strdup_printf("erase sector %u and write its empty "
							     "ATE", s));
	else if (z->copy_dev.erased[s])
		g_ptr_array_add(in->actions, g_strdup_printf("erase sector %u and write it again, "
							     "%u bytes differing (a garbage "
							     "collection redone)", s, d.differing));
	else
		add_write_action(in, s, d.differing, &d);
}

static void zms_mount_copy(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	struct fc_zms_config cfg;
	uint32_t s;

	copy_flash_init(&z->copy_dev, &z->fgeo, z->copy, z->sectors);
	cfg = zms_inspect_config(z, &z->copy_dev.dev, z->index, z->nslots);
	in->mount_rc = fc_zms_mount(&z->fs, &cfg);
	for (s = 0; s < z->sectors; s++)
		zms_describe_change(in, s);
	if (mount_failed(in))
		return;
	z->free_space = fc_zms_calc_free_space(&z->fs);
	z->active_free = fc_zms_active_sector_free_space(&z->fs);
}

/* ---- reads back ---- */

static int by_id(gconstpointer pa, gconstpointer pb)
{
	fc_zms_id_t a = ((const struct live_entry *)pa)->id, b = ((const struct live_entry *)pb)->id;

	return a < b ? -1 : a > b;
}

static void zms_read_live(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	GHashTable *seen = g_hash_table_new(g_int64_hash, g_int64_equal);
	uint8_t *buf = g_malloc(z->sector_size);
	guint i;

	/* candidates: every id with a valid ATE in the dump; the reads decide */
	for (i = 0; i < z->ates->len; i++) {
		struct fc_zms_ate_info *a = &g_array_index(z->ates, struct fc_zms_ate_info, i);

		if (a->status == FC_ZMS_ATE_BAD || a->status == FC_ZMS_ATE_GC_DONE ||
		    g_hash_table_contains(seen, &a->id))
			continue;
		g_hash_table_add(seen, &a->id);
		add_live(in, a->id, fc_zms_read(&z->fs, a->id, buf, z->sector_size), buf,
			 z->sector_size);
	}
	g_array_sort(in->live, by_id);
	g_hash_table_destroy(seen);
	g_free(buf);
}

static int setting_pair(void *ctx, const struct fc_settings_zms_entry *e)
{
	return add_setting(ctx, e->name, e->name_len, e->name_id, e->value, e->value_read);
}

static const char *problem_text(enum fc_settings_zms_problem_kind k)
{
	static const char *const texts[] = {
		[FC_SETTINGS_ZMS_NO_HEAD] = "no list head at id 0x80000000 (settings_backend_init writes one)",
		[FC_SETTINGS_ZMS_ORPHAN_NODE] = "list node without its name or value (a load deletes it)",
		[FC_SETTINGS_ZMS_BAD_PREVIOUS] = "list node's previous link is wrong (init repairs it)",
		[FC_SETTINGS_ZMS_DANGLING_NEXT] = "list node's next link names a missing node (init ends the list there)",
		[FC_SETTINGS_ZMS_BAD_NODE] = "list node is not 8 bytes, or the list loops",
		[FC_SETTINGS_ZMS_READ_ERROR] = "read fails",
	};

	return name_of(texts, G_N_ELEMENTS(texts), k);
}

static int setting_problem(void *ctx, const struct fc_settings_zms_problem *p)
{
	struct inspect *in = ctx;
	struct zms_inspect *z = in->zms;

	if (p->kind == FC_SETTINGS_ZMS_NO_HEAD) {
		z->settings_head = false;
		return 0;
	}
	if (p->kind == FC_SETTINGS_ZMS_READ_ERROR)
		verdict(in, SEV_ERROR, "settings-read", -1, -1, "settings id 0x%08x: %s: %s", p->id,
			problem_text(p->kind), fc_strerror(p->err));
	else
		verdict(in, SEV_WARNING, p->kind == FC_SETTINGS_ZMS_ORPHAN_NODE ? "settings-orphan"
			: "settings-list", -1, -1, "settings id 0x%08x: %s", p->id,
			problem_text(p->kind));
	return 0;
}


/*
 * Live ids of the settings range (top bit set) that the list does not reach
 * from its head: a first save cut before the previous node was relinked
 * leaves its value and node so; settings_load never delivers them.
 */
static void check_unlinked(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	GHashTable *reached = g_hash_table_new(g_direct_hash, g_direct_equal);
	guint i;

	g_hash_table_add(reached, GUINT_TO_POINTER(FC_SETTINGS_ZMS_HEAD));
	for (i = 0; i < in->settings->len; i++) {
		uint32_t id = g_array_index(in->settings, struct setting, i).name_id;

		g_hash_table_add(reached, GUINT_TO_POINTER(id));
		g_hash_table_add(reached, GUINT_TO_POINTER(id | 1u));
		g_hash_table_add(reached, GUINT_TO_POINTER(id + FC_SETTINGS_ZMS_VALUE_OFFSET));
	}
	for (i = 0; i < z->ates->len; i++) {
		const struct fc_zms_ate_info *a = &g_array_index(z->ates, struct fc_zms_ate_info, i);

		if (a->status != FC_ZMS_ATE_LIVE || a->id < FC_SETTINGS_ZMS_HEAD ||
		    g_hash_table_contains(reached, GUINT_TO_POINTER((uint32_t)a->id)))
			continue;
		verdict(in, SEV_WARNING, "settings-unlinked", (int)zms_addr_sector(z, a->addr),
			zms_addr_offset(z, a->addr),
			"settings id 0x%08x is stored but the list from 0x80000000 does not reach "
			"it (a first save cut before the previous node was linked): a load never "
			"delivers it", (uint32_t)a->id);
	}
	g_hash_table_destroy(reached);
}

static void zms_read_settings(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	struct fc_settings_zms_scan_ops ops = { setting_pair, setting_problem };
	uint8_t *buf = g_malloc(z->sector_size);
	int rc;

	z->settings_head = !z->id64;
	if (z->id64) {
		g_free(buf);
		return; /* settings_zms needs 32-bit ids */
	}
	rc = fc_settings_zms_scan(&z->fs, buf, z->sector_size, &ops, in);
	if (z->settings_head && in->actions->len == 0)
		check_unlinked(in);
	g_array_sort(in->settings, setting_by_name);
	if (rc < 0)
		verdict(in, SEV_ERROR, "settings-scan", -1, -1, "settings scan fails: %s",
			fc_strerror(rc));
	g_free(buf);
}

/* --history ID|NAME: the id (a setting's value id for a name). */
static void history_target(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	const char *h = in->opt.history;
	guint i;

	if (g_ascii_isdigit(*h)) {
		char *end;
		guint64 v = g_ascii_strtoull(h, &end, 0);

		z->history_ok = !*end && (z->id64 || v <= G_MAXUINT32);
		z->history_id = v;
		return;
	}
	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);

		if (!strcmp(s->name, h)) {
			z->history_ok = true;
			z->history_id = (fc_zms_id_t)s->name_id + FC_SETTINGS_ZMS_VALUE_OFFSET;
		}
	}
}

struct zms_inspect *zms_inspect_new(void)
{
	struct zms_inspect *z = g_new0(struct zms_inspect, 1);

	z->sectors_info = g_array_new(FALSE, TRUE, sizeof(struct fc_zms_sector_info));
	z->ates = g_array_new(FALSE, FALSE, sizeof(struct fc_zms_ate_info));
	z->history = g_array_new(FALSE, FALSE, sizeof(struct zms_hist));
	return z;
}

void zms_inspect_free(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	guint i;

	if (!z)
		return;
	for (i = 0; i < z->history->len; i++)
		if (g_array_index(z->history, struct zms_hist, i).value)
			g_bytes_unref(g_array_index(z->history, struct zms_hist, i).value);
	g_array_free(z->history, TRUE);
	g_array_free(z->sectors_info, TRUE);
	g_array_free(z->ates, TRUE);
	g_free(z->slots);
	g_free(z->index);
	g_free(z->owned);
	copy_flash_free(&z->copy_dev);
	g_free(z);
	in->zms = NULL;
}

/* The walk's ATEs of the id, newest first, with the values libcore reads for them. */
static void zms_read_history(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	uint8_t *buf = g_malloc(z->sector_size);
	uint32_t n = 0;
	guint i;

	for (i = 0; z->history_ok && in->mount_rc >= 0 && i < z->ates->len; i++) {
		const struct fc_zms_ate_info *a = &g_array_index(z->ates, struct fc_zms_ate_info, i);
		struct zms_hist h = { *a, 0, NULL };

		if (a->id != z->history_id || a->status == FC_ZMS_ATE_BAD ||
		    a->status == FC_ZMS_ATE_GC_DONE)
			continue;
		h.rc = fc_zms_read_hist(&z->fs, z->history_id, buf, z->sector_size, n++);
		if (h.rc >= 0)
			h.value = g_bytes_new(buf, MIN((uint32_t)h.rc, z->sector_size));
		g_array_append_val(z->history, h);
	}
	g_free(buf);
}

/* Everything but the views (inspect_analyze's ZMS branch): returns 0. */
int zms_analyze(struct inspect *in)
{
	const struct options *o = &in->opt;

	zms_walk_dump(in);
	zms_mount_copy(in);
	if (in->mount_rc >= 0 && o->live)
		zms_read_live(in);
	/* --check too: the settings list has failure modes of its own */
	if (in->mount_rc >= 0 &&
	    (o->settings || o->check || (o->history && !g_ascii_isdigit(*o->history))))
		zms_read_settings(in);
	if (o->history) {
		history_target(in);
		zms_read_history(in);
	}
	zms_check(in);
	tally_verdicts(in);
	return 0;
}
