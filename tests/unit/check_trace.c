/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"
#include "check_trace_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <libfdt.h>
#include <string.h>

#include "phandle/ph_gen.h"
#include "phandle/ph_trace.h"
#include "phandle/ph_tree.h"
#include "fdtcache/dt.h"

static guint32 at(const struct ph_trace *t, guint i)
{
	return g_array_index(t->phandles, guint32, i);
}

/* The reference model's trace of fdt, @core_init after core_init_after lookups. */
static void gen_reference(struct ph_trace *t, const void *fdt, const char *name,
			  guint core_init_after, GString *text)
{
	struct ph_tree tree;
	struct ph_gen_opts opts;

	ph_gen_defaults(&opts, PH_MODEL_REFERENCE);
	opts.core_init_after = core_init_after;
	ph_tree_build(&tree, fdt, fdt_totalsize(fdt));
	ph_gen(t, &tree, name, &opts, text);
	ph_tree_clear(&tree);
}

START_TEST(parse_values_comments_core_init)
{
	struct ph_trace t;
	GError *error = NULL;

	ck_assert(trace_parse(&t, "# a boot\n0x3c\n\n  12  # decimal\n0X1f\r\n@core_init\n7", &error));
	ck_assert_uint_eq(t.phandles->len, 4);
	ck_assert_uint_eq(at(&t, 0), 0x3c);
	ck_assert_uint_eq(at(&t, 1), 12);
	ck_assert_uint_eq(at(&t, 2), 0x1f);
	ck_assert_uint_eq(at(&t, 3), 7);
	ck_assert_uint_eq(t.core_init_at, 3);
	ph_trace_clear(&t);
	/* without the marker, core init comes before the first lookup */
	ck_assert(trace_parse(&t, "5\n6\n", &error));
	ck_assert_uint_eq(t.core_init_at, 0);
	ph_trace_clear(&t);
}
END_TEST

START_TEST(parse_markers_header_and_forms)
{
	struct ph_trace t;
	GError *error = NULL;
	static const char text[] =
		"# Synthetic boot trace\n"
		"# dtb: my board.dtb sha256 "
		"6098F71BAEA5DAA1634D4368617149FE040141C083A06B8D19F6502711542144\n"
		"0x1c # of_phandle_iterator_next+0x8c\n"
		"@core_init\n"
		"phandle 0x3d\n"
		"0xffffffff # an overlay's unresolved reference\n"
		"\t@user  \n"
		"7\n";

	ck_assert(trace_parse(&t, text, &error));
	ck_assert_uint_eq(t.phandles->len, 4);
	ck_assert_uint_eq(at(&t, 1), 0x3d);
	ck_assert_uint_eq(at(&t, 2), 0xffffffffu);
	ck_assert_uint_eq(t.core_init_at, 1);
	ck_assert(t.has_user);
	ck_assert_uint_eq(t.user_at, 3);
	ck_assert_str_eq(t.dtb_name, "my board.dtb");
	ck_assert_str_eq(t.dtb_sha256, "6098f71baea5daa1634d4368617149fe040141c083a06b8d19f6502711542144");
	ck_assert_uint_eq(t.dtb_line, 2);
	ck_assert_uint_eq(g_array_index(t.lines, guint, 3), 8);
	ph_trace_clear(&t);
	/* without @user every lookup is a boot lookup; a header after a lookup is a comment */
	ck_assert(trace_parse(&t, "5\n# dtb: x.dtb sha256 "
			    "6098f71baea5daa1634d4368617149fe040141c083a06b8d19f6502711542144\n6\n",
			&error));
	ck_assert(!t.has_user);
	ck_assert_uint_eq(t.user_at, 2);
	ck_assert_ptr_null(t.dtb_name);
	ph_trace_clear(&t);
	/* an empty trace parses, and is refused by ph_trace_require_lookups */
	ck_assert(trace_parse(&t, "# nothing\n\n", &error));
	ck_assert(!ph_trace_require_lookups(&t, "e.trace", &error));
	ck_assert_str_eq(error->message, "e.trace:2: no lookup in the trace");
	g_clear_error(&error);
	ph_trace_clear(&t);
}
END_TEST

