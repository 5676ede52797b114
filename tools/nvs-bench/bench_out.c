/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_out.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "common/escape.h"
#include "common/input.h"
#include "common/json.h"

static const struct bench_figure_info figures[BENCH_FIGURE_COUNT] = {
	[BENCH_F_OPS] = { "ops", "workload operations", true, false },
	[BENCH_F_READS] = { "reads", "flash read calls", true, false },
	[BENCH_F_READ_BYTES] = { "read_bytes", "bytes read", true, false },
	[BENCH_F_PROGS] = { "progs", "flash program calls", true, false },
	[BENCH_F_PROG_BYTES] = { "prog_bytes", "bytes programmed", true, false },
	[BENCH_F_ERASES] = { "erases", "flash erase calls", true, false },
	[BENCH_F_ERASE_BYTES] = { "erase_bytes", "bytes erased", true, false },
	[BENCH_F_BLANK_ERASES] = { "blank_erases", "erases of already erased ranges", true, false },
	[BENCH_F_MAX_WEAR] = { "max_wear", "most erases of one unit", true, false },
	[BENCH_F_SIM_NS] = { "sim_ns", "simulated time", true, true },
	[BENCH_F_FLOOR_NS] = { "floor_ns", "physical floor (programs, erases of written ranges)",
			       true, true },
	[BENCH_F_OVERSHOOT_NS] = { "overshoot_ns", "wait overshoot", true, true },
	[BENCH_F_POLLS] = { "polls", "status polls", true, false },
	[BENCH_F_CPU_NS] = { "cpu_ns", "host CPU time", false, true },
};

const struct bench_figure_info *bench_figure(enum bench_figure f)
{
	return &figures[f];
}

int bench_figure_find(const char *name)
{
	for (int f = 0; f < BENCH_FIGURE_COUNT; f++)
		if (!strcmp(figures[f].name, name))
			return f;
	return -1;
}

struct bench_row *bench_row_new(const char *workload, const struct bench_perm *perm,
				const char *phase, const char *status)
{
	struct bench_row *row = g_new0(struct bench_row, 1);

	row->workload = g_strdup(workload);
	row->geometry = g_strdup(perm->geometry ? perm->geometry : "-");
	memcpy(row->knob, perm->v, sizeof(row->knob));
	row->phase = g_strdup(phase);
	row->status = g_strdup(status);
	row->detail = g_strdup("");
	return row;
}

void bench_row_free(gpointer p)
{
	struct bench_row *row = p;

	g_free(row->workload);
	g_free(row->geometry);
	g_free(row->phase);
	g_free(row->status);
	g_free(row->detail);
	g_free(row);
}

GPtrArray *bench_rows_new(void)
{
	return g_ptr_array_new_with_free_func(bench_row_free);
}

/* Columns before the figures: workload, geometry, knobs, phase. */
#define KEY_COLUMNS (3 + BENCH_KNOB_COUNT)
#define STATUS_COLUMN (KEY_COLUMNS + BENCH_FIGURE_COUNT)
#define DETAIL_COLUMN (STATUS_COLUMN + 1)
#define ALL_COLUMNS (DETAIL_COLUMN + 1)

static const char *column_name(int c)
{
	if (c == 0)
		return "workload";
	if (c == 1)
		return "geometry";
	if (c < 2 + BENCH_KNOB_COUNT)
		return bench_knob(c - 2)->name;
	if (c == 2 + BENCH_KNOB_COUNT)
		return "phase";
	if (c < STATUS_COLUMN)
		return figures[c - KEY_COLUMNS].name;
	return c == STATUS_COLUMN ? "status" : "detail";
}

void bench_csv_header(GString *out)
{
	for (int c = 0; c < ALL_COLUMNS; c++)
		g_string_append_printf(out, "%s%s", c ? "," : "", column_name(c));
}

/* A text field of a row (from an --input CSV: any bytes), escaped for a CSV line. */
static void append_field(GString *out, const char *text)
{
	tool_esc_append(out, text, strlen(text), TOOL_ESC_COMMA);
}

static void append_key(GString *out, const struct bench_row *row)
{
	char buf[32];

	append_field(out, row->workload);
	g_string_append_c(out, ',');
	append_field(out, row->geometry);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		bench_knob_format(k, row->knob[k], buf, sizeof(buf));
		g_string_append_printf(out, ",%s", buf);
	}
	g_string_append_c(out, ',');
	append_field(out, row->phase);
}

char *bench_row_key(const struct bench_row *row)
{
	GString *s = g_string_new(NULL);

	append_key(s, row);
	return g_string_free(s, FALSE);
}

