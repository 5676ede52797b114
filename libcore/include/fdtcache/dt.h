/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dt.h - phandle lookups over a flattened device tree (DTB), through libfdt.
 *
 * - A node table: every node in tree order (pre-order, the DTB's order) with
 *   its byte offset and phandle, in caller memory. Offsets grow in tree
 *   order, so a node's 1-based tree position is found by binary search.
 * - A complete index: every phandle -> node offset, built in one walk into
 *   caller slots. It is a hash map (fc_cache FC_CACHE_PROBE, load <= 1/2):
 *   O(1) lookups with no sort pass over the walk's output, and the same slot
 *   type and statistics as the caches it is compared with.
 * - A replay of boot-time lookups under Linux's cache semantics (struct
 *   fc_dt_replay), with exact scan accounting: a miss costs the 1-based tree
 *   position of the node found, or all N nodes when none has the phandle.
 *
 * A node's phandle is its `phandle` property, else `linux,phandle` (libfdt's
 * fdt_get_phandle); 0 and 0xffffffff are not phandles.
 */
#ifndef FDTCACHE_DT_H
#define FDTCACHE_DT_H

#include "fc_env.h"
#include "fc_err.h"
#include "cache.h"

/* Linux's OF_PHANDLE_ILLEGAL: never counted or stored by the mask cache. */
#define FC_DT_PHANDLE_ILLEGAL 0xdeadbeefu

/*
 * One node of the table: 20 bytes (FC_DT_NODE_BYTES) of caller memory per
 * node, filled by one pass over the structure block.
 */
struct fc_dt_node {
	int32_t offset;       /* structure-block offset of the node */
	uint32_t phandle;     /* 0 when the node has none */
	uint32_t parent;      /* table index of the parent (the root: 0) */
	uint32_t end;         /* table index just past the node's subtree */
	int8_t address_cells; /* its #address-cells as fdt_address_cells(): 2 if absent, -1 if invalid */
	int8_t size_cells;    /* its #size-cells as fdt_size_cells(): 1 if absent, -1 if invalid */
	/* the parent's two (its reg is read with them), in what would be padding; root: -1 */
	int8_t reg_address_cells;
	int8_t reg_size_cells;
};

#define FC_DT_NODE_BYTES sizeof(struct fc_dt_node)

struct fc_dt {
	const void *fdt;
	struct fc_dt_node *nodes; /* tree order */
	uint32_t nnodes;
	uint32_t nphandles; /* nodes with a phandle */
};

/*
 * fc_dt_count_nodes - number of nodes in fdt (to size the node table).
 * The caller has checked the blob (fdt_check_full).
 * returns:
 *	the count (>= 1)
 *	FC_EBADDTB: a malformed tree
 */
int fc_dt_count_nodes(const void *fdt);

/*
 * fc_dt_init - walk fdt once and fill the node table nodes[0..cap). fdt and
 * nodes are used by dt until it is no longer used.
 * returns:
 *	the number of nodes
 *	FC_EINVAL: NULL arguments
 *	FC_ENOMEM: cap is smaller than the node count
 *	FC_EBADDTB: a malformed tree
 */
int fc_dt_init(struct fc_dt *dt, const void *fdt, struct fc_dt_node *nodes, uint32_t cap);

/*
 * fc_dt_position - 1-based tree position of the node at offset.
 * returns:
 *	the position (1..nnodes)
 *	FC_ENOENT: no node starts at offset
 */
int fc_dt_position(const struct fc_dt *dt, int offset);

/*
 * fc_dt_scan - the linear search of Linux and libfdt over the node table:
 * the first node in tree order with phandle. *steps (if not NULL) gets the
 * nodes visited: its position, or nnodes when none matches.
 * returns:
 *	the node's offset
 *	FC_ENOENT: no node has phandle (also for phandle 0 / 0xffffffff)
 */
int fc_dt_scan(const struct fc_dt *dt, uint32_t phandle, uint32_t *steps);

/*
 * fc_dt_index_slots - slots a complete index needs for nphandles phandles:
 * the power of two >= 2 * nphandles (at least 1).
 * returns:
 *	the slot count
 *	0: it does not fit in 32 bits
 */
uint32_t fc_dt_index_slots(uint32_t nphandles);

