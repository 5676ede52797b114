/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dt_lookup.c - path, alias, parent and #cells lookups over the node table,
 * with verified hash caches (see dt.h).
 */
#include "dt_int.h"

#include <libfdt.h>

#define NO_NODE UINT32_MAX
#define KEY_SEED 0x811C9DC5u
#define INDEX_MIX 0x85EBCA6Bu /* spreads table indices over the key space */

/*
 * The property cache's hash of len bytes at s from h: four bytes per
 * multiply; the xor-shift carries high bits down into the next word's
 * multiply.
 */
static uint32_t str_key(uint32_t h, const char *s, uint32_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	uint32_t i = 0, tail = 0;

	for (; i + 4 <= len; i += 4) {
		h = (h ^ fc_get_le32(p + i)) * FC_DT_KEY_MULT_;
		h ^= h >> 16;
	}
	for (uint32_t shift = 0; i < len; i++, shift += 8)
		tail |= (uint32_t)p[i] << shift;
	h = (h ^ tail ^ len) * FC_DT_KEY_MULT_;
	return h ^ h >> 15;
}

/* A cache key: never FC_CACHE_EMPTY, which marks a free slot. */
static uint32_t as_key(uint32_t h)
{
	return h == FC_CACHE_EMPTY ? 0 : h;
}

/* The path slots' free slot, for lookups given none (never written). */
static const struct fc_dt_path_slot no_path_slot = { .key = FC_CACHE_EMPTY };

/*
 * A hit from a direct-mapped cache (none when it has no slots). Hits are
 * verified by the callers; this cache's own statistics are not kept: the
 * lookup kinds count hits, misses and collisions themselves.
 */
static bool cache_get(const struct fc_cache *cache, uint32_t key, uint32_t *value)
{
	return cache->nslots && fc_cache_hash32_get(cache, key, value);
}

/* Node i's name (NUL-terminated: the table's walk checked it). */
static const char *node_name(const struct fc_dt_lookups *lk, uint32_t i)
{
	return (const char *)lk->structs_ + lk->dt->nodes[i].offset + 4;
}

/*
 * fdt_subnode_offset()'s name test on node i: the name starts with comp's
 * len bytes, then ends, or goes on with "@unit" when comp has no '@'. The
 * bytes compared lie in the structure block (the walk ended every name in
 * it), whatever len is.
 */
static bool name_matches(const struct fc_dt_lookups *lk, uint32_t i, const char *comp,
			 uint32_t len)
{
	const char *name = node_name(lk, i);
	uint32_t room = lk->struct_size_ - ((uint32_t)lk->dt->nodes[i].offset + 4);

	if (len >= room || FC_MEMCMP(name, comp, len) != 0)
		return false;
	if (name[len] == '\0')
		return true;
	if (name[len] != '@')
		return false;
	for (uint32_t k = 0; k < len; k++)
		if (comp[k] == '@')
			return false;
	return true;
}

/* The first child of parent whose name matches comp, or NO_NODE. */
static uint32_t find_child(const struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			   uint32_t parent, const char *comp, uint32_t len)
{
	const struct fc_dt_node *nodes = lk->dt->nodes;

	for (uint32_t c = parent + 1; c < nodes[parent].end; c = nodes[c].end) {
		st->scan_steps++;
		if (name_matches(lk, c, comp, len))
			return c;
	}
	return NO_NODE;
}

/* Table index of the node at offset, or NO_NODE, by binary search. */
static uint32_t index_of(const struct fc_dt_lookups *lk, int offset)
{
	int pos = offset < 0 ? FC_ENOENT : fc_dt_position(lk->dt, offset);

	return pos > 0 ? (uint32_t)pos - 1 : NO_NODE;
}

/*
 * The parent's offset and the reg cells of the non-root node at offset:
 * from the node cache, else found by binary search and cached when the
 * node cache can hold them (see FC_DT_NODE_PARENT_LIMIT_). false: offset is
 * the root or no node.
 */
