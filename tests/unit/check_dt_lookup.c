/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Path, alias, parent, #cells and phandle lookups checked against libfdt on
 * every committed DTB, with no caches, one-slot caches and large ones; hash
 * collisions forced on purpose; missing paths and unit-address rules.
 */
#include "check_util.h"

#include <glib.h>
#include <libfdt.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/dt.h"

/* Built DTBs live in the build tree, the kernel's in the source tree. */
static void *load_dtb(const char *name, gboolean built)
{
	const char *top = g_getenv(built ? "top_builddir" : "top_srcdir");
	char *path = g_build_filename(top ? top : ".", "fixtures", "dt", name, NULL);
	gchar *data = NULL;
	gsize len = 0;

	ck_assert_msg(g_file_get_contents(path, &data, &len, NULL), "cannot read %s", path);
	ck_assert_msg(fdt_check_full(data, len) == 0, "%s is not a valid DTB", path);
	g_free(path);
	return data;
}

struct tree {
	void *fdt;
	struct fc_dt dt;
	struct fc_dt_node *nodes;
	struct fc_dt_lookups lk;
	struct fc_dt_path_slot path_slots[1024];
	struct fc_cache_slot prop_slots[1024];
	struct fc_cache_slot node_slots[1024];
	struct fc_cache_slot cell_slots[1024];
	struct fc_dt_lookups_config cfg;
};

/* Every cache of the lookups gets the same number of slots. */
static void tree_open(struct tree *t, void *fdt, uint32_t slots)
{
	int n = fc_dt_count_nodes(fdt);

	ck_assert_int_gt(n, 0);
	t->fdt = fdt;
	t->nodes = g_new0(struct fc_dt_node, n);
	ck_assert_int_eq(fc_dt_init(&t->dt, fdt, t->nodes, (uint32_t)n), n);
	t->cfg = (struct fc_dt_lookups_config){ .path_slots = t->path_slots,
						.npath = slots,
						.prop_slots = t->prop_slots,
						.nprops = slots,
						.node_slots = t->node_slots,
						.nnode = slots,
						.cell_slots = t->cell_slots,
						.ncells = slots };
	ck_assert_int_eq(fc_dt_lookups_init(&t->lk, &t->dt, &t->cfg), 0);
}

static void tree_close(struct tree *t)
{
	g_free(t->nodes);
}

/* libfdt's answer as ours would say it. */
static int libfdt_path(const void *fdt, const char *path)
{
	int off = fdt_path_offset(fdt, path);

	return off >= 0 ? off : FC_ENOENT;
}

/*
 * A counted call's answer off for a key of len bytes, and what its inline
 * hit path said next (got, with hit): when the call found a node, or found
 * that none has the key (FC_ENOENT), the hit path must give the same answer
 * at once (the call left the key in its home slot) if the cache has slots
 * and the key fits in one, else miss.
 */
static int check_hit(struct tree *t, const char *key, int off, bool got, int hit)
{
	bool held = (off >= 0 || off == FC_ENOENT) && t->cfg.npath &&
		    strlen(key) <= FC_DT_PATH_BYTES;

	ck_assert_msg(got == held, "%s: the hit path %s", key, got ? "hits" : "misses");
	if (held)
		ck_assert_int_eq(hit, off);
	return off;
}

/* fc_dt_path_offset(), its hit path checked. */
static int path_of(struct tree *t, const char *path)
{
	uint32_t len = (uint32_t)strlen(path);
	int off = fc_dt_path_offset(&t->lk, path, len), hit = -1;
	bool got = fc_dt_path_get(&t->lk, path, len, &hit);

	return check_hit(t, path, off, got, hit);
}

/* fc_dt_alias_offset(), its hit path checked. */
static int alias_of(struct tree *t, const char *name)
{
	uint32_t len = (uint32_t)strlen(name);
	int off = fc_dt_alias_offset(&t->lk, name, len), hit = -1;
	bool got = fc_dt_alias_get(&t->lk, name, len, &hit);

	return check_hit(t, name, off, got, hit);
}

/* path with every unit address left out ("/soc/serial@10" -> "/soc/serial"). */
static char *strip_units(const char *path)
{
	GString *s = g_string_new(NULL);

	for (const char *p = path; *p; p++) {
		if (*p == '@')
			while (p[1] && p[1] != '/')
				p++;
		else
			g_string_append_c(s, *p);
	}
	return g_string_free(s, FALSE);
}

static void check_node_paths(struct tree *t, int off)
{
	char path[1024], *bare, *odd;

	ck_assert_int_eq(fdt_get_path(t->fdt, off, path, sizeof(path)), 0);
	/* twice: the second answer comes from the cache when it has slots */
	ck_assert_int_eq(path_of(t, path), off);
	ck_assert_int_eq(path_of(t, path), off);
	bare = strip_units(path);
	ck_assert_int_eq(path_of(t, bare), libfdt_path(t->fdt, bare));
	ck_assert_int_eq(path_of(t, bare), libfdt_path(t->fdt, bare));
	odd = g_strdup_printf("/%s/", path);
	ck_assert_int_eq(path_of(t, odd), libfdt_path(t->fdt, odd));
	g_free(odd);
	odd = g_strdup_printf("%s/no-such-node", path[1] ? path : "");
	ck_assert_int_eq(path_of(t, odd), FC_ENOENT);
	ck_assert_int_eq(libfdt_path(t->fdt, odd), FC_ENOENT);
	g_free(odd);
	g_free(bare);
}

