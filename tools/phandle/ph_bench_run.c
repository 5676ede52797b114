/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_bench.h"

#include <string.h>

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

/* One boot: caches as at boot, core init where the trace puts it. */
static int replay(const struct ph_bench *b, struct fc_dt_replay *r, const struct ph_config *c,
		  struct fc_cache_slot *slots, struct ph_config *count)
{
	guint n = ph_trace_lookups(&b->trace);
	int rc = fc_dt_replay_init(r, &b->dt, replay_policy[c->policy], slots, c->size);

	if (rc < 0)
		return rc;
	for (guint i = 0; i < n; i++) {
		guint32 misses = r->stats.misses;

		if (i == b->trace.core_init_at)
			fc_dt_replay_core_init(r);
		rc = fc_dt_replay_lookup(r, ph_trace_at(&b->trace, i));
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
	rc = replay(b, &r, c, slots, c);
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

/* Replays of c without counting for at least min_us; sets ns_per_lookup. */
static int time_replays(const struct ph_bench *b, struct ph_config *c, struct fc_cache_slot *slots,
			gint64 min_us)
{
	struct fc_dt_replay r;
	guint n = ph_trace_lookups(&b->trace);
	guint64 runs = 0;
	gint64 start = g_get_monotonic_time(), elapsed;
	int rc = 0;

	do {
		rc = replay(b, &r, c, slots, NULL);
		runs++;
		elapsed = g_get_monotonic_time() - start;
	} while (!rc && elapsed < min_us);
	c->timed = !rc;
	c->ns_per_lookup = (double)elapsed * 1000.0 / ((double)runs * n);
	return rc;
}

/*
 * The counting replay is also the timed one when it alone lasts min_us: a
 * replay that long is the misses' scans, beside which counting costs nothing,
 * and replaying it once more would double the run. A shorter one is timed
 * again without counting.
 */
int ph_bench_measure(const struct ph_bench *b, struct ph_config *c, gint64 min_us)
{
	struct fc_cache_slot *slots;
	guint n = ph_trace_lookups(&b->trace);
	gint64 start, elapsed;
	int rc;

	if (c->policy == PH_POLICY_LRU || c->policy == PH_POLICY_OPT || !n)
		return ph_bench_count(b, c);
	slots = g_new(struct fc_cache_slot, MAX(c->size, 1));
	start = g_get_monotonic_time();
	rc = count_replay(b, c, slots);
	elapsed = g_get_monotonic_time() - start;
	if (!rc && elapsed >= min_us) {
		c->timed = TRUE;
		c->ns_per_lookup = (double)elapsed * 1000.0 / n;
	} else if (!rc) {
		rc = time_replays(b, c, slots, min_us);
	}
	g_free(slots);
	return rc;
}