START_TEST(parse_errors_name_file_and_line)
{
	BAD("1\nzz\n", "t.trace:2: not a phandle (hex 0x... or decimal)");
	BAD("1\n\n12abc", "t.trace:3: not a phandle (hex 0x... or decimal)");
	BAD("0x\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("-1\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("0x+5\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("1 2\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("0\n", "t.trace:1: phandle out of range (1..0xffffffff)");
		BAD("99999999999999999999999\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("@core_init\n1\n@core_init\n", "t.trace:3: second @core_init");
	BAD("@core\n", "t.trace:1: unknown marker (@core_init or @user)");
	BAD("1\n2\x00" "3\n", "t.trace:2: NUL byte in line");
	BAD("@user\n@user\n", "t.trace:2: second @user");
	BAD("@user\n@core_init\n", "t.trace:2: @core_init after @user");
	BAD("phandle\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("phandle 0x1 2\n", "t.trace:1: not a phandle (hex 0x... or decimal)");
	BAD("0x100000000\n", "t.trace:1: phandle out of range (1..0xffffffff)");
}
END_TEST

/*
 * A tree exercising the generator's property rules:
 *   /            interrupt-parent = <&intc>
 *   /intc  ph 1  #interrupt-cells = <2>
 *   /clk   ph 2  #clock-cells = <1>
 *   /gpio  ph 3  (no #gpio-cells: 0 args)
 *   /dev         clocks = <2 7 0 2 8>, reset-gpios = <3 3 1>, ngpios = <5>,
 *                pinctrl-names = "x", pinctrl-0 = <2 3>, vdd-supply = <3 9>,
 *                phys = <0x77 1 2>, interrupts-extended = <1 4 5 3>
 */
static void prop_cells(void *fdt, const char *name, const uint32_t *v, int n)
{
	fdt32_t cells[8];

	for (int i = 0; i < n; i++)
		cells[i] = cpu_to_fdt32(v[i]);
	ck_assert_int_eq(fdt_property(fdt, name, cells, n * (int)sizeof(cells[0])), 0);
}

#define PROP_CELLS(fdt, name, ...) \
	prop_cells(fdt, name, (const uint32_t[]){ __VA_ARGS__ }, \
		   (int)(sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t)))

/* A DTB being written with libfdt's sequential API, its root node open. */
static void *sw_tree_begin(void)
{
	void *fdt = g_malloc0(4096);

	ck_assert_int_eq(fdt_create(fdt, 4096), 0);
	ck_assert_int_eq(fdt_finish_reservemap(fdt), 0);
	ck_assert_int_eq(fdt_begin_node(fdt, ""), 0);
	return fdt;
}

/* Close the root node and finish the DTB, which must pass libfdt's full check. */
static void *sw_tree_end(void *fdt)
{
	ck_assert_int_eq(fdt_end_node(fdt), 0);
	ck_assert_int_eq(fdt_finish(fdt), 0);
	ck_assert_int_eq(fdt_check_full(fdt, 4096), 0);
	return fdt;
}

static void *rules_tree(void)
{
	void *fdt = sw_tree_begin();

	fdt_property_u32(fdt, "interrupt-parent", 1);
	fdt_begin_node(fdt, "intc");
	fdt_property_u32(fdt, "phandle", 1);
	fdt_property_u32(fdt, "#interrupt-cells", 2);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "clk");
	fdt_property_u32(fdt, "phandle", 2);
	fdt_property_u32(fdt, "#clock-cells", 1);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "gpio");
	fdt_property_u32(fdt, "phandle", 3);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "dev");
	PROP_CELLS(fdt, "clocks", 2, 7, 0, 2, 8);
	PROP_CELLS(fdt, "reset-gpios", 3, 3, 1);
	fdt_property_u32(fdt, "ngpios", 5);
	fdt_property_string(fdt, "pinctrl-names", "x");
	PROP_CELLS(fdt, "pinctrl-0", 2, 3);
	PROP_CELLS(fdt, "vdd-supply", 3, 9);
	PROP_CELLS(fdt, "phys", 0x77, 1, 2);
	PROP_CELLS(fdt, "interrupts-extended", 1, 4, 5, 3);
	fdt_end_node(fdt);
	return sw_tree_end(fdt);
}

