/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_import.h"

#include <stdarg.h>
#include <string.h>

#include "common/escape.h"
#include "ph_trace.h"

#define CAPTURE_MAGIC_V1 "# fdtcache-capture 1"
#define CAPTURE_MAGIC "# fdtcache-capture 2"

gboolean ph_import_format_parse(const char *word, enum ph_import_format *format)
{
	static const char *const names[] = {
		[PH_IMPORT_CAPTURE] = "capture",
		[PH_IMPORT_KPROBE] = "kprobe",
		[PH_IMPORT_LIST] = "list",
	};

	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		if (!strcmp(word, names[i])) {
			*format = (enum ph_import_format)i;
			return TRUE;
		}
	}
	return FALSE;
}

struct importer {
	const char *name;
	GString *out;
	guint lineno;
	gint64 lookups; /* phandle lookups */
	gint64 typed;   /* path and alias lookups */
	guint version; /* of the capture log */
	gboolean core_init, user;
	const char *why; /* set on a bad line */
	char whybuf[160]; /* a why naming a byte or a length */
	GString *string;  /* a capture line's string, decoded */
};

static void put_lookup(struct importer *im, guint32 phandle, const char *comment)
{
	g_string_append_printf(im->out, "0x%x", phandle);
	if (comment && *comment) {
		g_autofree char *shown = tool_esc_text(comment, -1, TOOL_ESC_UTF8);

		g_string_append_printf(im->out, " # %s", shown);
	}
	g_string_append_c(im->out, '\n');
	im->lookups++;
}

/* A 32-bit hex value as the capture writes it (0x...). */
static gboolean parse_hex32(const char *word, guint32 *value)
{
	guint64 v;

	if (!word || (strncmp(word, "0x", 2) && strncmp(word, "0X", 2)))
		return FALSE;
	if (!g_ascii_string_to_unsigned(word + 2, 16, 0, G_MAXUINT32, &v, NULL) ||
	    word[2] == '+' || word[2] == '-')
		return FALSE;
	*value = (guint32)v;
	return TRUE;
}

static gboolean capture_mark(struct importer *im, const char *what)
{
	gboolean *seen = !strcmp(what, "core_init") ? &im->core_init :
			 !strcmp(what, "user") ? &im->user : NULL;

	if (!seen) {
		im->why = "unknown mark (core_init or user)";
		return FALSE;
	}
	if (*seen) {
		im->why = "the same mark twice";
		return FALSE;
	}
	if (seen == &im->core_init && im->user) {
		im->why = "mark core_init after mark user";
		return FALSE;
	}
	*seen = TRUE;
	g_string_append_printf(im->out, "@%s\n", what);
	return TRUE;
}

static gboolean capture_lookup(struct importer *im, char **w)
{
	guint32 phandle;

	if (im->version >= 2 && (!w[1] || strlen(w[1]) != 10 || !w[2])) {
		im->why = "truncated line: expected 'lookup 0xPHANDLE CALLER' (8 hex digits)";
		return FALSE;
	}
	if (!w[1] || !parse_hex32(w[1], &phandle) || (w[2] && w[3])) {
		im->why = "expected 'lookup 0xPHANDLE [CALLER]'";
		return FALSE;
	}
	if (!phandle) {
		g_autofree char *caller = tool_esc_text(w[2] ? w[2] : "", -1, TOOL_ESC_UTF8);

		/* Linux returns before any lookup or cache access */
		g_string_append_printf(im->out, "# 0x0 %s (phandle 0: no lookup)\n", caller);
		return TRUE;
	}
	put_lookup(im, phandle, w[2]);
	return TRUE;
}

