/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/cache.h"

START_TEST(init_rejects_bad_sizes)
{
	struct fc_cache c;
	struct fc_cache_slot slots[8];

	ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_MASK, slots, 6), FC_EINVAL);
	ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_HASH32, NULL, 8), FC_EINVAL);
	ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_PROBE, slots, 0), FC_EINVAL);
	ck_assert_int_eq(fc_cache_init(&c, (enum fc_cache_policy)99, slots, 8), FC_EINVAL);
	ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_NONE, NULL, 0), 0);
	ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_MASK, slots, 8), 0);
}
END_TEST

START_TEST(none_always_misses)
{
	struct fc_cache c;
	uint32_t v;

	fc_cache_init(&c, FC_CACHE_NONE, NULL, 0);
	ck_assert_int_eq(fc_cache_fill(&c, 5, 50), 0);
	ck_assert_int_eq(fc_cache_lookup(&c, 5, &v), 0);
	ck_assert_uint_eq(c.stats.lookups, 1);
	ck_assert_uint_eq(c.stats.misses, 1);
	ck_assert_uint_eq(c.stats.fills, 0);
	ck_assert_uint_eq(c.used, 0);
}
END_TEST

START_TEST(mask_index_and_evictions)
{
	struct fc_cache c;
	struct fc_cache_slot slots[4];
	uint32_t v = 0;

	fc_cache_init(&c, FC_CACHE_MASK, slots, 4);
	ck_assert_uint_eq(fc_cache_slot_of(&c, 6), 2);
	ck_assert_int_eq(fc_cache_fill(&c, 2, 20), 0);
	ck_assert_int_eq(fc_cache_lookup(&c, 2, &v), 1);
	ck_assert_uint_eq(v, 20);
	/* 6 & 3 == 2: replaces key 2, an eviction */
	ck_assert_int_eq(fc_cache_fill(&c, 6, 60), 0);
	ck_assert_int_eq(fc_cache_lookup(&c, 2, &v), 0);
	ck_assert_int_eq(fc_cache_lookup(&c, 6, &v), 1);
	ck_assert_uint_eq(v, 60);
	/* refilling the same key updates it and is no eviction */
	ck_assert_int_eq(fc_cache_fill(&c, 6, 61), 0);
	ck_assert_uint_eq(c.stats.evictions, 1);
	ck_assert_uint_eq(c.stats.fills, 3);
	ck_assert_uint_eq(c.stats.lookups, 3);
	ck_assert_uint_eq(c.stats.hits, 2);
	ck_assert_uint_eq(c.stats.misses, 1);
	ck_assert_uint_eq(c.used, 1);
}
END_TEST

START_TEST(prefill_modes)
{
	struct fc_cache c;
	struct fc_cache_slot slots[4];
	uint32_t v = 0;

	fc_cache_init(&c, FC_CACHE_MASK, slots, 4);
	ck_assert_int_eq(fc_cache_prefill(&c, 1, 10, FC_CACHE_OVERWRITE), 1);
	ck_assert_int_eq(fc_cache_prefill(&c, 5, 50, FC_CACHE_OVERWRITE), 1);
	ck_assert_int_eq(fc_cache_peek(&c, 5, &v), 1); /* later wins */
	ck_assert_int_eq(fc_cache_prefill(&c, 9, 90, FC_CACHE_IF_EMPTY), 0);
	ck_assert_int_eq(fc_cache_peek(&c, 5, &v), 1); /* first (present) wins */
	ck_assert_uint_eq(v, 50);
	ck_assert_uint_eq(c.stats.prefills, 2);
	ck_assert_uint_eq(c.stats.evictions, 1);
	ck_assert_uint_eq(c.stats.lookups, 0); /* peek counts nothing */
}
END_TEST

