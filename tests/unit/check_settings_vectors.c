/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Settings loads of every Zephyr settings image in fixtures/nvs/zephyr (each
 * image whose expect file has the name counter, id 0x8000) against what
 * Zephyr's settings_load reports: the complete pairs from the counter's id
 * down to 0x8001, in that order, each with its name, stored length and
 * value. Built three times: check_settings_vectors against libfdtcache,
 * check_settings_readonly from libcore's sources with FC_READONLY and
 * FC_NO_EMULATION, where a load skips repairs, and check_settings_noindex as
 * a bootloader's smallest settings reader (FC_NO_INDEX, FC_NO_ATE_CACHE,
 * FC_CRC8_NO_TABLE as well: every read walks the log); all must load exactly
 * the same, on a read-only device that never sees a program or an erase.
 */
#include "check_util.h"
#include "check_nvs_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/settings.h"

#define VEC_DIR "fixtures/nvs/zephyr"
#define VALUE_MAX 512u

static GPtrArray *vectors; /* image names without suffix */

struct image {
	uint8_t *mem;
	size_t size;
	uint32_t sector_size, sectors, wbs;
	bool data_crc;
	GHashTable *ids; /* id -> GBytes Zephyr read back */
};

static GBytes *bytes_of_hex(const char *hex, unsigned int len)
{
	uint8_t *b = g_malloc0(len + 1u);

	ck_assert_uint_eq(strlen(hex), 2u * len);
	for (unsigned int k = 0; k < len; k++)
		b[k] = (uint8_t)g_ascii_strtoull((char[]){ hex[2 * k], hex[2 * k + 1], 0 }, NULL, 16);
	return g_bytes_new_take(b, len);
}

static void image_load(const char *name, struct image *im)
{
	char *rel = g_strdup_printf(VEC_DIR "/%s.expect.txt", name);
	char *bin = g_strdup_printf(VEC_DIR "/%s.bin", name);
	size_t len;
	char *text = (char *)fc_check_load(rel, &len);
	char **lines = g_strsplit(text, "\n", -1);

	memset(im, 0, sizeof(*im));
	im->ids = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
					(GDestroyNotify)g_bytes_unref);
	for (char **l = lines; *l; l++) {
		unsigned int id, n;
		char hex[2 * VALUE_MAX + 1];

		if (g_str_has_prefix(*l, "# build:"))
			im->data_crc = strstr(*l, "nvs_data_crc=on") != NULL;
		else if (sscanf(*l, "# geometry: sector_size=%u sectors=%u write_block_size=%u",
				&im->sector_size, &im->sectors, &im->wbs) == 3)
			continue;
		else if (sscanf(*l, "id=0x%x len=%u data=%1024s", &id, &n, hex) == 3)
			g_hash_table_insert(im->ids, GUINT_TO_POINTER(id), bytes_of_hex(hex, n));
	}
	ck_assert_msg(im->sector_size && im->sectors, "%s: no geometry line", rel);
	im->mem = fc_check_load(bin, &im->size);
	ck_assert_uint_eq(im->size, (size_t)im->sector_size * im->sectors);
	g_strfreev(lines);
	g_free(text);
	g_free(rel);
	g_free(bin);
}

static void image_free(struct image *im)
{
	g_hash_table_destroy(im->ids);
	g_free(im->mem);
}

static GBytes *zephyr_read(const struct image *im, uint32_t id)
{
	return g_hash_table_lookup(im->ids, GUINT_TO_POINTER(id));
}

/* One line per setting, "NAME len=N data=HEX", in Zephyr's load order. */
static void put_setting(GString *out, const char *name, size_t name_len, const uint8_t *value,
			size_t value_len)
{
	g_string_append_len(out, name, (gssize)name_len);
	g_string_append_printf(out, " len=%zu data=", value_len);
	for (size_t k = 0; k < value_len; k++)
		g_string_append_printf(out, "%02x", value[k]);
	g_string_append_c(out, '\n');
}

