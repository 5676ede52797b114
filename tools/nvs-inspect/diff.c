/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * diff.c - what changed between two dumps of the same partition (--diff
 * OLD NEW): ids and settings added, changed (old and new value) and deleted,
 * sectors whose state or bytes changed (erased, garbage collected, written
 * into), and what a mount would do on each. Both dumps go through the same
 * analysis as a single one; this only compares its findings.
 */
#include "inspect.h"
#include "json_view.h"
#include "zms_inspect.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "common/escape.h"
#include "common/json.h"

enum change { ADDED, DELETED, CHANGED };

static const char *const change_names[] = { "added", "deleted", "changed" };

struct id_change {
	enum change kind;
	uint64_t id;
	GBytes *old, *new_; /* NULL when absent */
};

struct setting_change {
	enum change kind;
	const struct setting *name; /* its name */
	GBytes *old, *new_;
};

static bool same(GBytes *a, GBytes *b)
{
	return a && b && g_bytes_equal(a, b);
}

/* What two sorted lists differ in, one merge pass: emit(kind, old, new) per change. */
struct merge {
	const GArray *a, *b;
	int (*cmp)(gconstpointer x, gconstpointer y);
	GBytes *(*value)(gconstpointer x);
	void (*emit)(GArray *out, enum change kind, gconstpointer x, gconstpointer y);
	GArray *out;
};

static void merge(const struct merge *m)
{
	guint i = 0, j = 0, ea = g_array_get_element_size((GArray *)m->a);

	while (i < m->a->len || j < m->b->len) {
		gconstpointer x = i < m->a->len ? m->a->data + (gsize)i * ea : NULL;
		gconstpointer y = j < m->b->len ? m->b->data + (gsize)j * ea : NULL;
		int c = !x ? 1 : !y ? -1 : m->cmp(x, y);

		if (c < 0) {
			m->emit(m->out, DELETED, x, NULL);
			i++;
		} else if (c > 0) {
			m->emit(m->out, ADDED, NULL, y);
			j++;
		} else {
			if (!same(m->value(x), m->value(y)))
				m->emit(m->out, CHANGED, x, y);
			i++;
			j++;
		}
	}
}

static int live_cmp(gconstpointer x, gconstpointer y)
{
	const struct live_entry *a = x, *b = y;

	return a->id < b->id ? -1 : a->id > b->id;
}

static GBytes *live_value(gconstpointer x)
{
	return ((const struct live_entry *)x)->value;
}

static void emit_id(GArray *out, enum change kind, gconstpointer x, gconstpointer y)
{
	const struct live_entry *a = x, *b = y;
	struct id_change c = { kind, a ? a->id : b->id, a ? a->value : NULL, b ? b->value : NULL };

	g_array_append_val(out, c);
}

static GBytes *setting_value(gconstpointer x)
{
	return ((const struct setting *)x)->value;
}

static void emit_setting(GArray *out, enum change kind, gconstpointer x, gconstpointer y)
{
	const struct setting *a = x, *b = y;
	struct setting_change c = { kind, a ? a : b, a ? a->value : NULL,
				    b ? b->value : NULL };

	g_array_append_val(out, c);
}

/* Live entries come in increasing ids, settings by name. */
static GArray *id_changes(const struct inspect *a, const struct inspect *b)
{
	struct merge m = { a->live, b->live, live_cmp, live_value, emit_id,
			   g_array_new(FALSE, FALSE, sizeof(struct id_change)) };

	merge(&m);
	return m.out;
}

static GArray *setting_changes(const struct inspect *a, const struct inspect *b)
{
	struct merge m = { a->settings, b->settings, setting_by_name, setting_value, emit_setting,
			   g_array_new(FALSE, FALSE, sizeof(struct setting_change)) };

	merge(&m);
	return m.out;
}

/* A sector as diff sees it, in either format (ZMS's unused is erased). */
struct sector_view {
	const char *state;
	bool erased, closed;
	const uint8_t *bytes;
};

static uint32_t sector_size(const struct inspect *in)
{
	return in->zms ? in->zms->sector_size : in->geo.geo.sector_size;
}

static guint sector_count(const struct inspect *in)
{
	return in->zms ? in->zms->sectors_info->len : in->sectors->len;
}

static struct sector_view sector_of(const struct inspect *in, guint s)
{
	struct sector_view v;