START_TEST(invalidate_and_clear)
{
	struct fc_cache c;
	struct fc_cache_slot slots[8];

	fc_cache_init(&c, FC_CACHE_HASH32, slots, 8);
	fc_cache_fill(&c, 3, 30);
	ck_assert_int_eq(fc_cache_invalidate(&c, 4), 0);
	ck_assert_int_eq(fc_cache_invalidate(&c, 3), 1);
	ck_assert_int_eq(fc_cache_peek(&c, 3, NULL), 0);
	ck_assert_uint_eq(c.stats.invalidations, 1);
	ck_assert_uint_eq(c.used, 0);
	fc_cache_fill(&c, 7, 70);
	fc_cache_clear(&c);
	ck_assert_int_eq(fc_cache_peek(&c, 7, NULL), 0);
	ck_assert_int_eq(fc_cache_fill(&c, FC_CACHE_EMPTY, 1), FC_EINVAL);
}
END_TEST

START_TEST(hash32_collisions_on_dtc_phandles)
{
	/* Phandles 1..128 at bits = 7: 113 distinct slots, so 15 keys collide. */
	struct fc_cache c;
	struct fc_cache_slot slots[128];
	uint8_t seen[128] = { 0 };
	unsigned collide = 0, max_per_slot = 0;

	fc_cache_init(&c, FC_CACHE_HASH32, slots, 128);
	for (uint32_t ph = 1; ph <= 128; ph++) {
		uint32_t i = fc_cache_slot_of(&c, ph);

		ck_assert_uint_eq(i, (uint32_t)(ph * 0x61C88647u) >> 25);
		if (seen[i]++)
			collide++;
		if (seen[i] > max_per_slot)
			max_per_slot = seen[i];
	}
	ck_assert_uint_eq(collide, 15);
	ck_assert_uint_eq(max_per_slot, 2);
}
END_TEST

START_TEST(slof_phandles_slot_usage)
{
	/* The SLOF vector: 42 phandles use 8 of 64 mask slots, 29 of 64 hash32 slots. */
	char *path = fc_check_path("fixtures/vectors/slof-phandles.txt");
	FILE *f = fopen(path, "r");
	char line[128];
	uint8_t mask_seen[64] = { 0 }, hash_seen[64] = { 0 };
	unsigned n = 0, mask_used = 0, hash_used = 0;
	struct fc_cache mask, hash;
	struct fc_cache_slot ms[64], hs[64];

	ck_assert_ptr_nonnull(f);
	fc_cache_init(&mask, FC_CACHE_MASK, ms, 64);
	fc_cache_init(&hash, FC_CACHE_HASH32, hs, 64);
	while (fgets(line, sizeof(line), f)) {
		unsigned ph, want_mask, want_hash;

		if (line[0] == '#' || sscanf(line, "%x %x %x", &ph, &want_mask, &want_hash) != 3)
			continue;
		n++;
		ck_assert_uint_eq(fc_cache_slot_of(&mask, ph), want_mask);
		ck_assert_uint_eq(fc_cache_slot_of(&hash, ph), want_hash);
		mask_used += !mask_seen[want_mask]++;
		hash_used += !hash_seen[want_hash]++;
		fc_cache_prefill(&mask, ph, n, FC_CACHE_OVERWRITE);
		fc_cache_prefill(&hash, ph, n, FC_CACHE_IF_EMPTY);
	}
	fclose(f);
	g_free(path);
	ck_assert_uint_eq(n, 42);
	ck_assert_uint_eq(mask_used, 8);
	ck_assert_uint_eq(hash_used, 29);
	ck_assert_uint_eq(mask.used, 8);
	ck_assert_uint_eq(hash.used, 29);
}
END_TEST

START_TEST(probe_is_exact_until_full)
{
	struct fc_cache c;
	struct fc_cache_slot slots[16];
	uint32_t v;

	fc_cache_init(&c, FC_CACHE_PROBE, slots, 16);
	for (uint32_t k = 0; k < 16; k++)
		ck_assert_int_eq(fc_cache_fill(&c, k * 16, k), 0);
	ck_assert(fc_cache_complete(&c));
	ck_assert_uint_eq(c.stats.evictions, 0);
	for (uint32_t k = 0; k < 16; k++) {
		ck_assert_int_eq(fc_cache_lookup(&c, k * 16, &v), 1);
		ck_assert_uint_eq(v, k);
	}
	/* updating a present key in a full map works */
	ck_assert_int_eq(fc_cache_fill(&c, 0, 99), 0);
	ck_assert_int_eq(fc_cache_fill(&c, 1000, 1), FC_ENOSPC);
	ck_assert(!fc_cache_complete(&c));
	fc_cache_clear(&c);
	ck_assert(fc_cache_complete(&c));
}
END_TEST

