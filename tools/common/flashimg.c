/* SPDX-License-Identifier: BSD-2-Clause */
/* Flash image formats: raw, Intel HEX, S-records, ELF (see flashimg.h). */
#include "flashimg.h"

#include <string.h>

#define TEXT_SNIFF 4096u /* bytes looked at to tell text from binary */
#define TEXT_MIN 6u      /* bytes of a text file, newline included */

struct run {
	uint64_t addr;
	gsize off; /* in the data bytes */
	gsize len;
};

/* Data records in file order, contiguous ones merged. */
struct records {
	GArray *runs;
	GByteArray *data;
	unsigned int count;
};

static const char *const names[] = { "auto", "raw", "ihex", "srec", "elf" };
static const char *const titles[] = { "auto", "raw", "Intel HEX", "S-record", "ELF" };

const char *tool_image_format_name(enum tool_image_format f)
{
	return names[f];
}

const char *tool_image_format_title(enum tool_image_format f)
{
	return titles[f];
}

int tool_image_format_parse(const char *s)
{
	int i;

	for (i = 0; i < (int)G_N_ELEMENTS(names); i++)
		if (!strcmp(s, names[i]))
			return i;
	if (!strcmp(s, "hex"))
		return TOOL_IMAGE_IHEX;
	return -1;
}

static gboolean is_text(const uint8_t *p, gsize n)
{
	gsize i;

	for (i = 0; i < MIN(n, TEXT_SNIFF); i++)
		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\r' && p[i] != '\t') || p[i] >= 0x7f)
			return FALSE;
	return n > 0;
}

/* The first bytes that are not blank or a comment line of a DTS. */
static const uint8_t *skip_blank(const uint8_t *p, const uint8_t *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

const char *tool_image_mistake(const uint8_t *p, gsize n)
{
	const uint8_t *end = p + n, *t;

	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return "a gzip file (gunzip it first)";
	if (n >= 4 && p[0] == 0xd0 && p[1] == 0x0d && p[2] == 0xfe && p[3] == 0xed)
		return "a devicetree blob (DTB): give it with --dtb, and the dump as IMAGE";
	if (!is_text(p, n))
		return NULL;
	t = skip_blank(p, end);
	while (t + 1 < end && ((t[0] == '/' && t[1] == '/') || (t[0] == '/' && t[1] == '*'))) {
		const uint8_t *nl = memchr(t, t[1] == '/' ? '\n' : '/', (gsize)(end - t - 2));

		t = nl ? skip_blank(nl + 1, end) : end;
	}
	if ((gsize)(end - t) >= 8 && (!memcmp(t, "/dts-v1/", 8) || !memcmp(t, "/ {", 3)))
		return "a devicetree source (DTS): give it with --dts, and the dump as IMAGE";
	/* lines of text; a few printable bytes alone may be a tiny dump */
	if (n >= TEXT_MIN && memchr(p, '\n', MIN(n, TEXT_SNIFF)))
		return "a text file, not a flash dump (nor Intel HEX or S-records)";
	return NULL;
}

static int hexval(uint8_t c)
{
	unsigned int d = (unsigned int)c - '0';

	if (d < 10)
		return (int)d;
	d = (unsigned int)(c | 0x20) - 'a';
	return d < 6 ? (int)d + 10 : -1;
}

/* n bytes from 2n hex digits at p; FALSE on a non-digit. */
static gboolean hex_bytes(const uint8_t *p, uint8_t *out, gsize n)
{
	gsize i;

	for (i = 0; i < n; i++) {
		int h = hexval(p[2 * i]), l = hexval(p[2 * i + 1]);

		if ((h | l) < 0)
			return FALSE;
		out[i] = (uint8_t)(h << 4 | l);
	}
	return TRUE;
}

static void add_data(struct records *r, uint64_t addr, const uint8_t *p, gsize n)
{
	struct run *last = r->runs->len ? &g_array_index(r->runs, struct run, r->runs->len - 1)
					 : NULL;

	r->count++;
	if (n == 0)
		return;
	if (last && last->addr + last->len == addr) {
		last->len += n;
	} else {
		struct run nr = { addr, r->data->len, n };

		g_array_append_val(r->runs, nr);
	}
	g_byte_array_append(r->data, p, (guint)n);
}

G_GNUC_PRINTF(4, 5)
static gboolean bad(GError **error, const struct tool_input *in, unsigned long line,
		    const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_OPEN, "%s:%lu: %s", in->name, line, msg);
	g_free(msg);
	return FALSE;
}

