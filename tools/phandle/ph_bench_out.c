/* SPDX-License-Identifier: BSD-2-Clause */
/* fdtcache-bench's table, CSV and JSON. */
#include "ph_bench.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "common/escape.h"
#include "common/json.h"

#define FIELD 32

enum column {
	COL_POLICY, COL_SIZE, COL_LOOKUPS, COL_HITS, COL_MISSES, COL_UNRESOLVED, COL_EVICTIONS,
	COL_SCAN_STEPS, COL_MEMORY, COL_NS, COL_EARLY, COL_UNCACHED, COL_COMPULSORY,
	COL_CAPACITY, COL_CONFLICT, COL_SLOTS_USED, COL_COUNT
};

static const char *const columns[COL_COUNT] = {
	"policy", "size", "lookups", "hits", "misses", "unresolved", "evictions", "scan_steps",
	"memory_bytes", "ns_per_lookup", "early", "uncached", "compulsory", "capacity",
	"conflict", "slots_used",
};

/* The table by default: within 80 columns. */
static const struct {
	enum column col;
	int width;
} narrow[] = {
	{ COL_POLICY, -8 }, { COL_SIZE, 4 }, { COL_MISSES, 7 }, { COL_EARLY, 5 },
	{ COL_UNCACHED, 8 }, { COL_COMPULSORY, 10 }, { COL_CAPACITY, 8 }, { COL_CONFLICT, 8 },
	{ COL_NS, 13 },
};

/* A configuration's fields as strings; ns_per_lookup is "" when not measured. */
static void fields(const struct ph_config *c, char out[COL_COUNT][FIELD])
{
	const struct fc_dt_replay_stats *s = &c->stats;

	g_strlcpy(out[COL_POLICY], ph_policy_names[c->policy], FIELD);
	g_snprintf(out[COL_SIZE], FIELD, "%u", c->size);
	g_snprintf(out[COL_LOOKUPS], FIELD, "%u", s->lookups);
	g_snprintf(out[COL_HITS], FIELD, "%u", s->hits);
	g_snprintf(out[COL_MISSES], FIELD, "%u", s->misses);
	g_snprintf(out[COL_UNRESOLVED], FIELD, "%u", s->unresolved);
	g_snprintf(out[COL_EVICTIONS], FIELD, "%u", s->evictions);
	g_snprintf(out[COL_SCAN_STEPS], FIELD, "%" G_GUINT64_FORMAT, s->scan_steps);
	g_snprintf(out[COL_MEMORY], FIELD, "%" G_GUINT64_FORMAT, ph_bench_memory(c));
	if (c->timed)
		g_snprintf(out[COL_NS], FIELD, "%.1f", c->ns_per_lookup);
	else
		out[COL_NS][0] = '\0';
	g_snprintf(out[COL_EARLY], FIELD, "%u", c->before_core_init);
	g_snprintf(out[COL_UNCACHED], FIELD, "%u", c->classes[PH_MISS_UNCACHED]);
	g_snprintf(out[COL_COMPULSORY], FIELD, "%u", c->classes[PH_MISS_COMPULSORY]);
	g_snprintf(out[COL_CAPACITY], FIELD, "%u", c->classes[PH_MISS_CAPACITY]);
	g_snprintf(out[COL_CONFLICT], FIELD, "%u", c->classes[PH_MISS_CONFLICT]);
	g_snprintf(out[COL_SLOTS_USED], FIELD, "%u", c->slots_used);
}

static const struct ph_config *config_at(const struct ph_bench *b, guint i)
{
	return &g_array_index(b->configs, struct ph_config, i);
}

/* The table's cells: a time measured on windows of the trace is marked '*'. */
static void table_fields(const struct ph_config *c, char out[COL_COUNT][FIELD])
{
	fields(c, out);
	if (c->timed_lookups)
		g_strlcat(out[COL_NS], "*", FIELD);
}

/* What the '*' of the table's times says, when one has it. */
static void print_windows_note(const struct ph_bench *b)
{
	guint lo = G_MAXUINT, hi = 0;

	for (guint r = 0; r < b->configs->len; r++) {
		guint n = config_at(b, r)->timed_lookups;

		if (n) {
			lo = MIN(lo, n);
			hi = MAX(hi, n);
		}
	}
	if (hi) {
		g_autofree char *range = lo == hi ? g_strdup_printf("%u", hi) :
						    g_strdup_printf("%u to %u", lo, hi);
		g_autofree char *note = g_strdup_printf(
			"* timed on %u windows spread over the trace (%s of its %u lookups), "
			"whose libfdt scans visit about %u nodes; the counters are the whole "
			"trace's", PH_WINDOWS, range, ph_trace_lookups(&b->trace), PH_SAMPLE_STEPS);
		GString *out = g_string_new(NULL);

		ph_wrap(out, note, 80);
		fputs(out->str, stdout);
		g_string_free(out, TRUE);
	}
}

void ph_bench_print_csv(const struct ph_bench *b)
{
	char f[COL_COUNT][FIELD];

	for (gsize i = 0; i < COL_COUNT; i++)
		printf("%s%s", columns[i], i + 1 < COL_COUNT ? "," : "\n");
	for (guint r = 0; r < b->configs->len; r++) {
		fields(config_at(b, r), f);
		for (gsize i = 0; i < COL_COUNT; i++)
			printf("%s%s", f[i], i + 1 < COL_COUNT ? "," : "\n");
	}
}