START_TEST(probe_removal_keeps_runs_reachable)
{
	/* Random inserts and removals against a reference array. */
	struct fc_cache c;
	struct fc_cache_slot slots[64];
	uint32_t ref[200];
	uint32_t seed = 12345, v;

	memset(ref, 0xff, sizeof(ref));
	fc_cache_init(&c, FC_CACHE_PROBE, slots, 64);
	for (int step = 0; step < 20000; step++) {
		uint32_t key, op;

		seed = seed * 1103515245u + 12345u;
		key = (seed >> 8) % 200;
		op = (seed >> 4) & 3;
		if (op == 0) {
			fc_cache_invalidate(&c, key);
			ref[key] = UINT32_MAX;
		} else if (c.used < 60 || ref[key] != UINT32_MAX) {
			ck_assert_int_eq(fc_cache_fill(&c, key, (uint32_t)step), 0);
			ref[key] = (uint32_t)step;
		}
		if ((step & 255) == 0) {
			for (uint32_t k = 0; k < 200; k++) {
				int hit = fc_cache_peek(&c, k, &v);

				ck_assert_int_eq(hit, ref[k] != UINT32_MAX);
				if (hit)
					ck_assert_uint_eq(v, ref[k]);
			}
		}
	}
}
END_TEST

START_TEST(probe_removal_from_a_full_map)
{
	/* Every slot taken: removal must end without an empty slot to stop at. */
	struct fc_cache c;
	struct fc_cache_slot slots[8];
	uint32_t v;

	fc_cache_init(&c, FC_CACHE_PROBE, slots, 8);
	for (uint32_t k = 1; k <= 8; k++)
		ck_assert_int_eq(fc_cache_fill(&c, k, k * 10), 0);
	ck_assert_uint_eq(c.used, 8);
	for (uint32_t k = 1; k <= 8; k++) {
		ck_assert_int_eq(fc_cache_invalidate(&c, k), 1);
		for (uint32_t j = k + 1; j <= 8; j++) {
			ck_assert_int_eq(fc_cache_peek(&c, j, &v), 1);
			ck_assert_uint_eq(v, j * 10);
		}
	}
	ck_assert_uint_eq(c.used, 0);
}
END_TEST

START_TEST(probe_entry_points_count_as_fill_prefill_invalidate)
{
	struct fc_cache c;
	struct fc_cache_slot slots[4];
	uint32_t v;

	fc_cache_init(&c, FC_CACHE_PROBE, slots, 4);
	ck_assert_int_eq(fc_cache_probe_put(&c, 7, 70, FC_CACHE_OVERWRITE), 1);
	ck_assert_int_eq(fc_cache_probe_put(&c, 7, 71, FC_CACHE_IF_EMPTY), 0);
	ck_assert_int_eq(fc_cache_probe_put(&c, 8, 80, FC_CACHE_IF_EMPTY), 1);
	ck_assert_int_eq(fc_cache_probe_put(&c, 7, 72, FC_CACHE_OVERWRITE), 1);
	ck_assert_uint_eq(c.stats.fills, 2);
	ck_assert_uint_eq(c.stats.prefills, 1);
	ck_assert(fc_cache_probe_get(&c, 7, &v) && v == 72);
	ck_assert_int_eq(fc_cache_probe_put(&c, 9, 90, FC_CACHE_OVERWRITE), 1);
	ck_assert_int_eq(fc_cache_probe_put(&c, 10, 100, FC_CACHE_OVERWRITE), 1);
	ck_assert_int_eq(fc_cache_probe_put(&c, 11, 110, FC_CACHE_OVERWRITE), FC_ENOSPC);
	ck_assert(!fc_cache_complete(&c));
	ck_assert_int_eq(fc_cache_probe_invalidate(&c, 11), 0);
	ck_assert_int_eq(fc_cache_probe_invalidate(&c, 8), 1);
	ck_assert_uint_eq(c.stats.invalidations, 1);
	ck_assert_uint_eq(c.used, 3);
	ck_assert(!fc_cache_probe_get(&c, 8, &v));
	for (uint32_t k = 7; k <= 10; k++)
		ck_assert_int_eq(fc_cache_probe_get(&c, k, &v), k != 8);
}
END_TEST

