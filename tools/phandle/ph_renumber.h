/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_renumber.h - give a DTB's phandles the numbers other firmware uses,
 * to show how the caches' index functions cope (spec/phandle-caches.md):
 * - slof: as POWER's SLOF, whose phandles are the addresses of its node
 *   structures: 0x7e700000 + the node's structure-block offset rounded up
 *   to 8 (large, 8-byte aligned, irregular);
 * - stride: regular but sparse, the i-th phandle (tree order) is 64 x i.
 * The blob's phandle and linux,phandle properties are rewritten in place
 * (references inside other properties are left alone: the replay resolves
 * only the trace's phandles), and the trace is rewritten to match; a trace
 * phandle no node has becomes 0xffffffff, so it stays unresolved.
 */
#ifndef FDTCACHE_TOOLS_PH_RENUMBER_H
#define FDTCACHE_TOOLS_PH_RENUMBER_H

#include <glib.h>

#include "ph_trace.h"

/* ph_renumber_parse - "slof" or "stride"; FALSE for another word. */
gboolean ph_renumber_parse(const char *word, gboolean *slof);

/* ph_renumber - rewrite fdt (writable, checked) and trace; returns the phandles renumbered. */
guint ph_renumber(void *fdt, struct ph_trace *trace, gboolean slof);

#endif /* FDTCACHE_TOOLS_PH_RENUMBER_H */
