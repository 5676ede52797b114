/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dt_lookup_bench [DTB...]: the lookups a driver-model bootloader makes while
 * it binds every enabled node, timed under libfdt (uncached) and under
 * libcore's node table with its caches, side by side in one process.
 *
 * The workload is the trace `fdtcache-trace --model bootloader` writes for
 * the DTB (tools/phandle/ph_gen_bootloader.c holds its rules: aliases,
 * /chosen and stdout-path, per enabled node its parent and reg cells, each
 * phandle reference with its provider's #cells, the interrupt-parent climb),
 * generated untimed and replayed in its order.
 * libfdt answers with fdt_path_offset, fdt_parent_offset, fdt_address_cells
 * + fdt_size_cells, fdt_getprop and fdt_node_offset_by_phandle; libcore with
 * fc_dt_path_offset, fc_dt_alias_offset, fc_dt_parent_offset, fc_dt_reg_cells,
 * fc_dt_cells and the complete phandle index, its build included in the
 * whole-workload figure. Figures are medians of RUNS runs; "vs array" is a
 * warm libcore lookup against the same loop reading the answer from an array.
 */
#include <glib.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "bench_hits.h"
#include "fdtcache/dt.h"
#include "ph_gen.h"

#define RUNS 21
#define PATH_SLOTS 256
#define PROP_SLOTS 512

enum op_kind { OP_PHANDLE, OP_PATH, OP_ALIAS, OP_PARENT, OP_REG_CELLS, OP_CELLS, NKINDS };

static const char *const kind_names[NKINDS] = { "phandle", "path",      "alias",
						"parent",  "reg cells", "#cells" };

struct op {
	enum op_kind kind;
	int node;         /* node offset (parent, reg cells, cells) */
	uint32_t phandle; /* phandle */
	const char *str;  /* path, alias or cells property name */
	uint32_t len;
	int id; /* cells: the name's index in struct core's cell_names */
};

static void push(GArray *ops, enum op_kind kind, int node, uint32_t phandle, const char *str,
		 uint32_t len)
{
	struct op op = { kind, node, phandle, str, len, -1 };

	g_array_append_val(ops, op);
}

static const enum op_kind op_of_kind[PH_KINDS] = {
	[PH_KIND_PATH] = OP_PATH,	      [PH_KIND_ALIAS] = OP_ALIAS,
	[PH_KIND_PARENT] = OP_PARENT,	      [PH_KIND_REG_CELLS] = OP_REG_CELLS,
	[PH_KIND_CELLS] = OP_CELLS,
};

static void push_typed(GArray *ops, const void *fdt, const struct ph_typed *t)
{
	int node = t->kind == PH_KIND_PATH || t->kind == PH_KIND_ALIAS ? 0
									 : fdt_path_offset(fdt, t->arg);

	push(ops, op_of_kind[t->kind], node, 0, t->kind == PH_KIND_CELLS ? t->cells : t->arg,
	     (uint32_t)strlen(t->arg));
}

/* The bootloader model's trace of fdt (fdtcache-trace --model bootloader) as ops, in order. */
static GArray *build_workload(const void *fdt, struct ph_trace *trace)
{
	GArray *ops = g_array_new(FALSE, FALSE, sizeof(struct op));
	struct ph_gen_opts opts;
	struct ph_tree tree;
	guint t = 0;

	ph_gen_defaults(&opts, PH_MODEL_BOOTLOADER);
	ph_tree_build(&tree, fdt, fdt_totalsize(fdt));
	ph_trace_init(trace);
	ph_gen(trace, &tree, "", &opts, NULL);
	ph_tree_clear(&tree);
	for (guint i = 0; i <= ph_trace_lookups(trace); i++) {
		for (; t < ph_trace_typed(trace) && ph_trace_typed_at(trace, t)->at == i; t++)
			push_typed(ops, fdt, ph_trace_typed_at(trace, t));
		if (i < ph_trace_lookups(trace))
			push(ops, OP_PHANDLE, 0, ph_trace_at(trace, i), NULL, 0);
	}
	return ops;
}

/* ---- the two implementations ---- */


/* libfdt's answer to an op (a namelen path, as fdt_path_offset_namelen). */
static int libfdt_op(const void *fdt, const struct op *op)
{
	int parent, len;
	const fdt32_t *c;

	switch (op->kind) {
	case OP_PHANDLE:
		return fdt_node_offset_by_phandle(fdt, op->phandle);
	case OP_PATH:
	case OP_ALIAS:
		return fdt_path_offset_namelen(fdt, op->str, (int)op->len);
	case OP_PARENT:
		return fdt_parent_offset(fdt, op->node);
	case OP_REG_CELLS:
		parent = fdt_parent_offset(fdt, op->node);
		return fdt_address_cells(fdt, parent) * 8 + fdt_size_cells(fdt, parent);
	case OP_CELLS:
		c = fdt_getprop(fdt, op->node, op->str, &len);
		return c && len == 4 ? (int)fdt32_to_cpu(*c) : -FDT_ERR_NOTFOUND;
	default:
		return -1;
	}
}

struct core {
	struct fc_dt dt;
	struct fc_dt_node *nodes;
	uint32_t nnodes;
	struct fc_dt_lookups lk;
	struct fc_cache index;
	struct fc_cache_slot *index_slots;
	uint32_t nindex;
	struct fc_dt_path_slot path_slots[PATH_SLOTS];
	struct fc_cache_slot prop_slots[PROP_SLOTS];
	struct fc_cache_slot *node_slots;
	uint32_t nnode_slots;
	struct fc_cache_slot cell_slots[PROP_SLOTS];
	const char *cell_names[FC_DT_CELL_NAMES]; /* registered in this order: ids */
	int ncell_names;
};

/* Give each cells op the id its name is registered under (-1: no id left). */
static void assign_cell_ids(struct core *c, GArray *ops)
{
	for (guint i = 0; i < ops->len; i++) {
		struct op *op = &g_array_index(ops, struct op, i);
		int id;

		if (op->kind != OP_CELLS)
			continue;
		for (id = 0; id < c->ncell_names && strcmp(c->cell_names[id], op->str); id++)
			;
		if (id == c->ncell_names && id < FC_DT_CELL_NAMES)
			c->cell_names[c->ncell_names++] = op->str;
		op->id = id < c->ncell_names ? id : -1;
	}
}

/* Node table, phandle index and lookup caches, from nothing. */
static void core_build(struct core *c, const void *fdt, uint32_t npath)
{
	struct fc_dt_lookups_config cfg = { .path_slots = c->path_slots,
					    .npath = npath,
					    .prop_slots = c->prop_slots,
					    .nprops = PROP_SLOTS,
					    .node_slots = c->node_slots,
					    .nnode = c->nnode_slots,
					    .cell_slots = c->cell_slots,
					    .ncells = PROP_SLOTS };

	fc_dt_init(&c->dt, fdt, c->nodes, c->nnodes);
	fc_dt_index_build(&c->index, fdt, c->index_slots, c->nindex);
	fc_dt_lookups_init(&c->lk, &c->dt, &cfg);
	for (int id = 0; id < c->ncell_names; id++)
		fc_dt_cells_name(&c->lk, c->cell_names[id]);
}

static int core_op(struct core *c, const struct op *op)
{
	uint32_t ac, sc, off;

	switch (op->kind) {
	case OP_PHANDLE:
		return fc_cache_probe_get(&c->index, op->phandle, &off) ? (int)off : -1;
	case OP_PATH:
		return fc_dt_path_offset(&c->lk, op->str, op->len);
	case OP_ALIAS:
		return fc_dt_alias_offset(&c->lk, op->str, op->len);
	case OP_PARENT:
		return fc_dt_parent_offset(&c->lk, op->node);
	case OP_REG_CELLS:
		return fc_dt_reg_cells(&c->lk, op->node, &ac, &sc) < 0 ? -1 : (int)(ac * 8 + sc);
	case OP_CELLS:
		return op->id >= 0 ? fc_dt_cells_id(&c->lk, op->node, op->id)
				   : fc_dt_cells(&c->lk, op->node, op->str);
	default:
		return -1;
	}
}

/*
 * An op as a caller in a loop makes it: the inline hit path first (dt.h,
 * cache.h: no call, no statistics), the counted call on a miss.
 */
static int core_hit_op(struct core *c, const struct op *op)
{
	uint32_t ac, sc, v;
	int off;

	switch (op->kind) {
	case OP_PATH:
		return fc_dt_path_get(&c->lk, op->str, op->len, &off) ? off : core_op(c, op);
	case OP_ALIAS:
		return fc_dt_alias_get(&c->lk, op->str, op->len, &off) ? off : core_op(c, op);
	case OP_PARENT:
		return fc_dt_parent_get(&c->lk, op->node, &off) ? off : core_op(c, op);
	case OP_REG_CELLS:
		return fc_dt_reg_cells_get(&c->lk, op->node, &ac, &sc) ? (int)(ac * 8 + sc)
								       : core_op(c, op);
	case OP_CELLS:
		return fc_dt_cells_get(&c->lk, op->node, op->id, &v) ? (int)v : core_op(c, op);
	default:
		return core_op(c, op);
	}
}

/* Median ns of one pass over ops of kind (NKINDS: all) under libfdt. */
static double time_libfdt(const void *fdt, const GArray *ops, int kind)
{
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();
		int acc = 0;

		for (guint i = 0; i < ops->len; i++) {
			const struct op *op = &g_array_index(ops, struct op, i);

			if (kind == NKINDS || (int)op->kind == kind)
				acc += libfdt_op(fdt, op);
		}
		sink = (guint32)acc;
		v[r] = bench_now_ns() - t0;
	}
	return bench_median(v, RUNS);
}