static bool node_answer(struct fc_dt_lookups *lk, int offset, int *parent, int *ac, int *sc)
{
	const struct fc_dt_node *n;
	uint32_t v, i;

	if (fc_dt_node_value_(lk, offset, &v)) {
		*parent = (int)(v & FC_DT_NODE_PARENT_);
		*ac = (int)(v & 3u) + 1;
		*sc = (int)(v >> 28);
		return true;
	}
	i = index_of(lk, offset);
	if (i == 0 || i == NO_NODE)
		return false;
	n = &lk->dt->nodes[i];
	*parent = lk->dt->nodes[n->parent].offset;
	*ac = n->reg_address_cells;
	*sc = n->reg_size_cells;
	/* the walk gives -1 for an invalid count, so a valid #address-cells is 1..4 */
	if ((uint32_t)*parent < FC_DT_NODE_PARENT_LIMIT_ && *ac > 0 && *sc >= 0)
		fc_cache_fill(&lk->nodes, (uint32_t)offset,
			      (uint32_t)*parent | ((uint32_t)*ac - 1) | (uint32_t)*sc << 28);
	return true;
}

/* The home slot function of n (a power of two) slots. */
static void hash_init(struct fc_dt_hash_ *h, uint32_t n)
{
	uint32_t bits = 0;

	while (1u << bits < n)
		bits++;
#if UINTPTR_MAX > 0xFFFFFFFFu
	h->mult = (uint64_t)FC_HASH32_GOLDEN << bits;
#else
	h->shift = bits ? 32 - bits : 31;
#endif
	h->mask = n - 1;
}

static int cache_init(struct fc_cache *cache, struct fc_cache_slot *slots, uint32_t n)
{
	return fc_cache_init(cache, n ? FC_CACHE_HASH32 : FC_CACHE_NONE, slots, n);
}

/*
 * A cache the inline hit paths read (through *hits), of at least two slots:
 * given fewer, it gets two of lk's own (spare). No slot is ever free: slot
 * 0 holds the key 2^31, whose home is slot n/2, and every other slot the key
 * 0, whose home is slot 0. So a key matches only a slot it was filled into,
 * and a hit path compares any key (0, FC_CACHE_EMPTY, a negative offset)
 * with no test before it.
 */
static int hit_cache_init(struct fc_cache *cache, struct fc_dt_hit_cache_ *hits,
			  struct fc_cache_slot *slots, uint32_t n, struct fc_cache_slot *spare)
{
	int rc = n >= 2 ? cache_init(cache, slots, n) : fc_cache_init(cache, FC_CACHE_HASH32, spare, 2);

	if (rc < 0)
		return rc;
	cache->slots[0].key = 1u << 31;
	for (uint32_t i = 1; i < cache->nslots; i++)
		cache->slots[i].key = 0;
	hits->slots = cache->slots;
	hash_init(&hits->hash, cache->nslots);
	return 0;
}

/*
 * The path cache over n caller slots (0: none), all free, their bytes set
 * (a hit's compare may read a free slot's before its tag decides).
 */
static int path_cache_init(struct fc_dt_path_cache_ *c, struct fc_dt_path_slot *slots, uint32_t n)
{
	if (n && (!slots || (n & (n - 1))))
		return FC_EINVAL;
	c->slots = n ? slots : &no_path_slot;
	c->fill = n ? slots : NULL;
	c->mask = n ? n - 1 : 0;
	if (n)
		FC_MEMSET(slots, 0, (size_t)n * sizeof(*slots));
	for (uint32_t i = 0; i < n; i++)
		slots[i].key = FC_CACHE_EMPTY;
	return 0;
}

