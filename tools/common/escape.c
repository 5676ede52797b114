/* SPDX-License-Identifier: BSD-2-Clause */
/* Output escaping shared by the tools (see escape.h). */
#include "escape.h"

#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

static void append_hex_byte(GString *out, guchar c)
{
	g_string_append_c(out, '\\');
	g_string_append_c(out, 'x');
	g_string_append_c(out, hex_digits[c >> 4]);
	g_string_append_c(out, hex_digits[c & 0xf]);
}

/* A character that shows as itself and moves the cursor as text does. */
static gboolean unichar_shows(gunichar c)
{
	GUnicodeType t = g_unichar_type(c);

	return g_unichar_isprint(c) && t != G_UNICODE_LINE_SEPARATOR &&
	       t != G_UNICODE_PARAGRAPH_SEPARATOR && t != G_UNICODE_PRIVATE_USE;
}

/* Length of the printable UTF-8 character at p (of at most n bytes), or 0. */
static gsize utf8_char_len(const guchar *p, gsize n)
{
	gunichar c = g_utf8_get_char_validated((const gchar *)p, (gssize)n);
	gsize len;

	if (c == (gunichar)-1 || c == (gunichar)-2 || c < 0x80 || !unichar_shows(c))
		return 0;
	len = (gsize)g_unichar_to_utf8(c, NULL);
	return len <= n ? len : 0;
}

void tool_esc_append(GString *out, const void *p, gsize n, unsigned int flags)
{
	const guchar *b = p;
	gsize i = 0, k;

	while (i < n) {
		guchar c = b[i];

		if (c == '\\' || (c == '"' && (flags & TOOL_ESC_QUOTE))) {
			g_string_append_c(out, '\\');
			g_string_append_c(out, (gchar)c);
		} else if (c == ',' && (flags & TOOL_ESC_COMMA)) {
			append_hex_byte(out, c);
		} else if (c >= 0x20 && c <= 0x7e) {
			g_string_append_c(out, (gchar)c);
		} else if (c >= 0x80 && (flags & TOOL_ESC_UTF8) && (k = utf8_char_len(b + i, n - i))) {
			g_string_append_len(out, (const gchar *)b + i, (gssize)k);
			i += k;
			continue;
		} else {
			append_hex_byte(out, c);
		}
		i++;
	}
}

static gsize length_of(const void *p, gssize n)
{
	return n < 0 ? strlen(p) : (gsize)n;
}

char *tool_esc_text(const void *p, gssize n, unsigned int flags)
{
	gsize len = length_of(p, n);
	GString *out = g_string_sized_new(len + 1);

	tool_esc_append(out, p, len, flags);
	return g_string_free(out, FALSE);
}

char *tool_esc_name(const char *s)
{
	return tool_esc_text(s, -1, TOOL_ESC_UTF8);
}

char *tool_esc_utf8(const void *p, gssize n)
{
	gsize len = length_of(p, n);
	const char *nul = memchr(p, '\0', len);

	if (nul)
		len = (gsize)(nul - (const char *)p);
	return g_utf8_make_valid(p, (gssize)len);
}

char *tool_esc_xml(const void *p, gssize n)
{
	char *text = tool_esc_text(p, n, TOOL_ESC_UTF8);
	char *xml = g_markup_escape_text(text, -1);

	g_free(text);
	return xml;
}
