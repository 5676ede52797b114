/* SPDX-License-Identifier: BSD-2-Clause */
/* Geometry detection of nvs-inspect on every Zephyr-written vector and on damaged copies. */
#include "check_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "geometry.h"

static const char *const vectors[] = {
	"kvss_gc_copies", "kvss_gc_packed_wbs4", "kvss_rpl_wrapped", "kvss_settings_rpl",
	"nvs_crc_small", "nvs_crc_wbs8", "nvs_cut_ate", "nvs_cut_close", "nvs_cut_data",
	"nvs_cut_erase", "nvs_deletes", "nvs_deletes_nowrap", "nvs_gc_copies", "nvs_history",
	"nvs_rpl_2pass", "nvs_rpl_wrapped", "nvs_small_wbs1", "nvs_small_wbs16",
	"nvs_small_wbs32", "nvs_small_wbs4", "nvs_small_wbs8", "settings_crc",
	"settings_deletes", "settings_rpl", "settings_rpl_wrapped",
};

struct expected {
	unsigned sector_size, sectors, write_block;
};

/* The "# geometry:" line of a vector's .expect.txt. */
static struct expected expected_geometry(const char *name)
{
	struct expected e = { 0, 0, 0 };
	char *rel = g_strdup_printf("fixtures/nvs/zephyr/%s.expect.txt", name);
	size_t len;
	char *text = (char *)fc_check_load(rel, &len);
	const char *line = strstr(text, "# geometry:");

	ck_assert_ptr_nonnull(line);
	ck_assert_int_eq(sscanf(line, "# geometry: sector_size=%u sectors=%u write_block_size=%u",
				&e.sector_size, &e.sectors, &e.write_block),
			 3);
	g_free(text);
	g_free(rel);
	return e;
}

static uint8_t *load_vector(const char *name, size_t *len)
{
	char *rel = g_strdup_printf("fixtures/nvs/zephyr/%s.bin", name);
	uint8_t *img = fc_check_load(rel, len);

	g_free(rel);
	return img;
}

static const struct nvs_geometry_hint no_hint = { 0, 0, 0, 0, -1 };

START_TEST(detects_every_vector)
{
	const char *name = vectors[_i];
	struct expected e = expected_geometry(name);
	struct nvs_geometry_report rep;
	char why[256] = "";
	size_t len;
	uint8_t *img = load_vector(name, &len);
	int rc = nvs_geometry_detect(img, len, &no_hint, &rep, why, sizeof(why));

	ck_assert_msg(rc == 0, "%s: %s", name, why);
	ck_assert_msg(rep.geo.sector_size == e.sector_size, "%s: sector size %u, expected %u", name,
		      rep.geo.sector_size, e.sector_size);
	ck_assert_uint_eq(rep.geo.sector_count, e.sectors);
	ck_assert_msg(rep.geo.write_block == e.write_block, "%s: write block %u, expected %u",
		      name, rep.geo.write_block, e.write_block);
	ck_assert_uint_eq(rep.geo.ate_size, nvs_ate_size(e.write_block));
	ck_assert_uint_eq(rep.geo.erase_value, 0xff);
	ck_assert_uint_eq(rep.trailing, 0);
	ck_assert_int_eq(rep.sector_conf, NVS_CONF_CERTAIN);
	ck_assert(rep.wb_options & e.write_block);
	g_free(img);
}
END_TEST

START_TEST(explicit_sector_size_finds_slot_size)
{
	const char *name = vectors[_i];
	struct expected e = expected_geometry(name);
	struct nvs_geometry_hint hint = no_hint;
	struct nvs_geometry_report rep;
	char why[256] = "";
	size_t len;
	uint8_t *img = load_vector(name, &len);

	hint.sector_size = e.sector_size;
	ck_assert_msg(nvs_geometry_detect(img, len, &hint, &rep, why, sizeof(why)) == 0, "%s", why);
	ck_assert_uint_eq(rep.geo.sector_count, e.sectors);
	ck_assert_uint_eq(rep.geo.write_block, e.write_block);
	g_free(img);
}
END_TEST