/*
 * The baseline of a hit: the same loop over ops of kind, each answered by a
 * load from a plain array (the op's precomputed answer).
 */
static double time_array(const GArray *ops, const int *answers, int kind)
{
	/* volatile: one load per op, as a lookup makes, not a vectorised sum */
	const volatile int *table = answers;
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();
		int acc = 0;

		for (guint i = 0; i < ops->len; i++)
			if (kind == NKINDS || (int)g_array_index(ops, struct op, i).kind == kind)
				acc += table[i];
		sink = (guint32)acc;
		v[r] = bench_now_ns() - t0;
	}
	return bench_median(v, RUNS);
}

/*
 * The floor of any lookup keyed by a string whose hit is verified: the
 * array load plus one comparison of the key's bytes with a stored copy.
 */
static double time_key_compare(const GArray *ops, const int *answers)
{
	const volatile int *table = answers;
	GPtrArray *copies = g_ptr_array_new_with_free_func(g_free);
	double v[RUNS];

	for (guint i = 0; i < ops->len; i++) {
		const struct op *op = &g_array_index(ops, struct op, i);

		g_ptr_array_add(copies, g_memdup2(op->str, op->len));
	}
	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();
		int acc = 0;

		for (guint i = 0; i < ops->len; i++) {
			const struct op *op = &g_array_index(ops, struct op, i);

			acc += table[i] + !memcmp(op->str, g_ptr_array_index(copies, i), op->len);
		}
		sink = (guint32)acc;
		v[r] = bench_now_ns() - t0;
	}
	g_ptr_array_free(copies, TRUE);
	return bench_median(v, RUNS);
}

