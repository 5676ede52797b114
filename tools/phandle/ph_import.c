/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_import.h"

#include <string.h>

#include "common/escape.h"
#include "ph_trace.h"

#define CAPTURE_MAGIC "# fdtcache-capture 1"

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
	gint64 lookups;
	gboolean core_init, user;
	const char *why; /* set on a bad line */
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

static gboolean capture_line(struct importer *im, char *line)
{
	g_auto(GStrv) w = NULL;

	if (im->lineno == 1) {
		if (strcmp(line, CAPTURE_MAGIC)) {
			im->why = "not a capture log (the first line is not '" CAPTURE_MAGIC "')";
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
	im->why = "not a capture line (lookup, mark or # comment)";
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
	gboolean (*line_fn)(struct importer *, char *) =
		format == PH_IMPORT_CAPTURE ? capture_line :
		format == PH_IMPORT_KPROBE ? kprobe_line : list_line;
	g_autofree char *shown = tool_esc_name(name);
	g_autofree char *base = g_path_get_basename(name);
	g_autofree char *shown_base = tool_esc_text(base, -1, TOOL_ESC_UTF8);
	const char *line;
	gsize n, pos = 0;

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
	if (format == PH_IMPORT_CAPTURE && !im.lineno) {
		g_set_error(error, PH_ERROR, PH_ERROR_PARSE, "%s:1: empty file, not a capture log",
			    shown);
		return -1;
	}
	if (!im.lookups) {
		g_set_error(error, PH_ERROR, PH_ERROR_EMPTY, "%s:%u: no lookup found (%s format)",
			    shown, MAX(im.lineno, 1), format_names[format]);
		return -1;
	}
	return im.lookups;
}