/*
 * The inline hit paths give the call's answer, once the call has filled the
 * caches (given no node slots, lk keeps the last node in a slot of its own).
 */
static void check_node_hits(struct tree *t, int off, int parent)
{
	uint32_t ac, sc, eac, esc;
	int p;

	if (parent < 0) {
		ck_assert(!fc_dt_parent_get(&t->lk, off, &p));
		return;
	}
	ck_assert(fc_dt_parent_get(&t->lk, off, &p));
	ck_assert_int_eq(p, parent);
	if (fc_dt_reg_cells(&t->lk, off, &eac, &esc) == 0) {
		ck_assert(fc_dt_reg_cells_get(&t->lk, off, &ac, &sc));
		ck_assert_uint_eq(ac, eac);
		ck_assert_uint_eq(sc, esc);
	} else {
		ck_assert(!fc_dt_reg_cells_get(&t->lk, off, &ac, &sc));
	}
}

/* fc_dt_cells_id() and its hit path agree with fc_dt_cells() (want). */
static void check_cells_id(struct tree *t, int off, const char *name, int want)
{
	int id = fc_dt_cells_name(&t->lk, name);
	uint32_t v;

	if (id == FC_ENOSPC) {
		ck_assert_uint_eq(t->lk.ncell_names, FC_DT_CELL_NAMES);
		return;
	}
	ck_assert_int_ge(id, 0);
	ck_assert_int_eq(fc_dt_cells_name(&t->lk, name), id);
	ck_assert_int_eq(fc_dt_cells_id(&t->lk, off, id), want);
	ck_assert_int_eq(fc_dt_cells_id(&t->lk, off, id), want);
	/* the value just read is cached even without cells slots (one slot of lk's own) */
	if (want >= 0) {
		ck_assert(fc_dt_cells_get(&t->lk, off, id, &v));
		ck_assert_uint_eq(v, (uint32_t)want);
	} else {
		ck_assert(!fc_dt_cells_get(&t->lk, off, id, &v));
	}
}

static void check_node_cells(struct tree *t, int off)
{
	int poff, len, parent = fdt_parent_offset(t->fdt, off);
	uint32_t ac = 99, sc = 99;

	ck_assert_int_eq(fc_dt_parent_offset(&t->lk, off), parent >= 0 ? parent : FC_ENOENT);
	if (parent >= 0) {
		int lac = fdt_address_cells(t->fdt, parent), lsc = fdt_size_cells(t->fdt, parent);
		int rc = fc_dt_reg_cells(&t->lk, off, &ac, &sc);

		if (lac < 0 || lsc < 0) {
			ck_assert_int_eq(rc, FC_EBADDTB);
		} else {
			ck_assert_int_eq(rc, 0);
			ck_assert_uint_eq(ac, (uint32_t)lac);
			ck_assert_uint_eq(sc, (uint32_t)lsc);
		}
	} else {
		ck_assert_int_eq(fc_dt_reg_cells(&t->lk, off, &ac, &sc), FC_ENOENT);
	}
	check_node_hits(t, off, parent);
	fdt_for_each_property_offset(poff, t->fdt, off) {
		const char *name;
		const fdt32_t *v = fdt_getprop_by_offset(t->fdt, poff, &name, &len);

		if (name[0] != '#')
			continue;
		/* the first property of that name is the one libfdt reads */
		v = fdt_getprop(t->fdt, off, name, &len);
		if (len == 4 && fdt32_to_cpu(*v) <= INT32_MAX)
			ck_assert_int_eq(fc_dt_cells(&t->lk, off, name), (int)fdt32_to_cpu(*v));
		else
			ck_assert_int_eq(fc_dt_cells(&t->lk, off, name), FC_EBADDTB);
		check_cells_id(t, off, name, fc_dt_cells(&t->lk, off, name));
	}
	check_cells_id(t, off, "#no-such-cells", FC_ENOENT);
	ck_assert_int_eq(fc_dt_cells(&t->lk, off, "#no-such-cells"), FC_ENOENT);
}

/*
 * Every node's phandle through the node table's scan, a complete index and a
 * replay whose cache has slots slots (one slot: each new phandle evicts),
 * each against libfdt's fdt_node_offset_by_phandle; then a missing phandle.
 */
