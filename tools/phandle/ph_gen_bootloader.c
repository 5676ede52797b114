/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bootloader model (fdtcache-trace --model bootloader): the lookups a
 * driver-model bootloader (U-Boot's, barebox's) makes while it binds every
 * enabled node, in this order:
 *  - every /aliases entry (`alias NAME`: the sequence numbers of devices),
 *    `path /chosen`, its stdout-path up to ':' (`path VALUE`), `path /cpus`
 *    and `path /memory`;
 *  - per node in tree order, unless it or an ancestor is disabled (status
 *    not "okay"/"ok") or it is overlay metadata: with a `reg` (not the
 *    root), `parent NODE` and `cells NODE reg` (the parent's #address-cells
 *    and #size-cells); per phandle reference of the properties of
 *    spec/phandle-caches.md (ph_refs.c) but interrupt-parent, the phandle,
 *    and for a `<phandle args...>` list whose target exists, `cells TARGET
 *    #xxx-cells` (the argument count to skip); with `interrupts`, the climb
 *    to the nearest interrupt-parent: `parent N` for each node on the way
 *    without one, then that phandle and `cells CONTROLLER #interrupt-cells`.
 * Assumed: each device binds once (no deferral), a driver reads each
 * reference once, a bootloader resolves no phandle before the first lookup
 * of its own (no @core_init), and a node, alias or path that is no trace
 * word (bytes outside printable ASCII, or '#') is looked up by no one.
 */
#include "ph_gen.h"

#include <libfdt.h>
#include <string.h>

#include "common/escape.h"
#include "ph_refs.h"

/* A word of the trace grammar: printable ASCII but '#' (and '/' unless slash). */
static gboolean is_word(const char *s, gsize n, gboolean slash)
{
	if (!n)
		return FALSE;
	for (gsize i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e || s[i] == '#' || (!slash && s[i] == '/'))
			return FALSE;
	return TRUE;
}

/* One typed lookup, with why as its comment; skipped when arg is no trace word. */
static void emit_typed(struct ph_gen *g, enum ph_kind kind, const char *arg, gsize n,
		       const char *cells, const char *why)
{
	g_autofree char *word = g_strndup(arg, n);
	g_autofree char *shown = NULL;
	const struct ph_typed *item;

	if (!is_word(arg, n, kind != PH_KIND_ALIAS))
		return;
	ph_trace_add_typed(g->trace, kind, word, cells, 0);
	if (!g->text)
		return;
	item = ph_trace_typed_at(g->trace, ph_trace_typed(g->trace) - 1);
	ph_typed_format(g->text, item);
	shown = tool_esc_text(why, -1, TOOL_ESC_UTF8);
	g_string_append_printf(g->text, " # %s\n", shown);
}

static void emit_node(struct ph_gen *g, enum ph_kind kind, guint node, const char *cells,
		      const char *why)
{
	const char *path = ph_tree_path(g->tree, node);

	emit_typed(g, kind, path, strlen(path), cells, why);
}

static void gen_globals(struct ph_gen *g)
{
	const void *fdt = g->tree->fdt;
	int aliases = fdt_path_offset(fdt, "/aliases");
	int chosen = fdt_path_offset(fdt, "/chosen");
	int prop, len;

	if (aliases >= 0)
		fdt_for_each_property_offset(prop, fdt, aliases) {
			const char *name;

			if (fdt_getprop_by_offset(fdt, prop, &name, &len) && name)
				emit_typed(g, PH_KIND_ALIAS, name, strlen(name), NULL, "device sequence");
		}
	emit_typed(g, PH_KIND_PATH, "/chosen", 7, NULL, "console and boot arguments");
	if (chosen >= 0) {
		const char *out = fdt_getprop(fdt, chosen, "stdout-path", &len);

		if (out && len > 1)
			emit_typed(g, PH_KIND_PATH, out, strcspn(out, ":"), NULL, "stdout-path");
	}
	emit_typed(g, PH_KIND_PATH, "/cpus", 5, NULL, "cpu binding");
	emit_typed(g, PH_KIND_PATH, "/memory", 7, NULL, "dram size");
}

struct ref_ctx {
	struct ph_gen *g;
	guint node;
	const char *prop;
	struct ph_ref_rule rule;
};

static void emit_ref(guint32 phandle, guint target, gpointer data)
{
	struct ref_ctx *c = data;

	ph_gen_emit(c->g, phandle, c->node, c->prop);
	if (c->rule.kind == PH_REF_ARGS && *c->rule.cells && target != PH_NO_NODE)
		emit_node(c->g, PH_KIND_CELLS, target, c->rule.cells, c->prop);
}

/* The climb from node to the nearest interrupt-parent, then its #interrupt-cells. */
static void gen_interrupt_parent(struct ph_gen *g, guint node)
{
	for (guint n = node; n != PH_NO_NODE; n = ph_tree_node(g->tree, n)->parent) {
		const struct ph_node *p = ph_tree_node(g->tree, n);

		if (p->interrupt_parent) {
			guint ctrl = ph_tree_find(g->tree, p->interrupt_parent);

			ph_gen_emit(g, p->interrupt_parent, node, "interrupt-parent");
			if (ctrl != PH_NO_NODE)
				emit_node(g, PH_KIND_CELLS, ctrl, "#interrupt-cells", "interrupts");
			return;
		}
		if (p->parent != PH_NO_NODE)
			emit_node(g, PH_KIND_PARENT, n, NULL, "interrupt-parent climb");
	}
}

static void gen_node(struct ph_gen *g, guint i)
{
	const struct ph_tree *tree = g->tree;
	const struct ph_node *node = ph_tree_node(tree, i);
	int prop, len;

	if (node->flags & (PH_NODE_DISABLED | PH_NODE_META))
		return;
	if (node->parent != PH_NO_NODE && fdt_getprop(tree->fdt, node->offset, "reg", &len)) {
		emit_node(g, PH_KIND_PARENT, i, NULL, "reg");
		emit_node(g, PH_KIND_REG_CELLS, i, NULL, "reg");
	}
	fdt_for_each_property_offset(prop, tree->fdt, node->offset) {
		const char *name;
		const void *v = fdt_getprop_by_offset(tree->fdt, prop, &name, &len);
		struct ref_ctx c = { g, i, name, { PH_REF_NONE, NULL, FALSE } };

		if (!v || !name || len < 4 || !strcmp(name, "interrupt-parent"))
			continue;
		c.rule = ph_ref_classify(name, node->flags, PH_REFS_REFERENCE);
		ph_ref_each(tree, i, c.rule, v, (guint32)len / 4, emit_ref, &c);
	}
	if (fdt_getprop(tree->fdt, node->offset, "interrupts", &len))
		gen_interrupt_parent(g, i);
}

void ph_gen_bootloader(struct ph_gen *g)
{
	gen_globals(g);
	for (guint i = 0; i < g->tree->nodes->len; i++)
		gen_node(g, i);
}
