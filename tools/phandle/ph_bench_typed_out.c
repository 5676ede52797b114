/* SPDX-License-Identifier: BSD-2-Clause */
/* fdtcache-bench's report of the typed lookups: one row per kind. */
#include "ph_bench.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "common/escape.h"

enum column {
	COL_KIND, COL_NAME_CACHE, COL_LOOKUPS, COL_HITS, COL_MISSES, COL_COLLISIONS,
	COL_NOT_FOUND, COL_SCAN_STEPS, COL_COUNT
};

static const char *const columns[COL_COUNT] = {
	"kind", "name_cache", "lookups", "hits", "misses", "collisions", "not_found", "scan_steps",
};

static const int widths[COL_COUNT] = { -9, 10, 8, 8, 8, 10, 9, 10 };

static guint64 value(const struct ph_bench *b, guint kind, enum column col)
{
	const struct fc_dt_lookup_stats *s = &b->typed.stats[kind];

	switch (col) {
	case COL_NAME_CACHE:
		return b->typed.name_cache;
	case COL_LOOKUPS:
		return s->lookups;
	case COL_HITS:
		return s->hits;
	case COL_MISSES:
		return s->misses;
	case COL_COLLISIONS:
		return s->collisions;
	case COL_NOT_FOUND:
		return s->not_found;
	default:
		return s->scan_steps;
	}
}

void ph_typed_print_table(const struct ph_bench *b)
{
	g_autofree char *trace = tool_esc_name(b->trace_name);
	GString *head = g_string_new(NULL);
	g_autofree char *line = g_strdup_printf(
		"%s: %u typed lookups through libcore's caches (%u path and %u property slots, "
		"%u node slots), each answer checked against libfdt; %.1f ns per lookup from "
		"empty caches", trace, ph_trace_typed(&b->trace), b->typed.name_cache,
		b->typed.name_cache, b->typed.node_cache, b->typed.ns_per_lookup);

	ph_wrap(head, line, 80);
	fputs(head->str, stdout);
	g_string_free(head, TRUE);
	for (guint c = 0; c < COL_COUNT; c++)
		printf("%*s%s", widths[c], columns[c], c + 1 < COL_COUNT ? " " : "\n");
	for (guint k = 0; k < PH_KINDS; k++) {
		printf("%*s", widths[COL_KIND], ph_kind_names[k]);
		for (guint c = COL_NAME_CACHE; c < COL_COUNT; c++)
			printf(" %*" G_GUINT64_FORMAT, widths[c], value(b, k, c));
		putchar('\n');
	}
}

void ph_typed_print_csv(const struct ph_bench *b)
{
	for (guint c = 0; c < COL_COUNT; c++)
		printf("%s%s", columns[c], c + 1 < COL_COUNT ? "," : "\n");
	for (guint k = 0; k < PH_KINDS; k++) {
		printf("%s", ph_kind_names[k]);
		for (guint c = COL_NAME_CACHE; c < COL_COUNT; c++)
			printf(",%" G_GUINT64_FORMAT, value(b, k, c));
		putchar('\n');
	}
}

void ph_typed_json(JsonBuilder *jb, const struct ph_bench *b)
{
	json_builder_set_member_name(jb, "typed");
	json_builder_begin_object(jb);
	json_builder_set_member_name(jb, "lookups");
	json_builder_add_int_value(jb, ph_trace_typed(&b->trace));
	json_builder_set_member_name(jb, "name_cache");
	json_builder_add_int_value(jb, b->typed.name_cache);
	json_builder_set_member_name(jb, "node_cache");
	json_builder_add_int_value(jb, b->typed.node_cache);
	json_builder_set_member_name(jb, "ns_per_lookup");
	if (b->typed.timed)
		json_builder_add_double_value(jb, b->typed.ns_per_lookup);
	else
		json_builder_add_null_value(jb);
	json_builder_set_member_name(jb, "kinds");
	json_builder_begin_array(jb);
	for (guint k = 0; k < PH_KINDS; k++) {
		json_builder_begin_object(jb);
		json_builder_set_member_name(jb, "kind");
		json_builder_add_string_value(jb, ph_kind_names[k]);
		for (guint c = COL_LOOKUPS; c < COL_COUNT; c++) {
			json_builder_set_member_name(jb, columns[c]);
			json_builder_add_int_value(jb, (gint64)value(b, k, c));
		}
		json_builder_end_object(jb);
	}
	json_builder_end_array(jb);
	json_builder_end_object(jb);
}