/*
 * fc_dt_index_build - build a complete index of fdt into slots[0..nslots)
 * in one tree walk; a phandle held by several nodes maps to the first in
 * tree order, as a linear scan finds. The blob must be checked; slots are
 * the index's until it is no longer used.
 * returns:
 *	the number of distinct phandles
 *	FC_EINVAL: nslots not a power of two
 *	FC_ENOSPC: too few slots (the index is incomplete)
 *	FC_EBADDTB: a malformed tree
 */
int fc_dt_index_build(struct fc_cache *index, const void *fdt,
		      struct fc_cache_slot *slots, uint32_t nslots);

/*
 * fc_dt_index_lookup - the offset of the node with phandle, from a complete
 * index (counted in its statistics). fc_cache_probe_get() is the same
 * lookup inline, without statistics.
 * returns:
 *	the offset
 *	FC_ENOENT: no node has phandle
 */
int fc_dt_index_lookup(struct fc_cache *index, uint32_t phandle);

/* The lookup strategies a replay models. */
enum fc_dt_policy {
	FC_DT_NONE,   /* scan every time: libfdt, U-Boot, Linux without a cache */
	FC_DT_MASK,   /* Linux v4.17-v5.5: no cache before core init, populated then */
	FC_DT_HASH32, /* Linux v5.6+: live from the start, prefilled at core init */
	FC_DT_INDEX,  /* complete index, built by one walk at the first lookup */
	FC_DT_HASH32_2WAY, /* ours: hash32 sets of 2 (LRU within a set), as HASH32 at boot */
	FC_DT_HASH32_4WAY, /* ours: hash32 sets of 4 (LRU within a set), as HASH32 at boot */
};

struct fc_dt_replay_stats {
	uint32_t lookups;
	uint32_t hits;
	uint32_t misses;     /* lookups not answered by the cache (incl. unresolved) */
	uint32_t unresolved; /* lookups of a phandle no node has */
	uint32_t evictions;  /* stores that replaced another phandle's node */
	uint64_t scan_steps; /* nodes visited by scans and by the index build */
};

struct fc_dt_replay {
	const struct fc_dt *dt;
	struct fc_cache cache;
	enum fc_dt_policy policy;
	bool core_init_done;
	struct fc_dt_replay_stats stats;
	/* private: fc_dt_replay's own */
	bool index_built;
};

/*
 * fc_dt_mask_size - the Linux mask cache size for dt:
 * roundup_pow_of_two(phandles other than 0xdeadbeef), at least 1.
 * returns: the size, a power of two.
 */
uint32_t fc_dt_mask_size(const struct fc_dt *dt);

/*
 * fc_dt_replay_init - start a replay at boot: caches empty, before core init.
 * NONE takes no slots; MASK and HASH32 take a power of two (the 2- and
 * 4-way variants at least 2 and 4); INDEX takes at least
 * fc_dt_index_slots(dt->nphandles). dt and slots are used by the replay
 * until it is no longer used.
 * returns:
 *	0: ready
 *	FC_EINVAL: a NULL argument, an unknown policy or slots the policy
 *		cannot take
 */
int fc_dt_replay_init(struct fc_dt_replay *r, const struct fc_dt *dt, enum fc_dt_policy policy,
		      struct fc_cache_slot *slots, uint32_t nslots);

/*
 * fc_dt_replay_core_init - the point where Linux runs of_core_init(): MASK
 * populates its cache in tree order by overwrite, HASH32 (and its
 * set-associative variants) prefills empty slots in tree order. Only the
 * first call has an effect.
 * returns: 0.
 */
int fc_dt_replay_core_init(struct fc_dt_replay *r);

/*
 * fc_dt_replay_lookup - one boot-time lookup. Misses are resolved with
 * libfdt's fdt_node_offset_by_phandle (the real cost) and accounted with the
 * node table. 0xffffffff is a lookup Linux makes (an unresolved overlay
 * reference): it scans every node and never resolves.
 * returns:
 *	the node offset
 *	FC_ENOENT: unresolved (no node has phandle; always for 0xffffffff)
 *	FC_EINVAL: phandle 0, not counted (Linux returns before any lookup)
 *	FC_ENOSPC: INDEX slots too few
 */