void bench_csv_row(GString *out, const struct bench_row *row)
{
	append_key(out, row);
	for (int f = 0; f < BENCH_FIGURE_COUNT; f++)
		g_string_append_printf(out, ",%" G_GUINT64_FORMAT, (guint64)row->fig[f]);
	g_string_append_c(out, ',');
	append_field(out, row->status);
	g_string_append_c(out, ',');
	append_field(out, row->detail);
}

gboolean bench_csv_write(const char *path, const GPtrArray *rows, GError **err)
{
	GString *s = g_string_new(NULL);
	gboolean ok;

	bench_csv_header(s);
	g_string_append_c(s, '\n');
	for (guint i = 0; i < rows->len; i++) {
		bench_csv_row(s, g_ptr_array_index(rows, i));
		g_string_append_c(s, '\n');
	}
	ok = g_file_set_contents(path, s->str, (gssize)s->len, err);
	g_string_free(s, TRUE);
	return ok;
}

void bench_out_flush(GString *out, FILE *fp, gboolean all)
{
	if (fp && out->len && (all || out->len >= BENCH_FLUSH_BYTES)) {
		fwrite(out->str, 1, out->len, fp);
		g_string_truncate(out, 0);
	}
}

/* One row as a pretty-printed JSON object (member per CSV column). */
static void json_row(GString *out, const struct bench_row *row)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *gen = json_generator_new();
	JsonNode *root;
	char buf[32], *text;

	json_builder_begin_object(b);
	tool_json_str(b, "workload", row->workload);
	tool_json_str(b, "geometry", row->geometry);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		json_builder_set_member_name(b, bench_knob(k)->name);
		bench_knob_format(k, row->knob[k], buf, sizeof(buf));
		if (strcmp(buf, "auto") && bench_knob(k)->numeric)
			json_builder_add_int_value(b, row->knob[k]);
		else
			json_builder_add_string_value(b, buf);
	}
	tool_json_str(b, "phase", row->phase);
	for (int f = 0; f < BENCH_FIGURE_COUNT; f++) {
		json_builder_set_member_name(b, figures[f].name);
		json_builder_add_int_value(b, (gint64)row->fig[f]);
	}
	tool_json_str(b, "status", row->status);
	tool_json_str(b, "detail", row->detail);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	g_string_append(out, text);
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	g_object_unref(b);
}

/* Row by row, so memory does not grow with the output (a tree of every row would). */
void bench_json(const GPtrArray *rows, GString *out, FILE *fp)
{
	g_string_append_c(out, '[');
	for (guint i = 0; i < rows->len; i++) {
		g_string_append(out, i ? ",\n" : "\n");
		json_row(out, g_ptr_array_index(rows, i));
		bench_out_flush(out, fp, FALSE);
	}
	g_string_append(out, "\n]\n");
}

static gboolean csv_fail(GError **err, const char *path, guint line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean csv_fail(GError **err, const char *path, guint line, const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path, line, why);
	g_free(why);
	return FALSE;
}

static gboolean bad_value(GError **err, const char *path, guint line, const char *column,
			  const char *value)
{
	char *shown = tool_esc_text(value, -1, TOOL_ESC_QUOTE);

	csv_fail(err, path, line, "bad %s value \"%s\"", column, shown);
	g_free(shown);
	return FALSE;
}

static gboolean parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!g_ascii_isdigit(*s))
		return FALSE;
	errno = 0;
	*v = g_ascii_strtoull(s, &end, 10);
	return !errno && !*end;
}

/* Fill row from the fields of one data line; col[] maps header order to ours. */
static gboolean parse_fields(struct bench_row *row, char **fields, const int *col,
			     const char *path, guint line, GError **err)
{
	row->workload = g_strdup(fields[col[0]]);
	row->geometry = g_strdup(fields[col[1]]);
	row->phase = g_strdup(fields[col[2 + BENCH_KNOB_COUNT]]);
	row->status = g_strdup(fields[col[STATUS_COLUMN]]);
	row->detail = g_strdup(col[DETAIL_COLUMN] < 0 ? "" : fields[col[DETAIL_COLUMN]]);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++)
		if (!bench_knob_parse_value(k, fields[col[2 + k]], &row->knob[k]))
			return bad_value(err, path, line, bench_knob(k)->name, fields[col[2 + k]]);
	for (int f = 0; f < BENCH_FIGURE_COUNT; f++)
		if (!parse_u64(fields[col[KEY_COLUMNS + f]], &row->fig[f]))
			return bad_value(err, path, line, figures[f].name,
					 fields[col[KEY_COLUMNS + f]]);
	return TRUE;
}

