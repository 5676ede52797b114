/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_bench.h - fdtcache-bench's configurations, replay and reports.
 */
#ifndef FDTCACHE_TOOLS_PH_BENCH_H
#define FDTCACHE_TOOLS_PH_BENCH_H

#include <glib.h>

#include "fdtcache/dt.h"
#include "ph_analysis.h"
#include "ph_trace.h"

enum ph_policy {
	PH_POLICY_NONE,
	PH_POLICY_MASK,
	PH_POLICY_HASH32,
	PH_POLICY_HASH32X2,
	PH_POLICY_HASH32X4,
	PH_POLICY_INDEX,
	PH_POLICY_LRU, /* computed from stack distances, not replayed */
	PH_POLICY_OPT, /* computed from stack distances, not replayed */
	PH_POLICY_COUNT
};

extern const char *const ph_policy_names[PH_POLICY_COUNT];

/* ph_policy_parse - a policy name; FALSE for an unknown one. */
gboolean ph_policy_parse(const char *word, enum ph_policy *policy);

/* ph_policy_sized - whether the policy has one row per --sizes entry. */
gboolean ph_policy_sized(enum ph_policy policy);

struct ph_config {
	enum ph_policy policy;
	guint32 size; /* slots */
	struct fc_dt_replay_stats stats;
	guint before_core_init;       /* misses among the lookups before of_core_init */
	guint classes[PH_MISS_COUNT]; /* the split of the misses */
	guint32 slots_used;           /* slots holding a node at the end */
	gboolean timed;               /* ns_per_lookup was measured */
	guint timed_lookups;          /* > 0: it was timed on these lookups only (PH_WINDOWS) */
	double ns_per_lookup;
};

/*
 * A configuration whose libfdt scans over the whole trace visit more nodes
 * than PH_TIMED_STEPS is timed on PH_WINDOWS windows spread over the trace
 * whose scans visit about PH_SAMPLE_STEPS nodes in all, so that its time
 * stays linear in the trace; the counters are always the whole trace's.
 */
#define PH_TIMED_STEPS (1u << 20)
#define PH_SAMPLE_STEPS (1u << 18)
#define PH_WINDOWS 64

/* The typed lookups' replay through fc_dt_lookups (ph_bench_typed.c). */
struct ph_typed_run {
	guint32 name_cache;   /* slots of the path and the property cache (0: none) */
	guint32 node_cache;   /* slots of the node-offset cache (complete) */
	int *nodes;           /* per typed lookup: the node its path names (parent, cells) */
	int *expect;          /* per typed lookup: libfdt's answer, encoded (ph_bench_typed.c) */
	struct fc_dt_path_slot *path_slots;
	struct fc_cache_slot *prop_slots, *node_slots;
	struct fc_dt_lookup_stats stats[PH_KINDS];
	gboolean timed;
	double ns_per_lookup; /* a replay from empty caches (set-up included), per lookup */
};

struct ph_bench {
	const char *dtb_path;
	const char *trace_name;  /* the trace file, or "synthetic trace (MODEL)" */
	struct fc_dt dt;
	struct ph_trace trace;
	struct ph_analysis analysis;
	GArray *configs;         /* struct ph_config: the rows asked for */
	GArray *sizes;           /* guint32: the --sizes list, ascending */
	guint32 mask_size;       /* the mask cache's size */
	const char *renumbered;  /* "slof" or "stride" when phandles were rewritten */
	struct ph_typed_run typed;
	/* a complete index of the DTB: the counting replays resolve their misses by it */
	struct fc_cache resolver;
	struct fc_cache_slot *resolver_slots;
};

/*
 * ph_bench_index - build b->resolver over b->dt (initialised), which the
 * replays resolve their misses by when they do not time libfdt's scans;
 * returns 0 or an FC_E* code. ph_bench_index_clear frees it.
 */
int ph_bench_index(struct ph_bench *b);
void ph_bench_index_clear(struct ph_bench *b);

/* ph_bench_count - replay c once, filling its counters; returns 0 or an FC_E* code. */
int ph_bench_count(const struct ph_bench *b, struct ph_config *c);

/*
 * ph_bench_measure - ph_bench_count, and ns_per_lookup from replays of c
 * with libfdt's real scans lasting at least min_us microseconds (over their
 * windows, PH_WINDOWS); returns 0 or an FC_E* code.
 */
int ph_bench_measure(const struct ph_bench *b, struct ph_config *c, gint64 min_us);

/* ph_bench_memory - the bytes of c's cache: slots x 8 (a 64-bit pointer array). */
guint64 ph_bench_memory(const struct ph_config *c);

/*
 * ph_typed_prepare - libfdt's answer to each typed lookup of b's trace and
 * the node each parent or cells lookup names; FALSE with "TRACE:LINE: ..."
 * when that node is not in the DTB.
 */
gboolean ph_typed_prepare(struct ph_bench *b, GError **error);

/*
 * ph_typed_count - replay the typed lookups once through fc_dt_lookups,
 * filling b->typed.stats; FALSE with "TRACE:LINE: ..." when an answer is
 * not libfdt's (PH_ERROR_CHECK) or libcore fails.
 */
gboolean ph_typed_count(struct ph_bench *b, GError **error);

/* ph_typed_time - replay them for at least min_us microseconds; sets ns_per_lookup. */
void ph_typed_time(struct ph_bench *b, gint64 min_us);

/* ph_typed_clear - free what ph_typed_prepare allocated. */
void ph_typed_clear(struct ph_typed_run *run);

/* The typed lookups' report (ph_bench_typed_out.c). */
void ph_typed_print_table(const struct ph_bench *b);
void ph_typed_print_csv(const struct ph_bench *b);
struct _JsonBuilder;
/* ph_typed_json - the "typed" member of the JSON report. */
void ph_typed_json(struct _JsonBuilder *jb, const struct ph_bench *b);

/* Reports (ph_bench_out.c). wide: every column in the table. */
void ph_bench_print_table(const struct ph_bench *b, gboolean wide);
void ph_bench_print_csv(const struct ph_bench *b);
void ph_bench_print_json(const struct ph_bench *b, const char *recommendation);

/* ph_bench_recommend - the closing advice in words (ph_recommend.c); g_free it. */
char *ph_bench_recommend(const struct ph_bench *b);

/* ph_bench_plot - misses against cache size per policy as SVG (ph_plot.c). */
gboolean ph_bench_plot(const struct ph_bench *b, const char *path, GError **error);

/* ph_wrap - append text to out, wrapped at width columns. */
void ph_wrap(GString *out, const char *text, guint width);

#endif /* FDTCACHE_TOOLS_PH_BENCH_H */
