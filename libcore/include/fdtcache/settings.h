/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings.h - Zephyr settings_nvs-compatible names and values on NVS.
 *
 * On-flash layout, exactly as Zephyr's settings_nvs backend:
 *  - id 0x8000 holds last_name_id, the highest name id in use (u16 LE);
 *  - names are raw text without NUL at ids 0x8001..0xbfff;
 *  - a name's value is at name id + 0x4000.
 * A save of a new name writes last_name_id (if it grows), then the value,
 * then the name; a rewrite writes only the value. A power cut therefore
 * leaves at most a counter pointing at nothing, or a value without its name;
 * load repairs both as Zephyr does (orphans deleted, counter decremented).
 *
 * Name cache (caller memory, FC_SETTINGS_CACHE_INDEX): one u16 per name id,
 * the CRC-16 of the name stored there (0 for "no name"). After a load, or
 * after the first save without one, a name that is not stored is recognised
 * without reading flash, and a stored one costs one read of the candidate
 * names whose hash matches. Ids beyond the cache's length are scanned on
 * flash, as Zephyr does for every id. The Zephyr modes reproduce Zephyr's own
 * algorithms over the same format, for comparisons (not with FC_NO_EMULATION).
 */
#ifndef FDTCACHE_SETTINGS_H
#define FDTCACHE_SETTINGS_H

#include "fc_env.h"
#include "fc_err.h"
#include "nvs.h"

#define FC_SETTINGS_NAME_MAX 64          /* bytes, without NUL */
#define FC_SETTINGS_ID_COUNTER 0x8000u   /* last_name_id */
#define FC_SETTINGS_ID_NAME_FIRST 0x8001u
#define FC_SETTINGS_ID_NAME_LAST 0xbfffu
#define FC_SETTINGS_VALUE_OFFSET 0x4000u /* value id = name id + this */

enum fc_settings_cache_mode {
	/* Ours: cache[i] = stored hash of the name at id 0x8001 + i. */
	FC_SETTINGS_CACHE_INDEX = 0,
	/* Zephyr without CONFIG_SETTINGS_NVS_NAME_CACHE: every save scans
	 * every name id. cache is unused. */
	FC_SETTINGS_CACHE_ZEPHYR_NONE,
	/* Zephyr's ring of {hash, id} pairs (two u16 per entry), before the
	 * first-write fix: a name not in the ring costs a full scan. */
	FC_SETTINGS_CACHE_ZEPHYR_RING,
	/* The same ring with PR #69103: after a load, and while the ring has
	 * not overflowed, a name not in the ring is new (no scan). */
	FC_SETTINGS_CACHE_ZEPHYR_RING_FIX,
};

struct fc_settings_config {
	struct fc_nvs *fs;  /* mounted; settings only use fc_nvs_read/write/delete */
	enum fc_settings_cache_mode cache_mode;
	uint16_t *cache;    /* caller memory; may be NULL when cache_len is 0 */
	uint32_t cache_len; /* in u16: INDEX one per name id, ZEPHYR_RING two per entry */
};

/* Counters of the name lookups (the flash reads themselves are the device's). */
struct fc_settings_stats {
	uint32_t scan_reads;    /* name reads while scanning ids on flash */
	uint32_t confirm_reads; /* name reads confirming a hash hit */
	uint32_t scans;         /* saves, gets or deletes that scanned */
};

/* What load and scan report for one stored name. */
struct fc_settings_entry {
	const char *name;     /* NUL-terminated copy in s, valid during the callback */
	size_t name_len;
	uint16_t name_id;
	const uint8_t *value; /* the caller's buffer */
	size_t value_len;     /* stored length */
	size_t value_read;    /* bytes in value: min(value_len, buffer size) */
};

/* A non-zero return stops the load and is returned by it. */
typedef int (*fc_settings_load_cb)(void *ctx, const struct fc_settings_entry *e);

/* Private: where a name lives, or where a new one would go (settings.c). */
struct fc_settings_lookup_ {
	uint16_t id;      /* the name's id, when found */
	uint16_t free_id; /* lowest known free id, else last_name_id + 1 */
	uint16_t hash;    /* the name's CRC-16 */
	bool found;
	bool cached;      /* ZEPHYR_RING: found through the ring */
};

