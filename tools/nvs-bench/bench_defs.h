/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_defs.h - nvs-bench knobs, -D/-G parsing and permutation expansion.
 *
 * Every knob holds a list of values (its default alone unless -D gives
 * more); geometries (-G) are one more dimension. A permutation is one pick
 * of a geometry and a value per knob. Permutations are numbered in mixed
 * radix: geometry slowest, then the knobs in table order, the last knob
 * fastest, so permutation i can be decoded without storing the expansion.
 */
#ifndef FDTCACHE_BENCH_DEFS_H
#define FDTCACHE_BENCH_DEFS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

enum bench_knob {
	BENCH_K_VARIANT,          /* engine algorithms: ours or Zephyr's */
	BENCH_K_SECTORS,
	BENCH_K_SECTOR_SIZE,      /* auto: the geometry's erase unit */
	BENCH_K_WRITE_BLOCK,      /* auto: the geometry's write unit */
	BENCH_K_VALUE_SIZE,
	BENCH_K_ENTRIES,
	BENCH_K_UPDATES,              /* auto: the workload's own count */
	BENCH_K_LOOKUP_SLOTS,     /* auto: 128 for Zephyr, every id for ours */
	BENCH_K_NAME_CACHE_SLOTS, /* auto: 256 for Zephyr, every name for ours */
	BENCH_K_ATE_CACHE,        /* auto: 256 bytes for ours, none for Zephyr */
	BENCH_K_DATA_CRC,
	BENCH_K_WAIT,
	BENCH_K_TICK_NS,
	BENCH_K_READ_CPU_NS,      /* CPU time of one flash read call of the engine */
	BENCH_K_SEED,
	BENCH_KNOB_COUNT
};

#define BENCH_AUTO (-1)

enum bench_variant {
	BENCH_VARIANT_OURS,
	BENCH_VARIANT_ZEPHYR_PRE, /* Zephyr before the first-write fix (PR #69103) */
	BENCH_VARIANT_ZEPHYR,     /* Zephyr after the fix */
	BENCH_VARIANT_ZMS,        /* ours on ZMS (bench_zms.h) */
	BENCH_VARIANT_ZMS_ZEPHYR, /* Zephyr's ZMS algorithms */
};

enum bench_wait {
	BENCH_WAIT_TICK,
	BENCH_WAIT_SPIN,
	BENCH_WAIT_ADAPTIVE,
};

struct bench_name {
	const char *name;
	int64_t value;
};

struct bench_knob_info {
	const char *name;
	const char *help;
	int64_t def;
	int64_t min, max;
	const struct bench_name *names; /* symbolic values, NULL-terminated; may be NULL */
	bool numeric;                   /* may take integers and range() */
};

/* Limits that keep a mistyped sweep from running for days. */
#define BENCH_MAX_VALUES 100000u
#define BENCH_MAX_PERMS 1000000u /* every row is kept in memory until the end */

struct bench_defs {
	GPtrArray *geometries;                /* char *, in -G order */
	GArray *values[BENCH_KNOB_COUNT];     /* int64_t */
	bool given[BENCH_KNOB_COUNT];         /* set by -D (defaults are not) */
	GHashTable *known[BENCH_KNOB_COUNT];  /* values[k] as a set, for bench_defs_add_value */
};

struct bench_perm {
	uint64_t index;
	const char *geometry;
	int64_t v[BENCH_KNOB_COUNT];
};

#define BENCH_DEFS_ERROR (bench_defs_error_quark())
GQuark bench_defs_error_quark(void);

enum bench_defs_error_code {
	BENCH_DEFS_ERROR_SYNTAX,  /* the -D text does not parse */
	BENCH_DEFS_ERROR_UNKNOWN, /* no such knob, value name or geometry */
	BENCH_DEFS_ERROR_RANGE,   /* a value outside the knob's limits */
	BENCH_DEFS_ERROR_TOO_MANY /* too many values or permutations */
};

const struct bench_knob_info *bench_knob(enum bench_knob k);
/* Returns the knob index or -1. */
int bench_knob_find(const char *name);
/* A value as text: its symbolic name if it has one, else decimal. */
void bench_knob_format(enum bench_knob k, int64_t v, char *buf, size_t len);
/* Parse one value as bench_knob_format writes it. */
gboolean bench_knob_parse_value(enum bench_knob k, const char *text, int64_t *v);

void bench_defs_init(struct bench_defs *defs);
void bench_defs_clear(struct bench_defs *defs);

/*
 * bench_defs_parse - apply one -D argument "NAME=ITEM[,ITEM...]", ITEM an
 * integer (decimal or 0x hex, optional K/M suffix for 1024/1048576), a
 * symbolic name, or range([start,]stop[,step]) (stop excluded, as Python).
 * Errors name the position (1-based column) in arg and show it with a caret.
 */
gboolean bench_defs_parse(struct bench_defs *defs, const char *arg, GError **err);

/*
 * bench_defs_add_geometries - append a -G list "a,b" after checking every
 * name against known (NULL-terminated).
 */
gboolean bench_defs_add_geometries(struct bench_defs *defs, const char *arg,
				   const char *const *known, GError **err);

/* Number of permutations; fails above BENCH_MAX_PERMS. */
gboolean bench_defs_count(const struct bench_defs *defs, uint64_t *count, GError **err);

/* Decode permutation index (< count) into perm. */
void bench_defs_perm(const struct bench_defs *defs, uint64_t index, struct bench_perm *perm);

/*
 * bench_defs_add_value - add v to knob k's values unless present; the
 * first call for a knob replaces its default (rebuilding defs from rows).
 * Constant time: a set of the values is kept beside the list.
 */
void bench_defs_add_value(struct bench_defs *defs, enum bench_knob k, int64_t v);

/* TRUE when knob k takes more than one value. */
gboolean bench_defs_varies(const struct bench_defs *defs, enum bench_knob k);

/* "  sectors  8  number of sectors..." lines for --help-defines. */
void bench_defs_describe(GString *out);

#endif /* FDTCACHE_BENCH_DEFS_H */
