/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_trace.h"

#include <string.h>

#include "common/escape.h"
#include "common/input.h"

G_DEFINE_QUARK(ph-error-quark, ph_error)

#define HEADER_DTB "# dtb: "
#define HEADER_SHA " sha256 "

const char *const ph_kind_names[PH_KINDS] = {
	[PH_KIND_PATH] = "path",   [PH_KIND_ALIAS] = "alias",	 [PH_KIND_PARENT] = "parent",
	[PH_KIND_REG_CELLS] = "reg-cells", [PH_KIND_CELLS] = "cells",
};

static void typed_free(gpointer p)
{
	struct ph_typed *item = p;

	g_free(item->arg);
	g_free(item->cells);
}

void ph_trace_init(struct ph_trace *trace)
{
	memset(trace, 0, sizeof(*trace));
	trace->phandles = g_array_new(FALSE, FALSE, sizeof(guint32));
	trace->lines = g_array_new(FALSE, FALSE, sizeof(guint));
	trace->typed = g_array_new(FALSE, FALSE, sizeof(struct ph_typed));
	g_array_set_clear_func(trace->typed, typed_free);
}

void ph_trace_clear(struct ph_trace *trace)
{
	if (trace->phandles)
		g_array_free(trace->phandles, TRUE);
	if (trace->lines)
		g_array_free(trace->lines, TRUE);
	if (trace->typed)
		g_array_free(trace->typed, TRUE);
	g_free(trace->dtb_name);
	memset(trace, 0, sizeof(*trace));
}

void ph_trace_add(struct ph_trace *trace, guint32 phandle, guint line)
{
	g_array_append_val(trace->phandles, phandle);
	g_array_append_val(trace->lines, line);
	if (!trace->has_user)
		trace->user_at = trace->phandles->len;
}

void ph_trace_add_typed(struct ph_trace *trace, enum ph_kind kind, const char *arg,
			const char *cells, guint line)
{
	struct ph_typed item = {
		.kind = kind,
		.at = trace->phandles->len,
		.line = line,
		.arg = g_strdup(arg),
		.cells = g_strdup(cells),
	};

	g_array_append_val(trace->typed, item);
}

void ph_typed_format(GString *out, const struct ph_typed *item)
{
	if (item->kind == PH_KIND_REG_CELLS)
		g_string_append_printf(out, "cells %s reg", item->arg);
	else if (item->kind == PH_KIND_CELLS)
		g_string_append_printf(out, "cells %s %s", item->arg, item->cells);
	else
		g_string_append_printf(out, "%s %s", ph_kind_names[item->kind], item->arg);
}

gboolean ph_parse_phandle(const char *word, guint32 *phandle, const char **why)
{
	guint base = 10;
	guint64 value;
	const char *digits = word;

	if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X')) {
		base = 16;
		digits = word + 2;
	}
	if (!g_ascii_string_to_unsigned(digits, base, 0, G_MAXUINT64, &value, NULL) ||
	    digits[0] == '+' || digits[0] == '-') {
		*why = "not a phandle (hex 0x... or decimal)";
		return FALSE;
	}
	if (value == 0 || value > G_MAXUINT32) {
		*why = "phandle out of range (1..0xffffffff)";
		return FALSE;
	}
	*phandle = (guint32)value;
	return TRUE;
}

static gboolean is_hex(const char *s, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (!g_ascii_isxdigit(s[i]))
			return FALSE;
	return TRUE;
}

/* A "# dtb: NAME sha256 HEX" comment before the first item. */
static void parse_header(struct ph_trace *trace, const char *comment, guint lineno)
{
	const char *name, *sha, *hex;

	/* the prefix first: a comment shorter than it has no name to search */
	if (trace->dtb_name || trace->phandles->len || trace->typed->len ||
	    !g_str_has_prefix(comment, HEADER_DTB))
		return;
	name = comment + strlen(HEADER_DTB);
	sha = g_strrstr(name, HEADER_SHA);
	if (!sha || sha == name)
		return;
	hex = sha + strlen(HEADER_SHA);
	if (strlen(hex) != PH_SHA256_HEX || !is_hex(hex, PH_SHA256_HEX))
		return;
	trace->dtb_name = g_strndup(name, (gsize)(sha - name));
	g_strlcpy(trace->dtb_sha256, hex, sizeof(trace->dtb_sha256));
	for (char *c = trace->dtb_sha256; *c; c++)
		*c = g_ascii_tolower(*c);
	trace->dtb_line = lineno;
}

