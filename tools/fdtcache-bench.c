/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-bench DTB: replay boot-time phandle lookups against a DTB under
 * the none / mask / hash32 caches of Linux and a complete index, and print
 * misses, scan cost, memory and the measured time per lookup.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace.h"
#include "fdtcache/dt.h"

#define MIN_MEASURE_US 50000 /* replay each configuration for at least 50 ms */
#define MAX_SLOTS (1u << 24)

static gchar *trace_path;
static gchar *policy_opt = "none,mask,hash32,index";
static gchar *sizes_opt = "64,128,256";
static gchar *format_opt = "table";
static gint mask_size_opt = -1;
static gboolean show_version;

static const GOptionEntry entries[] = {
	{ "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace_path, "Replay the lookups of FILE (default: the DTB's synthetic trace)", "FILE" },
	{ "policy", 'p', 0, G_OPTION_ARG_STRING, &policy_opt, "Policies to replay: none,mask,hash32,index (default: all)", "LIST" },
	{ "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_opt, "hash32 sizes, powers of two (default: 64,128,256)", "LIST" },
	{ "mask-size", 'm', 0, G_OPTION_ARG_INT, &mask_size_opt, "mask cache size (default: roundup_pow_of_two(#phandles))", "N" },
	{ "format", 'f', 0, G_OPTION_ARG_STRING, &format_opt, "Output format: table, csv or json (default: table)", "FORMAT" },
	{ "version", 0, 0, G_OPTION_ARG_NONE, &show_version, "Print the version and exit", NULL },
	{ NULL },
};

static const char *const policy_names[] = {
	[FC_DT_NONE] = "none",
	[FC_DT_MASK] = "mask",
	[FC_DT_HASH32] = "hash32",
	[FC_DT_INDEX] = "index",
};

struct config {
	enum fc_dt_policy policy;
	guint32 size; /* slots */
	struct fc_dt_replay_stats stats;
	double ns_per_lookup;
};

struct bench {
	const char *dtb_path;
	const char *trace_name;
	struct fc_dt dt;
	struct fc_trace trace;
	GArray *configs; /* struct config */
};

static GOptionContext *option_ctx;

static int usage_error(const char *fmt, const char *arg)
{
	gchar *help = g_option_context_get_help(option_ctx, TRUE, NULL);

	fprintf(stderr, "fdtcache-bench: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", help);
	g_free(help);
	return 2;
}

static gboolean parse_pow2(const char *word, guint32 *value)
{
	guint64 v;

	if (!g_ascii_string_to_unsigned(word, 10, 1, MAX_SLOTS, &v, NULL) || !fc_is_pow2((guint32)v))
		return FALSE;
	*value = (guint32)v;
	return TRUE;
}

static void add_config(struct bench *b, enum fc_dt_policy policy, guint32 size)
{
	struct config c = { .policy = policy, .size = size };

	g_array_append_val(b->configs, c);
}

/* Expand --policy and --sizes into configurations; returns 0 or the exit code. */
static int make_configs(struct bench *b)
{
	g_auto(GStrv) policies = g_strsplit(policy_opt, ",", -1);
	g_auto(GStrv) sizes = g_strsplit(sizes_opt, ",", -1);
	guint32 mask_size = fc_dt_mask_size(&b->dt);

	if (mask_size_opt != -1) {
		if (mask_size_opt < 1 || mask_size_opt > (gint)MAX_SLOTS || !fc_is_pow2((guint32)mask_size_opt))
			return usage_error("--mask-size: %s", "not a power of two in 1..16777216");
		mask_size = (guint32)mask_size_opt;
	}
	for (char **p = policies; *p; p++) {
		gsize i;

		for (i = 0; i < G_N_ELEMENTS(policy_names) && strcmp(*p, policy_names[i]); i++)
			;
		if (i == G_N_ELEMENTS(policy_names))
			return usage_error("--policy: unknown policy '%s'", *p);
		if (i == FC_DT_NONE)
			add_config(b, FC_DT_NONE, 0);
		else if (i == FC_DT_MASK)
			add_config(b, FC_DT_MASK, mask_size);
		else if (i == FC_DT_INDEX)
			add_config(b, FC_DT_INDEX, fc_dt_index_slots(b->dt.nphandles));
		for (char **s = sizes; i == FC_DT_HASH32 && *s; s++) {
			guint32 size;

			if (!parse_pow2(*s, &size))
				return usage_error("--sizes: '%s' is not a power of two in 1..16777216", *s);
			add_config(b, FC_DT_HASH32, size);
		}
	}
	return 0;
}

/* One boot: caches as at boot, core init where the trace puts it. */
static int replay_once(struct bench *b, struct fc_dt_replay *r, const struct config *c,
		       struct fc_cache_slot *slots)
{
	const guint32 *ph = (const guint32 *)(void *)b->trace.phandles->data;
	guint n = b->trace.phandles->len;
	int rc = fc_dt_replay_init(r, &b->dt, c->policy, slots, c->size);

	if (rc < 0)
		return rc;
	for (guint i = 0; i < n; i++) {
		if (i == b->trace.core_init_at)
			fc_dt_replay_core_init(r);
		fc_dt_replay_lookup(r, ph[i]);
	}
	return 0;
}

/* Replay one configuration; returns 0 or exit code 1. */
static int run_config(struct bench *b, struct config *c)
{
	struct fc_cache_slot *slots = g_new(struct fc_cache_slot, MAX(c->size, 1));
	struct fc_dt_replay r;
	guint64 runs = 0;
	gint64 start = g_get_monotonic_time();
	gint64 elapsed;

	do {
		int rc = replay_once(b, &r, c, slots);

		if (rc < 0) {
			fprintf(stderr, "fdtcache-bench: %s: %s with %u slots: %s\n", b->dtb_path,
				policy_names[c->policy], c->size, fc_strerror(rc));
			g_free(slots);
			return 1;
		}
		if (!runs)
			c->stats = r.stats;
		runs++;
		elapsed = g_get_monotonic_time() - start;
	} while (b->trace.phandles->len && elapsed < MIN_MEASURE_US);
	c->ns_per_lookup = b->trace.phandles->len ?
		elapsed * 1000.0 / ((double)runs * b->trace.phandles->len) : 0.0;
	g_free(slots);
	return 0;
}

static const char *const columns[] = {
	"policy", "size", "lookups", "hits", "misses", "unresolved",
	"evictions", "scan_steps", "memory_bytes", "ns_per_lookup",
};

/* A configuration's fields as strings, in the order of columns[]. */
static void fields(const struct config *c, char out[][32])
{
	const struct fc_dt_replay_stats *s = &c->stats;

	g_strlcpy(out[0], policy_names[c->policy], 32);
	g_snprintf(out[1], 32, "%u", c->size);
	g_snprintf(out[2], 32, "%u", s->lookups);
	g_snprintf(out[3], 32, "%u", s->hits);
	g_snprintf(out[4], 32, "%u", s->misses);
	g_snprintf(out[5], 32, "%u", s->unresolved);
	g_snprintf(out[6], 32, "%u", s->evictions);
	g_snprintf(out[7], 32, "%" G_GUINT64_FORMAT, s->scan_steps);
	g_snprintf(out[8], 32, "%" G_GUINT64_FORMAT, (guint64)c->size * 8);
	g_snprintf(out[9], 32, "%.1f", c->ns_per_lookup);
}

/* One line of cells: padded to widths (table) or joined by sep (CSV). */
static void print_line(char cells[][32], const char *sep, const int *widths)
{
	for (gsize i = 0; i < G_N_ELEMENTS(columns); i++)
		printf("%*s%s", widths ? widths[i] : 0, cells[i],
		       i + 1 < G_N_ELEMENTS(columns) ? sep : "\n");
}

static void print_rows(const struct bench *b, const char *sep, const int *widths)
{
	char f[G_N_ELEMENTS(columns)][32];

	for (gsize i = 0; i < G_N_ELEMENTS(columns); i++)
		g_strlcpy(f[i], columns[i], sizeof(f[i]));
	print_line(f, sep, widths);
	for (guint r = 0; r < b->configs->len; r++) {
		fields(&g_array_index(b->configs, struct config, r), f);
		print_line(f, sep, widths);
	}
}

static void print_table(const struct bench *b)
{
	static const int widths[] = { 6, 8, 8, 8, 8, 10, 9, 10, 12, 13 };

	printf("%s: %u nodes, %u phandles; %s: %u lookups, of_core_init() before lookup %u\n",
	       b->dtb_path, b->dt.nnodes, b->dt.nphandles, b->trace_name, b->trace.phandles->len,
	       b->trace.core_init_at + 1);
	print_rows(b, "  ", widths);
}

static void print_json(const struct bench *b)
{
	g_autoptr(JsonBuilder) jb = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree gchar *text = NULL;
	char f[G_N_ELEMENTS(columns)][32];

	json_builder_begin_object(jb);
	json_builder_set_member_name(jb, "dtb");
	json_builder_add_string_value(jb, b->dtb_path);
	json_builder_set_member_name(jb, "trace");
	json_builder_add_string_value(jb, b->trace_name);
	json_builder_set_member_name(jb, "nodes");
	json_builder_add_int_value(jb, b->dt.nnodes);
	json_builder_set_member_name(jb, "phandles");
	json_builder_add_int_value(jb, b->dt.nphandles);
	json_builder_set_member_name(jb, "configs");
	json_builder_begin_array(jb);
	for (guint r = 0; r < b->configs->len; r++) {
		const struct config *c = &g_array_index(b->configs, struct config, r);

		fields(c, f);
		json_builder_begin_object(jb);
		json_builder_set_member_name(jb, columns[0]);
		json_builder_add_string_value(jb, f[0]);
		for (gsize i = 1; i + 1 < G_N_ELEMENTS(columns); i++) {
			json_builder_set_member_name(jb, columns[i]);
			json_builder_add_int_value(jb, g_ascii_strtoll(f[i], NULL, 10));
		}
		json_builder_set_member_name(jb, "ns_per_lookup");
		json_builder_add_double_value(jb, c->ns_per_lookup);
		json_builder_end_object(jb);
	}
	json_builder_end_array(jb);
	json_builder_end_object(jb);
	root = json_builder_get_root(jb);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	printf("%s\n", text);
}

/* Load the DTB and the trace into b; returns 0 or exit code 1. */
static int load_inputs(struct bench *b, void **fdt)
{
	GError *error = NULL;
	gsize len;
	int count;
	struct fc_dt_node *nodes;

	*fdt = fc_dtb_load(b->dtb_path, &len, &error);
	if (!*fdt)
		goto fail;
	count = fc_dt_count_nodes(*fdt);
	nodes = g_new(struct fc_dt_node, MAX(count, 1));
	if (fc_dt_init(&b->dt, *fdt, nodes, (guint32)MAX(count, 0)) < 0) {
		fprintf(stderr, "fdtcache-bench: %s: cannot walk the tree\n", b->dtb_path);
		return 1;
	}
	fc_trace_init(&b->trace);
	if (!trace_path) {
		b->trace_name = "synthetic trace";
		fc_trace_generate(&b->trace, *fdt, b->dtb_path, 0, NULL);
		return 0;
	}
	b->trace_name = trace_path;
	if (fc_trace_load(&b->trace, trace_path, &error))
		return 0;
fail:
	fprintf(stderr, "fdtcache-bench: %s\n", error->message);
	g_error_free(error);
	return 1;
}

int main(int argc, char **argv)
{
	GError *error = NULL;
	struct bench b = { 0 };
	void *fdt = NULL;
	int rc;

	option_ctx = g_option_context_new("DTB - replay phandle lookups under Linux's caches and a complete index");
	g_option_context_add_main_entries(option_ctx, entries, NULL);
	if (!g_option_context_parse(option_ctx, &argc, &argv, &error)) {
		rc = usage_error("%s", error->message);
		g_error_free(error);
		goto out;
	}
	rc = 0;
	if (show_version) {
		printf("fdtcache-bench %s\n", PACKAGE_VERSION);
		goto out;
	}
	if (argc != 2) {
		rc = usage_error("%s", "expected exactly one DTB");
		goto out;
	}
	if (strcmp(format_opt, "table") && strcmp(format_opt, "csv") && strcmp(format_opt, "json")) {
		rc = usage_error("--format: '%s' is not table, csv or json", format_opt);
		goto out;
	}
	b.dtb_path = argv[1];
	rc = load_inputs(&b, &fdt);
	if (rc)
		goto out;
	b.configs = g_array_new(FALSE, TRUE, sizeof(struct config));
	rc = make_configs(&b);
	if (rc)
		goto out;
	for (guint i = 0; i < b.configs->len && !rc; i++)
		rc = run_config(&b, &g_array_index(b.configs, struct config, i));
	if (rc)
		goto out;
	if (!strcmp(format_opt, "csv"))
		print_rows(&b, ",", NULL);
	else if (!strcmp(format_opt, "json"))
		print_json(&b);
	else
		print_table(&b);
out:
	if (b.configs)
		g_array_free(b.configs, TRUE);
	if (b.trace.phandles)
		fc_trace_clear(&b.trace);
	g_free(b.dt.nodes);
	g_free(fdt);
	g_option_context_free(option_ctx);
	return rc;
}