int fc_dt_lookups_init(struct fc_dt_lookups *lk, const struct fc_dt *dt,
		       const struct fc_dt_lookups_config *cfg)
{
	struct fc_dt_lookup_stats unused = { 0 };
	struct dt_walk w;
	int rc;

	if (!lk || !dt || !dt->nnodes || !cfg)
		return FC_EINVAL;
	if ((rc = path_cache_init(&lk->paths_, cfg->path_slots, cfg->npath)) < 0 ||
	    (rc = cache_init(&lk->props, cfg->prop_slots, cfg->nprops)) < 0 ||
	    (rc = hit_cache_init(&lk->nodes, &lk->node_hits_, cfg->node_slots, cfg->nnode,
				 &lk->spare_[0])) < 0 ||
	    (rc = hit_cache_init(&lk->cells, &lk->cell_hits_, cfg->cell_slots, cfg->ncells,
				 &lk->spare_[2])) < 0)
		return rc;
	rc = dt_walk_start_(&w, dt->fdt);
	if (rc < 0)
		return rc;
	lk->structs_ = w.structs;
	lk->struct_size_ = w.struct_size;
	lk->strings_ = w.strings;
	lk->strings_size_ = w.strings_size;
	lk->dt = dt;
	FC_MEMSET(lk->stats, 0, sizeof(lk->stats));
	lk->ncell_names = 0;
	/* fdt_path_offset(fdt, "/aliases"), with its unit-address rule */
	lk->aliases = find_child(lk, &unused, 0, "aliases", 7);
	return 0;
}

/* ---- properties of a node ---- */

/* The structure offset just past node i's properties' region. */
static uint32_t props_end(const struct fc_dt_lookups *lk, uint32_t i)
{
	return i + 1 < lk->dt->nnodes ? (uint32_t)lk->dt->nodes[i + 1].offset : lk->struct_size_;
}

/* Is the property at poff (in the structure block) named name? */
static bool prop_named(const struct fc_dt_lookups *lk, uint32_t poff, const char *name,
		       uint32_t len)
{
	uint32_t nameoff = dt_be32_(lk->structs_ + poff + 8);

	/* the name and its NUL must lie in the strings block */
	return nameoff < lk->strings_size_ && len < lk->strings_size_ - nameoff &&
	       FC_MEMCMP(lk->strings_ + nameoff, name, len) == 0 && !lk->strings_[nameoff + len];
}

/* The first property of node i named name (as fdt_getprop()), or 0 when none. */
static uint32_t find_prop(const struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			  uint32_t i, const char *name, uint32_t len)
{
	const uint8_t *structs = lk->structs_;
	uint32_t end = props_end(lk, i);
	uint32_t off = (uint32_t)lk->dt->nodes[i].offset + 4;

	off += (dt_str_len_((const char *)structs + off, end - off) + 4u) & ~3u;
	while (off + 4 <= end) {
		uint32_t tag = dt_be32_(structs + off);

		if (tag == FDT_NOP) {
			off += 4;
			continue;
		}
		if (tag != FDT_PROP || off + 12 > end)
			break;
		st->scan_steps++;
		if (prop_named(lk, off, name, len))
			return off;
		off += 12 + ((dt_be32_(structs + off + 4) + 3u) & ~3u);
	}
	return 0;
}

/*
 * The property of node i named name, through the property cache (a hit is
 * verified: the property lies in node i's region and bears the name).
 * Returns its structure offset, or 0; *hit tells whether the cache answered.
 */
static uint32_t lookup_prop(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st, uint32_t i,
			    const char *name, uint32_t len, bool *hit)
{
	uint32_t key = as_key(str_key(KEY_SEED ^ (i * INDEX_MIX), name, len));
	uint32_t poff;

	*hit = false;
	if (cache_get(&lk->props, key, &poff)) {
		if (poff > (uint32_t)lk->dt->nodes[i].offset && poff < props_end(lk, i) &&
		    prop_named(lk, poff, name, len)) {
			*hit = true;
			return poff;
		}
		st->collisions++;
	}
	poff = find_prop(lk, st, i, name, len);
	if (poff)
		fc_cache_fill(&lk->props, key, poff);
	return poff;
}

/* A property's value and length; the walk checked that it fits. */
static const uint8_t *prop_value(const struct fc_dt_lookups *lk, uint32_t poff, uint32_t *len)
{
	const uint8_t *p = lk->structs_ + poff;

	*len = dt_be32_(p + 4);
	return p + 12;
}