START_TEST(generate_property_rules)
{
	/*
	 * interrupt-parent 1; clocks 2 (skip 7), 0 is an empty entry, 2 (skip
	 * 8); reset-gpios 3, then 3 and 1 are phandles too (gpio has no
	 * #gpio-cells); ngpios and pinctrl-names are no references; pinctrl-0
	 * 2 3; vdd-supply only its first cell 3; phys 0x77 is unresolved, so
	 * the rest of the list is not read; interrupts-extended 1 (skip 4 5), 3.
	 */
	static const guint32 expect[] = { 1, 2, 2, 3, 3, 1, 2, 3, 3, 0x77, 1, 3 };
	struct ph_trace t;
	void *fdt = rules_tree();
	GString *text = g_string_new(NULL);

	ph_trace_init(&t);
	gen_reference(&t, fdt, "rules.dtb", 0, text);
	ck_assert_uint_eq(t.phandles->len, G_N_ELEMENTS(expect));
	for (guint i = 0; i < G_N_ELEMENTS(expect); i++)
		ck_assert_uint_eq(at(&t, i), expect[i]);
	ck_assert_uint_eq(t.core_init_at, 0);
	ck_assert_ptr_nonnull(strstr(text->str, "\n0x77 # /dev phys\n"));
	ph_trace_clear(&t);
	/* the written text parses back to the same lookups */
	ph_trace_init(&t);
	ck_assert(ph_trace_parse(&t, "rules.trace", text->str, text->len, NULL));
	ck_assert_uint_eq(t.phandles->len, G_N_ELEMENTS(expect));
	ck_assert_uint_eq(at(&t, 9), 0x77);
	ph_trace_clear(&t);
	g_string_free(text, TRUE);
	g_free(fdt);
}
END_TEST

/*
 * The three ways the generator read numbers as phandles on kernel DTBs,
 * and an unresolvable reference:
 *   /p       ph 1  #gpio-cells = <2>, gpio-controller,
 *                  snps,nr-gpios = <32>  (a count, not a reference)
 *   /p/hog         gpio-hog, gpios = <5 0> (numbers: of_parse_own_gpio)
 *   /clocks        clocks = <0x1> (#clock-cells absent: 0 args)
 *   /__symbols__   clocks = "/clocks" (a path string)
 *   /__fixups__    clk = "/d:clocks:0"
 *   /__local_fixups__/d  clocks = <0>
 *   /d             clocks = <1 0xffffffff>, reset-gpios = <1 3 0>
 * Lookups: /clocks 1; /d clocks 1 and 0xffffffff (the list ends there),
 * reset-gpios 1.
 */
static void *corpus_tree(void)
{
	void *fdt = sw_tree_begin();

	fdt_begin_node(fdt, "p");
	fdt_property_u32(fdt, "phandle", 1);
	fdt_property_u32(fdt, "#gpio-cells", 2);
	fdt_property(fdt, "gpio-controller", NULL, 0);
	fdt_property_u32(fdt, "snps,nr-gpios", 32);
	fdt_begin_node(fdt, "hog");
	fdt_property(fdt, "gpio-hog", NULL, 0);
	PROP_CELLS(fdt, "gpios", 5, 0);
	fdt_end_node(fdt);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "clocks");
	fdt_property_u32(fdt, "clocks", 1);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "__symbols__");
	fdt_property_string(fdt, "clocks", "/clocks");
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "__fixups__");
	fdt_property_string(fdt, "clk", "/d:clocks:0");
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "__local_fixups__");
	fdt_begin_node(fdt, "d");
	fdt_property_u32(fdt, "clocks", 0);
	fdt_end_node(fdt);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "d");
	PROP_CELLS(fdt, "clocks", 1, 0xffffffff);
	PROP_CELLS(fdt, "reset-gpios", 1, 3, 0);
	fdt_end_node(fdt);
	return sw_tree_end(fdt);
}