static void check_phandles(struct tree *t, uint32_t slots)
{
	uint32_t nidx = fc_dt_index_slots(t->dt.nphandles), steps, absent = 1;
	struct fc_cache_slot *islots = g_new0(struct fc_cache_slot, nidx);
	struct fc_cache_slot rslots[1024];
	struct fc_cache index;
	struct fc_dt_replay r;

	ck_assert_int_ge(fc_dt_index_build(&index, t->fdt, islots, nidx), 0);
	ck_assert_int_eq(fc_dt_replay_init(&r, &t->dt, slots ? FC_DT_HASH32 : FC_DT_NONE,
					   slots ? rslots : NULL, slots), 0);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < t->dt.nnodes; i++) {
			uint32_t ph = t->nodes[i].phandle;
			int want;

			if (ph == 0 || ph == UINT32_MAX)
				continue;
			want = fdt_node_offset_by_phandle(t->fdt, ph);
			ck_assert_int_ge(want, 0);
			ck_assert_int_eq(fc_dt_scan(&t->dt, ph, &steps), want);
			ck_assert_int_eq(fc_dt_index_lookup(&index, ph), want);
			ck_assert_int_eq(fc_dt_replay_lookup(&r, ph), want);
			if (ph >= absent)
				absent = ph + 1;
		}
	}
	ck_assert_int_lt(fdt_node_offset_by_phandle(t->fdt, absent), 0);
	ck_assert_int_eq(fc_dt_scan(&t->dt, absent, &steps), FC_ENOENT);
	ck_assert_int_eq(fc_dt_index_lookup(&index, absent), FC_ENOENT);
	ck_assert_int_lt(fc_dt_replay_lookup(&r, absent), 0);
	ck_assert_uint_eq(r.stats.lookups, r.stats.hits + r.stats.misses);
	g_free(islots);
}

/* Every alias, alias/child and a missing alias; returns the aliases seen. */
static int check_aliases(struct tree *t)
{
	int aliases = fdt_path_offset(t->fdt, "/aliases");
	int poff, count = 0;

	if (aliases < 0) {
		ck_assert_int_eq(fc_dt_alias_offset(&t->lk, "serial0", 7), FC_ENOENT);
		return 0;
	}
	fdt_for_each_property_offset(poff, t->fdt, aliases) {
		const char *name;
		int len, target, child;

		fdt_getprop_by_offset(t->fdt, poff, &name, &len);
		target = libfdt_path(t->fdt, name);
		ck_assert_int_eq(alias_of(t, name), target);
		ck_assert_int_eq(alias_of(t, name), target);
		ck_assert_int_eq(path_of(t, name), target);
		ck_assert_int_eq(path_of(t, name), target);
		count++;
		child = target >= 0 ? fdt_first_subnode(t->fdt, target) : -1;
		if (child >= 0) {
			char *sub = g_strdup_printf("%s/%s", name, fdt_get_name(t->fdt, child, NULL));

			ck_assert_int_eq(path_of(t, sub), libfdt_path(t->fdt, sub));
			ck_assert_int_eq(path_of(t, sub), child);
			g_free(sub);
		}
	}
	ck_assert_int_eq(alias_of(t, "no-such-alias"), FC_ENOENT);
	ck_assert_int_eq(path_of(t, "no-such-alias/x"), FC_ENOENT);
	return count;
}

static const struct {
	const char *name;
	gboolean built;
} dtbs[] = {
	{ "small-board.dtb", TRUE },
	{ "board-500.dtb", TRUE },
	{ "soc-900.dtb", TRUE },
	{ "kernel/rk3399-rock960.dtb", FALSE },
	{ "../boots/raspi3b/bcm2837-rpi-3-b.dtb", FALSE },
	{ "../boots/sabrelite/imx6q-sabrelite.dtb", FALSE },
	{ "../boots/vexpress-a15/vexpress-v2p-ca15-tc1.dtb", FALSE },
	{ "../boots/virt/virt.dtb", FALSE },
};

/* Cache sizes: none, one slot each (constant eviction), and large. */
static const uint32_t cache_sizes[] = { 0, 1, 1024 };