/* ---- paths and aliases ---- */

static uint32_t cached_path(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			    const char *path, uint32_t len, bool *hit);

/* The path cache's home slot of key, or NULL when it has no slots. */
static struct fc_dt_path_slot *name_slot(struct fc_dt_lookups *lk, uint32_t key)
{
	return lk->paths_.fill ? &lk->paths_.fill[key & lk->paths_.mask] : NULL;
}

/* A slot's tag for len bytes (at most FC_DT_PATH_BYTES) of a path (alias: false) or alias. */
static uint8_t name_tag(uint32_t len, bool alias)
{
	return (uint8_t)(len | (alias ? FC_DT_ALIAS_TAG_ : 0));
}

/* Does slot hold the len bytes at s (at most FC_DT_PATH_BYTES) of that kind? */
static bool holds_bytes(const struct fc_dt_path_slot *slot, const char *s, uint32_t len,
			bool alias)
{
	return slot->tag == name_tag(len, alias) && fc_dt_bytes_diff_(s, slot->bytes, len) == 0;
}

/*
 * Store key -> node i (NO_NODE: the key names none) in slot, with the
 * key's bytes and tag when they fit.
 */
static void name_fill(struct fc_dt_lookups *lk, struct fc_dt_path_slot *slot, uint32_t key,
		      const char *s, uint32_t len, bool alias, uint32_t i)
{
	slot->key = key;
	slot->offset = i == NO_NODE ? FC_ENOENT : lk->dt->nodes[i].offset;
	slot->node = i;
	slot->tag = len <= FC_DT_PATH_BYTES ? name_tag(len, alias) : 0;
	if (slot->tag)
		FC_MEMCPY(slot->bytes, s, len);
}

static bool path_is(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st, const char *path,
		    uint32_t len, uint32_t i);

typedef uint32_t resolve_fn(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			    const char *s, uint32_t len);

/*
 * The table index for key (of the len bytes at s, an alias name or a path)
 * from slot (NULL: none), or resolved and then filled in; NO_NODE when
 * resolve finds none, an answer the slot keeps too when the bytes fit in
 * it (the bytes verify it as they verify a node; for a longer path only
 * the table could, so none is kept). A hit is verified by the bytes and
 * tag the slot holds, or for a path longer than a slot holds by the table;
 * *hit: the slot answered.
 */
static uint32_t cached_name(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			    struct fc_dt_path_slot *slot, uint32_t key, const char *s, uint32_t len,
			    bool alias, bool *hit, resolve_fn *resolve)
{
	uint32_t i;

	*hit = false;
	if (slot && slot->key == key) {
		if (len <= FC_DT_PATH_BYTES ? holds_bytes(slot, s, len, alias)
					    : slot->tag == 0 && path_is(lk, st, s, len, slot->node)) {
			*hit = true;
			return slot->node;
		}
		st->collisions++;
	}
	i = resolve(lk, st, s, len);
	if (slot && (i != NO_NODE || len <= FC_DT_PATH_BYTES))
		name_fill(lk, slot, key, s, len, alias, i);
	return i;
}

/*
 * The table index of the node alias name[len] names, or NO_NODE. Its value
 * must be a NUL-terminated absolute path, so resolving it never comes back
 * here.
 */
static uint32_t alias_target(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			     const char *name, uint32_t len)
{
	uint32_t poff, vlen;
	const char *value;
	bool hit;

	if (lk->aliases == NO_NODE)
		return NO_NODE;
	poff = lookup_prop(lk, st, lk->aliases, name, len, &hit);
	if (!poff)
		return NO_NODE;
	value = (const char *)prop_value(lk, poff, &vlen);
	if (vlen < 2 || value[0] != '/' || value[vlen - 1])
		return NO_NODE;
	vlen = dt_str_len_(value, vlen);
	return cached_path(lk, st, value, vlen, &hit);
}

/*
 * alias_target() through the path cache, for names of at most
 * FC_DT_PATH_BYTES (a longer one is resolved every time); *hit: the cache
 * answered.
 */