	if (in->zms) {
		const struct fc_zms_sector_info *i =
			&g_array_index(in->zms->sectors_info, struct fc_zms_sector_info, s);

		v.state = zms_sector_state_name(i->state);
		v.erased = i->state == FC_ZMS_SECTOR_UNUSED;
		v.closed = i->state == FC_ZMS_SECTOR_CLOSED;
		v.bytes = in->zms->part + (size_t)s * in->zms->sector_size;
	} else {
		const struct fc_nvs_sector_info *i =
			&g_array_index(in->sectors, struct fc_nvs_sector_info, s);

		v.state = sector_state_name(i->state);
		v.erased = i->state == FC_NVS_SECTOR_ERASED;
		v.closed = i->state == FC_NVS_SECTOR_CLOSED;
		v.bytes = sector_bytes(in, s);
	}
	return v;
}

static bool sector_bytes_differ(const struct inspect *a, const struct inspect *b, guint s)
{
	uint32_t ss = sector_size(a);

	return ss != sector_size(b) || memcmp(sector_of(a, s).bytes, sector_of(b, s).bytes, ss) != 0;
}

/* What happened to a sector in between, from its states and bytes. */
static const char *sector_story(const struct sector_view *x, const struct sector_view *y)
{
	if (y->erased)
		return "erased (garbage collected)";
	if (x->closed && !y->closed)
		return "erased and written again (garbage collected)";
	if (x->erased)
		return "written into";
	if (x->closed && y->closed)
		return "rewritten (garbage collected, then filled again)";
	return "written into";
}

/* The sectors whose bytes differ, with their states and story. */
static void sector_changes(const struct inspect *a, const struct inspect *b,
			   void (*emit)(void *ctx, guint s, const struct sector_view *x,
					const struct sector_view *y, const char *story),
			   void *ctx)
{
	guint s;

	for (s = 0; s < MIN(sector_count(a), sector_count(b)); s++) {
		struct sector_view x = sector_of(a, s), y = sector_of(b, s);

		if (sector_bytes_differ(a, b, s))
			emit(ctx, s, &x, &y, sector_story(&x, &y));
	}
}

/* An id's value as a change line shows it: data=HEX, data=- when absent. */
static char *data_text(GBytes *v)
{
	char *hex = v ? bytes_hex(v) : g_strdup("-");
	char *s = g_strconcat("data=", hex, NULL);

	g_free(hex);
	return s;
}

/*
 * One change a line: "changed LABEL WHAT SEP OLD -> NEW", else "added ...
 * NEW" or "deleted ... OLD". Frees what, o and n.
 */
static void print_change(enum change kind, const char *label, char *what, const char *sep,
			 char *o, char *n)
{
	if (kind == CHANGED)
		printf("changed %s%s%s%s -> %s\n", label, what, sep, o, n);
	else
		printf("%s %s%s%s%s\n", change_names[kind], label, what, sep, kind == ADDED ? n : o);
	g_free(what);
	g_free(o);
	g_free(n);
}

static void table_ids(const struct inspect *in, const GArray *ids)
{
	guint i;

	for (i = 0; i < ids->len; i++) {
		const struct id_change *c = &g_array_index(ids, struct id_change, i);

		print_change(c->kind, "id=", id_text(in, c->id), " ", data_text(c->old),
			     data_text(c->new_));
	}
}

static void table_settings_diff(const GArray *st)
{
	guint i;

	for (i = 0; i < st->len; i++) {
		const struct setting_change *c = &g_array_index(st, struct setting_change, i);

		print_change(c->kind, "setting ", setting_name_text(c->name), " = ",
			     c->old ? value_text(c->old) : g_strdup("-"),
			     c->new_ ? value_text(c->new_) : g_strdup("-"));
	}
}

static void table_mount_actions(const char *which, const struct inspect *in)
{
	guint i;

	if (in->mount_rc < 0)
		printf("%s: a mount fails: %s\n", which, fc_strerror(in->mount_rc));
	else if (in->actions->len == 0)
		printf("%s: a mount changes nothing\n", which);
	for (i = 0; i < in->actions->len; i++)
		printf("%s: a mount would %s\n", which, (const char *)g_ptr_array_index(in->actions, i));
}

static void table_sector(void *ctx, guint s, const struct sector_view *x,
			 const struct sector_view *y, const char *story)
{
	(void)ctx;
	printf("sector %u: %s -> %s: %s\n", s, x->state, y->state, story);
}

