/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_bench.h"

#include <string.h>
#include <time.h>

const char *const ph_policy_names[PH_POLICY_COUNT] = {
	[PH_POLICY_NONE] = "none",
	[PH_POLICY_MASK] = "mask",
	[PH_POLICY_HASH32] = "hash32",
	[PH_POLICY_HASH32X2] = "hash32x2",
	[PH_POLICY_HASH32X4] = "hash32x4",
	[PH_POLICY_INDEX] = "index",
	[PH_POLICY_LRU] = "lru",
	[PH_POLICY_OPT] = "opt",
};

static const enum fc_dt_policy replay_policy[] = {
	[PH_POLICY_NONE] = FC_DT_NONE,
	[PH_POLICY_MASK] = FC_DT_MASK,
	[PH_POLICY_HASH32] = FC_DT_HASH32,
	[PH_POLICY_HASH32X2] = FC_DT_HASH32_2WAY,
	[PH_POLICY_HASH32X4] = FC_DT_HASH32_4WAY,
	[PH_POLICY_INDEX] = FC_DT_INDEX,
};

gboolean ph_policy_parse(const char *word, enum ph_policy *policy)
{
	for (gsize i = 0; i < PH_POLICY_COUNT; i++) {
		if (!strcmp(word, ph_policy_names[i])) {
			*policy = (enum ph_policy)i;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean ph_policy_sized(enum ph_policy policy)
{
	return policy != PH_POLICY_NONE && policy != PH_POLICY_MASK && policy != PH_POLICY_INDEX;
}

guint64 ph_bench_memory(const struct ph_config *c)
{
	return (guint64)c->size * 8;
}

/* LRU and OPT: counters from the stack distances, as at boot. */
static void count_ideal(const struct ph_bench *b, struct ph_config *c)
{
	const struct ph_analysis *a = &b->analysis;
	const guint32 *dist = c->policy == PH_POLICY_OPT ? a->opt : a->lru;
	guint split[3];
	guint32 held = 0;

	c->stats.misses = ph_analysis_curve(a, c->policy == PH_POLICY_OPT, c->size,
					    &c->stats.scan_steps, split);
	c->stats.lookups = a->n;
	c->stats.hits = a->n - c->stats.misses;
	c->stats.unresolved = a->unresolved;
	c->classes[PH_MISS_UNRESOLVED] = split[0];
	c->classes[PH_MISS_COMPULSORY] = split[1];
	c->classes[PH_MISS_CAPACITY] = split[2];
	for (guint i = 0; i < a->n; i++) {
		gboolean miss = dist[i] == PH_DIST_UNRESOLVED || dist[i] > c->size;

		if (i == b->trace.core_init_at)
			held = MIN(c->size, a->nids); /* filled at core init */
		if (!miss || dist[i] == PH_DIST_UNRESOLVED)
			continue;
		if (i < b->trace.core_init_at)
			c->before_core_init++;
		if (held == c->size)
			c->stats.evictions++;
		else
			held++;
	}
	for (guint i = 0; i < MIN(b->trace.core_init_at, a->n); i++)
		if (dist[i] == PH_DIST_UNRESOLVED)
			c->before_core_init++;
	if (b->trace.core_init_at >= a->n)
		held = MAX(held, MIN(c->size, a->nids));
	c->slots_used = held;
}

int ph_bench_index(struct ph_bench *b)
{
	guint32 nslots = fc_dt_index_slots(b->dt.nphandles);
	int rc;

	b->resolver_slots = g_new(struct fc_cache_slot, nslots);
	rc = fc_dt_index_build(&b->resolver, b->dt.fdt, b->resolver_slots, nslots);
	return rc < 0 ? rc : 0;
}

void ph_bench_index_clear(struct ph_bench *b)
{
	g_clear_pointer(&b->resolver_slots, g_free);
}

/*
 * Where a replay times libfdt's real scans: n windows of len lookups, one
 * starting every `every` lookups (the whole trace: one window of every
 * lookup). Outside them the misses are resolved by b's index.
 */
struct ph_windows {
	guint n, every, len;
	guint next;     /* the lookup before which a window opens or closes */
	guint done;     /* windows closed in this replay */
	gboolean open;
	gint64 start, ns; /* the open window's start; the time inside windows */
};

static gint64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Before lookup i (w->next): close the open window, open the next one if it starts here. */
static void window_edge(struct ph_windows *w, guint i)
{
	if (w->open) {
		w->ns += now_ns() - w->start;
		w->open = FALSE;
		w->done++;
		w->next = i - w->len + w->every;
	}
	if (i == w->next && w->done < w->n) {
		w->open = TRUE;
		w->next = i + w->len;
		w->start = now_ns();
	}
}

/*
 * One boot: caches as at boot, core init where the trace puts it. Without
 * windows every miss is resolved by b's index (the counters are the same,
 * the scans' cost is not paid).
 */
static int replay(const struct ph_bench *b, struct fc_dt_replay *r, const struct ph_config *c,
		  struct fc_cache_slot *slots, struct ph_config *count, struct ph_windows *w)
{
	guint n = ph_trace_lookups(&b->trace);
	int rc = fc_dt_replay_init(r, &b->dt, replay_policy[c->policy], slots, c->size);

	if (rc < 0)
		return rc;
	if (w) {
		w->next = w->done = 0;
		w->open = FALSE;
	}
	for (guint i = 0; i < n; i++) {
		guint32 misses = r->stats.misses;

		if (w && i == w->next)
			window_edge(w, i);
		if (i == b->trace.core_init_at)
			fc_dt_replay_core_init(r);
		/* inside a window libfdt's real scan, else the index's answer */
		rc = fc_dt_replay_lookup_indexed(r, ph_trace_at(&b->trace, i),
						 w && w->open ? NULL : &b->resolver);
		if (rc < 0 && rc != FC_ENOENT)
			return rc;
		if (count && r->stats.misses != misses) {
			gboolean cached = c->policy != PH_POLICY_NONE &&
					  (c->policy != PH_POLICY_MASK || r->core_init_done);

			count->classes[ph_analysis_class(&b->analysis, i, c->size, cached)]++;
			if (i < b->trace.core_init_at)
				count->before_core_init++;
		}
	}
	if (w && w->open)
		window_edge(w, n);
	if (b->trace.core_init_at >= n)
		fc_dt_replay_core_init(r);
	return 0;
}

static void clear_counts(struct ph_config *c)
{
	memset(&c->stats, 0, sizeof(c->stats));
	memset(c->classes, 0, sizeof(c->classes));
	c->before_core_init = 0;
}

/* Replay c once into slots, filling its counters. */
static int count_replay(const struct ph_bench *b, struct ph_config *c, struct fc_cache_slot *slots)
{
	struct fc_dt_replay r;
	int rc;

	clear_counts(c);
	rc = replay(b, &r, c, slots, c, NULL);
	if (!rc) {
		c->stats = r.stats;
		c->slots_used = r.cache.used;
	}
	return rc;
}

int ph_bench_count(const struct ph_bench *b, struct ph_config *c)
{
	struct fc_cache_slot *slots;
	int rc;

	if (c->policy == PH_POLICY_LRU || c->policy == PH_POLICY_OPT) {
		clear_counts(c);
		count_ideal(b, c);
		return 0;
	}
	slots = g_new(struct fc_cache_slot, MAX(c->size, 1));
	rc = count_replay(b, c, slots);
	g_free(slots);
	return rc;
}

/*
 * The windows c's replays are timed in: the whole trace when its scans
 * visit at most PH_TIMED_STEPS nodes (c's counted scan_steps), else
 * PH_WINDOWS windows evenly spread, whose lookups are the share of the
 * trace that visits about PH_SAMPLE_STEPS nodes; each window replays its
 * scans for real, from the caches' state at its start.
 */
static struct ph_windows windows_of(const struct ph_config *c, guint n)
{
	struct ph_windows w = { .n = 1, .every = n, .len = n };
	guint64 share;

	if (c->stats.scan_steps <= PH_TIMED_STEPS)
		return w;
	w.n = MIN(PH_WINDOWS, n);
	w.every = n / w.n;
	share = (guint64)n * PH_SAMPLE_STEPS / c->stats.scan_steps;
	w.len = (guint)CLAMP(share / w.n, 1, w.every);
	return w;
}

/* Replays of c without counting, timed in their windows for at least min_us; sets ns_per_lookup. */
static int time_replays(const struct ph_bench *b, struct ph_config *c, struct fc_cache_slot *slots,
			gint64 min_us)
{
	struct fc_dt_replay r;
	struct ph_windows w = windows_of(c, ph_trace_lookups(&b->trace));
	guint64 runs = 0;
	int rc;

	do {
		rc = replay(b, &r, c, slots, NULL, &w);
		runs++;
	} while (!rc && w.ns < min_us * 1000);
	c->timed = !rc;
	c->timed_lookups = w.n < 2 ? 0 : w.n * w.len;
	c->ns_per_lookup = (double)w.ns / ((double)runs * w.n * w.len);
	return rc;
}

int ph_bench_measure(const struct ph_bench *b, struct ph_config *c, gint64 min_us)
{
	struct fc_cache_slot *slots;
	int rc;

	if (c->policy == PH_POLICY_LRU || c->policy == PH_POLICY_OPT || !ph_trace_lookups(&b->trace))
		return ph_bench_count(b, c);
	slots = g_new(struct fc_cache_slot, MAX(c->size, 1));
	rc = count_replay(b, c, slots);
	if (!rc)
		rc = time_replays(b, c, slots, min_us);
	g_free(slots);
	return rc;
}