START_TEST(generate_corpus_rules)
{
	static const guint32 expect[] = { 1, 1, 0xffffffff, 1 };
	struct ph_trace t, back;
	void *fdt = corpus_tree();
	GString *text = g_string_new(NULL);

	ph_trace_init(&t);
	gen_reference(&t, fdt, "corpus.dtb", 0, text);
	ck_assert_uint_eq(t.phandles->len, G_N_ELEMENTS(expect));
	for (guint i = 0; i < G_N_ELEMENTS(expect); i++)
		ck_assert_uint_eq(at(&t, i), expect[i]);
	/* the writer's 0xffffffff is a lookup the reader takes back */
	ck_assert_ptr_nonnull(strstr(text->str, "\n0xffffffff # /d clocks\n"));
	ph_trace_init(&back);
	ck_assert(ph_trace_parse(&back, "corpus.trace", text->str, text->len, NULL));
	ck_assert_uint_eq(back.phandles->len, t.phandles->len);
	ck_assert_uint_eq(at(&back, 2), 0xffffffff);
	ck_assert_str_eq(back.dtb_name, "corpus.dtb");
	ph_trace_clear(&back);
	ph_trace_clear(&t);
	g_string_free(text, TRUE);
	g_free(fdt);
}
END_TEST

/*
 * Names a DTB may hold but a trace line must not: a node and a property
 * whose names hold newlines and a forged lookup line. The property's name
 * ends in "-gpios", so both models read it as a reference (to /p, ph 1).
 */
#define FORGED_PROP "a\n0x99 # forged\nb-gpios"
static void *hostile_names_tree(void)
{
	void *fdt = sw_tree_begin();

	fdt_begin_node(fdt, "p");
	fdt_property_u32(fdt, "phandle", 1);
	fdt_end_node(fdt);
	fdt_begin_node(fdt, "d\n0x98\x1b[2J");
	fdt_property_string(fdt, "compatible", "vendor,dev");
	fdt_property_u32(fdt, FORGED_PROP, 1);
	fdt_end_node(fdt);
	return sw_tree_end(fdt);
}

/* Every line of text is a comment, a marker or a lookup of phandle 1. */
static void assert_no_forged_line(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++)
		ck_assert_msg(!**l || **l == '#' || **l == '@' || g_str_has_prefix(*l, "0x1 # "),
			      "forged line: %s", *l);
}

START_TEST(generate_escapes_dtb_names)
{
	static const enum ph_model models[] = { PH_MODEL_REFERENCE, PH_MODEL_BOOT };
	void *fdt = hostile_names_tree();
	struct ph_tree tree;

	ph_tree_build(&tree, fdt, fdt_totalsize(fdt));
	for (guint m = 0; m < G_N_ELEMENTS(models); m++) {
		struct ph_gen_opts opts;
		struct ph_trace t, back;
		GString *text = g_string_new(NULL);

		ph_gen_defaults(&opts, models[m]);
		ph_trace_init(&t);
		ph_gen(&t, &tree, "hostile.dtb", &opts, text);
		ck_assert_uint_gt(t.phandles->len, 0);
		assert_no_forged_line(text->str);
		ck_assert_ptr_nonnull(strstr(text->str, "0x1 # /d\\x0a0x98\\x1b[2J "
						       "a\\x0a0x99 # forged\\x0ab-gpios"));
		ph_trace_init(&back);
		ck_assert(ph_trace_parse(&back, "hostile.trace", text->str, text->len, NULL));
		ck_assert_uint_eq(back.phandles->len, t.phandles->len);
		ph_trace_clear(&back);
		ph_trace_clear(&t);
		g_string_free(text, TRUE);
	}
	ph_tree_clear(&tree);
	g_free(fdt);
}
END_TEST