/* Map each of our columns to its position in the file's header. */
static gboolean map_header(char **names, int *col, const char *path, GError **err)
{
	guint n = g_strv_length(names);

	for (int c = 0; c < ALL_COLUMNS; c++) {
		col[c] = -1;
		for (guint i = 0; i < n; i++)
			if (!strcmp(g_strstrip(names[i]), column_name(c)))
				col[c] = (int)i;
		if (col[c] < 0 && c != DETAIL_COLUMN)
			return csv_fail(err, path, 1, "no column '%s' in the header",
					column_name(c));
	}
	return TRUE;
}

GPtrArray *bench_csv_read(const char *path, GError **err)
{
	struct tool_input in;
	GPtrArray *rows;

	if (!tool_input_load(&in, path, err))
		return NULL;
	rows = bench_csv_parse(in.name, (const char *)in.data, in.len, err);
	tool_input_free(&in);
	return rows;
}

/* The 1-based line of the first NUL byte in text, or 0. */
static guint nul_line(const char *text, gsize len)
{
	const char *nul = memchr(text, '\0', len);
	guint line = 1;

	if (!nul)
		return 0;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n';
	return line;
}

GPtrArray *bench_csv_parse(const char *path, const char *text, gsize len, GError **err)
{
	char **lines;
	char **header;
	int col[ALL_COLUMNS];
	GPtrArray *rows = NULL;
	guint ncols, nul = nul_line(text, len);
	char *copy;

	if (nul) {
		csv_fail(err, path, nul, "a NUL byte: not an nvs-bench CSV");
		return NULL;
	}
	copy = g_strndup(text, len);
	lines = g_strsplit(copy, "\n", -1);
	g_free(copy);
	if (!lines[0] || !*lines[0]) {
		csv_fail(err, path, 1, "empty file, expected the nvs-bench CSV header");
		goto out;
	}
	header = g_strsplit(lines[0], ",", -1);
	ncols = g_strv_length(header);
	if (!map_header(header, col, path, err)) {
		g_strfreev(header);
		goto out;
	}
	g_strfreev(header);
	rows = bench_rows_new();
	for (guint i = 1; lines[i]; i++) {
		char **fields;
		struct bench_row *row;
		gboolean ok;

		g_strchomp(lines[i]);
		if (!*lines[i])
			continue;
		fields = g_strsplit(lines[i], ",", -1);
		if (g_strv_length(fields) != ncols) {
			csv_fail(err, path, i + 1, "%u fields, the header has %u",
				 g_strv_length(fields), ncols);
			g_strfreev(fields);
			g_clear_pointer(&rows, g_ptr_array_unref);
			goto out;
		}
		row = g_new0(struct bench_row, 1);
		ok = parse_fields(row, fields, col, path, i + 1, err);
		g_strfreev(fields);
		g_ptr_array_add(rows, row);
		if (!ok) {
			g_clear_pointer(&rows, g_ptr_array_unref);
			goto out;
		}
	}
out:
	g_strfreev(lines);
	return rows;
}

void bench_defs_from_rows(struct bench_defs *defs, const GPtrArray *rows)
{
	GHashTable *geometries = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < rows->len; i++) {
		const struct bench_row *row = g_ptr_array_index(rows, i);

		for (int k = 0; k < BENCH_KNOB_COUNT; k++)
			bench_defs_add_value(defs, k, row->knob[k]);
		if (g_hash_table_add(geometries, row->geometry))
			g_ptr_array_add(defs->geometries, g_strdup(row->geometry));
	}
	g_hash_table_unref(geometries);
}

double bench_pct(uint64_t old_value, uint64_t new_value)
{
	if (old_value == new_value)
		return 0.0;
	if (old_value == 0)
		return INFINITY;
	return ((double)new_value - (double)old_value) * 100.0 / (double)old_value;
}

static void append_pct(GString *out, double pct)
{
	if (isinf(pct))
		g_string_append(out, "+inf%");
	else
		g_string_append_printf(out, "%+.1f%%", pct);
}

char *bench_row_label(const struct bench_row *row, const struct bench_defs *defs, int skip_knob)
{
	GString *s = g_string_new(NULL);
	char buf[32];

	if (defs->geometries->len > 1)
		g_string_append(s, row->geometry);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		if (k == skip_knob || !bench_defs_varies(defs, k))
			continue;
		bench_knob_format(k, row->knob[k], buf, sizeof(buf));
		g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", bench_knob(k)->name, buf);
	}
	return g_string_free(s, FALSE);
}

