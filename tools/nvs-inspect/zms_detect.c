/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_detect.c - is the partition ZMS, and with which geometry. A ZMS
 * sector that was ever used ends with its header, an empty ATE carrying a
 * magic, the cycle counter and the id width (NVS has nothing like it;
 * libcore's fc_zms_header_decode tells one at any slot). Their places give
 * the sector size (the gcd of the sector ends, or a fraction of it when
 * every sector with data then has its header), the ATE slot (16, or 32
 * with 32-byte write blocks, its padding erased); the walk then gives the
 * value layout, whose spacing tells the write block and whose CRC-32s tell
 * the data CRC build.
 */
#include "zms_inspect.h"

#include <stdio.h>
#include <string.h>


#define HDR_BYTES FC_ZMS_ATE_BYTES
#define MAX_SPLIT 8u /* sector sizes tried: the gcd of the sector ends over 1..8 */

struct hdr {
	uint32_t pos;   /* in the partition */
	uint8_t cycle;
	uint8_t format; /* 0: 32-bit ids, 1: 64-bit ids */
};

bool zms_slot_erased(const uint8_t *p, size_t n, uint8_t ev)
{
	return nvs_erased(p, n, ev);
}

/* A sector header of the version libcore reads, decoded by libcore. */
static bool empty_ate_at(const uint8_t *p, struct hdr *h)
{
	struct fc_zms_header zh;

	if (fc_zms_header_decode(p, &zh) != 0)
		return false;
	h->cycle = zh.cycle;
	h->format = zh.format;
	return true;
}

static GArray *find_headers(const uint8_t *p, size_t len)
{
	GArray *hs = g_array_new(FALSE, FALSE, sizeof(struct hdr));
	size_t pos;

	for (pos = 0; pos + HDR_BYTES <= len; pos += HDR_BYTES) {
		struct hdr h;

		if (empty_ate_at(p + pos, &h)) {
			h.pos = (uint32_t)pos;
			g_array_append_val(hs, h);
		}
	}
	return hs;
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A candidate layout and how well the headers fit it. */
struct layout {
	uint32_t ss, as, n;
	uint32_t headers;    /* sectors ending with an empty ATE */
	uint32_t violations; /* sectors with data but no empty ATE */
	bool whole;          /* the partition is a whole number of sectors */
};

static void score(const uint8_t *p, size_t len, uint32_t n_given, uint8_t ev, struct layout *l)
{
	struct hdr h;
	uint32_t s;

	l->n = n_given ? n_given : (uint32_t)(len / l->ss);
	l->whole = len % l->ss == 0;
	l->headers = l->violations = 0;
	for (s = 0; s < l->n && (size_t)(s + 1) * l->ss <= len; s++) {
		const uint8_t *sec = p + (size_t)s * l->ss;

		if (empty_ate_at(sec + l->ss - l->as, &h))
			l->headers++;
		else if (!nvs_erased(sec, l->ss, ev))
			l->violations++;
	}
}

static bool better(const struct layout *a, const struct layout *b)
{
	if (!b->ss)
		return true;
	if (a->violations != b->violations)
		return a->violations < b->violations;
	if (a->whole != b->whole)
		return a->whole;
	if (a->ss != b->ss)
		return a->ss > b->ss;
	return a->as < b->as;
}

/* A header whose 16 bytes of padding (a 32-byte slot) are erased. */
static bool hdr_padded(const uint8_t *p, size_t len, uint32_t pos, uint8_t ev)
{
	return pos + 32 <= len && nvs_erased(p + pos + HDR_BYTES, 16, ev);
}

static bool padded(const uint8_t *p, size_t len, const GArray *hs, uint8_t ev)
{
	guint i;

	for (i = 0; i < hs->len; i++)
		if (!hdr_padded(p, len, g_array_index(hs, struct hdr, i).pos, ev))
			return false;
	return true;
}

static struct layout choose_layout(struct inspect *in, const uint8_t *p, size_t len,
				   const GArray *hs, uint8_t ev)
{
	struct layout best = { 0 }, l;
	uint32_t wb = in->opt.write_block, as, m;

	for (as = 16; as <= 32; as += 16) {
		uint32_t g = 0;
		guint i;

		if ((wb && (wb > 16) != (as == 32)) || (as == 32 && !padded(p, len, hs, ev)))
			continue;
		for (i = 0; i < hs->len; i++)
			g = gcd(g, g_array_index(hs, struct hdr, i).pos + as);
		for (m = 1; m <= MAX_SPLIT; m++) {
			l = (struct layout){ .ss = in->opt.sector_size ? in->opt.sector_size : g / m,
					     .as = as };
			if (!in->opt.sector_size && (g % m || l.ss % as))
				continue;
			if (l.ss < FC_ZMS_MIN_ATES * as || (!in->opt.sectors && len / l.ss < 2))
				continue;
			score(p, len, in->opt.sectors, ev, &l);
			if (better(&l, &best))
				best = l;
			if (in->opt.sector_size)
				break;
		}
	}
	return best;
}

static void set_sector_size(struct inspect *in, struct zms_inspect *z, const struct layout *l)
{
	z->sector_size = l->ss;
	z->ate_size = l->as;
	z->sectors = l->n;
	z->headers = l->headers;
	uint32_t fits = in->scanned ? in->region.lone_fits : 0;
	int n;

	if (in->opt.sector_size)
		z->ss_conf = NVS_CONF_GIVEN;
	else
		z->ss_conf = l->violations || fits > 1 ? NVS_CONF_WEAK
			     : l->headers >= 2 ? NVS_CONF_CERTAIN : NVS_CONF_LIKELY;
	n = snprintf(z->ss_why, sizeof(z->ss_why),
		     "%u of %u sectors end with a ZMS empty ATE, %u others hold data without one; "
		     "%u-byte ATE slots", l->headers, l->n, l->violations, l->as);
	if (fits && !in->opt.sector_size && n > 0 && (size_t)n < sizeof(z->ss_why))
		snprintf(z->ss_why + n, sizeof(z->ss_why) - (size_t)n,
			 "; with one header, the power of two dividing its end under which its "
			 "sector reads as ZMS best%s",
			 fits > 1 ? ", as under a smaller size (the largest taken)" : "");
}

/* Id width and device kind from the headers' format and cycle counters. */
static void header_facts(struct inspect *in, struct zms_inspect *z, const GArray *hs)
{
	uint32_t wide = 0, cycled = 0, other = 1;
	const char *e = in->opt.explicit_erase;
	guint i;

	for (i = 0; i < hs->len; i++) {
		const struct hdr *h = &g_array_index(hs, struct hdr, i);

		wide += h->format == 1;
		if (h->cycle != 1) {
			cycled++;
			other = h->cycle;
		}
	}
	z->id64 = wide * 2 > hs->len;
	if (e && strcmp(e, "auto")) {
		z->no_erase = !strcmp(e, "no");
		z->erase_conf = NVS_CONF_GIVEN;
		snprintf(z->erase_why, sizeof(z->erase_why), "--explicit-erase %s", e);
	} else if (cycled) {
		z->no_erase = true;
		z->erase_conf = NVS_CONF_CERTAIN;
		snprintf(z->erase_why, sizeof(z->erase_why),
			 "%u sector headers have a cycle counter other than 1 (e.g. %u): counters "
			 "advance only where a sector is reused without an erase", cycled, other);
	} else {
		z->erase_conf = NVS_CONF_LIKELY;
		snprintf(z->erase_why, sizeof(z->erase_why),
			 "every cycle counter is 1, as after an erase (give --explicit-erase no for "
			 "RRAM/MRAM)");
	}
}

/* ---- --partition auto: the runs of sectors that end with a ZMS header ---- */

/* A sector with a header looks closed to the scan (it counts them as closed). */
static enum nvs_sector_look zms_sector_look(const uint8_t *sec, uint32_t ss, uint32_t as,
					    uint8_t ev)
{
	struct hdr h;

	if (empty_ate_at(sec + ss - as, &h))
		return NVS_LOOK_CLOSED;
	return nvs_erased(sec, ss, ev) ? NVS_LOOK_ERASED : NVS_LOOK_OTHER;
}

/* The sector size (of gcd d over 1..MAX_SPLIT) whose sectors between the headers fit best. */
static struct layout scan_layout(const uint8_t *img, size_t len, const GArray *hs, uint8_t ev)
{
	struct layout best = { 0 }, l;
	uint32_t as, m;

	for (as = 16; as <= 32; as += 16) {
		uint32_t e0 = g_array_index(hs, struct hdr, 0).pos + as, d = 0;
		guint i;

		if (as == 32 && !padded(img, len, hs, ev))
			continue;
		for (i = 1; i < hs->len; i++)
			d = gcd(d, g_array_index(hs, struct hdr, i).pos + as - e0);
		for (m = 1; m <= MAX_SPLIT; m++) {
			size_t off, end = g_array_index(hs, struct hdr, hs->len - 1).pos + as;

			l = (struct layout){ .ss = d / m, .as = as, .whole = true };
			if (!d || d % m || l.ss % as || l.ss < FC_ZMS_MIN_ATES * as || l.ss > e0)
				continue;
			for (off = e0 - l.ss; off + l.ss <= end; off += l.ss) {
				enum nvs_sector_look k = zms_sector_look(img + off, l.ss, as, ev);

				l.headers += k == NVS_LOOK_CLOSED;
				l.violations += k == NVS_LOOK_OTHER;
			}
			if (better(&l, &best))
				best = l;
		}
	}
	return best;
}

uint32_t zms_header_count(const uint8_t *img, size_t len, uint32_t *first)
{
	GArray *hs = find_headers(img, len);
	uint32_t n = hs->len;

	*first = n ? g_array_index(hs, struct hdr, 0).pos : 0;
	g_array_free(hs, TRUE);
	return n;
}

/*
 * The sectors aligned to the headers, as nvs_scan's: a sector with a header
 * is never open, so where only erased bytes follow a region it ends with its
 * last header (ZMS writes the header of every sector it erases: only sectors
 * never used are erased), a guess.
 */
/* One header: the sector size that explains its sector's bytes best (zms_lone.c). */
static struct layout lone_layout(const uint8_t *img, size_t len, const struct hdr *h,
				 uint8_t ev, uint32_t *ties)
{
	struct layout best = { 0 };
	uint32_t as, t;

	*ties = 0;
	for (as = 16; as <= 32; as += 16) {
		struct layout l = { .as = as, .whole = true };

		if (as == 32 && !hdr_padded(img, len, h->pos, ev))
			continue;
		l.ss = zms_lone_sector_size(img, h->pos + as, as, h->format == 1, ev, &t);
		if (l.ss && !best.ss) {
			best = l;
			*ties = t;
		}
	}
	return best;
}

int zms_scan(const uint8_t *img, size_t len, uint8_t ev, struct nvs_region *out, int max)
{
	GArray *hs = find_headers(img, len);
	struct hdr h0 = hs->len ? g_array_index(hs, struct hdr, 0) : (struct hdr){ 0 };
	uint32_t ties = 0;
	struct layout l = hs->len >= 2 ? scan_layout(img, len, hs, ev)
			  : hs->len ? lone_layout(img, len, &h0, ev, &ties) : (struct layout){ 0 };
	size_t first = l.ss ? (h0.pos + l.as) % l.ss : 0;
	int n = 0, i;

	if (l.ss)
		n = scan_regions(img, len, first, l.ss, l.as, ev, zms_sector_look, out, max);
	for (i = 0; i < n; i++) {
		out[i].lone_fits = hs->len == 1 ? ties + 1 : 0;
		/* a guessed end keeps the two sectors every ZMS partition has */
		if (out[i].size_guessed && out[i].size < 2 * (size_t)l.ss) {
			out[i].size = 2 * (size_t)l.ss;
			out[i].erased_after++;
		}
	}
	g_array_free(hs, TRUE);
	return n;
}

struct fc_zms_config zms_inspect_config(const struct zms_inspect *z, const struct fc_flash *dev,
					struct fc_zms_slot *slots, uint32_t nslots)
{
	/* scratch within each call: the walks and the mount of the copy share it */
	static uint8_t read_buf[FC_ZMS_READ_BUF_SIZE];
	struct fc_zms_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.flash = dev;
	cfg.sector_size = z->sector_size;
	cfg.sector_count = z->sectors;
	cfg.no_erase = z->no_erase;
	cfg.id64 = z->id64;
	cfg.data_crc = z->data_crc;
	cfg.lookup = FC_ZMS_LOOKUP_INDEX;
	cfg.index_slots = slots;
	cfg.index_slot_count = nslots;
	cfg.read_buf = read_buf;
	cfg.read_buf_size = sizeof(read_buf);
	return cfg;
}

/* ---- write block and data CRC, from a first walk ---- */

struct value_pos {
	uint32_t sector, offset, len;
};

struct probe {
	struct zms_inspect *z;
	GArray *values;          /* struct value_pos of valid ATEs with a value outside */
	uint32_t crc_seen, crc_ok;
};

static int probe_ate(void *ctx, const struct fc_zms_ate_info *a)
{
	struct probe *pr = ctx;
	uint32_t inline_max = pr->z->id64 ? 4 : 8;
	struct value_pos v = { zms_addr_sector(pr->z, a->addr), a->offset, a->len };

	if (a->status == FC_ZMS_ATE_BAD || a->status == FC_ZMS_ATE_GC_DONE || a->len <= inline_max)
		return 0;
	g_array_append_val(pr->values, v);
	if (a->status == FC_ZMS_ATE_LIVE) {
		pr->crc_seen++;
		pr->crc_ok += a->data_crc_ok;
	}
	return 0;
}

static int by_place(gconstpointer pa, gconstpointer pb)
{
	const struct value_pos *a = pa, *b = pb;

	if (a->sector != b->sector)
		return a->sector < b->sector ? -1 : 1;
	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Write blocks w (bit w) whose padding makes consecutive values touch; pairs counted. */
static uint32_t wb_fits(GArray *values, uint32_t *pairs)
{
	uint32_t fits = 0, w;
	guint i;

	g_array_sort(values, by_place);
	*pairs = 0;
	for (i = 0; i + 1 < values->len; i++)
		*pairs += g_array_index(values, struct value_pos, i).sector ==
			  g_array_index(values, struct value_pos, i + 1).sector;
	for (w = 1; w <= 16; w <<= 1) {
		bool ok = true;

		for (i = 0; ok && i < values->len; i++) {
			const struct value_pos *a = &g_array_index(values, struct value_pos, i);
			const struct value_pos *b = a + 1;
			uint32_t end = a->offset + ((a->len + w - 1) & ~(w - 1));

			ok = a->offset % w == 0;
			/* a gap is a value a power cut left without its ATE */
			if (ok && i + 1 < values->len && b->sector == a->sector)
				ok = b->offset >= end;
		}
		if (ok)
			fits |= w;
	}
	return fits;
}

static void wb_text(char *buf, size_t len, uint32_t mask)
{
	size_t n = 0;
	uint32_t w;

	buf[0] = '\0';
	for (w = 1; w <= 16 && n < len; w <<= 1)
		if (mask & w)
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? ", " : "", w);
}

static void decide_write_block(struct inspect *in, struct zms_inspect *z, struct probe *pr)
{
	uint32_t pairs, fits = wb_fits(pr->values, &pairs), w;
	char list[40];

	if (in->opt.write_block) {
		z->write_block = in->opt.write_block;
		z->wb_conf = NVS_CONF_GIVEN;
		snprintf(z->wb_why, sizeof(z->wb_why), "--write-block");
		return;
	}
	if (z->ate_size == 32) {
		z->write_block = 32;
		z->wb_conf = NVS_CONF_CERTAIN;
		snprintf(z->wb_why, sizeof(z->wb_why), "32-byte ATE slots");
		return;
	}
	if (!fits)
		fits = 1;
	for (w = 16; !(fits & w); w >>= 1)
		;
	z->write_block = w;
	wb_text(list, sizeof(list), fits);
	z->wb_conf = pr->values->len == 0 ? NVS_CONF_WEAK
		     : (fits & (fits - 1)) ? NVS_CONF_WEAK : NVS_CONF_CERTAIN;
	if (pr->values->len == 0)
		snprintf(z->wb_why, sizeof(z->wb_why), "no value is stored outside its ATE: any "
			 "write block up to 16 reads the same; 16 assumed");
	else
		snprintf(z->wb_why, sizeof(z->wb_why), "%s fit the layout of %u values (%u pairs); "
			 "the largest is taken", list, pr->values->len, pairs);
}

static void zms_decide_crc(struct inspect *in, struct zms_inspect *z, const struct probe *pr)
{
	const char *m = in->opt.data_crc;

	if (m && strcmp(m, "auto")) {
		z->data_crc = !strcmp(m, "on");
		z->crc_conf = NVS_CONF_GIVEN;
		snprintf(z->crc_why, sizeof(z->crc_why), "--data-crc %s", m);
		return;
	}
	z->data_crc = pr->crc_ok > 0 && 2 * pr->crc_ok >= pr->crc_seen;
	z->crc_conf = pr->crc_seen ? NVS_CONF_CERTAIN : NVS_CONF_WEAK;
	snprintf(z->crc_why, sizeof(z->crc_why), "auto: %s (%u of %u live values outside their ATE "
		 "carry the CRC-32 of their bytes)", z->data_crc ? "on" : "off", pr->crc_ok,
		 pr->crc_seen);
}

static uint32_t pow2_at_least(uint64_t n)
{
	uint32_t p = 1;

	while (p < n && p < (1u << 31))
		p <<= 1;
	return p;
}

/* The partition's bytes (erased where the dump is short) and the mount's copy. */
static int build(struct inspect *in, struct zms_inspect *z, const uint8_t *p, size_t len)
{
	z->part_len = (size_t)z->sector_size * z->sectors;
	if (z->part_len > G_MAXUINT32) {
		g_printerr("nvs-inspect: %s: %u sectors of %u bytes is more than 4 GiB\n",
			   in->input.name, z->sectors, z->sector_size);
		return -1;
	}
	if (len >= z->part_len) {
		z->trailing = (uint32_t)(len - z->part_len);
		z->part = p;
		z->copy = z->owned = g_memdup2(p, z->part_len);
	} else {
		z->missing = (uint32_t)(z->part_len - len);
		z->owned = padded_pair(p, len, z->part_len, z->erase_value);
		z->part = z->owned;
		z->copy = z->owned + z->part_len;
	}
	z->fgeo.size = (uint32_t)z->part_len;
	z->fgeo.erase_size = z->sector_size;
	z->fgeo.write_size = z->write_block ? z->write_block : (z->ate_size == 32 ? 32 : 1);
	z->fgeo.erase_value = z->erase_value;
	z->nslots = pow2_at_least(z->part_len / z->ate_size + 2);
	z->slots = g_new(struct fc_zms_slot, z->nslots);
	z->index = g_new(struct fc_zms_slot, z->nslots);
	if (fc_rom_flash_init(&z->rom, &z->fgeo, z->part) < 0) {
		g_printerr("nvs-inspect: %s: geometry %u x %u bytes, write block %u is not usable\n",
			   in->input.name, z->sectors, z->sector_size, z->fgeo.write_size);
		return -1;
	}
	return 0;
}

/* The first walk, with a provisional write block and the CRC checked: the value layout. */
static int probe_layout(struct inspect *in, struct zms_inspect *z)
{
	struct probe pr = { z, g_array_new(FALSE, FALSE, sizeof(struct value_pos)), 0, 0 };
	struct fc_zms_walk_ops ops = { NULL, probe_ate };
	struct fc_zms_config cfg;

	z->data_crc = !z->id64;
	cfg = zms_inspect_config(z, &z->rom.dev, z->slots, z->nslots);
	(void)fc_zms_walk(&cfg, &ops, &pr);
	decide_write_block(in, z, &pr);
	zms_decide_crc(in, z, &pr);
	g_array_free(pr.values, TRUE);
	z->fgeo.write_size = z->write_block;
	return fc_rom_flash_init(&z->rom, &z->fgeo, z->part) < 0 ? -1 : 0;
}

static bool forced(const struct inspect *in)
{
	return in->opt.format_kind && !strcmp(in->opt.format_kind, "zms");
}

static uint32_t partition_offset(const struct inspect *in)
{
	if (in->scanned)
		return (uint32_t)in->region.offset;
	return in->have_dt ? (uint32_t)in->dt.offset_in_image : in->opt.offset;
}

static int no_zms(struct inspect *in, const char *why)
{
	if (!forced(in))
		return ZMS_LOAD_NOT_ZMS;
	g_printerr("nvs-inspect: %s: --format-kind zms: %s\n", in->input.name, why);
	return -1;
}

int zms_inspect_load(struct inspect *in)
{
	uint32_t off = partition_offset(in);
	const uint8_t *p = in->file + off;
	size_t len;
	struct zms_inspect *z;
	struct layout l;
	GArray *hs;
	int ev = -1;

	if (in->opt.format_kind && !strcmp(in->opt.format_kind, "nvs"))
		return ZMS_LOAD_NOT_ZMS;
	if (in->scanned && !in->region.zms)
		return no_zms(in, "the scan found NVS sectors, no ZMS ones");
	if (off >= in->window_end)
		return no_zms(in, "the partition starts past the end of the image");
	if (in->opt.write_block > FC_ZMS_BLOCK)
		return no_zms(in, "ZMS takes write blocks up to 32 bytes");
	len = in->window_end - off;
	parse_erase_value(in->opt.erase_value, &ev);
	hs = find_headers(p, len);
	if (hs->len == 0 && !(forced(in) && in->opt.sector_size)) {
		g_array_free(hs, TRUE);
		return no_zms(in, "no sector ends with a ZMS empty ATE (magic 0x42); give "
			      "--sector-size to read it anyway");
	}
	l = choose_layout(in, p, len, hs, ev < 0 ? 0xff : (uint8_t)ev);
	if (!l.ss) {
		g_array_free(hs, TRUE);
		return no_zms(in, "the ZMS sector headers fit no layout of at least 2 sectors "
			      "(give --sector-size and --sectors)");
	}
	z = in->zms = zms_inspect_new();
	z->offset = off;
	z->erase_value = ev < 0 ? 0xff : (uint8_t)ev;
	set_sector_size(in, z, &l);
	header_facts(in, z, hs);
	g_array_free(hs, TRUE);
	if (build(in, z, p, len) < 0 || probe_layout(in, z) < 0)
		return -1;
	return 0;
}
