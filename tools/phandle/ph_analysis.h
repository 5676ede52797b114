/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_analysis.h - what any cache could do on a trace, from one pass each:
 *
 * - LRU stack distances (Mattson): the distance of a lookup is the number of
 *   distinct phandles used since the previous use of the same one, itself
 *   included, so a fully associative LRU cache of C slots hits exactly the
 *   lookups with distance <= C. Computed for every lookup in O(n log n)
 *   with a Fenwick tree over the uses' times.
 * - OPT stack distances (Mattson's stack algorithm for Belady's MIN): the
 *   stack is reordered by next use, so an optimal cache of C slots holds
 *   its top C and hits exactly the lookups found within depth C. O(n x K)
 *   for depths up to K.
 * Both caches are modelled as at boot, like Linux's hash32: live from the
 * first lookup and filled at of_core_init() for free: LRU with every
 * phandle of the tree (the first C in tree order stay, as Linux's prefill
 * keeps them), OPT with the C phandles needed soonest (so it is a lower
 * bound for any cache of C slots that is filled at core init).
 * - Compulsory misses: the first lookup of each phandle.
 * Lookups of phandles no node has are kept apart: every cache misses them
 * and none stores them.
 */
#ifndef FDTCACHE_TOOLS_PH_ANALYSIS_H
#define FDTCACHE_TOOLS_PH_ANALYSIS_H

#include <glib.h>

#include "fdtcache/dt.h"
#include "ph_trace.h"

#define PH_DIST_UNRESOLVED 0u            /* the lookup resolves to no node */
#define PH_DIST_FIRST G_MAXUINT32        /* the first lookup of its phandle */
#define PH_DIST_BEYOND (G_MAXUINT32 - 1) /* OPT: deeper than the limit */

struct ph_analysis {
	guint n;            /* lookups */
	guint distinct;     /* distinct phandles looked up that resolve */
	guint nids;         /* distinct phandles in the tree */
	guint unresolved;   /* lookups that resolve to no node */
	guint32 nnodes;
	guint32 opt_limit;  /* OPT distances are exact up to this depth */
	guint32 *lru;       /* per lookup: LRU stack distance, or PH_DIST_* */
	guint32 *opt;       /* per lookup: OPT stack distance, or PH_DIST_* */
	guint32 *pos;       /* per lookup: the target's 1-based tree position, nnodes if none */
	guint8 *first;      /* per lookup: the first lookup of its phandle */
	guint32 *tree_pos;  /* per tree phandle (tree order): its node's position */
};

/*
 * ph_analyse - analyse trace over dt's node table; OPT distances are exact
 * up to depth opt_limit (the largest cache size asked about).
 */
void ph_analyse(struct ph_analysis *a, const struct ph_trace *trace, const struct fc_dt *dt,
		guint32 opt_limit);
void ph_analysis_clear(struct ph_analysis *a);

/* How a cache of size slots did on one lookup (ph_analysis_miss_class). */
enum ph_miss {
	PH_MISS_UNRESOLVED,
	PH_MISS_UNCACHED,   /* no cache existed (none; mask before of_core_init) */
	PH_MISS_COMPULSORY, /* the first lookup of its phandle */
	PH_MISS_CAPACITY,   /* a fully associative LRU cache of the same size misses too */
	PH_MISS_CONFLICT,   /* it would have hit */
	PH_MISS_COUNT
};

/* ph_analysis_class - the class of a miss at lookup i in a cache of size slots. */
enum ph_miss ph_analysis_class(const struct ph_analysis *a, guint i, guint32 size,
			       gboolean cached);

/*
 * ph_analysis_curve - misses of a fully associative LRU (opt FALSE) or of
 * OPT (opt TRUE) cache of size slots, unresolved lookups included, with the
 * scan steps those misses cost; classes[] (if not NULL) gets the split
 * (unresolved, compulsory, the rest). size must be <= opt_limit for OPT.
 */
guint ph_analysis_curve(const struct ph_analysis *a, gboolean opt, guint32 size,
			guint64 *scan_steps, guint *classes);

#endif /* FDTCACHE_TOOLS_PH_ANALYSIS_H */
