/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-bench DTB: replay boot-time phandle lookups against a DTB under
 * Linux's caches (none, mask, hash32), our set-associative hash32 variants
 * and complete index, and the ideal LRU and OPT caches; print misses, their
 * split, scan cost, memory and the measured time per lookup, and advise.
 * A trace's typed lookups (path, alias, parent, cells) are replayed through
 * libcore's path/alias/parent/#cells caches, each answer checked against
 * libfdt's, with per-kind counters.
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "ph_bench.h"
#include "ph_gen.h"
#include "ph_renumber.h"
#include "ph_tree.h"

#define MIN_MEASURE_US 50000 /* replay each configuration for at least 50 ms */
#define MAX_SLOTS (1u << 24)

static gchar *trace_path;
static gchar *policy_opt = "none,mask,hash32,hash32x2,hash32x4,index,lru,opt";
static gchar *sizes_opt = "64,128,256";
static gchar *format_opt = "table";
static gchar *model_opt = "boot";
static gchar *plot_path;
static gchar *renumber_opt;
static gint mask_size_opt = -1;
static gint name_cache_opt = 256;
static gdouble max_unresolved = 10.0;
static gboolean strict, wide, show_version;

static const GOptionEntry entries[] = {
	{ "trace", 't', 0, G_OPTION_ARG_FILENAME, &trace_path, "Replay the lookups of FILE (default: the DTB's synthetic trace)", "FILE" },
	{ "model", 'M', 0, G_OPTION_ARG_STRING, &model_opt, "Synthetic trace model without --trace: boot (default), reference or bootloader", "MODEL" },
	{ "policy", 'p', 0, G_OPTION_ARG_STRING, &policy_opt, "Policies: none,mask,hash32,hash32x2,hash32x4,index,lru,opt (default: all)", "LIST" },
	{ "sizes", 's', 0, G_OPTION_ARG_STRING, &sizes_opt, "Sizes of the sized policies: powers of two or ranges A..B (default: 64,128,256)", "LIST" },
	{ "mask-size", 'm', 0, G_OPTION_ARG_INT, &mask_size_opt, "mask cache size (default: roundup_pow_of_two(#phandles))", "N" },
	{ "name-cache", 'n', 0, G_OPTION_ARG_INT, &name_cache_opt, "Typed lookups: slots of the path and of the property cache, 0 or a power of two (default 256)", "N" },
	{ "format", 'f', 0, G_OPTION_ARG_STRING, &format_opt, "Output format: table, csv or json (default: table)", "FORMAT" },
	{ "wide", 'w', 0, G_OPTION_ARG_NONE, &wide, "Table: every column (default: those that fit 80 columns)", NULL },
	{ "plot", 'P', 0, G_OPTION_ARG_FILENAME, &plot_path, "Write misses against cache size as SVG to FILE", "FILE" },
	{ "renumber", 'r', 0, G_OPTION_ARG_STRING, &renumber_opt, "Renumber the DTB's phandles first: slof or stride", "SCHEME" },
	{ "max-unresolved", 'u', 0, G_OPTION_ARG_DOUBLE, &max_unresolved, "Warn when more than PCT% of the lookups resolve to no node (default 10)", "PCT" },
	{ "strict", 'S', 0, G_OPTION_ARG_NONE, &strict, "Make the trace checks' warnings errors (exit 1)", NULL },
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &show_version, "Print the version and exit", NULL },
	{ NULL },
};

static GOptionContext *option_ctx;

