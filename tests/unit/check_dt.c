/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <glib.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/dt.h"

/*
 * A flat test tree: the root, then children n1..n(count-1) in that tree
 * order. phandles[i] is node i's phandle (0: none); linux_ph[i] (if given)
 * is its `linux,phandle`.
 */
static void *build_tree(const uint32_t *phandles, const uint32_t *linux_ph, int count)
{
	size_t size = 256 + (size_t)count * 96;
	void *fdt = g_malloc0(size);
	char name[16];

	ck_assert_int_eq(fdt_create(fdt, (int)size), 0);
	ck_assert_int_eq(fdt_finish_reservemap(fdt), 0);
	for (int i = 0; i < count; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		ck_assert_int_eq(fdt_begin_node(fdt, i ? name : ""), 0);
		if (phandles[i])
			ck_assert_int_eq(fdt_property_u32(fdt, "phandle", phandles[i]), 0);
		if (linux_ph && linux_ph[i])
			ck_assert_int_eq(fdt_property_u32(fdt, "linux,phandle", linux_ph[i]), 0);
		if (i)
			ck_assert_int_eq(fdt_end_node(fdt), 0);
	}
	ck_assert_int_eq(fdt_end_node(fdt), 0);
	ck_assert_int_eq(fdt_finish(fdt), 0);
	ck_assert_int_eq(fdt_check_full(fdt, size), 0);
	return fdt;
}

/*
 * The hand-checked tree: root (none), a=1, b=2, c=3, d=5, e (none).
 * Tree positions: a 2, b 3, c 4, d 5, e 6; N = 6, 4 phandles.
 */
static const uint32_t small_ph[] = { 0, 1, 2, 3, 5, 0 };

/* The small tree, set up afresh for each test of the "small" case. */
static void *small_fdt;
static struct fc_dt small_dt;
static struct fc_dt_node small_nodes[6];

static void small_setup(void)
{
	small_fdt = build_tree(small_ph, NULL, 6);
	ck_assert_int_eq(fc_dt_init(&small_dt, small_fdt, small_nodes, 6), 6);
}

static void small_teardown(void)
{
	g_free(small_fdt);
}

/* The trace: two lookups before of_core_init(), six after; 7 is unresolved. */
static const uint32_t before[] = { 5, 1 };
static const uint32_t after[] = { 5, 1, 2, 7, 3, 5 };

/* index (or NULL): resolve the misses through it rather than by libfdt's scan */
static void replay_small_by(struct fc_dt_replay *r, enum fc_dt_policy policy,
			    struct fc_cache_slot *slots, uint32_t nslots, const struct fc_cache *index)
{
	ck_assert_int_eq(fc_dt_replay_init(r, &small_dt, policy, slots, nslots), 0);
	for (size_t i = 0; i < FC_ARRAY_SIZE(before); i++)
		fc_dt_replay_lookup_indexed(r, before[i], index);
	fc_dt_replay_core_init(r);
	for (size_t i = 0; i < FC_ARRAY_SIZE(after); i++)
		fc_dt_replay_lookup_indexed(r, after[i], index);
}

static void replay_small(struct fc_dt_replay *r, enum fc_dt_policy policy,
			 struct fc_cache_slot *slots, uint32_t nslots)
{
	replay_small_by(r, policy, slots, nslots, NULL);
}

static void assert_stats(const struct fc_dt_replay_stats *s, uint32_t hits, uint32_t misses,
			 uint32_t unresolved, uint32_t evictions, uint64_t steps)
{
	ck_assert_uint_eq(s->lookups, 8);
	ck_assert_uint_eq(s->hits, hits);
	ck_assert_uint_eq(s->misses, misses);
	ck_assert_uint_eq(s->unresolved, unresolved);
	ck_assert_uint_eq(s->evictions, evictions);
	ck_assert_uint_eq(s->scan_steps, steps);
}

