/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings_zms.c - Zephyr's settings_zms layout on the ZMS engine: hashed
 * name ids with collision numbers, value ids, and the doubly linked list
 * of nodes that load walks.
 */
#include "fdtcache/settings_zms.h"
#include "fdtcache/settings.h"

#define COLLISION_STEP 2u   /* collision numbers sit in bits 4..1 */
#define COLLISION_MASK 0x1eu
#define NODE_BIT 1u
#define NODE_BYTES 8u

struct node {
	uint32_t prev, next;
};

/* A tail byte as Zephyr's loop ORs it in: a char, sign-extended where char is signed. */
static uint32_t tail_byte(uint8_t b, enum fc_settings_zms_hash_variant v)
{
	return v == FC_SETTINGS_ZMS_HASH_SIGNED_CHAR ? (uint32_t)(int32_t)(int8_t)b : b;
}

uint32_t fc_settings_zms_hash(const void *name, size_t len)
{
	return fc_settings_zms_hash_variant(name, len, FC_SETTINGS_ZMS_HASH_UNSIGNED_CHAR);
}

uint32_t fc_settings_zms_hash_variant(const void *name, size_t len,
				      enum fc_settings_zms_hash_variant v)
{
	const uint8_t *p = name;
	uint32_t h = 0, k;
	size_t n = len;