/* The fields fc_cache_init sets, compared one by one (not the padding). */
static void assert_same_cache(const struct fc_cache *a, const struct fc_cache *b)
{
	ck_assert_ptr_eq(a->slots, b->slots);
	ck_assert_uint_eq(a->nslots, b->nslots);
	ck_assert_uint_eq(a->used, b->used);
	ck_assert_int_eq(a->policy, b->policy);
	ck_assert_int_eq(memcmp(&a->stats, &b->stats, sizeof(a->stats)), 0);
	ck_assert_uint_eq(a->hash_shift, b->hash_shift);
	ck_assert_uint_eq(a->hash_mult, b->hash_mult);
	ck_assert_int_eq(a->overflowed, b->overflowed);
}

START_TEST(probe_init_is_init_of_probe_or_none)
{
	struct fc_cache_slot slots[8], want_slots[8];
	struct fc_cache c, want, before;

	for (uint32_t n = 1; n <= 8; n *= 2) {
		/* a used map with statistics, set up again */
		ck_assert_int_eq(fc_cache_init(&c, FC_CACHE_PROBE, slots, 8), 0);
		ck_assert_int_eq(fc_cache_probe_put(&c, 3, 30, FC_CACHE_OVERWRITE), 1);
		fc_cache_probe_put(&c, 4, 40, FC_CACHE_OVERWRITE);
		c.overflowed = true;
		ck_assert_int_eq(fc_cache_probe_init(&c, slots, n), 0);
		ck_assert_int_eq(fc_cache_init(&want, FC_CACHE_PROBE, want_slots, n), 0);
		want.slots = slots;
		assert_same_cache(&c, &want);
		for (uint32_t i = 0; i < n; i++)
			ck_assert(slots[i].key == FC_CACHE_EMPTY && slots[i].value == 0);
	}
	fc_cache_probe_put(&c, 3, 30, FC_CACHE_OVERWRITE);
	ck_assert_int_eq(fc_cache_probe_init(&c, slots, 0), 0);
	ck_assert_int_eq(fc_cache_init(&want, FC_CACHE_NONE, NULL, 0), 0);
	assert_same_cache(&c, &want);
	ck_assert_int_eq(fc_cache_probe_init(&c, NULL, 0), 0);
	assert_same_cache(&c, &want);
	before = c;
	ck_assert_int_eq(fc_cache_probe_init(NULL, slots, 8), FC_EINVAL);
	ck_assert_int_eq(fc_cache_probe_init(&c, NULL, 8), FC_EINVAL);
	ck_assert_int_eq(fc_cache_probe_init(&c, slots, 6), FC_EINVAL);
	assert_same_cache(&c, &before);
}
END_TEST

/* The inline hit path of policy, or -1 when it has none. */
static int inline_get(const struct fc_cache *c, uint32_t key, uint32_t *v)
{
	switch (c->policy) {
	case FC_CACHE_MASK:
		return fc_cache_mask_get(c, key, v);
	case FC_CACHE_HASH32:
		return fc_cache_hash32_get(c, key, v);
	case FC_CACHE_PROBE:
		return fc_cache_probe_get(c, key, v);
	default:
		return -1;
	}
}

/* Reference: a key is held iff some slot holds it (no policy stores twice). */
static int scan_slots(const struct fc_cache *c, uint32_t key, uint32_t *v)
{
	for (uint32_t i = 0; i < c->nslots; i++)
		if (c->slots[i].key == key && key != FC_CACHE_EMPTY) {
			*v = c->slots[i].value;
			return 1;
		}
	return 0;
}

