/* SPDX-License-Identifier: BSD-2-Clause */
/* nvs-bench runner core: -D parsing, permutations, CSV round trip, compare, plot. */
#include "check_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "bench_defs.h"
#include "bench_out.h"
#include "bench_plot.h"

static int64_t value_at(const struct bench_defs *defs, enum bench_knob k, guint i)
{
	return g_array_index(defs->values[k], int64_t, i);
}

/* Parse arg into fresh defs, expecting failure; returns the message (g_free it). */
static char *parse_error(const char *arg, int code)
{
	struct bench_defs defs;
	GError *err = NULL;
	char *msg;

	bench_defs_init(&defs);
	ck_assert_msg(!bench_defs_parse(&defs, arg, &err), "'%s' parsed", arg);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->code, code);
	msg = g_strdup(err->message);
	g_error_free(err);
	/* a failed -D leaves the knob at its default */
	for (int k = 0; k < BENCH_KNOB_COUNT; k++)
		ck_assert_uint_eq(defs.values[k]->len, 1);
	bench_defs_clear(&defs);
	return msg;
}

static void assert_error(const char *arg, int code, const char *needle)
{
	char *msg = parse_error(arg, code);

	ck_assert_msg(strstr(msg, needle), "'%s': message '%s' lacks '%s'", arg, msg, needle);
	g_free(msg);
}

