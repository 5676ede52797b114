/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Traces (the phandle tools' libphandle): any text parses or fails naming
 * the file and line; any text imported (capture, kprobe, list) gives a trace
 * that parses; any checked DTB gives, under both models, a trace whose text
 * parses back to the same lookups.
 */
#include <libfdt.h>
#include <stdio.h>
#include <string.h>

#include "ph_gen.h"
#include "ph_import.h"
#include "ph_trace.h"

#include "fuzz_util.h"

#define MAX_DTB (1u << 22)

static void same_lookups(const struct ph_trace *a, const struct ph_trace *b, const char *what)
{
	if (ph_trace_lookups(a) != ph_trace_lookups(b) || a->core_init_at != b->core_init_at ||
	    (ph_trace_lookups(a) && memcmp(a->phandles->data, b->phandles->data,
					   ph_trace_lookups(a) * sizeof(guint32))))
		fuzz_violated(what, 0);
}

static void parses(const GString *text, struct ph_trace *back, const char *what)
{
	GError *err = NULL;

	if (!ph_trace_parse(back, "generated", text->str, text->len, &err)) {
		fprintf(stderr, "%s: %s\n", what, err->message);
		fuzz_violated(what, 0);
	}
}

int fuzz_trace_parse(const uint8_t *data, size_t size)
{
	struct ph_trace trace;
	GError *err = NULL;

	ph_trace_init(&trace);
	if (ph_trace_parse(&trace, "fuzz.trace", (const char *)data, size, &err)) {
		if (trace.core_init_at > ph_trace_lookups(&trace) ||
		    trace.user_at > ph_trace_lookups(&trace))
			fuzz_violated("markers within the lookups", 0);
	} else if (!err || !g_str_has_prefix(err->message, "fuzz.trace:")) {
		fuzz_violated("a parse error names the file and line", 0);
	}
	g_clear_error(&err);
	ph_trace_clear(&trace);
	return 0;
}

int fuzz_trace_import(const uint8_t *data, size_t size)
{
	static const enum ph_import_format formats[] = { PH_IMPORT_CAPTURE, PH_IMPORT_KPROBE,
							 PH_IMPORT_LIST };
	GString *out;
	GError *err = NULL;
	gint64 n;

	if (!size)
		return 0;
	out = g_string_new(NULL);
	n = ph_import(formats[data[0] % 3], "fuzz.log", (const char *)data + 1, size - 1, out, &err);
	if (n >= 0) {
		struct ph_trace back;

		ph_trace_init(&back);
		parses(out, &back, "an imported trace parses");
		if (ph_trace_lookups(&back) != (guint)n)
			fuzz_violated("an imported trace holds the lookups it counted", 0);
		ph_trace_clear(&back);
	} else if (!err || !g_str_has_prefix(err->message, "fuzz.log:")) {
		fuzz_violated("an import error names the file and line", 0);
	}
	g_clear_error(&err);
	g_string_free(out, TRUE);
	return 0;
}

int fuzz_trace_generate(const uint8_t *data, size_t size)
{
	struct ph_trace made, back;
	struct ph_gen_opts opts;
	struct ph_tree tree;
	GString *text;
	void *fdt;

	if (size < sizeof(struct fdt_header) || size > MAX_DTB)
		return 0;
	fdt = g_memdup2(data, size);
	if (fdt_check_full(fdt, size)) {
		g_free(fdt);
		return 0;
	}
	ph_tree_build(&tree, fdt, size);
	for (int model = 0; model < 2; model++) {
		ph_gen_defaults(&opts, model ? PH_MODEL_REFERENCE : PH_MODEL_BOOT);
		opts.core_init_after = (guint)(size % 7);
		ph_trace_init(&made);
		ph_trace_init(&back);
		text = g_string_new(NULL);
		ph_gen(&made, &tree, "fuzz.dtb", &opts, text);
		parses(text, &back, "a generated trace parses");
		same_lookups(&made, &back, "a generated trace parses back to its lookups");
		g_string_free(text, TRUE);
		ph_trace_clear(&made);
		ph_trace_clear(&back);
	}
	ph_tree_clear(&tree);
	g_free(fdt);
	return 0;
}
