/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_tree.h"

#include <libfdt.h>
#include <string.h>

#include "common/input.h"
#include "ph_trace.h"

void *ph_dtb_load(const char *path, gsize *len, GError **error)
{
	struct tool_input in;
	void *blob;
	int rc;

	if (!tool_input_load(&in, path, error))
		return NULL;
	*len = in.len;
	rc = in.len > G_MAXINT ? -FDT_ERR_BADSTRUCTURE :
	     in.len < FDT_V1_SIZE ? -FDT_ERR_TRUNCATED : fdt_check_full(in.data, in.len);
	if (rc) {
		g_set_error(error, PH_ERROR, PH_ERROR_DTB, "%s: not a valid DTB: %s", in.name,
			    fdt_strerror(rc));
		tool_input_free(&in);
		return NULL;
	}
	blob = g_memdup2(in.data, in.len);
	tool_input_free(&in);
	return blob;
}

/* The node in the low half: GLib's g_int64_hash may hash those bits only. */
static guint64 cells_key(guint node, GQuark name)
{
	return (guint64)name << 32 | node;
}

static gboolean status_ok(const char *value, int len)
{
	return len > 0 && (!strncmp(value, "okay", (gsize)len) || !strncmp(value, "ok", (gsize)len));
}

static gboolean is_meta_name(const char *name)
{
	return !strcmp(name, "__symbols__") || !strcmp(name, "__fixups__") ||
	       !strcmp(name, "__local_fixups__");
}

/* Read the properties the tools need; node is the entry being filled. */
static void read_props(struct ph_tree *tree, guint index, struct ph_node *node)
{
	int prop;
	guint32 linux_phandle = 0;

	fdt_for_each_property_offset(prop, tree->fdt, node->offset) {
		const char *name;
		int len;
		const fdt32_t *v = fdt_getprop_by_offset(tree->fdt, prop, &name, &len);
		guint32 u = v && len == 4 ? fdt32_to_cpu(*v) : 0;

		if (!v || !name)
			continue;
		if (!strcmp(name, "phandle") && len == 4)
			node->phandle = u;
		else if (!strcmp(name, "linux,phandle") && len == 4)
			linux_phandle = u;
		else if (!strcmp(name, "status") && !status_ok((const char *)v, len))
			node->flags |= PH_NODE_DISABLED;
		else if (!strcmp(name, "interrupt-parent") && len == 4)
			node->interrupt_parent = u;
		else if (!strcmp(name, "interrupt-controller"))
			node->flags |= PH_NODE_INTC;
		else if (!strcmp(name, "interrupt-map"))
			node->flags |= PH_NODE_IMAP;
		else if (!strcmp(name, "gpio-hog"))
			node->flags |= PH_NODE_GPIO_HOG;
		else if (!strcmp(name, "compatible"))
			node->flags |= PH_NODE_COMPAT;
		else if (!strcmp(name, "gpio-controller"))
			node->flags |= PH_NODE_GPIO_CTRL;
		if (name[0] == '#' && g_str_has_suffix(name, "-cells") && len == 4) {
			guint64 key = cells_key(index, g_quark_from_string(name));

			g_hash_table_insert(tree->cells, g_memdup2(&key, sizeof(key)),
					    GUINT_TO_POINTER(MIN(u, G_MAXUINT32 - 1) + 1));
			if (!strcmp(name, "#interrupt-cells"))
				node->flags |= PH_NODE_ICELLS;
		}
	}
	/* as fdt_get_phandle: "phandle" wins, else "linux,phandle"; -1 is none */
	if (!node->phandle)
		node->phandle = linux_phandle;
	if (node->phandle == G_MAXUINT32)
		node->phandle = 0;
}

/* The path of a node whose parent's path is parent_path. */
static void append_path(GString *paths, const char *parent_path, const char *name)
{
	if (!parent_path)
		g_string_append(paths, "/");
	else if (!strcmp(parent_path, "/"))
		g_string_append_printf(paths, "/%s", name);
	else
		g_string_append_printf(paths, "%s/%s", parent_path, name);
	g_string_append_c(paths, '\0');
}

static void add_node(struct ph_tree *tree, int offset, guint depth, GArray *stack)
{
	struct ph_node node = { .offset = offset, .depth = depth, .parent = PH_NO_NODE };
	guint index = tree->nodes->len;
	const char *name = fdt_get_name(tree->fdt, offset, NULL);
	g_autofree gchar *parent_path = NULL;

	g_array_set_size(stack, depth);
	if (depth) {
		const struct ph_node *parent;

		node.parent = g_array_index(stack, guint, depth - 1);
		parent = ph_tree_node(tree, node.parent);
		node.flags = parent->flags & (PH_NODE_DISABLED | PH_NODE_META);
		/* a copy: appending to paths may move its buffer */
		parent_path = g_strdup(tree->paths->str + parent->path);
	}
	if (name && is_meta_name(name))
		node.flags |= PH_NODE_META;
	node.path = tree->paths->len;
	append_path(tree->paths, parent_path, name ? name : "?");
	read_props(tree, index, &node);
	g_array_append_val(tree->nodes, node);
	g_array_append_val(stack, index);
	if (node.phandle && !g_hash_table_contains(tree->by_phandle, GUINT_TO_POINTER(node.phandle)))
		g_hash_table_insert(tree->by_phandle, GUINT_TO_POINTER(node.phandle),
				    GUINT_TO_POINTER(index + 1));
}

void ph_tree_build(struct ph_tree *tree, const void *fdt, gsize size)
{
	GArray *stack = g_array_new(FALSE, FALSE, sizeof(guint));
	int depth = -1; /* libfdt counts from here: the root is at depth 0 */

	tree->fdt = fdt;
	tree->size = size;
	tree->nodes = g_array_new(FALSE, FALSE, sizeof(struct ph_node));
	tree->paths = g_string_new(NULL);
	tree->by_phandle = g_hash_table_new(g_direct_hash, g_direct_equal);
	tree->cells = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	for (int off = fdt_next_node(fdt, -1, &depth); off >= 0 && depth >= 0;
	     off = fdt_next_node(fdt, off, &depth))
		add_node(tree, off, (guint)depth, stack);
	g_array_free(stack, TRUE);
}

void ph_tree_clear(struct ph_tree *tree)
{
	if (tree->nodes)
		g_array_free(tree->nodes, TRUE);
	if (tree->paths)
		g_string_free(tree->paths, TRUE);
	if (tree->by_phandle)
		g_hash_table_destroy(tree->by_phandle);
	if (tree->cells)
		g_hash_table_destroy(tree->cells);
	memset(tree, 0, sizeof(*tree));
}

guint ph_tree_find(const struct ph_tree *tree, guint32 phandle)
{
	guint v = GPOINTER_TO_UINT(g_hash_table_lookup(tree->by_phandle, GUINT_TO_POINTER(phandle)));

	return phandle && v ? v - 1 : PH_NO_NODE;
}

static guint cells_value(const struct ph_tree *tree, guint node, const char *name)
{
	GQuark q = g_quark_try_string(name);
	guint64 key;

	if (!q)
		return 0;
	key = cells_key(node, q);
	return GPOINTER_TO_UINT(g_hash_table_lookup(tree->cells, &key));
}

guint32 ph_tree_cells(const struct ph_tree *tree, guint node, const char *name, guint32 fallback)
{
	guint v = cells_value(tree, node, name);

	return v ? v - 1 : fallback;
}

gboolean ph_tree_has_cells(const struct ph_tree *tree, guint node, const char *name)
{
	return cells_value(tree, node, name) != 0;
}
