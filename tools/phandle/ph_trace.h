/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_trace.h - boot-time phandle lookup traces: the text format, its parser
 * and the header helpers shared by fdtcache-trace and fdtcache-bench.
 *
 * A trace is UTF-8 or plain bytes, one item per line (ABNF, RFC 5234):
 *
 *   trace    = *line
 *   line     = *WSP [item *WSP] [comment] eol
 *   eol      = LF / CR LF / end of file
 *   item     = lookup / marker
 *   lookup   = phandle / "phandle" 1*WSP phandle   ; one of_find_node_by_phandle()
 *            / "path" 1*WSP word                     ; fdt_path_offset(word)
 *            / "alias" 1*WSP name                    ; the node /aliases/name names
 *            / "parent" 1*WSP node                   ; fdt_parent_offset(node)
 *            / "cells" 1*WSP node 1*WSP cellsname    ; node's u32 #xxx-cells
 *            / "cells" 1*WSP node 1*WSP "reg"        ; the #address-cells and
 *                                                    ; #size-cells node's reg is read with
 *   phandle  = "0x" 1*HEXDIG / 1*DIGIT              ; 1..0xffffffff
 *   word     = 1*(%x21-22 / %x24-7E)                ; printable ASCII but "#"
 *   name     = 1*(%x21-22 / %x24-2E / %x30-7E)      ; a word without "/"
 *   node     = "/" *(%x21-22 / %x24-7E)             ; an absolute path to a node
 *   cellsname = "#" 1*(%x21-7E)                     ; "#clock-cells", "#gpio-cells"...
 *   marker   = "@core_init" / "@user"
 *   comment  = "#" *(any byte but NUL and LF)
 *   header   = "# dtb: " name " sha256 " 64HEXDIG   ; a comment line
 *
 * - A lookup of 0xffffffff is valid: Linux looks it up (an overlay's
 *   unresolved reference, a corrupt list) and it never resolves. 0 is not:
 *   Linux returns before any lookup.
 * - "@core_init" marks of_core_init(); without it, core init comes before
 *   the first lookup. "@user" marks the start of user space (after
 *   @core_init); without it, every lookup is a boot lookup. Each at most once.
 * - The comment after a lookup says where it came from: the caller
 *   (symbol+0xoffset) in captured traces, node and property in synthetic ones.
 * - The header names the DTB the trace was made for (its base name and the
 *   sha256 of its bytes); the bench warns when it is replayed on another.
 * - Typed lookups (`path /soc/serial@2020000`, `alias serial0`,
 *   `parent /soc/i2c@3000`, `cells /clocks/cru #clock-cells`) are the name
 *   lookups a bootloader makes; fdtcache-bench replays them through
 *   libcore's fc_dt_lookups and checks each answer against libfdt's. They
 *   are kept in order with the phandle lookups (struct ph_typed.at), and
 *   the markers count phandle lookups only.
 * - In a cells item the "#" of cellsname does not start a comment; a "#"
 *   after it does.
 */
#ifndef FDTCACHE_TOOLS_PH_TRACE_H
#define FDTCACHE_TOOLS_PH_TRACE_H

#include <glib.h>

#define PH_ERROR (ph_error_quark())
GQuark ph_error_quark(void);

enum ph_error_code {
	PH_ERROR_PARSE, /* a bad trace or import line: "FILE:LINE: ..." */
	PH_ERROR_DTB,   /* not a DTB, or a corrupt one: "FILE: ..." */
	PH_ERROR_READ,  /* the file cannot be read */
	PH_ERROR_EMPTY, /* a trace with no lookup */
	PH_ERROR_CHECK, /* a sanity check failed under --strict */
};

#define PH_MARK_CORE_INIT "@core_init"
#define PH_MARK_USER "@user"
#define PH_SHA256_HEX 64

/* The typed lookup kinds, in the order of libcore's FC_DT_KIND_*. */
enum ph_kind {
	PH_KIND_PATH,
	PH_KIND_ALIAS,
	PH_KIND_PARENT,
	PH_KIND_REG_CELLS, /* "cells NODE reg" */
	PH_KIND_CELLS,
	PH_KINDS
};