/*
 * The same under libcore; build: time the table/index/cache set-up too;
 * inline: through the inline hit paths (core_hit_op), else the calls.
 */
static double time_core(struct core *c, const void *fdt, const GArray *ops, int kind,
			gboolean build, gboolean inline_hits, uint32_t npath)
{
	double v[RUNS];

	core_build(c, fdt, npath);
	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();
		int acc = 0;

		if (build)
			core_build(c, fdt, npath);
		for (guint i = 0; i < ops->len; i++) {
			const struct op *op = &g_array_index(ops, struct op, i);

			if (kind == NKINDS || (int)op->kind == kind)
				acc += inline_hits ? core_hit_op(c, op) : core_op(c, op);
		}
		sink = (guint32)acc;
		v[r] = bench_now_ns() - t0;
	}
	return bench_median(v, RUNS);
}

/* Every op must get the same answer from both. */
static void check_answers(struct core *c, const void *fdt, const GArray *ops, const char *name)
{
	core_build(c, fdt, PATH_SLOTS);
	for (guint i = 0; i < ops->len; i++) {
		const struct op *op = &g_array_index(ops, struct op, i);
		int a = libfdt_op(fdt, op), b = core_op(c, op), h = core_hit_op(c, op);

		if ((a < 0) != (b < 0) || (a >= 0 && a != b) || h != b) {
			fprintf(stderr, "%s: op %u (%s) differs: libfdt %d, libcore %d, hit path %d\n",
				name, i, kind_names[op->kind], a, b, h);
			exit(1);
		}
	}
}