static void table_diff(const struct inspect *a, const struct inspect *b, const GArray *ids,
		       const GArray *st)
{
	guint s, n[3] = { 0, 0, 0 };

	printf("diff: %s -> %s\n", a->input.name, b->input.name);
	table_ids(a, ids);
	table_settings_diff(st);
	sector_changes(a, b, table_sector, NULL);
	table_mount_actions("old", a);
	table_mount_actions("new", b);
	for (s = 0; s < ids->len; s++)
		n[g_array_index(ids, struct id_change, s).kind]++;
	printf("%u ids added, %u changed, %u deleted; %u settings changed\n", n[ADDED], n[CHANGED],
	       n[DELETED], st->len);
}

/* The members every change has: its kind, the value before and after. */
static void json_change(JsonBuilder *b, enum change kind, GBytes *old, GBytes *new_)
{
	tool_json_str(b, "change", change_names[kind]);
	json_hex(b, "old", old);
	json_hex(b, "new", new_);
}

static void json_sector(void *ctx, guint s, const struct sector_view *x,
			const struct sector_view *y, const char *story)
{
	JsonBuilder *j = ctx;

	json_builder_begin_object(j);
	json_int(j, "sector", s);
	tool_json_str(j, "old_state", x->state);
	tool_json_str(j, "new_state", y->state);
	tool_json_str(j, "what", story);
	json_builder_end_object(j);
}

static void json_diff(const struct inspect *a, const struct inspect *b, const GArray *ids,
		      const GArray *st)
{
	JsonBuilder *j = json_builder_new();
	guint i;

	json_builder_begin_object(j);
	json_builder_set_member_name(j, "schema");
	json_builder_add_int_value(j, 1);
	tool_json_str(j, "old", a->path);
	tool_json_str(j, "new", b->path);
	json_builder_set_member_name(j, "ids");
	json_builder_begin_array(j);
	for (i = 0; i < ids->len; i++) {
		const struct id_change *c = &g_array_index(ids, struct id_change, i);

		json_builder_begin_object(j);
		json_id(j, a, "id", c->id);
		json_change(j, c->kind, c->old, c->new_);
		json_builder_end_object(j);
	}
	json_builder_end_array(j);
	json_builder_set_member_name(j, "settings");
	json_builder_begin_array(j);
	for (i = 0; i < st->len; i++) {
		const struct setting_change *c = &g_array_index(st, struct setting_change, i);

		char *name = setting_name_utf8(c->name);

		json_builder_begin_object(j);
		tool_json_str(j, "name", name);
		json_change(j, c->kind, c->old, c->new_);
		json_builder_end_object(j);
		g_free(name);
	}
	json_builder_end_array(j);
	json_builder_set_member_name(j, "sectors");
	json_builder_begin_array(j);
	sector_changes(a, b, json_sector, j);
	json_builder_end_array(j);
	json_actions(j, "mount_old", a);
	json_actions(j, "mount_new", b);
	json_builder_end_object(j);
	tool_json_print(j);
}

int inspect_diff(struct inspect *a, struct inspect *b)
{
	GArray *ids, *st;

	a->opt.live = b->opt.live = a->opt.settings = b->opt.settings = TRUE;
	if (inspect_analyze(a) || inspect_analyze(b))
		return 1; /* a blank dump cannot be compared sector by sector */
	if (!a->zms != !b->zms) {
		g_printerr("nvs-inspect: %s is %s, %s is %s: --diff compares two dumps of one "
			   "format\n", a->input.name, a->zms ? "ZMS" : "NVS", b->input.name,
			   b->zms ? "ZMS" : "NVS");
		return 1;
	}
	if (sector_size(a) != sector_size(b) || sector_count(a) != sector_count(b))
		g_printerr("nvs-inspect: warning: %s has %u sectors of %u bytes, %s %u of %u: not "
			   "the same partition?\n", a->input.name, sector_count(a), sector_size(a),
			   b->input.name, sector_count(b), sector_size(b));
	ids = id_changes(a, b);
	st = setting_changes(a, b);
	if (a->opt.format && !strcmp(a->opt.format, "json"))
		json_diff(a, b, ids, st);
	else
		table_diff(a, b, ids, st);
	g_array_free(ids, TRUE);
	g_array_free(st, TRUE);
	return 0;
}