START_TEST(table_positions_and_scan)
{
	uint32_t steps;

	ck_assert_int_eq(fc_dt_count_nodes(small_fdt), 6);
	ck_assert_uint_eq(small_dt.nphandles, 4);
	ck_assert_int_eq(fc_dt_scan(&small_dt, 5, &steps), fdt_path_offset(small_fdt, "/n4"));
	ck_assert_uint_eq(steps, 5);
	ck_assert_int_eq(fc_dt_position(&small_dt, fdt_path_offset(small_fdt, "/n4")), 5);
	ck_assert_int_eq(fc_dt_position(&small_dt, 0), 1);
	ck_assert_int_eq(fc_dt_position(&small_dt, 3), FC_ENOENT);
	ck_assert_int_eq(fc_dt_scan(&small_dt, 7, &steps), FC_ENOENT);
	ck_assert_uint_eq(steps, 6);
	ck_assert_int_eq(fc_dt_scan(&small_dt, 0, &steps), FC_ENOENT);
	ck_assert_int_eq(fc_dt_init(&small_dt, small_fdt, small_nodes, 5), FC_ENOMEM);
}
END_TEST

START_TEST(linux_phandle_and_duplicates)
{
	/* n1 has only linux,phandle 9; n2 and n3 both claim 4: the first wins */
	static const uint32_t ph[] = { 0, 0, 4, 4 };
	static const uint32_t lph[] = { 0, 9, 0, 0 };
	struct fc_dt dt;
	struct fc_dt_node nodes[4];
	struct fc_cache index;
	struct fc_cache_slot slots[8];
	struct fc_dt_replay r;
	void *fdt = build_tree(ph, lph, 4);
	uint32_t steps;

	ck_assert_int_eq(fc_dt_init(&dt, fdt, nodes, 4), 4);
	ck_assert_uint_eq(nodes[1].phandle, 9);
	ck_assert_int_eq(fc_dt_scan(&dt, 4, &steps), nodes[2].offset);
	ck_assert_uint_eq(steps, 3);
	/* 3 phandles, 2 distinct */
	ck_assert_uint_eq(fc_dt_index_slots(dt.nphandles), 8);
	ck_assert_int_eq(fc_dt_index_build(&index, fdt, slots, 8), 2);
	ck_assert_int_eq(fc_dt_index_lookup(&index, 4), nodes[2].offset);
	ck_assert_int_eq(fc_dt_index_lookup(&index, 9), nodes[1].offset);
	ck_assert_int_eq(fc_dt_index_lookup(&index, 5), FC_ENOENT);
	ck_assert_int_eq(fdt_node_offset_by_phandle(fdt, 4), nodes[2].offset);
	/* a replay resolving through the index finds the first, as the scan does */
	ck_assert_int_eq(fc_dt_replay_init(&r, &dt, FC_DT_NONE, NULL, 0), 0);
	ck_assert_int_eq(fc_dt_replay_lookup_indexed(&r, 4, &index), nodes[2].offset);
	ck_assert_int_eq(fc_dt_replay_lookup_indexed(&r, 9, &index), nodes[1].offset);
	ck_assert_uint_eq(r.stats.scan_steps, 3 + 2);
	/* one slot cannot hold two phandles: the index says it is incomplete */
	ck_assert_int_eq(fc_dt_index_build(&index, fdt, slots, 1), FC_ENOSPC);
	ck_assert_int_eq(fc_dt_index_build(&index, fdt, slots, 3), FC_EINVAL);
	g_free(fdt);
}
END_TEST

START_TEST(index_slots_sizes)
{
	ck_assert_uint_eq(fc_dt_index_slots(0), 1);
	ck_assert_uint_eq(fc_dt_index_slots(1), 2);
	ck_assert_uint_eq(fc_dt_index_slots(190), 512);
	ck_assert_uint_eq(fc_dt_index_slots(256), 512);
	ck_assert_uint_eq(fc_dt_index_slots(UINT32_MAX / 2), 0);
}
END_TEST

START_TEST(replay_none)
{
	/* every lookup scans: 5->5, 1->2, 5->5, 1->2, 2->3, 7->6 (N), 3->4, 5->5 = 32 */
	struct fc_dt_replay r;

	replay_small(&r, FC_DT_NONE, NULL, 0);
	assert_stats(&r.stats, 0, 8, 1, 0, 32);
}
END_TEST

