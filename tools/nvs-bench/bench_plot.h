/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_plot.h - SVG line plots of one nvs-bench figure against one knob.
 *
 * One series per combination of the other varying dimensions (workload,
 * geometry, every other knob that takes several values, and the phase when
 * no phase is chosen). The SVG is self-contained: axes, ticks, labels,
 * title and legend, readable in any browser.
 */
#ifndef FDTCACHE_BENCH_PLOT_H
#define FDTCACHE_BENCH_PLOT_H

#include "bench_out.h"

struct bench_plot_spec {
	enum bench_knob x;
	enum bench_figure y;
	const char *phase; /* only rows of this phase; NULL: all, one series each */
	bool log_x, log_y;
	const char *title; /* NULL: "<figure> vs <knob>" */
};

/* Returns the SVG text, or NULL with err set (no plottable point, knob not numeric). */
GString *bench_plot_svg(const GPtrArray *rows, const struct bench_defs *defs,
			const struct bench_plot_spec *spec, GError **err);

gboolean bench_plot_write(const char *path, const GPtrArray *rows,
			  const struct bench_defs *defs, const struct bench_plot_spec *spec,
			  GError **err);

#endif /* FDTCACHE_BENCH_PLOT_H */
