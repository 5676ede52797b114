/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-bench - flash key-value workloads across geometries, engine options
 * and wait policies, on simulated flash. See README.md ("nvs-bench").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_plot.h"
#include "bench_work.h"
#include "common/escape.h"

#define EXIT_USAGE 2
#define MAX_FAILURES_SHOWN 10

static char **geometry_args;
static char **define_args;
static gboolean zephyr;
static char *csv_path;
static char *format = "table";
static char *compare_path;
static char *input_path;
static char *plot_path;
static char *plot_x;
static char *plot_y = "sim_ns";
static char *plot_phase;
static char *plot_log;
static char *plot_title;
static int jobs = 1;
static gboolean list;
static gboolean wide;
static gboolean show_version;

static const GOptionEntry entries[] = {
	{ "geometry", 'G', 0, G_OPTION_ARG_STRING_ARRAY, &geometry_args,
	  "Simulated flash presets, comma-separated (default nrf52840)", "LIST" },
	{ "define", 'D', 0, G_OPTION_ARG_STRING_ARRAY, &define_args,
	  "Knob values: NAME=V[,V...] or NAME=range(start,stop,step) (see --list)", "NAME=VALUES" },
	{ "zephyr", 0, 0, G_OPTION_ARG_NONE, &zephyr,
	  "Run Zephyr before the fix, Zephyr after it and ours (variant=zephyr-pre,zephyr,ours)",
	  NULL },
	{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &csv_path,
	  "Write every row to a CSV file (header: see README)", "FILE.csv" },
	{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Standard output: table, csv, json or none",
	  "FMT" },
	{ "wide", 'w', 0, G_OPTION_ARG_NONE, &wide,
	  "Table with every figure (default: as many as fit 80 columns)", NULL },
	{ "compare", 'c', 0, G_OPTION_ARG_FILENAME, &compare_path,
	  "Print each figure that differs from an earlier CSV, in percent", "OLD.csv" },
	{ "input", 'i', 0, G_OPTION_ARG_FILENAME, &input_path,
	  "Read the rows of an earlier -o CSV instead of running (for tables, plots, compares)",
	  "FILE.csv" },
	{ "plot", 'p', 0, G_OPTION_ARG_FILENAME, &plot_path, "Write an SVG plot", "FILE.svg" },
	{ "plot-x", 0, 0, G_OPTION_ARG_STRING, &plot_x,
	  "Knob on the x axis (default: the first numeric knob that varies)", "KNOB" },
	{ "plot-y", 0, 0, G_OPTION_ARG_STRING, &plot_y, "Figure on the y axis (default sim_ns)",
	  "FIGURE" },
	{ "plot-phase", 0, 0, G_OPTION_ARG_STRING, &plot_phase,
	  "Plot only this phase (default: every phase, one series each)", "PHASE" },
	{ "plot-log", 0, 0, G_OPTION_ARG_STRING, &plot_log, "Logarithmic axes: x, y or xy", "AXES" },
	{ "plot-title", 0, 0, G_OPTION_ARG_STRING, &plot_title, "Title of the plot", "TEXT" },
	{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "Run N permutations at once (0: one per CPU)",
	  "N" },
	{ "list", 'l', 0, G_OPTION_ARG_NONE, &list,
	  "List workloads, knobs, geometries and figures", NULL },
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &show_version, "Print the version", NULL },
	{ NULL, 0, 0, 0, NULL, NULL, NULL },
};

static int usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("nvs-bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	return EXIT_USAGE;
}

static const char **geometry_names(void)
{
	GPtrArray *names = g_ptr_array_new();
	const struct fc_flash_sim_preset *p;

	for (unsigned i = 0; (p = fc_flash_sim_preset_at(i)); i++)
		g_ptr_array_add(names, (gpointer)p->name);
	g_ptr_array_add(names, NULL);
	return (const char **)g_ptr_array_free(names, FALSE);
}