int fc_dt_replay_lookup(struct fc_dt_replay *r, uint32_t phandle);

/*
 * fc_dt_replay_lookup_indexed - fc_dt_replay_lookup, a miss resolved
 * through index rather than by libfdt's scan (NULL: by the scan). index
 * must be a complete index of r's DTB (fc_dt_index_build): it gives each
 * miss the node the scan finds, so every answer and counter is the same (a
 * miss is still priced at that node's tree position), found by hashing
 * instead of a walk of the tree. For replays whose counters matter and
 * whose time does not; a replay may mix both kinds of lookup.
 * returns:
 *	as fc_dt_replay_lookup, and
 *	FC_EINVAL: index is not a PROBE map (not counted)
 */
int fc_dt_replay_lookup_indexed(struct fc_dt_replay *r, uint32_t phandle,
				const struct fc_cache *index);

/*
 * Lookups beyond phandles, over the node table (struct fc_dt_lookups): each
 * answer is the one libfdt gives, found without walking the tree again.
 *
 * - path: fdt_path_offset() semantics: an absolute path, components matched
 *   as fdt_subnode_offset() does (a component without '@' also matches a
 *   node named "component@unit", the first such sibling in tree order),
 *   repeated and trailing '/' ignored; a path not starting with '/' begins
 *   with an alias, resolved through /aliases. An alias whose value is not an
 *   absolute path resolves to nothing (libfdt would follow it recursively).
 *   Paths are cached by the hash of their bytes in a direct-mapped cache
 *   whose slots hold the key's bytes too (up to FC_DT_PATH_BYTES), so a hit
 *   is verified with one comparison of the bytes; a longer path's hit is
 *   verified against the node table (names up the parent chain). A hash
 *   collision is counted and resolved, never answered with a wrong node.
 *   A path or alias of up to FC_DT_PATH_BYTES that names no node is cached
 *   as such, verified by its bytes the same way, so asking again is a hit
 *   (counted in hits and not_found); a longer one is searched every time.
 * - alias: the node an alias names (fdt_path_offset(fdt, "serial0")), cached
 *   by its name in the same slots (under another key than the same bytes as
 *   a path: "a/b" is a path from alias a, never the alias "a/b").
 * - parent: fdt_parent_offset(), from the table.
 * - reg cells: the #address-cells / #size-cells a node's `reg` is read with
 *   (its parent's, as fdt_address_cells() / fdt_size_cells() give them).
 * - cells: a provider's #xxx-cells (any u32 property, e.g. "#clock-cells"),
 *   through a cache of (node, property name) -> property, verified by name.
 *
 * Memory: FC_DT_NODE_BYTES per node for the table, FC_DT_PATH_SLOT_BYTES
 * (64) per path slot, 8 bytes per slot of the other caches.
 * The node cache maps a node's offset (an exact key) to its parent's offset
 * and reg cells, so parent and reg-cells hits read no table entry; a miss
 * finds the node by binary search (log2 N steps) and fills it.
 * fc_dt_node_parent() works on table indices in O(1).
 */

/* The kinds of lookup, each with its own statistics. */
enum fc_dt_kind {
	FC_DT_KIND_PATH,
	FC_DT_KIND_ALIAS,
	FC_DT_KIND_PARENT,
	FC_DT_KIND_REG_CELLS,
	FC_DT_KIND_CELLS,
	FC_DT_KINDS,
};

struct fc_dt_lookup_stats {
	uint32_t lookups;
	uint32_t hits;       /* answered by a cache or the node table (a cached "no node" too) */
	uint32_t misses;     /* resolved by a search of the node table */
	uint32_t collisions; /* a cached entry of another key in the slot (counted as a miss) */
	uint32_t not_found;  /* lookups with no answer, searched or cached */
	uint64_t scan_steps; /* node names or properties compared by the searches */
};

/* Bytes of a path or alias name a path slot holds; longer paths are verified by the table. */
#define FC_DT_PATH_BYTES 51

/*
 * One slot of the path cache, FC_DT_PATH_SLOT_BYTES of caller memory: the
 * key, the answer and the key's bytes. A hit compares the tag and the bytes
 * (they decide it: equal bytes of one kind have one key), never the key, so
 * the key's bytes start on a word boundary.
 */
