/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_out.h - nvs-bench result rows and their outputs: CSV (write, read,
 * compare), a table for people, and a progress line.
 *
 * CSV header (one row per permutation and phase):
 *   workload,geometry,<every knob of bench_defs.h in table order>,phase,
 *   ops,reads,read_bytes,progs,prog_bytes,erases,erase_bytes,blank_erases,max_wear,
 *   sim_ns,floor_ns,overshoot_ns,polls,cpu_ns,status,detail
 * Knob columns hold the value as given (names such as "auto" or "adaptive"
 * stay names). Figures are unsigned integers; status is "ok" or a short
 * error name without commas; detail says why a failed row failed (the knob
 * and the rule it breaks), empty otherwise, without commas. A file without
 * the detail column reads with empty details. Text fields read from a CSV
 * may hold any bytes: every output escapes them (CSV and tables as text with
 * \xNN, JSON strings as valid UTF-8 with U+FFFD for invalid bytes, SVG as
 * XML; see tools/common/escape.h). See bench_figure() for what each figure
 * means.
 */
#ifndef FDTCACHE_BENCH_OUT_H
#define FDTCACHE_BENCH_OUT_H

#include <stdio.h>

#include "bench_defs.h"

enum bench_figure {
	BENCH_F_OPS,          /* workload operations in the phase */
	BENCH_F_READS,        /* flash read calls */
	BENCH_F_READ_BYTES,
	BENCH_F_PROGS,        /* flash program calls */
	BENCH_F_PROG_BYTES,
	BENCH_F_ERASES,       /* flash erase calls */
	BENCH_F_ERASE_BYTES,
	BENCH_F_BLANK_ERASES, /* erase calls on ranges that were already erased (not in the floor) */
	BENCH_F_MAX_WEAR,     /* most erases of one erase unit, since the start of the run */
	BENCH_F_SIM_NS,       /* simulated time: flash busy time plus waiting overshoot */
	BENCH_F_FLOOR_NS,     /* busy time of the programs, and of the erases of written ranges */
	BENCH_F_OVERSHOOT_NS, /* time between the flash becoming ready and the driver noticing */
	BENCH_F_POLLS,        /* status polls of the wait policy */
	BENCH_F_CPU_NS,       /* host CPU time (not deterministic) */
	BENCH_FIGURE_COUNT
};

struct bench_figure_info {
	const char *name;     /* CSV column, JSON member, table header, --plot-y */
	const char *help;
	bool deterministic;
	bool time_ns;
};

const struct bench_figure_info *bench_figure(enum bench_figure f);
/* Returns the figure index or -1. */
int bench_figure_find(const char *name);

struct bench_row {
	char *workload;
	char *geometry;
	int64_t knob[BENCH_KNOB_COUNT];
	char *phase;
	uint64_t fig[BENCH_FIGURE_COUNT];
	char *status; /* "ok" or an error name */
	char *detail; /* why it failed, or "" */
};

/* A row for perm with an empty detail; strings are copied. Free with bench_row_free. */
struct bench_row *bench_row_new(const char *workload, const struct bench_perm *perm,
				const char *phase, const char *status);
void bench_row_free(gpointer row);
/* GPtrArray of struct bench_row, owning them. */
GPtrArray *bench_rows_new(void);

/* The documented header line, without the newline. */
void bench_csv_header(GString *out);
void bench_csv_row(GString *out, const struct bench_row *row);
gboolean bench_csv_write(const char *path, const GPtrArray *rows, GError **err);
/* Output is written to fp (when not NULL) each time out holds this much. */
#define BENCH_FLUSH_BYTES (1u << 20)
/* bench_out_flush - write out to fp and empty it when it holds enough (or all). */
void bench_out_flush(GString *out, FILE *fp, gboolean all);

/*
 * bench_json - the rows as a JSON array of objects with the CSV's column
 * names as members; strings are valid UTF-8 (bytes of an --input CSV that
 * are not become U+FFFD). fp: see bench_out_flush.
 */
void bench_json(const GPtrArray *rows, GString *out, FILE *fp);
/* Read a CSV written by bench_csv_write; errors name path and line. */
GPtrArray *bench_csv_read(const char *path, GError **err);
/* The same over the len bytes at text (not NUL-terminated); path names it in errors. */
GPtrArray *bench_csv_parse(const char *path, const char *text, gsize len, GError **err);

/*
 * bench_defs_from_rows - describe rows (read with --input) in defs, fresh
 * from bench_defs_init: each knob's values and the geometries, in
 * first-seen order.
 */
void bench_defs_from_rows(struct bench_defs *defs, const GPtrArray *rows);

/* Difference in percent from old to new (0 when both are 0, +inf from 0). */
double bench_pct(uint64_t old_value, uint64_t new_value);

struct bench_compare_stats {
	unsigned matched;  /* new rows with an old row of the same key */
	unsigned added;    /* new rows without one */
	unsigned missing;  /* old rows without a new one */
	unsigned changed;  /* figures of matched rows that differ */
};

/*
 * bench_compare - print, per matched row (same workload, geometry, knobs
 * and phase), each figure that changed with its difference in percent, and
 * a summary line. Rows are matched by key, never by position; when a key
 * appears several times, its n-th new row matches its n-th old row.
 */
struct bench_compare_stats bench_compare(const GPtrArray *old_rows, const GPtrArray *new_rows,
					 const struct bench_defs *defs, GString *out);

#define BENCH_TABLE_COLUMNS 80
/*
 * bench_table - a table for people: workload, geometry, the knobs that vary
 * in defs, phase, figures (times in ms), status. Headers are the figures'
 * names. Figures get room in a fixed order of importance while lines fit
 * BENCH_TABLE_COLUMNS; a last line says how many were left out. wide: every
 * figure. fp: see bench_out_flush.
 */
void bench_table(const GPtrArray *rows, const struct bench_defs *defs, gboolean wide,
		 GString *out, FILE *fp);

/* Key of a row: workload, geometry, knobs, phase joined by commas. */
char *bench_row_key(const struct bench_row *row);
/*
 * bench_row_name_append - "workload geometry knobs phase" of a row for
 * people (only the varying knobs), escaped as text: what compare lines and
 * failure messages start with.
 */
void bench_row_name_append(GString *out, const struct bench_row *row,
			   const struct bench_defs *defs);
/* Short label of the varying knobs ("variant=ours entries=16"), raw bytes: g_free it. */
char *bench_row_label(const struct bench_row *row, const struct bench_defs *defs,
		      int skip_knob);

/* A progress line on stderr, drawn only when stderr is a terminal. */
struct bench_progress {
	gboolean tty;
	uint64_t total;
	gint64 last_us;
};

void bench_progress_init(struct bench_progress *pr, uint64_t total);
void bench_progress_update(struct bench_progress *pr, uint64_t done, const char *what);
void bench_progress_done(struct bench_progress *pr);

#endif /* FDTCACHE_BENCH_OUT_H */
