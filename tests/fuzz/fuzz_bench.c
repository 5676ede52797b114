/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-bench's inputs: -D/-G arguments, CSV files of earlier runs, and what
 * it makes of them (table, CSV, JSON, comparison, SVG plot). Outputs are
 * checked as their readers see them: the JSON parses and is UTF-8, the SVG
 * is well-formed XML, the CSV reads back to the same rows.
 */
#include <json-glib/json-glib.h>
#include <string.h>

#include "bench_check.h"
#include "bench_plot.h"

#include "fuzz_util.h"

#define MAX_ARGS 16
#define MAX_CSV (1u << 20)

static const char *const known_geometries[] = { "nrf52840", "stm32f4", "spi-nor", "nand", "ram",
						NULL };

int fuzz_bench_defs(const uint8_t *data, size_t size)
{
	char *text = g_strndup((const char *)data, size);
	char **args = g_strsplit(text, "\n", MAX_ARGS);
	struct bench_defs defs;
	gboolean ok = TRUE;
	uint64_t n;

	bench_defs_init(&defs);
	for (char **a = args; ok && *a; a++) {
		GError *err = NULL;

		if (**a == 'G')
			ok = bench_defs_add_geometries(&defs, *a + 1, known_geometries, &err);
		else
			ok = bench_defs_parse(&defs, *a, &err);
		if (!ok && (!err || !*err->message))
			fuzz_violated("a refused -D/-G says why", 0);
		g_clear_error(&err);
	}
	if (ok && bench_defs_count(&defs, &n, NULL)) {
		/* a few permutations spread over the space, as the runner decodes them */
		for (uint64_t i = 0; i < n; i += n / 16 + 1) {
			struct bench_perm perm;
			const struct fc_flash_sim_preset *preset;
			char *why;

			bench_defs_perm(&defs, i, &perm);
			for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
				int64_t v = perm.v[k];

				if (v != BENCH_AUTO && (v < bench_knob(k)->min || v > bench_knob(k)->max))
					fuzz_violated("a permutation's values are within their knob's limits", 0);
			}
			preset = fc_flash_sim_preset(perm.geometry ? perm.geometry : "nrf52840");
			why = bench_check_perm(&perm, preset,
					       perm.v[BENCH_K_SECTOR_SIZE] == BENCH_AUTO
					       ? preset->erase_size : (uint32_t)perm.v[BENCH_K_SECTOR_SIZE],
					       perm.v[BENCH_K_WRITE_BLOCK] == BENCH_AUTO
					       ? preset->write_size : (uint32_t)perm.v[BENCH_K_WRITE_BLOCK]);
			if (why && strchr(why, ','))
				fuzz_violated("a permutation's reason has no comma (a CSV field)", 0);
			g_free(why);
		}
	}
	bench_defs_clear(&defs);
	g_strfreev(args);
	g_free(text);
	return 0;
}

static void check_json(const GString *out)
{
	JsonParser *parser = json_parser_new();

	if (!g_utf8_validate(out->str, (gssize)out->len, NULL))
		fuzz_violated("JSON output is valid UTF-8", 0);
	if (!json_parser_load_from_data(parser, out->str, (gssize)out->len, NULL))
		fuzz_violated("JSON output parses", 0);
	g_object_unref(parser);
}

static void check_text(const GString *out, const char *what)
{
	for (gsize i = 0; i < out->len; i++) {
		unsigned char c = (unsigned char)out->str[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			fuzz_violated(what, c);
	}
}

/* Rows as the reader gives them back after bench_csv_write's format. */
static void check_csv_round_trip(const GPtrArray *rows)
{
	GString *out = g_string_new(NULL);
	GPtrArray *back;
	GError *err = NULL;

	bench_csv_header(out);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < rows->len; i++) {
		bench_csv_row(out, g_ptr_array_index(rows, i));
		g_string_append_c(out, '\n');
	}
	check_text(out, "CSV output has no control bytes");
	back = bench_csv_parse("written.csv", out->str, out->len, &err);
	if (!back)
		fuzz_violated(err->message, 0);
	if (back->len != rows->len)
		fuzz_violated("CSV output reads back to as many rows", 0);
	g_ptr_array_unref(back);
	g_string_free(out, TRUE);
}