static uint32_t resolve_alias(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			      const char *name, uint32_t len, bool *hit)
{
	uint32_t key = fc_dt_alias_key(name, len);
	struct fc_dt_path_slot *slot = len <= FC_DT_PATH_BYTES ? name_slot(lk, key) : NULL;

	return cached_name(lk, st, slot, key, name, len, true, hit, alias_target);
}

/* Is node i the first sibling that comp matches? */
static bool first_match(const struct fc_dt_lookups *lk, uint32_t i, const char *comp,
			uint32_t len)
{
	const struct fc_dt_node *nodes = lk->dt->nodes;

	for (uint32_t c = nodes[i].parent + 1; c < i; c = nodes[c].end)
		if (name_matches(lk, c, comp, len))
			return false;
	return true;
}

/*
 * Would fdt_path_offset(path) give node i? Components are checked from the
 * last one up the parent chain: no search, except among earlier siblings
 * when a component leaves out a unit address.
 */
static bool path_is(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st, const char *path,
		    uint32_t len, uint32_t i)
{
	const struct fc_dt *dt = lk->dt;
	uint32_t end = len;

	for (;;) {
		uint32_t start, clen;
		const char *name;
		bool hit;

		while (end && path[end - 1] == '/')
			end--;
		if (!end)
			return path[0] == '/' && i == 0;
		for (start = end; start && path[start - 1] != '/'; start--)
			;
		if (!start) /* the alias a relative path starts with */
			return resolve_alias(lk, st, path, end, &hit) == i;
		clen = end - start;
		if (i == 0 || !name_matches(lk, i, path + start, clen))
			return false;
		name = node_name(lk, i);
		if (name[clen] == '@' && !first_match(lk, i, path + start, clen))
			return false;
		i = dt->nodes[i].parent;
		end = start;
	}
}

/* fdt_path_offset() over the node table: the table index, or NO_NODE. */
static uint32_t resolve_path(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			     const char *path, uint32_t len)
{
	uint32_t i = 0;
	uint32_t p = 0;
	bool hit;

	if (path[0] != '/') {
		while (p < len && path[p] != '/')
			p++;
		i = resolve_alias(lk, st, path, p, &hit);
	}
	while (i != NO_NODE && p < len) {
		uint32_t q;

		while (p < len && path[p] == '/')
			p++;
		if (p == len)
			break;
		for (q = p; q < len && path[q] != '/'; q++)
			;
		i = find_child(lk, st, i, path + p, q - p);
		p = q;
	}
	return i;
}

/*
 * A path through the path cache: the table index or NO_NODE; *hit: the
 * cache answered, verified by the key's bytes, or for a path longer than a
 * slot holds by the table.
 */
static uint32_t cached_path(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st,
			    const char *path, uint32_t len, bool *hit)
{
	uint32_t key = fc_dt_path_key(path, len);

	return cached_name(lk, st, name_slot(lk, key), key, path, len, false, hit, resolve_path);
}

/* Count one lookup's outcome. */
static void count(struct fc_dt_lookup_stats *st, bool hit, bool found)
{
	st->lookups++;
	if (hit)
		st->hits++;
	else
		st->misses++;
	if (!found)
		st->not_found++;
}

/* Count one lookup of node i (NO_NODE: none); the node's offset or FC_ENOENT. */
static int account(struct fc_dt_lookups *lk, struct fc_dt_lookup_stats *st, uint32_t i, bool hit)
{
	count(st, hit, i != NO_NODE);
	return i == NO_NODE ? FC_ENOENT : lk->dt->nodes[i].offset;
}

int fc_dt_path_offset(struct fc_dt_lookups *lk, const char *path, uint32_t len)
{
	struct fc_dt_lookup_stats *st = &lk->stats[FC_DT_KIND_PATH];
	bool hit;
	uint32_t i;

	if (!path || !len)
		return FC_EINVAL;
	i = cached_path(lk, st, path, len, &hit);
	return account(lk, st, i, hit);
}

