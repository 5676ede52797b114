/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/cache.h"

static unsigned int log2_u32(uint32_t n)
{
	unsigned int bits = 0;

	while (n >>= 1)
		bits++;
	return bits;
}

/* Slots per set: 1 for the direct-mapped policies and PROBE. */
static uint32_t ways_of(enum fc_cache_policy policy)
{
	return policy == FC_CACHE_HASH32_4WAY ? 4u : policy == FC_CACHE_HASH32_2WAY ? 2u : 1u;
}

static unsigned int ways_log2(enum fc_cache_policy policy)
{
	return policy == FC_CACHE_HASH32_4WAY ? 2u : policy == FC_CACHE_HASH32_2WAY ? 1u : 0u;
}

/* fc_cache_clear, inlined into setup */
static FC_ALWAYS_INLINE void clear(struct fc_cache *cache)
{
	for (uint32_t i = cache->nslots; i--;) {
		cache->slots[i].key = FC_CACHE_EMPTY;
		cache->slots[i].value = 0;
	}
	cache->used = 0;
	cache->overflowed = false;
}

/*
 * The fields of an empty cache with zero statistics; bits: log2 of its sets.
 * Inlined with the clearing: fc_cache_probe_init, all an engine's index
 * links of it, is then one function.
 */
static FC_ALWAYS_INLINE void setup(struct fc_cache *cache, enum fc_cache_policy policy,
				   struct fc_cache_slot *slots, uint32_t nslots,
				   unsigned int bits)
{
	cache->slots = slots;
	cache->nslots = nslots;
	cache->hash_shift = (uint8_t)(bits ? 32 - bits : 0);
	cache->hash_mult = bits ? FC_HASH32_GOLDEN : 0;
	cache->policy = policy;
	clear(cache);
	FC_MEMSET(&cache->stats, 0, sizeof(cache->stats));
}

int fc_cache_init(struct fc_cache *cache, enum fc_cache_policy policy,
		  struct fc_cache_slot *slots, uint32_t nslots)
{
	if (!cache)
		return FC_EINVAL;
	switch (policy) {
	case FC_CACHE_NONE:
		slots = NULL;
		nslots = 0;
		break;
	case FC_CACHE_MASK:
	case FC_CACHE_HASH32:
	case FC_CACHE_PROBE:
	case FC_CACHE_HASH32_2WAY:
	case FC_CACHE_HASH32_4WAY:
		if (!slots || !fc_is_pow2(nslots) || nslots < ways_of(policy))
			return FC_EINVAL;
		break;
	default:
		return FC_EINVAL;
	}
	/* set-associative: the hash picks one of nslots / ways sets */
	setup(cache, policy, slots, nslots, nslots ? log2_u32(nslots) - ways_log2(policy) : 0);
	return 0;
}

int fc_cache_probe_init(struct fc_cache *cache, struct fc_cache_slot *slots, uint32_t nslots)
{
	if (!cache || (nslots && (!slots || !fc_is_pow2(nslots))))
		return FC_EINVAL;
	setup(cache, nslots ? FC_CACHE_PROBE : FC_CACHE_NONE, nslots ? slots : NULL, nslots,
	      log2_u32(nslots));
	return 0;
}

void fc_cache_clear(struct fc_cache *cache)
{
	clear(cache);
}

void fc_cache_reset_stats(struct fc_cache *cache)
{
	FC_MEMSET(&cache->stats, 0, sizeof(cache->stats));
}

uint32_t fc_cache_slot_of(const struct fc_cache *cache, uint32_t key)
{
	switch (cache->policy) {
	case FC_CACHE_MASK:
		return key & (cache->nslots - 1);
	case FC_CACHE_HASH32:
	case FC_CACHE_PROBE:
		return fc_cache_hash_home(cache, key);
	case FC_CACHE_HASH32_2WAY:
	case FC_CACHE_HASH32_4WAY:
		return fc_cache_hash_home(cache, key) << ways_log2(cache->policy);
	default:
		return 0;
	}
}

static bool is_sets(const struct fc_cache *cache)
{
	return ways_of(cache->policy) > 1;
}

/*
 * Set-associative: the slot of key in its set, else the first empty slot
 * (the set's used slots come first), else UINT32_MAX (full, absent).
 * *found tells which.
 */
static uint32_t set_find(const struct fc_cache *cache, uint32_t key, bool *found)
{
	uint32_t base = fc_cache_slot_of(cache, key);
	uint32_t ways = ways_of(cache->policy);

	*found = false;
	for (uint32_t i = base; i < base + ways; i++) {
		if (cache->slots[i].key == key) {
			*found = true;
			return i;
		}
		if (cache->slots[i].key == FC_CACHE_EMPTY)
			return i;
	}
	return UINT32_MAX;
}

