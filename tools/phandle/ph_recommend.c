/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The closing advice: how the kernel's default does against the optimum of
 * its size, the smallest cache that comes close to the complete index, and
 * what the index and the old mask cache cost.
 */
#include "ph_bench.h"

#include "fdtcache/cache.h"

#define KERNEL_SLOTS 128u   /* Linux v5.6+: 2^7 entries */
#define MAX_ADVISED (1u << 16)

/* A configuration's counters: a row's when the table has it, else replayed once. */
static struct ph_config counted(const struct ph_bench *b, enum ph_policy policy, guint32 size)
{
	struct ph_config c = { .policy = policy, .size = size };

	for (guint i = 0; i < b->configs->len; i++) {
		const struct ph_config *row = &g_array_index(b->configs, struct ph_config, i);

		if (row->policy == policy && row->size == size)
			return *row;
	}

	if (ph_bench_count(b, &c) < 0)
		c.stats.misses = G_MAXUINT32;
	return c;
}

static char *bytes(guint64 n)
{
	if (n >= 1024 && n % 1024 == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT " KiB", n / 1024);
	return g_strdup_printf("%" G_GUINT64_FORMAT " bytes", n);
}

static const char *times(guint n)
{
	return n == 1 ? "once" : NULL;
}

static void append_misses(GString *s, guint n)
{
	if (times(n))
		g_string_append(s, times(n));
	else
		g_string_append_printf(s, "%u times", n);
}

/*
 * The smallest power-of-two size of policy whose misses are <= target. No
 * cache of a size misses less than OPT does, so sizes whose optimum is over
 * the target are not replayed.
 */
static struct ph_config smallest_within(const struct ph_bench *b, enum ph_policy policy,
					guint target, guint32 limit)
{
	struct ph_config c = { .policy = policy };

	for (guint32 size = 8; size <= limit; size <<= 1) {
		guint64 steps;

		if (size <= b->analysis.opt_limit &&
		    ph_analysis_curve(&b->analysis, TRUE, size, &steps, NULL) > target)
			continue;
		c = counted(b, policy, size);
		if (c.stats.misses <= target)
			return c;
	}
	c.size = 0;
	return c;
}

char *ph_bench_recommend(const struct ph_bench *b)
{
	const struct ph_analysis *a = &b->analysis;
	guint32 index_slots = fc_dt_index_slots(b->dt.nphandles);
	struct ph_config kernel = counted(b, PH_POLICY_HASH32, KERNEL_SLOTS);
	struct ph_config opt = counted(b, PH_POLICY_OPT, MIN(KERNEL_SLOTS, a->opt_limit));
	struct ph_config index = counted(b, PH_POLICY_INDEX, index_slots);
	struct ph_config mask = counted(b, PH_POLICY_MASK, b->mask_size);
	guint target = MAX(index.stats.misses + 2, index.stats.misses + index.stats.misses / 10);
	guint32 limit = MIN(MAX(index_slots, 1024u), MAX_ADVISED);
	struct ph_config h32 = smallest_within(b, PH_POLICY_HASH32, target, limit);
	struct ph_config x4 = smallest_within(b, PH_POLICY_HASH32X4, target, limit);
	GString *s = g_string_new(NULL);
	g_autofree char *kb = bytes(ph_bench_memory(&kernel));
	g_autofree char *ib = bytes(ph_bench_memory(&index));
	g_autofree char *mb = bytes(ph_bench_memory(&mask));

	g_string_append_printf(s, "On this trace (%u lookups of %u phandles, %u before of_core_init, "
			       "%u unresolved), the kernel's default (hash32, %u slots, %s) misses ",
			       a->n, a->distinct, MIN(b->trace.core_init_at, a->n), a->unresolved,
			       KERNEL_SLOTS, kb);
	append_misses(s, kernel.stats.misses);
	if (a->opt_limit >= KERNEL_SLOTS)
		g_string_append_printf(s, ", %d above the optimum for %u slots (%u)",
				       (int)kernel.stats.misses - (int)opt.stats.misses, KERNEL_SLOTS,
				       opt.stats.misses);
	g_string_append(s, ";");
	if (h32.size && h32.size != KERNEL_SLOTS) {
		g_autofree char *hb = bytes(ph_bench_memory(&h32));

		g_string_append_printf(s, " hash32 with %u slots misses ", h32.size);
		append_misses(s, h32.stats.misses);
		g_string_append_printf(s, " (%s)", hb);
		if (x4.size && x4.size < h32.size) {
			g_autofree char *xb = bytes(ph_bench_memory(&x4));

			g_string_append_printf(s, ", and 4-way hash32 (ours) gets there with %u slots "
					       "(%u misses, %s)", x4.size, x4.stats.misses, xb);
		}
		g_string_append(s, ";");
	} else if (h32.size == KERNEL_SLOTS) {
		g_string_append(s, " that is within reach of the complete index already;");
	}
	g_string_append(s, " the complete index misses ");
	append_misses(s, index.stats.misses);
	g_string_append_printf(s, " (%u slots, %s); the v4.17-v5.5 mask cache (%u slots, %s) misses ",
			       index_slots, ib, mask.size, mb);
	append_misses(s, mask.stats.misses);
	g_string_append_printf(s, ", %u of them before of_core_init, and holds %u of its %u slots.",
			       mask.before_core_init, mask.slots_used, mask.size);
	return g_string_free(s, FALSE);
}
