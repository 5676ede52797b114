/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "common/filedev.h"

static const struct fc_flash_geometry geo = {
	.size = 0, .erase_size = 1024, .write_size = 4, .erase_value = 0xff,
};

static char *tmpdir;

static void make_tmpdir(void)
{
	GError *err = NULL;

	tmpdir = g_dir_make_tmp("check_filedev-XXXXXX", &err);
	ck_assert_msg(tmpdir != NULL, "mkdtemp: %s", err ? err->message : "?");
}

static void remove_tmpdir(void)
{
	GDir *dir = g_dir_open(tmpdir, 0, NULL);
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		char *p = g_build_filename(tmpdir, name, NULL);

		g_unlink(p);
		g_free(p);
	}
	if (dir)
		g_dir_close(dir);
	g_rmdir(tmpdir);
	g_free(tmpdir);
}

/* A file of len bytes, byte i = i & 0xff; returns its path (g_free it). */
static char *write_image(const char *name, gsize len)
{
	char *path = g_build_filename(tmpdir, name, NULL);
	guint8 *data = g_malloc(len);
	gsize i;

	for (i = 0; i < len; i++)
		data[i] = (guint8)i;
	ck_assert(g_file_set_contents(path, (const gchar *)data, (gssize)len, NULL));
	g_free(data);
	return path;
}

static guint8 *read_back(const char *path, gsize *len)
{
	gchar *data = NULL;

	ck_assert(g_file_get_contents(path, &data, len, NULL));
	return (guint8 *)data;
}

START_TEST(read_only_by_default)
{
	char *path = write_image("ro.bin", 2048);
	struct fc_filedev fd;
	GError *err = NULL;
	guint8 out[4], *back;
	gsize len;

	ck_assert(fc_filedev_open(&fd, path, &geo, 0, &err));
	ck_assert_uint_eq(fd.dev->geo.size, 2048);
	ck_assert_int_eq(fc_flash_read(fd.dev, 1030, out, 4), 0);
	ck_assert_uint_eq(out[0], 1030 & 0xff);
	ck_assert_int_eq(fc_flash_prog(fd.dev, 0, out, 4), FC_EROFS);
	ck_assert_int_eq(fc_flash_erase(fd.dev, 0, 1024), FC_EROFS);
	ck_assert(!fc_filedev_sync(&fd, &err));
	ck_assert(g_error_matches(err, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_READONLY));
	ck_assert_ptr_nonnull(strstr(err->message, "ro.bin"));
	g_clear_error(&err);
	fc_filedev_close(&fd);
	back = read_back(path, &len);
	ck_assert_uint_eq(len, 2048);
	ck_assert_uint_eq(back[0], 0);
	g_free(back);
	g_free(path);
}
END_TEST

START_TEST(write_back_only_on_sync)
{
	char *path = write_image("rw.bin", 2048);
	struct fc_filedev fd;
	guint8 rec[4] = { 0xde, 0xad, 0xbe, 0xef }, *back;
	gsize len;

	ck_assert(fc_filedev_open(&fd, path, &geo, FC_FILEDEV_WRITE, NULL));
	ck_assert_int_eq(fc_flash_erase(fd.dev, 1024, 1024), 0);
	ck_assert_int_eq(fc_flash_prog(fd.dev, 1024, rec, 4), 0);
	back = read_back(path, &len);
	ck_assert_uint_eq(back[1024], 0); /* not yet written */
	g_free(back);
	ck_assert(fc_filedev_sync(&fd, NULL));
	fc_filedev_close(&fd);
	back = read_back(path, &len);
	ck_assert_uint_eq(len, 2048);
	ck_assert_mem_eq(back + 1024, rec, 4);
	ck_assert_uint_eq(back[1028], 0xff);
	ck_assert_uint_eq(back[1023], 1023 & 0xff);
	g_free(back);
	g_free(path);
}
END_TEST

START_TEST(create_starts_erased)
{
	char *path = g_build_filename(tmpdir, "new.bin", NULL);
	struct fc_flash_geometry g = geo;
	struct fc_filedev fd;
	GError *err = NULL;
	guint8 *back;
	gsize len;

	/* missing file without CREATE, and CREATE without a size */
	ck_assert(!fc_filedev_open(&fd, path, &geo, FC_FILEDEV_WRITE, &err));
	ck_assert(g_error_matches(err, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_IO));
	g_clear_error(&err);
	ck_assert(!fc_filedev_open(&fd, path, &geo, FC_FILEDEV_WRITE | FC_FILEDEV_CREATE, &err));
	ck_assert(g_error_matches(err, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY));
	g_clear_error(&err);
	/* CREATE without WRITE does not create */
	g.size = 3072;
	ck_assert(!fc_filedev_open(&fd, path, &g, FC_FILEDEV_CREATE, &err));
	g_clear_error(&err);

	ck_assert(fc_filedev_open(&fd, path, &g, FC_FILEDEV_WRITE | FC_FILEDEV_CREATE, &err));
	ck_assert(fc_filedev_sync(&fd, &err));
	fc_filedev_close(&fd);
	back = read_back(path, &len);
	ck_assert_uint_eq(len, 3072);
	ck_assert_uint_eq(back[0], 0xff);
	ck_assert_uint_eq(back[3071], 0xff);
	g_free(back);
	g_free(path);
}
END_TEST

START_TEST(size_and_geometry_errors)
{
	char *odd = write_image("odd.bin", 1500);
	char *empty = write_image("empty.bin", 0);
	char *ok = write_image("ok.bin", 2048);
	struct fc_flash_geometry g = geo;
	struct fc_filedev fd;
	GError *err = NULL;

	ck_assert(!fc_filedev_open(&fd, odd, &geo, 0, &err));
	ck_assert(g_error_matches(err, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY));
	ck_assert_ptr_nonnull(strstr(err->message, "odd.bin"));
	ck_assert_ptr_nonnull(strstr(err->message, "1500"));
	g_clear_error(&err);
	ck_assert(!fc_filedev_open(&fd, empty, &geo, 0, &err));
	g_clear_error(&err);
	g.size = 4096;
	ck_assert(!fc_filedev_open(&fd, ok, &g, 0, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "expected 4096"));
	g_clear_error(&err);
	g = geo;
	g.write_size = 3;
	ck_assert(!fc_filedev_open(&fd, ok, &g, 0, &err));
	ck_assert_ptr_nonnull(strstr(err->message, "write unit 3"));
	g_clear_error(&err);
	g.erase_size = 0;
	ck_assert(!fc_filedev_open(&fd, ok, &g, 0, &err));
	g_clear_error(&err);
	g_free(odd);
	g_free(empty);
	g_free(ok);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("filedev");
	TCase *tc = tcase_create("files");

	tcase_add_checked_fixture(tc, make_tmpdir, remove_tmpdir);
	tcase_add_test(tc, read_only_by_default);
	tcase_add_test(tc, write_back_only_on_sync);
	tcase_add_test(tc, create_starts_erased);
	tcase_add_test(tc, size_and_geometry_errors);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
