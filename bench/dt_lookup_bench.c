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
};

static void push(GArray *ops, enum op_kind kind, int node, uint32_t phandle, const char *str,
		 uint32_t len)
{
	struct op op = { kind, node, phandle, str, len };

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

static volatile int sink;

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
	struct fc_cache_slot path_slots[PATH_SLOTS];
	struct fc_cache_slot prop_slots[PROP_SLOTS];
	struct fc_cache_slot *node_slots;
	uint32_t nnode_slots;
};

/* Node table, phandle index and lookup caches, from nothing. */
static void core_build(struct core *c, const void *fdt, uint32_t npath)
{
	struct fc_dt_lookups_config cfg = { c->path_slots, npath,     c->prop_slots,
					    PROP_SLOTS,    c->node_slots, c->nnode_slots };

	fc_dt_init(&c->dt, fdt, c->nodes, c->nnodes);
	fc_dt_index_build(&c->index, fdt, c->index_slots, c->nindex);
	fc_dt_lookups_init(&c->lk, &c->dt, &cfg);
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
		return fc_dt_cells(&c->lk, op->node, op->str);
	default:
		return -1;
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
		sink = acc;
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
		sink = acc;
		v[r] = bench_now_ns() - t0;
	}
	return bench_median(v, RUNS);
}

/* The same under libcore; build: time the table/index/cache set-up too. */
static double time_core(struct core *c, const void *fdt, const GArray *ops, int kind,
			gboolean build, uint32_t npath)
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
				acc += core_op(c, op);
		}
		sink = acc;
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
		int a = libfdt_op(fdt, op), b = core_op(c, op);

		if ((a < 0) != (b < 0) || (a >= 0 && a != b)) {
			fprintf(stderr, "%s: op %u (%s) differs: libfdt %d, libcore %d\n", name, i,
				kind_names[op->kind], a, b);
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
		sink = acc;
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
	answers = g_new(int, ops->len);
	check_answers(&c, fdt, ops, file);

	printf("\n%s: %u nodes, %u phandles; bootloader-shaped workload of %u lookups\n", file,
	       c.nnodes, c.dt.nphandles, ops->len);
	printf("  %-10s %6s %12s %11s %9s %11s\n", "kind", "count", "libfdt ns", "libcore ns",
	       "speed-up", "vs array");
	for (int k = 0; k < NKINDS; k++) {
		GArray *sub = g_array_new(FALSE, FALSE, sizeof(struct op));

		for (guint i = 0; i < ops->len; i++)
			if ((int)g_array_index(ops, struct op, i).kind == k)
				g_array_append_val(sub, g_array_index(ops, struct op, i));
		for (guint i = 0; i < sub->len; i++)
			answers[i] = libfdt_op(fdt, &g_array_index(sub, struct op, i));
		if (sub->len) {
			lib = time_libfdt(fdt, sub, NKINDS) / sub->len;
			ours = time_core(&c, fdt, sub, NKINDS, FALSE, PATH_SLOTS) / sub->len;
			one = time_array(sub, answers, NKINDS) / sub->len;
			printf("  %-10s %6u %12.1f %11.1f %8.0fx %10.1fx\n", kind_names[k], sub->len,
			       lib, ours, lib / ours, ours / one);
		}
		g_array_free(sub, TRUE);
	}
	base = time_libfdt(fdt, ops, NKINDS);
	ours = time_core(&c, fdt, ops, NKINDS, TRUE, PATH_SLOTS);
	printf("  whole workload, libcore's set-up included: libfdt %.1f us, libcore %.1f us: "
	       "%.0fx\n", base / 1e3, ours / 1e3, base / ours);

	one = time_uncached_lookup(fdt, &c.dt);
	printf("  set-up against one uncached fdt_node_offset_by_phandle (%.0f ns): node table "
	       "%.2fx, phandle index %.2fx\n", one, time_setup(fdt, &c, TRUE) / one,
	       time_setup(fdt, &c, FALSE) / one);

	paths = node_paths(fdt, chunk);
	lib = time_libfdt(fdt, paths, OP_PATH) / paths->len;
	ours = time_core(&c, fdt, paths, OP_PATH, FALSE, 0) / paths->len;
	printf("  path misses (no path cache; every node's path and a missing one below it): "
	       "libfdt %.1f ns, libcore %.1f ns: %.1fx\n", lib, ours, lib / ours);
	printf("  memory: table %zu bytes per node; caches of %u path, %u property and %u node "
	       "slots (%zu bytes); phandle index %u slots (%zu bytes)\n",
	       sizeof(struct fc_dt_node), PATH_SLOTS, PROP_SLOTS, c.nnode_slots,
	       (PATH_SLOTS + PROP_SLOTS + c.nnode_slots) * sizeof(struct fc_cache_slot), c.nindex,
	       c.nindex * sizeof(struct fc_cache_slot));

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