struct fc_dt_path_slot {
	uint32_t key;   /* fc_dt_path_key() or fc_dt_alias_key(); FC_CACHE_EMPTY when free */
	int32_t offset; /* the node's offset; FC_ENOENT: the key names no node */
	uint32_t node;  /* its table index; UINT32_MAX: none */
	char bytes[FC_DT_PATH_BYTES];
	/* bytes held (1..FC_DT_PATH_BYTES), | FC_DT_ALIAS_TAG_ for an alias; 0: a longer path, or free */
	uint8_t tag;
};

/* A path slot's tag bit for an alias name (FC_DT_PATH_BYTES < it). */
#define FC_DT_ALIAS_TAG_ 0x80u

#define FC_DT_PATH_SLOT_BYTES sizeof(struct fc_dt_path_slot)

/* Caller memory for the caches: each a power of two of slots, or 0 for none. */
struct fc_dt_lookups_config {
	struct fc_dt_path_slot *path_slots; /* paths, aliases and alias values */
	uint32_t npath;
	struct fc_cache_slot *prop_slots; /* #cells and /aliases properties */
	uint32_t nprops;
	struct fc_cache_slot *node_slots; /* node offsets -> parents and reg cells */
	uint32_t nnode;
	struct fc_cache_slot *cell_slots; /* (node, registered cells name) -> value */
	uint32_t ncells;
};

/*
 * The home slot of a key in a direct-mapped cache of 2^bits slots,
 * hash_32(key, bits) as fc_cache_hash_home() has it (so fc_cache_fill()
 * puts a key where the hit paths look). A 64-bit target takes it from the
 * upper half of one 64-bit product with a constant shift and a mask, since a
 * variable shift costs x86-64 more than the rest of a hit; a 32-bit target
 * keeps the 32-bit multiply and shift.
 */
struct fc_dt_hash_ {
#if UINTPTR_MAX > 0xFFFFFFFFu
	uint64_t mult; /* FC_HASH32_GOLDEN << bits */
#else
	uint32_t shift; /* 32 - bits, or 31 for one slot */
#endif
	uint32_t mask; /* 2^bits - 1 */
};

/*
 * fc_dt_home_ - the home slot of key under h.
 * returns: the slot's index.
 */
static inline uint32_t fc_dt_home_(const struct fc_dt_hash_ *h, uint32_t key)
{
#if UINTPTR_MAX > 0xFFFFFFFFu
	return (uint32_t)(key * h->mult >> 32) & h->mask;
#else
	return (uint32_t)(key * FC_HASH32_GOLDEN) >> h->shift & h->mask;
#endif
}

/* A node or cells cache as the inline hit paths read it. */
struct fc_dt_hit_cache_ {
	const struct fc_cache_slot *slots;
	struct fc_dt_hash_ hash;
};

/*
 * The path cache: reads go to the caller's slots or to one free slot of
 * libcore's. A key's home slot is its low bits (key & mask): the key is the
 * upper half of a product (fc_dt_key_), already spread, so no multiply.
 */
struct fc_dt_path_cache_ {
	const struct fc_dt_path_slot *slots;
	struct fc_dt_path_slot *fill; /* the caller's slots, NULL when none */
	uint32_t mask;                /* slots - 1 */
};

/* Property names fc_dt_cells_name() can register per fc_dt_lookups. */
#define FC_DT_CELL_NAMES 15

struct fc_dt_lookups {
	const struct fc_dt *dt;
	struct fc_cache props; /* hash of (table index, property name) -> property offset */
	struct fc_cache nodes; /* node offset -> parent offset and reg cells (FC_DT_NODE_*) */
	struct fc_cache cells; /* node offset << 2 | name id -> #cells value */
	uint32_t aliases;      /* table index of /aliases, or UINT32_MAX */
	struct fc_dt_lookup_stats stats[FC_DT_KINDS];
	const char *cell_names[FC_DT_CELL_NAMES]; /* the caller's strings, by id */
	uint32_t ncell_names;
	/* private: the blob's blocks, located once by fc_dt_lookups_init() */
	struct fc_cache_slot spare_[4];  /* two slots each for a node or cells cache of 0 or 1 */
	struct fc_dt_hit_cache_ node_hits_, cell_hits_; /* the nodes and cells caches, for the hit paths */
	struct fc_dt_path_cache_ paths_; /* key's bytes -> node */
	const uint8_t *structs_;
	const char *strings_;
	uint32_t struct_size_, strings_size_;
};

