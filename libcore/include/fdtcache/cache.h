/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cache.h - fixed-size key -> value lookup caches over caller-owned slots.
 *
 * Policies:
 *  - FC_CACHE_NONE:   no slots; every lookup misses (the uncached baseline).
 *  - FC_CACHE_MASK:   direct-mapped, slot = key & (n - 1) (Linux v4.17-v5.5).
 *  - FC_CACHE_HASH32: direct-mapped, slot = hash_32(key, log2 n) (Linux v5.6+).
 *  - FC_CACHE_PROBE:  an exact map: open addressing with linear probing from
 *                     the hash32 slot. It never evicts: a fill into a full
 *                     map fails with FC_ENOSPC, so a key it does not hold
 *                     while fc_cache_complete() is true is known absent.
 *
 * Keys are u32 except FC_CACHE_EMPTY, which marks a free slot.
 * Statistics are u32 counters that wrap; reset them with fc_cache_reset_stats().
 */
#ifndef FDTCACHE_CACHE_H
#define FDTCACHE_CACHE_H

#include "fc_env.h"
#include "fc_err.h"

#define FC_CACHE_EMPTY UINT32_MAX

struct fc_cache_slot {
	uint32_t key;
	uint32_t value;
};

enum fc_cache_policy {
	FC_CACHE_NONE,
	FC_CACHE_MASK,
	FC_CACHE_HASH32,
	FC_CACHE_PROBE,
};

/* How a prefill treats an occupied slot (direct-mapped policies). */
enum fc_cache_prefill_mode {
	FC_CACHE_OVERWRITE, /* the later key wins (Linux mask cache populate) */
	FC_CACHE_IF_EMPTY,  /* the first key wins (Linux hash32 cache at core init) */
};

struct fc_cache_stats {
	uint32_t lookups;
	uint32_t hits;
	uint32_t misses;
	uint32_t fills;         /* fc_cache_fill calls that stored the key */
	uint32_t prefills;      /* fc_cache_prefill calls that stored the key */
	uint32_t evictions;     /* stores that replaced a different valid key */
	uint32_t invalidations; /* keys removed by fc_cache_invalidate */
};

struct fc_cache {
	struct fc_cache_slot *slots;
	uint32_t nslots;
	uint32_t used; /* slots holding a key */
	/* hash_32(key, log2(nslots)) as one multiply and one shift, with no
	 * branch for one slot */
	uint8_t hash_shift; /* 32 - log2(nslots), or 0 for one slot */
	uint32_t hash_mult; /* the golden-ratio constant, or 0 for one slot */
	enum fc_cache_policy policy;
	bool overflowed; /* PROBE: a fill was refused since the last clear */
	struct fc_cache_stats stats;
};

/* Linux's hash_32(key, bits): key times this constant, top `bits` bits. */
#define FC_HASH32_GOLDEN 0x61C88647u

/*
 * fc_cache_init - set up a cache over nslots caller slots and clear it.
 * NONE takes no slots (slots may be NULL, nslots 0); the other policies need
 * a power-of-two nslots >= 1. Returns 0 or FC_EINVAL.
 */
int fc_cache_init(struct fc_cache *cache, enum fc_cache_policy policy,
		  struct fc_cache_slot *slots, uint32_t nslots);

/* fc_cache_clear - empty every slot; statistics are kept. */
void fc_cache_clear(struct fc_cache *cache);

/* fc_cache_reset_stats - zero the statistics. */
void fc_cache_reset_stats(struct fc_cache *cache);

/*
 * fc_cache_slot_of - the home slot of key (for NONE: 0).
 */
uint32_t fc_cache_slot_of(const struct fc_cache *cache, uint32_t key);

/*
 * fc_cache_lookup - find key; counts a lookup and a hit or a miss.
 * Returns 1 and sets *value on a hit, 0 on a miss.
 */
int fc_cache_lookup(struct fc_cache *cache, uint32_t key, uint32_t *value);

/*
 * fc_cache_peek - as fc_cache_lookup, without touching the statistics.
 */
int fc_cache_peek(const struct fc_cache *cache, uint32_t key, uint32_t *value);

/*
 * fc_cache_fill - store key -> value after a miss (or to update it).
 * Direct-mapped policies replace the occupant of the home slot (an eviction
 * when it held another key). Returns 0; FC_EINVAL for FC_CACHE_EMPTY;
 * FC_ENOSPC when a PROBE map is full (the key is not stored); NONE stores
 * nothing and returns 0.
 */
int fc_cache_fill(struct fc_cache *cache, uint32_t key, uint32_t value);

/*
 * fc_cache_prefill - store key -> value ahead of use; with FC_CACHE_IF_EMPTY
 * an occupied home slot is left alone (PROBE: an existing key is kept).
 * Returns 1 if stored, 0 if left alone, or as fc_cache_fill.
 */
int fc_cache_prefill(struct fc_cache *cache, uint32_t key, uint32_t value,
		     enum fc_cache_prefill_mode mode);

/*
 * fc_cache_invalidate - forget key. Returns 1 if it was held, 0 if not.
 */
int fc_cache_invalidate(struct fc_cache *cache, uint32_t key);

/*
 * fc_cache_complete - true while a PROBE map has refused no fill since its
 * last clear, i.e. it holds every key ever filled and not invalidated.
 * Always false for the direct-mapped policies and NONE.
 */
static inline bool fc_cache_complete(const struct fc_cache *cache)
{
	return cache->policy == FC_CACHE_PROBE && !cache->overflowed;
}

/*
 * Inline hit paths: no call and no statistics, for callers that know their
 * policy and look up in a loop (a dispatch on the policy would cost more
 * than the hit itself). Each returns true and sets *value when the cache
 * holds key, false otherwise; call it only on a cache of its policy.
 * key must not be FC_CACHE_EMPTY: callers validate keys anyway (a phandle
 * is 1..0xfffffffe), so the hit path does not test it again.
 */

/* fc_cache_mask_get - MASK: the slot key & (n - 1). */
static inline bool fc_cache_mask_get(const struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	const struct fc_cache_slot *slot = &cache->slots[key & (cache->nslots - 1)];

	if (slot->key != key)
		return false;
	*value = slot->value;
	return true;
}

static inline uint32_t fc_cache_hash_home(const struct fc_cache *cache, uint32_t key)
{
	return (uint32_t)(key * cache->hash_mult) >> cache->hash_shift;
}

/* fc_cache_hash32_get - HASH32: the slot hash_32(key, bits). */
static inline bool fc_cache_hash32_get(const struct fc_cache *cache, uint32_t key,
				       uint32_t *value)
{
	const struct fc_cache_slot *slot = &cache->slots[fc_cache_hash_home(cache, key)];

	if (slot->key != key)
		return false;
	*value = slot->value;
	return true;
}

/*
 * fc_cache_probe_get - PROBE: the probe run from the hash_32 home slot. The
 * home slot is tested first, on the straight path: most keys live there.
 */
static inline bool fc_cache_probe_get(const struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	uint32_t mask = cache->nslots - 1;
	uint32_t i = fc_cache_hash_home(cache, key);

	/* a full map has no empty slot to end the run: one lap at most */
	for (uint32_t n = cache->nslots; !FC_LIKELY(cache->slots[i].key == key); i = (i + 1) & mask)
		if (cache->slots[i].key == FC_CACHE_EMPTY || --n == 0)
			return false;
	*value = cache->slots[i].value;
	return true;
}

#endif /* FDTCACHE_CACHE_H */