void bench_row_name_append(GString *out, const struct bench_row *row,
			   const struct bench_defs *defs)
{
	char *label = bench_row_label(row, defs, -1);

	tool_esc_append(out, row->workload, strlen(row->workload), 0);
	if (defs->geometries->len <= 1) { /* else the label names it */
		g_string_append_c(out, ' ');
		tool_esc_append(out, row->geometry, strlen(row->geometry), 0);
	}
	if (*label) {
		g_string_append_c(out, ' ');
		tool_esc_append(out, label, strlen(label), 0);
	}
	g_string_append_c(out, ' ');
	tool_esc_append(out, row->phase, strlen(row->phase), 0);
	g_free(label);
}

struct bench_compare_stats bench_compare(const GPtrArray *old_rows, const GPtrArray *new_rows,
					 const struct bench_defs *defs, GString *out)
{
	struct bench_compare_stats st = { 0 };
	GHashTable *old_by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						       (GDestroyNotify)g_queue_free);

	for (guint i = 0; i < old_rows->len; i++) {
		struct bench_row *row = g_ptr_array_index(old_rows, i);
		char *key = bench_row_key(row);
		GQueue *same = g_hash_table_lookup(old_by_key, key);

		if (!same) {
			same = g_queue_new();
			g_hash_table_insert(old_by_key, key, same);
		} else {
			g_free(key);
		}
		g_queue_push_tail(same, row);
	}
	for (guint i = 0; i < new_rows->len; i++) {
		const struct bench_row *row = g_ptr_array_index(new_rows, i);
		char *key = bench_row_key(row);
		GQueue *same = g_hash_table_lookup(old_by_key, key);
		/* a key given twice (files put together): the n-th old row matches the n-th new */
		const struct bench_row *old = same ? g_queue_pop_head(same) : NULL;

		g_free(key);
		if (!old) {
			st.added++;
			bench_row_name_append(out, row, defs);
			g_string_append(out, ": new\n");
			continue;
		}
		st.matched++;
		for (int f = 0; f < BENCH_FIGURE_COUNT; f++) {
			if (old->fig[f] == row->fig[f])
				continue;
			st.changed++;
			bench_row_name_append(out, row, defs);
			g_string_append_printf(out, ": %s %" G_GUINT64_FORMAT " -> %" G_GUINT64_FORMAT
					       " (", figures[f].name, (guint64)old->fig[f],
					       (guint64)row->fig[f]);
			append_pct(out, bench_pct(old->fig[f], row->fig[f]));
			g_string_append(out, ")\n");
		}
	}
	st.missing = old_rows->len - st.matched;
	g_string_append_printf(out, "compare: %u rows matched, %u figures changed, %u new rows, "
			       "%u old rows missing\n", st.matched, st.changed, st.added,
			       st.missing);
	g_hash_table_unref(old_by_key);
	return st;
}

/* A figure cell: times in milliseconds with 3 decimals and their unit, counts as integers. */
static char *figure_cell(enum bench_figure f, uint64_t v)
{
	if (figures[f].time_ns)
		return g_strdup_printf("%.3fms", (double)v / 1e6);
	return g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)v);
}

/* Table columns: workload, geometry, each knob, phase, each figure, status. */
#define T_KNOB0 2
#define T_PHASE (T_KNOB0 + BENCH_KNOB_COUNT)
#define T_FIG0 (T_PHASE + 1)
#define T_STATUS (T_FIG0 + BENCH_FIGURE_COUNT)
#define T_COLUMNS (T_STATUS + 1)

/* Figures in the order they are given room in an 80-column table. */
static const enum bench_figure figure_priority[BENCH_FIGURE_COUNT] = {
	BENCH_F_SIM_NS, BENCH_F_READS, BENCH_F_PROGS, BENCH_F_ERASES, BENCH_F_FLOOR_NS,
	BENCH_F_OPS, BENCH_F_READ_BYTES, BENCH_F_PROG_BYTES, BENCH_F_ERASE_BYTES,
	BENCH_F_BLANK_ERASES, BENCH_F_MAX_WEAR, BENCH_F_POLLS, BENCH_F_OVERSHOOT_NS,
	BENCH_F_CPU_NS,
};

