/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-bench's replay of typed lookups (path, alias, parent, reg cells,
 * #cells) through libcore's fc_dt_lookups, each answer checked against
 * libfdt's. Answers are compared encoded: a node offset or cell count
 * (>= 0), reg cells as (#address-cells << 8 | #size-cells), ANSWER_NONE for
 * no answer (no such node, alias or property; the root's parent) and
 * ANSWER_BAD for a property that is no valid cell count.
 */
#include "ph_bench.h"

#include <libfdt.h>
#include <string.h>

#include "common/escape.h"

#define ANSWER_NONE (-1)
#define ANSWER_BAD (-2)

static const enum fc_dt_kind core_kind[PH_KINDS] = {
	[PH_KIND_PATH] = FC_DT_KIND_PATH,	    [PH_KIND_ALIAS] = FC_DT_KIND_ALIAS,
	[PH_KIND_PARENT] = FC_DT_KIND_PARENT,	    [PH_KIND_REG_CELLS] = FC_DT_KIND_REG_CELLS,
	[PH_KIND_CELLS] = FC_DT_KIND_CELLS,
};

static gboolean names_node(enum ph_kind kind)
{
	return kind == PH_KIND_PARENT || kind == PH_KIND_REG_CELLS || kind == PH_KIND_CELLS;
}

static int libfdt_cells(const void *fdt, int node, const char *name)
{
	int len;
	const fdt32_t *v = fdt_getprop(fdt, node, name, &len);

	if (!v)
		return ANSWER_NONE;
	if (len != 4 || fdt32_to_cpu(*v) > G_MAXINT32)
		return ANSWER_BAD;
	return (int)fdt32_to_cpu(*v);
}

static int libfdt_answer(const void *fdt, const struct ph_typed *item, int node)
{
	int v, ac, sc;

	switch (item->kind) {
	case PH_KIND_PATH:
	case PH_KIND_ALIAS:
		v = fdt_path_offset(fdt, item->arg);
		return v < 0 ? ANSWER_NONE : v;
	case PH_KIND_PARENT:
		v = fdt_parent_offset(fdt, node);
		return v < 0 ? ANSWER_NONE : v;
	case PH_KIND_REG_CELLS:
		v = fdt_parent_offset(fdt, node);
		if (v < 0)
			return ANSWER_NONE;
		ac = fdt_address_cells(fdt, v);
		sc = fdt_size_cells(fdt, v);
		return ac < 0 || sc < 0 ? ANSWER_BAD : ac << 8 | sc;
	case PH_KIND_CELLS:
		return libfdt_cells(fdt, node, item->cells);
	default:
		return ANSWER_BAD;
	}
}

/* "TRACE:LINE: ITEM: why" for typed lookup i. */
static void item_error(const struct ph_bench *b, GError **error, enum ph_error_code code, guint i,
		       const char *why)
{
	const struct ph_typed *item = ph_trace_typed_at(&b->trace, i);
	g_autofree char *trace = tool_esc_name(b->trace_name);
	GString *text = g_string_new(NULL);
	g_autofree char *shown = NULL;

	ph_typed_format(text, item);
	shown = tool_esc_text(text->str, -1, TOOL_ESC_UTF8);
	g_set_error(error, PH_ERROR, code, "%s:%u: %s: %s", trace, item->line, shown, why);
	g_string_free(text, TRUE);
}

gboolean ph_typed_prepare(struct ph_bench *b, GError **error)
{
	struct ph_typed_run *run = &b->typed;
	const void *fdt = b->dt.fdt;
	guint n = ph_trace_typed(&b->trace);

	run->node_cache = fc_dt_index_slots(b->dt.nnodes);
	run->nodes = g_new0(int, MAX(n, 1));
	run->expect = g_new0(int, MAX(n, 1));
	run->path_slots = g_new(struct fc_dt_path_slot, MAX(run->name_cache, 1));
	run->prop_slots = g_new(struct fc_cache_slot, MAX(run->name_cache, 1));
	run->node_slots = g_new(struct fc_cache_slot, MAX(run->node_cache, 1));
	for (guint i = 0; i < n; i++) {
		const struct ph_typed *item = ph_trace_typed_at(&b->trace, i);

		if (names_node(item->kind)) {
			run->nodes[i] = fdt_path_offset(fdt, item->arg);
			if (run->nodes[i] < 0) {
				g_autofree char *dtb = tool_esc_name(b->dtb_path);
				g_autofree char *why = g_strdup_printf("no such node in %s", dtb);

				item_error(b, error, PH_ERROR_PARSE, i, why);
				return FALSE;
			}
		}
		run->expect[i] = libfdt_answer(fdt, item, run->nodes[i]);
	}
	return TRUE;
}

/* libcore's answer, encoded as libfdt's; a negative FC_E* code it should not give in *rc. */
static int core_answer(struct fc_dt_lookups *lk, const struct ph_typed *item, int node, int *rc)
{
	guint32 ac, sc;
	int v;

	switch (item->kind) {
	case PH_KIND_PATH:
		v = fc_dt_path_offset(lk, item->arg, (guint32)strlen(item->arg));
		break;
	case PH_KIND_ALIAS:
		v = fc_dt_alias_offset(lk, item->arg, (guint32)strlen(item->arg));
		break;
	case PH_KIND_PARENT:
		v = fc_dt_parent_offset(lk, node);
		break;
	case PH_KIND_REG_CELLS:
		v = fc_dt_reg_cells(lk, node, &ac, &sc);
		if (v == 0)
			v = (int)(ac << 8 | sc);
		break;
	default:
		v = fc_dt_cells(lk, node, item->cells);
		break;
	}
	if (v >= 0)
		return v;
	if (v == FC_ENOENT)
		return ANSWER_NONE;
	if (v == FC_EBADDTB)
		return ANSWER_BAD;
	*rc = v;
	return v;
}

/*
 * One replay from empty caches; check: stop at the first answer that is not
 * libfdt's, its index in *bad and libcore's answer in *got.
 */
static int replay(const struct ph_bench *b, struct fc_dt_lookups *lk, gboolean check, guint *bad,
		  int *got)
{
	const struct ph_typed_run *run = &b->typed;
	struct fc_dt_lookups_config cfg = { .path_slots = run->path_slots,
					    .npath = run->name_cache,
					    .prop_slots = run->prop_slots,
					    .nprops = run->name_cache,
					    .node_slots = run->node_slots,
					    .nnode = run->node_cache };
	int rc = fc_dt_lookups_init(lk, &b->dt, &cfg);

	*bad = G_MAXUINT;
	for (guint i = 0; rc == 0 && i < ph_trace_typed(&b->trace); i++) {
		int v = core_answer(lk, ph_trace_typed_at(&b->trace, i), run->nodes[i], &rc);

		if (check && rc == 0 && v != run->expect[i]) {
			*bad = i;
			*got = v;
			break;
		}
	}
	return rc;
}

static char *answer_text(enum ph_kind kind, int v)
{
	if (v == ANSWER_NONE)
		return g_strdup("none");
	if (v == ANSWER_BAD)
		return g_strdup("an invalid cell count");
	if (kind == PH_KIND_REG_CELLS)
		return g_strdup_printf("<%d %d>", v >> 8, v & 0xff);
	if (kind == PH_KIND_CELLS)
		return g_strdup_printf("%d", v);
	return g_strdup_printf("node offset %d", v);
}

gboolean ph_typed_count(struct ph_bench *b, GError **error)
{
	struct fc_dt_lookups lk;
	guint bad;
	int got = 0, rc = replay(b, &lk, TRUE, &bad, &got);

	if (rc < 0) {
		g_autofree char *dtb = tool_esc_name(b->dtb_path);

		g_set_error(error, PH_ERROR, PH_ERROR_DTB, "%s: typed lookups: %s", dtb, fc_strerror(rc));
		return FALSE;
	}
	if (bad != G_MAXUINT) {
		enum ph_kind kind = ph_trace_typed_at(&b->trace, bad)->kind;
		g_autofree char *want = answer_text(kind, b->typed.expect[bad]);
		g_autofree char *have = answer_text(kind, got);
		g_autofree char *why = g_strdup_printf("libcore answered %s, libfdt %s", have, want);

		item_error(b, error, PH_ERROR_CHECK, bad, why);
		return FALSE;
	}
	for (guint k = 0; k < PH_KINDS; k++)
		b->typed.stats[k] = lk.stats[core_kind[k]];
	return TRUE;
}

void ph_typed_time(struct ph_bench *b, gint64 min_us)
{
	struct fc_dt_lookups lk;
	guint n = ph_trace_typed(&b->trace), bad;
	guint64 runs = 0;
	gint64 start = g_get_monotonic_time(), elapsed;
	int got, rc;

	if (!n)
		return;
	do {
		rc = replay(b, &lk, FALSE, &bad, &got);
		runs++;
		elapsed = g_get_monotonic_time() - start;
	} while (!rc && elapsed < min_us);
	b->typed.timed = !rc;
	b->typed.ns_per_lookup = (double)elapsed * 1000.0 / ((double)runs * n);
}

void ph_typed_clear(struct ph_typed_run *run)
{
	g_free(run->nodes);
	g_free(run->expect);
	g_free(run->path_slots);
	g_free(run->prop_slots);
	g_free(run->node_slots);
	run->nodes = run->expect = NULL;
	run->path_slots = NULL;
	run->prop_slots = run->node_slots = NULL;
}
