/* SPDX-License-Identifier: BSD-2-Clause */
/* dt_walk.c - one pass over a DTB's structure block (see dt_int.h). */
#include "dt_int.h"

#include <libfdt.h>

#define TAG_SIZE 4u

static uint32_t align4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

int dt_walk_start_(struct dt_walk *w, const void *fdt)
{
	uint32_t total, soff, ssize, stroff, strsize;

	if (!fdt || fdt_magic(fdt) != FDT_MAGIC || fdt_version(fdt) < 16)
		return FC_EBADDTB;
	total = fdt_totalsize(fdt);
	soff = fdt_off_dt_struct(fdt);
	stroff = fdt_off_dt_strings(fdt);
	strsize = fdt_size_dt_strings(fdt);
	if (soff > total || stroff > total || strsize > total - stroff)
		return FC_EBADDTB;
	/* version 16 blobs do not record the structure block's size */
	ssize = fdt_version(fdt) >= 17 ? fdt_size_dt_struct(fdt) : total - soff;
	if (ssize > total - soff)
		return FC_EBADDTB;
	w->structs = (const uint8_t *)fdt + soff;
	w->struct_size = ssize;
	w->strings = (const char *)fdt + stroff;
	w->strings_size = strsize;
	w->off = 0;
	return 0;
}

uint32_t dt_str_len_(const char *p, uint32_t room)
{
	uint32_t n = 0;

	while (n < room && p[n])
		n++;
	return n;
}

const char *dt_walk_prop_name_(const struct dt_walk *w, uint32_t nameoff, uint32_t *len)
{
	uint32_t room;

	if (nameoff >= w->strings_size)
		return NULL;
	room = w->strings_size - nameoff;
	*len = dt_str_len_(w->strings + nameoff, room);
	return *len < room ? w->strings + nameoff : NULL;
}

/* The tag at w->off, or 0 (not a tag) when the block ends without FDT_END. */
static uint32_t tag_at(const struct dt_walk *w)
{
	if (w->off > w->struct_size || w->struct_size - w->off < TAG_SIZE)
		return 0;
	return dt_be32_(w->structs + w->off);
}

/* Property names the node table keeps, tested on length first. */
static bool name_is(const char *name, uint32_t len, const char *want, uint32_t want_len)
{
	return len == want_len && FC_MEMCMP(name, want, len) == 0;
}

/* libfdt's cell-count rules: one u32 of at most FDT_MAX_NCELLS. */
static int8_t cells_value(const uint8_t *value, uint32_t len, bool zero_ok)
{
	uint32_t v;

	if (len != 4)
		return -1;
	v = dt_be32_(value);
	if (v > FDT_MAX_NCELLS || (v == 0 && !zero_ok))
		return -1;
	return (int8_t)v;
}

/* The first property of each name counts, as fdt_getprop() finds it. */
struct node_props {
	bool phandle_seen, linux_seen, ac_seen, sc_seen;
	bool phandle_ok, linux_ok; /* 4 bytes long */
	uint32_t phandle, linux_phandle;
};

static void read_prop(const struct dt_walk *w, const uint8_t *prop, uint32_t len,
		      struct node_props *p, struct dt_walk_node *node)
{
	uint32_t nlen;
	const char *name = dt_walk_prop_name_(w, dt_be32_(prop + 4), &nlen);
	const uint8_t *value = prop + 8;

	if (!name)
		return;
	if (name[0] == 'p' && !p->phandle_seen && name_is(name, nlen, "phandle", 7)) {
		p->phandle_seen = true;
		p->phandle_ok = len == 4;
		p->phandle = p->phandle_ok ? dt_be32_(value) : 0;
	} else if (name[0] == 'l' && !p->linux_seen && name_is(name, nlen, "linux,phandle", 13)) {
		p->linux_seen = true;
		p->linux_ok = len == 4;
		p->linux_phandle = p->linux_ok ? dt_be32_(value) : 0;
	} else if (name[0] == '#') {
		if (!p->ac_seen && name_is(name, nlen, "#address-cells", 14)) {
			p->ac_seen = true;
			node->address_cells = cells_value(value, len, false);
		} else if (!p->sc_seen && name_is(name, nlen, "#size-cells", 11)) {
			p->sc_seen = true;
			node->size_cells = cells_value(value, len, true);
		}
	}
}

/* Read the properties that follow a node's name, up to its first child or end. */
static int read_props(struct dt_walk *w, struct dt_walk_node *node)
{
	struct node_props p = { 0 };

	for (;;) {
		uint32_t tag = tag_at(w);
		uint32_t len;

		if (tag == FDT_NOP) {
			w->off += TAG_SIZE;
			continue;
		}
		if (tag != FDT_PROP)
			break;
		if (w->struct_size - w->off < TAG_SIZE + 8)
			return FC_EBADDTB;
		len = dt_be32_(w->structs + w->off + TAG_SIZE);
		if (len > w->struct_size - w->off - TAG_SIZE - 8)
			return FC_EBADDTB;
		read_prop(w, w->structs + w->off + TAG_SIZE, len, &p, node);
		w->off += TAG_SIZE + 8 + align4(len);
	}
	/* fdt_get_phandle: `phandle` if 4 bytes long, else `linux,phandle` */
	node->phandle = p.phandle_ok ? p.phandle : p.linux_phandle;
	if (node->phandle == UINT32_MAX)
		node->phandle = 0;
	return 0;
}

int dt_walk_next_(struct dt_walk *w, struct dt_walk_node *node)
{
	for (;;) {
		uint32_t tag = tag_at(w);
		uint32_t room, len;

		switch (tag) {
		case FDT_BEGIN_NODE:
			room = w->struct_size - w->off - TAG_SIZE;
			len = dt_str_len_((const char *)w->structs + w->off + TAG_SIZE, room);
			if (len == room)
				return FC_EBADDTB;
			node->offset = (int32_t)w->off;
			node->address_cells = 2;
			node->size_cells = 1;
			w->off += TAG_SIZE + align4(len + 1);
			return read_props(w, node) < 0 ? FC_EBADDTB : DT_WALK_NODE;
		case FDT_END_NODE:
			w->off += TAG_SIZE;
			return DT_WALK_UP;
		case FDT_END:
			return DT_WALK_DONE;
		case FDT_NOP:
			w->off += TAG_SIZE;
			break;
		case FDT_PROP: /* after a subnode: libfdt never reads it either */
			if (w->struct_size - w->off < TAG_SIZE + 8)
				return FC_EBADDTB;
			len = dt_be32_(w->structs + w->off + TAG_SIZE);
			if (len > w->struct_size - w->off - TAG_SIZE - 8)
				return FC_EBADDTB;
			w->off += TAG_SIZE + 8 + align4(len);
			break;
		default:
			return FC_EBADDTB;
		}
	}
}