static int usage_error(const char *fmt, const char *arg)
{
	gchar *help = g_option_context_get_help(option_ctx, TRUE, NULL);
	g_autofree char *shown = tool_esc_text(arg, -1, TOOL_ESC_UTF8);

	fprintf(stderr, "fdtcache-bench: ");
	fprintf(stderr, fmt, shown);
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

static gint cmp_u32(gconstpointer a, gconstpointer b)
{
	guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

	return x < y ? -1 : x > y;
}

/* --sizes: "64,128", "8..1024" (every power of two between), or both; sorted, unique. */
static int parse_sizes(GArray *sizes)
{
	g_auto(GStrv) items = g_strsplit(sizes_opt, ",", -1);

	for (char **it = items; *it; it++) {
		g_auto(GStrv) ends = g_strsplit(*it, "..", 2);
		guint32 lo, hi;

		if (!parse_pow2(ends[0], &lo) || (ends[1] && !parse_pow2(ends[1], &hi)))
			return usage_error("--sizes: '%s' is not a power of two in 1..16777216 or a range of them", *it);
		if (!ends[1])
			hi = lo;
		if (hi < lo)
			return usage_error("--sizes: '%s' is a range that ends before it starts", *it);
		for (guint64 s = lo; s <= hi; s <<= 1) {
			guint32 v = (guint32)s;

			g_array_append_val(sizes, v);
		}
	}
	if (!sizes->len)
		return usage_error("--sizes: '%s' gives no size", sizes_opt);
	g_array_sort(sizes, cmp_u32);
	for (guint i = 1; i < sizes->len;)
		if (g_array_index(sizes, guint32, i) == g_array_index(sizes, guint32, i - 1))
			g_array_remove_index(sizes, i);
		else
			i++;
	return 0;
}

static void add_config(struct ph_bench *b, enum ph_policy policy, guint32 size)
{
	struct ph_config c = { .policy = policy, .size = size };

	if ((policy == PH_POLICY_HASH32X2 && size < 2) || (policy == PH_POLICY_HASH32X4 && size < 4))
		return; /* a set needs its ways */
	g_array_append_val(b->configs, c);
}

/* Expand --policy over the sizes into configurations; returns 0 or the exit code. */
static int make_configs(struct ph_bench *b)
{
	g_auto(GStrv) policies = g_strsplit(policy_opt, ",", -1);

	b->mask_size = fc_dt_mask_size(&b->dt);
	if (mask_size_opt != -1) {
		if (mask_size_opt < 1 || mask_size_opt > (gint)MAX_SLOTS || !fc_is_pow2((guint32)mask_size_opt))
			return usage_error("--mask-size: %s", "not a power of two in 1..16777216");
		b->mask_size = (guint32)mask_size_opt;
	}
	for (char **p = policies; *p; p++) {
		enum ph_policy policy;

		if (!ph_policy_parse(*p, &policy))
			return usage_error("--policy: unknown policy '%s'", *p);
		if (policy == PH_POLICY_NONE)
			add_config(b, policy, 0);
		else if (policy == PH_POLICY_MASK)
			add_config(b, policy, b->mask_size);
		else if (policy == PH_POLICY_INDEX)
			add_config(b, policy, fc_dt_index_slots(b->dt.nphandles));
		for (guint i = 0; ph_policy_sized(policy) && i < b->sizes->len; i++)
			add_config(b, policy, g_array_index(b->sizes, guint32, i));
	}
	return 0;
}

static int check_failed(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* A trace check: a warning, or under --strict an error; returns 1 for an error. */
static int check_failed(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fdtcache-bench: %s: ", strict ? "error" : "warning");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return strict ? 1 : 0;
}

/* The header names another DTB. */
static int check_dtb_match(const struct ph_bench *b, const void *fdt, gsize len)
{
	const struct ph_trace *t = &b->trace;
	g_autofree char *sha = NULL, *trace = NULL, *dtb = NULL, *named = NULL;

	if (!t->dtb_name)
		return 0;
	sha = ph_sha256_hex(fdt, len);
	if (!strcmp(sha, t->dtb_sha256))
		return 0;
	trace = tool_esc_name(b->trace_name);
	dtb = tool_esc_name(b->dtb_path);
	named = tool_esc_text(t->dtb_name, -1, TOOL_ESC_UTF8);
	return check_failed("%s:%u: the trace was made for %s (sha256 %.12s...), not for %s "
			    "(sha256 %.12s...)", trace, t->dtb_line, named, t->dtb_sha256, dtb, sha);
}

/* Too many lookups name no node of the DTB. */
static int check_unresolved(const struct ph_bench *b)
{
	const struct ph_analysis *a = &b->analysis;
	g_autofree char *trace = NULL, *dtb = NULL;
	guint first = 0;

	/* a synthetic trace is this DTB's by construction */
	if (!trace_path || !a->n || 100.0 * a->unresolved <= max_unresolved * a->n)
		return 0;
	while (a->lru[first] != PH_DIST_UNRESOLVED)
		first++;
	trace = tool_esc_name(b->trace_name);
	dtb = tool_esc_name(b->dtb_path);
	return check_failed("%s:%u: %u of %u lookups (%.1f%%, over %g%%) name no node "
			    "of %s, the first here: is the trace for another DTB?", trace,
			    g_array_index(b->trace.lines, guint, first), a->unresolved, a->n,
			    100.0 * a->unresolved / a->n, max_unresolved, dtb);
}

static int fail(GError *error)
{
	fprintf(stderr, "fdtcache-bench: %s\n", error->message);
	g_error_free(error);
	return 1;
}

/* The trace: the file, or the DTB's synthetic one; 0 or exit code 1. */
static int load_trace(struct ph_bench *b, const void *fdt, gsize len)
{
	GError *error = NULL;
	struct ph_gen_opts opts;

	ph_trace_init(&b->trace);
	if (trace_path) {
		b->trace_name = trace_path;
		if (!ph_trace_load(&b->trace, trace_path, &error) ||
		    !ph_trace_require_lookups(&b->trace, trace_path, &error))
			return fail(error);
		return check_dtb_match(b, fdt, len);
	} else {
		struct ph_tree tree;
		enum ph_model model = !strcmp(model_opt, "boot")	 ? PH_MODEL_BOOT
				      : !strcmp(model_opt, "reference") ? PH_MODEL_REFERENCE
									: PH_MODEL_BOOTLOADER;

		b->trace_name = model == PH_MODEL_BOOT	      ? "synthetic trace (boot model)"
				: model == PH_MODEL_REFERENCE ? "synthetic trace (reference model)"
							      : "synthetic trace (bootloader model)";
		ph_gen_defaults(&opts, model);
		ph_tree_build(&tree, fdt, len);
		ph_gen(&b->trace, &tree, b->dtb_path, &opts, NULL);
		ph_tree_clear(&tree);
		if (!ph_trace_lookups(&b->trace) && !ph_trace_typed(&b->trace)) {
			g_autofree char *dtb = tool_esc_name(b->dtb_path);

			fprintf(stderr, "fdtcache-bench: %s: no phandle reference, the synthetic trace is empty\n", dtb);
			return 1;
		}
	}
	return 0;
}

/* Load the DTB and the trace into b; returns 0 or exit code 1. */
static int load_inputs(struct ph_bench *b, void **fdt)
{
	GError *error = NULL;
	gsize len;
	int count, rc;
	struct fc_dt_node *nodes;
	gboolean slof = FALSE;

	*fdt = ph_dtb_load(b->dtb_path, &len, &error);
	if (!*fdt)
		return fail(error);
	rc = load_trace(b, *fdt, len);
	if (rc)
		return rc;
	if (renumber_opt) {
		ph_renumber_parse(renumber_opt, &slof);
		ph_renumber(*fdt, &b->trace, slof);
		b->renumbered = renumber_opt;
	}
	count = fc_dt_count_nodes(*fdt);
	nodes = g_new(struct fc_dt_node, MAX(count, 1));
	b->dt.nodes = nodes;
	if (fc_dt_init(&b->dt, *fdt, nodes, (guint32)MAX(count, 0)) < 0) {
		g_autofree char *dtb = tool_esc_name(b->dtb_path);

		fprintf(stderr, "fdtcache-bench: %s: cannot walk the tree\n", dtb);
		return 1;
	}
	if (ph_bench_index(b) < 0) {
		g_autofree char *dtb = tool_esc_name(b->dtb_path);

		fprintf(stderr, "fdtcache-bench: %s: cannot index its phandles\n", dtb);
		return 1;
	}
	b->typed.name_cache = (guint32)name_cache_opt;
	if (ph_trace_typed(&b->trace) && !ph_typed_prepare(b, &error))
		return fail(error);
	return 0;
}

/* Options that need no input; returns 0 or the usage error's exit code. */
static int check_options(void)
{
	gboolean slof;

	if (strcmp(format_opt, "table") && strcmp(format_opt, "csv") && strcmp(format_opt, "json"))
		return usage_error("--format: '%s' is not table, csv or json", format_opt);
	if (strcmp(model_opt, "boot") && strcmp(model_opt, "reference") && strcmp(model_opt, "bootloader"))
		return usage_error("--model: '%s' is not boot, reference or bootloader", model_opt);
	if (renumber_opt && !ph_renumber_parse(renumber_opt, &slof))
		return usage_error("--renumber: '%s' is not slof or stride", renumber_opt);
	if (name_cache_opt < 0 || name_cache_opt > (gint)MAX_SLOTS ||
	    (name_cache_opt && !fc_is_pow2((guint32)name_cache_opt)))
		return usage_error("--name-cache: %s", "not 0 or a power of two in 1..16777216");
	if (!(max_unresolved >= 0 && max_unresolved <= 100))
		return usage_error("--max-unresolved: %s", "PCT must be 0..100");
	return 0;
}

/* Count and time every phandle configuration; 0 or exit code 1. */
static int run_phandles(struct ph_bench *b)
{
	int rc = check_unresolved(b);

	for (guint i = 0; !rc && i < b->configs->len; i++) {
		struct ph_config *c = &g_array_index(b->configs, struct ph_config, i);

		if ((rc = ph_bench_measure(b, c, MIN_MEASURE_US)) != 0) {
			g_autofree char *dtb = tool_esc_name(b->dtb_path);

			fprintf(stderr, "fdtcache-bench: %s: %s with %u slots: %s\n", dtb,
				ph_policy_names[c->policy], c->size, fc_strerror(rc));
			rc = 1;
		}
	}
	return rc;
}

static void print_table(const struct ph_bench *b, const char *advice)
{
	GString *text = g_string_new("\n");

	if (ph_trace_lookups(&b->trace)) {
		ph_bench_print_table(b, wide);
		ph_wrap(text, advice, 78);
		fputs(text->str, stdout);
	}
	if (ph_trace_typed(&b->trace)) {
		if (ph_trace_lookups(&b->trace))
			putchar('\n');
		ph_typed_print_table(b);
	}
	g_string_free(text, TRUE);
}

static int run(struct ph_bench *b)
{
	GError *error = NULL;
	guint32 largest = g_array_index(b->sizes, guint32, b->sizes->len - 1);
	g_autofree char *advice = NULL;
	gboolean phandles = ph_trace_lookups(&b->trace) > 0;

	if (phandles) {
		/* OPT to the sizes asked for and those the advice searches (a lower bound) */
		ph_analyse(&b->analysis, &b->trace, &b->dt,
			   MAX(largest, MIN(fc_dt_index_slots(b->dt.nphandles), 8192u)));
		if (run_phandles(b))
			return 1;
	} else {
		g_array_set_size(b->configs, 0);
	}
	if (ph_trace_typed(&b->trace)) {
		if (!ph_typed_count(b, &error))
			return fail(error);
		ph_typed_time(b, MIN_MEASURE_US);
	}
	if (phandles)
		advice = ph_bench_recommend(b);
	if (plot_path && !phandles) {
		g_autofree char *trace = tool_esc_name(b->trace_name);

		fprintf(stderr, "fdtcache-bench: --plot: %s has no phandle lookup to plot\n", trace);
		return 1;
	}
	if (plot_path && !ph_bench_plot(b, plot_path, &error))
		return fail(error);
	if (!strcmp(format_opt, "csv")) {
		if (phandles)
			ph_bench_print_csv(b);
		if (phandles && ph_trace_typed(&b->trace))
			putchar('\n');
		if (ph_trace_typed(&b->trace))
			ph_typed_print_csv(b);
	} else if (!strcmp(format_opt, "json")) {
		ph_bench_print_json(b, advice);
	} else {
		print_table(b, advice);
	}
	return 0;
}

int main(int argc, char **argv)
{
	GError *error = NULL;
	struct ph_bench b = { 0 };
	void *fdt = NULL;
	int rc;

	option_ctx = g_option_context_new("DTB - replay phandle lookups under Linux's caches and ours, and advise");
	g_option_context_add_main_entries(option_ctx, entries, NULL);
	g_option_context_set_summary(option_ctx, "See fdtcache-bench(1) for the columns and the trace format.");
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
	b.sizes = g_array_new(FALSE, FALSE, sizeof(guint32));
	b.configs = g_array_new(FALSE, TRUE, sizeof(struct ph_config));
	rc = check_options();
	if (!rc)
		rc = parse_sizes(b.sizes);
	if (rc)
		goto out;
	b.dtb_path = argv[1];
	rc = load_inputs(&b, &fdt);
	if (!rc)
		rc = make_configs(&b);
	if (!rc)
		rc = run(&b);
out:
	if (b.configs)
		g_array_free(b.configs, TRUE);
	if (b.sizes)
		g_array_free(b.sizes, TRUE);
	ph_trace_clear(&b.trace);
	ph_typed_clear(&b.typed);
	ph_analysis_clear(&b.analysis);
	g_free(b.dt.nodes);
	ph_bench_index_clear(&b);
	g_free(fdt);
	g_option_context_free(option_ctx);
	return rc;
}
