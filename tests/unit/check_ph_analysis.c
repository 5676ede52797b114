/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-bench's analysis against brute force on small random boots:
 * - OPT: the fewest misses any cache of C slots can have (live from the
 *   first lookup, filled for free at of_core_init), by dynamic programming
 *   over every set of cached phandles;
 * - LRU: a list simulation of a fully associative LRU cache of C slots,
 *   touched with the tree's phandles in reverse tree order at core init;
 * - the compulsory / capacity / conflict split of replayed configurations,
 *   classified miss by miss against that LRU simulation;
 * - the set-associative hash32 caches against a simulation of their sets.
 */
#include "check_util.h"

#include <glib.h>
#include <libfdt.h>
#include <string.h>

#include "fdtcache/cache.h"
#include "phandle/ph_analysis.h"
#include "phandle/ph_bench.h"

#define NODES 9 /* the tree: a root and 8 nodes with phandles */
#define MAX_LOOKUPS 40

struct boot {
	guint32 ph[NODES - 1]; /* tree order */
	void *fdt;
	struct fc_dt_node nodes[NODES];
	struct fc_dt dt;
	struct ph_trace trace;
};

static guint32 rnd(guint32 *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* A random tree and trace: phandles 1..40 in random tree order, 1 in 12 lookups unresolved. */
static void make_boot(struct boot *b, guint32 seed)
{
	guint32 s = seed * 2654435761u + 1;
	guint n = 1 + rnd(&s) % MAX_LOOKUPS;
	char name[8];

	b->fdt = g_malloc0(4096);
	ck_assert_int_eq(fdt_create(b->fdt, 4096), 0);
	fdt_finish_reservemap(b->fdt);
	fdt_begin_node(b->fdt, "");
	for (guint i = 0; i < NODES - 1; i++) {
		gboolean taken;

		do {
			b->ph[i] = 1 + rnd(&s) % 40;
			taken = FALSE;
			for (guint k = 0; k < i; k++)
				taken |= b->ph[k] == b->ph[i];
		} while (taken);
		g_snprintf(name, sizeof(name), "n%u", i);
		fdt_begin_node(b->fdt, name);
		fdt_property_u32(b->fdt, "phandle", b->ph[i]);
		fdt_end_node(b->fdt);
	}
	fdt_end_node(b->fdt);
	ck_assert_int_eq(fdt_finish(b->fdt), 0);
	ck_assert_int_eq(fc_dt_init(&b->dt, b->fdt, b->nodes, NODES), NODES);
	ph_trace_init(&b->trace);
	for (guint i = 0; i < n; i++) {
		/* a skewed pick, so that some phandles are hot */
		guint k = MIN(rnd(&s) % (NODES - 1), rnd(&s) % (NODES - 1));

		ph_trace_add(&b->trace, rnd(&s) % 12 ? b->ph[k] : 77, i + 1);
	}
	b->trace.core_init_at = rnd(&s) % (n + 2); /* n + 1: after the last lookup */
}

static void free_boot(struct boot *b)
{
	ph_trace_clear(&b->trace);
	g_free(b->fdt);
}

static int tree_index(const struct boot *b, guint32 ph)
{
	for (int k = 0; k < NODES - 1; k++)
		if (b->ph[k] == ph)
			return k;
	return -1;
}

/* The fewest misses of any demand cache of c slots, unresolved lookups included. */
static guint brute_opt(const struct boot *b, guint c)
{
	enum { STATES = 1 << (NODES - 1) };
	guint best[STATES], next[STATES];
	guint n = ph_trace_lookups(&b->trace);
	guint answer = G_MAXUINT;

	for (guint m = 0; m < STATES; m++)
		best[m] = m ? G_MAXUINT : 0;
	for (guint t = 0; t <= n; t++) {
		if (t == b->trace.core_init_at) {
			/* filled for free: any set of at most c phandles */
			guint low = G_MAXUINT;

			for (guint m = 0; m < STATES; m++)
				low = MIN(low, best[m]);
			for (guint m = 0; m < STATES; m++)
				best[m] = (guint)__builtin_popcount(m) <= c ? low : G_MAXUINT;
		}
		if (t == n)
			break;
		for (guint m = 0; m < STATES; m++)
			next[m] = G_MAXUINT;
		for (guint m = 0; m < STATES; m++) {
			int x = tree_index(b, ph_trace_at(&b->trace, t));

			if (best[m] == G_MAXUINT)
				continue;
			if (x < 0) { /* unresolved: a miss that stores nothing */
				next[m] = MIN(next[m], best[m] + 1);
			} else if (m & (1u << x)) {
				next[m] = MIN(next[m], best[m]);
			} else if ((guint)__builtin_popcount(m) < c) {
				next[m | 1u << x] = MIN(next[m | 1u << x], best[m] + 1);
			} else {
				for (int y = 0; y < NODES - 1; y++) /* evict y */
					if (m & (1u << y)) {
						guint to = (m & ~(1u << y)) | 1u << x;

						next[to] = MIN(next[to], best[m] + 1);
					}
			}
		}
		memcpy(best, next, sizeof(best));
	}
	for (guint m = 0; m < STATES; m++)
		answer = MIN(answer, best[m]);
	return answer;
}

/* Fully associative LRU of c slots as at boot: hit[t] for each lookup. */
static void brute_lru(const struct boot *b, guint c, gboolean *hit)
{
	guint32 list[NODES]; /* most recent first */
	guint len = 0;
	guint n = ph_trace_lookups(&b->trace);

	for (guint t = 0; t < n; t++) {
		guint32 x = ph_trace_at(&b->trace, t);
		guint at;

		if (t == b->trace.core_init_at)
			for (int k = NODES - 2; k >= 0; k--) { /* reverse tree order */
				guint i = 0;

				while (i < len && list[i] != b->ph[k])
					i++;
				if (i == len && len < c)
					len++;
				memmove(list + 1, list, sizeof(list[0]) * MIN(i, len - 1));
				list[0] = b->ph[k];
			}
		hit[t] = FALSE;
		if (tree_index(b, x) < 0 || !c)
			continue;
		at = len;
		for (guint i = 0; i < len; i++)
			if (list[i] == x)
				at = i;
		hit[t] = at < len;
		if (at == len && len < c)
			len++;
		memmove(list + 1, list, sizeof(list[0]) * MIN(at, len - 1));
		list[0] = x;
	}
}

START_TEST(opt_and_lru_match_brute_force)
{
	for (guint32 seed = 1; seed <= 300; seed++) {
		struct boot b;
		struct ph_analysis a;

		make_boot(&b, seed);
		ph_analyse(&a, &b.trace, &b.dt, 8);
		for (guint c = 1; c <= 8; c++) {
			gboolean hit[MAX_LOOKUPS];
			guint64 steps;
			guint lru_misses = 0;

			ck_assert_msg(ph_analysis_curve(&a, TRUE, c, &steps, NULL) == brute_opt(&b, c),
				      "seed %u, %u slots: OPT", seed, c);
			brute_lru(&b, c, hit);
			for (guint t = 0; t < a.n; t++) {
				gboolean lru_hit = a.lru[t] != PH_DIST_UNRESOLVED && a.lru[t] <= c;

				ck_assert_msg(lru_hit == hit[t], "seed %u, %u slots, lookup %u: LRU",
					      seed, c, t);
				lru_misses += !hit[t];
			}
			ck_assert_uint_eq(ph_analysis_curve(&a, FALSE, c, &steps, NULL), lru_misses);
		}
		ph_analysis_clear(&a);
		free_boot(&b);
	}
}
END_TEST

/* Replay one configuration by hand and classify each miss against brute_lru. */
static void brute_classes(const struct boot *b, const struct ph_config *c, guint *classes)
{
	static const enum fc_dt_policy policy[] = {
		[PH_POLICY_NONE] = FC_DT_NONE, [PH_POLICY_MASK] = FC_DT_MASK,
		[PH_POLICY_HASH32] = FC_DT_HASH32, [PH_POLICY_HASH32X2] = FC_DT_HASH32_2WAY,
		[PH_POLICY_HASH32X4] = FC_DT_HASH32_4WAY, [PH_POLICY_INDEX] = FC_DT_INDEX,
	};
	struct fc_cache_slot slots[64];
	struct fc_dt_replay r;
	gboolean lru_hit[MAX_LOOKUPS];
	guint8 seen[64] = { 0 };

	brute_lru(b, c->size, lru_hit);
	ck_assert_int_eq(fc_dt_replay_init(&r, &b->dt, policy[c->policy], slots, c->size), 0);
	for (guint t = 0; t < ph_trace_lookups(&b->trace); t++) {
		guint32 x = ph_trace_at(&b->trace, t), misses = r.stats.misses;
		gboolean first = x < 64 && !seen[x]++;

		if (t == b->trace.core_init_at)
			fc_dt_replay_core_init(&r);
		fc_dt_replay_lookup(&r, x);
		if (r.stats.misses == misses)
			continue;
		if (tree_index(b, x) < 0)
			classes[PH_MISS_UNRESOLVED]++;
		else if (c->policy == PH_POLICY_NONE ||
			 (c->policy == PH_POLICY_MASK && t < b->trace.core_init_at))
			classes[PH_MISS_UNCACHED]++;
		else if (first)
			classes[PH_MISS_COMPULSORY]++;
		else
			classes[lru_hit[t] ? PH_MISS_CONFLICT : PH_MISS_CAPACITY]++;
	}
}

START_TEST(miss_split_matches_brute_force)
{
	static const struct {
		enum ph_policy policy;
		guint32 size;
	} configs[] = {
		{ PH_POLICY_NONE, 0 }, { PH_POLICY_MASK, 8 }, { PH_POLICY_MASK, 4 },
		{ PH_POLICY_HASH32, 2 }, { PH_POLICY_HASH32, 8 }, { PH_POLICY_HASH32X2, 4 },
		{ PH_POLICY_HASH32X4, 4 }, { PH_POLICY_HASH32X4, 8 }, { PH_POLICY_INDEX, 16 },
	};

	for (guint32 seed = 1; seed <= 200; seed++) {
		struct ph_bench bench = { 0 };
		struct boot b;

		make_boot(&b, seed);
		bench.dt = b.dt;
		bench.trace = b.trace;
		ck_assert_int_eq(ph_bench_index(&bench), 0);
		ph_analyse(&bench.analysis, &b.trace, &b.dt, 16);
		for (gsize k = 0; k < G_N_ELEMENTS(configs); k++) {
			struct ph_config c = { .policy = configs[k].policy, .size = configs[k].size };
			guint want[PH_MISS_COUNT] = { 0 }, total = 0;

			ck_assert_int_eq(ph_bench_count(&bench, &c), 0);
			brute_classes(&b, &c, want);
			for (int m = 0; m < PH_MISS_COUNT; m++) {
				ck_assert_msg(c.classes[m] == want[m], "seed %u, %s %u: class %d: %u, want %u",
					      seed, ph_policy_names[c.policy], c.size, m, c.classes[m], want[m]);
				total += want[m];
			}
			ck_assert_uint_eq(total, c.stats.misses);
		}
		ph_analysis_clear(&bench.analysis);
		ph_bench_index_clear(&bench);
		free_boot(&b);
	}
}
END_TEST

/* A w-way set of LRU keys, most recent first, by brute force. */
static gboolean sets_access(guint32 *set, guint ways, guint32 key)
{
	guint i = 0;

	while (i < ways && set[i] != key && set[i] != FC_CACHE_EMPTY)
		i++;
	if (i < ways && set[i] == key) {
		memmove(set + 1, set, sizeof(set[0]) * i);
		set[0] = key;
		return TRUE;
	}
	memmove(set + 1, set, sizeof(set[0]) * (ways - 1));
	set[0] = key;
	return FALSE;
}

START_TEST(set_associative_hash32_matches_brute_force)
{
	static const enum fc_cache_policy policies[] = { FC_CACHE_HASH32_2WAY, FC_CACHE_HASH32_4WAY };
	guint32 s = 12345;

	for (gsize p = 0; p < G_N_ELEMENTS(policies); p++) {
		guint ways = p ? 4 : 2;

		for (guint32 nslots = ways; nslots <= 64; nslots <<= 1) {
			struct fc_cache cache;
			struct fc_cache_slot slots[64];
			guint32 sets[64];
			guint bits = 0;

			while ((ways << bits) < nslots)
				bits++;
			for (guint i = 0; i < nslots; i++)
				sets[i] = FC_CACHE_EMPTY;
			ck_assert_int_eq(fc_cache_init(&cache, policies[p], slots, nslots), 0);
			for (guint t = 0; t < 2000; t++) {
				guint32 key = 1 + rnd(&s) % (3 * nslots);
				guint32 set = bits ? (key * FC_HASH32_GOLDEN) >> (32 - bits) : 0;
				gboolean want = sets_access(sets + set * ways, ways, key);
				uint32_t value;
				int hit = fc_cache_lookup(&cache, key, &value);

				ck_assert_int_eq(hit, want);
				if (hit)
					ck_assert_uint_eq(value, key ^ 0x5a5a);
				else
					ck_assert_int_eq(fc_cache_fill(&cache, key, key ^ 0x5a5a), 0);
			}
			ck_assert_int_eq(fc_cache_init(&cache, policies[p], slots, ways / 2), FC_EINVAL);
		}
	}
}
END_TEST

static Suite *analysis_suite(void)
{
	Suite *s = suite_create("ph_analysis");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, opt_and_lru_match_brute_force);
	tcase_add_test(tc, miss_split_matches_brute_force);
	tcase_add_test(tc, set_associative_hash32_matches_brute_force);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(analysis_suite());
}
