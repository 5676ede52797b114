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
 *  - FC_CACHE_HASH32_2WAY, FC_CACHE_HASH32_4WAY: set-associative (ours, not
 *                     Linux's): n / ways sets of `ways` slots, set =
 *                     hash_32(key, log2(n / ways)), least recently used key
 *                     of the set evicted. A set's slots are kept in
 *                     recency order (most recent first; empty slots last),
 *                     so a hit moves its key to the front of its set.
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
	FC_CACHE_HASH32_2WAY,
	FC_CACHE_HASH32_4WAY,
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

/* A cache over caller slots. */
struct fc_cache {
	struct fc_cache_slot *slots;
	uint32_t nslots;
	uint32_t used; /* slots holding a key */
	enum fc_cache_policy policy;
	struct fc_cache_stats stats;
	/* private: read by the inline hit paths below and fc_cache_complete() */
	/* hash_32(key, log2(nslots)) as one multiply and one shift, with no
	 * branch for one slot */
	uint8_t hash_shift; /* 32 - log2(nslots), or 0 for one slot */
	uint32_t hash_mult; /* the golden-ratio constant, or 0 for one slot */
	bool overflowed; /* PROBE: a fill was refused since the last clear */
};

/* Linux's hash_32(key, bits): key times this constant, top `bits` bits. */
#define FC_HASH32_GOLDEN 0x61C88647u

/*
 * fc_cache_init - set up a cache over nslots caller slots, empty them and
 * zero the statistics. NONE takes no slots (slots may be NULL, nslots 0);
 * the other policies need a power-of-two nslots >= 1 (the set-associative
 * ones: >= their ways). The slots are the cache's until it is no longer used.
 *
 * returns:
 *	0, ready
 *	FC_EINVAL, cache NULL, an unknown policy, or slots NULL or nslots not
 *		a power of two (or below the ways) for a policy with slots
 *		(*cache is then unchanged)
 */
int fc_cache_init(struct fc_cache *cache, enum fc_cache_policy policy,
		  struct fc_cache_slot *slots, uint32_t nslots);

/*
 * fc_cache_clear - empty every slot (a PROBE map is complete again);
 * statistics are kept.
 *
 * returns: nothing.
 */
void fc_cache_clear(struct fc_cache *cache);

/*
 * fc_cache_reset_stats - zero the statistics.
 *
 * returns: nothing.
 */
void fc_cache_reset_stats(struct fc_cache *cache);

/*
 * fc_cache_slot_of - the home slot of key under the cache's policy
 * (set-associative: the first slot of its set).
 *
 * returns: the slot index, < nslots (0 for NONE).
 */
uint32_t fc_cache_slot_of(const struct fc_cache *cache, uint32_t key);

/*
 * fc_cache_lookup - find key; counts a lookup and a hit or a miss. A hit in
 * a set-associative cache makes key the most recent of its set.
 *
 * returns:
 *	1, a hit: *value is set (value may be NULL)
 *	0, a miss (always for NONE and FC_CACHE_EMPTY)
 */
int fc_cache_lookup(struct fc_cache *cache, uint32_t key, uint32_t *value);

/*
 * fc_cache_peek - fc_cache_lookup without touching the statistics.
 *
 * returns: 1 on a hit (with *value set when value is not NULL), 0 on a miss.
 */
int fc_cache_peek(const struct fc_cache *cache, uint32_t key, uint32_t *value);

/*
 * fc_cache_fill - store key -> value after a miss (or to update it).
 * Direct-mapped policies replace the occupant of the home slot (an eviction
 * when it held another key); set-associative ones store key as the most
 * recent of its set, evicting the least recent key of a full set.
 *
 * returns:
 *	0, stored (NONE stores nothing and returns 0)
 *	FC_EINVAL, key is FC_CACHE_EMPTY
 *	FC_ENOSPC, a PROBE map is full and lacks key: nothing stored, and the
 *		map is no longer complete
 */
int fc_cache_fill(struct fc_cache *cache, uint32_t key, uint32_t value);

/*
 * fc_cache_prefill - store key -> value ahead of use; with FC_CACHE_IF_EMPTY
 * an occupied home slot is left alone (PROBE: an existing key is kept;
 * set-associative: key goes to the first empty slot of its set, as its
 * least recent key, and a full set is left alone).
 *
 * returns:
 *	1, stored
 *	0, left alone (or NONE)
 *	FC_EINVAL or FC_ENOSPC, as fc_cache_fill
 */
int fc_cache_prefill(struct fc_cache *cache, uint32_t key, uint32_t value,
		     enum fc_cache_prefill_mode mode);

/*
 * fc_cache_invalidate - forget key.
 *
 * returns: 1 if it was held, 0 if not.
 */
int fc_cache_invalidate(struct fc_cache *cache, uint32_t key);

/*
 * PROBE maps only, for callers that know their policy (an engine's exact
 * index): the store and removal without the dispatch on the policy, so a
 * program linking only these (and fc_cache_probe_get) links no code of the
 * other policies. key must not be FC_CACHE_EMPTY.
 */

/*
 * fc_cache_probe_init - fc_cache_init with FC_CACHE_PROBE, or with
 * FC_CACHE_NONE when nslots is 0 (slots may then be NULL).
 *
 * returns:
 *	0, ready
 *	FC_EINVAL, cache NULL, or nslots not 0 and slots NULL or nslots not a
 *		power of two (*cache is then unchanged)
 */
int fc_cache_probe_init(struct fc_cache *cache, struct fc_cache_slot *slots, uint32_t nslots);

/*
 * fc_cache_probe_put - fc_cache_fill (mode FC_CACHE_OVERWRITE, counted as
 * a fill) or fc_cache_prefill with FC_CACHE_IF_EMPTY (counted as a
 * prefill) of a PROBE map (one set up with slots: FC_ASSERT checks it;
 * the NONE map of fc_cache_probe_init with no slots takes no put).
 *
 * returns:
 *	1, stored
 *	0, left alone (FC_CACHE_IF_EMPTY and key held)
 *	FC_ENOSPC, the map is full and lacks key: nothing stored, and the
 *		map is no longer complete
 */
int fc_cache_probe_put(struct fc_cache *cache, uint32_t key, uint32_t value,
		       enum fc_cache_prefill_mode mode);

/*
 * fc_cache_probe_invalidate - fc_cache_invalidate of a PROBE map (as
 * fc_cache_probe_put, one with slots).
 *
 * returns: 1 if key was held, 0 if not.
 */
int fc_cache_probe_invalidate(struct fc_cache *cache, uint32_t key);

/*
 * fc_cache_complete - has a PROBE map refused no fill since its last clear,
 * i.e. does it hold every key ever filled and not invalidated?
 *
 * returns: true while complete; always false for the direct-mapped
 * policies and NONE.
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

/*
 * fc_cache_mask_get - MASK hit path: the slot key & (n - 1).
 *
 * returns: true with *value set when the slot holds key, else false.
 */
static inline bool fc_cache_mask_get(const struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	const struct fc_cache_slot *slot = &cache->slots[key & (cache->nslots - 1)];

	if (slot->key != key)
		return false;
	*value = slot->value;
	return true;
}

/*
 * fc_cache_hash_home - hash_32(key, log2(nslots)): the home slot of the
 * HASH32 and PROBE policies.
 *
 * returns: the slot index, < nslots.
 */
static inline uint32_t fc_cache_hash_home(const struct fc_cache *cache, uint32_t key)
{
	return (uint32_t)(key * cache->hash_mult) >> cache->hash_shift;
}

/*
 * fc_cache_hash32_get - HASH32 hit path: the slot hash_32(key, bits).
 *
 * returns: true with *value set when the slot holds key, else false.
 */
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
 * fc_cache_probe_get - PROBE hit path: the probe run from the hash_32 home
 * slot. The home slot is tested first, on the straight path: most keys
 * live there.
 *
 * returns: true with *value set when the map holds key, else false.
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
