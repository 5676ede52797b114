/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_tree.h - a DTB loaded for the phandle tools: checked, and walked once
 * into a node table (tree order, parent, path, status, phandle) with a
 * phandle -> node map and each node's #...-cells values, so a generator or
 * an analysis never walks the structure block again (linear time in the
 * DTB's size however many nodes and references it has).
 */
#ifndef FDTCACHE_TOOLS_PH_TREE_H
#define FDTCACHE_TOOLS_PH_TREE_H

#include <glib.h>

#define PH_NO_NODE G_MAXUINT

enum ph_node_flags {
	PH_NODE_DISABLED = 1u << 0, /* status is not "okay"/"ok", here or on an ancestor */
	PH_NODE_INTC = 1u << 1,     /* has "interrupt-controller" */
	PH_NODE_META = 1u << 2,     /* __symbols__, __fixups__, __local_fixups__ or below */
	PH_NODE_GPIO_HOG = 1u << 3, /* has "gpio-hog": its gpios are numbers */
	PH_NODE_IMAP = 1u << 4,     /* has "interrupt-map" */
	PH_NODE_ICELLS = 1u << 5,   /* has "#interrupt-cells" */
	PH_NODE_COMPAT = 1u << 6,   /* has "compatible" */
	PH_NODE_GPIO_CTRL = 1u << 7, /* has "gpio-controller" */
};

struct ph_node {
	int offset;       /* structure-block offset */
	guint parent;     /* node index, PH_NO_NODE for the root */
	guint depth;      /* 0 for the root */
	guint32 phandle;  /* 0 when none */
	guint32 flags;    /* enum ph_node_flags */
	guint32 interrupt_parent; /* its own interrupt-parent, or 0 */
	gsize path;       /* offset of its NUL-terminated path in paths */
};

struct ph_tree {
	const void *fdt;
	gsize size;
	GArray *nodes;           /* struct ph_node, tree order */
	GString *paths;          /* every node's path, NUL-separated */
	GHashTable *by_phandle;  /* phandle -> node index + 1 (first in tree order) */
	GHashTable *cells;       /* (node index, #...-cells quark) -> value + 1 */
};

/*
 * ph_dtb_load - read a DTB (a file, a pipe or "-") and check it with
 * fdt_check_full(); g_free the result. Errors name the file and libfdt's
 * reason.
 */
void *ph_dtb_load(const char *path, gsize *len, GError **error);

/* ph_tree_build - walk a checked DTB once into tree; ph_tree_clear frees it. */
void ph_tree_build(struct ph_tree *tree, const void *fdt, gsize size);
void ph_tree_clear(struct ph_tree *tree);

static inline const struct ph_node *ph_tree_node(const struct ph_tree *tree, guint i)
{
	return &g_array_index(tree->nodes, struct ph_node, i);
}

static inline const char *ph_tree_path(const struct ph_tree *tree, guint i)
{
	return tree->paths->str + ph_tree_node(tree, i)->path;
}

/* ph_tree_find - the node with phandle (the first in tree order), or PH_NO_NODE. */
guint ph_tree_find(const struct ph_tree *tree, guint32 phandle);

/*
 * ph_tree_cells - node's #...-cells property called name (e.g.
 * "#clock-cells"), or fallback when it has none.
 */
guint32 ph_tree_cells(const struct ph_tree *tree, guint node, const char *name, guint32 fallback);

/* ph_tree_has_cells - whether node has the #...-cells property name. */
gboolean ph_tree_has_cells(const struct ph_tree *tree, guint node, const char *name);

#endif /* FDTCACHE_TOOLS_PH_TREE_H */