static void print_summary(const struct ph_bench *b)
{
	g_autofree char *dtb = tool_esc_name(b->dtb_path);
	g_autofree char *trace = tool_esc_name(b->trace_name);
	const struct ph_analysis *a = &b->analysis;
	g_autofree char *line1 = g_strdup_printf("%s: %u nodes, %u phandles%s%s", dtb, b->dt.nnodes,
						 b->dt.nphandles, b->renumbered ? ", renumbered " : "",
						 b->renumbered ? b->renumbered : "");
	g_autofree char *line2 = g_strdup_printf("%s: %u lookups of %u phandles, %u before "
						 "of_core_init, %u unresolved", trace, a->n,
						 a->distinct, MIN(b->trace.core_init_at, a->n),
						 a->unresolved);
	GString *out = g_string_new(NULL);

	ph_wrap(out, line1, 80);
	ph_wrap(out, line2, 80);
	fputs(out->str, stdout);
	g_string_free(out, TRUE);
}

/* Every column, each as wide as its longest cell. */
static void print_wide(const struct ph_bench *b)
{
	int width[COL_COUNT];
	char f[COL_COUNT][FIELD];

	for (gsize i = 0; i < COL_COUNT; i++)
		width[i] = (int)strlen(columns[i]);
	for (guint r = 0; r < b->configs->len; r++) {
		table_fields(config_at(b, r), f);
		for (gsize i = 0; i < COL_COUNT; i++)
			width[i] = MAX(width[i], (int)strlen(f[i]));
	}
	for (gsize i = 0; i < COL_COUNT; i++)
		printf("%*s%s", i ? width[i] : -width[i], columns[i], i + 1 < COL_COUNT ? " " : "\n");
	for (guint r = 0; r < b->configs->len; r++) {
		table_fields(config_at(b, r), f);
		for (gsize i = 0; i < COL_COUNT; i++)
			printf("%*s%s", i ? width[i] : -width[i], *f[i] ? f[i] : "-",
			       i + 1 < COL_COUNT ? " " : "\n");
	}
}

void ph_bench_print_table(const struct ph_bench *b, gboolean wide)
{
	char f[COL_COUNT][FIELD];

	print_summary(b);
	if (wide) {
		print_wide(b);
		print_windows_note(b);
		return;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(narrow); i++)
		printf("%*s%s", narrow[i].width, columns[narrow[i].col],
		       i + 1 < G_N_ELEMENTS(narrow) ? " " : "\n");
	for (guint r = 0; r < b->configs->len; r++) {
		table_fields(config_at(b, r), f);
		for (gsize i = 0; i < G_N_ELEMENTS(narrow); i++)
			printf("%*s%s", narrow[i].width, *f[narrow[i].col] ? f[narrow[i].col] : "-",
			       i + 1 < G_N_ELEMENTS(narrow) ? " " : "\n");
	}
	print_windows_note(b);
}

static void json_int(JsonBuilder *jb, const char *key, gint64 v)
{
	json_builder_set_member_name(jb, key);
	json_builder_add_int_value(jb, v);
}

static void json_config(JsonBuilder *jb, const struct ph_config *c)
{
	char f[COL_COUNT][FIELD];

	fields(c, f);
	json_builder_begin_object(jb);
	tool_json_str(jb, columns[COL_POLICY], f[COL_POLICY]);
	for (gsize i = 1; i < COL_COUNT; i++) {
		if (i == COL_NS) {
			json_builder_set_member_name(jb, columns[i]);
			if (c->timed)
				json_builder_add_double_value(jb, c->ns_per_lookup);
			else
				json_builder_add_null_value(jb);
			if (c->timed_lookups)
				json_int(jb, "timed_lookups", c->timed_lookups);
			continue;
		}
		json_int(jb, columns[i], g_ascii_strtoll(f[i], NULL, 10));
	}
	json_builder_end_object(jb);
}

void ph_bench_print_json(const struct ph_bench *b, const char *recommendation)
{
	g_autoptr(JsonBuilder) jb = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree gchar *text = NULL;
	const struct ph_analysis *a = &b->analysis;

	json_builder_begin_object(jb);
	tool_json_str(jb, "dtb", b->dtb_path);
	tool_json_str(jb, "trace", b->trace_name);
	json_int(jb, "nodes", b->dt.nnodes);
	json_int(jb, "phandles", b->dt.nphandles);
	tool_json_str(jb, "renumbered", b->renumbered);
	json_int(jb, "lookups", a->n);
	json_int(jb, "distinct", a->distinct);
	json_int(jb, "before_core_init", MIN(b->trace.core_init_at, a->n));
	json_int(jb, "unresolved", a->unresolved);
	json_builder_set_member_name(jb, "configs");
	json_builder_begin_array(jb);
	for (guint r = 0; r < b->configs->len; r++)
		json_config(jb, config_at(b, r));
	json_builder_end_array(jb);
	if (ph_trace_typed(&b->trace))
		ph_typed_json(jb, b);
	tool_json_str(jb, "recommendation", recommendation);
	json_builder_end_object(jb);
	root = json_builder_get_root(jb);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	printf("%s\n", text);
}

void ph_wrap(GString *out, const char *text, guint width)
{
	g_auto(GStrv) words = g_strsplit(text, " ", -1);
	guint col = 0;

	for (char **w = words; *w; w++) {
		guint n = (guint)strlen(*w);

		if (!n)
			continue;
		if (col && col + 1 + n > width) {
			g_string_append_c(out, '\n');
			col = 0;
		} else if (col) {
			g_string_append_c(out, ' ');
			col++;
		}
		g_string_append(out, *w);
		col += n;
	}
	g_string_append_c(out, '\n');
}