START_TEST(defaults)
{
	struct bench_defs defs;
	uint64_t n;

	bench_defs_init(&defs);
	ck_assert(bench_defs_count(&defs, &n, NULL));
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(value_at(&defs, BENCH_K_SECTORS, 0), 8);
	ck_assert_int_eq(value_at(&defs, BENCH_K_ENTRIES, 0), 255);
	ck_assert_int_eq(value_at(&defs, BENCH_K_WAIT, 0), BENCH_WAIT_SPIN);
	ck_assert_int_eq(value_at(&defs, BENCH_K_SECTOR_SIZE, 0), BENCH_AUTO);
	ck_assert(!bench_defs_varies(&defs, BENCH_K_SECTORS));
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(lists_names_and_ranges)
{
	struct bench_defs defs;
	static const int64_t entries[] = { 3, 16, 32, 48, 4096, 0x20 };

	bench_defs_init(&defs);
	ck_assert(bench_defs_parse(&defs, "entries=3, range(16,64,16),4K,0x20", NULL));
	ck_assert_uint_eq(defs.values[BENCH_K_ENTRIES]->len, G_N_ELEMENTS(entries));
	for (guint i = 0; i < G_N_ELEMENTS(entries); i++)
		ck_assert_int_eq(value_at(&defs, BENCH_K_ENTRIES, i), entries[i]);
	ck_assert(bench_defs_parse(&defs, "wait=tick,spin,adaptive", NULL));
	ck_assert_int_eq(value_at(&defs, BENCH_K_WAIT, 0), BENCH_WAIT_TICK);
	ck_assert_int_eq(value_at(&defs, BENCH_K_WAIT, 2), BENCH_WAIT_ADAPTIVE);
	ck_assert(bench_defs_parse(&defs, "seed=range(10,0,-3)", NULL));
	ck_assert_uint_eq(defs.values[BENCH_K_SEED]->len, 4); /* 10 7 4 1 */
	ck_assert_int_eq(value_at(&defs, BENCH_K_SEED, 3), 1);
	ck_assert(bench_defs_parse(&defs, "lookup_slots=auto,0,512", NULL));
	ck_assert_int_eq(value_at(&defs, BENCH_K_LOOKUP_SLOTS, 0), BENCH_AUTO);
	ck_assert(bench_defs_parse(&defs, "data_crc=off,on", NULL));
	ck_assert_int_eq(value_at(&defs, BENCH_K_DATA_CRC, 1), 1);
	ck_assert(bench_defs_parse(&defs, "value_size=range(4)", NULL));
	ck_assert_uint_eq(defs.values[BENCH_K_VALUE_SIZE]->len, 4); /* 0 1 2 3 */
	bench_defs_clear(&defs);
}
END_TEST

/* A range whose step passes INT64_MAX ends at the last value below stop (no overflow). */
START_TEST(range_near_int64_limit)
{
	struct bench_defs defs;

	bench_defs_init(&defs);
	ck_assert(bench_defs_parse(&defs, "seed=range(2000000,8796093022207M,8796093022207M)",
				   NULL));
	ck_assert_uint_eq(defs.values[BENCH_K_SEED]->len, 1);
	ck_assert_int_eq(value_at(&defs, BENCH_K_SEED, 0), 2000000);
	bench_defs_clear(&defs);
}
END_TEST

/* Values from 80,000 rows: each kept once, in first-seen order (a set, not a search). */
START_TEST(add_many_values)
{
	struct bench_defs defs;
	const int64_t n = 80000;

	bench_defs_init(&defs);
	for (int pass = 0; pass < 2; pass++)
		for (int64_t i = 0; i < n; i++)
			for (int k = 0; k < BENCH_KNOB_COUNT; k++)
				bench_defs_add_value(&defs, k, (i * 7919) % n);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		ck_assert_uint_eq(defs.values[k]->len, (guint)n);
		ck_assert_int_eq(value_at(&defs, k, 1), 7919);
	}
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(bad_syntax)
{
	char *msg;

	/* the message shows the argument and a caret under the position */
	msg = parse_error("entries=range(1,x)", BENCH_DEFS_ERROR_SYNTAX);
	ck_assert_str_eq(msg, "-D entries=range(1,x): expected an integer at position 17\n"
			 "  entries=range(1,x)\n"
			 "                  ^");
	g_free(msg);
	assert_error("entries", BENCH_DEFS_ERROR_SYNTAX, "expected NAME=VALUE");
	assert_error("entries=", BENCH_DEFS_ERROR_SYNTAX, "empty value at position 9");
	assert_error("entries=1,,2", BENCH_DEFS_ERROR_SYNTAX, "empty value at position 11");
	assert_error("entries=1,", BENCH_DEFS_ERROR_SYNTAX, "empty value at position 11");
	assert_error("entries=12x", BENCH_DEFS_ERROR_SYNTAX, "unexpected 'x' in a number at position 11");
	assert_error("entries=range(1,2", BENCH_DEFS_ERROR_SYNTAX,
		     "expected ')' closing range(, found the end at position 18");
	assert_error("entries=range 4", BENCH_DEFS_ERROR_SYNTAX, "expected '(' after range");
	assert_error("entries=range(1,2,3,4)", BENCH_DEFS_ERROR_SYNTAX, "at most 3 arguments");
	assert_error("entries=1 2", BENCH_DEFS_ERROR_SYNTAX, "expected ',' or the end, found '2' "
		     "at position 11");
	assert_error("entries=0x", BENCH_DEFS_ERROR_SYNTAX, "expected hex digits");
	assert_error("entries=(", BENCH_DEFS_ERROR_SYNTAX, "unexpected '('");
	assert_error("wait=3", BENCH_DEFS_ERROR_SYNTAX, "wait takes a name, not a number");
	assert_error("wait=range(3)", BENCH_DEFS_ERROR_SYNTAX, "wait takes names, not range()");
	assert_error("wait=poll", BENCH_DEFS_ERROR_UNKNOWN,
		     "wait has no value 'poll' (tick, spin, adaptive) at position 6");
	assert_error("entries=lots", BENCH_DEFS_ERROR_UNKNOWN,
		     "entries has no value 'lots' (integers, range())");
	assert_error("sector=4", BENCH_DEFS_ERROR_UNKNOWN, "no knob 'sector' (knobs: variant, ");
	assert_error("sectors=1", BENCH_DEFS_ERROR_RANGE, "sectors=1 is outside 2..65535 at position 9");
	assert_error("entries=range(5,5)", BENCH_DEFS_ERROR_RANGE, "range() is empty at position 14");
	assert_error("entries=range(1,9,0)", BENCH_DEFS_ERROR_RANGE, "range() step is 0");
	assert_error("seed=range(0,200000)", BENCH_DEFS_ERROR_TOO_MANY, "more than 100000 values");
	assert_error("entries=99999999999999999999", BENCH_DEFS_ERROR_RANGE, "integer too large");
}
END_TEST

START_TEST(given_twice)
{
	struct bench_defs defs;
	GError *err = NULL;

	bench_defs_init(&defs);
	ck_assert(bench_defs_parse(&defs, "entries=1", NULL));
	ck_assert(!bench_defs_parse(&defs, "entries=2", &err));
	ck_assert(strstr(err->message, "entries given twice"));
	ck_assert_int_eq(value_at(&defs, BENCH_K_ENTRIES, 0), 1);
	g_error_free(err);
	bench_defs_clear(&defs);
}
END_TEST

static const char *const known_geometries[] = { "nrf52840", "spi-nor", "nand", NULL };

START_TEST(geometries)
{
	struct bench_defs defs;
	GError *err = NULL;

	bench_defs_init(&defs);
	ck_assert(bench_defs_add_geometries(&defs, "nrf52840,nand", known_geometries, NULL));
	ck_assert_uint_eq(defs.geometries->len, 2);
	ck_assert(!bench_defs_add_geometries(&defs, "spi-nor,emmc", known_geometries, &err));
	ck_assert_str_eq(err->message, "-G spi-nor,emmc: no geometry 'emmc' "
			 "(geometries: nrf52840, spi-nor, nand)");
	g_error_free(err);
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(permutations)
{
	struct bench_defs defs;
	struct bench_perm p;
	uint64_t n;
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	bench_defs_init(&defs);
	ck_assert(bench_defs_add_geometries(&defs, "nrf52840,spi-nor", known_geometries, NULL));
	ck_assert(bench_defs_parse(&defs, "wait=tick,spin,adaptive", NULL));
	ck_assert(bench_defs_parse(&defs, "entries=range(16,80,16)", NULL));
	ck_assert(bench_defs_count(&defs, &n, NULL));
	ck_assert_uint_eq(n, 2 * 3 * 4);
	/* geometry slowest, the last knob in table order fastest */
	bench_defs_perm(&defs, 0, &p);
	ck_assert_str_eq(p.geometry, "nrf52840");
	ck_assert_int_eq(p.v[BENCH_K_ENTRIES], 16);
	ck_assert_int_eq(p.v[BENCH_K_WAIT], BENCH_WAIT_TICK);
	ck_assert_int_eq(p.v[BENCH_K_SECTORS], 8);
	bench_defs_perm(&defs, 1, &p);
	ck_assert_int_eq(p.v[BENCH_K_WAIT], BENCH_WAIT_SPIN);
	ck_assert_int_eq(p.v[BENCH_K_ENTRIES], 16);
	bench_defs_perm(&defs, 3, &p);
	ck_assert_int_eq(p.v[BENCH_K_ENTRIES], 32);
	ck_assert_int_eq(p.v[BENCH_K_WAIT], BENCH_WAIT_TICK);
	bench_defs_perm(&defs, 23, &p);
	ck_assert_str_eq(p.geometry, "spi-nor");
	ck_assert_int_eq(p.v[BENCH_K_ENTRIES], 64);
	ck_assert_int_eq(p.v[BENCH_K_WAIT], BENCH_WAIT_ADAPTIVE);
	/* every permutation is distinct */
	for (uint64_t i = 0; i < n; i++) {
		bench_defs_perm(&defs, i, &p);
		g_hash_table_add(seen, g_strdup_printf("%s/%d/%d", p.geometry,
						       (int)p.v[BENCH_K_WAIT],
						       (int)p.v[BENCH_K_ENTRIES]));
	}
	ck_assert_uint_eq(g_hash_table_size(seen), n);
	g_hash_table_unref(seen);
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(too_many_permutations)
{
	struct bench_defs defs;
	GError *err = NULL;
	uint64_t n;

	bench_defs_init(&defs);
	ck_assert(bench_defs_parse(&defs, "seed=range(100000)", NULL));
	ck_assert(bench_defs_parse(&defs, "entries=range(1,1000)", NULL));
	ck_assert(!bench_defs_count(&defs, &n, &err));
	ck_assert(strstr(err->message, "more than 1000000 permutations"));
	g_error_free(err);
	bench_defs_clear(&defs);
}
END_TEST

/* Two rows per permutation of entries=16,32 x variant=ours,zephyr. */
static GPtrArray *sample_rows(struct bench_defs *defs)
{
	GPtrArray *rows = bench_rows_new();
	uint64_t n;

	bench_defs_init(defs);
	ck_assert(bench_defs_add_geometries(defs, "nrf52840", known_geometries, NULL));
	ck_assert(bench_defs_parse(defs, "variant=ours,zephyr", NULL));
	ck_assert(bench_defs_parse(defs, "entries=16,32", NULL));
	ck_assert(bench_defs_count(defs, &n, NULL));
	for (uint64_t i = 0; i < n; i++) {
		struct bench_perm p;

		bench_defs_perm(defs, i, &p);
		for (int phase = 0; phase < 2; phase++) {
			struct bench_row *row = bench_row_new("rpl", &p, phase ? "pass2" : "pass1",
							      "ok");

			for (int f = 0; f < BENCH_FIGURE_COUNT; f++)
				row->fig[f] = (uint64_t)(p.v[BENCH_K_ENTRIES] * (f + 1) *
							 (p.v[BENCH_K_VARIANT] + 1) + phase);
			g_ptr_array_add(rows, row);
		}
	}
	return rows;
}

static char *temp_csv(void)
{
	char *path = NULL;
	int fd = g_file_open_tmp("check_bench_XXXXXX.csv", &path, NULL);

	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

START_TEST(csv_round_trip)
{
	struct bench_defs defs;
	GPtrArray *rows = sample_rows(&defs), *back;
	char *path = temp_csv();
	GString *header = g_string_new(NULL), *diff = g_string_new(NULL);
	struct bench_compare_stats st;
	GError *err = NULL;

	bench_csv_header(header);
	ck_assert_str_eq(header->str, "workload,geometry,variant,sectors,sector_size,write_block,"
			 "value_size,entries,updates,lookup_slots,name_cache_slots,ate_cache,data_crc,wait,"
			 "tick_ns,read_cpu_ns,seed,phase,ops,reads,read_bytes,progs,prog_bytes,erases,erase_bytes,"
			 "blank_erases,max_wear,sim_ns,floor_ns,overshoot_ns,polls,cpu_ns,status,detail");
	/* column names are unique, so a reader can find each by name */
	{
		char **names = g_strsplit(header->str, ",", -1);

		for (guint i = 0; names[i]; i++)
			for (guint j = i + 1; names[j]; j++)
				ck_assert_str_ne(names[i], names[j]);
		g_strfreev(names);
	}
	ck_assert(bench_csv_write(path, rows, NULL));
	back = bench_csv_read(path, &err);
	ck_assert_msg(back != NULL, "%s", err ? err->message : "");
	ck_assert_uint_eq(back->len, rows->len);
	for (guint i = 0; i < rows->len; i++) {
		struct bench_row *a = g_ptr_array_index(rows, i), *b = g_ptr_array_index(back, i);
		char *ka = bench_row_key(a), *kb = bench_row_key(b);

		ck_assert_str_eq(ka, kb);
		ck_assert_mem_eq(a->fig, b->fig, sizeof(a->fig));
		ck_assert_str_eq(b->status, "ok");
		g_free(ka);
		g_free(kb);
	}
	st = bench_compare(back, rows, &defs, diff);
	ck_assert_uint_eq(st.matched, 8);
	ck_assert_uint_eq(st.changed, 0);
	ck_assert_str_eq(diff->str, "compare: 8 rows matched, 0 figures changed, 0 new rows, "
			 "0 old rows missing\n");

	/* one figure 25% up, one row only in the old run: matched by key, not position */
	((struct bench_row *)g_ptr_array_index(rows, 3))->fig[BENCH_F_READS] = 80;
	g_ptr_array_remove_index(rows, 0);
	g_ptr_array_add(rows, g_ptr_array_steal_index(rows, 0));
	g_string_truncate(diff, 0);
	st = bench_compare(back, rows, &defs, diff);
	ck_assert_uint_eq(st.matched, 7);
	ck_assert_uint_eq(st.changed, 1);
	ck_assert_uint_eq(st.missing, 1);
	ck_assert_str_eq(diff->str, "rpl nrf52840 variant=ours entries=32 pass2: reads 65 -> 80 "
			 "(+23.1%)\ncompare: 7 rows matched, 1 figures changed, 0 new rows, "
			 "1 old rows missing\n");

	g_unlink(path);
	g_free(path);
	g_string_free(header, TRUE);
	g_string_free(diff, TRUE);
	g_ptr_array_unref(back);
	g_ptr_array_unref(rows);
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(csv_bad_input)
{
	char *path = temp_csv();
	GError *err = NULL;

	ck_assert(g_file_set_contents(path, "workload,geometry\nrpl,nand\n", -1, NULL));
	ck_assert_ptr_null(bench_csv_read(path, &err));
	ck_assert(g_str_has_suffix(err->message, ":1: no column 'variant' in the header"));
	g_clear_error(&err);
	{
		GString *s = g_string_new(NULL);

		bench_csv_header(s);
		g_string_append(s, "\nrpl,nand,1,2\n");
		ck_assert(g_file_set_contents(path, s->str, -1, NULL));
		g_string_free(s, TRUE);
	}
	ck_assert_ptr_null(bench_csv_read(path, &err));
	ck_assert(g_str_has_suffix(err->message, ":2: 4 fields, the header has 34"));
	g_clear_error(&err);
	g_unlink(path);
	g_free(path);
}
END_TEST

/* A CSV written before the detail column reads with empty details. */
START_TEST(csv_without_detail)
{
	char *path = temp_csv();
	GString *s = g_string_new(NULL);
	struct bench_perm perm = { .geometry = "ram" };
	struct bench_row *row;
	GPtrArray *rows;

	for (int k = 0; k < BENCH_KNOB_COUNT; k++)
		perm.v[k] = bench_knob(k)->def;
	row = bench_row_new("seq", &perm, "write", "ok");
	bench_csv_header(s);
	g_string_truncate(s, s->len - strlen(",detail"));
	g_string_append_c(s, '\n');
	bench_csv_row(s, row);
	g_string_truncate(s, s->len - 1); /* the empty detail and its comma */
	g_string_append_c(s, '\n');
	ck_assert(g_file_set_contents(path, s->str, -1, NULL));
	rows = bench_csv_read(path, NULL);
	ck_assert_ptr_nonnull(rows);
	ck_assert_uint_eq(rows->len, 1);
	ck_assert_str_eq(((struct bench_row *)g_ptr_array_index(rows, 0))->detail, "");
	g_ptr_array_unref(rows);
	bench_row_free(row);
	g_string_free(s, TRUE);
	g_unlink(path);
	g_free(path);
}
END_TEST

START_TEST(json_rows)
{
	struct bench_defs defs;
	GPtrArray *rows = sample_rows(&defs);
	GString *out = g_string_new(NULL);
	JsonParser *parser = json_parser_new();
	JsonArray *array;
	JsonObject *first;

	bench_json(rows, out, NULL);
	ck_assert(json_parser_load_from_data(parser, out->str, -1, NULL));
	array = json_node_get_array(json_parser_get_root(parser));
	ck_assert_uint_eq(json_array_get_length(array), 8);
	first = json_array_get_object_element(array, 0);
	ck_assert_str_eq(json_object_get_string_member(first, "variant"), "ours");
	ck_assert_str_eq(json_object_get_string_member(first, "sector_size"), "auto");
	ck_assert_int_eq(json_object_get_int_member(first, "entries"), 16);
	ck_assert_int_eq(json_object_get_int_member(first, "reads"), 32);
	g_object_unref(parser);
	g_string_free(out, TRUE);
	g_ptr_array_unref(rows);
	bench_defs_clear(&defs);
}
END_TEST

START_TEST(pct)
{
	ck_assert(bench_pct(0, 0) == 0.0);
	ck_assert(bench_pct(200, 100) == -50.0);
	ck_assert(bench_pct(100, 150) == 50.0);
	ck_assert(isinf(bench_pct(0, 1)));
}
END_TEST

static unsigned count(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

START_TEST(plot_svg)
{
	struct bench_defs defs;
	GPtrArray *rows = sample_rows(&defs);
	struct bench_plot_spec spec = { .x = BENCH_K_ENTRIES, .y = BENCH_F_READS, .phase = "pass1" };
	GString *svg = bench_plot_svg(rows, &defs, &spec, NULL);
	GError *err = NULL;

	ck_assert_ptr_nonnull(svg);
	ck_assert(g_str_has_prefix(svg->str, "<?xml"));
	/* one series per variant, two points each, labelled in the legend */
	ck_assert(strstr(svg->str, ">variant=ours</text>"));
	ck_assert(strstr(svg->str, ">variant=zephyr</text>"));
	ck_assert(strstr(svg->str, ">entries</text>"));
	ck_assert(strstr(svg->str, "reads vs entries, phase pass1"));
	ck_assert_uint_eq(count(svg->str, "<polyline"), 2);
	ck_assert_uint_eq(count(svg->str, "<circle"), 4);
	g_string_free(svg, TRUE);

	spec.phase = "pass9";
	ck_assert_ptr_null(bench_plot_svg(rows, &defs, &spec, &err));
	ck_assert(strstr(err->message, "nothing to plot"));
	g_clear_error(&err);
	spec.x = BENCH_K_WAIT;
	ck_assert_ptr_null(bench_plot_svg(rows, &defs, &spec, &err));
	ck_assert(strstr(err->message, "cannot plot against wait"));
	g_clear_error(&err);
	g_ptr_array_unref(rows);
	bench_defs_clear(&defs);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bench_defs");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, defaults);
	tcase_add_test(tc, lists_names_and_ranges);
	tcase_add_test(tc, range_near_int64_limit);
	tcase_add_test(tc, add_many_values);
	tcase_add_test(tc, bad_syntax);
	tcase_add_test(tc, given_twice);
	tcase_add_test(tc, geometries);
	tcase_add_test(tc, permutations);
	tcase_add_test(tc, too_many_permutations);
	tcase_add_test(tc, csv_round_trip);
	tcase_add_test(tc, csv_bad_input);
	tcase_add_test(tc, csv_without_detail);
	tcase_add_test(tc, json_rows);
	tcase_add_test(tc, pct);
	tcase_add_test(tc, plot_svg);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