/*
 * fc_dt_lookups_init - set up path, alias, parent and cells lookups over an
 * initialised node table, with the caches in cfg's slots (a path or
 * property cache of 0 slots: every lookup searches the table instead; a
 * node or cells cache of 0 or 1 slots gets two slots inside lk, so the inline
 * hit paths need no test for it). The table, the blob and the slots must
 * outlive lk; cfg itself is not kept.
 * returns:
 *	0 on success
 *	FC_EINVAL: NULL or empty arguments, or a slot count that is not 0 or a power of two
 *	FC_EBADDTB: the table's blob has no usable header
 */
int fc_dt_lookups_init(struct fc_dt_lookups *lk, const struct fc_dt *dt,
		       const struct fc_dt_lookups_config *cfg);

/*
 * fc_dt_path_offset - the node at path (len bytes, no NUL needed).
 * returns:
 *	the node's structure-block offset
 *	FC_ENOENT: no such node, or an unknown alias (cached like a node)
 *	FC_EINVAL: an empty path
 */
int fc_dt_path_offset(struct fc_dt_lookups *lk, const char *path, uint32_t len);

/*
 * fc_dt_alias_offset - the node the alias name (len bytes) stands for.
 * returns:
 *	the node's structure-block offset
 *	FC_ENOENT: no /aliases property of that name, or it names no node
 *		(cached like a node)
 *	FC_EINVAL: an empty name
 */
int fc_dt_alias_offset(struct fc_dt_lookups *lk, const char *name, uint32_t len);

/*
 * fc_dt_parent_offset - the parent of the node at offset.
 * returns:
 *	the parent's structure-block offset
 *	FC_ENOENT: offset is the root, or not the offset of a node
 */
int fc_dt_parent_offset(struct fc_dt_lookups *lk, int offset);

/*
 * fc_dt_reg_cells - the #address-cells and #size-cells that the `reg` of the
 * node at offset is read with: its parent's.
 * returns:
 *	0, with *address_cells and *size_cells set
 *	FC_ENOENT: offset is the root, or not the offset of a node
 *	FC_EBADDTB: the parent's property is not a valid cell count
 */
int fc_dt_reg_cells(struct fc_dt_lookups *lk, int offset, uint32_t *address_cells,
		    uint32_t *size_cells);

/*
 * fc_dt_cells - the u32 property name (a NUL-terminated "#xxx-cells") of the
 * node at offset: the argument count of a provider.
 * returns:
 *	the value (0..INT32_MAX)
 *	FC_ENOENT: the node has no such property, or offset is not a node
 *	FC_EBADDTB: the property is not one u32, or above INT32_MAX
 *	FC_EINVAL: NULL name
 */
int fc_dt_cells(struct fc_dt_lookups *lk, int offset, const char *name);

/*
 * fc_dt_cells_name - register a #cells property name (NUL-terminated) for
 * fc_dt_cells_id(): its values are then cached exactly by (node, id), with
 * no name to hash or compare on a hit. name must outlive lk. A name given
 * twice gets the same id.
 * returns:
 *	the id (0..FC_DT_CELL_NAMES-1)
 *	FC_ENOSPC: FC_DT_CELL_NAMES names are registered already
 *	FC_EINVAL: NULL or empty name
 */
int fc_dt_cells_name(struct fc_dt_lookups *lk, const char *name);

/*
 * fc_dt_cells_id - fc_dt_cells() for the name registered as id, through the
 * cells cache (counted in the FC_DT_KIND_CELLS statistics).
 * returns:
 *	the value (0..INT32_MAX)
 *	FC_ENOENT: the node has no such property, or offset is not a node
 *	FC_EBADDTB: the property is not one u32, or above INT32_MAX
 *	FC_EINVAL: id is not a registered name
 */
int fc_dt_cells_id(struct fc_dt_lookups *lk, int offset, int id);

