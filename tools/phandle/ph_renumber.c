/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_renumber.h"

#include <libfdt.h>
#include <string.h>

#define SLOF_BASE 0x7e700000u
#define STRIDE 64u

gboolean ph_renumber_parse(const char *word, gboolean *slof)
{
	if (strcmp(word, "slof") && strcmp(word, "stride"))
		return FALSE;
	*slof = !strcmp(word, "slof");
	return TRUE;
}

static void set_if_present(void *fdt, int node, const char *name, guint32 value)
{
	int len;

	if (fdt_getprop(fdt, node, name, &len) && len == 4)
		fdt_setprop_inplace_u32(fdt, node, name, value);
}

guint ph_renumber(void *fdt, struct ph_trace *trace, gboolean slof)
{
	GHashTable *map = g_hash_table_new(g_direct_hash, g_direct_equal);
	guint count = 0;

	for (int node = fdt_next_node(fdt, -1, NULL); node >= 0; node = fdt_next_node(fdt, node, NULL)) {
		guint32 old = fdt_get_phandle(fdt, node);
		gpointer known;
		guint32 new;

		if (!old || old == G_MAXUINT32)
			continue;
		known = g_hash_table_lookup(map, GUINT_TO_POINTER(old));
		/* a phandle held twice keeps one new number: the first node's */
		new = known ? GPOINTER_TO_UINT(known) :
		      slof ? SLOF_BASE + (((guint32)node + 7u) & ~7u) : STRIDE * (count + 1);
		if (!known) {
			g_hash_table_insert(map, GUINT_TO_POINTER(old), GUINT_TO_POINTER(new));
			count++;
		}
		set_if_present(fdt, node, "phandle", new);
		set_if_present(fdt, node, "linux,phandle", new);
	}
	for (guint i = 0; i < ph_trace_lookups(trace); i++) {
		guint32 *p = &g_array_index(trace->phandles, guint32, i);
		gpointer new = g_hash_table_lookup(map, GUINT_TO_POINTER(*p));

		*p = new ? GPOINTER_TO_UINT(new) : G_MAXUINT32;
	}
	g_hash_table_destroy(map);
	return count;
}