static char *zephyr_load(const struct image *im)
{
	GBytes *counter = zephyr_read(im, FC_SETTINGS_ID_COUNTER);
	GString *out = g_string_new(NULL);
	const uint8_t *c;
	size_t n;

	ck_assert_ptr_nonnull(counter);
	c = g_bytes_get_data(counter, &n);
	ck_assert_uint_eq(n, 2);
	for (uint32_t id = fc_get_le16(c); id >= FC_SETTINGS_ID_NAME_FIRST; id--) {
		GBytes *name = zephyr_read(im, id);
		GBytes *value = zephyr_read(im, id + FC_SETTINGS_VALUE_OFFSET);
		size_t name_len, value_len;
		const char *nm;
		const uint8_t *v;

		if (!name || !value)
			continue;
		nm = g_bytes_get_data(name, &name_len);
		v = g_bytes_get_data(value, &value_len);
		put_setting(out, nm, name_len, v, value_len);
	}
	return g_string_free(out, FALSE);
}

struct loaded {
	GString *out;
	GPtrArray *names;  /* char * */
	GPtrArray *values; /* GBytes */
};

static int collect(void *ctx, const struct fc_settings_entry *e)
{
	struct loaded *l = ctx;

	ck_assert_uint_eq(e->value_read, e->value_len);
	ck_assert_uint_eq(strlen(e->name), e->name_len);
	put_setting(l->out, e->name, e->name_len, e->value, e->value_len);
	g_ptr_array_add(l->names, g_strdup(e->name));
	g_ptr_array_add(l->values, g_bytes_new(e->value, e->value_len));
	return 0;
}

/* Every loaded name reads back its value through a lookup. */
static void check_gets(struct fc_settings *s, const struct loaded *l)
{
	uint8_t value[VALUE_MAX];

	for (guint k = 0; k < l->names->len; k++) {
		const char *n = g_ptr_array_index(l->names, k);
		size_t len;
		const uint8_t *want = g_bytes_get_data(g_ptr_array_index(l->values, k), &len);
		int rc = fc_settings_get(s, n, value, sizeof(value));

		ck_assert_msg(rc == (int)len, "%s: get %d, load %zu bytes", n, rc, len);
		ck_assert_mem_eq(value, want, len);
	}
}

/* The geometries the loads run with: id index and name cache sizes. */
static const struct {
	uint32_t index_slots, name_cache;
} configs[] = {
#ifdef FC_NO_INDEX /* built without an id index: the name caches alone */
	{ 0, 512 },
	{ 0, 16 },
#else
	{ 1024, 512 },
	{ 16, 16 },
#endif
	{ 0, 0 },
};

START_TEST(load_as_zephyr)
{
	const char *name = g_ptr_array_index(vectors, (guint)_i / G_N_ELEMENTS(configs));
	const unsigned int c = (unsigned int)_i % G_N_ELEMENTS(configs);
	static struct fc_cache_slot slots[1024];
	static uint16_t cache[512];
	struct image im;
	struct fc_rom_flash rom;
	struct counting_flash cnt;
	struct fc_nvs fs;
	struct fc_settings s;
	struct loaded l = { g_string_new(NULL), g_ptr_array_new_with_free_func(g_free),
		g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref) };
	uint8_t value[VALUE_MAX];
	uint8_t *before;
	char *want;

	image_load(name, &im);
	before = g_memdup2(im.mem, im.size);
	const struct fc_flash_geometry geo = { .size = (uint32_t)im.size,
		.erase_size = im.sector_size, .write_size = im.wbs, .erase_value = 0xff };
	ck_assert_int_eq(fc_rom_flash_init(&rom, &geo, im.mem), 0);
	counting_flash_init(&cnt, &rom.dev);
	const struct fc_nvs_config cfg = { .flash = &cnt.dev, .sector_size = im.sector_size,
		.sector_count = (uint16_t)im.sectors, .data_crc = im.data_crc,
		.index_slots = configs[c].index_slots ? slots : NULL,
		.index_slot_count = configs[c].index_slots };
	const struct fc_settings_config scfg = { .fs = &fs,
		.cache = configs[c].name_cache ? cache : NULL, .cache_len = configs[c].name_cache };

	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
	ck_assert_int_eq(fc_settings_init(&s, &scfg), 0);
	ck_assert_int_eq(fc_settings_load(&s, value, sizeof(value), collect, &l), 0);
	want = zephyr_load(&im);
	ck_assert_uint_gt(l.names->len, 0);
	ck_assert_msg(!strcmp(l.out->str, want), "%s, index %u, name cache %u: load differs",
		      name, configs[c].index_slots, configs[c].name_cache);
	check_gets(&s, &l);
	ck_assert_uint_eq(cnt.progs + cnt.erases, 0);
	ck_assert_mem_eq(im.mem, before, im.size);
	g_free(want);
	g_free(before);
	g_string_free(l.out, TRUE);
	g_ptr_array_free(l.names, TRUE);
	g_ptr_array_free(l.values, TRUE);
	image_free(&im);
}
END_TEST

