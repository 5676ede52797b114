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

/*
 * Zephyr's cache modes, for comparisons. FC_NO_EMULATION: init refuses
 * them, and with the test constant the optimiser drops their code.
 */
#ifdef FC_NO_EMULATION
#define EMULATED(s) ((void)(s), false)
#define MODE_LAST FC_SETTINGS_CACHE_INDEX
#else
#define EMULATED(s) ((s)->cfg.cache_mode != FC_SETTINGS_CACHE_INDEX)
#define MODE_LAST FC_SETTINGS_CACHE_ZEPHYR_RING_FIX
#endif

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

/*
 * One name read of a lookup, counted in *reads: 1 when it is name (s->lu
 * then holds its id), FC_ENOENT when id is free, another error that stops
 * the lookup, else 0.
 */
static FC_NOINLINE int lookup_read(struct fc_settings *s, uint16_t id, const char *name, size_t len,
		       uint32_t *reads)
{
	int rc = read_name(s, id, s->lookup_name);

	(*reads)++;
	if (name_matches(rc, s->lookup_name, name, len)) {
		s->lu.id = id;
		s->lu.found = true;
		return 1;
	}
	return rc < 0 && rc != FC_EBADCRC ? rc : 0;
}

/* Zephyr's modes write as Zephyr: every write compares first. */

#ifndef FC_READONLY
static unsigned int hint(const struct fc_settings *s, unsigned int h)
{
	return EMULATED(s) ? 0 : h;
}

/*
 * The counter only changes to a value it does not hold (see counter_value).
 * Its bytes are in s, and read back from there after the write.
 */
