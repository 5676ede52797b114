/* SPDX-License-Identifier: BSD-2-Clause */
#include "trace.h"

#include <libfdt.h>
#include <string.h>

G_DEFINE_QUARK(fc-trace-error-quark, fc_trace_error)

#define CORE_INIT_MARK "@core_init"

void fc_trace_init(struct fc_trace *trace)
{
	trace->phandles = g_array_new(FALSE, FALSE, sizeof(guint32));
	trace->core_init_at = 0;
}

void fc_trace_clear(struct fc_trace *trace)
{
	if (trace->phandles)
		g_array_free(trace->phandles, TRUE);
	trace->phandles = NULL;
	trace->core_init_at = 0;
}

/* A phandle in hex (0x...) or decimal; FALSE with a reason otherwise. */
static gboolean parse_phandle(const char *word, guint32 *phandle, const char **why)
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
	if (value == 0 || value >= G_MAXUINT32) {
		*why = "phandle out of range (1..0xfffffffe)";
		return FALSE;
	}
	*phandle = (guint32)value;
	return TRUE;
}

/* One line without its newline; FALSE with a reason for a bad line. */
static gboolean parse_line(struct fc_trace *trace, char *line, gboolean *seen_core_init,
			   const char **why)
{
	char *hash = strchr(line, '#');
	guint32 phandle;

	if (hash)
		*hash = '\0';
	g_strstrip(line);
	if (!*line)
		return TRUE;
	if (!strcmp(line, CORE_INIT_MARK)) {
		if (*seen_core_init) {
			*why = "second " CORE_INIT_MARK;
			return FALSE;
		}
		*seen_core_init = TRUE;
		trace->core_init_at = trace->phandles->len;
		return TRUE;
	}
	if (!parse_phandle(line, &phandle, why))
		return FALSE;
	g_array_append_val(trace->phandles, phandle);
	return TRUE;
}

gboolean fc_trace_parse(struct fc_trace *trace, const char *name, const char *text, gsize len,
			GError **error)
{
	gboolean seen_core_init = FALSE;
	gsize pos = 0;
	guint lineno = 0;

	while (pos < len) {
		const char *start = text + pos;
		const char *nl = memchr(start, '\n', len - pos);
		gsize n = nl ? (gsize)(nl - start) : len - pos;
		char *line = g_strndup(start, n);
		const char *why = NULL;
		gboolean ok;

		lineno++;
		pos += n + 1;
		if (strlen(line) != n)
			why = "NUL byte in line";
		ok = !why && parse_line(trace, line, &seen_core_init, &why);
		g_free(line);
		if (!ok) {
			g_set_error(error, FC_TRACE_ERROR, FC_TRACE_ERROR_PARSE, "%s:%u: %s", name,
				    lineno, why);
			return FALSE;
		}
	}
	return TRUE;
}

gboolean fc_trace_load(struct fc_trace *trace, const char *path, GError **error)
{
	gchar *text = NULL;
	gsize len = 0;
	GError *read_error = NULL;
	gboolean ok;

	if (!g_file_get_contents(path, &text, &len, &read_error)) {
		g_set_error(error, FC_TRACE_ERROR, FC_TRACE_ERROR_READ, "%s", read_error->message);
		g_error_free(read_error);
		return FALSE;
	}
	ok = fc_trace_parse(trace, path, text, len, error);
	g_free(text);
	return ok;
}

void *fc_dtb_load(const char *path, gsize *len, GError **error)
{
	gchar *blob = NULL;
	GError *read_error = NULL;
	int rc;

	if (!g_file_get_contents(path, &blob, len, &read_error)) {
		g_set_error(error, FC_TRACE_ERROR, FC_TRACE_ERROR_READ, "%s", read_error->message);
		g_error_free(read_error);
		return NULL;
	}
	rc = *len > G_MAXINT ? -FDT_ERR_BADSTRUCTURE : fdt_check_full(blob, *len);
	if (rc) {
		g_set_error(error, FC_TRACE_ERROR, FC_TRACE_ERROR_DTB, "%s: not a valid DTB: %s",
			    path, fdt_strerror(rc));
		g_free(blob);
		return NULL;
	}
	return blob;
}

/* Properties that are lists of <phandle args...>, and their #cells name. */
static const struct {
	const char *name;
	const char *cells;
} phandle_args[] = {
	{ "clocks", "#clock-cells" },
	{ "resets", "#reset-cells" },
	{ "power-domains", "#power-domain-cells" },
	{ "phys", "#phy-cells" },
	{ "dmas", "#dma-cells" },
	{ "iommus", "#iommu-cells" },
	{ "pwms", "#pwm-cells" },
	{ "mboxes", "#mbox-cells" },
	{ "interconnects", "#interconnect-cells" },
	{ "thermal-sensors", "#thermal-sensor-cells" },
	{ "io-channels", "#io-channel-cells" },
	{ "interrupts-extended", "#interrupt-cells" },
};