#define FC_DT_KEY_SEED_ 0x811C9DC5u  /* the first lane's start, xor the key's length */
#define FC_DT_KEY_SEED2_ 0x27D4EB2Fu /* the second lane's */
#define FC_DT_KEY_MULT_ 0x9E3779B1u  /* odd, with well-spread bits */
#define FC_DT_KEY_MULT2_ 0x85EBCA77u /* another, for the second lane */
#define FC_DT_ALIAS_MIX_ 0x5BD1E995u /* an alias's key: the same bytes' path key xor this */

/*
 * fc_dt_lanes_ - the key's two lanes (*a, *b) over the len bytes at p but
 * the last eight: eight bytes a step as two 32-bit little-endian words, one
 * multiply each (independent, so a step costs one multiply's latency).
 */
static FC_ALWAYS_INLINE void fc_dt_lanes_(const uint8_t *p, uint32_t len, uint32_t *a,
					  uint32_t *b)
{
	for (uint32_t i = 0; i + 8 < len; i += 8) {
		*a = (*a ^ fc_get_le32(p + i)) * FC_DT_KEY_MULT_;
		*b = (*b ^ fc_get_le32(p + i + 4)) * FC_DT_KEY_MULT2_;
	}
}

/*
 * fc_dt_ends_ - the words the lanes leave of the len bytes (1 or more) at
 * p: the word at len - 8 (at 0 below 8 bytes) and the last word, which may
 * overlap the bytes before; 1-3 bytes as one word of the first, middle and
 * last byte, and 0. The hash and the hit's compare read these same words.
 */
static FC_ALWAYS_INLINE void fc_dt_ends_(const uint8_t *p, uint32_t len, uint32_t *x, uint32_t *y)
{
	if (len < 4) {
		*x = p[0] | (uint32_t)p[len >> 1] << 8 | (uint32_t)p[len - 1] << 16;
		*y = 0;
		return;
	}
	*x = fc_get_le32(p + (len < 8 ? 0 : len - 8));
	*y = fc_get_le32(p + len - 4);
}

/*
 * fc_dt_mix_ - the key of lanes a, b and ends x, y: the upper half of two
 * 32x32->64-bit products (one instruction on 32-bit targets too), every
 * bit of it spread from every input bit, so its low bits are a home slot
 * with no further multiply (struct fc_dt_path_cache_).
 * returns: the key.
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_mix_(uint32_t a, uint32_t b, uint32_t x, uint32_t y)
{
	return (uint32_t)(((uint64_t)(a ^ x) * FC_DT_KEY_MULT_ ^
			   (uint64_t)(b ^ y) * FC_DT_KEY_MULT2_) >> 32);
}

/*
 * fc_dt_key_ - the hash of len bytes at s, read as 32-bit little-endian
 * words (the same hash on every platform): the lanes over all but the last
 * eight bytes, then the ends, mixed once.
 * returns: the hash.
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_key_(const char *s, uint32_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	uint32_t a = FC_DT_KEY_SEED_ ^ len, b = FC_DT_KEY_SEED2_, x, y;

	if (!len)
		return a;
	fc_dt_lanes_(p, len, &a, &b);
	fc_dt_ends_(p, len, &x, &y);
	return fc_dt_mix_(a, b, x, y);
}

/*
 * fc_dt_middle_diff_ - how the words the lanes read of the len bytes at p
 * and at q differ.
 * returns: 0 when they match, else non-zero.
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_middle_diff_(const uint8_t *p, const uint8_t *q,
						    uint32_t len)
{
	uint32_t d = 0;

	for (uint32_t i = 0; i + 8 < len; i += 8)
		d |= (fc_get_le32(p + i) ^ fc_get_le32(q + i)) |
		     (fc_get_le32(p + i + 4) ^ fc_get_le32(q + i + 4));
	return d;
}

/*
 * fc_dt_bytes_diff_ - how the len bytes (1..FC_DT_PATH_BYTES) at k and at
 * s differ, with the hash's word loads (no call, no byte loop); no byte
 * outside either run is read.
 * returns: 0 when they match, else non-zero.
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_bytes_diff_(const char *k, const char *s, uint32_t len)
{
	const uint8_t *p = (const uint8_t *)k, *q = (const uint8_t *)s;
	uint32_t x, y, u, v;

	fc_dt_ends_(p, len, &x, &y);
	fc_dt_ends_(q, len, &u, &v);
	return fc_dt_middle_diff_(p, q, len) | (x ^ u) | (y ^ v);
}

/*
 * fc_dt_path_key - the path cache's key of the path of len bytes at path.
 * For tests and tools that need to know which paths share a slot.
 * returns: the key (never FC_CACHE_EMPTY: a hash of all ones becomes
 * 0x7FFFFFFF, the same home slot).
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_path_key(const char *path, uint32_t len)
{
	uint32_t h = fc_dt_key_(path, len);

	return h == FC_CACHE_EMPTY ? FC_CACHE_EMPTY >> 1 : h;
}

/*
 * fc_dt_alias_key - the path cache's key of the alias name (len bytes): never
 * the path key of the same bytes.
 * returns: the key (never FC_CACHE_EMPTY, as fc_dt_path_key()).
 */