static gboolean parse_marker(struct ph_trace *trace, const char *item, gboolean *seen_core_init,
			     const char **why)
{
	if (!strcmp(item, PH_MARK_CORE_INIT)) {
		if (*seen_core_init) {
			*why = "second " PH_MARK_CORE_INIT;
			return FALSE;
		}
		if (trace->has_user) {
			*why = PH_MARK_CORE_INIT " after " PH_MARK_USER;
			return FALSE;
		}
		*seen_core_init = TRUE;
		trace->core_init_at = trace->phandles->len;
		return TRUE;
	}
	if (!strcmp(item, PH_MARK_USER)) {
		if (trace->has_user) {
			*why = "second " PH_MARK_USER;
			return FALSE;
		}
		trace->has_user = TRUE;
		trace->user_at = trace->phandles->len;
		return TRUE;
	}
	*why = "unknown marker (@core_init or @user)";
	return FALSE;
}

/* Split item (stripped) into at most 3 words in place; returns the count (4: more). */
static gsize split_words(char *item, char *words[3])
{
	gsize n = 0;

	while (*item && n < 3) {
		words[n++] = item;
		while (*item && *item != ' ' && *item != '\t')
			item++;
		if (*item)
			*item++ = '\0';
		while (*item == ' ' || *item == '\t')
			item++;
	}
	return *item ? 4 : n;
}

/* A word of the grammar: printable ASCII; slash: may hold '/'. */
static gboolean is_word(const char *w, gboolean slash)
{
	for (; *w; w++)
		if (*w < 0x21 || *w > 0x7e || (!slash && *w == '/'))
			return FALSE;
	return TRUE;
}

/* A typed item's words (kind first); FALSE with a reason. */
static gboolean parse_typed(struct ph_trace *trace, char **words, gsize n, guint lineno,
			    const char **why)
{
	const char *kind = words[0];

	if (!strcmp(kind, "path") || !strcmp(kind, "alias")) {
		gboolean path = kind[0] == 'p';

		if (n != 2 || !is_word(words[1], path)) {
			*why = path ? "path: expected one path" : "alias: expected one name without '/'";
			return FALSE;
		}
		ph_trace_add_typed(trace, path ? PH_KIND_PATH : PH_KIND_ALIAS, words[1], NULL, lineno);
		return TRUE;
	}
	if (n < 2 || words[1][0] != '/' || !is_word(words[1], TRUE)) {
		*why = kind[0] == 'p' ? "parent: expected a node's absolute path"
				      : "cells: expected a node's absolute path and #xxx-cells or reg";
		return FALSE;
	}
	if (kind[0] == 'p') {
		if (n != 2) {
			*why = "parent: expected a node's absolute path";
			return FALSE;
		}
		ph_trace_add_typed(trace, PH_KIND_PARENT, words[1], NULL, lineno);
		return TRUE;
	}
	if (n == 3 && !strcmp(words[2], "reg")) {
		ph_trace_add_typed(trace, PH_KIND_REG_CELLS, words[1], NULL, lineno);
		return TRUE;
	}
	if (n != 3 || words[2][0] != '#' || !words[2][1] || !is_word(words[2], TRUE)) {
		*why = "cells: expected a node's absolute path and #xxx-cells or reg";
		return FALSE;
	}
	ph_trace_add_typed(trace, PH_KIND_CELLS, words[1], words[2], lineno);
	return TRUE;
}

static gboolean is_kind(const char *word)
{
	static const char *const kinds[] = { "path", "alias", "parent", "cells" };

	for (gsize i = 0; i < G_N_ELEMENTS(kinds); i++)
		if (!strcmp(word, kinds[i]))
			return TRUE;
	return FALSE;
}