START_TEST(replay_mask)
{
	/*
	 * Size roundup_pow_of_two(4) = 4, slot = phandle & 3.
	 * Before core init there is no cache: 5 scans 5, 1 scans 2; nothing stored.
	 * Populate by overwrite in tree order: 1->s1, 2->s2, 3->s3, then 5->s1
	 * replaces 1 (eviction 1). After: 5 hit; 1 misses (s1 holds 5), scans 2,
	 * stored over 5 (eviction 2); 2 hit; 7 misses (s3 holds 3), unresolved,
	 * scans 6, nothing stored; 3 hit; 5 misses (s1 holds 1), scans 5, stored
	 * (eviction 3). Hits 3, misses 5, steps 5+2+2+6+5 = 20.
	 */
	struct fc_dt_replay r;
	struct fc_cache_slot slots[4];

	ck_assert_uint_eq(fc_dt_mask_size(&small_dt), 4);
	ck_assert_int_eq(fc_dt_replay_init(&r, &small_dt, FC_DT_MASK, slots, 4), 0);
	fc_dt_replay_lookup(&r, 5);
	fc_dt_replay_lookup(&r, 1);
	ck_assert_uint_eq(r.cache.used, 0);
	replay_small(&r, FC_DT_MASK, slots, 4);
	assert_stats(&r.stats, 3, 5, 1, 3, 20);
	ck_assert_uint_eq(r.cache.used, 3);
}
END_TEST

START_TEST(replay_hash32)
{
	/*
	 * 4 slots, hash_32(k, 2): 1->1, 2->3, 3->0, 5->3, 7->2.
	 * Live from the start: 5 misses, scans 5, stored in s3; 1 misses, scans
	 * 2, stored in s1. Core init, if-empty in tree order: 1 (s1 taken), 2
	 * (s3 taken), 3 -> s0, 5 (s3 taken). After: 5 hit, 1 hit; 2 misses (s3
	 * holds 5), scans 3, replaces 5 (eviction 1); 7 misses, unresolved,
	 * scans 6; 3 hit; 5 misses (s3 holds 2), scans 5, replaces 2 (eviction 2).
	 * Hits 3, misses 5, steps 5+2+3+6+5 = 21.
	 */
	struct fc_dt_replay r;
	struct fc_cache_slot slots[4];
	uint32_t offset;

	replay_small(&r, FC_DT_HASH32, slots, 4);
	assert_stats(&r.stats, 3, 5, 1, 2, 21);
	ck_assert_uint_eq(r.cache.used, 3);
	/* the inline hit path sees the final slots: s0 = 3, s1 = 1, s3 = 5 */
	ck_assert(fc_cache_hash32_get(&r.cache, 5, &offset));
	ck_assert_int_eq((int)offset, small_nodes[4].offset);
	ck_assert(fc_cache_hash32_get(&r.cache, 3, &offset));
	ck_assert(!fc_cache_hash32_get(&r.cache, 2, &offset));
	ck_assert(!fc_cache_hash32_get(&r.cache, 7, &offset));
}
END_TEST

START_TEST(replay_index)
{
	/*
	 * The first lookup builds the index by walking all 6 nodes (a miss, 6
	 * steps); then every present phandle hits and 7 is known absent.
	 * Hits 6, misses 2 (the build, 7), steps 6.
	 */
	struct fc_dt_replay r;
	struct fc_cache_slot slots[8];
	uint32_t offset;

	ck_assert_int_eq(fc_dt_replay_init(&r, &small_dt, FC_DT_INDEX, slots, 4), FC_EINVAL);
	replay_small(&r, FC_DT_INDEX, slots, 8);
	assert_stats(&r.stats, 6, 2, 1, 0, 6);
	ck_assert(fc_cache_probe_get(&r.cache, 3, &offset));
	ck_assert_int_eq((int)offset, fdt_node_offset_by_phandle(small_fdt, 3));
	ck_assert(!fc_cache_probe_get(&r.cache, 7, &offset));
	ck_assert_int_eq(fc_dt_replay_lookup(&r, 3), fdt_node_offset_by_phandle(small_fdt, 3));
	ck_assert_int_eq(fc_dt_replay_lookup(&r, 0), FC_EINVAL);
	/* -1: a lookup Linux makes and that never resolves (known absent here) */
	ck_assert_int_eq(fc_dt_replay_lookup(&r, UINT32_MAX), FC_ENOENT);
	ck_assert_uint_eq(r.stats.lookups, 10);
	ck_assert_uint_eq(r.stats.unresolved, 2);
}
END_TEST