#ifdef FC_NO_INDEX
/* A build without an id index refuses index slots at mount. */
START_TEST(no_index_refuses_slots)
{
	static struct fc_cache_slot slots[16];
	struct image im;
	struct fc_rom_flash rom;
	struct fc_nvs fs;

	image_load(g_ptr_array_index(vectors, 0), &im);
	const struct fc_flash_geometry geo = { .size = (uint32_t)im.size,
		.erase_size = im.sector_size, .write_size = im.wbs, .erase_value = 0xff };
	ck_assert_int_eq(fc_rom_flash_init(&rom, &geo, im.mem), 0);
	struct fc_nvs_config cfg = { .flash = &rom.dev, .sector_size = im.sector_size,
		.sector_count = (uint16_t)im.sectors, .data_crc = im.data_crc,
		.index_slots = slots, .index_slot_count = 16 };

	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), FC_EINVAL);
	cfg.index_slots = NULL;
	cfg.index_slot_count = 0;
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
	image_free(&im);
}
END_TEST
#endif

#ifdef FC_NO_EMULATION
/* Zephyr's cache modes are compiled out: init refuses them before it looks
 * at the (here unmounted) nvs, and takes ours as far as that check. */
START_TEST(no_emulation_refuses_zephyr_modes)
{
	static struct fc_nvs fs;
	struct fc_settings s;
	struct fc_settings_config cfg = { .fs = &fs };

	for (int m = FC_SETTINGS_CACHE_ZEPHYR_NONE; m <= FC_SETTINGS_CACHE_ZEPHYR_RING_FIX; m++) {
		cfg.cache_mode = (enum fc_settings_cache_mode)m;
		ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_EINVAL);
	}
	cfg.cache_mode = FC_SETTINGS_CACHE_INDEX;
	ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_ENOTMOUNTED);
}
END_TEST
#endif

static gint by_name(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every image whose expect file holds the settings name counter; runs
 * before the tests, so it reports its own errors. */
static bool find_vectors(void)
{
	char *dir = fc_check_path(VEC_DIR);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *f;

	vectors = g_ptr_array_new_with_free_func(g_free);
	while (d && (f = g_dir_read_name(d))) {
		char *path, *text = NULL;

		if (!g_str_has_suffix(f, ".expect.txt"))
			continue;
		path = g_build_filename(dir, f, NULL);
		if (g_file_get_contents(path, &text, NULL, NULL) &&
		    (g_str_has_prefix(text, "id=0x8000 ") || strstr(text, "\nid=0x8000 ")))
			g_ptr_array_add(vectors, g_strndup(f, strlen(f) - strlen(".expect.txt")));
		g_free(text);
		g_free(path);
	}
	g_ptr_array_sort(vectors, by_name);
	if (d)
		g_dir_close(d);
	if (vectors->len < 5)
		fprintf(stderr, "%s: %u settings vectors, want the 5 or more of the fixtures\n", dir,
			vectors->len);
	g_free(dir);
	return vectors->len >= 5;
}

int main(void)
{
	Suite *s = suite_create("settings_vectors");
	TCase *tc = tcase_create("vectors");

	if (!find_vectors())
		return 99;
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, load_as_zephyr, 0, (int)(vectors->len * G_N_ELEMENTS(configs)));
#ifdef FC_NO_EMULATION
	tcase_add_test(tc, no_emulation_refuses_zephyr_modes);
#endif
#ifdef FC_NO_INDEX
	tcase_add_test(tc, no_index_refuses_slots);
#endif
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