static GPtrArray *read_rows(const uint8_t *data, size_t size, struct bench_defs *defs)
{
	GError *err = NULL;
	GPtrArray *rows;

	if (size > MAX_CSV)
		return NULL;
	rows = bench_csv_parse("fuzz.csv", (const char *)data, size, &err);
	if (!rows) {
		if (!err || !g_str_has_prefix(err->message, "fuzz.csv:"))
			fuzz_violated("a CSV error names the file and line", 0);
		g_error_free(err);
		return NULL;
	}
	bench_defs_init(defs);
	bench_defs_from_rows(defs, rows);
	return rows;
}

int fuzz_bench_csv(const uint8_t *data, size_t size)
{
	struct bench_defs defs;
	GPtrArray *rows = read_rows(data, size, &defs);
	GString *out;
	struct bench_compare_stats st;

	if (!rows)
		return 0;
	out = g_string_new(NULL);
	bench_table(rows, &defs, size & 1, out, NULL);
	check_text(out, "table output has no control bytes");
	g_string_truncate(out, 0);
	bench_json(rows, out, NULL);
	check_json(out);
	g_string_truncate(out, 0);
	st = bench_compare(rows, rows, &defs, out);
	if (st.changed || st.added)
		fuzz_violated("rows compared with themselves do not change", 0);
	check_text(out, "comparison output has no control bytes");
	check_csv_round_trip(rows);
	g_string_free(out, TRUE);
	g_ptr_array_unref(rows);
	bench_defs_clear(&defs);
	return 0;
}

static void no_element(GMarkupParseContext *ctx, const gchar *name, const gchar **attr_names,
		       const gchar **attr_values, gpointer user, GError **err)
{
	(void)ctx, (void)name, (void)attr_names, (void)attr_values, (void)user, (void)err;
}

static void check_svg(const GString *svg)
{
	static const GMarkupParser parser = { no_element, NULL, NULL, NULL, NULL };
	GMarkupParseContext *ctx = g_markup_parse_context_new(&parser, 0, NULL, NULL);
	GError *err = NULL;

	if (!g_markup_parse_context_parse(ctx, svg->str, (gssize)svg->len, &err) ||
	    !g_markup_parse_context_end_parse(ctx, &err))
		fuzz_violated(err->message, 0);
	g_markup_parse_context_free(ctx);
}

int fuzz_bench_plot(const uint8_t *data, size_t size)
{
	struct bench_defs defs;
	struct bench_plot_spec spec;
	GPtrArray *rows;
	GString *svg;
	GError *err = NULL;

	if (size < 3)
		return 0;
	rows = read_rows(data + 3, size - 3, &defs);
	if (!rows)
		return 0;
	spec = (struct bench_plot_spec){
		.x = data[0] % BENCH_KNOB_COUNT, .y = data[1] % BENCH_FIGURE_COUNT,
		.log_x = data[2] & 1, .log_y = data[2] & 2,
		.phase = (data[2] & 4) && rows->len ?
			 ((struct bench_row *)g_ptr_array_index(rows, 0))->phase : NULL,
		.title = (data[2] & 8) && rows->len ?
			 ((struct bench_row *)g_ptr_array_index(rows, 0))->workload : NULL,
	};
	svg = bench_plot_svg(rows, &defs, &spec, &err);
	if (svg) {
		check_svg(svg);
		g_string_free(svg, TRUE);
	} else if (!err) {
		fuzz_violated("a plot that cannot be drawn says why", 0);
	}
	g_clear_error(&err);
	g_ptr_array_unref(rows);
	bench_defs_clear(&defs);
	return 0;
}
