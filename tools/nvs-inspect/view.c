/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * view.c - what the table and JSON views share: names, hex, the bytes an
 * ATE points at, orders and the history of an id.
 */
#include "inspect.h"

#include <string.h>

#include "common/escape.h"
#include "zms_inspect.h"

int view_count(const struct options *o)
{
	return o->summary + o->live + o->ates + (o->history != NULL) + o->settings + o->check +
	       o->salvage;
}

/* The name of v in a table of names by value ("?" for a value it lacks). */
const char *name_of(const char *const *names, size_t n, unsigned v)
{
	return v < n && names[v] ? names[v] : "?";
}

const char *sector_state_name(enum fc_nvs_sector_state s)
{
	static const char *const names[] = {
		[FC_NVS_SECTOR_ERASED] = "erased", [FC_NVS_SECTOR_OPEN] = "open",
		[FC_NVS_SECTOR_CLOSED] = "closed", [FC_NVS_SECTOR_CORRUPT] = "corrupt",
	};

	return name_of(names, G_N_ELEMENTS(names), s);
}

const char *ate_status_name(enum fc_nvs_ate_status s)
{
	static const char *const names[] = {
		[FC_NVS_ATE_LIVE] = "live", [FC_NVS_ATE_STALE] = "stale",
		[FC_NVS_ATE_DELETED] = "deleted", [FC_NVS_ATE_CRC_BAD] = "crc-bad",
		[FC_NVS_ATE_OUT_OF_BOUNDS] = "out-of-bounds", [FC_NVS_ATE_TORN] = "torn",
		[FC_NVS_ATE_CLOSE] = "close", [FC_NVS_ATE_GC_DONE] = "gc_done",
	};

	return name_of(names, G_N_ELEMENTS(names), s);
}

char *hex_of(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *s = g_malloc(n * 2 + 1);
	size_t i;

	/* by hand: a printf per byte was the cost of --live on big images */
	for (i = 0; i < n; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 0xf];
	}
	s[2 * n] = '\0';
	return s;
}

char *bytes_hex(GBytes *b)
{
	gsize n;
	const uint8_t *p = g_bytes_get_data(b, &n);

	return hex_of(p, n);
}

/*
 * The bytes an ATE points at, in the dump (no copy): *n of them, NULL when
 * it points nowhere sensible. The fields of an ATE whose crc8 fails
 * (crc-bad, torn) are unverified: of its data at most UNVERIFIED_PREVIEW
 * bytes are given, so a dump of garbage ATEs that each claim most of a
 * sector costs what its ATEs cost, not ATEs x sector size.
 */
const uint8_t *ate_bytes(const struct inspect *in, const struct fc_nvs_ate_info *a, size_t *n)
{
	*n = 0;
	if (a->len == 0 || a->status == FC_NVS_ATE_CLOSE || a->status == FC_NVS_ATE_GC_DONE ||
	    (uint32_t)a->offset + a->len > in->geo.geo.sector_size)
		return NULL;
	*n = a->len;
	if (a->status == FC_NVS_ATE_CRC_BAD || a->status == FC_NVS_ATE_TORN)
		*n = MIN(*n, UNVERIFIED_PREVIEW);
	return sector_bytes(in, addr_sector(a->addr)) + a->offset;
}

char *addr_text(uint32_t addr)
{
	return g_strdup_printf("%u:0x%04x", addr_sector(addr), addr_offset(addr));
}

/* An address as S:0xOFF in the partition's format. */
char *place_text(const struct inspect *in, uint32_t addr)
{
	return in->zms ? zms_addr_text(in->zms, addr) : addr_text(addr);
}

/* An id as the format prints it: 0x%04x (NVS), 0x%08x or 16 digits (ZMS). */
char *id_text(const struct inspect *in, uint64_t id)
{
	return in->zms ? zms_id_text(in->zms, id) : g_strdup_printf("0x%04x", (unsigned)id);
}

/* An id's read back: rc from fc_nvs_read or fc_zms_read into buf (size bytes). */
void add_live(struct inspect *in, uint64_t id, int rc, const uint8_t *buf, uint32_t size)
{
	struct live_entry e = { id, rc, NULL };
	char *text;

	if (rc == FC_ENOENT)
		return;
	if (rc >= 0) {
		e.value = g_bytes_new(buf, MIN((uint32_t)rc, size));
	} else {
		text = id_text(in, id);
		verdict(in, SEV_ERROR, "read-fails", -1, -1, "id %s: a read fails: %s", text,
			fc_strerror(rc));
		g_free(text);
	}
	g_array_append_val(in->live, e);
}

