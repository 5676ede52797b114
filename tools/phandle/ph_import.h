/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_import.h - other records of boot-time lookups turned into the trace
 * format (ph_trace.h), keeping what they say about each lookup as comments.
 *
 * - capture: the raw log of scripts/capture-boot-trace:
 *       # fdtcache-capture 2
 *       # board: NAME / # qemu: ... / # kernel: ... / # dtb: NAME sha256 HEX
 *       lookup 0x0000001c of_phandle_iterator_next+0x8c
 *       path "/chosen" of_alias_scan+0x64
 *       alias-id "serial" pl011_setup_port+0x58
 *       alias-highest "i2c" i2c_init+0x2c
 *       mark core_init
 *       mark user
 *   The "# key: value" lines are kept (the dtb line becomes the header);
 *   a lookup of 0 (Linux returns before any lookup) becomes a comment.
 *   A path line is one of_find_node_opts_by_path() call: its string is the
 *   kernel's bytes between double quotes, \xNN for a byte outside '!'..'~'
 *   and for '"' and '\', at most PH_IMPORT_STRING_MAX bytes (an ellipsis
 *   after the closing quote: the kernel's went on). It becomes "path P",
 *   or "alias NAME" for a bare alias, options after ':' cut into the
 *   comment; the call resolving an alias's value (called from
 *   of_find_node_opts_by_path itself) and the alias-id/alias-highest lines
 *   (of_alias_get_id, of_alias_get_highest_id: the kernel's alias list, no
 *   trace kind) become comments. Version 2 lines end with the caller, the
 *   log with a newline; a truncated, over-long or non-printable string is
 *   an error. "# fdtcache-capture 1" logs (lookups and marks) still read.
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

/* The longest string of a capture line (the gdb script's bound). */
#define PH_IMPORT_STRING_MAX 1024

enum ph_import_format {
	PH_IMPORT_CAPTURE,
	PH_IMPORT_KPROBE,
	PH_IMPORT_LIST,
};

/* ph_import_format_parse - "capture", "kprobe" or "list"; FALSE for another word. */
gboolean ph_import_format_parse(const char *word, enum ph_import_format *format);

/*
 * ph_import - convert text (len bytes) read from the file name into the
 * trace format, appended to out. Returns the number of phandle lookups
 * written (a capture's path lines may be all it has: 0), or -1 with error
 * set ("NAME:LINE: why").
 */
gint64 ph_import(enum ph_import_format format, const char *name, const char *text, gsize len,
		 GString *out, GError **error);

#endif /* FDTCACHE_TOOLS_PH_IMPORT_H */