static int write_counter(struct fc_settings *s, uint16_t last)
{
	int rc;

	fc_put_le16(s->scratch, last);
	rc = fc_nvs_write_hint(s->cfg.fs, FC_SETTINGS_ID_COUNTER, s->scratch,
			       sizeof(s->scratch), hint(s, FC_NVS_HINT_CHANGED));
	if (rc < 0)
		return rc;
	s->last_name_id = fc_get_le16(s->scratch);
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

/* Init and load: nothing is known of the names on flash, no repair failed. */
static void names_forget(struct fc_settings *s)
{
	s->ready = false;
	s->ring_next = 0;
	s->ring_total = 0;
	s->repair_err = 0;
	s->lowest_hole = FC_SETTINGS_ID_NAME_FIRST;
	if (s->cfg.cache_len)
		FC_MEMSET(s->cfg.cache, 0, s->cfg.cache_len * sizeof(uint16_t));
}

int fc_settings_init(struct fc_settings *s, const struct fc_settings_config *cfg)
{
	if (!s || !cfg || !cfg->fs || cfg->cache_mode > MODE_LAST)
		return FC_EINVAL;
	if (cfg->cache_len && !cfg->cache)
		return FC_EINVAL;
	if (cfg->cache_mode >= FC_SETTINGS_CACHE_ZEPHYR_RING && (cfg->cache_len & 1u))
		return FC_EINVAL;
	if (!cfg->fs->mounted)
		return FC_ENOTMOUNTED;
	FC_MEMSET(s, 0, sizeof(*s));
	s->cfg = *cfg;
	if (EMULATED(s) && cfg->cache_mode == FC_SETTINGS_CACHE_ZEPHYR_NONE)
		s->cfg.cache_len = 0;
	names_forget(s);
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
	if (EMULATED(s) || !index_covers(s, id))
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

/* The first save without a load reads every cached name id (up to top = index_top), once. */
static int name_index_build(struct fc_settings *s, uint16_t top)
{
	char *buf = s->lookup_name;

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

/*
 * Ids above the cache are scanned on flash (the fallback when the caller's
 * memory is smaller than the number of names).
 */
static int scan_ids(struct fc_settings *s, uint32_t from, const char *name, size_t len,
		    struct fc_settings_lookup_ *lu)
{
	uint16_t free_id = 0;

	if (from > s->last_name_id)
		return 0;
	s->stats.scans++;
	for (uint32_t id = s->last_name_id; id >= from; id--) {
		int rc = lookup_read(s, (uint16_t)id, name, len, &s->stats.scan_reads);

		if (rc == FC_ENOENT)
			free_id = (uint16_t)id;
		else if (rc)
			return rc < 0 ? rc : 0;
	}
	if (!lu->free_id) /* a free id of the cache's range is lower */
		lu->free_id = free_id;
	return 0;
}

static int index_find(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		      struct fc_settings_lookup_ *lu)
{
	uint16_t key = index_key(hash);
	uint16_t top = index_top(s);
	int rc;

	if (!s->ready) {
		rc = name_index_build(s, top);
		if (rc < 0)
			return rc;
	}
	/* on the way, the lowest free id at or above lowest_hole */
	for (uint32_t id = FC_SETTINGS_ID_NAME_FIRST; id <= top; id++) {
		uint16_t k = s->cfg.cache[id - FC_SETTINGS_ID_NAME_FIRST];

		if (k == HOLE && !lu->free_id && id >= s->lowest_hole)
			lu->free_id = (uint16_t)id;
		if (k != key)
			continue;
		rc = lookup_read(s, (uint16_t)id, name, len, &s->stats.confirm_reads);
		if (rc && rc != FC_ENOENT)
			return rc < 0 ? rc : 0;
	}
	s->lowest_hole = lu->free_id ? lu->free_id : (uint16_t)FC_MAX(s->lowest_hole, top + 1u);
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
		      struct fc_settings_lookup_ *lu)
{
	for (uint32_t i = 0; i < ring_entries(s); i++) {
		uint16_t id = s->cfg.cache[2u * i + 1u];

		if (s->cfg.cache[2u * i] != hash || id <= FC_SETTINGS_ID_COUNTER)
			continue;
		/* read errors only leave the name to the scan */
		if (lookup_read(s, id, name, len, &s->stats.confirm_reads) == 1) {
			lu->cached = true;
			return 0;
		}
	}
	return 0;
}

static int zephyr_find(struct fc_settings *s, const char *name, size_t len, uint16_t hash,
		       struct fc_settings_lookup_ *lu)
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

/* Validates name and looks it up into s->lu. Returns its length, or an error. */
static int find_name(struct fc_settings *s, const char *name)
{
	struct fc_settings_lookup_ *lu = &s->lu;
	int len = fc_settings_name_len(name);
	int rc;

	if (len < 0)
		return len;
	*lu = (struct fc_settings_lookup_){ 0 };
	lu->hash = name_hash(name, (size_t)len);
	if (EMULATED(s))
		rc = zephyr_find(s, name, (size_t)len, lu->hash, lu);
	else
		rc = index_find(s, name, (size_t)len, lu->hash, lu);
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
	int rc = find_name(s, name);

	if (rc < 0 || !s->lu.found)
		return rc < 0 ? rc : 0;
	rc = delete_pair(s, s->lu.id);
	if (rc < 0)
		return rc;
	if (s->lu.id == s->last_name_id)
		return write_counter(s, (uint16_t)(s->lu.id - 1u));
	return 0;
}

/*
 * Ids above the counter are empty: a save raises the counter before writing
 * them, a delete and load lower it only after both are gone. A free id
 * below it holds no name; a leftover value there is only overwritten.
 * The id and hash are read from s->lu after each write, not kept in
 * registers across it (the writes are the deepest calls).
 */
static int save_new(struct fc_settings *s, const char *name, size_t len, const void *value,
		    size_t vlen)
{
	uint16_t id = s->lu.free_id ? s->lu.free_id : (uint16_t)(s->last_name_id + 1u);
	unsigned int h = hint(s, id > s->last_name_id ? FC_NVS_HINT_ABSENT : FC_NVS_HINT_CHANGED);
	int rc;

	s->lu.id = id;
	if (id >= ID_END)
		return FC_ENOSPC;
	if (id > s->last_name_id) {
		rc = write_counter(s, id);
		if (rc < 0)
			return rc;
	}
	rc = fc_nvs_write_hint(s->cfg.fs, (uint16_t)(s->lu.id + FC_SETTINGS_VALUE_OFFSET), value,
			       vlen, h);
	if (rc < 0)
		return rc;
	rc = fc_nvs_write_hint(s->cfg.fs, s->lu.id, name, len, h);
	if (rc < 0)
		return rc;
	index_set(s, s->lu.id, index_key(s->lu.hash));
	return 0;
}

int fc_settings_save(struct fc_settings *s, const char *name, const void *value, size_t len)
{
	int rc;

	if (len == 0 || !value)
		return fc_settings_delete(s, name);
	rc = find_name(s, name);
	if (rc < 0)
		return rc;
	if (!s->lu.found) {
		rc = save_new(s, name, (size_t)rc, value, len);
	} else {
		rc = fc_nvs_write(s->cfg.fs, (uint16_t)(s->lu.id + FC_SETTINGS_VALUE_OFFSET), value,
				  len);
	}
	if (rc < 0)
		return rc;
	/* Zephyr puts every saved name it did not find in the ring into it. */
	if (EMULATED(s) && s->cfg.cache_mode >= FC_SETTINGS_CACHE_ZEPHYR_RING && !s->lu.cached)
		zephyr_added(s, s->lu.hash, s->lu.id);
	return 0;
}
#endif /* FC_READONLY */

int fc_settings_get(struct fc_settings *s, const char *name, void *buf, size_t len)
{
	int rc = find_name(s, name);

	if (rc < 0)
		return rc;
	if (!s->lu.found)
		return FC_ENOENT;
	return fc_nvs_read(s->cfg.fs, (uint16_t)(s->lu.id + FC_SETTINGS_VALUE_OFFSET), buf, len);
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

/*
 * Zephyr reads a value twice (its length, then in the handler); ours reads
 * it once, or only its length when the name is not wanted.
 */
static int read_value(struct fc_settings *s, uint16_t id, bool wanted)
{
	uint16_t vid = (uint16_t)(id + FC_SETTINGS_VALUE_OFFSET);
	int rc;

	if (EMULATED(s)) {
		rc = fc_nvs_read(s->cfg.fs, vid, s->scratch, 1);
		if (rc <= 0 || !wanted)
			return rc;
	}
	return fc_nvs_read(s->cfg.fs, vid, wanted ? s->pass.buf : NULL, wanted ? s->pass.buf_size : 0);
}

/* Not inlined: the entry is on the stack during the callback only. */
static FC_NOINLINE int report(struct fc_settings *s, size_t nlen, uint16_t id, int vlen)
{
	struct fc_settings_entry e = {
		.name = s->load_name,
		.name_len = nlen,
		.name_id = id,
		.value = s->pass.buf,
		.value_len = (size_t)vlen,
		.value_read = FC_MIN((size_t)vlen, s->pass.buf_size),
	};

	return s->pass.cb ? s->pass.cb(s->pass.ctx, &e) : 0;
}

/* Bytes of the name a read returned (a name too long is cut one past the limit). */
static size_t read_len(int rc)
{
	return rc > 0 ? (size_t)FC_MIN(rc, NAME_BUF) : 0;
}

/* Recomputed after each read, so nothing about the name stays in registers across it. */
static bool wanted(const struct fc_settings *s, int rc1)
{
	return rc1 > 0 && in_subtree(s->load_name, read_len(rc1), s->pass.subtree,
				     s->pass.subtree_len);
}

static void remember(struct fc_settings *s, uint16_t id, size_t len)
{
	uint16_t hash = name_hash(s->load_name, len);

	if (EMULATED(s)) {
		ring_add(s, hash, id);
		s->ring_total++;
	} else {
		index_set(s, id, index_key(hash));
	}
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
 * deletes both; an empty or repaired id at the top lowers last_name_id
 * (written once by the caller).
 */
static int load_id(struct fc_settings *s, uint16_t id)
{
	int rc1 = read_name(s, id, s->load_name);
	int rc2;

	if (rc1 < 0 && !is_missing(rc1) && rc1 != FC_EBADCRC)
		return rc1;
	s->load_name[read_len(rc1)] = '\0';
	rc2 = read_value(s, id, wanted(s, rc1));
	if (rc2 < 0 && !is_missing(rc2) && rc2 != FC_EBADCRC)
		return rc2;
	if (rc1 > 0 && rc2 > 0) {
		remember(s, id, read_len(rc1));
		return wanted(s, rc1) ? report(s, read_len(rc1), id, rc2) : 0;
	}
#ifndef FC_READONLY
	if (rc1 > 0 || rc2 > 0) {
		int rc = delete_pair(s, id);

		if (rc)
			return repaired(s, rc);
	}
#endif /* FC_READONLY: a half pair is skipped, not repaired */
	if (id == s->last_name_id)
		s->last_name_id--;
	return 0;
}

/* The walk lowers s->last_name_id in memory; the counter is written after. */
static FC_NOINLINE int load(struct fc_settings *s)
{
	uint16_t top = s->last_name_id;
	int rc = 0;

	names_forget(s);
	for (uint16_t id = top; id > FC_SETTINGS_ID_COUNTER && !rc; id--)
		rc = load_id(s, id);
#ifndef FC_READONLY
	if (s->last_name_id != top) {
		uint16_t last = s->last_name_id;

		s->last_name_id = top; /* as on flash until the write */
		if (!rc)
			rc = repaired(s, write_counter(s, last));
	}
#endif /* FC_READONLY: lowered in memory only */
	if (rc)
		return rc;
	s->ready = true;
	return 0;
}

/* Load's arguments live in s, so load itself is a tail call. */
static void pass_set(struct fc_settings *s, uint8_t *buf, size_t buf_size,
		     fc_settings_load_cb cb, void *ctx)
{
	s->pass.buf = buf;
	s->pass.buf_size = buf ? buf_size : 0;
	s->pass.cb = cb;
	s->pass.ctx = ctx;
}

int fc_settings_load_subtree(struct fc_settings *s, const char *subtree, uint8_t *buf,
			     size_t buf_size, fc_settings_load_cb cb, void *ctx)
{
	int len = 0;

	if (subtree && subtree[0]) {
		len = fc_settings_name_len(subtree);
		if (len < 0)
			return len;
	}
	pass_set(s, buf, buf_size, cb, ctx);
	s->pass.subtree = subtree;
	s->pass.subtree_len = (size_t)len;
	return load(s);
}

int fc_settings_load(struct fc_settings *s, uint8_t *buf, size_t buf_size,
		     fc_settings_load_cb cb, void *ctx)
{
	pass_set(s, buf, buf_size, cb, ctx);
	s->pass.subtree_len = 0;
	return load(s);
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