/* Move slot i of its set to the front (most recent), the ones before it back. */
static void set_promote(struct fc_cache *cache, uint32_t base, uint32_t i)
{
	struct fc_cache_slot s = cache->slots[i];

	for (; i > base; i--)
		cache->slots[i] = cache->slots[i - 1];
	cache->slots[base] = s;
}

/*
 * PROBE: the slot holding key, or else the empty slot ending its probe run,
 * or else (the map is full and lacks key) its home slot, holding another key.
 */
static struct fc_cache_slot *probe_find(const struct fc_cache *cache, uint32_t key)
{
	uint32_t mask = cache->nslots - 1;
	uint32_t i = fc_cache_hash_home(cache, key);

	for (uint32_t n = cache->nslots; n; n--, i = (i + 1) & mask) {
		uint32_t k = cache->slots[i].key;

		if (k == key || k == FC_CACHE_EMPTY)
			break;
	}
	return &cache->slots[i];
}

/*
 * The slot holding key, or UINT32_MAX: the direct-mapped and set-associative
 * policies (fc_cache_probe_invalidate finds a PROBE map's keys).
 */
static uint32_t find_slot(const struct fc_cache *cache, uint32_t key)
{
	uint32_t i;

	if (cache->policy == FC_CACHE_NONE || key == FC_CACHE_EMPTY)
		return UINT32_MAX;
	if (is_sets(cache)) {
		bool found;

		i = set_find(cache, key, &found);
		return found ? i : UINT32_MAX;
	}
	i = fc_cache_slot_of(cache, key);
	if (cache->slots[i].key != key)
		return UINT32_MAX;
	return i;
}

int fc_cache_peek(const struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	uint32_t v, i;
	bool hit;

	if (key == FC_CACHE_EMPTY)
		return 0;
	switch (cache->policy) {
	case FC_CACHE_MASK:
		hit = fc_cache_mask_get(cache, key, &v);
		break;
	case FC_CACHE_HASH32:
		hit = fc_cache_hash32_get(cache, key, &v);
		break;
	case FC_CACHE_PROBE:
		hit = fc_cache_probe_get(cache, key, &v);
		break;
	case FC_CACHE_HASH32_2WAY:
	case FC_CACHE_HASH32_4WAY:
		i = find_slot(cache, key);
		hit = i != UINT32_MAX;
		v = hit ? cache->slots[i].value : 0;
		break;
	default:
		return 0;
	}
	if (hit && value)
		*value = v;
	return hit;
}

int fc_cache_lookup(struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	int hit = fc_cache_peek(cache, key, value);

	cache->stats.lookups++;
	if (hit && is_sets(cache))
		set_promote(cache, fc_cache_slot_of(cache, key), find_slot(cache, key));
	if (hit)
		cache->stats.hits++;
	else
		cache->stats.misses++;
	return hit;
}

/* Store into slot i; returns 1 (stored). */
static int store(struct fc_cache *cache, uint32_t i, uint32_t key, uint32_t value)
{
	struct fc_cache_slot *s = &cache->slots[i];

	if (s->key == FC_CACHE_EMPTY)
		cache->used++;
	else if (s->key != key)
		cache->stats.evictions++;
	s->key = key;
	s->value = value;
	return 1;
}

/*
 * Set-associative store: key becomes the most recent of its set (a full
 * set loses its least recent key); with IF_EMPTY, key only takes an empty
 * slot, as the least recent, and an existing key is kept.
 */
static int set_put(struct fc_cache *cache, uint32_t key, uint32_t value,
		   enum fc_cache_prefill_mode mode)
{
	uint32_t base = fc_cache_slot_of(cache, key);
	uint32_t last = base + ways_of(cache->policy) - 1;
	bool found;
	uint32_t i = set_find(cache, key, &found);

	if (mode == FC_CACHE_IF_EMPTY) {
		if (found || i == UINT32_MAX)
			return 0;
		return store(cache, i, key, value);
	}
	if (i == UINT32_MAX)
		i = last; /* full: the least recent key goes */
	store(cache, i, key, value);
	set_promote(cache, base, i);
	return 1;
}

/* The PROBE store in one function: all an engine's index links of the stores. */
int fc_cache_probe_put(struct fc_cache *cache, uint32_t key, uint32_t value,
		       enum fc_cache_prefill_mode mode)
{
	uint32_t *stored = mode == FC_CACHE_IF_EMPTY ? &cache->stats.prefills : &cache->stats.fills;
	struct fc_cache_slot *s;