/* ph_kind_names - "path", "alias", "parent", "reg-cells", "cells". */
extern const char *const ph_kind_names[PH_KINDS];

struct ph_typed {
	enum ph_kind kind;
	guint at;    /* phandle lookups before it in the trace */
	guint line;  /* its file line (0: generated) */
	gchar *arg;  /* the path, alias name or node path */
	gchar *cells; /* PH_KIND_CELLS: the property name, else NULL */
};

struct ph_trace {
	GArray *phandles;     /* guint32, in lookup order */
	GArray *typed;        /* struct ph_typed, in lookup order */
	GArray *lines;        /* guint, the file line of each lookup (0: generated) */
	guint core_init_at;   /* lookups made before of_core_init() */
	guint user_at;        /* lookups made before user space (len without @user) */
	gboolean has_user;    /* an @user line was read */
	guint nlines;         /* lines read */
	gchar *dtb_name;      /* from the header, or NULL */
	gchar dtb_sha256[PH_SHA256_HEX + 1];
	guint dtb_line;       /* the header's line */
};

/* ph_trace_init - an empty trace; ph_trace_clear frees it. */
void ph_trace_init(struct ph_trace *trace);
void ph_trace_clear(struct ph_trace *trace);

/* ph_trace_add - append one lookup read at line (0: generated). */
void ph_trace_add(struct ph_trace *trace, guint32 phandle, guint line);

/*
 * ph_trace_add_typed - append one typed lookup read at line (0: generated);
 * arg and cells (NULL but for PH_KIND_CELLS) are copied.
 */
void ph_trace_add_typed(struct ph_trace *trace, enum ph_kind kind, const char *arg,
			const char *cells, guint line);

/* ph_typed_format - append item as a trace line's item (no newline). */
void ph_typed_format(GString *out, const struct ph_typed *item);

/* ph_trace_lookups - the number of phandle lookups. */
static inline guint ph_trace_lookups(const struct ph_trace *trace)
{
	return trace->phandles->len;
}

/* ph_trace_typed - the number of typed lookups. */
static inline guint ph_trace_typed(const struct ph_trace *trace)
{
	return trace->typed->len;
}

static inline const struct ph_typed *ph_trace_typed_at(const struct ph_trace *trace, guint i)
{
	return &g_array_index(trace->typed, struct ph_typed, i);
}

static inline guint32 ph_trace_at(const struct ph_trace *trace, guint i)
{
	return g_array_index(trace->phandles, guint32, i);
}

/*
 * ph_trace_parse - parse text (len bytes, not necessarily NUL-terminated)
 * into an empty trace; name is the file name used in error messages, which
 * say "NAME:LINE: why". An empty trace parses (ph_trace_require_lookups
 * makes it an error).
 */
gboolean ph_trace_parse(struct ph_trace *trace, const char *name, const char *text, gsize len,
			GError **error);

/*
 * ph_next_line - the next line of text[0..len) from *pos: *line and *n
 * (without its LF), *pos moved past it. FALSE at the end.
 */
gboolean ph_next_line(const char *text, gsize len, gsize *pos, const char **line, gsize *n);

/* ph_trace_load - read and parse the trace file at path. */
gboolean ph_trace_load(struct ph_trace *trace, const char *path, GError **error);

/* ph_trace_require_lookups - FALSE with "NAME:LINE: ..." for a trace with no lookup of any kind. */
gboolean ph_trace_require_lookups(const struct ph_trace *trace, const char *name,
				  GError **error);

/*
 * ph_parse_phandle - a phandle word (0x hex or decimal, 1..0xffffffff);
 * FALSE with a reason otherwise.
 */
gboolean ph_parse_phandle(const char *word, guint32 *phandle, const char **why);

/*
 * ph_header_dtb - append the header line "# dtb: NAME sha256 HEX\n" for
 * the DTB bytes blob[0..len) called name (its base name is used).
 */
void ph_header_dtb(GString *out, const char *name, const void *blob, gsize len);

/* ph_sha256_hex - the sha256 of blob[0..len) in lower-case hex; g_free it. */
gchar *ph_sha256_hex(const void *blob, gsize len);

#endif /* FDTCACHE_TOOLS_PH_TRACE_H */
