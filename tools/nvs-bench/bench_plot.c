/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_plot.h"

#include <math.h>
#include <string.h>

#include "common/escape.h"

#define W 860.0
#define H 520.0
#define LEFT 90.0
#define RIGHT 250.0 /* room for the legend */
#define TOP 50.0
#define BOTTOM 70.0
#define MAX_DATA_TICKS 12

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

struct point {
	double x, y;
};

struct series {
	char *label;
	GArray *points; /* struct point */
};

struct axis {
	double lo, hi; /* data range (log10 of it on a log axis) */
	bool log;
	double pix_lo, pix_hi;
};

static void series_free(gpointer p)
{
	struct series *s = p;

	g_free(s->label);
	g_array_free(s->points, TRUE);
	g_free(s);
}

static int point_cmp(gconstpointer a, gconstpointer b)
{
	const struct point *pa = a, *pb = b;

	return (pa->x > pb->x) - (pa->x < pb->x);
}

static char *series_label(const struct bench_row *row, const struct bench_defs *defs,
			  const struct bench_plot_spec *spec, bool many_workloads,
			  bool many_phases)
{
	char *knobs = bench_row_label(row, defs, (int)spec->x);
	char *label = g_strjoin(" ", many_workloads ? row->workload : "", knobs,
				many_phases ? row->phase : "", NULL);

	g_free(knobs);
	g_strstrip(label);
	if (!*label) {
		g_free(label);
		label = g_strdup(row->workload);
	}
	return label;
}

static bool distinct(const GPtrArray *rows, size_t field_offset)
{
	const char *first = NULL;

	for (guint i = 0; i < rows->len; i++) {
		const char *v = G_STRUCT_MEMBER(char *, g_ptr_array_index(rows, i), field_offset);

		if (first && strcmp(first, v))
			return true;
		first = v;
	}
	return false;
}

static GPtrArray *collect(const GPtrArray *rows, const struct bench_defs *defs,
			  const struct bench_plot_spec *spec)
{
	GPtrArray *series = g_ptr_array_new_with_free_func(series_free);
	GHashTable *by_label = g_hash_table_new(g_str_hash, g_str_equal);
	bool many_workloads = distinct(rows, G_STRUCT_OFFSET(struct bench_row, workload));
	bool many_phases = !spec->phase && distinct(rows, G_STRUCT_OFFSET(struct bench_row, phase));

	for (guint i = 0; i < rows->len; i++) {
		const struct bench_row *row = g_ptr_array_index(rows, i);
		struct point pt = { (double)row->knob[spec->x], (double)row->fig[spec->y] };
		struct series *s;
		char *label;

		if (strcmp(row->status, "ok") || (spec->phase && strcmp(row->phase, spec->phase)))
			continue;
		if ((spec->log_x && pt.x <= 0) || (spec->log_y && pt.y <= 0))
			continue;
		if (bench_figure(spec->y)->time_ns)
			pt.y /= 1e6;
		label = series_label(row, defs, spec, many_workloads, many_phases);
		s = g_hash_table_lookup(by_label, label);
		if (!s) {
			s = g_new0(struct series, 1);
			s->label = label;
			s->points = g_array_new(FALSE, FALSE, sizeof(struct point));
			g_ptr_array_add(series, s);
			g_hash_table_insert(by_label, s->label, s);
		} else {
			g_free(label);
		}
		g_array_append_val(s->points, pt);
	}
	g_hash_table_unref(by_label);
	for (guint i = 0; i < series->len; i++) {
		struct series *s = g_ptr_array_index(series, i);

		g_array_sort(s->points, point_cmp);
	}
	return series;
}

static double axis_value(const struct axis *a, double v)
{
	return a->log ? log10(v) : v;
}

static double to_pixel(const struct axis *a, double v)
{
	double t = (axis_value(a, v) - a->lo) / (a->hi - a->lo);

	return a->pix_lo + t * (a->pix_hi - a->pix_lo);
}

/* Fit the axis to [min, max]: linear from 0 when all data is positive. */
static void axis_fit(struct axis *a, double min, double max)
{
	double pad;

	if (a->log) {
		a->lo = log10(min);
		a->hi = log10(max);
		pad = a->hi > a->lo ? (a->hi - a->lo) * 0.04 : 0.5;
		a->lo -= pad;
		a->hi += pad;
		return;
	}
	a->lo = min > 0 ? 0 : min;
	a->hi = max;
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->hi += (a->hi - a->lo) * 0.05;
}

static void format_number(double v, char *buf, size_t len)
{
	double m = fabs(v);

	if (m >= 1e9)
		g_snprintf(buf, len, "%gG", v / 1e9);
	else if (m >= 1e6)
		g_snprintf(buf, len, "%gM", v / 1e6);
	else if (m >= 1e4)
		g_snprintf(buf, len, "%gk", v / 1e3);
	else
		g_snprintf(buf, len, "%g", v);
}

