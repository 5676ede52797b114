/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings.c - Zephyr settings_nvs-compatible names and values on NVS.
 *
 * Every flash access goes through fc_nvs_read/write/delete, so the format
 * rules (ATEs, GC, data CRC) stay in nvs.c. This file owns the id scheme,
 * the save order, the load-time repairs and the name caches.
 */
#include "fdtcache/settings.h"
#include "fdtcache/crc.h"

#define NAME_BUF (FC_SETTINGS_NAME_MAX + 1)
/* Zephyr stops at 0xc000; 0xbfff is lost too, its value id 0xffff being nvs's own. */
#define ID_END FC_SETTINGS_ID_NAME_LAST
#define HOLE 0u                                /* INDEX: no name at this id */

/* Where a name lives, or where a new one would go. */
struct lookup {
	uint16_t id;      /* the name's id, when found */
	uint16_t free_id; /* lowest known free id, else last_name_id + 1 */
	bool found;
	bool cached;      /* ZEPHYR_RING: found through the ring */
};

int fc_settings_name_len(const char *name)
{
	size_t len;

	if (!name)
		return FC_ENAME;
	for (len = 0; name[len]; len++) {
		if (len == FC_SETTINGS_NAME_MAX || name[len] == '=')
			return FC_ENAME;
	}
	return len ? (int)len : FC_ENAME;
}

static uint16_t name_hash(const void *name, size_t len)
{
	return fc_crc16_ccitt(0xffff, name, len);
}

/* INDEX stores a hash as a non-zero key; 0 is HOLE (crc 0 shares key 1). */
static uint16_t index_key(uint16_t hash)
{
	return hash == HOLE ? 1u : hash;
}

static int read_name(struct fc_settings *s, uint16_t id, char *buf)
{
	return fc_nvs_read(s->cfg.fs, id, buf, NAME_BUF);
}

static bool is_missing(int rc)
{
	return rc == 0 || rc == FC_ENOENT;
}

static bool name_matches(int rc, const char *buf, const char *name, size_t len)
{
	return rc == (int)len && FC_MEMCMP(buf, name, len) == 0;
}

/* Zephyr's modes write as Zephyr: every write compares first. */

#ifndef FC_READONLY
static unsigned int hint(const struct fc_settings *s, unsigned int h)
{
	return s->cfg.cache_mode == FC_SETTINGS_CACHE_INDEX ? h : 0;
}

/* The counter only changes to a value it does not hold (see counter_value). */
static int write_counter(struct fc_settings *s, uint16_t last)
{
	uint8_t raw[2];
	int rc;

	fc_put_le16(raw, last);
	rc = fc_nvs_write_hint(s->cfg.fs, FC_SETTINGS_ID_COUNTER, raw, sizeof(raw),
			       hint(s, FC_NVS_HINT_CHANGED));
	if (rc < 0)
		return rc;
	s->last_name_id = last;
	return 0;
}
#endif /* FC_READONLY */

/* Out-of-range counters read as "no names": Zephyr would walk garbage ids. */
static uint16_t counter_value(int rc, const uint8_t *raw)
{
	uint16_t v;

	if (rc < 2)
		return FC_SETTINGS_ID_COUNTER;
	v = fc_get_le16(raw);
	if (v < FC_SETTINGS_ID_COUNTER || v > FC_SETTINGS_ID_NAME_LAST)
		return FC_SETTINGS_ID_COUNTER;
	return v;
}

static int read_counter(struct fc_nvs *fs, uint16_t *last)
{
	uint8_t raw[2];
	int rc = fc_nvs_read(fs, FC_SETTINGS_ID_COUNTER, raw, sizeof(raw));

	if (rc < 0 && rc != FC_ENOENT)
		return rc;
	*last = counter_value(rc, raw);
	return 0;
}