static gboolean parse_lookup(struct ph_trace *trace, char *item, guint lineno, const char **why)
{
	char *words[3];
	gsize n = split_words(item, words);
	const char *value = NULL;
	guint32 phandle;

	if (n == 1 && !is_kind(words[0]))
		value = words[0];
	else if (n == 2 && !strcmp(words[0], "phandle"))
		value = words[1];
	if (value) {
		if (!ph_parse_phandle(value, &phandle, why))
			return FALSE;
		ph_trace_add(trace, phandle, lineno);
		return TRUE;
	}
	if (is_kind(words[0]))
		return parse_typed(trace, words, n, lineno, why);
	*why = "not a phandle (hex 0x... or decimal)";
	return FALSE;
}

/*
 * Where the comment of line starts: the first '#', but in a cells item the
 * '#' of its #xxx-cells word (the third) is not one.
 */
static char *comment_start(char *line)
{
	char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncmp(p, "cells", 5) || (p[5] != ' ' && p[5] != '\t'))
		return strchr(line, '#');
	p += 5;
	for (int word = 0; word < 2; word++) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (word == 0 && *p == '#')
			return p; /* no path: the rest is a comment */
		while (*p && *p != ' ' && *p != '\t' && (word == 1 || *p != '#'))
			p++;
	}
	return strchr(p, '#');
}

/* One line without its newline; FALSE with a reason for a bad line. */
static gboolean parse_line(struct ph_trace *trace, char *line, guint lineno,
			   gboolean *seen_core_init, const char **why)
{
	char *hash = comment_start(line);

	if (hash) {
		g_strchomp(hash);
		parse_header(trace, hash, lineno);
		*hash = '\0';
	}
	g_strstrip(line);
	if (!*line)
		return TRUE;
	if (line[0] == '@')
		return parse_marker(trace, line, seen_core_init, why);
	return parse_lookup(trace, line, lineno, why);
}

gboolean ph_next_line(const char *text, gsize len, gsize *pos, const char **line, gsize *n)
{
	const char *nl;

	if (*pos >= len)
		return FALSE;
	*line = text + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*n = nl ? (gsize)(nl - *line) : len - *pos;
	*pos += *n + 1;
	return TRUE;
}

gboolean ph_trace_parse(struct ph_trace *trace, const char *name, const char *text, gsize len,
			GError **error)
{
	gboolean seen_core_init = FALSE;
	gsize pos = 0, n;
	guint lineno = 0;
	const char *start;

	while (ph_next_line(text, len, &pos, &start, &n)) {
		char *line = g_strndup(start, n);
		const char *why = NULL;
		gboolean ok;

		lineno++;
		if (strlen(line) != n)
			why = "NUL byte in line";
		ok = !why && parse_line(trace, line, lineno, &seen_core_init, &why);
		g_free(line);
		if (!ok) {
			g_autofree char *shown = tool_esc_name(name);

			g_set_error(error, PH_ERROR, PH_ERROR_PARSE, "%s:%u: %s", shown, lineno, why);
			return FALSE;
		}
	}
	trace->nlines = lineno;
	return TRUE;
}

gboolean ph_trace_load(struct ph_trace *trace, const char *path, GError **error)
{
	struct tool_input in;
	gboolean ok;

	if (!tool_input_load(&in, path, error))
		return FALSE;
	ok = ph_trace_parse(trace, path, (const char *)in.data, in.len, error);
	tool_input_free(&in);
	return ok;
}

gboolean ph_trace_require_lookups(const struct ph_trace *trace, const char *name,
				  GError **error)
{
	g_autofree char *shown = NULL;

	if (trace->phandles->len || trace->typed->len)
		return TRUE;
	shown = tool_esc_name(name);
	g_set_error(error, PH_ERROR, PH_ERROR_EMPTY, "%s:%u: no lookup in the trace", shown,
		    MAX(trace->nlines, 1));
	return FALSE;
}

gchar *ph_sha256_hex(const void *blob, gsize len)
{
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, blob, len);
}

void ph_header_dtb(GString *out, const char *name, const void *blob, gsize len)
{
	g_autofree gchar *base = g_path_get_basename(name);
	g_autofree gchar *shown = tool_esc_text(base, -1, 0);
	g_autofree gchar *sha = ph_sha256_hex(blob, len);

	g_string_append_printf(out, HEADER_DTB "%s" HEADER_SHA "%s\n", shown, sha);
}