/* A setting as read back: its name copied (and NUL-ended), its value too. */
static struct setting setting_new(const char *name, size_t name_len, uint32_t name_id,
				  const void *value, size_t value_len)
{
	struct setting s = { g_malloc(name_len + 1), name_len, name_id,
			     g_bytes_new(value, value_len) };

	memcpy(s.name, name, name_len);
	s.name[name_len] = '\0';
	return s;
}

/* A setting read back, appended to in->settings (a scan's callback result: 0). */
int add_setting(struct inspect *in, const char *name, size_t name_len, uint32_t name_id,
		const void *value, size_t value_len)
{
	struct setting s = setting_new(name, name_len, name_id, value, value_len);

	g_array_append_val(in->settings, s);
	return 0;
}

/* Empty the live entries and settings, freeing their values. */
void free_read_back(struct inspect *in)
{
	guint i;

	for (i = 0; i < in->live->len; i++)
		if (g_array_index(in->live, struct live_entry, i).value)
			g_bytes_unref(g_array_index(in->live, struct live_entry, i).value);
	for (i = 0; i < in->settings->len; i++) {
		g_free(g_array_index(in->settings, struct setting, i).name);
		g_bytes_unref(g_array_index(in->settings, struct setting, i).value);
	}
	g_array_set_size(in->live, 0);
	g_array_set_size(in->settings, 0);
}

/* Text: printable ASCII, perhaps ended by one NUL (a C string saved with it). */
bool printable(GBytes *b)
{
	gsize n, i;
	const uint8_t *p = g_bytes_get_data(b, &n);

	if (n > 1 && p[n - 1] == 0)
		n--;
	for (i = 0; i < n; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			return false;
	return n > 0;
}

char *value_text(GBytes *b)
{
	gsize n;
	const char *p = g_bytes_get_data(b, &n);

	if (printable(b)) {
		char *t = tool_esc_text(p, (gssize)n, TOOL_ESC_QUOTE), *q = g_strdup_printf("\"%s\"", t);

		g_free(t);
		return q;
	}
	return bytes_hex(b);
}

int ate_by_flash_order(gconstpointer pa, gconstpointer pb)
{
	const struct ate_rec *a = pa, *b = pb;

	if (addr_sector(a->info.addr) != addr_sector(b->info.addr))
		return addr_sector(a->info.addr) < addr_sector(b->info.addr) ? -1 : 1;
	return addr_offset(a->info.addr) > addr_offset(b->info.addr) ? -1
	       : addr_offset(a->info.addr) < addr_offset(b->info.addr);
}

/* Settings by name: bytes compared, a NUL among them too; a prefix first. */
int setting_by_name(gconstpointer pa, gconstpointer pb)
{
	const struct setting *a = pa, *b = pb;
	int c = memcmp(a->name, b->name, MIN(a->name_len, b->name_len));

	return c ? c : (a->name_len > b->name_len) - (a->name_len < b->name_len);
}

/* A setting's name as text: every byte, a NUL as \x00, escaped. */
char *setting_name_text(const struct setting *s)
{
	return tool_esc_text(s->name, (gssize)s->name_len, 0);
}

/*
 * A setting's name as valid UTF-8 for JSON: a NUL byte becomes U+FFFD as an
 * invalid byte does, so a damaged name never reads as a shorter one.
 */
char *setting_name_utf8(const struct setting *s)
{
	char *bytes = g_memdup2(s->name, s->name_len + 1), *v;
	size_t i;

	for (i = 0; i < s->name_len; i++)
		if (!bytes[i])
			bytes[i] = (char)0xff;
	v = tool_esc_utf8(bytes, (gssize)s->name_len);
	g_free(bytes);
	return v;
}

static int newest_first(gconstpointer pa, gconstpointer pb, gpointer ctx)
{
	const struct inspect *in = ctx;
	const struct ate_rec *a = *(const struct ate_rec *const *)pa;
	const struct ate_rec *b = *(const struct ate_rec *const *)pb;
	uint16_t age_a = g_array_index(in->sectors, struct fc_nvs_sector_info,
				       addr_sector(a->info.addr)).age;
	uint16_t age_b = g_array_index(in->sectors, struct fc_nvs_sector_info,
				       addr_sector(b->info.addr)).age;

	if (age_a != age_b)
		return age_a > age_b ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Every stored value of id (records and deletes), newest first. */
GPtrArray *history_of(struct inspect *in, uint16_t id)
{
	GPtrArray *h = g_ptr_array_new();
	guint i;

	for (i = 0; i < in->ates->len; i++) {
		struct ate_rec *r = &g_array_index(in->ates, struct ate_rec, i);

		if (r->info.id == id && (is_record(&r->info) || r->info.status == FC_NVS_ATE_DELETED))
			g_ptr_array_add(h, r);
	}
	g_ptr_array_sort_with_data(h, newest_first, in);
	return h;
}
