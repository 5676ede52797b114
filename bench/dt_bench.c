/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dt_bench [DTB TRACE...]: one boot's phandle lookups per fixture,
 * timed for libfdt's uncached fdt_node_offset_by_phandle, Linux's mask and
 * hash32 64/128/256 caches (misses resolved through libfdt) and the complete
 * index including its build; then the cost of a cache hit against a load
 * from a plain array indexed by phandle. Boot figures are the median of
 * RUNS runs, hit figures the best of HIT_ROUNDS rounds, all in this
 * process; ratios are against libfdt / the array load.
 */
#include <glib.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"
#include "bench_hits.h"
#include "phandle/ph_trace.h"
#include "phandle/ph_tree.h"
#include "fdtcache/dt.h"

#define RUNS 15

struct fixture {
	void *fdt;
	struct fc_dt dt;
	struct ph_trace trace;
	const guint32 *ph;
	guint n;
};


/* One boot under libfdt alone: every lookup walks the tree. */
static double boot_libfdt(const struct fixture *f)
{
	double t0 = bench_now_ns();
	guint32 acc = 0;

	for (guint i = 0; i < f->n; i++)
		acc += (guint32)fdt_node_offset_by_phandle(f->fdt, f->ph[i]);
	sink = acc;
	return bench_now_ns() - t0;
}

/* One boot under a cache, from its boot state, core init where the trace says. */
static double boot_cached(const struct fixture *f, enum fc_dt_policy policy,
			  struct fc_cache_slot *slots, guint32 size)
{
	struct fc_dt_replay r;
	double t0 = bench_now_ns();
	guint32 acc = 0;

	fc_dt_replay_init(&r, &f->dt, policy, slots, size);
	for (guint i = 0; i < f->n; i++) {
		if (i == f->trace.core_init_at)
			fc_dt_replay_core_init(&r);
		acc += (guint32)fc_dt_replay_lookup(&r, f->ph[i]);
	}
	sink = acc;
	return bench_now_ns() - t0;
}

static void bench_boots(const char *name, const struct fixture *f)
{
	static const struct {
		const char *label;
		enum fc_dt_policy policy;
		guint32 size;
	} configs[] = {
		{ "mask", FC_DT_MASK, 0 },
		{ "hash32", FC_DT_HASH32, 64 },
		{ "hash32", FC_DT_HASH32, 128 },
		{ "hash32", FC_DT_HASH32, 256 },
		{ "index (incl. build)", FC_DT_INDEX, 0 },
	};
	double v[RUNS], base;

	printf("\n%s: %u nodes, %u phandles, %u lookups; one boot, median of %d\n", name,
	       f->dt.nnodes, f->dt.nphandles, f->n, RUNS);
	printf("  %-24s %6s %12s %12s %10s\n", "lookup", "slots", "total_us", "ns/lookup",
	       "speed-up");
	for (int r = 0; r < RUNS; r++)
		v[r] = boot_libfdt(f);
	base = bench_median(v, RUNS);
	printf("  %-24s %6s %12.1f %12.1f %9.1fx\n", "libfdt uncached", "-", base / 1e3,
	       base / f->n, 1.0);
	for (gsize c = 0; c < G_N_ELEMENTS(configs); c++) {
		guint32 size = configs[c].size;
		struct fc_cache_slot *slots;
		double t;

		if (configs[c].policy == FC_DT_MASK)
			size = fc_dt_mask_size(&f->dt);
		else if (configs[c].policy == FC_DT_INDEX)
			size = fc_dt_index_slots(f->dt.nphandles);
		slots = g_new(struct fc_cache_slot, size);
		for (int r = 0; r < RUNS; r++)
			v[r] = boot_cached(f, configs[c].policy, slots, size);
		t = bench_median(v, RUNS);
		printf("  %-24s %6u %12.1f %12.1f %9.1fx\n", configs[c].label, size, t / 1e3,
		       t / f->n, base / t);
		g_free(slots);
	}
}

static guint32 call_lookup(struct fc_cache *c, guint32 key)
{
	guint32 v = 0;

	fc_cache_lookup(c, key, &v);
	return v;
}