static void print_list(void)
{
	GString *s = g_string_new("workloads:\n");
	const struct fc_flash_sim_preset *p;

	for (const struct bench_workload *w = bench_workloads; w->name; w++)
		g_string_append_printf(s, "  %-8s %s\n", w->name, w->help);
	g_string_append(s, "knobs (-D NAME=VALUES; default shown):\n");
	bench_defs_describe(s);
	g_string_append(s, "geometries (-G):\n");
	for (unsigned i = 0; (p = fc_flash_sim_preset_at(i)); i++)
		g_string_append_printf(s, "  %-9s erase %u B, write %u B\n", p->name, p->erase_size,
				       p->write_size);
	g_string_append(s, "figures (table headers, CSV columns, JSON members, --plot-y; the table "
			   "gives times in ms):\n");
	for (int f = 0; f < BENCH_FIGURE_COUNT; f++)
		g_string_append_printf(s, "  %-13s %s%s\n", bench_figure(f)->name,
				       bench_figure(f)->help, bench_figure(f)->time_ns ? ", ns" : "");
	fputs(s->str, stdout);
	g_string_free(s, TRUE);
}

/* Build the permutation space from -G, -D and --zephyr. */
static int setup_defs(struct bench_defs *defs)
{
	const char **known = geometry_names();
	GError *err = NULL;
	gboolean ok = TRUE;

	for (char **g = geometry_args; ok && g && *g; g++)
		ok = bench_defs_add_geometries(defs, *g, known, &err);
	if (ok && !defs->geometries->len)
		ok = bench_defs_add_geometries(defs, "nrf52840", known, &err);
	for (char **d = define_args; ok && d && *d; d++)
		ok = bench_defs_parse(defs, *d, &err);
	if (ok && zephyr) {
		if (defs->given[BENCH_K_VARIANT]) {
			g_free(known);
			return usage_error("--zephyr and -D variant=... both choose the variants");
		}
		ok = bench_defs_parse(defs, "variant=zephyr-pre,zephyr,ours", &err);
	}
	g_free(known);
	if (!ok) {
		usage_error("%s", err->message);
		g_error_free(err);
		return EXIT_USAGE;
	}
	return 0;
}

struct job {
	const struct bench_workload *w;
	const struct bench_defs *defs;
	uint64_t perm;
	GPtrArray *rows;
	GAsyncQueue *done;
};

static void run_job(gpointer data, gpointer unused)
{
	(void)unused;
	struct job *job = data;
	struct bench_perm perm;

	bench_defs_perm(job->defs, job->perm, &perm);
	bench_run(job->w, &perm, job->rows);
	g_async_queue_push(job->done, job);
}

/* Run every workload on every permutation; rows come back in a fixed order. */
static GPtrArray *run_all(GPtrArray *workloads, const struct bench_defs *defs, uint64_t nperm)
{
	uint64_t njobs = workloads->len * nperm, finished = 0;
	struct job *all = g_new0(struct job, njobs);
	GAsyncQueue *done = g_async_queue_new();
	GThreadPool *pool = g_thread_pool_new(run_job, NULL, jobs, FALSE, NULL);
	struct bench_progress progress;
	GPtrArray *rows = bench_rows_new();
	gint64 start = g_get_monotonic_time();
	double secs;

	bench_progress_init(&progress, njobs);
	for (uint64_t i = 0; i < njobs; i++) {
		all[i] = (struct job){ g_ptr_array_index(workloads, i / nperm), defs, i % nperm,
				       g_ptr_array_new(), done };
		g_thread_pool_push(pool, &all[i], NULL);
	}
	while (finished < njobs) {
		struct job *job = g_async_queue_pop(done);

		finished++;
		bench_progress_update(&progress, finished, job->w->name);
	}
	bench_progress_done(&progress);
	g_thread_pool_free(pool, FALSE, TRUE);
	secs = (double)(g_get_monotonic_time() - start) / 1e6;
	fprintf(stderr, "nvs-bench: %" G_GUINT64_FORMAT " runs (%u workloads x %" G_GUINT64_FORMAT
		" permutations) in %.2f s, %.1f permutations/s\n", (guint64)njobs, workloads->len,
		(guint64)nperm, secs, secs > 0 ? (double)njobs / secs : 0.0);
	for (uint64_t i = 0; i < njobs; i++) {
		for (guint r = 0; r < all[i].rows->len; r++)
			g_ptr_array_add(rows, g_ptr_array_index(all[i].rows, r));
		g_ptr_array_free(all[i].rows, TRUE);
	}
	g_async_queue_unref(done);
	g_free(all);
	return rows;
}

