/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-bench --plot: misses against cache size (log2 axis) for hash32,
 * its set-associative variants, LRU and OPT, with the compulsory misses and
 * the complete index as lines and the mask cache as a point. Plain SVG 1.1.
 */
#include "ph_bench.h"

#include <math.h>

#include "common/escape.h"

#define W 720.0
#define H 420.0
#define LEFT 70.0
#define RIGHT 150.0
#define TOP 40.0
#define BOTTOM 50.0

static const struct {
	enum ph_policy policy;
	const char *colour;
	const char *dash;
} series[] = {
	{ PH_POLICY_HASH32, "#d62728", "" },
	{ PH_POLICY_HASH32X2, "#ff7f0e", "" },
	{ PH_POLICY_HASH32X4, "#9467bd", "" },
	{ PH_POLICY_LRU, "#1f77b4", "6,3" },
	{ PH_POLICY_OPT, "#2ca02c", "6,3" },
};

struct axes {
	double lo, hi; /* log2 of the sizes */
	double ymax;
};

static double px(const struct axes *ax, guint32 size)
{
	double span = ax->hi > ax->lo ? ax->hi - ax->lo : 1.0;

	return LEFT + (log2((double)size) - ax->lo) / span * (W - LEFT - RIGHT);
}

static double py(const struct axes *ax, double misses)
{
	return H - BOTTOM - misses / ax->ymax * (H - TOP - BOTTOM);
}

static guint32 size_at(const GArray *sizes, guint i)
{
	return g_array_index(sizes, guint32, i);
}

static guint misses_of(const struct ph_bench *b, enum ph_policy policy, guint32 size)
{
	struct ph_config c = { .policy = policy, .size = size };

	if ((policy == PH_POLICY_HASH32X2 && size < 2) || (policy == PH_POLICY_HASH32X4 && size < 4) ||
	    ph_bench_count(b, &c) < 0)
		return G_MAXUINT;
	return c.stats.misses;
}

static void axes_and_labels(GString *svg, const struct ph_bench *b, const struct axes *ax,
			    const GArray *sizes)
{
	g_autofree char *dtb_base = g_path_get_basename(b->dtb_path);
	g_autofree char *trace_base = g_path_get_basename(b->trace_name);
	g_autofree char *dtb = tool_esc_xml(dtb_base, -1);
	g_autofree char *trace = tool_esc_xml(trace_base, -1);

	g_string_append_printf(svg, "<text x=\"%g\" y=\"20\" font-size=\"14\">misses per cache size: %s, %s</text>\n",
			       LEFT, dtb, trace);
	g_string_append_printf(svg, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n",
			       LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM);
	g_string_append_printf(svg, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n",
			       LEFT, TOP, LEFT, H - BOTTOM);
	for (guint i = 0; i < sizes->len; i++)
		g_string_append_printf(svg, "<text x=\"%.1f\" y=\"%g\" font-size=\"11\" text-anchor=\"middle\">%u</text>\n",
				       px(ax, size_at(sizes, i)), H - BOTTOM + 16, size_at(sizes, i));
	g_string_append_printf(svg, "<text x=\"%g\" y=\"%g\" font-size=\"12\" text-anchor=\"middle\">cache size (slots)</text>\n",
			       (LEFT + W - RIGHT) / 2, H - 12);
	for (int k = 0; k <= 4; k++)
		g_string_append_printf(svg, "<text x=\"%g\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.0f</text>\n",
				       LEFT - 6, py(ax, ax->ymax * k / 4) + 4, ax->ymax * k / 4);
	g_string_append_printf(svg, "<text x=\"16\" y=\"%g\" font-size=\"12\" transform=\"rotate(-90 16 %g)\" text-anchor=\"middle\">misses</text>\n",
			       (TOP + H - BOTTOM) / 2, (TOP + H - BOTTOM) / 2);
}

static void hline(GString *svg, const struct axes *ax, double y, const char *colour, const char *label, int row)
{
	g_string_append_printf(svg, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"2,3\"/>\n",
			       LEFT, py(ax, y), W - RIGHT, py(ax, y), colour);
	g_string_append_printf(svg, "<text x=\"%g\" y=\"%g\" font-size=\"12\" fill=\"%s\">%s (%.0f)</text>\n",
			       W - RIGHT + 10, TOP + 16.0 * row, colour, label, y);
}

static void curve(GString *svg, const struct axes *ax, const GArray *sizes, const guint *m,
		  const char *colour, const char *dash, const char *label, int row)
{
	gboolean pen = FALSE;

	g_string_append_printf(svg, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s%s%s d=\"",
			       colour, *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "");
	for (guint i = 0; i < sizes->len; i++) {
		if (m[i] == G_MAXUINT) {
			pen = FALSE;
			continue;
		}
		g_string_append_printf(svg, "%s%.1f %.1f ", pen ? "L" : "M", px(ax, size_at(sizes, i)),
				       py(ax, m[i]));
		pen = TRUE;
	}
	g_string_append(svg, "\"/>\n");
	g_string_append_printf(svg, "<text x=\"%g\" y=\"%g\" font-size=\"12\" fill=\"%s\">%s</text>\n",
			       W - RIGHT + 10, TOP + 16.0 * row, colour, label);
}

gboolean ph_bench_plot(const struct ph_bench *b, const char *path, GError **error)
{
	const GArray *sizes = b->sizes;
	guint *m[G_N_ELEMENTS(series)];
	struct axes ax = { .ymax = 1 };
	guint index = misses_of(b, PH_POLICY_INDEX, fc_dt_index_slots(b->dt.nphandles));
	guint mask = misses_of(b, PH_POLICY_MASK, b->mask_size);
	GString *svg = g_string_new(NULL);
	gboolean ok;
	int row = 0;

	ax.lo = log2((double)MIN(size_at(sizes, 0), b->mask_size));
	ax.hi = log2((double)MAX(size_at(sizes, sizes->len - 1), b->mask_size));
	for (gsize s = 0; s < G_N_ELEMENTS(series); s++) {
		m[s] = g_new(guint, sizes->len);
		for (guint i = 0; i < sizes->len; i++) {
			m[s][i] = misses_of(b, series[s].policy, size_at(sizes, i));
			if (m[s][i] != G_MAXUINT)
				ax.ymax = MAX(ax.ymax, m[s][i]);
		}
	}
	ax.ymax = MAX(ax.ymax, MAX(mask, (guint)b->analysis.distinct)) * 1.05;
	g_string_append_printf(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%g\" height=\"%g\" "
			       "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\">\n"
			       "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, H, W, H);
	axes_and_labels(svg, b, &ax, sizes);
	for (gsize s = 0; s < G_N_ELEMENTS(series); s++)
		curve(svg, &ax, sizes, m[s], series[s].colour, series[s].dash,
		      ph_policy_names[series[s].policy], row++);
	hline(svg, &ax, b->analysis.distinct, "#555555", "compulsory", row++);
	hline(svg, &ax, index, "#8c564b", "index", row++);
	g_string_append_printf(svg, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#e377c2\"/>\n"
			       "<text x=\"%g\" y=\"%g\" font-size=\"12\" fill=\"#e377c2\">mask (%u slots)</text>\n",
			       px(&ax, b->mask_size), py(&ax, mask), W - RIGHT + 10, TOP + 16.0 * row,
			       b->mask_size);
	g_string_append(svg, "</svg>\n");
	ok = g_file_set_contents(path, svg->str, (gssize)svg->len, error);
	for (gsize s = 0; s < G_N_ELEMENTS(series); s++)
		g_free(m[s]);
	g_string_free(svg, TRUE);
	return ok;
}