/* A DTB built by `make` (in the build tree). */
static void *load_built_dtb(const char *name)
{
	const char *top = g_getenv("top_builddir");
	char *path = g_build_filename(top ? top : ".", "fixtures", "dt", name, NULL);
	GError *error = NULL;
	gsize len;
	void *fdt = ph_dtb_load(path, &len, &error);

	ck_assert_msg(fdt, "%s", error ? error->message : "?");
	g_free(path);
	return fdt;
}

START_TEST(generate_small_board)
{
	/*
	 * fixtures/dt/small-board.dts in tree order: / interrupt-parent gic(1);
	 * cpu@0 and cpu@1 each clocks cru(2), OPP table(3), vdd_cpu(4); vdd-cpu
	 * vin-supply vcc_sys(5); gpio clocks 2; serial clocks 2 2, resets 2,
	 * pinctrl-0 uart_xfer(7), pinctrl-1 0x99; i2c clocks 2, pinctrl-0
	 * i2c_xfer(8); sensor vdd-supply 5, interrupts-extended gpio0(6) with 2
	 * cells; led gpios 6.
	 */
	static const guint32 expect[] = { 1, 2, 3, 4, 2, 3, 4, 5, 2, 2, 2, 2, 7, 0x99, 2, 8, 5, 6, 6 };
	struct ph_trace t;
	void *fdt = load_built_dtb("small-board.dtb");

	ph_trace_init(&t);
	gen_reference(&t, fdt, "small-board.dtb", 0, NULL);
	ck_assert_uint_eq(t.phandles->len, G_N_ELEMENTS(expect));
	for (guint i = 0; i < G_N_ELEMENTS(expect); i++)
		ck_assert_uint_eq(at(&t, i), expect[i]);
	ph_trace_clear(&t);
	g_free(fdt);
}
END_TEST

START_TEST(generate_core_init_marker)
{
	void *fdt = load_built_dtb("small-board.dtb");
	GString *text = g_string_new(NULL);
	struct ph_trace t;

	/* after 2 lookups: the marker follows the second lookup line */
	ph_trace_init(&t);
	gen_reference(&t, fdt, "small-board.dtb", 2, text);
	ck_assert_uint_eq(t.core_init_at, 2);
	ck_assert_ptr_nonnull(strstr(text->str, "0x2 # /cpus/cpu@0 clocks\n@core_init\n0x3 "));
	ph_trace_clear(&t);
	ph_trace_init(&t);
	ck_assert(ph_trace_parse(&t, "s.trace", text->str, text->len, NULL));
	ck_assert_uint_eq(t.core_init_at, 2);
	ck_assert_uint_eq(t.phandles->len, 19);
	ph_trace_clear(&t);
	/* past the end: after the last of the 19 lookups */
	g_string_truncate(text, 0);
	ph_trace_init(&t);
	gen_reference(&t, fdt, "small-board.dtb", 100, text);
	ck_assert_uint_eq(t.core_init_at, 19);
	ck_assert(g_str_has_suffix(text->str, "0x6 # /leds/led-0 gpios\n@core_init\n"));
	ph_trace_clear(&t);
	g_string_free(text, TRUE);
	g_free(fdt);
}
END_TEST

