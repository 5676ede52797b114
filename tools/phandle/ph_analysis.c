/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_analysis.h"

#include <string.h>

#define NO_ID G_MAXUINT32

/*
 * Dense ids: 0..nids-1 for the tree's distinct phandles in tree order (the
 * first node with a phandle wins, as a scan finds it); id[t] of each
 * lookup, NO_ID for those that resolve to no node.
 */
static guint32 *dense_ids(struct ph_analysis *a, const struct ph_trace *trace,
			  const struct fc_dt *dt)
{
	GHashTable *ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	guint32 *id = g_new(guint32, MAX(a->n, 1));
	guint8 *seen;

	a->tree_pos = g_new(guint32, MAX(dt->nphandles, 1));
	for (guint32 i = 0; i < dt->nnodes; i++) {
		gpointer key = GUINT_TO_POINTER(dt->nodes[i].phandle);

		if (dt->nodes[i].phandle && !g_hash_table_contains(ids, key)) {
			a->tree_pos[a->nids] = i + 1;
			g_hash_table_insert(ids, key, GUINT_TO_POINTER(++a->nids));
		}
	}
	seen = g_new0(guint8, MAX(a->nids, 1));
	for (guint i = 0; i < a->n; i++) {
		guint v = GPOINTER_TO_UINT(g_hash_table_lookup(ids,
					   GUINT_TO_POINTER(ph_trace_at(trace, i))));

		id[i] = v ? v - 1 : NO_ID;
		a->pos[i] = v ? a->tree_pos[v - 1] : dt->nnodes;
		a->first[i] = v && !seen[v - 1];
		if (!v) {
			a->unresolved++;
		} else if (a->first[i]) {
			seen[v - 1] = 1;
			a->distinct++;
		}
	}
	g_free(seen);
	g_hash_table_destroy(ids);
	return id;
}

/* Fenwick tree over lookup times: 1 where a phandle was last looked up. */
static void bit_add(gint32 *bit, guint n, guint i, gint32 v)
{
	for (i++; i <= n; i += i & -i)
		bit[i] += v;
}

static guint32 bit_sum(const gint32 *bit, guint i) /* marks at times 0..i-1 */
{
	gint64 s = 0;

	for (; i > 0; i -= i & -i)
		s += bit[i];
	return (guint32)s;
}

/* One reference of x at time t; returns its stack distance (PH_DIST_FIRST if none). */
static guint32 lru_touch(gint32 *bit, guint len, guint *last, guint32 x, guint t)
{
	guint32 d = PH_DIST_FIRST;

	if (last[x] != G_MAXUINT) {
		/* distinct phandles last looked up at times last[x]..t-1 */
		d = bit_sum(bit, t) - bit_sum(bit, last[x]);
		bit_add(bit, len, last[x], -1);
	}
	bit_add(bit, len, t, 1);
	last[x] = t;
	return d;
}

/*
 * LRU distances as at boot: at of_core_init every phandle of the tree is
 * touched in reverse tree order, so a cache of C slots then holds the first
 * C in tree order, as Linux's prefill does; those touches are not lookups.
 */
static void lru_distances(struct ph_analysis *a, const guint32 *id, guint core_init_at)
{
	guint len = a->n + a->nids;
	gint32 *bit = g_new0(gint32, len + 1);
	guint *last = g_new(guint, MAX(a->nids, 1));
	guint time = 0;

	for (guint k = 0; k < a->nids; k++)
		last[k] = G_MAXUINT;
	for (guint t = 0; t < a->n; t++) {
		if (t == core_init_at)
			for (guint k = a->nids; k-- > 0;)
				lru_touch(bit, len, last, k, time++);
		if (id[t] == NO_ID) {
			a->lru[t] = PH_DIST_UNRESOLVED;
			continue;
		}
		a->lru[t] = lru_touch(bit, len, last, id[t], time++);
	}
	g_free(last);
	g_free(bit);
}

/* next[t]: the time of the next lookup of id[t], n when none. */
static guint *next_uses(const struct ph_analysis *a, const guint32 *id)
{
	guint *next = g_new(guint, MAX(a->n, 1));
	guint *seen = g_new(guint, MAX(a->nids, 1));

	for (guint k = 0; k < a->nids; k++)
		seen[k] = a->n;
	for (guint t = a->n; t-- > 0;) {
		if (id[t] == NO_ID)
			continue;
		next[t] = seen[id[t]];
		seen[id[t]] = t;
	}
	g_free(seen);
	return next;
}

struct opt_stack {
	guint32 k;      /* levels kept */
	guint32 len;    /* levels in use */
	guint32 *stack; /* ids, top first */
	guint32 *depth; /* per id: its level, k when not held */
	guint *due;     /* per id: the time of its next lookup */
};

static gint by_due(gconstpointer x, gconstpointer y, gpointer data)
{
	const guint *due = data;
	guint32 i = *(const guint32 *)x, j = *(const guint32 *)y;

	if (due[i] != due[j])
		return due[i] < due[j] ? -1 : 1;
	return i < j ? -1 : i > j; /* tree order */
}

/*
 * of_core_init: an optimal cache may load any C nodes for free, so it
 * takes the C needed soonest: the stack becomes every phandle sorted by
 * next use.
 */