int fc_dt_alias_offset(struct fc_dt_lookups *lk, const char *name, uint32_t len)
{
	struct fc_dt_lookup_stats *st = &lk->stats[FC_DT_KIND_ALIAS];
	bool hit;
	uint32_t i;

	if (!name || !len)
		return FC_EINVAL;
	i = resolve_alias(lk, st, name, len, &hit);
	return account(lk, st, i, hit);
}

/* ---- parents and cells ---- */

/* node_answer(), counted as a lookup of kind. */
static bool counted_node(struct fc_dt_lookups *lk, enum fc_dt_kind kind, int offset, int *parent,
			 int *ac, int *sc)
{
	bool found = node_answer(lk, offset, parent, ac, sc);

	/* a node answered by the table is a hit: no search of names or properties */
	count(&lk->stats[kind], found, found);
	return found;
}

int fc_dt_parent_offset(struct fc_dt_lookups *lk, int offset)
{
	int parent, ac, sc;

	return counted_node(lk, FC_DT_KIND_PARENT, offset, &parent, &ac, &sc) ? parent : FC_ENOENT;
}

int fc_dt_reg_cells(struct fc_dt_lookups *lk, int offset, uint32_t *address_cells,
		    uint32_t *size_cells)
{
	int parent, ac, sc;

	if (!counted_node(lk, FC_DT_KIND_REG_CELLS, offset, &parent, &ac, &sc))
		return FC_ENOENT;
	if (ac < 0 || sc < 0)
		return FC_EBADDTB;
	*address_cells = (uint32_t)ac;
	*size_cells = (uint32_t)sc;
	return 0;
}

/* The u32 property name[len] of the node at offset, counted under cells. */
static int read_cells(struct fc_dt_lookups *lk, int offset, const char *name, uint32_t len)
{
	struct fc_dt_lookup_stats *st = &lk->stats[FC_DT_KIND_CELLS];
	uint32_t i = index_of(lk, offset);
	uint32_t poff = 0;
	uint32_t vlen, v;
	const uint8_t *value;
	bool hit = false;

	if (i != NO_NODE)
		poff = lookup_prop(lk, st, i, name, len, &hit);
	if (account(lk, st, poff ? i : NO_NODE, hit) < 0)
		return FC_ENOENT;
	value = prop_value(lk, poff, &vlen);
	if (vlen != 4 || (v = dt_be32_(value)) > INT32_MAX)
		return FC_EBADDTB;
	return (int)v;
}

int fc_dt_cells(struct fc_dt_lookups *lk, int offset, const char *name)
{
	if (!name)
		return FC_EINVAL;
	return read_cells(lk, offset, name, dt_str_len_(name, UINT32_MAX));
}

int fc_dt_cells_name(struct fc_dt_lookups *lk, const char *name)
{
	if (!lk || !name || !name[0])
		return FC_EINVAL;
	for (uint32_t id = 0; id < lk->ncell_names; id++)
		if (FC_STRCMP(lk->cell_names[id], name) == 0)
			return (int)id;
	if (lk->ncell_names == FC_DT_CELL_NAMES)
		return FC_ENOSPC;
	lk->cell_names[lk->ncell_names] = name;
	return (int)lk->ncell_names++;
}

int fc_dt_cells_id(struct fc_dt_lookups *lk, int offset, int id)
{
	uint32_t key, v;
	int rc;

	if (id < 0 || (uint32_t)id >= lk->ncell_names)
		return FC_EINVAL;
	key = fc_dt_cells_key(offset, id);
	if (key != FC_CACHE_EMPTY && cache_get(&lk->cells, key, &v)) {
		lk->stats[FC_DT_KIND_CELLS].lookups++;
		lk->stats[FC_DT_KIND_CELLS].hits++;
		return (int)v;
	}
	rc = read_cells(lk, offset, lk->cell_names[id],
			dt_str_len_(lk->cell_names[id], UINT32_MAX));
	if (rc >= 0 && key != FC_CACHE_EMPTY)
		fc_cache_fill(&lk->cells, key, (uint32_t)rc);
	return rc;
}