START_TEST(inline_gets_and_peek_agree_with_a_scan)
{
	/*
	 * Random fills, prefills, invalidations and clears over keys that
	 * collide at every size, including 0 and the largest keys; after each
	 * one the inline path and fc_cache_peek answer every key as a scan of
	 * all slots does (FC_CACHE_EMPTY, outside the inline paths' domain, is
	 * refused by peek).
	 * Sizes 1 and 2 cover hash_32 with 0 and 1 bits; a PROBE map that fills
	 * up covers the lap bound.
	 */
	static const enum fc_cache_policy policies[] = { FC_CACHE_MASK, FC_CACHE_HASH32,
							 FC_CACHE_PROBE };
	static const uint32_t sizes[] = { 1, 2, 8, 128 };
	uint32_t keys[40];
	struct fc_cache_slot slots[128];
	struct fc_cache c;
	GRand *rand = g_rand_new_with_seed(7);

	for (uint32_t k = 0; k < 36; k++)
		keys[k] = k * 3;
	keys[36] = UINT32_MAX - 2;
	keys[37] = UINT32_MAX - 1;
	keys[38] = 0x80000000u;
	keys[39] = FC_CACHE_EMPTY;
	for (gsize p = 0; p < G_N_ELEMENTS(policies); p++)
		for (gsize z = 0; z < G_N_ELEMENTS(sizes); z++) {
			ck_assert_int_eq(fc_cache_init(&c, policies[p], slots, sizes[z]), 0);
			for (int op = 0; op < 400; op++) {
				uint32_t key = keys[g_rand_int_range(rand, 0, 40)];
				int what = g_rand_int_range(rand, 0, 20);

				if (what < 12)
					fc_cache_fill(&c, key, (uint32_t)op);
				else if (what < 16)
					fc_cache_prefill(&c, key, (uint32_t)op, FC_CACHE_IF_EMPTY);
				else if (what < 19)
					fc_cache_invalidate(&c, key);
				else
					fc_cache_clear(&c);
				for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
					uint32_t want = 0xdead, got = 0xbeef, peeked = 0xf00d;
					int held = scan_slots(&c, keys[k], &want);

					ck_assert_int_eq(fc_cache_peek(&c, keys[k], &peeked), held);
					if (keys[k] == FC_CACHE_EMPTY) /* not a key: refused */
						continue;
					ck_assert_int_eq(inline_get(&c, keys[k], &got), held);
					if (held)
						ck_assert_uint_eq(got, want);
					if (held)
						ck_assert_uint_eq(peeked, want);
				}
			}
		}
	g_rand_free(rand);
}
END_TEST

START_TEST(hash_home_is_linux_hash_32)
{
	/* hash_32(1, 7) = 0x61C88647 >> 25 = 48; hash_32(k, 0) = 0 */
	struct fc_cache c;
	struct fc_cache_slot slots[128];

	fc_cache_init(&c, FC_CACHE_HASH32, slots, 128);
	ck_assert_uint_eq(fc_cache_slot_of(&c, 1), 48);
	ck_assert_uint_eq(fc_cache_slot_of(&c, 0x10000), (0x61C88647u << 16) >> 25);
	fc_cache_init(&c, FC_CACHE_HASH32, slots, 1);
	ck_assert_uint_eq(fc_cache_slot_of(&c, 0xabcdef), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, init_rejects_bad_sizes);
	tcase_add_test(tc, none_always_misses);
	tcase_add_test(tc, mask_index_and_evictions);
	tcase_add_test(tc, prefill_modes);
	tcase_add_test(tc, invalidate_and_clear);
	tcase_add_test(tc, hash32_collisions_on_dtc_phandles);
	tcase_add_test(tc, slof_phandles_slot_usage);
	tcase_add_test(tc, probe_is_exact_until_full);
	tcase_add_test(tc, probe_removal_keeps_runs_reachable);
	tcase_add_test(tc, probe_removal_from_a_full_map);
	tcase_add_test(tc, probe_entry_points_count_as_fill_prefill_invalidate);
	tcase_add_test(tc, probe_init_is_init_of_probe_or_none);
	tcase_add_test(tc, inline_gets_and_peek_agree_with_a_scan);
	tcase_add_test(tc, hash_home_is_linux_hash_32);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