static FC_ALWAYS_INLINE uint32_t fc_dt_alias_key(const char *name, uint32_t len)
{
	uint32_t h = fc_dt_key_(name, len) ^ FC_DT_ALIAS_MIX_;

	return h == FC_CACHE_EMPTY ? FC_CACHE_EMPTY >> 1 : h;
}
/*
 * fc_dt_node_parent - the table index of node i's parent, in O(1).
 * returns: that index (the root's is 0).
 */
static inline uint32_t fc_dt_node_parent(const struct fc_dt *dt, uint32_t i)
{
	return dt->nodes[i].parent;
}

/*
 * Inline hit paths of the node-keyed lookups, as cache.h's for phandles: no
 * call and no statistics. Each answers only from its cache (the value the
 * node or the cells cache holds: one slot load and one key compare, no table
 * access) and returns false otherwise; the caller then makes the counted
 * call, which fills the cache. An answer is always the call's: the keys are
 * exact, never hashes.
 */

/*
 * The node cache's value for a non-root node, what its hit paths answer
 * with one mask or shift each: its parent's offset (a multiple of 4) in bits
 * 2-27, the parent's #address-cells minus 1 (1..4 are valid) in bits 0-1 and
 * its #size-cells (0..4) in bits 28-31. Only nodes whose parent has valid
 * counts and starts below FC_DT_NODE_PARENT_LIMIT_ are cached, so a hit
 * tests nothing more; the counted calls answer for the others from the
 * table.
 */
#define FC_DT_NODE_PARENT_LIMIT_ (1u << 28)
#define FC_DT_NODE_PARENT_ 0x0FFFFFFCu

/*
 * fc_dt_node_value_ - the node cache's value for the node at offset.
 * returns: true with *v set when the cache holds the node, else false.
 */
static inline bool fc_dt_node_value_(const struct fc_dt_lookups *lk, int offset, uint32_t *v)
{
	const struct fc_cache_slot *s =
		&lk->node_hits_.slots[fc_dt_home_(&lk->node_hits_.hash, (uint32_t)offset)];

	/* no slot is free and the root is never held: no test for -1 or 0 */
	if (s->key != (uint32_t)offset)
		return false;
	*v = s->value;
	return true;
}

/*
 * fc_dt_parent_get - fc_dt_parent_offset() on a node cache hit.
 * returns: true with *parent set, else false.
 */
static inline bool fc_dt_parent_get(const struct fc_dt_lookups *lk, int offset, int *parent)
{
	uint32_t v;

	if (!fc_dt_node_value_(lk, offset, &v))
		return false;
	*parent = (int)(v & FC_DT_NODE_PARENT_);
	return true;
}

/*
 * fc_dt_reg_cells_get - fc_dt_reg_cells() on a node cache hit (the node
 * cache holds no node whose parent has an invalid count).
 * returns: true with *address_cells and *size_cells set, else false.
 */
static inline bool fc_dt_reg_cells_get(const struct fc_dt_lookups *lk, int offset,
				       uint32_t *address_cells, uint32_t *size_cells)
{
	uint32_t v;

	if (!fc_dt_node_value_(lk, offset, &v))
		return false;
	*address_cells = (v & 3u) + 1;
	*size_cells = v >> 28;
	return true;
}