/* One text line of records: [p, nl). Returns the line's length without \r. */
static gsize line_len(const uint8_t *p, const uint8_t *nl)
{
	gsize n = (gsize)(nl - p);

	while (n && (p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	return n;
}

static gboolean ihex_line(const struct tool_input *in, unsigned long ln, const uint8_t *p, gsize n,
			  uint64_t *base, gboolean *end, struct records *r, GError **error)
{
	uint8_t b[5 + 255];
	unsigned int count, sum = 0, i;

	if (n < 11 || p[0] != ':' || !hex_bytes(p + 1, b, 1))
		return bad(error, in, ln, "not an Intel HEX record");
	count = b[0];
	if (n != 11 + 2 * count || !hex_bytes(p + 1, b, 5 + count))
		return bad(error, in, ln, "Intel HEX record of %u data bytes has %zu characters",
			   count, n);
	for (i = 0; i < 5 + count; i++)
		sum += b[i];
	if (sum & 0xff)
		return bad(error, in, ln, "Intel HEX checksum mismatch");
	switch (b[3]) {
	case 0x00:
		add_data(r, *base + ((unsigned int)b[1] << 8 | b[2]), b + 4, count);
		return TRUE;
	case 0x01:
		*end = TRUE;
		return TRUE;
	case 0x02:
	case 0x04:
		if (count != 2)
			return bad(error, in, ln, "extended address record with %u bytes", count);
		*base = (uint64_t)((unsigned int)b[4] << 8 | b[5]) << (b[3] == 0x02 ? 4 : 16);
		return TRUE;
	case 0x03:
	case 0x05:
		return TRUE; /* start address: not flash contents */
	}
	return bad(error, in, ln, "unknown Intel HEX record type %02x", b[3]);
}

static gboolean srec_line(const struct tool_input *in, unsigned long ln, const uint8_t *p, gsize n,
			  struct records *r, GError **error)
{
	static const uint8_t addr_bytes[10] = { 2, 2, 3, 4, 0, 2, 3, 4, 3, 2 };
	uint8_t b[256];
	unsigned int count, sum = 0, i, k, type;
	uint64_t addr = 0;

	if (n < 4 || p[0] != 'S' || p[1] < '0' || p[1] > '9' || !hex_bytes(p + 2, b, 1))
		return bad(error, in, ln, "not an S-record");
	type = (unsigned int)(p[1] - '0');
	count = b[0];
	k = addr_bytes[type];
	if (n != 4 + 2 * count || count < k + 1 || !hex_bytes(p + 2, b, 1 + count))
		return bad(error, in, ln, "S%u record of count %u has %zu characters", type, count, n);
	for (i = 0; i <= count; i++)
		sum += b[i];
	if ((sum & 0xff) != 0xff)
		return bad(error, in, ln, "S-record checksum mismatch");
	if (type < 1 || type > 3)
		return TRUE; /* header, count, start address */
	for (i = 0; i < k; i++)
		addr = addr << 8 | b[1 + i];
	add_data(r, addr, b + 1 + k, count - k - 1);
	return TRUE;
}

/* Every line of a text format: blank lines are skipped. */
static gboolean text_records(const struct tool_input *in, enum tool_image_format f,
			     struct records *r, GError **error)
{
	const uint8_t *p = in->data, *end = in->data + in->len;
	unsigned long ln = 0;
	uint64_t base = 0;
	gboolean done = FALSE;

	while (p < end && !done) {
		const uint8_t *nl = memchr(p, '\n', (gsize)(end - p));
		const uint8_t *e = nl ? nl : end;
		gsize n = line_len(p, e);

		ln++;
		if (n && f == TOOL_IMAGE_IHEX && !ihex_line(in, ln, p, n, &base, &done, r, error))
			return FALSE;
		if (n && f == TOOL_IMAGE_SREC && !srec_line(in, ln, p, n, r, error))
			return FALSE;
		p = nl ? nl + 1 : end;
	}
	if (f == TOOL_IMAGE_IHEX && !done)
		return bad(error, in, ln, "no end-of-file record (truncated Intel HEX?)");
	return TRUE;
}

static uint64_t elf_get(const uint8_t *p, unsigned int n, gboolean be)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

static gboolean elf_records(const struct tool_input *in, struct records *r, GError **error)
{
	const uint8_t *d = in->data;
	gboolean is64, be;
	uint64_t phoff, phentsize, phnum, i;

	if (in->len < 52 || (d[4] != 1 && d[4] != 2) || (d[5] != 1 && d[5] != 2))
		return bad(error, in, 0, "not a valid ELF header");
	is64 = d[4] == 2;
	be = d[5] == 2;
	phoff = elf_get(d + (is64 ? 32 : 28), is64 ? 8 : 4, be);
	phentsize = elf_get(d + (is64 ? 54 : 42), 2, be);
	phnum = elf_get(d + (is64 ? 56 : 44), 2, be);
	if (phentsize < (is64 ? 56u : 32u) || phoff > in->len || phnum * phentsize > in->len - phoff)
		return bad(error, in, 0, "ELF program headers outside the file");
	for (i = 0; i < phnum; i++) {
		const uint8_t *ph = d + phoff + i * phentsize;
		uint64_t off, paddr, filesz;

		if (elf_get(ph, 4, be) != 1) /* PT_LOAD */
			continue;
		off = elf_get(ph + (is64 ? 8 : 4), is64 ? 8 : 4, be);
		paddr = elf_get(ph + (is64 ? 24 : 12), is64 ? 8 : 4, be);
		filesz = elf_get(ph + (is64 ? 32 : 16), is64 ? 8 : 4, be);
		if (off > in->len || filesz > in->len - off)
			return bad(error, in, 0,
				   "PT_LOAD segment %" G_GUINT64_FORMAT " (offset 0x%" G_GINT64_MODIFIER
				   "x, %" G_GUINT64_FORMAT " bytes) outside the file",
				   i, off, filesz);
		add_data(r, paddr, d + off, (gsize)filesz);
	}
	return TRUE;
}

static int by_addr(gconstpointer a, gconstpointer b)
{
	const struct run *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The cluster of runs [first, last] holding the most bytes, clusters split at big gaps. */
static void best_cluster(GArray *runs, guint *first, guint *last, GString *note)
{
	guint i, start = 0, best_first = 0, best_last = 0;
	gsize bytes = 0, best = 0;

	for (i = 0; i <= runs->len; i++) {
		const struct run *r = i < runs->len ? &g_array_index(runs, struct run, i) : NULL;
		const struct run *prev = i ? &g_array_index(runs, struct run, i - 1) : NULL;

		if (i == runs->len || (prev && r->addr > prev->addr + prev->len + TOOL_IMAGE_MAX_GAP)) {
			if (bytes > best) {
				best = bytes;
				best_first = start;
				best_last = i - 1;
			}
			start = i;
			bytes = 0;
		}
		if (r)
			bytes += r->len;
	}
	*first = best_first;
	*last = best_last;
	for (i = 0; i < runs->len; i++) {
		const struct run *r = &g_array_index(runs, struct run, i);

		if (i < best_first || i > best_last)
			g_string_append_printf(note, "%s0x%" G_GINT64_MODIFIER "x..0x%" G_GINT64_MODIFIER
					       "x (%" G_GSIZE_FORMAT " bytes)",
					       note->len ? ", " : "", r->addr, r->addr + r->len, r->len);
	}
}

static void build_span(struct records *r, uint8_t fill, struct tool_image *img)
{
	GString *note = g_string_new(NULL);
	guint first, last, i;
	uint64_t lo, hi = 0;

	g_array_sort(r->runs, by_addr); /* stable enough: later records win below */
	best_cluster(r->runs, &first, &last, note);
	lo = g_array_index(r->runs, struct run, first).addr;
	for (i = first; i <= last; i++) {
		const struct run *x = &g_array_index(r->runs, struct run, i);

		hi = MAX(hi, x->addr + x->len);
	}
	img->base = lo;
	img->len = (gsize)(hi - lo);
	img->mem = g_malloc(img->len);
	memset(img->mem, fill, img->len);
	for (i = first; i <= last; i++) {
		const struct run *x = &g_array_index(r->runs, struct run, i);

		memcpy(img->mem + (x->addr - lo), r->data->data + x->off, x->len);
		img->given += x->len;
	}
	img->bytes = img->mem;
	img->note = note->len ? g_string_free(note, FALSE) : (g_string_free(note, TRUE), NULL);
}

static enum tool_image_format sniff(const uint8_t *p, gsize n)
{
	const uint8_t *t = skip_blank(p, p + n);
	gsize left = (gsize)(p + n - t);

	if (n >= 4 && !memcmp(p, "\177ELF", 4))
		return TOOL_IMAGE_ELF;
	if (left >= 11 && t[0] == ':' && hexval(t[1]) >= 0 && hexval(t[2]) >= 0 && is_text(p, n))
		return TOOL_IMAGE_IHEX;
	if (left >= 4 && t[0] == 'S' && t[1] >= '0' && t[1] <= '9' && hexval(t[2]) >= 0 &&
	    is_text(p, n))
		return TOOL_IMAGE_SREC;
	return TOOL_IMAGE_RAW;
}

gboolean tool_image_decode(const struct tool_input *in, enum tool_image_format f, uint8_t fill,
			   struct tool_image *img, GError **error)
{
	struct records r;
	const char *mistake;
	gboolean ok;

	memset(img, 0, sizeof(*img));
	if (f == TOOL_IMAGE_AUTO) {
		f = sniff(in->data, in->len);
		mistake = f == TOOL_IMAGE_RAW ? tool_image_mistake(in->data, in->len) : NULL;
		if (mistake) {
			g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_KIND,
				    "%s: is %s (or give --input-format raw)", in->name, mistake);
			return FALSE;
		}
	}
	img->format = f;
	if (f == TOOL_IMAGE_RAW) {
		img->bytes = in->data;
		img->len = img->given = in->len;
		return TRUE;
	}
	r.runs = g_array_new(FALSE, FALSE, sizeof(struct run));
	r.data = g_byte_array_new();
	r.count = 0;
	ok = f == TOOL_IMAGE_ELF ? elf_records(in, &r, error) : text_records(in, f, &r, error);
	if (ok && r.data->len == 0) {
		g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_OPEN,
			    "%s: %s file holds no data", in->name, titles[f]);
		ok = FALSE;
	}
	if (ok) {
		img->records = r.count;
		build_span(&r, fill, img);
	}
	g_array_free(r.runs, TRUE);
	g_byte_array_free(r.data, TRUE);
	return ok;
}

void tool_image_free(struct tool_image *img)
{
	g_free(img->mem);
	g_free(img->note);
	memset(img, 0, sizeof(*img));
}
