/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fdtcache-trace DTB: write the synthetic boot-time phandle lookup trace of
 * a device tree blob; fdtcache-trace --import FORMAT FILE: convert a
 * captured record of lookups into a trace (the format: ph_trace.h).
 */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "common/input.h"
#include "ph_gen.h"
#include "ph_import.h"
#include "ph_trace.h"
#include "ph_tree.h"

static gchar *output_path;
static gchar *import_opt;
static gchar *model_opt = "boot";
static gboolean show_version;
static gint core_init_after;
static gboolean no_early, no_devlink, with_disabled, probe_lists;
static gint probes = 1, irq_parses = 1;

static const GOptionEntry entries[] = {
	{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, "Write the trace to FILE (default: stdout)", "FILE" },
	{ "import", 'i', 0, G_OPTION_ARG_STRING, &import_opt, "Convert FILE from FORMAT: capture, kprobe or list", "FORMAT" },
	{ "model", 'm', 0, G_OPTION_ARG_STRING, &model_opt, "Synthetic model: boot (default), reference or bootloader", "MODEL" },
	{ "core-init-after", 'c', 0, G_OPTION_ARG_INT, &core_init_after, "reference: put @core_init after N lookups (default 0: before the first)", "N" },
	{ "no-early", 0, 0, G_OPTION_ARG_NONE, &no_early, "boot: no lookups before of_core_init()", NULL },
	{ "no-devlink", 0, 0, G_OPTION_ARG_NONE, &no_devlink, "boot: no fw_devlink supplier parse", NULL },
	{ "probes", 0, 0, G_OPTION_ARG_INT, &probes, "boot: probe passes per device (default 1)", "N" },
	{ "irq-parses", 0, 0, G_OPTION_ARG_INT, &irq_parses, "boot: parses per interrupt and probe (default 1)", "N" },
	{ "probe-lists", 0, 0, G_OPTION_ARG_NONE, &probe_lists, "boot: a probe fetches every entry of each list (default: the first)", NULL },
	{ "disabled", 0, 0, G_OPTION_ARG_NONE, &with_disabled, "boot: disabled nodes look up too", NULL },
	{ "version", 'V', 0, G_OPTION_ARG_NONE, &show_version, "Print the version and exit", NULL },
	{ NULL },
};

static int usage_error(GOptionContext *ctx, const char *msg)
{
	gchar *help = g_option_context_get_help(ctx, TRUE, NULL);

	fprintf(stderr, "fdtcache-trace: %s\n%s", msg, help);
	g_free(help);
	return 2;
}

static int fail(GError *error)
{
	fprintf(stderr, "fdtcache-trace: %s\n", error->message);
	g_error_free(error);
	return 1;
}

static int write_out(const GString *text)
{
	GError *error = NULL;

	if (output_path) {
		if (!g_file_set_contents(output_path, text->str, (gssize)text->len, &error))
			return fail(error);
	} else if (fwrite(text->str, 1, text->len, stdout) != text->len || fflush(stdout)) {
		fprintf(stderr, "fdtcache-trace: standard output: write error\n");
		return 1;
	}
	return 0;
}

static int run_import(enum ph_import_format format, const char *path)
{
	GError *error = NULL;
	struct tool_input in;
	GString *text = g_string_new(NULL);
	struct ph_trace check;
	int rc = 1;

	if (!tool_input_load(&in, path, &error))
		return fail(error);
	ph_trace_init(&check);
	if (ph_import(format, path, (const char *)in.data, in.len, text, &error) < 0)
		rc = fail(error);
	else if (!ph_trace_parse(&check, "(imported trace)", text->str, text->len, &error))
		rc = fail(error); /* the importer wrote a line the format does not have */
	else
		rc = write_out(text);
	ph_trace_clear(&check);
	tool_input_free(&in);
	g_string_free(text, TRUE);
	return rc;
}

/* Where a generated trace goes: stdout or --output, opened at its first chunk. */
struct out_file {
	FILE *f;
	int err; /* errno of the first failure, or 0 */
};

static void out_write(GString *text, gpointer data)
{
	struct out_file *out = data;

	if (!out->f && !out->err) {
		out->f = output_path ? fopen(output_path, "wb") : stdout;
		if (!out->f)
			out->err = errno;
	}
	if (out->f && !out->err && fwrite(text->str, 1, text->len, out->f) != text->len)
		out->err = errno ? errno : EIO;
	g_string_truncate(text, 0);
}

