/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * escape.h - output escaping for every tool: bytes that come from an input
 * (file names, names and values in a dump, CSV fields) never reach a
 * terminal, a line-oriented file, a JSON document or an SVG file raw.
 *
 * Text (tables, CSV, messages on stderr): bytes 0x20..0x7e are kept, a
 * backslash becomes "\\", every other byte "\xNN" (two lower-case hex
 * digits). With TOOL_ESC_UTF8, valid UTF-8 sequences of printable
 * characters are kept too (never controls, format characters such as bidi
 * overrides, line or paragraph separators, unassigned code points). So no
 * input can add a line, a column separator (TOOL_ESC_COMMA) or a terminal
 * escape, and the escaped form tells the bytes apart.
 *
 * JSON: strings are always valid UTF-8. A byte that is not part of a valid
 * UTF-8 sequence is REPLACED by U+FFFD (the JSON documents say so);
 * json-glib escapes the controls. Where the exact bytes matter, tools give
 * them as hex beside the string.
 *
 * XML/SVG: the text escape with TOOL_ESC_UTF8, then & < > " ' as entities:
 * always well-formed XML 1.0 character data or attribute value.
 *
 * Every function returns a new string (g_free it) or appends to a GString.
 */
#ifndef FDTCACHE_TOOLS_ESCAPE_H
#define FDTCACHE_TOOLS_ESCAPE_H

#include <glib.h>

#define TOOL_ESC_UTF8 0x1u  /* keep printable UTF-8 characters */
#define TOOL_ESC_QUOTE 0x2u /* '"' becomes \" (text shown between quotes) */
#define TOOL_ESC_COMMA 0x4u /* ',' becomes \x2c (a CSV field) */

/* tool_esc_append - append the n bytes at p to out, escaped as text. */
void tool_esc_append(GString *out, const void *p, gsize n, unsigned int flags);

/* tool_esc_text - the n bytes at p escaped as text (n < 0: p is a C string). */
char *tool_esc_text(const void *p, gssize n, unsigned int flags);

/*
 * tool_esc_name - a file name or other C string escaped for a message,
 * keeping printable UTF-8: the usual way to show a path.
 */
char *tool_esc_name(const char *s);

/*
 * tool_esc_utf8 - the n bytes at p (n < 0: a C string) as valid UTF-8,
 * each invalid byte replaced by U+FFFD, for a JSON string. A NUL byte
 * inside ends the string.
 */
char *tool_esc_utf8(const void *p, gssize n);

/* tool_esc_xml - the n bytes at p (n < 0: a C string) as XML text or attribute value. */
char *tool_esc_xml(const void *p, gssize n);

#endif /* FDTCACHE_TOOLS_ESCAPE_H */
