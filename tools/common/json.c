/* SPDX-License-Identifier: BSD-2-Clause */
/* JSON strings that are always valid UTF-8 (see json.h). */
#include "json.h"

#include "escape.h"

#include <stdio.h>
#include <string.h>

void tool_json_member(JsonBuilder *b, const char *name)
{
	char *v = tool_esc_utf8(name, -1);

	json_builder_set_member_name(b, v);
	g_free(v);
}

void tool_json_string(JsonBuilder *b, const char *s)
{
	char *v;

	if (!s) {
		json_builder_add_null_value(b);
		return;
	}
	v = tool_esc_utf8(s, -1);
	json_builder_add_string_value(b, v);
	g_free(v);
}

void tool_json_str(JsonBuilder *b, const char *key, const char *v)
{
	tool_json_member(b, key);
	tool_json_string(b, v);
}

void tool_json_bytes(JsonBuilder *b, const char *key, const void *p, gsize n)
{
	char *v = tool_esc_utf8(p, (gssize)n);

	tool_json_member(b, key);
	json_builder_add_string_value(b, v);
	g_free(v);
}

void tool_json_print(JsonBuilder *b)
{
	JsonGenerator *gen = json_generator_new();
	JsonNode *root = json_builder_get_root(b);
	char *text;

	json_generator_set_root(gen, root);
	json_generator_set_pretty(gen, TRUE);
	text = json_generator_to_data(gen, NULL);
	printf("%s\n", text);
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	g_object_unref(b);
}

/* Print text (pretty JSON of one value) with every line indented by indent spaces. */
static void print_indented(const char *text, int indent)
{
	const char *p = text, *nl;

	for (; (nl = strchr(p, '\n')); p = nl + 1)
		printf("%*s%.*s\n", indent, "", (int)(nl - p), p);
	printf("%*s%s", indent, "", p);
}

/* Print the array of st's elements, each as its own pretty value indented into place. */
static void print_stream(JsonGenerator *gen, const struct tool_json_stream *st)
{
	gboolean first = TRUE;

	printf("[");
	for (;;) {
		JsonBuilder *eb = json_builder_new();
		JsonNode *node;
		char *el;

		if (!st->next(st->ctx, eb)) {
			g_object_unref(eb);
			break;
		}
		node = json_builder_get_root(eb);
		json_generator_set_root(gen, node);
		el = json_generator_to_data(gen, NULL);
		printf(first ? "\n" : ",\n");
		print_indented(el, 4);
		first = FALSE;
		g_free(el);
		json_node_unref(node);
		g_object_unref(eb);
	}
	printf("%s]", first ? "" : "\n  ");
}

/*
 * A pretty top-level member "name" : null starts a line with two spaces;
 * strings cannot hold a raw newline, so this text is the member and
 * nothing inside a string.
 */
void tool_json_print_stream(JsonBuilder *b, const struct tool_json_stream *streams, gsize n)
{
	JsonGenerator *gen = json_generator_new();
	JsonNode *root = json_builder_get_root(b);
	char *text, *p;
	gsize i;

	json_generator_set_pretty(gen, TRUE);
	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, NULL);
	p = text;
	for (i = 0; i < n; i++) {
		char *key = g_strdup_printf("\n  \"%s\" : null", streams[i].member);
		char *at = strstr(p, key);

		if (at) {
			at += strlen(key) - strlen("null");
			printf("%.*s", (int)(at - p), p);
			print_stream(gen, &streams[i]);
			p = at + strlen("null");
		}
		g_free(key);
	}
	printf("%s\n", p);
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	g_object_unref(b);
}
