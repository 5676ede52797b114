/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_import.h - other records of boot-time lookups turned into the trace
 * format (ph_trace.h), keeping what they say about each lookup as comments.
 *
 * - capture: the raw log of scripts/capture-boot-trace:
 *       # fdtcache-capture 1
 *       # board: NAME / # qemu: ... / # kernel: ... / # dtb: NAME sha256 HEX
 *       lookup 0x0000001c of_phandle_iterator_next+0x8c
 *       mark core_init
 *       mark user
 *   The "# key: value" lines are kept (the dtb line becomes the header);
 *   a lookup of 0 (Linux returns before any lookup) becomes a comment.
 * - kprobe: the kernel's ftrace text of a kprobe event on
 *   of_find_node_by_phandle with the phandle as argument h, e.g. from
 *   kprobe_event=p:phk/lookup,of_find_node_by_phandle,h=%x0:x32:
 *       swapper/0-1 [000] ..... 0.412345: lookup: (of_find_node_by_phandle+0x0/0x98) h=0x1c
 *   Task and timestamp are kept as the comment. Such a probe is armed after
 *   of_core_init(), so the trace has core init before its first lookup.
 * - list: phandles separated by white space or commas, hex (0x...) or
 *   decimal; '#' starts a comment.
 * Every error names "FILE:LINE".
 */
#ifndef FDTCACHE_TOOLS_PH_IMPORT_H
#define FDTCACHE_TOOLS_PH_IMPORT_H

#include <glib.h>

enum ph_import_format {
	PH_IMPORT_CAPTURE,
	PH_IMPORT_KPROBE,
	PH_IMPORT_LIST,
};

/* ph_import_format_parse - "capture", "kprobe" or "list"; FALSE for another word. */
gboolean ph_import_format_parse(const char *word, enum ph_import_format *format);

/*
 * ph_import - convert text (len bytes) read from the file name into the
 * trace format, appended to out. Returns the number of lookups written, or
 * -1 with error set ("NAME:LINE: why").
 */
gint64 ph_import(enum ph_import_format format, const char *name, const char *text, gsize len,
		 GString *out, GError **error);

#endif /* FDTCACHE_TOOLS_PH_IMPORT_H */