START_TEST(every_dtb_matches_libfdt)
{
	void *fdt = load_dtb(dtbs[_i / 3].name, dtbs[_i / 3].built);
	struct tree *t = g_new0(struct tree, 1);
	uint32_t slots = cache_sizes[_i % 3];
	const struct fc_dt_lookup_stats *st = t->lk.stats;
	uint32_t hits;
	int off;

	tree_open(t, fdt, slots);
	for (off = 0; off >= 0; off = fdt_next_node(fdt, off, NULL)) {
		check_node_paths(t, off);
		check_node_cells(t, off);
	}
	check_aliases(t);
	check_phandles(t, slots);
	ck_assert_int_eq(path_of(t, "/"), 0);
	ck_assert_int_eq(path_of(t, "//"), 0);
	ck_assert_int_eq(fc_dt_path_offset(&t->lk, "/", 0), FC_EINVAL);
	for (int k = 0; k < FC_DT_KINDS; k++)
		ck_assert_uint_eq(st[k].lookups, st[k].hits + st[k].misses);
	if (slots == 0)
		ck_assert_uint_eq(st[FC_DT_KIND_PATH].hits, 0);
	ck_assert_uint_eq(st[FC_DT_KIND_PARENT].lookups, t->dt.nnodes);
	/*
	 * Fresh caches, every node's path twice over: the second pass hits
	 * wherever no other path shares the slot (about e^(-N/slots) of N).
	 */
	ck_assert_int_eq(fc_dt_lookups_init(&t->lk, &t->dt, &t->cfg), 0);
	for (int pass = 0; pass < 2; pass++) {
		hits = st[FC_DT_KIND_PATH].hits;
		for (off = 0; off >= 0; off = fdt_next_node(fdt, off, NULL)) {
			char path[1024];

			ck_assert_int_eq(fdt_get_path(fdt, off, path, sizeof(path)), 0);
			ck_assert_int_eq(path_of(t, path), off);
		}
	}
	if (slots == 1024)
		ck_assert_uint_ge(st[FC_DT_KIND_PATH].hits - hits, t->dt.nnodes / 4);
	else
		ck_assert_uint_le(st[FC_DT_KIND_PATH].hits - hits, slots);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

START_TEST(kernel_dtb_has_aliases)
{
	void *fdt = load_dtb("kernel/rk3399-rock960.dtb", FALSE);
	struct tree *t = g_new0(struct tree, 1);

	tree_open(t, fdt, 64);
	ck_assert_int_gt(check_aliases(t), 5);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/* A blob of 4 KiB being written with libfdt's sequential writer, its root open. */
static void *begin_tree(uint32_t address_cells)
{
	void *fdt = g_malloc0(4096);

	ck_assert_int_eq(fdt_create(fdt, 4096), 0);
	ck_assert_int_eq(fdt_finish_reservemap(fdt), 0);
	ck_assert_int_eq(fdt_begin_node(fdt, ""), 0);
	ck_assert_int_eq(fdt_property_u32(fdt, "#address-cells", address_cells), 0);
	return fdt;
}

/* Close the root of a begin_tree() blob; it must be a valid DTB. */
static void *end_tree(void *fdt)
{
	ck_assert_int_eq(fdt_end_node(fdt), 0);
	ck_assert_int_eq(fdt_finish(fdt), 0);
	ck_assert_int_eq(fdt_check_full(fdt, 4096), 0);
	return fdt;
}

/* A root with children named names[0..n), and /aliases from alias pairs. */
static void *build_flat(const char *const *names, int n, const char *const *aliases, int na)
{
	void *fdt = begin_tree(1);

	if (na) {
		ck_assert_int_eq(fdt_begin_node(fdt, "aliases"), 0);
		for (int i = 0; i < na; i++)
			ck_assert_int_eq(fdt_property_string(fdt, aliases[2 * i], aliases[2 * i + 1]),
					 0);
		ck_assert_int_eq(fdt_end_node(fdt), 0);
	}
	for (int i = 0; i < n; i++) {
		ck_assert_int_eq(fdt_begin_node(fdt, names[i]), 0);
		ck_assert_int_eq(fdt_property_u32(fdt, "#clock-cells", (uint32_t)i), 0);
		ck_assert_int_eq(fdt_end_node(fdt), 0);
	}
	return end_tree(fdt);
}

START_TEST(unit_addresses_first_sibling)
{
	static const char *const names[] = { "serial@2", "serial@1", "serialx", "serial" };
	static const char *const aliases[] = { "serial0", "/serial@1", "bad", "serial@1",
					       "loop", "loop" };
	void *fdt = build_flat(names, 4, aliases, 3);
	struct tree *t = g_new0(struct tree, 1);
	const char *paths[] = { "/serial@1", "/serial", "/serial@2", "/serialx", "/seria",
				"/serial@", "serial0", "bad", "loop", "loop/x", "/aliases" };

	/* one slot: every path evicts the last, and each answer is still right */
	tree_open(t, fdt, 1);
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < G_N_ELEMENTS(paths); i++)
			ck_assert_int_eq(path_of(t, paths[i]),
					 strcmp(paths[i], "bad") && strncmp(paths[i], "loop", 4)
						 ? libfdt_path(fdt, paths[i])
						 : FC_ENOENT);
	/* "serial" (no unit) is the first sibling it matches: serial@2 */
	ck_assert_int_eq(path_of(t, "/serial"), fdt_path_offset(fdt, "/serial@2"));
	ck_assert_int_eq(fc_dt_cells(&t->lk, path_of(t, "/serial@1"), "#clock-cells"), 1);
	ck_assert_int_eq(fc_dt_cells(&t->lk, path_of(t, "/serial"), "#clock-cells"), 0);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * Two names "n<u>" whose keys (key() of lead + name) are the same 32 bits:
 * a birthday search.
 */
static void find_colliding(uint32_t (*key)(const char *, uint32_t), const char *lead, char *a,
			   char *b, size_t len)
{
	GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
	char name[32];

	for (guint u = 0;; u++) {
		uint32_t h;
		gpointer prev;

		snprintf(name, sizeof(name), "%sn%u", lead, u);
		h = key(name, (uint32_t)strlen(name));
		if (g_hash_table_lookup_extended(seen, GUINT_TO_POINTER(h), NULL, &prev)) {
			snprintf(a, len, "n%u", GPOINTER_TO_UINT(prev));
			snprintf(b, len, "n%u", u);
			break;
		}
		g_hash_table_insert(seen, GUINT_TO_POINTER(h), GUINT_TO_POINTER(u));
	}
	g_hash_table_destroy(seen);
}

START_TEST(hash_collision_is_verified)
{
	char a[16], b[16];
	const char *names[2] = { a, b };
	void *fdt;
	struct tree *t = g_new0(struct tree, 1);
	char pa[20], pb[20];

	find_colliding(fc_dt_path_key, "/", a, b, sizeof(a));
	fdt = build_flat(names, 2, NULL, 0);
	snprintf(pa, sizeof(pa), "/%s", a);
	snprintf(pb, sizeof(pb), "/%s", b);
	tree_open(t, fdt, 1024);
	ck_assert_int_eq(path_of(t, pa), fdt_path_offset(fdt, pa));
	/* same key as pa: the cached node fails verification, pb is resolved */
	ck_assert_int_eq(path_of(t, pb), fdt_path_offset(fdt, pb));
	ck_assert_uint_eq(t->lk.stats[FC_DT_KIND_PATH].collisions, 1);
	ck_assert_int_eq(path_of(t, pa), fdt_path_offset(fdt, pa));
	ck_assert_uint_eq(t->lk.stats[FC_DT_KIND_PATH].collisions, 2);
	ck_assert_uint_eq(t->lk.stats[FC_DT_KIND_PATH].hits, 0);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/* A root with #address-cells ac and #size-cells sc (raw, maybe invalid) and one child. */
static void *build_cells_root(uint32_t ac, uint32_t sc)
{
	void *fdt = begin_tree(ac);

	ck_assert_int_eq(fdt_property_u32(fdt, "#size-cells", sc), 0);
	ck_assert_int_eq(fdt_begin_node(fdt, "child@0"), 0);
	ck_assert_int_eq(fdt_end_node(fdt), 0);
	return end_tree(fdt);
}

/*
 * A parent with an invalid count: the calls give libfdt's answers, and the
 * node cache does not hold the child (its value has no room for an invalid
 * count), so the hit paths send the caller to the calls every time.
 */
START_TEST(invalid_parent_cells_not_cached)
{
	static const uint32_t counts[][2] = { { 0, 1 }, { 5, 1 }, { 2, 5 }, { 1, 0 } };
	void *fdt = build_cells_root(counts[_i][0], counts[_i][1]);
	struct tree *t = g_new0(struct tree, 1);
	int child = fdt_first_subnode(fdt, 0), p;
	gboolean valid = _i == 3;
	uint32_t ac, sc;

	tree_open(t, fdt, 1024);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(fc_dt_parent_offset(&t->lk, child), 0);
		ck_assert_int_eq(fc_dt_reg_cells(&t->lk, child, &ac, &sc), valid ? 0 : FC_EBADDTB);
		ck_assert_int_eq(fdt_address_cells(fdt, 0) < 0 || fdt_size_cells(fdt, 0) < 0, !valid);
		ck_assert(fc_dt_parent_get(&t->lk, child, &p) == valid);
		ck_assert(fc_dt_reg_cells_get(&t->lk, child, &ac, &sc) == valid);
	}
	if (valid) {
		ck_assert_uint_eq(ac, 1);
		ck_assert_uint_eq(sc, 0);
		ck_assert_int_eq(p, 0);
	}
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * Keys no node has (-1, the free-slot key; the root; INT32_MIN; an offset
 * inside a node) miss on every hit path, whatever the cache holds, and a
 * (node, id) pair that is no node's never reads another pair's value
 * (offset 1 with id 0 once shared the key of offset 0 with id 4).
 */
START_TEST(hit_paths_refuse_foreign_keys)
{
	static const int foreign[] = { -1, 0, INT32_MIN, 1, 2, -4, INT32_MAX };
	static const uint32_t sizes[] = { 0, 1, 2, 1024 };
	void *fdt = build_cells_root(1, 0);
	struct tree *t = g_new0(struct tree, 1);
	static const char *const names[] = { "#a-cells", "#b-cells", "#c-cells", "#d-cells",
					     "#address-cells" };
	int child = fdt_first_subnode(fdt, 0), p;
	uint32_t ac, sc, v;

	tree_open(t, fdt, sizes[_i]);
	for (int round = 0; round < 2; round++) {
		for (size_t k = 0; k < G_N_ELEMENTS(foreign); k++) {
			ck_assert(!fc_dt_parent_get(&t->lk, foreign[k], &p));
			ck_assert(!fc_dt_reg_cells_get(&t->lk, foreign[k], &ac, &sc));
			for (int id = 0; id < 16; id++)
				ck_assert(foreign[k] == 0 || !fc_dt_cells_get(&t->lk, foreign[k], id, &v));
		}
		for (int id = -1; id < 16; id++)
			ck_assert(!fc_dt_cells_get(&t->lk, 0, id, &v) || (id == 4 && v == 1));
		/* fill: the child's parent, the root's #address-cells as id 4 */
		ck_assert_int_eq(fc_dt_parent_offset(&t->lk, child), 0);
		for (size_t n = 0; n < G_N_ELEMENTS(names); n++)
			ck_assert_int_eq(fc_dt_cells_name(&t->lk, names[n]), (int)n);
		ck_assert_int_eq(fc_dt_cells_id(&t->lk, 0, 4), 1);
		ck_assert(fc_dt_cells_get(&t->lk, 0, 4, &v));
		ck_assert_uint_eq(v, 1);
		ck_assert_int_eq(fc_dt_cells_id(&t->lk, 1, 0), FC_ENOENT);
		ck_assert(!fc_dt_cells_get(&t->lk, 1, 0, &v));
	}
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/* A chain of nodes whose paths grow past FC_DT_PATH_BYTES, and an alias to the deepest. */
static void *build_deep(char *deepest, size_t room)
{
	void *fdt = begin_tree(1);
	char *p = deepest;

	*p = '\0';
	for (int depth = 0; depth < 8; depth++) {
		ck_assert_int_eq(fdt_begin_node(fdt, "a-rather-long-node-name@10"), 0);
		p += g_snprintf(p, room - (size_t)(p - deepest), "/a-rather-long-node-name@10");
	}
	for (int depth = 0; depth < 8; depth++)
		ck_assert_int_eq(fdt_end_node(fdt), 0);
	ck_assert_int_eq(fdt_begin_node(fdt, "aliases"), 0);
	ck_assert_int_eq(fdt_property_string(fdt, "deep", deepest), 0);
	ck_assert_int_eq(fdt_end_node(fdt), 0);
	return end_tree(fdt);
}

/*
 * Paths longer than a slot's bytes: the hit path never answers them, the
 * call's hits are verified by the table (the second lookup of each is a
 * hit), and alias-relative paths below an alias to them resolve too.
 */
START_TEST(long_paths_verified_by_table)
{
	char deepest[512], path[600];
	void *fdt = build_deep(deepest, sizeof(deepest));
	struct tree *t = g_new0(struct tree, 1);
	const struct fc_dt_lookup_stats *st = &t->lk.stats[FC_DT_KIND_PATH];
	uint32_t hits;
	int off;

	tree_open(t, fdt, 1024);
	ck_assert_uint_gt(strlen(deepest), FC_DT_PATH_BYTES);
	/* every prefix of the deepest path that ends a component */
	for (size_t n = 1; n <= strlen(deepest); n++) {
		if (deepest[n] != '/' && deepest[n] != '\0')
			continue;
		memcpy(path, deepest, n);
		path[n] = '\0';
		hits = st->hits;
		off = path_of(t, path);
		ck_assert_int_eq(off, fdt_path_offset(fdt, path));
		ck_assert_int_eq(path_of(t, path), off);
		ck_assert_uint_eq(st->hits, hits + 1);
	}
	off = fdt_path_offset(fdt, deepest);
	ck_assert_int_eq(alias_of(t, "deep"), off);
	ck_assert_int_eq(path_of(t, "deep"), off);
	ck_assert_int_eq(path_of(t, "deep/"), off);
	ck_assert_int_eq(path_of(t, "deep/x"), FC_ENOENT);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * The hit test's word compare and the key's hash read every byte of a key,
 * of each length a slot holds (and the hash of longer ones), and none past
 * it: each key lives in a buffer of exactly its length (AddressSanitizer
 * catches a read past it).
 */
START_TEST(hit_compare_and_key_see_every_byte)
{
	for (uint32_t len = 1; len <= 2 * FC_DT_PATH_BYTES; len++) {
		char *a = g_malloc(len), *b = g_malloc(len);

		for (uint32_t i = 0; i < len; i++)
			a[i] = (char)('a' + i % 26);
		for (uint32_t i = 0; i < len; i++) {
			memcpy(b, a, len);
			b[i] ^= 0x20;
			if (len <= FC_DT_PATH_BYTES) {
				ck_assert_uint_ne(fc_dt_bytes_diff_(a, b, len), 0);
				ck_assert_uint_eq(fc_dt_bytes_diff_(a, a, len), 0);
			}
			ck_assert_msg(fc_dt_path_key(a, len) != fc_dt_path_key(b, len),
				      "byte %u of %u leaves the key", i, len);
		}
		g_free(a);
		g_free(b);
	}
}
END_TEST

/*
 * The same bytes as a path and as an alias name are different keys: a path
 * below an alias ("s0/c") is never taken for an alias of that name, and an
 * alias lookup never answers the path lookup of its bytes from a slot.
 */
START_TEST(alias_and_path_keys_differ)
{
	static const char *const names[] = { "c", "d" };
	static const char *const aliases[] = { "s0", "/c", "s1", "/d" };
	void *fdt = build_flat(names, 2, aliases, 2);
	struct tree *t = g_new0(struct tree, 1);
	int hit;

	ck_assert_uint_ne(fc_dt_path_key("s0", 2), fc_dt_alias_key("s0", 2));
	for (size_t slots = 1; slots <= 1024; slots *= 1024) {
		tree_open(t, fdt, (uint32_t)slots);
		ck_assert_int_eq(alias_of(t, "s0"), fdt_path_offset(fdt, "/c"));
		ck_assert(!fc_dt_path_get(&t->lk, "s0", 2, &hit));
		ck_assert_int_eq(path_of(t, "s0"), fdt_path_offset(fdt, "/c"));
		ck_assert_int_eq(path_of(t, "s1"), fdt_path_offset(fdt, "/d"));
		ck_assert_int_eq(alias_of(t, "s0/c"), FC_ENOENT);
		/* the alias "s0/c" is held as naming no node, never as the path's node */
		hit = 0;
		ck_assert(fc_dt_alias_get(&t->lk, "s0/c", 4, &hit));
		ck_assert_int_eq(hit, FC_ENOENT);
		ck_assert_int_eq(path_of(t, "/c"), fdt_path_offset(fdt, "/c"));
		tree_close(t);
	}
	g_free(t);
	g_free(fdt);
}
END_TEST

START_TEST(alias_collision_is_verified)
{
	static const char *const names[] = { "x", "y" };
	char a[16], b[16];
	const char *aliases[4] = { a, "/x", b, "/y" };
	struct tree *t = g_new0(struct tree, 1);
	const struct fc_dt_lookup_stats *st = &t->lk.stats[FC_DT_KIND_ALIAS];
	void *fdt;
	int hit;

	find_colliding(fc_dt_alias_key, "", a, b, sizeof(a));
	fdt = build_flat(names, 2, aliases, 2);
	tree_open(t, fdt, 1024);
	ck_assert_int_eq(alias_of(t, a), fdt_path_offset(fdt, "/x"));
	/* same key as a: the slot's bytes differ, b is resolved and takes the slot */
	ck_assert_int_eq(alias_of(t, b), fdt_path_offset(fdt, "/y"));
	ck_assert(!fc_dt_alias_get(&t->lk, a, (uint32_t)strlen(a), &hit));
	ck_assert_int_eq(alias_of(t, a), fdt_path_offset(fdt, "/x"));
	ck_assert_uint_eq(st->collisions, 2);
	ck_assert_uint_eq(st->hits, 0);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * One counted lookup of key (a path, or with alias an alias name) that
 * names no node, as libfdt says: FC_ENOENT, a hit exactly when cached
 * (then no search: scan steps unchanged), counted in not_found either way.
 */
static void check_missing(struct tree *t, const char *key, bool alias, bool cached)
{
	const struct fc_dt_lookup_stats *st = &t->lk.stats[alias ? FC_DT_KIND_ALIAS : FC_DT_KIND_PATH];
	struct fc_dt_lookup_stats before = *st;

	ck_assert_int_eq(libfdt_path(t->fdt, key), FC_ENOENT);
	ck_assert_int_eq(alias ? alias_of(t, key) : path_of(t, key), FC_ENOENT);
	ck_assert_uint_eq(st->lookups, before.lookups + 1);
	ck_assert_uint_eq(st->not_found, before.not_found + 1);
	ck_assert_uint_eq(st->hits, before.hits + cached);
	ck_assert_uint_eq(st->misses, before.misses + !cached);
	if (cached)
		ck_assert_uint_eq(st->scan_steps, before.scan_steps);
}

/*
 * Paths and aliases that name no node, on every committed DTB: the first
 * lookup searches, a repeat is a hit with FC_ENOENT (the inline hit paths
 * say so too), with no search; with one slot another key evicts the answer
 * and the next lookup searches again.
 */
START_TEST(repeated_missing_paths_are_hits)
{
	static const char *const missing[] = { "/no-such-node", "/chosen/no-such-node", "/memory/x",
						"/aliases/no-such-node", "no-such-alias",
						"no-such-alias/x", "//no-such-node//" };
	void *fdt = load_dtb(dtbs[_i].name, dtbs[_i].built);
	struct tree *t = g_new0(struct tree, 1);

	tree_open(t, fdt, 1024);
	for (size_t k = 0; k < G_N_ELEMENTS(missing); k++) {
		check_missing(t, missing[k], false, false);
		for (int round = 0; round < 3; round++)
			check_missing(t, missing[k], false, true);
	}
	/* /memory: a node on some trees, on others no node (rk3399 has memory-controller only) */
	if (libfdt_path(fdt, "/memory") == FC_ENOENT) {
		check_missing(t, "/memory", false, false);
		check_missing(t, "/memory", false, true);
	}
	check_missing(t, "no-such-alias2", true, false);
	check_missing(t, "no-such-alias2", true, true);
	/* the same bytes as a path: a key of its own, searched once (through the alias's answer) */
	check_missing(t, "no-such-alias2", false, false);
	check_missing(t, "no-such-alias2", false, true);
	tree_close(t);

	tree_open(t, fdt, 1);
	for (int round = 0; round < 3; round++) {
		check_missing(t, "/no-such-node", false, false);
		check_missing(t, "/no-such-node", false, true);
		ck_assert_int_eq(path_of(t, "/"), 0);
	}
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * A cached "no node" is verified as a node is: a path of the same key
 * (a birthday search) that names a node is not answered with FC_ENOENT,
 * and the other way round; each refusal is a collision.
 */
START_TEST(missing_path_collision_is_verified)
{
	char a[16], b[16];
	const char *names[1] = { a };
	struct tree *t = g_new0(struct tree, 1);
	const struct fc_dt_lookup_stats *st = &t->lk.stats[FC_DT_KIND_PATH];
	char pa[20], pb[20];
	void *fdt;

	find_colliding(fc_dt_path_key, "/", a, b, sizeof(a));
	fdt = build_flat(names, 1, NULL, 0);
	snprintf(pa, sizeof(pa), "/%s", a);
	snprintf(pb, sizeof(pb), "/%s", b);
	tree_open(t, fdt, 1024);
	check_missing(t, pb, false, false);
	/* same key as the cached "no node" of pb: refused, pa resolved to its node */
	ck_assert_int_eq(path_of(t, pa), fdt_path_offset(fdt, pa));
	ck_assert_int_ge(fdt_path_offset(fdt, pa), 0);
	ck_assert_uint_eq(st->collisions, 1);
	/* and pa's node is not pb's answer */
	check_missing(t, pb, false, false);
	ck_assert_uint_eq(st->collisions, 2);
	check_missing(t, pb, false, true);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

/*
 * A missing path longer than a slot's bytes: only the table could verify
 * "no node", so it is searched every time.
 */
START_TEST(long_missing_paths_searched)
{
	char deepest[512], path[600];
	void *fdt = build_deep(deepest, sizeof(deepest));
	struct tree *t = g_new0(struct tree, 1);

	tree_open(t, fdt, 1024);
	snprintf(path, sizeof(path), "%s/no-such-node", deepest);
	ck_assert_uint_gt(strlen(path), FC_DT_PATH_BYTES);
	for (int round = 0; round < 3; round++)
		check_missing(t, path, false, false);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

START_TEST(cells_names_register)
{
	void *fdt = load_dtb("kernel/rk3399-rock960.dtb", FALSE);
	struct tree *t = g_new0(struct tree, 1);
	static char names[FC_DT_CELL_NAMES + 1][16];

	tree_open(t, fdt, 64);
	ck_assert_int_eq(fc_dt_cells_name(&t->lk, ""), FC_EINVAL);
	ck_assert_int_eq(fc_dt_cells_name(&t->lk, NULL), FC_EINVAL);
	ck_assert_int_eq(fc_dt_cells_id(&t->lk, 0, 0), FC_EINVAL);
	for (int i = 0; i <= FC_DT_CELL_NAMES; i++) {
		snprintf(names[i], sizeof(names[i]), "#n%d-cells", i);
		ck_assert_int_eq(fc_dt_cells_name(&t->lk, names[i]),
				 i < FC_DT_CELL_NAMES ? i : FC_ENOSPC);
	}
	/* a registered name is found again by its bytes, not its pointer */
	ck_assert_int_eq(fc_dt_cells_name(&t->lk, (char[]){ "#n3-cells" }), 3);
	ck_assert_int_eq(fc_dt_cells_id(&t->lk, 0, FC_DT_CELL_NAMES), FC_EINVAL);
	ck_assert_int_eq(fc_dt_cells_id(&t->lk, -4, 0), FC_ENOENT);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

START_TEST(table_links_and_cells)
{
	void *fdt = load_dtb("kernel/rk3399-rock960.dtb", FALSE);
	struct tree *t = g_new0(struct tree, 1);

	tree_open(t, fdt, 0);
	for (uint32_t i = 0; i < t->dt.nnodes; i++) {
		const struct fc_dt_node *n = &t->dt.nodes[i];
		int ac = fdt_address_cells(fdt, n->offset), sc = fdt_size_cells(fdt, n->offset);

		ck_assert_int_eq(n->address_cells, ac < 0 ? -1 : ac);
		ck_assert_int_eq(n->size_cells, sc < 0 ? -1 : sc);
		ck_assert_uint_eq(n->phandle, fdt_get_phandle(fdt, n->offset) == UINT32_MAX
						      ? 0
						      : fdt_get_phandle(fdt, n->offset));
		ck_assert_uint_gt(n->end, i);
		if (i) {
			const struct fc_dt_node *p = &t->dt.nodes[fc_dt_node_parent(&t->dt, i)];

			ck_assert_int_eq(p->offset, fdt_parent_offset(fdt, n->offset));
			ck_assert_int_eq(n->reg_address_cells, p->address_cells);
			ck_assert_int_eq(n->reg_size_cells, p->size_cells);
		} else {
			ck_assert_int_eq(n->reg_address_cells, -1);
			ck_assert_int_eq(n->reg_size_cells, -1);
		}
	}
	ck_assert_uint_eq(t->dt.nodes[0].end, t->dt.nnodes);
	tree_close(t);
	g_free(t);
	g_free(fdt);
}
END_TEST

static Suite *dt_lookup_suite(void)
{
	Suite *s = suite_create("dt_lookup");
	TCase *tc = tcase_create("libfdt");

	tcase_add_loop_test(tc, every_dtb_matches_libfdt, 0, (int)(G_N_ELEMENTS(dtbs) * 3));
	tcase_add_test(tc, kernel_dtb_has_aliases);
	tcase_add_test(tc, unit_addresses_first_sibling);
	tcase_add_test(tc, hash_collision_is_verified);
	tcase_add_test(tc, table_links_and_cells);
	tcase_add_test(tc, cells_names_register);
	tcase_add_loop_test(tc, invalid_parent_cells_not_cached, 0, 4);
	tcase_add_test(tc, long_paths_verified_by_table);
	tcase_add_test(tc, alias_and_path_keys_differ);
	tcase_add_test(tc, hit_compare_and_key_see_every_byte);
	tcase_add_test(tc, alias_collision_is_verified);
	tcase_add_loop_test(tc, hit_paths_refuse_foreign_keys, 0, 4);
	tcase_add_loop_test(tc, repeated_missing_paths_are_hits, 0, (int)G_N_ELEMENTS(dtbs));
	tcase_add_test(tc, missing_path_collision_is_verified);
	tcase_add_test(tc, long_missing_paths_searched);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(dt_lookup_suite());
}