int fc_settings_init(struct fc_settings *s, const struct fc_settings_config *cfg)
{
	if (!s || !cfg || !cfg->fs || cfg->cache_mode > FC_SETTINGS_CACHE_ZEPHYR_RING_FIX)
		return FC_EINVAL;
	if (cfg->cache_len && !cfg->cache)
		return FC_EINVAL;
	if (cfg->cache_mode >= FC_SETTINGS_CACHE_ZEPHYR_RING && (cfg->cache_len & 1u))
		return FC_EINVAL;
	if (!cfg->fs->mounted)
		return FC_ENOTMOUNTED;
	FC_MEMSET(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (cfg->cache_mode == FC_SETTINGS_CACHE_ZEPHYR_NONE)
		s->cfg.cache_len = 0;
	if (s->cfg.cache_len)
		FC_MEMSET(s->cfg.cache, 0, s->cfg.cache_len * sizeof(uint16_t));
	return read_counter(cfg->fs, &s->last_name_id);
}

/* ---- INDEX: cache[id - 0x8001] = key of the name stored at id ---------- */

static bool index_covers(const struct fc_settings *s, uint32_t id)
{
	return id - FC_SETTINGS_ID_NAME_FIRST < s->cfg.cache_len;
}

static uint16_t index_top(const struct fc_settings *s)
{
	uint32_t top = FC_SETTINGS_ID_COUNTER + s->cfg.cache_len;

	return (uint16_t)FC_MIN(top, (uint32_t)s->last_name_id);
}

static void index_set(struct fc_settings *s, uint16_t id, uint16_t key)
{
	if (s->cfg.cache_mode != FC_SETTINGS_CACHE_INDEX || !index_covers(s, id))
		return;
	s->cfg.cache[id - FC_SETTINGS_ID_NAME_FIRST] = key;
	if (key == HOLE && id < s->lowest_hole)
		s->lowest_hole = id;
}

/* Key for the name a read returned: unreadable names never match. */
static uint16_t key_of_read(int rc, const char *buf)
{
	if (is_missing(rc))
		return HOLE;
	if (rc < 0)
		return 1u;
	return index_key(name_hash(buf, (size_t)FC_MIN(rc, NAME_BUF)));
}

/* The first save without a load reads every cached name id, once. */
static int name_index_build(struct fc_settings *s)
{
	char *buf = s->lookup_name;
	uint16_t top = index_top(s);

	for (uint32_t id = FC_SETTINGS_ID_NAME_FIRST; id <= top; id++) {
		int rc = read_name(s, (uint16_t)id, buf);

		s->stats.scan_reads++;
		if (rc < 0 && rc != FC_ENOENT && rc != FC_EBADCRC)
			return rc;
		s->cfg.cache[id - FC_SETTINGS_ID_NAME_FIRST] = key_of_read(rc, buf);
	}
	s->lowest_hole = FC_SETTINGS_ID_NAME_FIRST;
	s->ready = true;
	return 0;
}

static uint16_t index_free_id(struct fc_settings *s)
{
	uint16_t top = index_top(s);
	uint32_t id;

	for (id = s->lowest_hole; id <= top; id++) {
		if (s->cfg.cache[id - FC_SETTINGS_ID_NAME_FIRST] == HOLE)
			break;
	}
	s->lowest_hole = (uint16_t)id;
	return id <= top ? (uint16_t)id : 0;
}

/*
 * Ids above the cache are scanned on flash (the fallback when the caller's
 * memory is smaller than the number of names).
 */
static int scan_ids(struct fc_settings *s, uint32_t from, const char *name, size_t len,
		    struct lookup *lu)
{
	char *buf = s->lookup_name;
	uint16_t free_id = 0;

	if (from > s->last_name_id)
		return 0;
	s->stats.scans++;
	for (uint32_t id = s->last_name_id; id >= from; id--) {
		int rc = read_name(s, (uint16_t)id, buf);

		s->stats.scan_reads++;
		if (rc == FC_ENOENT)
			free_id = (uint16_t)id;
		if (name_matches(rc, buf, name, len)) {
			lu->id = (uint16_t)id;
			lu->found = true;
			return 0;
		}
		if (rc < 0 && rc != FC_ENOENT && rc != FC_EBADCRC)
			return rc;
	}
	if (free_id && (!lu->free_id || lu->free_id > s->last_name_id))
		lu->free_id = free_id;
	return 0;
}

static int index_find(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		      struct lookup *lu)
{
	uint16_t key = index_key(hash);
	uint16_t top;
	char *buf = s->lookup_name;
	int rc;

	if (!s->ready) {
		rc = name_index_build(s);
		if (rc < 0)
			return rc;
	}
	top = index_top(s);
	for (uint32_t id = FC_SETTINGS_ID_NAME_FIRST; id <= top; id++) {
		if (s->cfg.cache[id - FC_SETTINGS_ID_NAME_FIRST] != key)
			continue;
		rc = read_name(s, (uint16_t)id, buf);
		s->stats.confirm_reads++;
		if (name_matches(rc, buf, name, len)) {
			lu->id = (uint16_t)id;
			lu->found = true;
			return 0;
		}
		if (rc < 0 && !is_missing(rc) && rc != FC_EBADCRC)
			return rc;
	}
	lu->free_id = index_free_id(s);
	return scan_ids(s, (uint32_t)top + 1u, name, len, lu);
}

/* ---- Zephyr's ring of {hash, id} and its full scan ---------------------- */

static uint32_t ring_entries(const struct fc_settings *s)
{
	return s->cfg.cache_len / 2u;
}

static void ring_add(struct fc_settings *s, uint16_t hash, uint16_t id)
{
	if (!ring_entries(s))
		return;
	s->cfg.cache[2u * s->ring_next] = hash;
	s->cfg.cache[2u * s->ring_next + 1u] = id;
	s->ring_next = (s->ring_next + 1u) % ring_entries(s);
}

static int ring_match(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		      struct lookup *lu)
{
	char *buf = s->lookup_name;

	for (uint32_t i = 0; i < ring_entries(s); i++) {
		uint16_t id = s->cfg.cache[2u * i + 1u];
		int rc;

		if (s->cfg.cache[2u * i] != hash || id <= FC_SETTINGS_ID_COUNTER)
			continue;
		rc = read_name(s, id, buf);
		s->stats.confirm_reads++;
		if (name_matches(rc, buf, name, len)) {
			lu->id = id;
			lu->found = true;
			lu->cached = true;
			return 0;
		}
	}
	return 0;
}

static int zephyr_find(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		       struct lookup *lu)
{
	enum fc_settings_cache_mode mode = s->cfg.cache_mode;
	int rc;

	if (mode != FC_SETTINGS_CACHE_ZEPHYR_NONE) {
		rc = ring_match(s, name, len, hash, lu);
		if (rc < 0 || lu->found)
			return rc;
	}
	/*
	 * PR #69103: after a load, a ring that never overflowed holds every
	 * name. "<=": Zephyr's reference figures show it skips the scan for
	 * ring size + 1 new names.
	 */
	if (mode == FC_SETTINGS_CACHE_ZEPHYR_RING_FIX && s->ready &&
	    s->ring_total <= ring_entries(s))
		return 0;
	return scan_ids(s, FC_SETTINGS_ID_NAME_FIRST, name, len, lu);
}

#ifndef FC_READONLY
/* Zephyr counts new names only while it knows the ring holds them all. */
static void zephyr_added(struct fc_settings *s, uint16_t hash, uint16_t id)
{
	ring_add(s, hash, id);
	if (s->ready && (s->ring_total < ring_entries(s) || id == s->last_name_id))
		s->ring_total++;
}
#endif /* FC_READONLY */

/* ---- save / get / delete ------------------------------------------------ */

/* Validates name and looks it up. Returns its length, or an error. */
static int find_name(struct fc_settings *s, const char *name, uint16_t *hash, struct lookup *lu)
{
	int len = fc_settings_name_len(name);
	int rc;

	if (len < 0)
		return len;
	*hash = name_hash(name, (size_t)len);
	FC_MEMSET(lu, 0, sizeof(*lu));
	if (s->cfg.cache_mode == FC_SETTINGS_CACHE_INDEX)
		rc = index_find(s, name, (size_t)len, *hash, lu);
	else
		rc = zephyr_find(s, name, (size_t)len, *hash, lu);
	return rc < 0 ? rc : len;
}

#ifndef FC_READONLY
static int delete_pair(struct fc_settings *s, uint16_t id)
{
	int rc = fc_nvs_delete(s->cfg.fs, id);

	if (rc >= 0)
		rc = fc_nvs_delete(s->cfg.fs, (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET));
	if (rc < 0)
		return rc;
	index_set(s, id, HOLE);
	return 0;
}

int fc_settings_delete(struct fc_settings *s, const char *name)
{
	struct lookup lu;
	uint16_t hash;
	int rc = find_name(s, name, &hash, &lu);

	if (rc < 0 || !lu.found)
		return rc < 0 ? rc : 0;
	rc = delete_pair(s, lu.id);
	if (rc < 0)
		return rc;
	if (lu.id == s->last_name_id)
		return write_counter(s, (uint16_t)(lu.id - 1u));
	return 0;
}

/*
 * Ids above the counter are empty: a save raises the counter before writing
 * them, a delete and load lower it only after both are gone. A free id
 * below it holds no name; a leftover value there is only overwritten.
 */
static int save_new(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		    const void *value, size_t vlen, struct lookup *lu)
{
	uint16_t id = lu->free_id ? lu->free_id : (uint16_t)(s->last_name_id + 1u);
	unsigned int h = hint(s, id > s->last_name_id ? FC_NVS_HINT_ABSENT : FC_NVS_HINT_CHANGED);
	int rc;

	lu->id = id;
	if (id >= ID_END)
		return FC_ENOSPC;
	if (id > s->last_name_id) {
		rc = write_counter(s, id);
		if (rc < 0)
			return rc;
	}
	rc = fc_nvs_write_hint(s->cfg.fs, (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET), value, vlen,
			       h);
	if (rc < 0)
		return rc;
	rc = fc_nvs_write_hint(s->cfg.fs, id, name, len, h);
	if (rc < 0)
		return rc;
	if (s->cfg.cache_mode == FC_SETTINGS_CACHE_INDEX)
		index_set(s, id, index_key(hash));
	return 0;
}

int fc_settings_save(struct fc_settings *s, const char *name, const void *value, size_t len)
{
	struct lookup lu;
	uint16_t hash;
	int rc;

	if (len == 0 || !value)
		return fc_settings_delete(s, name);
	rc = find_name(s, name, &hash, &lu);
	if (rc < 0)
		return rc;
	if (!lu.found) {
		rc = save_new(s, name, (size_t)rc, hash, value, len, &lu);
	} else {
		rc = fc_nvs_write(s->cfg.fs, (uint16_t)(lu.id + FC_SETTINGS_VALUE_OFFSET), value, len);
	}
	if (rc < 0)
		return rc;
	/* Zephyr puts every saved name it did not find in the ring into it. */
	if (s->cfg.cache_mode >= FC_SETTINGS_CACHE_ZEPHYR_RING && !lu.cached)
		zephyr_added(s, hash, lu.id);
	return 0;
}
#endif /* FC_READONLY */

int fc_settings_get(struct fc_settings *s, const char *name, void *buf, size_t len)
{
	struct lookup lu;
	uint16_t hash;
	int rc = find_name(s, name, &hash, &lu);

	if (rc < 0)
		return rc;
	if (!lu.found)
		return FC_ENOENT;
	return fc_nvs_read(s->cfg.fs, (uint16_t)(lu.id + FC_SETTINGS_VALUE_OFFSET), buf, len);
}

/* ---- load ---------------------------------------------------------------- */

static bool in_subtree(const char *name, size_t len, const char *subtree, size_t slen)
{
	if (!slen)
		return true;
	if (len < slen || FC_MEMCMP(name, subtree, slen) != 0)
		return false;
	return len == slen || name[slen] == '/';
}

struct load_pass {
	const char *subtree;
	size_t subtree_len;
	uint8_t *buf;
	size_t buf_size;
	fc_settings_load_cb cb;
	void *ctx;
};

/*
 * Zephyr reads a value twice (its length, then in the handler); ours reads
 * it once, or only its length when the name is not wanted.
 */
static int read_value(struct fc_settings *s, uint16_t id, const struct load_pass *p, bool wanted)
{
	uint16_t vid = (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET);
	uint8_t probe;
	int rc;

	if (s->cfg.cache_mode != FC_SETTINGS_CACHE_INDEX) {
		rc = fc_nvs_read(s->cfg.fs, vid, &probe, sizeof(probe));
		if (rc <= 0 || !wanted)
			return rc;
	}
	if (!wanted || !p->buf_size)
		return fc_nvs_read(s->cfg.fs, vid, &probe, 0);
	return fc_nvs_read(s->cfg.fs, vid, p->buf, p->buf_size);
}

static int report(const struct load_pass *p, const char *name, size_t nlen, uint16_t id,
		  int vlen)
{
	struct fc_settings_entry e = {
		.name = name,
		.name_len = nlen,
		.name_id = id,
		.value = p->buf,
		.value_len = (size_t)vlen,
		.value_read = FC_MIN((size_t)vlen, p->buf_size),
	};

	return p->cb ? p->cb(p->ctx, &e) : 0;
}

static void remember(struct fc_settings *s, uint16_t id, const char *name, size_t len)
{
	uint16_t hash = name_hash(name, len);

	if (s->cfg.cache_mode == FC_SETTINGS_CACHE_INDEX)
		index_set(s, id, index_key(hash));
	else
		ring_add(s, hash, id);
}

#ifndef FC_READONLY
/* A repair write that does not fit is noted and the load goes on; other errors stop it. */
static int repaired(struct fc_settings *s, int rc)
{
	if (rc != FC_ENOSPC)
		return rc;
	if (!s->repair_err)
		s->repair_err = rc;
	return 0;
}
#endif /* FC_READONLY */

/*
 * One id of the load walk. Zephyr's repairs: one of the pair missing
 * deletes both; an empty or repaired id at the top lowers *last (written
 * once by the caller).
 */
static int load_id(struct fc_settings *s, uint16_t id, const struct load_pass *p, uint16_t *last,
		   uint32_t *names)
{
	char *name = s->load_name;
	int rc1 = read_name(s, id, name);
	int rc2;
	size_t nlen;
	bool wanted;

	if (rc1 < 0 && !is_missing(rc1) && rc1 != FC_EBADCRC)
		return rc1;
	nlen = rc1 > 0 ? (size_t)FC_MIN(rc1, NAME_BUF) : 0;
	name[nlen] = '\0';
	wanted = rc1 > 0 && in_subtree(name, nlen, p->subtree, p->subtree_len);
	rc2 = read_value(s, id, p, wanted);
	if (rc2 < 0 && !is_missing(rc2) && rc2 != FC_EBADCRC)
		return rc2;
	if (rc1 > 0 && rc2 > 0) {
		(*names)++;
		remember(s, id, name, nlen);
		return wanted ? report(p, name, nlen, id, rc2) : 0;
	}
#ifndef FC_READONLY
	if (rc1 > 0 || rc2 > 0) {
		int rc = delete_pair(s, id);

		if (rc)
			return repaired(s, rc);
	}
#endif /* FC_READONLY: a half pair is skipped, not repaired */
	if (id == *last)
		(*last)--;
	return 0;
}

static int load(struct fc_settings *s, const struct load_pass *p)
{
	uint16_t last = s->last_name_id;
	uint32_t names = 0;
	int rc = 0;

	s->ready = false;
	s->ring_next = 0;
	s->repair_err = 0;
	s->lowest_hole = FC_SETTINGS_ID_NAME_FIRST;
	if (s->cfg.cache_len)
		FC_MEMSET(s->cfg.cache, 0, s->cfg.cache_len * sizeof(uint16_t));
	for (uint32_t id = s->last_name_id; id >= FC_SETTINGS_ID_NAME_FIRST && !rc; id--)
		rc = load_id(s, (uint16_t)id, p, &last, &names);
#ifndef FC_READONLY
	if (!rc && last != s->last_name_id)
		rc = repaired(s, write_counter(s, last));
#else
	s->last_name_id = last; /* lowered in memory only */
#endif
	if (rc)
		return rc;
	s->ring_total = names;
	s->ready = true;
	return 0;
}

int fc_settings_load_subtree(struct fc_settings *s, const char *subtree, uint8_t *buf,
			     size_t buf_size, fc_settings_load_cb cb, void *ctx)
{
	struct load_pass p = { .buf = buf, .buf_size = buf ? buf_size : 0, .cb = cb, .ctx = ctx };

	if (subtree && subtree[0]) {
		int len = fc_settings_name_len(subtree);

		if (len < 0)
			return len;
		p.subtree = subtree;
		p.subtree_len = (size_t)len;
	}
	return load(s, &p);
}

int fc_settings_load(struct fc_settings *s, uint8_t *buf, size_t buf_size,
		     fc_settings_load_cb cb, void *ctx)
{
	return fc_settings_load_subtree(s, NULL, buf, buf_size, cb, ctx);
}

/* ---- read-only scan for tools -------------------------------------------- */

struct scan_state {
	struct fc_nvs *fs;
	const struct fc_settings_scan_ops *ops;
	void *ctx;
	uint8_t *buf;
	size_t buf_size;
	uint16_t counter;
	bool counter_missing; /* reported with the first stored item */
};

static int problem(struct scan_state *st, enum fc_settings_problem_kind kind, uint16_t id, int err)
{
	struct fc_settings_problem pb = { .kind = kind, .id = id, .counter = st->counter, .err = err };

	return st->ops->problem ? st->ops->problem(st->ctx, &pb) : 0;
}

/* A read that failed for another reason than absence is reported, then ignored. */
static int scan_read(struct scan_state *st, uint16_t id, void *buf, size_t len, int *rc)
{
	*rc = fc_nvs_read(st->fs, id, buf, len);
	if (*rc >= 0 || *rc == FC_ENOENT)
		return 0;
	return problem(st, FC_SETTINGS_READ_ERROR, id, *rc);
}

static bool stored_name_valid(const char *name, int len)
{
	if (len > FC_SETTINGS_NAME_MAX)
		return false;
	for (int i = 0; i < len; i++) {
		if (name[i] == '=' || name[i] == '\0')
			return false;
	}
	return true;
}

static int scan_pair(struct scan_state *st, uint16_t id, const char *name, int rc1, int rc2)
{
	size_t nlen = (size_t)FC_MIN(rc1, NAME_BUF);
	struct fc_settings_entry e = {
		.name = name,
		.name_len = nlen,
		.name_id = id,
		.value = st->buf,
		.value_len = (size_t)rc2,
		.value_read = FC_MIN((size_t)rc2, st->buf_size),
	};
	int rc = 0;

	if (!stored_name_valid(name, rc1))
		rc = problem(st, FC_SETTINGS_NAME_INVALID, id, 0);
	if (!rc && st->ops->pair)
		rc = st->ops->pair(st->ctx, &e);
	return rc;
}

static int scan_id(struct scan_state *st, uint16_t id)
{
	uint16_t vid = (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET);
	char name[NAME_BUF + 1];
	uint8_t probe;
	int rc1, rc2, rc;

	rc = scan_read(st, id, name, NAME_BUF, &rc1);
	if (!rc)
		rc = st->buf_size ? scan_read(st, vid, st->buf, st->buf_size, &rc2)
				  : scan_read(st, vid, &probe, 0, &rc2);
	if (rc)
		return rc;
	name[rc1 > 0 ? FC_MIN(rc1, NAME_BUF) : 0] = '\0';
	if (rc1 <= 0 && rc2 <= 0)
		return id == st->counter ? problem(st, FC_SETTINGS_COUNTER_TOP, id, 0) : 0;
	if (st->counter_missing) {
		st->counter_missing = false;
		rc = problem(st, FC_SETTINGS_COUNTER_MISSING, FC_SETTINGS_ID_COUNTER, 0);
	}
	if (!rc && id > st->counter)
		rc = problem(st, FC_SETTINGS_ABOVE_COUNTER, id, 0);
	if (rc)
		return rc;
	if (rc1 <= 0)
		return problem(st, FC_SETTINGS_ORPHAN_VALUE, id, 0);
	if (rc2 <= 0)
		return problem(st, FC_SETTINGS_ORPHAN_NAME, id, 0);
	return scan_pair(st, id, name, rc1, rc2);
}

int fc_settings_scan(struct fc_nvs *fs, uint8_t *buf, size_t buf_size,
		     const struct fc_settings_scan_ops *ops, void *ctx)
{
	static const struct fc_settings_scan_ops no_ops;
	struct scan_state st = {
		.fs = fs, .ops = ops ? ops : &no_ops, .ctx = ctx,
		.buf = buf, .buf_size = buf ? buf_size : 0,
	};
	uint8_t raw[2];
	int crc, rc;

	if (!fs || !fs->mounted)
		return FC_ENOTMOUNTED;
	rc = scan_read(&st, FC_SETTINGS_ID_COUNTER, raw, sizeof(raw), &crc);
	st.counter = counter_value(crc, raw);
	st.counter_missing = crc == FC_ENOENT;
	if (!rc && crc >= 0 && (crc != 2 || st.counter != fc_get_le16(raw)))
		rc = problem(&st, FC_SETTINGS_COUNTER_BAD, FC_SETTINGS_ID_COUNTER, 0);
	for (uint32_t id = FC_SETTINGS_ID_NAME_LAST; id >= FC_SETTINGS_ID_NAME_FIRST && !rc; id--)
		rc = scan_id(&st, (uint16_t)id);
	return rc;
}