/* Rows of an earlier run; defs then describe the values found in them. */
static GPtrArray *read_input(struct bench_defs *defs)
{
	GError *err = NULL;
	GPtrArray *rows = bench_csv_read(input_path, &err);

	if (!rows) {
		fprintf(stderr, "nvs-bench: %s\n", err->message);
		g_error_free(err);
		return NULL;
	}
	bench_defs_from_rows(defs, rows);
	return rows;
}

/* The plot's x knob: as given, or the first numeric knob that varies. */
static int plot_setup(const struct bench_defs *defs, struct bench_plot_spec *spec)
{
	int x = -1, y = bench_figure_find(plot_y);

	if (plot_x) {
		x = bench_knob_find(plot_x);
		if (x < 0)
			return usage_error("--plot-x %s: no such knob (see --list)", plot_x);
	}
	for (int k = 0; x < 0 && k < BENCH_KNOB_COUNT; k++)
		if (bench_knob(k)->numeric && bench_defs_varies(defs, k))
			x = k;
	if (x < 0)
		return usage_error("--plot needs a numeric knob with several values (-D)");
	if (y < 0)
		return usage_error("--plot-y %s: no such figure (see --list)", plot_y);
	if (plot_log && strcmp(plot_log, "x") && strcmp(plot_log, "y") && strcmp(plot_log, "xy"))
		return usage_error("--plot-log %s: expected x, y or xy", plot_log);
	*spec = (struct bench_plot_spec){
		.x = x, .y = y, .phase = plot_phase, .title = plot_title,
		.log_x = plot_log && strchr(plot_log, 'x'),
		.log_y = plot_log && strchr(plot_log, 'y'),
	};
	return 0;
}

static int parse_args(int *argc, char ***argv)
{
	GOptionContext *ctx = g_option_context_new("[WORKLOAD...] - flash key-value workloads "
						   "on simulated flash");
	GError *err = NULL;
	gboolean ok;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx,
		"Workloads: rpl (default), seq, random, logging, many, boot; --list shows them\n"
		"with the knobs, geometries and figures. Each -D knob takes a list of values;\n"
		"every permutation of all lists and geometries is run.\n"
		"Exit status: 0 all ran, 1 a permutation failed or a file could not be\n"
		"read or written, 2 usage error.");
	ok = g_option_context_parse(ctx, argc, argv, &err);
	g_option_context_free(ctx);
	if (!ok) {
		usage_error("%s", err->message);
		g_error_free(err);
		return EXIT_USAGE;
	}
	if (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json") &&
	    strcmp(format, "none"))
		return usage_error("--format %s: expected table, csv, json or none", format);
	if (jobs < 0)
		return usage_error("--jobs %d: expected 0 or more", jobs);
	if (jobs == 0)
		jobs = (int)g_get_num_processors();
	return 0;
}

static GPtrArray *workload_list(int argc, char **argv)
{
	GPtrArray *workloads = g_ptr_array_new();

	for (int i = 1; i < argc; i++) {
		const struct bench_workload *w = bench_workload_find(argv[i]);

		if (!w) {
			usage_error("no workload '%s' (see --list)", argv[i]);
			g_ptr_array_free(workloads, TRUE);
			return NULL;
		}
		g_ptr_array_add(workloads, (gpointer)w);
	}
	if (!workloads->len)
		g_ptr_array_add(workloads, (gpointer)bench_workload_find("rpl"));
	return workloads;
}