/* Parse the first column (hex phandles) of fixtures/vectors/slof-phandles.txt. */
static int load_slof(uint32_t *ph, int max)
{
	size_t len;
	char *text = (char *)fc_check_load("fixtures/vectors/slof-phandles.txt", &len);
	char **lines = g_strsplit(text, "\n", -1);
	int n = 0;

	for (char **l = lines; *l; l++)
		if (**l && **l != '#' && n < max)
			ph[n++] = (uint32_t)strtoul(*l, NULL, 16);
	g_strfreev(lines);
	g_free(text);
	return n;
}

START_TEST(slof_core_init_slots)
{
	/*
	 * The 42 SLOF phandles on 42 nodes below the root: the mask cache
	 * (roundup_pow_of_two(42) = 64) populated at core init holds 8 nodes,
	 * the hash32 cache of 64 prefilled holds 29, as posted to the list.
	 */
	uint32_t ph[64] = { 0 };
	int n = load_slof(ph + 1, 63);
	struct fc_dt dt;
	struct fc_dt_node nodes[64];
	struct fc_dt_replay r;
	struct fc_cache_slot slots[64];
	void *fdt;

	ck_assert_int_eq(n, 42);
	fdt = build_tree(ph, NULL, n + 1);
	ck_assert_int_eq(fc_dt_init(&dt, fdt, nodes, 64), 43);
	ck_assert_uint_eq(fc_dt_mask_size(&dt), 64);
	fc_dt_replay_init(&r, &dt, FC_DT_MASK, slots, 64);
	fc_dt_replay_core_init(&r);
	ck_assert_uint_eq(r.cache.used, 8);
	ck_assert_uint_eq(r.stats.evictions, 42 - 8);
	fc_dt_replay_init(&r, &dt, FC_DT_HASH32, slots, 64);
	fc_dt_replay_core_init(&r);
	ck_assert_uint_eq(r.cache.used, 29);
	ck_assert_uint_eq(r.stats.evictions, 0);
	g_free(fdt);
}
END_TEST

START_TEST(replay_resolved)
{
	/*
	 * Misses resolved through a complete index find the scan's nodes: the
	 * hand-counted figures of replay_none, replay_mask and replay_hash32.
	 */
	struct fc_dt_replay r;
	struct fc_cache index, mask;
	struct fc_cache_slot islots[8], slots[4];

	ck_assert_int_eq(fc_dt_index_build(&index, small_fdt, islots, 8), 4);
	replay_small_by(&r, FC_DT_NONE, NULL, 0, &index);
	assert_stats(&r.stats, 0, 8, 1, 0, 32);
	replay_small_by(&r, FC_DT_MASK, slots, 4, &index);
	assert_stats(&r.stats, 3, 5, 1, 3, 20);
	replay_small_by(&r, FC_DT_HASH32, slots, 4, &index);
	assert_stats(&r.stats, 3, 5, 1, 2, 21);
	ck_assert_int_eq(fc_dt_replay_lookup_indexed(&r, UINT32_MAX, &index), FC_ENOENT);
	ck_assert_uint_eq(r.stats.scan_steps, 21 + 6);
	/* only a complete index (a PROBE map) resolves; such a call is not counted */
	ck_assert_int_eq(fc_cache_init(&mask, FC_CACHE_MASK, slots, 4), 0);
	ck_assert_int_eq(fc_dt_replay_lookup_indexed(&r, 2, &mask), FC_EINVAL);
	ck_assert_uint_eq(r.stats.lookups, 9);
}
END_TEST

static Suite *dt_suite(void)
{
	Suite *s = suite_create("dt");
	TCase *small = tcase_create("small");
	TCase *tc = tcase_create("trees");

	tcase_add_checked_fixture(small, small_setup, small_teardown);
	tcase_add_test(small, table_positions_and_scan);
	tcase_add_test(small, replay_none);
	tcase_add_test(small, replay_mask);
	tcase_add_test(small, replay_hash32);
	tcase_add_test(small, replay_index);
	tcase_add_test(small, replay_resolved);
	suite_add_tcase(s, small);
	tcase_add_test(tc, linux_phandle_and_duplicates);
	tcase_add_test(tc, index_slots_sizes);
	tcase_add_test(tc, slof_core_init_slots);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(dt_suite());
}