/* ns of one fdt_node_offset_by_phandle, averaged over every phandle. */
static double time_uncached_lookup(const void *fdt, const struct fc_dt *dt)
{
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();
		int acc = 0;

		for (uint32_t i = 0; i < dt->nnodes; i++)
			if (dt->nodes[i].phandle)
				acc += fdt_node_offset_by_phandle(fdt, dt->nodes[i].phandle);
		sink = (guint32)acc;
		v[r] = (bench_now_ns() - t0) / dt->nphandles;
	}
	return bench_median(v, RUNS);
}

static double time_setup(const void *fdt, struct core *c, gboolean table)
{
	double v[RUNS];

	for (int r = 0; r < RUNS; r++) {
		double t0 = bench_now_ns();

		if (table)
			fc_dt_init(&c->dt, fdt, c->nodes, c->nnodes);
		else
			fc_dt_index_build(&c->index, fdt, c->index_slots, c->nindex);
		v[r] = bench_now_ns() - t0;
	}
	return bench_median(v, RUNS);
}

/* The paths every node has, and one missing below each: for the miss cost. */
static GArray *node_paths(const void *fdt, GStringChunk *chunk)
{
	GArray *ops = g_array_new(FALSE, FALSE, sizeof(struct op));
	char path[1024];

	for (int node = 0; node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		char *missing;

		if (fdt_get_path(fdt, node, path, sizeof(path)) < 0)
			continue;
		push(ops, OP_PATH, 0, 0, g_string_chunk_insert(chunk, path), (uint32_t)strlen(path));
		missing = g_strdup_printf("%s/no-such-node", node ? path : "");
		push(ops, OP_PATH, 0, 0, g_string_chunk_insert(chunk, missing),
		     (uint32_t)strlen(missing));
		g_free(missing);
	}
	return ops;
}

/* ---- inline hit paths against a plain array load (as dt_bench for phandles) ---- */

static inline guint32 parent_hit(const struct fc_dt_lookups *lk, guint32 key)
{
	int p = 0;

	fc_dt_parent_get(lk, (int)key, &p);
	return (guint32)p;
}

static inline guint32 reg_cells_hit(const struct fc_dt_lookups *lk, guint32 key)
{
	uint32_t ac = 0, sc = 0;

	fc_dt_reg_cells_get(lk, (int)key, &ac, &sc);
	return ac * 8 + sc;
}

/* key: node offset << 2 | name id, as the cells cache keys it */
static inline guint32 cells_hit(const struct fc_dt_lookups *lk, guint32 key)
{
	uint32_t v = 0;

	fc_dt_cells_get(lk, (int)(key >> 2 & ~3u), (int)(key & 15), &v);
	return v;
}

enum { NH_ARRAY, NH_PARENT, NH_REG_CELLS, NH_CELLS, NNH };

static const char *const nh_labels[NNH] = {
	"plain array[offset / 4] load",
	"parent hit (fc_dt_parent_get)",
	"reg cells hit (fc_dt_reg_cells_get)",
	"#cells hit (fc_dt_cells_get)",
};

/* The workload's keys of one kind whose inline path hits, after one counted pass. */
static guint collect_hits(struct core *c, const GArray *ops, enum op_kind kind, guint32 *keys)
{
	guint n = 0;
	uint32_t ac, sc, v;
	int p;

	for (guint i = 0; i < ops->len; i++) {
		const struct op *op = &g_array_index(ops, struct op, i);
		gboolean hit;

		if (op->kind != kind)
			continue;
		core_op(c, op);
		hit = kind == OP_PARENT	     ? fc_dt_parent_get(&c->lk, op->node, &p)
		      : kind == OP_REG_CELLS ? fc_dt_reg_cells_get(&c->lk, op->node, &ac, &sc)
					     : fc_dt_cells_get(&c->lk, op->node, op->id, &v);
		if (hit)
			keys[n++] = kind == OP_CELLS ? (guint32)op->node << 2 | (guint32)op->id
						     : (guint32)op->node;
	}
	return n;
}

/* One round: every path in turn, throughput (chain false) or latency. */
static void time_node_round(double *out, gboolean chain, guint32 *const keys[NNH],
			    const guint *nkeys, const guint32 *array, const struct fc_dt_lookups *lk)
{
#define NODE_PATHS(T)                                                           \
	T(NH_ARRAY, array[key >> 2])                                            \
	T(NH_PARENT, parent_hit(lk, key))                                       \
	T(NH_REG_CELLS, reg_cells_hit(lk, key))                                 \
	T(NH_CELLS, cells_hit(lk, key))
#define NODE_TPUT(h, expr) TIME_HITS(out[h], keys[h], nkeys[h], expr);
#define NODE_LAT(h, expr) TIME_CHAIN(out[h], keys[h], nkeys[h], expr);
	if (!chain) {
		NODE_PATHS(NODE_TPUT)
	} else {
		NODE_PATHS(NODE_LAT)
	}
}