/* Tick values of an axis: 1-2-5 steps (linear) or 1, 2, 5 per decade (log). */
static GArray *axis_ticks(const struct axis *a)
{
	GArray *ticks = g_array_new(FALSE, FALSE, sizeof(double));

	if (a->log) {
		static const double mult[] = { 1, 2, 5 };
		bool few = a->hi - a->lo <= 3;

		for (double e = floor(a->lo); e <= a->hi; e++)
			for (unsigned i = 0; i < (few ? 3u : 1u); i++) {
				double v = mult[i] * pow(10, e);

				if (log10(v) >= a->lo && log10(v) <= a->hi)
					g_array_append_val(ticks, v);
			}
		return ticks;
	}
	double raw = (a->hi - a->lo) / 6, mag = pow(10, floor(log10(raw))), step;

	step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
		: 10 * mag;
	for (double v = ceil(a->lo / step) * step; v <= a->hi + step * 1e-9; v += step) {
		double t = fabs(v) < step * 1e-9 ? 0 : v;

		g_array_append_val(ticks, t);
	}
	return ticks;
}

static void xml_escaped(GString *out, const char *text)
{
	char *esc = tool_esc_xml(text, -1);

	g_string_append(out, esc);
	g_free(esc);
}

/* The x values of every point when there are few of them (a sweep's own values), else NULL. */
static GArray *data_ticks(const GPtrArray *series)
{
	GArray *xs = g_array_new(FALSE, FALSE, sizeof(double));

	/* stop at the first value too many: the search below stays within MAX_DATA_TICKS */
	for (guint i = 0; i < series->len && xs->len <= MAX_DATA_TICKS; i++) {
		const struct series *s = g_ptr_array_index(series, i);

		for (guint j = 0; j < s->points->len && xs->len <= MAX_DATA_TICKS; j++) {
			double x = g_array_index(s->points, struct point, j).x;
			guint k = 0;

			while (k < xs->len && g_array_index(xs, double, k) != x)
				k++;
			if (k == xs->len)
				g_array_append_val(xs, x);
		}
	}
	if (xs->len > MAX_DATA_TICKS) {
		g_array_free(xs, TRUE);
		return NULL;
	}
	return xs;
}

/* ticks: the values to mark, or NULL for 1-2-5 steps; taken over. */
static void draw_axis(GString *out, const struct axis *a, GArray *ticks, bool horizontal,
		      const char *label)
{
	if (!ticks)
		ticks = axis_ticks(a);
	char num[32];

	for (guint i = 0; i < ticks->len; i++) {
		double v = g_array_index(ticks, double, i), p = to_pixel(a, v);

		format_number(v, num, sizeof(num));
		if (horizontal)
			g_string_append_printf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
					       "class='grid'/><text x='%.1f' y='%.1f' "
					       "text-anchor='middle'>%s</text>\n", p, TOP, p,
					       H - BOTTOM, p, H - BOTTOM + 18, num);
		else
			g_string_append_printf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' "
					       "class='grid'/><text x='%.1f' y='%.1f' "
					       "text-anchor='end'>%s</text>\n", LEFT, p, W - RIGHT, p,
					       LEFT - 6, p + 4, num);
	}
	g_array_free(ticks, TRUE);
	if (horizontal) {
		g_string_append_printf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' "
				       "class='label'>", (LEFT + W - RIGHT) / 2, H - 22);
	} else {
		g_string_append_printf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' "
				       "class='label' transform='rotate(-90 %.1f %.1f)'>", 22.0,
				       (TOP + H - BOTTOM) / 2, 22.0, (TOP + H - BOTTOM) / 2);
	}
	xml_escaped(out, label);
	g_string_append(out, "</text>\n");
}

static void draw_series(GString *out, const struct series *s, unsigned i,
			const struct axis *ax, const struct axis *ay)
{
	const char *color = palette[i % G_N_ELEMENTS(palette)];
	double ly = TOP + 10 + 20.0 * i;

	g_string_append_printf(out, "<polyline fill='none' stroke='%s' stroke-width='2' points='",
			       color);
	for (guint j = 0; j < s->points->len; j++) {
		struct point p = g_array_index(s->points, struct point, j);

		g_string_append_printf(out, "%s%.1f,%.1f", j ? " " : "", to_pixel(ax, p.x),
				       to_pixel(ay, p.y));
	}
	g_string_append(out, "'/>\n");
	for (guint j = 0; j < s->points->len; j++) {
		struct point p = g_array_index(s->points, struct point, j);

		g_string_append_printf(out, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'><title>"
				       "%g, %g</title></circle>\n", to_pixel(ax, p.x),
				       to_pixel(ay, p.y), color, p.x, p.y);
	}
	g_string_append_printf(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s' "
			       "stroke-width='2'/><text x='%.1f' y='%.1f'>", W - RIGHT + 16, ly,
			       W - RIGHT + 40, ly, color, W - RIGHT + 46, ly + 4);
	xml_escaped(out, s->label);
	g_string_append(out, "</text>\n");
}