START_TEST(dtb_load_rejects_bad_blobs)
{
	char *dir = g_dir_make_tmp("fc-trace-XXXXXX", NULL);
	char *path = g_build_filename(dir, "bad.dtb", NULL);
	void *fdt = load_built_dtb("small-board.dtb");
	GError *error = NULL;
	gsize len;
	char *expect;

	/* the first 100 bytes of a good DTB: truncated */
	ck_assert(g_file_set_contents(path, fdt, 100, NULL));
	ck_assert_ptr_null(ph_dtb_load(path, &len, &error));
	expect = g_strdup_printf("%s: not a valid DTB: %s", path, fdt_strerror(-FDT_ERR_TRUNCATED));
	ck_assert_str_eq(error->message, expect);
	g_clear_error(&error);
	g_free(expect);
	ck_assert(g_file_set_contents(path, "/dts-v1/;\n/ { };\n", -1, NULL));
	ck_assert_ptr_null(ph_dtb_load(path, &len, &error));
	ck_assert_int_eq(error->code, PH_ERROR_DTB);
	g_clear_error(&error);
	g_remove(path);
	g_rmdir(dir);
	g_free(path);
	g_free(dir);
	g_free(fdt);
}
END_TEST

/*
 * An independent model of Linux's lookups (arrays of node numbers, no
 * fc_cache, no node table), to check fc_dt_replay on the fixture traces.
 */
struct model {
	const guint32 *ph; /* node phandles in tree order */
	guint n;
	gint *slot;        /* node number or -1 */
	guint32 size;
	guint32 hits, misses, unresolved, evictions;
	guint64 steps;
};

static guint32 model_index(const struct model *m, enum fc_dt_policy policy, guint32 phandle)
{
	guint bits = 0;

	while ((1u << bits) < m->size)
		bits++;
	if (policy == FC_DT_MASK)
		return phandle & (m->size - 1);
	return bits ? (guint32)(phandle * 0x61C88647u) >> (32 - bits) : 0;
}

static void model_store(struct model *m, guint32 i, gint node)
{
	if (m->slot[i] >= 0 && m->ph[m->slot[i]] != m->ph[node])
		m->evictions++;
	m->slot[i] = node;
}

static void model_lookup(struct model *m, enum fc_dt_policy policy, gboolean live, guint32 phandle)
{
	guint32 i = model_index(m, policy, phandle);
	gint found = -1;

	if (live && m->slot[i] >= 0 && m->ph[m->slot[i]] == phandle) {
		m->hits++;
		return;
	}
	m->misses++;
	for (guint k = 0; k < m->n && found < 0; k++)
		if (m->ph[k] == phandle)
			found = (gint)k;
	m->steps += found < 0 ? m->n : (guint)found + 1;
	if (found < 0)
		m->unresolved++;
	else if (live)
		model_store(m, i, found);
}

static void model_core_init(struct model *m, enum fc_dt_policy policy)
{
	for (guint k = 0; k < m->n; k++) {
		guint32 i = model_index(m, policy, m->ph[k]);

		if (!m->ph[k])
			continue;
		if (policy == FC_DT_MASK || m->slot[i] < 0)
			model_store(m, i, (gint)k);
	}
}

static void model_replay(struct model *m, enum fc_dt_policy policy, const struct ph_trace *t)
{
	for (guint i = 0; i < t->phandles->len; i++) {
		if (i == t->core_init_at)
			model_core_init(m, policy);
		/* mask: no cache before core init */
		model_lookup(m, policy, policy == FC_DT_HASH32 || i >= t->core_init_at, at(t, i));
	}
}