/* The rest of the text, then close; 0, or 1 with the failure said (no partial --output left). */
static int out_finish(struct out_file *out, GString *text)
{
	gboolean opened;

	out_write(text, out);
	opened = out->f && out->f != stdout;
	if (out->f && !out->err && fflush(out->f))
		out->err = errno ? errno : EIO;
	if (opened && fclose(out->f) && !out->err)
		out->err = errno ? errno : EIO;
	if (!out->err)
		return 0;
	if (output_path) {
		g_autofree char *shown = tool_esc_name(output_path);

		if (opened)
			remove(output_path);
		fprintf(stderr, "fdtcache-trace: %s: %s\n", shown, g_strerror(out->err));
	} else {
		fprintf(stderr, "fdtcache-trace: standard output: write error\n");
	}
	return 1;
}

/* The text is written as it is made: memory stays the DTB's and the lookups'. */
static int run_generate(const struct ph_gen_opts *opts, const char *path)
{
	GError *error = NULL;
	struct out_file out = { 0 };
	struct ph_trace trace;
	struct ph_tree tree;
	GString *text;
	gsize len;
	void *fdt = ph_dtb_load(path, &len, &error);
	int rc;

	if (!fdt)
		return fail(error);
	ph_tree_build(&tree, fdt, len);
	ph_trace_init(&trace);
	text = g_string_new(NULL);
	ph_gen_stream(&trace, &tree, path, opts, text, out_write, &out);
	if (!ph_trace_lookups(&trace) && !ph_trace_typed(&trace)) {
		g_autofree char *shown = tool_esc_name(path);

		fprintf(stderr, "fdtcache-trace: %s: no phandle reference, the trace would be empty\n",
			shown);
		rc = 1;
	} else {
		rc = out_finish(&out, text);
	}
	g_string_free(text, TRUE);
	ph_trace_clear(&trace);
	ph_tree_clear(&tree);
	g_free(fdt);
	return rc;
}

/* Options into opts; returns 0 or the usage error's exit code. */
static int read_opts(GOptionContext *ctx, struct ph_gen_opts *opts)
{
	enum ph_model model;

	if (!strcmp(model_opt, "boot"))
		model = PH_MODEL_BOOT;
	else if (!strcmp(model_opt, "reference"))
		model = PH_MODEL_REFERENCE;
	else if (!strcmp(model_opt, "bootloader"))
		model = PH_MODEL_BOOTLOADER;
	else
		return usage_error(ctx, "--model: expected boot, reference or bootloader");
	if (core_init_after < 0)
		return usage_error(ctx, "--core-init-after: N must be >= 0");
	if (core_init_after && model != PH_MODEL_REFERENCE)
		return usage_error(ctx, "--core-init-after: only with --model reference");
	if (probes < 0 || probes > 16 || irq_parses < 0 || irq_parses > 16)
		return usage_error(ctx, "--probes, --irq-parses: N must be 0..16");
	ph_gen_defaults(opts, model);
	opts->core_init_after = (guint)core_init_after;
	opts->early = !no_early;
	opts->devlink = !no_devlink;
	opts->probes = (guint)probes;
	opts->irq_parses = (guint)irq_parses;
	opts->disabled = with_disabled;
	opts->probe_lists = probe_lists;
	return 0;
}

int main(int argc, char **argv)
{
	GOptionContext *ctx = g_option_context_new("DTB | --import FORMAT FILE - write a boot-time phandle lookup trace");
	GError *error = NULL;
	struct ph_gen_opts opts;
	enum ph_import_format format = PH_IMPORT_LIST;
	int rc = 0;

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_summary(ctx, "Without --import: the synthetic trace of DTB. See fdtcache-trace(1).");
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		rc = usage_error(ctx, error->message);
		goto out;
	}
	if (show_version) {
		printf("fdtcache-trace %s\n", PACKAGE_VERSION);
		goto out;
	}
	if (argc != 2) {
		rc = usage_error(ctx, import_opt ? "expected exactly one FILE" : "expected exactly one DTB");
		goto out;
	}
	if (import_opt && !ph_import_format_parse(import_opt, &format)) {
		rc = usage_error(ctx, "--import: expected capture, kprobe or list");
		goto out;
	}
	rc = read_opts(ctx, &opts);
	if (!rc)
		rc = import_opt ? run_import(format, argv[1]) : run_generate(&opts, argv[1]);
out:
	g_clear_error(&error);
	g_option_context_free(ctx);
	return rc;
}