START_TEST(blank_and_zero_images_are_refused)
{
	static uint8_t img[16384];
	struct nvs_geometry_report rep;
	char why[256] = "";

	memset(img, 0xff, sizeof(img));
	ck_assert_int_eq(nvs_geometry_detect(img, sizeof(img), &no_hint, &rep, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "--sector-size"));
	memset(img, 0x00, sizeof(img));
	ck_assert_int_eq(nvs_geometry_detect(img, sizeof(img), &no_hint, &rep, why, sizeof(why)), -1);
}
END_TEST

START_TEST(random_bytes_are_refused)
{
	static uint8_t img[32768];
	GRand *r = g_rand_new_with_seed(6);

	for (size_t i = 0; i < sizeof(img); i++)
		img[i] = (uint8_t)g_rand_int(r);
	g_rand_free(r);
	struct nvs_geometry_report rep;
	char why[256] = "";

	ck_assert_int_eq(nvs_geometry_detect(img, sizeof(img), &no_hint, &rep, why, sizeof(why)), -1);
}
END_TEST

START_TEST(truncated_image_keeps_sector_size)
{
	struct nvs_geometry_report rep;
	char why[256] = "";
	size_t len;
	uint8_t *img = load_vector("nvs_rpl_2pass", &len);

	/* 32 KiB cut to 30000 bytes: 7 whole sectors and a tail */
	ck_assert_msg(nvs_geometry_detect(img, 30000, &no_hint, &rep, why, sizeof(why)) == 0, "%s",
		      why);
	ck_assert_uint_eq(rep.geo.sector_size, 4096);
	ck_assert_uint_eq(rep.geo.sector_count, 7);
	ck_assert_uint_eq(rep.trailing, 30000 - 7 * 4096);
	g_free(img);
}
END_TEST

START_TEST(explicit_geometry_short_image_reports_missing)
{
	struct nvs_geometry_hint hint = { 0, 4096, 8, 4, -1 };
	struct nvs_geometry_report rep;
	char why[256] = "";
	size_t len;
	uint8_t *img = load_vector("nvs_rpl_2pass", &len);

	ck_assert_int_eq(nvs_geometry_detect(img, 20000, &hint, &rep, why, sizeof(why)), 0);
	ck_assert_uint_eq(rep.missing, 8 * 4096 - 20000);
	ck_assert_int_eq(rep.sector_conf, NVS_CONF_GIVEN);
	ck_assert_int_eq(rep.wb_conf, NVS_CONF_GIVEN);
	g_free(img);
}
END_TEST

START_TEST(bad_hints_are_refused)
{
	static const uint8_t img[8192];
	struct nvs_geometry_hint hint = no_hint;
	struct nvs_geometry_report rep;
	char why[256];

	hint.write_block = 3;
	ck_assert_int_eq(nvs_geometry_detect(img, sizeof(img), &hint, &rep, why, sizeof(why)), -1);
	hint = no_hint;
	hint.offset = 8192;
	ck_assert_int_eq(nvs_geometry_detect(img, sizeof(img), &hint, &rep, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "offset"));
}
END_TEST

START_TEST(ate_helpers)
{
	static const uint8_t gc_done[8] = { 0xff, 0xff, 0, 0, 0, 0, 0xff, 0x5c };
	struct fc_nvs_ate a;

	fc_nvs_ate_decode(gc_done, 0xff, &a);
	ck_assert(a.crc_ok);
	ck_assert_uint_eq(a.id, 0xffff);
	ck_assert_uint_eq(a.len, 0);
	ck_assert_uint_eq(nvs_ate_size(1), 8);
	ck_assert_uint_eq(nvs_ate_size(32), 32);
	ck_assert(!nvs_erased(gc_done, 8, 0xff));
	ck_assert(nvs_erased(gc_done, 2, 0xff));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nvs_geometry");
	TCase *tc = tcase_create("core");
	int n = (int)G_N_ELEMENTS(vectors);

	tcase_add_loop_test(tc, detects_every_vector, 0, n);
	tcase_add_loop_test(tc, explicit_sector_size_finds_slot_size, 0, n);
	tcase_add_test(tc, blank_and_zero_images_are_refused);
	tcase_add_test(tc, random_bytes_are_refused);
	tcase_add_test(tc, truncated_image_keeps_sector_size);
	tcase_add_test(tc, explicit_geometry_short_image_reports_missing);
	tcase_add_test(tc, bad_hints_are_refused);
	tcase_add_test(tc, ate_helpers);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
