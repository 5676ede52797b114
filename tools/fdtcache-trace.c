/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-trace DTB: write the synthetic boot-time phandle lookup trace of
 * a device tree blob (see tools/common/trace.h for the format).
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/trace.h"

static gchar *output_path;
static gboolean show_version;
static gint core_init_after;

static const GOptionEntry entries[] = {
	{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, "Write the trace to FILE (default: stdout)", "FILE" },
	{ "core-init-after", 'c', 0, G_OPTION_ARG_INT, &core_init_after, "Put @core_init after N lookups (default 0: before the first, no marker line)", "N" },
	{ "version", 0, 0, G_OPTION_ARG_NONE, &show_version, "Print the version and exit", NULL },
	{ NULL },
};

static int usage_error(GOptionContext *ctx, const char *msg)
{
	gchar *help = g_option_context_get_help(ctx, TRUE, NULL);

	fprintf(stderr, "fdtcache-trace: %s\n%s", msg, help);
	g_free(help);
	return 2;
}

int main(int argc, char **argv)
{
	GOptionContext *ctx = g_option_context_new("DTB - write the synthetic boot lookup trace of a DTB");
	GError *error = NULL;
	struct fc_trace trace;
	GString *text;
	gsize len;
	void *fdt;
	gchar *name;
	int rc = 0;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		rc = usage_error(ctx, error->message);
		goto out;
	}
	if (show_version) {
		printf("fdtcache-trace %s\n", PACKAGE_VERSION);
		goto out;
	}
	if (argc != 2) {
		rc = usage_error(ctx, "expected exactly one DTB");
		goto out;
	}
	if (core_init_after < 0) {
		rc = usage_error(ctx, "--core-init-after: N must be >= 0");
		goto out;
	}
	fdt = fc_dtb_load(argv[1], &len, &error);
	if (!fdt) {
		fprintf(stderr, "fdtcache-trace: %s\n", error->message);
		rc = 1;
		goto out;
	}
	fc_trace_init(&trace);
	text = g_string_new(NULL);
	name = g_path_get_basename(argv[1]);
	fc_trace_generate(&trace, fdt, name, (guint)core_init_after, text);
	if (output_path) {
		if (!g_file_set_contents(output_path, text->str, (gssize)text->len, &error)) {
			fprintf(stderr, "fdtcache-trace: %s\n", error->message);
			rc = 1;
		}
	} else if (fwrite(text->str, 1, text->len, stdout) != text->len || fflush(stdout)) {
		fprintf(stderr, "fdtcache-trace: <stdout>: write error\n");
		rc = 1;
	}
	g_free(name);
	g_string_free(text, TRUE);
	fc_trace_clear(&trace);
	g_free(fdt);
out:
	g_clear_error(&error);
	g_option_context_free(ctx);
	return rc;
}