/* board: a DTB built from fixtures/dt, or NULL with a committed one in kernel_dtb. */
static void check_fixture(const char *board, const char *kernel_dtb, const char *core_init_line)
{
	char *dtb = g_strdup_printf("%s.dtb", board);
	char *trace_path = g_strdup_printf("fixtures/traces/%s.trace", board);
	size_t blob_len;
	void *fdt = kernel_dtb ? fc_check_load(kernel_dtb, &blob_len) : load_built_dtb(dtb);
	int count = fc_dt_count_nodes(fdt);
	struct fc_dt_node *nodes = g_new(struct fc_dt_node, count);
	guint32 *ph = g_new0(guint32, count);
	struct fc_dt dt;
	struct ph_trace t;
	guint k = 0;
	size_t len;
	char *text = (char *)fc_check_load(trace_path, &len);
	GString *moved = g_string_new(NULL);
	char *mark;
	static const struct {
		enum fc_dt_policy policy;
		guint32 size;
	} configs[] = {
		{ FC_DT_MASK, 0 }, { FC_DT_HASH32, 64 }, { FC_DT_HASH32, 128 }, { FC_DT_HASH32, 256 },
	};

	ck_assert_int_eq(fc_dt_init(&dt, fdt, nodes, (uint32_t)count), count);
	for (int off = fdt_next_node(fdt, -1, NULL); off >= 0; off = fdt_next_node(fdt, off, NULL))
		ph[k++] = fdt_get_phandle(fdt, off);
	/* the committed trace, and the same with of_core_init() moved later */
	g_string_append_len(moved, text, (gssize)len);
	mark = strstr(moved->str, core_init_line);
	ck_assert_ptr_nonnull(mark);
	while (mark > moved->str && mark[-1] != '\n')
		mark--;
	g_string_insert(moved, mark - moved->str, "@core_init\n");
	for (int pass = 0; pass < 2; pass++) {
		ph_trace_init(&t);
		ck_assert(ph_trace_parse(&t, trace_path, pass ? moved->str : text,
					 pass ? moved->len : len, NULL));
		ck_assert(!pass || t.core_init_at > 0);
		for (gsize c = 0; c < G_N_ELEMENTS(configs); c++) {
			guint32 size = configs[c].size ? configs[c].size : fc_dt_mask_size(&dt);
			struct fc_cache_slot *slots = g_new(struct fc_cache_slot, size);
			gint *model_slots = g_new(gint, size);
			struct model m = { .ph = ph, .n = (guint)count, .slot = model_slots, .size = size };
			struct fc_dt_replay r;

			for (guint32 i = 0; i < size; i++)
				model_slots[i] = -1;
			model_replay(&m, configs[c].policy, &t);
			ck_assert_int_eq(fc_dt_replay_init(&r, &dt, configs[c].policy, slots, size), 0);
			for (guint i = 0; i < t.phandles->len; i++) {
				if (i == t.core_init_at)
					fc_dt_replay_core_init(&r);
				fc_dt_replay_lookup(&r, at(&t, i));
			}
			ck_assert_uint_eq(r.stats.hits, m.hits);
			ck_assert_uint_eq(r.stats.misses, m.misses);
			ck_assert_uint_eq(r.stats.unresolved, m.unresolved);
			ck_assert_uint_eq(r.stats.evictions, m.evictions);
			ck_assert_uint_eq(r.stats.scan_steps, m.steps);
			g_free(model_slots);
			g_free(slots);
		}
		ph_trace_clear(&t);
	}
	g_string_free(moved, TRUE);
	g_free(text);
	g_free(ph);
	g_free(nodes);
	g_free(fdt);
	g_free(trace_path);
	g_free(dtb);
}

START_TEST(replay_matches_linux_model_on_fixtures_and_a_kernel_dtb)
{
	/* core init moved before the line naming the node, deep in each trace */
	check_fixture("small-board", NULL, "/soc/serial@4000 pinctrl-0");
	check_fixture("board-500", NULL, "/soc/i2c@");
	check_fixture("soc-900", NULL, "/soc/i2c@");
	check_fixture("rk3399-rock960", "fixtures/dt/kernel/rk3399-rock960.dtb", "/i2c@");
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_values_comments_core_init);
	tcase_add_test(tc, parse_errors_name_file_and_line);
	tcase_add_test(tc, parse_markers_header_and_forms);
	tcase_add_test(tc, generate_corpus_rules);
	tcase_add_test(tc, generate_escapes_dtb_names);
	tcase_add_test(tc, generate_property_rules);
	tcase_add_test(tc, generate_small_board);
	tcase_add_test(tc, generate_core_init_marker);
	tcase_add_test(tc, dtb_load_rejects_bad_blobs);
	tcase_add_test(tc, replay_matches_linux_model_on_fixtures_and_a_kernel_dtb);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return fc_check_run(trace_suite());
}