/* name(c, key): the value the inline hit path get finds for key, 0 on a miss. */
#define HIT_VALUE(name, get)                                              \
	static inline guint32 name(const struct fc_cache *c, guint32 key) \
	{                                                                 \
		guint32 v = 0;                                            \
                                                                          \
		get(c, key, &v);                                          \
		return v;                                                 \
	}

HIT_VALUE(mask_get, fc_cache_mask_get)
HIT_VALUE(hash32_get, fc_cache_hash32_get)
HIT_VALUE(probe_get, fc_cache_probe_get)

enum { HIT_ARRAY, HIT_CALL, HIT_MASK, HIT_HASH32, HIT_INDEX, HIT_INDEX_CALL, NHIT };

static const char *const hit_labels[NHIT] = {
	"plain array[phandle] load",
	"mask hit (fc_cache_lookup, a call)",
	"mask hit (fc_cache_mask_get)",
	"hash32-1024 hit (fc_cache_hash32_get)",
	"index hit (fc_cache_probe_get)",
	"index hit (fc_dt_index_lookup, a call)",
};

/* One timing of every hit path, throughput (chain false) or latency. */
static void time_hit_round(double *out, gboolean chain, const guint32 *keys, guint nkeys,
			   const guint32 *array, struct fc_cache *mask,
			   const struct fc_cache *hash, struct fc_cache *index)
{
#define HIT_PATHS(T)                                                            \
	T(HIT_ARRAY, array[key])                                                \
	T(HIT_CALL, call_lookup(mask, key))                                     \
	T(HIT_MASK, mask_get(mask, key))                                        \
	T(HIT_HASH32, hash32_get(hash, key))                                    \
	T(HIT_INDEX, probe_get(index, key))                                     \
	T(HIT_INDEX_CALL, (guint32)fc_dt_index_lookup(index, key))
#define TIME_TPUT(h, expr) TIME_HITS(out[h], keys, nkeys, expr);
#define TIME_LAT(h, expr) TIME_CHAIN(out[h], keys, nkeys, expr);
	if (!chain) {
		HIT_PATHS(TIME_TPUT)
	} else {
		HIT_PATHS(TIME_LAT)
	}
}

static void bench_hits(const char *name, const struct fixture *f)
{
	guint32 maxph = 0, size = fc_dt_mask_size(&f->dt);
	guint32 isize = fc_dt_index_slots(f->dt.nphandles);
	struct fc_cache_slot *mslots = g_new(struct fc_cache_slot, size);
	struct fc_cache_slot *islots = g_new(struct fc_cache_slot, isize);
	struct fc_cache_slot hslots[1024];
	struct fc_cache mask, hash, index;
	guint32 *keys = g_new(guint32, f->n);
	guint32 *array;
	guint nkeys = 0;

	/* mask sized to the phandles, all stored: with dtc's 1..n every lookup hits */
	fc_cache_init(&mask, FC_CACHE_MASK, mslots, size);
	fc_cache_init(&hash, FC_CACHE_HASH32, hslots, G_N_ELEMENTS(hslots));
	fc_dt_index_build(&index, f->fdt, islots, isize);
	for (guint32 i = 0; i < f->dt.nnodes; i++) {
		if (f->dt.nodes[i].phandle)
			fc_cache_prefill(&mask, f->dt.nodes[i].phandle, (guint32)f->dt.nodes[i].offset,
					 FC_CACHE_OVERWRITE);
		if (f->dt.nodes[i].phandle)
			fc_cache_prefill(&hash, f->dt.nodes[i].phandle, (guint32)f->dt.nodes[i].offset,
					 FC_CACHE_IF_EMPTY);
		maxph = MAX(maxph, f->dt.nodes[i].phandle);
	}
	array = g_new0(guint32, (gsize)maxph + 1);
	for (guint32 i = 0; i < f->dt.nnodes; i++)
		array[f->dt.nodes[i].phandle] = (guint32)f->dt.nodes[i].offset;
	for (guint i = 0; i < f->n; i++)
		if (fc_cache_peek(&mask, f->ph[i], NULL) && fc_cache_peek(&hash, f->ph[i], NULL))
			keys[nkeys++] = f->ph[i];
	printf("\n%s: hit cost over the trace's %u lookups resident in both caches\n"
	       "(best of %d rounds of %d passes; each round times every path in turn)\n",
	       name, nkeys, HIT_ROUNDS, HIT_PASSES);
	printf("  %-40s %11s %8s %11s %8s\n", "lookup", "throughput", "vs array", "latency",
	       "vs array");
	{
		/*
		 * Best of HIT_ROUNDS: a hit's own cost is its fastest run; a busy
		 * host (another VM on the sibling hyper-thread) only adds to it,
		 * and more to the longer instruction streams.
		 */
		double tput[NHIT], lat[NHIT], round[NHIT];

		for (int h = 0; h < NHIT; h++)
			tput[h] = lat[h] = G_MAXDOUBLE;
		for (int r = 0; r < HIT_ROUNDS; r++) {
			time_hit_round(round, FALSE, keys, nkeys, array, &mask, &hash, &index);
			for (int h = 0; h < NHIT; h++)
				tput[h] = MIN(tput[h], round[h]);
			time_hit_round(round, TRUE, keys, nkeys, array, &mask, &hash, &index);
			for (int h = 0; h < NHIT; h++)
				lat[h] = MIN(lat[h], round[h]);
		}
		for (int h = 0; h < NHIT; h++)
			printf("  %-40s %8.2f ns %7.2fx %8.2f ns %7.2fx\n", hit_labels[h], tput[h],
			       tput[h] / tput[HIT_ARRAY], lat[h], lat[h] / lat[HIT_ARRAY]);
	}
	g_free(array);
	g_free(keys);
	g_free(islots);
	g_free(mslots);
}