/* Properties that are lists of phandles, or a single phandle. */
static const char *const phandle_lists[] = {
	"cpu-idle-states", "operating-points-v2", "memory-region",
};
static const char *const phandle_singles[] = {
	"interrupt-parent", "cpu", "remote-endpoint", "phy-handle",
};

enum ref_kind { REF_NONE, REF_ARGS, REF_LIST, REF_SINGLE };

static gboolean in_list(const char *name, const char *const *list, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return TRUE;
	return FALSE;
}

/* pinctrl-N: a list of pin configuration phandles (not pinctrl-names). */
static gboolean is_pinctrl_n(const char *name)
{
	const char *n = name + strlen("pinctrl-");

	if (strncmp(name, "pinctrl-", strlen("pinctrl-")) || !*n)
		return FALSE;
	for (; *n; n++)
		if (!g_ascii_isdigit(*n))
			return FALSE;
	return TRUE;
}

/* How a property refers to phandles; *cells names the args' #cells. */
static enum ref_kind classify(const char *name, const char **cells)
{
	for (gsize i = 0; i < G_N_ELEMENTS(phandle_args); i++) {
		if (!strcmp(name, phandle_args[i].name)) {
			*cells = phandle_args[i].cells;
			return REF_ARGS;
		}
	}
	if (!strcmp(name, "gpios") || g_str_has_suffix(name, "-gpios")) {
		*cells = "#gpio-cells";
		return REF_ARGS;
	}
	if (is_pinctrl_n(name) || in_list(name, phandle_lists, G_N_ELEMENTS(phandle_lists)))
		return REF_LIST;
	if (g_str_has_suffix(name, "-supply") ||
	    in_list(name, phandle_singles, G_N_ELEMENTS(phandle_singles)))
		return REF_SINGLE;
	return REF_NONE;
}

struct generator {
	struct fc_trace *trace;
	const void *fdt;
	GString *text;
	guint core_init_after;
	gboolean marked;
	char path[1024];
};

/* The @core_init line, once core_init_after lookups (or all, at the end) are written. */
static void mark_core_init(struct generator *g, gboolean end)
{
	guint len = g->trace->phandles->len;

	if (g->core_init_after && !g->marked &&
	    (end ? len <= g->core_init_after : len == g->core_init_after)) {
		g->marked = TRUE;
		g->trace->core_init_at = len;
		if (g->text)
			g_string_append(g->text, CORE_INIT_MARK "\n");
	}
}

static void emit(struct generator *g, guint32 phandle, const char *prop)
{
	mark_core_init(g, FALSE);
	g_array_append_val(g->trace->phandles, phandle);
	if (g->text)
		g_string_append_printf(g->text, "0x%x # %s %s\n", phandle, g->path, prop);
}

/* Argument cells after a phandle: the target's #cells (0 if missing). */
static guint32 arg_cells(const void *fdt, int target, const char *cells)
{
	int len;
	const fdt32_t *v = fdt_getprop(fdt, target, cells, &len);

	return v && len == sizeof(*v) ? fdt32_to_cpu(*v) : 0;
}

static void emit_property(struct generator *g, const char *name, const fdt32_t *cell, guint32 n)
{
	const char *cells = NULL;
	enum ref_kind kind = classify(name, &cells);

	if (kind == REF_SINGLE)
		n = MIN(n, 1);
	for (guint32 i = 0; kind != REF_NONE && i < n; i++) {
		guint32 phandle = fdt32_to_cpu(cell[i]);
		int target;

		if (!phandle)
			continue; /* an empty entry, no args */
		emit(g, phandle, name);
		if (kind != REF_ARGS)
			continue;
		target = fdt_node_offset_by_phandle(g->fdt, phandle);
		if (target < 0)
			break; /* unresolved: where its args end is unknown */
		i += MIN(arg_cells(g->fdt, target, cells), n - i);
	}
}

static void emit_node(struct generator *g, int node)
{
	int prop;

	if (fdt_get_path(g->fdt, node, g->path, sizeof(g->path)))
		g_strlcpy(g->path, "?", sizeof(g->path));
	fdt_for_each_property_offset(prop, g->fdt, node) {
		const char *name;
		int len;
		const fdt32_t *cell = fdt_getprop_by_offset(g->fdt, prop, &name, &len);

		if (cell && name && len >= 4)
			emit_property(g, name, cell, (guint32)len / 4);
	}
}

void fc_trace_generate(struct fc_trace *trace, const void *fdt, const char *dtb_name,
		       guint core_init_after, GString *text)
{
	struct generator g = {
		.trace = trace, .fdt = fdt, .text = text, .core_init_after = core_init_after,
	};
	int node;

	if (text)
		g_string_append_printf(text,
				       "# Synthetic boot trace of %s (fdtcache-trace): one lookup\n"
				       "# per phandle reference, in tree order; of_core_init() runs\n"
				       "# at @core_init, else before the first lookup. Comments:\n"
				       "# referring node, property.\n",
				       dtb_name);
	for (node = fdt_next_node(fdt, -1, NULL); node >= 0; node = fdt_next_node(fdt, node, NULL))
		emit_node(&g, node);
	mark_core_init(&g, TRUE);
}
