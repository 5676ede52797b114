/* SPDX-License-Identifier: BSD-2-Clause */
/* JSON strings that are always valid UTF-8 (see json.h). */
#include "json.h"

#include "escape.h"

#include <stdio.h>

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
