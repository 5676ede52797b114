/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dt_int.h - libcore-internal: one pass over a DTB's structure block.
 *
 * The walk reads the tags itself (bounds-checked big-endian loads) instead of
 * calling libfdt per node and per property: a node costs one tag decode and
 * one name test per property, where fdt_next_node() + fdt_get_phandle() scan
 * a node's properties twice and its name byte by byte.
 */
#ifndef FDTCACHE_DT_INT_H
#define FDTCACHE_DT_INT_H

#include "fdtcache/dt.h"

/* What a walk step found. */
enum dt_walk_event {
	DT_WALK_NODE = 1, /* a node begins; its properties have been read */
	DT_WALK_UP,       /* the current node ends */
	DT_WALK_DONE,     /* the structure block ends */
};

struct dt_walk {
	const uint8_t *structs; /* the structure block */
	uint32_t struct_size;
	const char *strings; /* the strings block */
	uint32_t strings_size;
	uint32_t off; /* next tag, relative to the structure block */
};

/* One node, as far as the lookups need it. */
struct dt_walk_node {
	int32_t offset;       /* of its FDT_BEGIN_NODE tag (libfdt's node offset) */
	uint32_t phandle;     /* as fdt_get_phandle(), 0 for none or 0xffffffff */
	int8_t address_cells; /* as fdt_address_cells(): 2 when absent, -1 when invalid */
	int8_t size_cells;    /* as fdt_size_cells(): 1 when absent, -1 when invalid */
};

/* dt_walk_start_ - set up a walk of fdt; FC_EBADDTB for a header it cannot use. */
int dt_walk_start_(struct dt_walk *w, const void *fdt);

/* dt_walk_next_ - the next event (DT_WALK_*), filling *node on DT_WALK_NODE; FC_EBADDTB. */
int dt_walk_next_(struct dt_walk *w, struct dt_walk_node *node);

/* dt_walk_prop_name_ - the NUL-terminated name at nameoff, or NULL when outside the block. */
const char *dt_walk_prop_name_(const struct dt_walk *w, uint32_t nameoff, uint32_t *len);

/* dt_str_len_ - the length of the string at p before its NUL, or room when it has none. */
uint32_t dt_str_len_(const char *p, uint32_t room);

/* dt_be32_ - a big-endian u32 from unaligned bytes. */
static inline uint32_t dt_be32_(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

#endif /* FDTCACHE_DT_INT_H */
