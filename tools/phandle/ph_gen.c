/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_gen.h"

#include <libfdt.h>
#include <string.h>

#include "common/escape.h"
#include "ph_refs.h"

#define CHUNK (64u * 1024u) /* text handed to the sink at a time */

void ph_gen_defaults(struct ph_gen_opts *opts, enum ph_model model)
{
	*opts = (struct ph_gen_opts){
		.model = model,
		.early = TRUE,
		.devlink = TRUE,
		.probes = 1,
		.irq_parses = 1,
	};
}

void ph_gen_core_init(struct ph_gen *g)
{
	if (g->marked)
		return;
	g->marked = TRUE;
	g->trace->core_init_at = ph_trace_lookups(g->trace);
	if (g->text)
		g_string_append(g->text, PH_MARK_CORE_INIT "\n");
}

void ph_gen_emit(struct ph_gen *g, guint32 phandle, guint node, const char *why)
{
	const struct ph_gen_opts *o = g->opts;

	if (!phandle) /* of_find_node_by_phandle(0) returns before any lookup */
		return;
	if (o->model == PH_MODEL_REFERENCE && o->core_init_after &&
	    ph_trace_lookups(g->trace) == o->core_init_after)
		ph_gen_core_init(g);
	ph_trace_add(g->trace, phandle, 0);
	if (g->text) {
		const char *path = ph_tree_path(g->tree, node);

		/* names and paths come from the DTB: escaped, so none can add a line */
		g_string_append_printf(g->text, "0x%x # ", phandle);
		tool_esc_append(g->text, path, strlen(path), TOOL_ESC_UTF8);
		g_string_append_c(g->text, ' ');
		tool_esc_append(g->text, why, strlen(why), TOOL_ESC_UTF8);
		g_string_append_c(g->text, '\n');
		if (g->sink && g->text->len >= CHUNK)
			g->sink(g->text, g->sink_data);
	}
}

struct emit_ctx {
	struct ph_gen *g;
	guint node;
	const char *prop;
};

static void emit_ref(guint32 phandle, guint target, gpointer data)
{
	struct emit_ctx *c = data;

	(void)target;
	ph_gen_emit(c->g, phandle, c->node, c->prop);
}

/* Reference model: every reference of every node in tree order. */
static void gen_reference(struct ph_gen *g)
{
	const struct ph_tree *tree = g->tree;

	for (guint i = 0; i < tree->nodes->len; i++) {
		const struct ph_node *node = ph_tree_node(tree, i);
		int prop;

		if (node->flags & PH_NODE_META)
			continue;
		fdt_for_each_property_offset(prop, tree->fdt, node->offset) {
			const char *name;
			int len;
			const void *v = fdt_getprop_by_offset(tree->fdt, prop, &name, &len);
			struct ph_ref_rule rule;
			struct emit_ctx c = { g, i, name };

			if (!v || !name || len < 4)
				continue;
			rule = ph_ref_classify(name, node->flags, PH_REFS_REFERENCE);
			ph_ref_each(tree, i, rule, v, (guint32)len / 4, emit_ref, &c);
		}
	}
	if (g->opts->core_init_after)
		ph_gen_core_init(g); /* past the end: after the last lookup */
}

static void write_header(const struct ph_gen *g, const char *dtb_name)
{
	g_autofree gchar *base = g_path_get_basename(dtb_name);
	g_autofree char *shown = tool_esc_text(base, -1, TOOL_ESC_UTF8);

	if (g->opts->model == PH_MODEL_REFERENCE)
		g_string_append_printf(g->text,
				       "# Synthetic boot trace of %s (fdtcache-trace --model reference):\n"
				       "# one lookup per phandle reference, in tree order; of_core_init()\n"
				       "# runs at @core_init, else before the first lookup. Comments:\n"
				       "# referring node, property.\n",
				       shown);
	else if (g->opts->model == PH_MODEL_BOOTLOADER)
		g_string_append_printf(g->text,
				       "# Synthetic bootloader trace of %s (fdtcache-trace --model\n"
				       "# bootloader): /aliases, /chosen, then per enabled node the parent\n"
				       "# and reg cells, each phandle reference with its provider's #cells\n"
				       "# and the interrupt-parent climb. Comments: why it is looked up.\n",
				       shown);
	else
		g_string_append_printf(g->text,
				       "# Synthetic boot trace of %s (fdtcache-trace --model boot):\n"
				       "# early lookups, @core_init, then per enabled device fw_devlink's\n"
				       "# supplier parse and the driver's parses at probe. Comments:\n"
				       "# referring node, property, who looks it up.\n",
				       shown);
	ph_header_dtb(g->text, dtb_name, g->tree->fdt, g->tree->size);
}

void ph_gen(struct ph_trace *trace, const struct ph_tree *tree, const char *dtb_name,
	    const struct ph_gen_opts *opts, GString *text)
{
	ph_gen_stream(trace, tree, dtb_name, opts, text, NULL, NULL);
}

void ph_gen_stream(struct ph_trace *trace, const struct ph_tree *tree, const char *dtb_name,
		   const struct ph_gen_opts *opts, GString *text, ph_gen_sink sink, gpointer data)
{
	struct ph_gen g = { .trace = trace, .tree = tree, .opts = opts, .text = text,
			    .sink = text ? sink : NULL, .sink_data = data };

	if (text)
		write_header(&g, dtb_name);
	if (opts->model == PH_MODEL_REFERENCE)
		gen_reference(&g);
	else if (opts->model == PH_MODEL_BOOTLOADER)
		ph_gen_bootloader(&g);
	else
		ph_gen_boot(&g);
}
