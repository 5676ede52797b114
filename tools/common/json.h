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

/* A top-level array of a document printed element by element. */
struct tool_json_stream {
	const char *member; /* added to the document with a null value */
	/* adds one value to the empty builder eb and returns TRUE; FALSE: no more */
	gboolean (*next)(void *ctx, JsonBuilder *eb);
	void *ctx;
};

/*
 * tool_json_print_stream - print the document b holds as tool_json_print
 * does, with each top-level member streams[i].member (in the document's
 * order) replaced by an array whose elements streams[i].next builds one at
 * a time: each is printed as soon as it is built and dropped, so a long
 * array never sits in memory whole. The text is the same as if the arrays
 * had been in b.
 */
void tool_json_print_stream(JsonBuilder *b, const struct tool_json_stream *streams, gsize n);

#endif /* FDTCACHE_TOOLS_JSON_H */