static gboolean why_printf(struct importer *im, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean why_printf(struct importer *im, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_vsnprintf(im->whybuf, sizeof(im->whybuf), fmt, ap);
	va_end(ap);
	im->why = im->whybuf;
	return FALSE;
}

/*
 * The string of a capture line decoded into im->string: the kernel's bytes
 * between double quotes, \xNN for each byte outside '!'..'~' and for '"'
 * and '\\'; an ellipsis after the closing quote says the kernel's string
 * went on past the capture's bound.
 */
static gboolean capture_string(struct importer *im, const char *word)
{
	const char *p = word + 1;

	if (word[0] != '"')
		return why_printf(im, "expected a string between double quotes");
	g_string_truncate(im->string, 0);
	for (; *p && *p != '"'; p++) {
		guchar c = (guchar)*p;

		if (c < 0x21 || c > 0x7e)
			return why_printf(im, "non-printable byte 0x%02x in the string (the capture "
					  "writes it as \\x%02x)", c, c);
		if (c == '\\') {
			if (p[1] != 'x' || !g_ascii_isxdigit(p[2]) || !g_ascii_isxdigit(p[3]))
				return why_printf(im, "bad escape in the string (only \\xNN)");
			c = (guchar)(g_ascii_xdigit_value(p[2]) << 4 | g_ascii_xdigit_value(p[3]));
			if (!c)
				return why_printf(im, "\\x00 in the string (a kernel string ends at "
						  "its NUL)");
			p += 3;
		}
		if (im->string->len == PH_IMPORT_STRING_MAX)
			return why_printf(im, "over-long string: more than %d bytes",
					  PH_IMPORT_STRING_MAX);
		g_string_append_c(im->string, (char)c);
	}
	if (!*p)
		return why_printf(im, "truncated line: the string has no closing '\"'");
	if (!strcmp(p + 1, "..."))
		return why_printf(im, "over-long string: the kernel's went on past the %d bytes "
				  "the capture reads", PH_IMPORT_STRING_MAX);
	if (p[1])
		return why_printf(im, "unexpected bytes after the string's closing '\"'");
	return TRUE;
}

/* im->string as a trace word: printable ASCII, no '#' before the options' ':'. */
static gboolean capture_string_is_word(struct importer *im)
{
	const char *s = im->string->str;
	const char *colon = strchr(s, ':');

	for (gsize i = 0; i < im->string->len; i++) {
		guchar c = (guchar)s[i];

		if (c < 0x21 || c > 0x7e)
			return why_printf(im, "the kernel's string holds byte 0x%02x, which a trace "
					  "cannot hold (printable ASCII only)", c);
		if (c == '#' && (!colon || s + i < colon))
			return why_printf(im, "the kernel's path holds '#', which a trace word "
					  "cannot hold");
	}
	return TRUE;
}

/*
 * "path STRING CALLER": one of_find_node_opts_by_path() call. The kernel
 * cuts options at the first ':' (stdout-path "serial0:115200n8"); a path
 * not starting with '/' begins with an alias: a bare alias is an alias
 * lookup, "alias/rest" a path lookup. The call it makes itself to resolve
 * an alias's value is part of that lookup: a comment.
 */
static void capture_path(struct importer *im, const char *caller)
{
	g_autofree char *shown = tool_esc_text(caller, -1, TOOL_ESC_UTF8);
	char *path = im->string->str;
	char *opts = strchr(path, ':');

	if (opts)
		*opts++ = '\0';
	if (g_str_has_prefix(caller, "of_find_node_opts_by_path+")) {
		g_string_append_printf(im->out, "# path %s # %s (the alias above, resolved)\n",
				       path, shown);
		return;
	}
	if (!*path) {
		g_string_append_printf(im->out, "# path \"\" # %s (empty: no node)\n", shown);
		return;
	}
	g_string_append_printf(im->out, "%s %s # %s",
			       path[0] == '/' || strchr(path, '/') ? "path" : "alias", path, shown);
	if (opts)
		g_string_append_printf(im->out, " (options %s)", opts);
	g_string_append_c(im->out, '\n');
	im->typed++;
}

/*
 * path, alias-id or alias-highest (capture 2) with w[1] the string and w[2]
 * the caller. of_alias_get_id() (a node's alias number) and
 * of_alias_get_highest_id() scan the kernel's alias list, not the tree, and
 * have no trace kind: comments.
 */
static gboolean capture_string_line(struct importer *im, char **w)
{
	if (w[1] && !strcmp(w[1], "unreadable"))
		return why_printf(im, "the capture could not read the kernel's string (at %.20s)",
				  w[2] ? w[2] : "?");
	if (!w[1] || !w[2] || w[3])
		return why_printf(im, "truncated line: expected '%s \"STRING\" CALLER'", w[0]);
	if (!capture_string(im, w[1]) || !capture_string_is_word(im))
		return FALSE;
	if (!strcmp(w[0], "path")) {
		capture_path(im, w[2]);
	} else {
		g_autofree char *shown = tool_esc_text(w[2], -1, TOOL_ESC_UTF8);

		g_string_append_printf(im->out, "# %s(\"%s\") # %s\n",
				       !strcmp(w[0], "alias-id") ? "of_alias_get_id"
								 : "of_alias_get_highest_id",
				       im->string->str, shown);
	}
	return TRUE;
}

static gboolean capture_line(struct importer *im, char *line)
{
	g_auto(GStrv) w = NULL;

	if (im->lineno == 1) {
		im->version = !strcmp(line, CAPTURE_MAGIC) ? 2 : !strcmp(line, CAPTURE_MAGIC_V1);
		if (!im->version) {
			im->why = "not a capture log (the first line is not '" CAPTURE_MAGIC "' or '"
				  CAPTURE_MAGIC_V1 "')";
			return FALSE;
		}
		return TRUE;
	}
	if (line[0] == '#') {
		g_autofree char *shown = tool_esc_text(line, -1, TOOL_ESC_UTF8);

		g_string_append_printf(im->out, "%s\n", shown);
		return TRUE;
	}
	w = g_strsplit_set(g_strstrip(line), " \t", 0);
	if (!w[0] || !*w[0])
		return TRUE;
	if (!strcmp(w[0], "lookup"))
		return capture_lookup(im, w);
	if (!strcmp(w[0], "mark") && w[1] && !w[2])
		return capture_mark(im, w[1]);
	if (im->version >= 2 && (!strcmp(w[0], "path") || !strcmp(w[0], "alias-id") ||
				 !strcmp(w[0], "alias-highest")))
		return capture_string_line(im, w);
	im->why = im->version >= 2 ? "not a capture line (lookup, path, alias-id, alias-highest, "
				     "mark or # comment)"
				   : "not a capture line (lookup, mark or # comment)";
	return FALSE;
}

/* "task-pid [cpu] flags time: event: (location) h=0x1c" */
static gboolean kprobe_line(struct importer *im, char *line)
{
	const char *h = strstr(line, " h=");
	g_auto(GStrv) w = NULL;
	GString *comment;
	guint32 phandle;

	if (line[0] == '#' || !*g_strstrip(line))
		return TRUE;
	if (strstr(line, "LOST") && strstr(line, "EVENTS")) {
		im->why = "the trace buffer lost events: enlarge it (trace_buf_size=) and record again";
		return FALSE;
	}
	if (!h || !strstr(line, "of_find_node_by_phandle"))
		return TRUE; /* another event in the same buffer */
	w = g_strsplit_set(h + 3, " \t", 2);
	if (!parse_hex32(w[0], &phandle)) {
		im->why = "h= is not a 32-bit hex value (record it with h=%x0:x32 or h=%r0:x32)";
		return FALSE;
	}
	g_strfreev(w);
	w = g_strsplit_set(line, " \t", 0);
	comment = g_string_new(w[0]);
	for (char **f = w + 1; *f; f++) {
		gsize n = strlen(*f);

		if (n > 1 && (*f)[n - 1] == ':' && g_ascii_isdigit((*f)[0])) {
			g_string_append_printf(comment, " %.*s", (int)(n - 1), *f);
			break;
		}
	}
	if (!phandle)
		g_string_append_printf(im->out, "# 0x0 %s (phandle 0: no lookup)\n", comment->str);
	else
		put_lookup(im, phandle, comment->str);
	g_string_free(comment, TRUE);
	return TRUE;
}

static gboolean list_line(struct importer *im, char *line)
{
	char *hash = strchr(line, '#');
	g_auto(GStrv) w = NULL;

	if (hash)
		*hash = '\0';
	w = g_strsplit_set(line, " \t,", 0);
	for (char **f = w; *f; f++) {
		guint32 phandle;

		if (!**f)
			continue;
		if (!ph_parse_phandle(*f, &phandle, &im->why))
			return FALSE;
		put_lookup(im, phandle, NULL);
	}
	return TRUE;
}

static const char *const format_names[] = { "capture", "kprobe", "list" };

gint64 ph_import(enum ph_import_format format, const char *name, const char *text, gsize len,
		 GString *out, GError **error)
{
	struct importer im = { .name = name, .out = out };
	g_autoptr(GString) string = g_string_new(NULL);
	gboolean (*line_fn)(struct importer *, char *) =
		format == PH_IMPORT_CAPTURE ? capture_line :
		format == PH_IMPORT_KPROBE ? kprobe_line : list_line;
	g_autofree char *shown = tool_esc_name(name);
	g_autofree char *base = g_path_get_basename(name);
	g_autofree char *shown_base = tool_esc_text(base, -1, TOOL_ESC_UTF8);
	const char *line;
	gsize n, pos = 0;

	im.string = string;
	g_string_append_printf(out, "# Imported by fdtcache-trace --import %s from %s\n",
			       format_names[format], shown_base);
	if (format == PH_IMPORT_KPROBE)
		g_string_append(out, "# (a kprobe is armed after of_core_init(): every lookup here "
				     "comes after it)\n");
	while (ph_next_line(text, len, &pos, &line, &n)) {
		g_autofree char *copy = g_strndup(line, n);

		im.lineno++;
		if (strlen(copy) != n)
			im.why = "NUL byte in line";
		if (n && copy[n - 1] == '\r')
			copy[n - 1] = '\0';
		if (im.why || !line_fn(&im, copy)) {
			g_set_error(error, PH_ERROR, PH_ERROR_PARSE, "%s:%u: %s", shown, im.lineno,
				    im.why);
			return -1;
		}
	}
	if (im.version >= 2 && text[len - 1] != '\n') {
		g_set_error(error, PH_ERROR, PH_ERROR_PARSE,
			    "%s:%u: truncated: the last line has no newline", shown, im.lineno);
		return -1;
	}
	if (format == PH_IMPORT_CAPTURE && !im.lineno) {
		g_set_error(error, PH_ERROR, PH_ERROR_PARSE, "%s:1: empty file, not a capture log",
			    shown);
		return -1;
	}
	if (!im.lookups && !im.typed) {
		g_set_error(error, PH_ERROR, PH_ERROR_EMPTY, "%s:%u: no lookup found (%s format)",
			    shown, MAX(im.lineno, 1), format_names[format]);
		return -1;
	}
	return im.lookups;
}