static void bench_node_hits(struct core *c, const void *fdt, const GArray *ops)
{
	guint32 *keys[NNH], *array;
	guint nkeys[NNH];
	double tput[NNH], lat[NNH], round[NNH];
	guint32 size = fdt_size_dt_struct(fdt) / 4 + 1;

	core_build(c, fdt, PATH_SLOTS);
	for (int h = 0; h < NNH; h++)
		keys[h] = g_new(guint32, ops->len);
	nkeys[NH_PARENT] = collect_hits(c, ops, OP_PARENT, keys[NH_PARENT]);
	nkeys[NH_REG_CELLS] = collect_hits(c, ops, OP_REG_CELLS, keys[NH_REG_CELLS]);
	nkeys[NH_CELLS] = collect_hits(c, ops, OP_CELLS, keys[NH_CELLS]);
	/* the array is read with the parent lookups' keys */
	nkeys[NH_ARRAY] = nkeys[NH_PARENT];
	memcpy(keys[NH_ARRAY], keys[NH_PARENT], nkeys[NH_PARENT] * sizeof(guint32));
	array = g_new0(guint32, size);
	for (guint32 i = 0; i < c->dt.nnodes; i++)
		array[c->dt.nodes[i].offset / 4] = (guint32)c->dt.nodes[c->dt.nodes[i].parent].offset;
	for (int h = 0; h < NNH; h++)
		tput[h] = lat[h] = G_MAXDOUBLE;
	for (int r = 0; r < HIT_ROUNDS && nkeys[NH_ARRAY]; r++) {
		time_node_round(round, FALSE, keys, nkeys, array, &c->lk);
		for (int h = 0; h < NNH; h++)
			tput[h] = MIN(tput[h], round[h]);
		time_node_round(round, TRUE, keys, nkeys, array, &c->lk);
		for (int h = 0; h < NNH; h++)
			lat[h] = MIN(lat[h], round[h]);
	}
	printf("  inline hit paths over the workload's resident keys (best of %d rounds):\n",
	       HIT_ROUNDS);
	printf("  %-40s %6s %11s %8s %11s %8s\n", "lookup", "keys", "throughput", "vs array",
	       "latency", "vs array");
	for (int h = 0; h < NNH; h++) {
		if (nkeys[h])
			printf("  %-40s %6u %8.2f ns %7.2fx %8.2f ns %7.2fx\n", nh_labels[h],
			       nkeys[h], tput[h], tput[h] / tput[NH_ARRAY], lat[h],
			       lat[h] / lat[NH_ARRAY]);
		g_free(keys[h]);
	}
	g_free(array);
}

/* ---- path and alias hit paths against the floor: an array load and one memcmp of the key ---- */

/* A resident name key: the bytes looked up and a copy, for the floor's memcmp. */
struct name_key {
	const char *str;
	uint32_t len;
	char *copy;
};

static inline guint32 floor_hit(const struct name_key *nk, const guint32 *array, guint32 key)
{
	return array[key] + !memcmp(nk[key].str, nk[key].copy, nk[key].len);
}

/* inlined as in a caller's loop: an out-of-line wrapper's call would be timed with the hit */
static FC_ALWAYS_INLINE guint32 path_hit(const struct fc_dt_lookups *lk,
					 const struct name_key *nk, guint32 key)
{
	int off = 0;

	fc_dt_path_get(lk, nk[key].str, nk[key].len, &off);
	return (guint32)off;
}

static FC_ALWAYS_INLINE guint32 alias_hit(const struct fc_dt_lookups *lk,
					  const struct name_key *nk, guint32 key)
{
	int off = 0;

	fc_dt_alias_get(lk, nk[key].str, nk[key].len, &off);
	return (guint32)off;
}

/* The ops of kind whose inline path hits after one counted call, as name keys 0..n-1. */
static guint collect_names(struct core *c, const GArray *ops, enum op_kind kind,
			   struct name_key *nk, guint32 *array, guint32 *keys)
{
	guint n = 0;
	int off;