	for (; n >= 4; n -= 4, p += 4) {
		k = fc_get_le32(p) * 0xcc9e2d51u;
		k = (k << 15 | k >> 17) * 0x1b873593u;
		h ^= k;
		h = (h << 13 | h >> 19) * 5 + 0xe6546b64u;
	}
	for (k = 0; n; n--, p++)
		k = k << 8 | tail_byte(*p, v);
	k *= 0xcc9e2d51u;
	h ^= (k << 15 | k >> 17) * 0x1b873593u;
	h ^= (uint32_t)len;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static uint32_t name_id_base(const struct fc_settings_zms *s, const char *name, size_t len)
{
	uint32_t h = fc_settings_zms_hash_variant(name, len,
						  (enum fc_settings_zms_hash_variant)s->hash_variant);

	return (h & FC_SETTINGS_ZMS_HASH_MASK) | FC_SETTINGS_ZMS_HEAD;
}

static uint32_t with_collision(uint32_t id, uint32_t c)
{
	return (id & ~COLLISION_MASK) | (c << 1 & COLLISION_MASK);
}

/* Bound on list steps: more nodes than this cannot fit any partition. */
static uint32_t max_nodes(const struct fc_zms *fs)
{
	return (fs->cfg.sector_size >> 4) * fs->cfg.sector_count;
}

static bool is_node_id(uint32_t id)
{
	return (id & 0xc0000001u) == (FC_SETTINGS_ZMS_HEAD | NODE_BIT);
}

/*
 * Decode the node value read into nd's bytes; could a save, delete or init
 * have written it under node id? Links name the head or node ids, and only
 * the head has no previous node. Anything else is an ATE a cut left with
 * its value bytes erased whose crc8 matched by chance ({0, 0} on a 0x00
 * flash): Zephyr follows its next link and ends the list there, losing
 * every node after it. Out of line: what it keeps in registers stays out
 * of the frame fc_zms_read_hist runs under.
 */
static FC_NOINLINE bool node_plausible(uint32_t id, struct node *nd)
{
	const uint8_t *b = (const uint8_t *)nd;
	uint32_t prev = fc_get_le32(b), next = fc_get_le32(b + 4);

	nd->prev = prev;
	nd->next = next;
	if (next && !is_node_id(next))
		return false;
	if (id == FC_SETTINGS_ZMS_HEAD)
		return !prev;
	return prev == FC_SETTINGS_ZMS_HEAD || is_node_id(prev);
}

/*
 * Node id's newest plausible value; *older (may be NULL) tells whether a
 * newer, implausible one is stored above it.
 */
static int node_read_at(struct fc_zms *fs, uint32_t id, struct node *nd, bool *older)
{
	for (uint32_t k = 0; k <= max_nodes(fs); k++) {
		/* the value is read in place, then decoded */
		int rc = fc_zms_read_hist(fs, id, nd, NODE_BYTES, k);

		if (rc < 0)
			return rc; /* FC_ENOENT: none plausible, as if never written */
		if (rc != NODE_BYTES)
			return FC_ECORRUPT;
		if (node_plausible(id, nd)) {
			if (older)
				*older = k > 0;
			return 0;
		}
	}
	return FC_ECORRUPT;
}

static int node_read(struct fc_zms *fs, uint32_t id, struct node *nd)
{
	return node_read_at(fs, id, nd, NULL);
}

#ifndef FC_READONLY
static int node_write(struct fc_zms *fs, uint32_t id, uint32_t prev, uint32_t next)
{
	uint8_t b[NODE_BYTES];
	int rc;

	fc_put_le32(b, prev);
	fc_put_le32(b + 4, next);
	rc = fc_zms_write_hint(fs, id, b, sizeof(b), 0); /* fc_zms_write without its frame */
	return rc < 0 ? rc : 0;
}
#endif /* FC_READONLY */

/* settings_zms_get_last_hash_ids: find the list's end, repairing as Zephyr. */
static int find_last(struct fc_settings_zms *s)
{
	uint32_t cur = FC_SETTINGS_ZMS_HEAD, prev = 0;
	struct node nd;

	s->collisions = 0;
	for (uint32_t steps = 0; steps <= max_nodes(s->fs); steps++) {
		bool older;
		int rc = node_read_at(s->fs, cur, &nd, &older);

		if (rc == FC_ENOENT) {
			if (cur == FC_SETTINGS_ZMS_HEAD) {
				s->last = FC_SETTINGS_ZMS_HEAD;
				s->second_to_last = 0;
			}
#ifndef FC_READONLY /* FC_READONLY: the list as it is, ended in RAM */
			if (cur == FC_SETTINGS_ZMS_HEAD)
				return node_write(s->fs, FC_SETTINGS_ZMS_HEAD, 0, 0);
			/* a cut left the end linked to a node that is gone */
			return node_write(s->fs, s->last, s->second_to_last, 0);
#else
			return 0;
#endif
		}
		if (rc)
			return rc;
#ifndef FC_READONLY
		if (nd.prev != prev) {
			/* a cut in the middle of an unlink */
			rc = fc_zms_delete(s->fs, nd.prev);
			if (!rc)
				rc = node_write(s->fs, cur, prev, nd.next);
			if (rc)
				return rc;
		} else if (older) {
			/* a cut node write: the value it read back from is stored again */
			rc = node_write(s->fs, cur, prev, nd.next);
			if (rc)
				return rc;
		}
#endif
		nd.prev = prev;
		prev = cur;
		if (((cur & COLLISION_MASK) >> 1) > s->collisions)
			s->collisions = (uint8_t)((cur & COLLISION_MASK) >> 1);
		s->last = cur;
		s->second_to_last = nd.prev;
		cur = nd.next;
		if (!cur)
			return 0;
	}
	return FC_ECORRUPT;
}

int fc_settings_zms_init(struct fc_settings_zms *s, struct fc_zms *fs)
{
	return fc_settings_zms_init_variant(s, fs, FC_SETTINGS_ZMS_HASH_UNSIGNED_CHAR);
}

int fc_settings_zms_init_variant(struct fc_settings_zms *s, struct fc_zms *fs,
				 enum fc_settings_zms_hash_variant v)
{
	if (!fs || !s || (v != FC_SETTINGS_ZMS_HASH_UNSIGNED_CHAR &&
			  v != FC_SETTINGS_ZMS_HASH_SIGNED_CHAR))
		return FC_EINVAL;
	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	s->fs = fs;
	s->hash_variant = (uint8_t)v;
	s->last = FC_SETTINGS_ZMS_HEAD;
	s->second_to_last = 0;
	return find_last(s);
}

/*
 * The id of name: 1 with *id when stored; 0 with *id the slot a save would
 * take (the first free collision slot, or the next collision number, which
 * *grow tells), or FC_ENOSPC when no slot is left.
 */
static int find_name(struct fc_settings_zms *s, const char *name, size_t len, uint32_t *id,
		     bool *grow)
{
	char *stored = s->lookup_name;
	uint32_t base = name_id_base(s, name, len), taken = 0;
	int free_slot = -1;

	*grow = false;
	for (uint32_t i = 0; i <= s->collisions; i++) {
		int rc = fc_zms_read(s->fs, base + i * COLLISION_STEP, stored, sizeof(s->lookup_name));

		if (rc == FC_ENOENT) {
			if (free_slot < 0)
				free_slot = (int)i;
			continue;
		}
		if (rc < 0)
			return rc;
		if ((size_t)rc == len && !FC_MEMCMP(stored, name, len)) {
			*id = base + i * COLLISION_STEP;
			return 1;
		}
		taken++;
	}
	if (taken <= s->collisions) {
		*id = with_collision(base, (uint32_t)free_slot);
		return 0;
	}
	if (taken > FC_SETTINGS_ZMS_MAX_COLLISIONS)
		return FC_ENOSPC;
	*grow = true;
	*id = with_collision(base, taken);
	return 0;
}

#ifndef FC_READONLY
/* Take node id out of the list (settings_zms_unlink_ll_node). */
static int unlink_node(struct fc_settings_zms *s, uint32_t node)
{
	struct node nd, up;
	int rc = node_read(s->fs, node, &nd);

	if (rc)
		return rc;
	if (nd.prev) {
		rc = node_read(s->fs, nd.prev, &up);
		if (rc)
			return rc;
		if (!nd.next)
			s->second_to_last = up.prev;
		rc = node_write(s->fs, nd.prev, up.prev, nd.next);
		if (rc)
			return rc;
	}
	rc = fc_zms_delete(s->fs, node);
	if (rc)
		return rc;
	if (!nd.next) {
		s->last = nd.prev;
		return 0;
	}
	rc = node_read(s->fs, nd.next, &up);
	if (!rc)
		rc = node_write(s->fs, nd.next, nd.prev, up.next);
	if (!rc && !up.next)
		s->second_to_last = nd.prev;
	return rc;
}

/* Delete the name, its value and its node (settings_zms_delete). */
static int delete_id(struct fc_settings_zms *s, uint32_t id)
{
	int rc = fc_zms_delete(s->fs, id);

	if (!rc)
		rc = fc_zms_delete(s->fs, id + FC_SETTINGS_ZMS_VALUE_OFFSET);
	return rc ? rc : unlink_node(s, id | NODE_BIT);
}

/* Append a node for name id at the end of the list. */
static int link_node(struct fc_settings_zms *s, uint32_t id)
{
	uint32_t node = id | NODE_BIT;
	int rc;

	if (s->last < FC_SETTINGS_ZMS_HEAD) {
		rc = find_last(s);
		if (rc)
			return rc;
	}
	rc = node_write(s->fs, node, s->last, 0);
	if (!rc)
		rc = node_write(s->fs, s->last, s->second_to_last, node);
	if (rc)
		return rc;
	s->second_to_last = s->last;
	s->last = node;
	return 0;
}

/*
 * 1 when node is in the list already: a save cut (or refused for space)
 * after linking it left the node without its name. Linking it again would
 * make it its own predecessor.
 */
static int node_linked(struct fc_settings_zms *s, uint32_t node)
{
	struct node nd, up;
	int rc = node_read(s->fs, node, &nd);

	if (rc)
		return rc == FC_ENOENT ? 0 : rc;
	if (node == s->last)
		return 1;
	if (!nd.prev)
		return 0;
	rc = node_read(s->fs, nd.prev, &up);
	if (rc)
		return rc == FC_ENOENT ? 0 : rc;
	return up.next == node;
}

#endif /* FC_READONLY */

/* find_name for a name yet to be checked; *len gets its length. */
static int lookup(struct fc_settings_zms *s, const char *name, size_t *len, uint32_t *id,
		  bool *grow)
{
	int n = fc_settings_name_len(name);

	if (n < 0)
		return n;
	*len = (size_t)n;
	return find_name(s, name, *len, id, grow);
}

#ifndef FC_READONLY
int fc_settings_zms_save(struct fc_settings_zms *s, const char *name, const void *value,
			 size_t len)
{
	size_t name_len;
	uint32_t id;
	bool grow;
	int n, rc = lookup(s, name, &name_len, &id, &grow);

	if (rc < 0)
		return rc;
	if (!value || !len)
		return rc ? delete_id(s, id) : 0;
	if (grow)
		s->collisions++;
	n = fc_zms_write(s->fs, id + FC_SETTINGS_ZMS_VALUE_OFFSET, value, len);
	if (n < 0 || rc)
		return n < 0 ? n : 0;
	rc = node_linked(s, id | NODE_BIT);
	if (!rc)
		rc = link_node(s, id);
	if (rc >= 0)
		rc = fc_zms_write(s->fs, id, name, name_len);
	return rc < 0 ? rc : 0;
}

int fc_settings_zms_delete(struct fc_settings_zms *s, const char *name)
{
	return fc_settings_zms_save(s, name, NULL, 0);
}
#endif /* FC_READONLY */

int fc_settings_zms_get(struct fc_settings_zms *s, const char *name, void *buf, size_t len)
{
	size_t name_len;
	uint32_t id;
	bool grow;
	int rc = lookup(s, name, &name_len, &id, &grow);

	if (rc == FC_ENAME)
		return rc;
	if (rc <= 0)
		return rc < 0 && rc != FC_ENOSPC ? rc : FC_ENOENT;
	return fc_zms_read(s->fs, id + FC_SETTINGS_ZMS_VALUE_OFFSET, buf, len);
}

/*
 * Read node id's name and value. Returns 1 with p->e filled, 0 when the name
 * or the value is missing (or the name is not a settings name), or an error.
 * (fc_zms_read_hist with cnt 0 is fc_zms_read without its frame.)
 */
static int read_pair(struct fc_zms *fs, uint32_t node, struct fc_settings_zms_pair *p)
{
	uint32_t id = node & ~NODE_BIT;
	int rn = fc_zms_read_hist(fs, id, p->name, FC_SETTINGS_ZMS_NAME_MAX + 1, 0);
	int rv;

	if (rn == FC_ENOENT)
		return 0;
	if (rn < 0)
		return rn;
	rv = fc_zms_read_hist(fs, id + FC_SETTINGS_ZMS_VALUE_OFFSET, p->buf, p->size, 0);
	if (rv == FC_ENOENT || rn == 0 || rn > (int)FC_SETTINGS_ZMS_NAME_MAX)
		return 0;
	if (rv < 0)
		return rv;
	if (rv == 0)
		return 0;
	p->name[rn] = 0;
	p->e.name = p->name;
	p->e.name_len = (size_t)rn;
	p->e.name_id = id;
	p->e.value = p->buf;
	p->e.value_len = (size_t)rv;
	p->e.value_read = FC_MIN((size_t)rv, p->size);
	return 1;
}

int fc_settings_zms_load(struct fc_settings_zms *s, uint8_t *buf, size_t buf_size,
			 fc_settings_zms_cb cb, void *ctx)
{
	struct fc_settings_zms_pair *p = &s->load;
	struct node nd;
	int rc = node_read(s->fs, FC_SETTINGS_ZMS_HEAD, &nd);

	p->buf = buf;
	p->size = buf_size;
	if (rc == FC_ENOENT)
		return 0; /* no list: nothing was ever saved (a read-only init writes no head) */
	for (uint32_t steps = 0; !rc && nd.next; steps++) {
		uint32_t cur = nd.next;

		if (steps > max_nodes(s->fs))
			return FC_ECORRUPT;
		rc = node_read(s->fs, cur, &nd);
		if (!rc)
			rc = read_pair(s->fs, cur, p);
#ifndef FC_READONLY /* FC_READONLY: a half pair is skipped, not deleted */
		if (rc == 0)
			rc = delete_id(s, cur & ~NODE_BIT);
		else
#endif
		if (rc == 1)
			rc = cb ? cb(ctx, &p->e) : 0;
	}
	return rc;
}

/* ---- read-only scan ---- */

static int problem(const struct fc_settings_zms_scan_ops *ops, void *ctx,
		   enum fc_settings_zms_problem_kind kind, uint32_t id, int err)
{
	struct fc_settings_zms_problem p = { .kind = kind, .id = id, .err = err };