/* Table or CSV on stdout, CSV file, comparison, plot. Returns the exit code. */
static int report(const GPtrArray *rows, const struct bench_defs *defs,
		  const struct bench_plot_spec *spec)
{
	GString *out = g_string_new(NULL);
	GError *err = NULL;
	int rc = 0;

	if (!strcmp(format, "table")) {
		bench_table(rows, defs, wide, out, stdout);
	} else if (!strcmp(format, "json")) {
		bench_json(rows, out, stdout);
	} else if (!strcmp(format, "csv")) {
		bench_csv_header(out);
		g_string_append_c(out, '\n');
		for (guint i = 0; i < rows->len; i++) {
			bench_csv_row(out, g_ptr_array_index(rows, i));
			g_string_append_c(out, '\n');
			bench_out_flush(out, stdout, FALSE);
		}
	}
	if (compare_path) {
		GPtrArray *old = bench_csv_read(compare_path, &err);

		if (old) {
			bench_compare(old, rows, defs, out);
			g_ptr_array_unref(old);
		}
	}
	fputs(out->str, stdout);
	g_string_free(out, TRUE);
	if (!err && csv_path)
		bench_csv_write(csv_path, rows, &err);
	if (!err && plot_path)
		bench_plot_write(plot_path, rows, defs, spec, &err);
	if (err) {
		fprintf(stderr, "nvs-bench: %s\n", err->message);
		g_error_free(err);
		rc = 1;
	}
	return rc;
}

/* Each failed row on stderr (the first few), whatever the format. Returns how many failed. */
static guint report_failures(const GPtrArray *rows, const struct bench_defs *defs)
{
	guint failed = 0;

	for (guint i = 0; i < rows->len; i++) {
		const struct bench_row *row = g_ptr_array_index(rows, i);
		GString *line;

		if (!strcmp(row->status, "ok"))
			continue;
		if (++failed > MAX_FAILURES_SHOWN)
			continue;
		line = g_string_new("nvs-bench: ");
		bench_row_name_append(line, row, defs);
		g_string_append(line, ": ");
		tool_esc_append(line, row->status, strlen(row->status), 0);
		if (*row->detail) {
			g_string_append(line, ": ");
			tool_esc_append(line, row->detail, strlen(row->detail), 0);
		}
		fprintf(stderr, "%s\n", line->str);
		g_string_free(line, TRUE);
	}
	if (failed > MAX_FAILURES_SHOWN)
		fprintf(stderr, "nvs-bench: ... and %u more failed rows (see -f csv)\n",
			failed - MAX_FAILURES_SHOWN);
	return failed;
}

int main(int argc, char **argv)
{
	struct bench_defs defs;
	struct bench_plot_spec spec = { 0 };
	GPtrArray *workloads, *rows = NULL;
	uint64_t nperm;
	GError *err = NULL;
	int rc = parse_args(&argc, &argv);

	if (rc)
		return rc;
	if (show_version) {
		printf("nvs-bench %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (list) {
		print_list();
		return 0;
	}
	bench_defs_init(&defs);
	if (input_path) {
		if (geometry_args || define_args || zephyr || argc > 1)
			rc = usage_error("--input takes no workloads, -G, -D or --zephyr");
		rows = rc ? NULL : read_input(&defs);
		if (!rc && rows && plot_path)
			rc = plot_setup(&defs, &spec);
		if (!rc && rows)
			rc = report(rows, &defs, &spec);
		else if (!rc)
			rc = 1;
		if (rows)
			g_ptr_array_unref(rows);
		bench_defs_clear(&defs);
		return rc;
	}
	rc = setup_defs(&defs);
	if (!rc && !bench_defs_count(&defs, &nperm, &err)) {
		rc = usage_error("%s", err->message);
		g_error_free(err);
	}
	if (!rc && plot_path)
		rc = plot_setup(&defs, &spec);
	workloads = rc ? NULL : workload_list(argc, argv);
	if (!rc && !workloads)
		rc = EXIT_USAGE;
	if (rc) {
		bench_defs_clear(&defs);
		return rc;
	}
	rows = run_all(workloads, &defs, nperm);
	rc = report(rows, &defs, &spec);
	if (report_failures(rows, &defs) && !rc)
		rc = 1;
	g_ptr_array_unref(rows);
	g_ptr_array_free(workloads, TRUE);
	bench_defs_clear(&defs);
	return rc;
}