	for (guint i = 0; i < ops->len; i++) {
		const struct op *op = &g_array_index(ops, struct op, i);

		if (op->kind != kind)
			continue;
		core_op(c, op);
		if (kind == OP_PATH ? fc_dt_path_get(&c->lk, op->str, op->len, &off)
				    : fc_dt_alias_get(&c->lk, op->str, op->len, &off)) {
			nk[n] = (struct name_key){ op->str, op->len, g_memdup2(op->str, op->len) };
			array[n] = (guint32)off;
			keys[n] = n;
			n++;
		}
	}
	return n;
}

/* One kind's hit path and its floor, best of HIT_ROUNDS rounds each. */
static void bench_name_kind(struct core *c, const GArray *ops, enum op_kind kind)
{
	struct name_key *nk = g_new0(struct name_key, ops->len);
	guint32 *array = g_new0(guint32, ops->len), *keys = g_new0(guint32, ops->len);
	guint n = collect_names(c, ops, kind, nk, array, keys);
	double t[4] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE }, r[4];
	const struct fc_dt_lookups *lk = &c->lk;

	for (int round = 0; round < HIT_ROUNDS && n; round++) {
		TIME_HITS(r[0], keys, n, floor_hit(nk, array, key));
		TIME_CHAIN(r[1], keys, n, floor_hit(nk, array, key));
		if (kind == OP_PATH) {
			TIME_HITS(r[2], keys, n, path_hit(lk, nk, key));
			TIME_CHAIN(r[3], keys, n, path_hit(lk, nk, key));
		} else {
			TIME_HITS(r[2], keys, n, alias_hit(lk, nk, key));
			TIME_CHAIN(r[3], keys, n, alias_hit(lk, nk, key));
		}
		for (int h = 0; h < 4; h++)
			t[h] = MIN(t[h], r[h]);
	}
	if (n) {
		printf("  %-40s %6u %8.2f ns %7.2fx %8.2f ns %7.2fx\n",
		       kind == OP_PATH ? "path: array load + memcmp of the key"
				       : "alias: array load + memcmp of the key",
		       n, t[0], 1.0, t[1], 1.0);
		printf("  %-40s %6u %8.2f ns %7.2fx %8.2f ns %7.2fx\n",
		       kind == OP_PATH ? "path hit (fc_dt_path_get)" : "alias hit (fc_dt_alias_get)",
		       n, t[2], t[2] / t[0], t[3], t[3] / t[1]);
	}
	for (guint i = 0; i < n; i++)
		g_free(nk[i].copy);
	g_free(nk);
	g_free(array);
	g_free(keys);
}

static void bench_name_hits(struct core *c, const void *fdt, const GArray *ops)
{
	core_build(c, fdt, PATH_SLOTS);
	printf("  path and alias hit paths over the workload's resident keys, against the floor of "
	       "a verified string-keyed lookup (best of %d rounds):\n", HIT_ROUNDS);
	printf("  %-40s %6s %11s %8s %11s %8s\n", "lookup", "keys", "throughput", "vs floor",
	       "latency", "vs floor");
	bench_name_kind(c, ops, OP_PATH);
	bench_name_kind(c, ops, OP_ALIAS);
}