	FC_ASSERT(cache->policy == FC_CACHE_PROBE); /* probe_find needs a slot */
	s = probe_find(cache, key);

	/* a probe store evicts nothing: another key here means a full map */
	if (s->key == FC_CACHE_EMPTY) {
		cache->used++;
	} else if (s->key != key) {
		cache->overflowed = true;
		return FC_ENOSPC;
	} else if (mode == FC_CACHE_IF_EMPTY) {
		return 0;
	}
	s->key = key;
	s->value = value;
	(*stored)++;
	return 1;
}

static int put(struct fc_cache *cache, uint32_t key, uint32_t value,
	       enum fc_cache_prefill_mode mode)
{
	uint32_t i;

	if (key == FC_CACHE_EMPTY)
		return FC_EINVAL;
	if (cache->policy == FC_CACHE_NONE)
		return 0;
	if (is_sets(cache))
		return set_put(cache, key, value, mode);
	if (cache->policy != FC_CACHE_PROBE) {
		i = fc_cache_slot_of(cache, key);
	} else {
		/* fc_cache_probe_put's refusal; the rest is a direct-mapped store's */
		i = (uint32_t)(probe_find(cache, key) - cache->slots);
		if (cache->slots[i].key != key && cache->slots[i].key != FC_CACHE_EMPTY) {
			cache->overflowed = true;
			return FC_ENOSPC;
		}
	}
	if (mode == FC_CACHE_IF_EMPTY && cache->slots[i].key != FC_CACHE_EMPTY)
		return 0;
	return store(cache, i, key, value);
}

int fc_cache_fill(struct fc_cache *cache, uint32_t key, uint32_t value)
{
	int rc = put(cache, key, value, FC_CACHE_OVERWRITE);

	if (rc > 0) {
		cache->stats.fills++;
		rc = 0;
	}
	return rc;
}

int fc_cache_prefill(struct fc_cache *cache, uint32_t key, uint32_t value,
		     enum fc_cache_prefill_mode mode)
{
	int rc = put(cache, key, value, mode);

	if (rc > 0)
		cache->stats.prefills++;
	return rc;
}

/*
 * PROBE removal by backward shift: later members of the probe run move up
 * into the hole when their home slot allows it, so no tombstones are needed.
 * The hole is emptied first, so a run ends at an empty slot even in a full
 * map (at the hole, after one lap).
 */
static void probe_remove(struct fc_cache *cache, uint32_t hole)
{
	struct fc_cache_slot *slots = cache->slots;
	uint32_t mask = cache->nslots - 1;
	uint32_t i = hole;

	for (;;) {
		uint32_t home;

		slots[hole].key = FC_CACHE_EMPTY;
		slots[hole].value = 0;
		/* the next member of the run whose home is not in (hole, i], cyclically */
		do {
			i = (i + 1) & mask;
			if (slots[i].key == FC_CACHE_EMPTY)
				return;
			home = fc_cache_hash_home(cache, slots[i].key);
		} while (((i - home) & mask) < ((i - hole) & mask));
		slots[hole] = slots[i];
		hole = i;
	}
}

/* Count a removal; returns 1 (removed). */
static int removed(struct fc_cache *cache)
{
	cache->used--;
	cache->stats.invalidations++;
	return 1;
}

int fc_cache_probe_invalidate(struct fc_cache *cache, uint32_t key)
{
	struct fc_cache_slot *s;

	FC_ASSERT(cache->policy == FC_CACHE_PROBE);
	s = probe_find(cache, key);

	if (s->key != key)
		return 0;
	probe_remove(cache, (uint32_t)(s - cache->slots));
	return removed(cache);
}

int fc_cache_invalidate(struct fc_cache *cache, uint32_t key)
{
	uint32_t i;

	if (cache->policy == FC_CACHE_PROBE)
		return key == FC_CACHE_EMPTY ? 0 : fc_cache_probe_invalidate(cache, key);
	i = find_slot(cache, key);
	if (i == UINT32_MAX)
		return 0;
	if (is_sets(cache)) {
		uint32_t last = fc_cache_slot_of(cache, key) + ways_of(cache->policy) - 1;

		/* close the gap: the set's used slots stay first */
		for (; i < last; i++)
			cache->slots[i] = cache->slots[i + 1];
		cache->slots[last].key = FC_CACHE_EMPTY;
		cache->slots[last].value = 0;
	} else {
		cache->slots[i].key = FC_CACHE_EMPTY;
		cache->slots[i].value = 0;
	}
	return removed(cache);
}