/*
 * fc_dt_cells_key - the cells cache's exact key of (node offset, name id).
 * returns: offset << 2 | id, or FC_CACHE_EMPTY when the pair has no key (an
 * offset that is negative, not a multiple of 4 or from 2^29 up, an id
 * outside 0..15).
 */
static inline uint32_t fc_dt_cells_key(int offset, int id)
{
	/*
	 * Exact for node offsets (multiples of 4 below 2^29: the shift leaves 4
	 * low bits for the id) and ids below 16; one test refuses the rest, a
	 * negative offset or id included. Id 15 is never registered.
	 */
	if ((((uint32_t)offset & 0xE0000003u) | ((uint32_t)id & ~15u)) != 0)
		return FC_CACHE_EMPTY;
	return (uint32_t)offset << 2 | (uint32_t)id;
}

/*
 * fc_dt_cells_get - fc_dt_cells_id() on a cells cache hit.
 * returns: true with *value set, else false.
 */
static inline bool fc_dt_cells_get(const struct fc_dt_lookups *lk, int offset, int id,
				   uint32_t *value)
{
	uint32_t key = fc_dt_cells_key(offset, id);
	const struct fc_cache_slot *s = &lk->cell_hits_.slots[fc_dt_home_(&lk->cell_hits_.hash, key)];

	/* no slot holds FC_CACHE_EMPTY, so a pair with no key misses here too */
	if (s->key != key)
		return false;
	*value = s->value;
	return true;
}

/*
 * fc_dt_name_get_ - the path cache's answer for the len bytes at s, of the
 * kind mix (0: a path, FC_DT_ALIAS_MIX_: an alias) and tag (the slot tag it
 * is held under): the home slot must hold the tag and the same bytes. The
 * compare reuses the hash's last two words, and neither the key nor its
 * FC_CACHE_EMPTY case is looked at (keys longer than FC_DT_PATH_BYTES are
 * not answered here).
 * returns: true with *offset set, else false.
 */
static FC_ALWAYS_INLINE bool fc_dt_name_get_(const struct fc_dt_lookups *lk, uint32_t mix,
					     uint32_t tag, const char *s, uint32_t len, int *offset)
{
	const uint8_t *p = (const uint8_t *)s, *q;
	const struct fc_dt_path_slot *slot;
	uint32_t a = FC_DT_KEY_SEED_ ^ len, b = FC_DT_KEY_SEED2_, x, y, u, v;

	/* len 1..FC_DT_PATH_BYTES in one compare; then every read lies in the slot's bytes */
	if (len - 1 >= FC_DT_PATH_BYTES)
		return false;
	fc_dt_lanes_(p, len, &a, &b);
	fc_dt_ends_(p, len, &x, &y);
	slot = &lk->paths_.slots[(fc_dt_mix_(a, b, x, y) ^ mix) & lk->paths_.mask];
	if (slot->tag != tag)
		return false;
	q = (const uint8_t *)slot->bytes;
	fc_dt_ends_(q, len, &u, &v);
	if ((fc_dt_middle_diff_(p, q, len) | (x ^ u) | (y ^ v)) != 0)
		return false;
	*offset = slot->offset;
	return true;
}

/*
 * fc_dt_path_get - fc_dt_path_offset() on a path cache hit: one hash, one
 * tag compare and one inline compare of the path's bytes.
 * returns: true with *offset set (FC_ENOENT when the cache holds the path
 * as naming no node), else false (also for a path longer than
 * FC_DT_PATH_BYTES).
 */
static FC_ALWAYS_INLINE bool fc_dt_path_get(const struct fc_dt_lookups *lk, const char *path,
					    uint32_t len, int *offset)
{
	return fc_dt_name_get_(lk, 0, len, path, len, offset);
}

/*
 * fc_dt_alias_get - fc_dt_alias_offset() on a path cache hit.
 * returns: true with *offset set (FC_ENOENT for an alias cached as naming
 * no node), else false.
 */
static FC_ALWAYS_INLINE bool fc_dt_alias_get(const struct fc_dt_lookups *lk, const char *name,
					     uint32_t len, int *offset)
{
	return fc_dt_name_get_(lk, FC_DT_ALIAS_MIX_, len | FC_DT_ALIAS_TAG_, name, len, offset);
}

#endif /* FDTCACHE_DT_H */