static void bench_dtb(const char *file)
{
	gchar *fdt;
	gsize size;
	struct core c = { 0 };
	GArray *ops, *paths;
	struct ph_trace trace;
	GStringChunk *chunk = g_string_chunk_new(4096);
	double base, ours, lib, one;
	int *answers;

	if (!g_file_get_contents(file, &fdt, &size, NULL) || fdt_check_full(fdt, size)) {
		fprintf(stderr, "dt_lookup_bench: %s: not a readable, valid DTB\n", file);
		exit(1);
	}
	c.nnodes = (uint32_t)fc_dt_count_nodes(fdt);
	c.nodes = g_new(struct fc_dt_node, c.nnodes);
	fc_dt_init(&c.dt, fdt, c.nodes, c.nnodes);
	c.nindex = fc_dt_index_slots(c.dt.nphandles);
	c.index_slots = g_new(struct fc_cache_slot, c.nindex);
	c.nnode_slots = fc_dt_index_slots(c.nnodes);
	c.node_slots = g_new(struct fc_cache_slot, c.nnode_slots);
	ops = build_workload(fdt, &trace);
	assign_cell_ids(&c, ops);
	answers = g_new(int, ops->len);
	check_answers(&c, fdt, ops, file);

	printf("\n%s: %u nodes, %u phandles; bootloader-shaped workload of %u lookups\n", file,
	       c.nnodes, c.dt.nphandles, ops->len);
	printf("  %-10s %6s %12s %11s %9s %8s %9s %11s\n", "kind", "count", "libfdt ns",
	       "libcore ns", "speed-up", "hit ns", "vs array", "vs key cmp");
	for (int k = 0; k < NKINDS; k++) {
		GArray *sub = g_array_new(FALSE, FALSE, sizeof(struct op));

		for (guint i = 0; i < ops->len; i++)
			if ((int)g_array_index(ops, struct op, i).kind == k)
				g_array_append_val(sub, g_array_index(ops, struct op, i));
		for (guint i = 0; i < sub->len; i++)
			answers[i] = libfdt_op(fdt, &g_array_index(sub, struct op, i));
		if (sub->len) {
			double hit, key;

			lib = time_libfdt(fdt, sub, NKINDS) / sub->len;
			ours = time_core(&c, fdt, sub, NKINDS, FALSE, FALSE, PATH_SLOTS) / sub->len;
			hit = time_core(&c, fdt, sub, NKINDS, FALSE, TRUE, PATH_SLOTS) / sub->len;
			one = time_array(sub, answers, NKINDS) / sub->len;
			printf("  %-10s %6u %12.1f %11.1f %8.0fx %8.1f %8.1fx", kind_names[k],
			       sub->len, lib, ours, lib / ours, hit, hit / one);
			if (k == OP_PATH || k == OP_ALIAS) {
				key = time_key_compare(sub, answers) / sub->len;
				printf(" %10.1fx", hit / key);
			}
			printf("\n");
		}
		g_array_free(sub, TRUE);
	}
	bench_node_hits(&c, fdt, ops);
	bench_name_hits(&c, fdt, ops);
	base = time_libfdt(fdt, ops, NKINDS);
	ours = time_core(&c, fdt, ops, NKINDS, TRUE, FALSE, PATH_SLOTS);
	printf("  whole workload, libcore's set-up included: libfdt %.1f us, libcore %.1f us: "
	       "%.0fx\n", base / 1e3, ours / 1e3, base / ours);

	one = time_uncached_lookup(fdt, &c.dt);
	printf("  set-up against one uncached fdt_node_offset_by_phandle (%.0f ns): node table "
	       "%.2fx, phandle index %.2fx\n", one, time_setup(fdt, &c, TRUE) / one,
	       time_setup(fdt, &c, FALSE) / one);

	paths = node_paths(fdt, chunk);
	lib = time_libfdt(fdt, paths, OP_PATH) / paths->len;
	ours = time_core(&c, fdt, paths, OP_PATH, FALSE, FALSE, 0) / paths->len;
	printf("  path misses (no path cache; every node's path and a missing one below it): "
	       "libfdt %.1f ns, libcore %.1f ns: %.1fx\n", lib, ours, lib / ours);
	printf("  memory: table %zu bytes per node; %u path slots of %zu bytes; %u property, %u "
	       "cells and %u node slots of %zu (%zu bytes in all); phandle index %u slots "
	       "(%zu bytes)\n",
	       sizeof(struct fc_dt_node), PATH_SLOTS, sizeof(struct fc_dt_path_slot), PROP_SLOTS,
	       PROP_SLOTS, c.nnode_slots, sizeof(struct fc_cache_slot),
	       PATH_SLOTS * sizeof(struct fc_dt_path_slot) +
		       (2 * PROP_SLOTS + c.nnode_slots) * sizeof(struct fc_cache_slot),
	       c.nindex, c.nindex * sizeof(struct fc_cache_slot));

	g_array_free(paths, TRUE);
	g_string_chunk_free(chunk);
	g_array_free(ops, TRUE);
	ph_trace_clear(&trace);
	g_free(answers);
	g_free(c.index_slots);
	g_free(c.node_slots);
	g_free(c.nodes);
	g_free(fdt);
}

int main(int argc, char **argv)
{
	static const char *const defaults[] = { FC_SRCDIR "/fixtures/dt/kernel/rk3399-rock960.dtb",
						"fixtures/dt/soc-900.dtb" };

	if (argc > 1)
		for (int i = 1; i < argc; i++)
			bench_dtb(argv[i]);
	else
		for (gsize i = 0; i < G_N_ELEMENTS(defaults); i++)
			bench_dtb(defaults[i]);
	return 0;
}