struct fc_settings {
	struct fc_settings_config cfg;
	uint16_t last_name_id;  /* as on flash, or 0x8000 when absent */
	bool ready;             /* INDEX: cache describes flash; RING: Zephyr's "loaded" */
	/* 0, or the error of the first repair write of the last load that
	 * failed for lack of space (FC_ENOSPC): what it should have removed
	 * stays, and the next load tries again */
	int repair_err;
	struct fc_settings_stats stats;
	/* private: settings.c's cache bookkeeping and name buffers */
	uint16_t lowest_hole;   /* INDEX: no free id in the cache below this id */
	struct fc_settings_lookup_ lu; /* the last lookup of a name */
	uint32_t ring_next;     /* ZEPHYR_RING*: next entry to overwrite */
	uint32_t ring_total;    /* ZEPHYR_RING*: Zephyr's cache_total */
	/* the arguments of the load in progress, the counter's bytes as
	 * written (or a value's first byte, Zephyr's length probe), the names
	 * read to compare (get, save, delete) and the one a load reports:
	 * here, not on the stack */
	struct {
		const char *subtree;
		size_t subtree_len;
		uint8_t *buf;
		size_t buf_size;
		fc_settings_load_cb cb;
		void *ctx;
	} pass;
	uint8_t scratch[2];
	char lookup_name[FC_SETTINGS_NAME_MAX + 1];
	char load_name[FC_SETTINGS_NAME_MAX + 2];
};

/*
 * fc_settings_name_len - validate a settings name: 1..FC_SETTINGS_NAME_MAX
 * bytes before the NUL, no '='.
 *
 * returns:
 *	its length (1..FC_SETTINGS_NAME_MAX)
 *	FC_ENAME, name NULL, empty, too long or with '='
 */
int fc_settings_name_len(const char *name);

/*
 * fc_settings_init - attach to a mounted nvs and read last_name_id (a
 * missing, short or out-of-range counter reads as 0x8000: no names).
 * Nothing is written. *cfg is copied; cfg->fs and cfg->cache are used until
 * s is no longer used.
 *
 * returns:
 *	0, attached
 *	FC_EINVAL, a bad configuration (NULL s, cfg or fs, unknown mode,
 *		cache_len > 0 with NULL cache, a ring of odd length, a Zephyr
 *		mode in an FC_NO_EMULATION build)
 *	FC_ENOTMOUNTED, cfg->fs is not mounted
 *	an nvs read error
 */
int fc_settings_init(struct fc_settings *s, const struct fc_settings_config *cfg);

/*
 * fc_settings_load - report every stored name and value, from
 * last_name_id down to 0x8001, and repair as Zephyr's load does: a name
 * without its value or a value without its name is deleted (both ids; one
 * failing its data CRC counts as missing); while the top id is empty, or
 * holds such a half pair, last_name_id is lowered, and written once at the
 * end. The value is read into buf (buf_size bytes, may be 0); a longer value
 * is cut, and e->value_len tells its size (read it whole with
 * fc_settings_get). Builds the name cache. A repair that does not fit (the
 * partition is full) does not stop the load: every setting is still
 * reported, the half pair stays (and the counter above it), and
 * s->repair_err says FC_ENOSPC.
 *
 * returns:
 *	0, every setting reported
 *	the callback's non-zero value: the load stops, the cache stays unbuilt
 *	an nvs error (reads, or a repair write the medium refused)
 */
int fc_settings_load(struct fc_settings *s, uint8_t *buf, size_t buf_size,
		     fc_settings_load_cb cb, void *ctx);

/*
 * fc_settings_load_subtree - as fc_settings_load, reporting only names equal
 * to subtree or below it ("a/b" matches "a/b" and "a/b/c", not "a/bc").
 * Values of other names are not read (only their presence is checked).
 * subtree NULL or "" reports everything.
 *
 * returns:
 *	as fc_settings_load
 *	FC_ENAME, an invalid subtree
 */
int fc_settings_load_subtree(struct fc_settings *s, const char *subtree, uint8_t *buf,
			     size_t buf_size, fc_settings_load_cb cb, void *ctx);