static gboolean load(struct fixture *f, const char *dtb, const char *trace)
{
	GError *error = NULL;
	gsize len;
	int count;

	f->fdt = ph_dtb_load(dtb, &len, &error);
	ph_trace_init(&f->trace);
	if (!f->fdt || !ph_trace_load(&f->trace, trace, &error)) {
		fprintf(stderr, "dt_bench: %s\n", error->message);
		g_error_free(error);
		return FALSE;
	}
	count = fc_dt_count_nodes(f->fdt);
	fc_dt_init(&f->dt, f->fdt, g_new(struct fc_dt_node, MAX(count, 1)), (guint32)MAX(count, 0));
	f->ph = (const guint32 *)(void *)f->trace.phandles->data;
	f->n = f->trace.phandles->len;
	return TRUE;
}

/*
 * Without arguments: the fixtures (DTBs from the build tree, traces from the
 * source) and the kernel-built rk3399-rock960.
 */
static char **default_args(int *argc)
{
	static const char *const boards[] = { "small-board", "board-500", "soc-900" };
	int n = 2 * (int)G_N_ELEMENTS(boards) + 2;
	char **argv = g_new0(char *, n + 2);

	argv[0] = g_strdup("dt_bench");
	for (gsize i = 0; i < G_N_ELEMENTS(boards); i++) {
		argv[1 + 2 * i] = g_strdup_printf("fixtures/dt/%s.dtb", boards[i]);
		argv[2 + 2 * i] = g_strdup_printf("%s/fixtures/traces/%s.trace", FC_SRCDIR, boards[i]);
	}
	argv[n - 1] = g_strdup_printf("%s/fixtures/dt/kernel/rk3399-rock960.dtb", FC_SRCDIR);
	argv[n] = g_strdup_printf("%s/fixtures/traces/rk3399-rock960.trace", FC_SRCDIR);
	*argc = n + 1;
	return argv;
}

int main(int argc, char **argv)
{
	if (argc == 1)
		argv = default_args(&argc);
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: dt_bench [DTB TRACE...] (default: the fixtures)\n");
		return 2;
	}
	printf("dt_bench: phandle lookups, this host, one process\n");
	for (int a = 1; a + 1 < argc; a += 2) {
		struct fixture f;
		char *name = g_path_get_basename(argv[a]);

		if (!load(&f, argv[a], argv[a + 1]))
			return 1;
		bench_boots(name, &f);
		bench_hits(name, &f);
		ph_trace_clear(&f.trace);
		g_free(f.dt.nodes);
		g_free(f.fdt);
		g_free(name);
	}
	return 0;
}
