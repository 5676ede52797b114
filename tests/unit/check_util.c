/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <glib.h>
#include <stdlib.h>

int fc_check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

char *fc_check_path(const char *relative)
{
	const char *top = g_getenv("top_srcdir");

	return g_build_filename(top ? top : ".", relative, NULL);
}

uint8_t *fc_check_load(const char *relative, size_t *len)
{
	char *path = fc_check_path(relative);
	gchar *data = NULL;
	gsize n = 0;
	GError *err = NULL;

	if (!g_file_get_contents(path, &data, &n, &err))
		ck_abort_msg("cannot read %s: %s", path, err->message);
	g_free(path);
	*len = n;
	return (uint8_t *)data;
}