/*
 * fc_settings_get - read name's value into buf (up to len bytes).
 *
 * returns:
 *	the stored length (may exceed len: only len bytes are copied)
 *	FC_ENAME, an invalid name
 *	FC_ENOENT, name is not stored
 *	an nvs error
 */
int fc_settings_get(struct fc_settings *s, const char *name, void *buf, size_t len);

#ifndef FC_READONLY /* FC_READONLY: no saves, deletes or load-time repairs */
/*
 * fc_settings_save - store len bytes under name; len 0 deletes, as in
 * Zephyr. A new name takes the lowest free id known (ours, or Zephyr's
 * scan), else last_name_id + 1.
 *
 * returns:
 *	0, stored (or deleted)
 *	FC_ENAME, an invalid name
 *	FC_ENOSPC, no name id is left (the last usable one is 0xbffe: nvs
 *		reserves 0xffff, the value id of 0xbfff) or the nvs is full
 *	FC_ETOOBIG, the value does not fit in an nvs sector
 *	an nvs error (as fc_nvs_write, which may leave the nvs unmounted)
 */
int fc_settings_save(struct fc_settings *s, const char *name, const void *value, size_t len);

/*
 * fc_settings_delete - remove name and its value (name first); when name
 * had last_name_id, the counter is decremented and written. A missing name
 * is not an error.
 *
 * returns:
 *	0, removed, or name was not stored
 *	FC_ENAME, an invalid name
 *	an nvs error (as fc_nvs_write, which may leave the nvs unmounted)
 */
int fc_settings_delete(struct fc_settings *s, const char *name);
#endif /* FC_READONLY */

/*
 * Read-only scan, for tools (nvs-inspect): visits every name id
 * 0x8001..0xbfff, reads names and values with fc_nvs_read only, and NEVER
 * writes, deletes or repairs anything (unlike fc_settings_load). Use it on a
 * read-only device or a copy. It reports complete pairs through `pair` and
 * every inconsistency that load would repair, or that Zephyr would not see,
 * through `problem`.
 */
enum fc_settings_problem_kind {
	FC_SETTINGS_ORPHAN_NAME,    /* name without value: load deletes both */
	FC_SETTINGS_ORPHAN_VALUE,   /* value without name: load deletes both */
	FC_SETTINGS_COUNTER_TOP,    /* last_name_id's pair is absent: load lowers it */
	FC_SETTINGS_COUNTER_MISSING,/* no counter: names, if any, are invisible */
	FC_SETTINGS_COUNTER_BAD,    /* counter not 2 bytes or outside 0x8000..0xbfff */
	FC_SETTINGS_ABOVE_COUNTER,  /* name or value above last_name_id: load never sees it */
	FC_SETTINGS_NAME_INVALID,   /* stored name longer than 64 bytes, or with '=' or NUL */
	FC_SETTINGS_READ_ERROR,     /* fc_nvs_read failed (err), e.g. data CRC */
};

struct fc_settings_problem {
	enum fc_settings_problem_kind kind;
	uint16_t id;      /* the nvs id concerned */
	uint16_t counter; /* last_name_id as stored (0x8000 if absent) */
	int err;          /* FC_SETTINGS_READ_ERROR: the read's error */
};

struct fc_settings_scan_ops {
	/* Either may be NULL; a non-zero return stops the scan and is returned. */
	fc_settings_load_cb pair;
	int (*problem)(void *ctx, const struct fc_settings_problem *p);
};

/*
 * fc_settings_scan - read-only walk described above, over a mounted fs
 * (no settings init needed). Pairs are reported in decreasing id order, as
 * load would, including pairs above the counter (after their problem).
 * Cost: two fc_nvs_read per id, 32,766 in all; absent ids read no flash
 * when the nvs index holds every id (FC_NVS_LOOKUP_INDEX, enough slots).
 * Read errors are reported through ops->problem, not returned.
 *
 * returns:
 *	0, every id visited
 *	a callback's non-zero value, which stopped the scan
 *	FC_ENOTMOUNTED, fs NULL or not mounted
 */
int fc_settings_scan(struct fc_nvs *fs, uint8_t *buf, size_t buf_size,
		     const struct fc_settings_scan_ops *ops, void *ctx);

#endif /* FDTCACHE_SETTINGS_H */
