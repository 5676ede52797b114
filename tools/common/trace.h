/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * trace.h - boot-time phandle lookup traces, and DTB loading, for the tools.
 *
 * Text format: one lookup per line, a phandle in hex (0x3c) or decimal;
 * '#' starts a comment (also after a value); blank lines are ignored; a line
 * "@core_init" marks where the kernel runs of_core_init(). Without it, core
 * init happens before the first lookup.
 */
#ifndef FDTCACHE_TOOLS_TRACE_H
#define FDTCACHE_TOOLS_TRACE_H

#include <glib.h>

#define FC_TRACE_ERROR (fc_trace_error_quark())
GQuark fc_trace_error_quark(void);

enum fc_trace_error_code {
	FC_TRACE_ERROR_PARSE, /* a bad trace line: "FILE:LINE: ..." */
	FC_TRACE_ERROR_DTB,   /* not a DTB, or a corrupt one: "FILE: ..." */
	FC_TRACE_ERROR_READ,  /* the file cannot be read */
};

struct fc_trace {
	GArray *phandles;   /* guint32, in lookup order */
	guint core_init_at; /* lookups made before of_core_init() */
};

/* fc_trace_init - an empty trace; fc_trace_clear frees it. */
void fc_trace_init(struct fc_trace *trace);
void fc_trace_clear(struct fc_trace *trace);

/*
 * fc_trace_parse - parse text (len bytes, not necessarily NUL-terminated);
 * name is the file name used in error messages. Appends to an empty trace.
 */
gboolean fc_trace_parse(struct fc_trace *trace, const char *name, const char *text, gsize len,
			GError **error);

/* fc_trace_load - read and parse the trace file at path. */
gboolean fc_trace_load(struct fc_trace *trace, const char *path, GError **error);

/*
 * fc_dtb_load - read a DTB and check it with fdt_check_full(); g_free the
 * result. Errors name the file and libfdt's reason.
 */
void *fc_dtb_load(const char *path, gsize *len, GError **error);

/*
 * fc_trace_generate - the synthetic boot trace of a checked DTB: tree order,
 * one lookup per non-zero phandle reference in the properties of
 * spec/phandle-caches.md (argument cells skipped by the target's #...-cells,
 * 0 when missing). Appends the lookups to an empty trace and, when text is
 * not NULL, the trace file (with a header naming dtb_name and a comment per
 * line). of_core_init() comes after core_init_after lookups (0: before the
 * first, with no @core_init line).
 */
void fc_trace_generate(struct fc_trace *trace, const void *fdt, const char *dtb_name,
		       guint core_init_after, GString *text);

#endif /* FDTCACHE_TOOLS_TRACE_H */