static void data_bounds(const GPtrArray *series, double *xmin, double *xmax, double *ymin,
			double *ymax)
{
	*xmin = *ymin = INFINITY;
	*xmax = *ymax = -INFINITY;
	for (guint i = 0; i < series->len; i++) {
		const struct series *s = g_ptr_array_index(series, i);

		for (guint j = 0; j < s->points->len; j++) {
			struct point p = g_array_index(s->points, struct point, j);

			*xmin = MIN(*xmin, p.x);
			*xmax = MAX(*xmax, p.x);
			*ymin = MIN(*ymin, p.y);
			*ymax = MAX(*ymax, p.y);
		}
	}
}

GString *bench_plot_svg(const GPtrArray *rows, const struct bench_defs *defs,
			const struct bench_plot_spec *spec, GError **err)
{
	const struct bench_figure_info *fy = bench_figure(spec->y);
	struct axis ax = { .log = spec->log_x, .pix_lo = LEFT, .pix_hi = W - RIGHT };
	struct axis ay = { .log = spec->log_y, .pix_lo = H - BOTTOM, .pix_hi = TOP };
	GPtrArray *series;
	GString *out;
	double xmin, xmax, ymin, ymax;
	char *ylabel, *title;

	if (!bench_knob(spec->x)->numeric) {
		g_set_error(err, BENCH_DEFS_ERROR, BENCH_DEFS_ERROR_RANGE,
			    "cannot plot against %s: it takes names, not numbers",
			    bench_knob(spec->x)->name);
		return NULL;
	}
	series = collect(rows, defs, spec);
	if (!series->len) {
		g_set_error(err, BENCH_DEFS_ERROR, BENCH_DEFS_ERROR_RANGE,
			    "nothing to plot: no successful row%s%s", spec->phase ? " of phase " : "",
			    spec->phase ? spec->phase : "");
		g_ptr_array_unref(series);
		return NULL;
	}
	data_bounds(series, &xmin, &xmax, &ymin, &ymax);
	axis_fit(&ax, xmin, xmax);
	axis_fit(&ay, ymin, ymax);
	ylabel = g_strdup_printf("%s (%s%s)", fy->help, fy->name, fy->time_ns ? ", ms" : "");
	title = spec->title ? g_strdup(spec->title)
			    : g_strdup_printf("%s vs %s%s%s", fy->name, bench_knob(spec->x)->name,
					      spec->phase ? ", phase " : "",
					      spec->phase ? spec->phase : "");
	out = g_string_new(NULL);
	g_string_append_printf(out, "<?xml version='1.0' encoding='UTF-8'?>\n"
			       "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
			       "viewBox='0 0 %.0f %.0f' font-family='sans-serif' font-size='12'>\n"
			       "<style>.grid{stroke:#ddd;stroke-width:1}"
			       ".label{font-size:14px}.title{font-size:16px;font-weight:bold}"
			       "</style>\n<rect width='100%%' height='100%%' fill='white'/>\n",
			       W, H, W, H);
	g_string_append_printf(out, "<text x='%.1f' y='28' text-anchor='middle' class='title'>",
			       (LEFT + W - RIGHT) / 2);
	xml_escaped(out, title);
	g_string_append(out, "</text>\n");
	draw_axis(out, &ax, data_ticks(series), true, bench_knob(spec->x)->name);
	draw_axis(out, &ay, NULL, false, ylabel);
	g_string_append_printf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
			       "fill='none' stroke='black'/>\n", LEFT, TOP, W - RIGHT - LEFT,
			       H - BOTTOM - TOP);
	for (guint i = 0; i < series->len; i++)
		draw_series(out, g_ptr_array_index(series, i), i, &ax, &ay);
	g_string_append(out, "</svg>\n");
	g_free(ylabel);
	g_free(title);
	g_ptr_array_unref(series);
	return out;
}

gboolean bench_plot_write(const char *path, const GPtrArray *rows,
			  const struct bench_defs *defs, const struct bench_plot_spec *spec,
			  GError **err)
{
	GString *svg = bench_plot_svg(rows, defs, spec, err);
	gboolean ok;

	if (!svg)
		return FALSE;
	ok = g_file_set_contents(path, svg->str, (gssize)svg->len, err);
	g_string_free(svg, TRUE);
	return ok;
}