/* Cell c of a row (NULL row: the header); text from the CSV is escaped. */
static char *table_cell(const struct bench_row *row, int c)
{
	char buf[32];

	if (c == 0)
		return row ? tool_esc_text(row->workload, -1, 0) : g_strdup("workload");
	if (c == 1)
		return row ? tool_esc_text(row->geometry, -1, 0) : g_strdup("geometry");
	if (c < T_PHASE) {
		if (!row)
			return g_strdup(bench_knob(c - T_KNOB0)->name);
		bench_knob_format(c - T_KNOB0, row->knob[c - T_KNOB0], buf, sizeof(buf));
		return g_strdup(buf);
	}
	if (c == T_PHASE)
		return row ? tool_esc_text(row->phase, -1, 0) : g_strdup("phase");
	if (c < T_STATUS)
		return row ? figure_cell(c - T_FIG0, row->fig[c - T_FIG0])
			   : g_strdup(figures[c - T_FIG0].name);
	return row ? tool_esc_text(row->status, -1, 0) : g_strdup("status");
}

static guint cell_width(const struct bench_row *row, int c)
{
	char *cell = table_cell(row, c);
	guint w = (guint)strlen(cell);

	g_free(cell);
	return w;
}

/*
 * Which columns to show: the labels (knobs only when they vary) and status,
 * then figures by priority while the line stays within BENCH_TABLE_COLUMNS
 * (all of them when wide). Returns how many figures were left out.
 */
static int table_choose(const guint *width, const struct bench_defs *defs, gboolean wide,
			gboolean *shown)
{
	guint line = 0;
	int left_out = 0;

	for (int c = 0; c < T_COLUMNS; c++) {
		shown[c] = c < T_FIG0 ? (c < T_KNOB0 || c == T_PHASE ||
					 bench_defs_varies(defs, c - T_KNOB0))
				      : c == T_STATUS || wide;
		if (shown[c])
			line += width[c] + (line ? 2 : 0);
	}
	for (int i = 0; !wide && i < BENCH_FIGURE_COUNT; i++) {
		int c = T_FIG0 + figure_priority[i];

		if (line + 2 + width[c] <= BENCH_TABLE_COLUMNS) {
			shown[c] = TRUE;
			line += 2 + width[c];
		} else {
			left_out++;
		}
	}
	return left_out;
}

static void table_line(GString *out, const struct bench_row *row, const guint *width,
		       const gboolean *shown)
{
	gboolean first = TRUE;

	for (int c = 0; c < T_COLUMNS; c++) {
		char *cell;
		gboolean left = c <= T_PHASE || c == T_STATUS;

		if (!shown[c])
			continue;
		cell = table_cell(row, c);
		g_string_append_printf(out, "%s%*s", first ? "" : "  ",
				       left ? -(int)width[c] : (int)width[c], cell);
		g_free(cell);
		first = FALSE;
	}
	while (out->len && out->str[out->len - 1] == ' ')
		g_string_truncate(out, out->len - 1);
	g_string_append_c(out, '\n');
}

/* Two passes over the rows (widths, then lines), so no cell is kept. */
void bench_table(const GPtrArray *rows, const struct bench_defs *defs, gboolean wide,
		 GString *out, FILE *fp)
{
	guint width[T_COLUMNS];
	gboolean shown[T_COLUMNS];
	int left_out;

	for (int c = 0; c < T_COLUMNS; c++)
		width[c] = cell_width(NULL, c);
	for (guint i = 0; i < rows->len; i++)
		for (int c = 0; c < T_COLUMNS; c++)
			width[c] = MAX(width[c], cell_width(g_ptr_array_index(rows, i), c));
	left_out = table_choose(width, defs, wide, shown);
	table_line(out, NULL, width, shown);
	for (guint i = 0; i < rows->len; i++) {
		table_line(out, g_ptr_array_index(rows, i), width, shown);
		bench_out_flush(out, fp, FALSE);
	}
	if (left_out)
		g_string_append_printf(out, "(%d more figures: --wide shows them all, -f csv too)\n",
				       left_out);
}

void bench_progress_init(struct bench_progress *pr, uint64_t total)
{
	pr->tty = isatty(STDERR_FILENO);
	pr->total = total;
	pr->last_us = 0;
}

void bench_progress_update(struct bench_progress *pr, uint64_t done, const char *what)
{
	gint64 now;

	if (!pr->tty)
		return;
	now = g_get_monotonic_time();
	if (now - pr->last_us < 100000 && done < pr->total)
		return;
	pr->last_us = now;
	fprintf(stderr, "\r\033[K[%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "] %s", (guint64)done,
		(guint64)pr->total, what);
	fflush(stderr);
}

void bench_progress_done(struct bench_progress *pr)
{
	if (pr->tty && pr->last_us) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}