	return ops->problem ? ops->problem(ctx, &p) : 0;
}

int fc_settings_zms_scan(struct fc_zms *fs, uint8_t *buf, size_t buf_size,
			 const struct fc_settings_zms_scan_ops *ops, void *ctx)
{
	struct fc_settings_zms_pair p;
	uint32_t cur = FC_SETTINGS_ZMS_HEAD, prev = 0;
	struct node nd;

	if (!fs->mounted)
		return FC_ENOTMOUNTED;
	p.buf = buf;
	p.size = buf_size;
	for (uint32_t steps = 0; steps <= max_nodes(fs); steps++) {
		int rc = node_read(fs, cur, &nd);

		if (rc == FC_ENOENT)
			return problem(ops, ctx, cur == FC_SETTINGS_ZMS_HEAD ? FC_SETTINGS_ZMS_NO_HEAD :
					       FC_SETTINGS_ZMS_DANGLING_NEXT, cur, 0);
		if (rc == FC_ECORRUPT)
			return problem(ops, ctx, FC_SETTINGS_ZMS_BAD_NODE, cur, 0);
		if (rc)
			return problem(ops, ctx, FC_SETTINGS_ZMS_READ_ERROR, cur, rc);
		if (nd.prev != prev)
			rc = problem(ops, ctx, FC_SETTINGS_ZMS_BAD_PREVIOUS, cur, 0);
		if (!rc && cur != FC_SETTINGS_ZMS_HEAD) {
			rc = read_pair(fs, cur, &p);
			if (rc == 0)
				rc = problem(ops, ctx, FC_SETTINGS_ZMS_ORPHAN_NODE, cur, 0);
			else if (rc == 1)
				rc = ops->pair ? ops->pair(ctx, &p.e) : 0;
			else
				rc = problem(ops, ctx, FC_SETTINGS_ZMS_READ_ERROR, cur, rc);
		}
		if (rc || !nd.next)
			return rc;
		prev = cur;
		cur = nd.next;
	}
	return problem(ops, ctx, FC_SETTINGS_ZMS_BAD_NODE, cur, 0);
}