static void opt_refill(struct ph_analysis *a, struct opt_stack *o, const guint32 *id, guint from)
{
	GArray *order = g_array_sized_new(FALSE, FALSE, sizeof(guint32), a->nids);

	for (guint32 x = 0; x < a->nids; x++) {
		o->due[x] = a->n;
		o->depth[x] = o->k;
		g_array_append_val(order, x);
	}
	for (guint t = a->n; t-- > from;)
		if (id[t] != NO_ID)
			o->due[id[t]] = t;
	g_array_sort_with_data(order, by_due, o->due);
	o->len = MIN(o->k, a->nids);
	for (guint32 i = 0; i < o->len; i++) {
		guint32 x = g_array_index(order, guint32, i);

		o->stack[i] = x;
		o->depth[x] = i;
	}
	g_array_free(order, TRUE);
}

/*
 * Mattson's OPT stack for one lookup of x, kept to its top k levels: x goes
 * on top; going down, each level keeps whichever of the carried entry and
 * its own is needed sooner and the other moves on, until the old level of x
 * (or the bottom) takes the carried one.
 */
static guint32 opt_touch(struct opt_stack *o, guint32 x, guint next)
{
	guint32 d = o->depth[x], carry, end;

	o->due[x] = next;
	if (d == 0)
		return 1;
	if (!o->len) {
		o->stack[0] = x;
		o->depth[x] = 0;
		o->len = 1;
		return PH_DIST_BEYOND;
	}
	end = d < o->k ? d : o->len; /* the level that takes the last carried entry */
	carry = o->stack[0];
	o->stack[0] = x;
	o->depth[x] = 0;
	for (guint32 i = 1; i < end; i++) {
		if (o->due[carry] < o->due[o->stack[i]]) {
			guint32 y = o->stack[i];

			o->stack[i] = carry;
			o->depth[carry] = i;
			carry = y;
		}
	}
	if (end < o->k) {
		o->stack[end] = carry;
		o->depth[carry] = end;
		if (end == o->len)
			o->len++;
	} else {
		o->depth[carry] = o->k; /* falls below the levels kept */
	}
	return d < o->k ? d + 1 : PH_DIST_BEYOND;
}

/* OPT distances as at boot: live from the first lookup, refilled at of_core_init. */
static void opt_distances(struct ph_analysis *a, const guint32 *id, guint core_init_at)
{
	guint *next = next_uses(a, id);
	struct opt_stack o = { .k = MIN(a->opt_limit, MAX(a->nids, 1)) };

	o.stack = g_new(guint32, o.k);
	o.depth = g_new(guint32, MAX(a->nids, 1));
	o.due = g_new(guint, MAX(a->nids, 1));
	for (guint x = 0; x < a->nids; x++)
		o.depth[x] = o.k;
	for (guint t = 0; t < a->n; t++) {
		if (t == core_init_at)
			opt_refill(a, &o, id, t);
		a->opt[t] = id[t] == NO_ID ? PH_DIST_UNRESOLVED : opt_touch(&o, id[t], next[t]);
	}
	g_free(o.due);
	g_free(o.depth);
	g_free(o.stack);
	g_free(next);
}

void ph_analyse(struct ph_analysis *a, const struct ph_trace *trace, const struct fc_dt *dt,
		guint32 opt_limit)
{
	guint32 *id;

	memset(a, 0, sizeof(*a));
	a->n = ph_trace_lookups(trace);
	a->nnodes = dt->nnodes;
	a->opt_limit = MAX(opt_limit, 1);
	a->lru = g_new(guint32, MAX(a->n, 1));
	a->opt = g_new(guint32, MAX(a->n, 1));
	a->pos = g_new(guint32, MAX(a->n, 1));
	a->first = g_new(guint8, MAX(a->n, 1));
	id = dense_ids(a, trace, dt);
	lru_distances(a, id, trace->core_init_at);
	opt_distances(a, id, trace->core_init_at);
	g_free(id);
}

void ph_analysis_clear(struct ph_analysis *a)
{
	g_free(a->lru);
	g_free(a->opt);
	g_free(a->pos);
	g_free(a->first);
	g_free(a->tree_pos);
	memset(a, 0, sizeof(*a));
}

enum ph_miss ph_analysis_class(const struct ph_analysis *a, guint i, guint32 size,
			       gboolean cached)
{
	if (a->lru[i] == PH_DIST_UNRESOLVED)
		return PH_MISS_UNRESOLVED;
	if (!cached)
		return PH_MISS_UNCACHED;
	if (a->first[i])
		return PH_MISS_COMPULSORY;
	return a->lru[i] > size ? PH_MISS_CAPACITY : PH_MISS_CONFLICT;
}

guint ph_analysis_curve(const struct ph_analysis *a, gboolean opt, guint32 size,
			guint64 *scan_steps, guint *classes)
{
	const guint32 *dist = opt ? a->opt : a->lru;
	guint misses = 0;
	guint split[3] = { 0, 0, 0 };

	*scan_steps = 0;
	for (guint i = 0; i < a->n; i++) {
		if (dist[i] != PH_DIST_UNRESOLVED && dist[i] <= size)
			continue;
		misses++;
		*scan_steps += a->pos[i];
		split[dist[i] == PH_DIST_UNRESOLVED ? 0 : a->first[i] ? 1 : 2]++;
	}
	if (classes)
		memcpy(classes, split, sizeof(split));
	return misses;
}
