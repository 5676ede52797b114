/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * json.h - json-glib members whose strings are always valid UTF-8 (invalid
 * bytes replaced by U+FFFD, see escape.h), for every tool's --format json.
 */
#ifndef FDTCACHE_TOOLS_JSON_H
#define FDTCACHE_TOOLS_JSON_H

#include <json-glib/json-glib.h>

/* tool_json_member - set the next member's name (from input: made valid too). */
void tool_json_member(JsonBuilder *b, const char *name);

/* tool_json_string - add the C string s (NULL: null) as a value. */
void tool_json_string(JsonBuilder *b, const char *s);

/* tool_json_str - add member key with the C string v (NULL: null). */
void tool_json_str(JsonBuilder *b, const char *key, const char *v);

/* tool_json_bytes - add member key with the n bytes at p as a string. */
void tool_json_bytes(JsonBuilder *b, const char *key, const void *p, gsize n);

/*
 * tool_json_print - print the document b holds (pretty, then a newline) on
 * standard output and drop b.
 */
void tool_json_print(JsonBuilder *b);

#endif /* FDTCACHE_TOOLS_JSON_H */
