/* SPDX-License-Identifier: BSD-2-Clause */
/* The NVS partition from a devicetree (see partition.h). */
#include "partition.h"

#include <glib/gstdio.h>
#include <libfdt.h>
#include <string.h>
#include <unistd.h>

#include "common/escape.h"
#include "common/input.h"

#define DEFAULT_LABEL "storage_partition"
#define DEFAULT_LABEL_PROP "storage"

G_GNUC_PRINTF(3, 4)
static gboolean fail(GError **error, const char *file, const char *fmt, ...)
{
	va_list ap;
	char *msg, *name = tool_esc_name(file);

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_OPEN, "%s: %s", name, msg);
	g_free(msg);
	g_free(name);
	return FALSE;
}

/* dtc -@ on the DTS, into a temporary file: the blob, or NULL with error set. */
static GBytes *compile_dts(const char *path, GError **error)
{
	gchar *out = NULL, *err = NULL, *blob = NULL, *tmp = NULL;
	gsize len = 0;
	gint status = 0, fd = g_file_open_tmp("nvs-inspect-XXXXXX.dtb", &tmp, NULL);
	GError *e = NULL;
	const char *argv[] = { "dtc", "-@", "-q", "-I", "dts", "-O", "dtb", "-o", tmp, path, NULL };

	if (fd < 0) {
		fail(error, path, "no temporary file for dtc's output");
		return NULL;
	}
	close(fd);
	if (!g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
			  &status, &e)) {
		fail(error, path, "cannot run dtc to compile it (%s); install device-tree-compiler "
		     "or give --dtb", e->message);
		g_error_free(e);
	} else if (!g_spawn_check_wait_status(status, NULL)) {
		char *text = tool_esc_text(err ? err : "", -1, TOOL_ESC_UTF8);

		fail(error, path, "dtc cannot compile it: %s", text);
		g_free(text);
	} else if (!g_file_get_contents(tmp, &blob, &len, NULL)) {
		fail(error, path, "dtc wrote no blob");
	}
	g_unlink(tmp);
	g_free(tmp);
	g_free(out);
	g_free(err);
	return blob ? g_bytes_new_take(blob, len) : NULL;
}

static uint64_t read_cells(const fdt32_t *p, int cells)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < cells; i++)
		v = v << 32 | fdt32_to_cpu(p[i]);
	return v;
}

/* The first address (and size) of node's reg, in its parent's cells. */
static gboolean node_reg(const void *fdt, int node, uint64_t *addr, uint64_t *size)
{
	int parent = fdt_parent_offset(fdt, node), len;
	int ac = fdt_address_cells(fdt, parent), sc = fdt_size_cells(fdt, parent);
	const fdt32_t *reg = fdt_getprop(fdt, node, "reg", &len);

	if (!reg || ac < 1 || ac > 2 || sc < 0 || sc > 2 || len < (ac + sc) * 4)
		return FALSE;
	*addr = read_cells(reg, ac);
	*size = sc ? read_cells(reg + ac, sc) : 0;
	return TRUE;
}

static uint32_t u32_prop(const void *fdt, int node, const char *name)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, name, &len);

	return p && len == 4 ? fdt32_to_cpu(*p) : 0;
}

/* The node whose label (a __symbols__ entry) is label, or < 0. */
static int by_symbol(const void *fdt, const char *label)
{
	int sym = fdt_path_offset(fdt, "/__symbols__"), len;
	const char *path = sym >= 0 ? fdt_getprop(fdt, sym, label, &len) : NULL;

	return path ? fdt_path_offset(fdt, path) : -1;
}

/* A node of a fixed-partitions node whose label property is value, or < 0. */
static int by_label_prop(const void *fdt, const char *value)
{
	int node = -1, len;

	while ((node = fdt_node_offset_by_compatible(fdt, node, "fixed-partitions")) >= 0) {
		int child;

		fdt_for_each_subnode(child, fdt, node) {
			const char *l = fdt_getprop(fdt, child, "label", &len);

			if (l && !strcmp(l, value))
				return child;
		}
	}
	return -1;
}

static gboolean describe(const void *fdt, int node, const char *file, struct dt_partition *p,
			 GError **error)
{
	int parts = fdt_parent_offset(fdt, node), flash = parts >= 0 ? fdt_parent_offset(fdt, parts) : -1;
	uint64_t flash_size;
	char path[512];

	if (fdt_get_path(fdt, node, path, sizeof(path)) < 0)
		g_strlcpy(path, "?", sizeof(path));
	p->path = tool_esc_name(path); /* from the input: escaped */
	if (parts < 0 || fdt_node_check_compatible(fdt, parts, "fixed-partitions") != 0)
		return fail(error, file, "%s is not in a fixed-partitions node", path);
	if (!node_reg(fdt, node, &p->offset, &p->size) || p->size == 0)
		return fail(error, file, "%s has no usable reg (offset and size)", path);
	if (flash < 0 || !node_reg(fdt, flash, &p->flash_base, &flash_size))
		return fail(error, file, "the flash node above %s has no usable reg", path);
	p->erase_block = u32_prop(fdt, flash, "erase-block-size");
	p->write_block = u32_prop(fdt, flash, "write-block-size");
	return TRUE;
}

gboolean dt_partition_find(const char *dts_path, const char *dtb_path, const char *label,
			   struct dt_partition *p, GError **error)
{
	const char *file = dts_path ? dts_path : dtb_path;
	struct tool_input in;
	GBytes *blob = NULL;
	const void *fdt;
	gsize len;
	int node;
	gboolean ok;

	memset(p, 0, sizeof(*p));
	if (dts_path) {
		blob = compile_dts(dts_path, error);
		if (!blob)
			return FALSE;
	}
	if (!dts_path && !tool_input_load(&in, dtb_path, error))
		return FALSE;
	fdt = dts_path ? g_bytes_get_data(blob, &len) : in.data;
	len = dts_path ? len : in.len;
	if (!fdt || len < 40 || fdt_check_header(fdt) != 0 || fdt_totalsize(fdt) > len) {
		ok = fail(error, file, "not a valid devicetree blob");
	} else {
		const char *sym = label ? label : DEFAULT_LABEL, *prop = label ? label : DEFAULT_LABEL_PROP;

		node = by_symbol(fdt, sym);
		p->label = tool_esc_name(sym);
		if (node < 0) {
			node = by_label_prop(fdt, prop);
			g_free(p->label);
			p->label = g_strdup_printf("label \"%s\"", prop);
		}
		if (node < 0)
			ok = fail(error, file,
				  label ? "no partition labelled %s (a node label, or a label property)"
					: "no partition labelled %s, nor one whose label is \"storage\"; "
					  "give --partition LABEL",
				  label ? label : DEFAULT_LABEL);
		else
			ok = describe(fdt, node, file, p, error);
	}
	if (blob)
		g_bytes_unref(blob);
	else
		tool_input_free(&in);
	if (!ok)
		dt_partition_free(p);
	return ok;
}

void dt_partition_free(struct dt_partition *p)
{
	g_free(p->path);
	g_free(p->label);
	memset(p, 0, sizeof(*p));
}
