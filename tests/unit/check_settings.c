/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/crc.h"
#include "fdtcache/settings.h"

#define SECTOR 4096u
#define SECTORS 8u
#define SLOTS 1024u

/* A device that counts the calls reaching a RAM flash. */
struct counting {
	struct fc_flash dev;
	struct fc_ram_flash ram;
	uint32_t reads, progs, prog_bytes, erases;
};

static int count_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct counting *c = ctx;

	c->reads++;
	return fc_flash_read(&c->ram.dev, off, buf, len);
}

static int count_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct counting *c = ctx;

	c->progs++;
	c->prog_bytes += len;
	return fc_flash_prog(&c->ram.dev, off, buf, len);
}

static int count_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct counting *c = ctx;

	c->erases++;
	return fc_flash_erase(&c->ram.dev, off, len);
}

static void counting_init(struct counting *c, uint8_t *mem, uint32_t sector_size,
			  uint32_t sectors, uint32_t wbs)
{
	struct fc_flash_geometry geo = {
		.size = sector_size * sectors, .erase_size = sector_size,
		.write_size = wbs, .erase_value = 0xff,
	};

	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(fc_ram_flash_init(&c->ram, &geo, mem), 0);
	c->dev.geo = geo;
	c->dev.read = count_read;
	c->dev.prog = count_prog;
	c->dev.erase = count_erase;
	c->dev.ctx = c;
}

static void counting_reset(struct counting *c)
{
	c->reads = c->progs = c->prog_bytes = c->erases = 0;
}

/* One partition: memory, counting device, mounted nvs with an exact index. */
struct part {
	uint8_t mem[SECTOR * SECTORS];
	struct counting flash;
	struct fc_cache_slot slots[SLOTS];
	struct fc_nvs fs;
	uint32_t sector_size, sectors;
	bool data_crc;
	uint32_t ate_cache_size;
	uint8_t ate_cache[256];
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
};

static void part_mount(struct part *p)
{
	struct fc_nvs_config cfg = {
		.flash = &p->flash.dev, .offset = 0, .sector_size = p->sector_size,
		.sector_count = (uint16_t)p->sectors, .data_crc = p->data_crc,
		.lookup = FC_NVS_LOOKUP_INDEX, .index_slots = p->slots, .index_slot_count = SLOTS,
		.ate_cache = p->ate_cache, .ate_cache_size = p->ate_cache_size,
		.read_buf = p->read_buf, .read_buf_size = sizeof(p->read_buf),
	};

	ck_assert_int_eq(fc_nvs_mount(&p->fs, &cfg), 0);
}

static struct part *part_new(uint32_t sector_size, uint32_t sectors, uint32_t wbs, bool data_crc)
{
	struct part *p = g_new0(struct part, 1);

	ck_assert_uint_le(sector_size * sectors, sizeof(p->mem));
	memset(p->mem, 0xff, sizeof(p->mem));
	p->sector_size = sector_size;
	p->sectors = sectors;
	p->data_crc = data_crc;
	counting_init(&p->flash, p->mem, sector_size, sectors, wbs);
	part_mount(p);
	return p;
}

static struct part *part_blank(void)
{
	return part_new(SECTOR, SECTORS, 4, false);
}

/* A second partition with the same bytes, mounted on its own. */
static struct part *part_clone(const struct part *src)
{
	struct part *p = part_new(src->sector_size, src->sectors, src->flash.dev.geo.write_size,
				  src->data_crc);

	memcpy(p->mem, src->mem, sizeof(p->mem));
	part_mount(p);
	return p;
}

static void settings_open(struct fc_settings *s, struct part *p, enum fc_settings_cache_mode mode,
			  uint16_t *cache, uint32_t cache_len)
{
	struct fc_settings_config cfg = {
		.fs = &p->fs, .cache_mode = mode, .cache = cache, .cache_len = cache_len,
	};

	ck_assert_int_eq(fc_settings_init(s, &cfg), 0);
}

/* What a load reported, as "name=hexvalue" lines in a sorted list. */
struct collected {
	GPtrArray *lines;
	uint32_t calls;
};

static char *hex(const uint8_t *b, size_t n)
{
	GString *s = g_string_new(NULL);

	for (size_t i = 0; i < n; i++)
		g_string_append_printf(s, "%02x", b[i]);
	return g_string_free(s, FALSE);
}

static int collect(void *ctx, const struct fc_settings_entry *e)
{
	struct collected *c = ctx;
	char *h;

	ck_assert_uint_eq(e->value_read, MIN(e->value_len, 64));
	ck_assert_uint_eq(strlen(e->name), e->name_len);
	h = hex(e->value, e->value_read);
	g_ptr_array_add(c->lines, g_strdup_printf("%s=%s", e->name, h));
	g_free(h);
	c->calls++;
	return 0;
}

static int cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *joined(GPtrArray *lines)
{
	GString *s = g_string_new(NULL);

	g_ptr_array_sort(lines, cmp_str);
	for (guint i = 0; i < lines->len; i++)
		g_string_append_printf(s, "%s\n", (char *)lines->pdata[i]);
	return g_string_free(s, FALSE);
}

static char *load_all(struct fc_settings *s, const char *subtree)
{
	uint8_t buf[64];
	struct collected c = { .lines = g_ptr_array_new_with_free_func(g_free) };
	char *out;

	ck_assert_int_eq(fc_settings_load_subtree(s, subtree, buf, sizeof(buf), collect, &c), 0);
	out = joined(c.lines);
	g_ptr_array_free(c.lines, TRUE);
	return out;
}

/* ---- Zephyr vectors -------------------------------------------------------- */

struct expected {
	uint32_t sector_size, sectors, wbs;
	bool data_crc;
	GHashTable *ids; /* id -> hex data */
};

static void expect_parse(const char *name, struct expected *ex)
{
	char *rel = g_strdup_printf("fixtures/nvs/zephyr/%s.expect.txt", name);
	size_t len;
	char *text = (char *)fc_check_load(rel, &len);
	char **lines = g_strsplit(text, "\n", -1);

	memset(ex, 0, sizeof(*ex));
	ex->ids = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	for (char **l = lines; *l; l++) {
		unsigned id, n;
		char data[4096];

		if (sscanf(*l, "# geometry: sector_size=%u sectors=%u write_block_size=%u",
			   &ex->sector_size, &ex->sectors, &ex->wbs) == 3)
			continue;
		if (g_str_has_prefix(*l, "# build:"))
			ex->data_crc = strstr(*l, "nvs_data_crc=on") != NULL;
		if (sscanf(*l, "id=0x%x len=%u data=%4095s", &id, &n, data) == 3)
			g_hash_table_insert(ex->ids, GUINT_TO_POINTER(id), g_strdup(data));
	}
	ck_assert_uint_gt(ex->sector_size, 0);
	g_strfreev(lines);
	g_free(text);
	g_free(rel);
}

static char *text_of_hex(const char *h)
{
	size_t n = strlen(h) / 2;
	char *s = g_malloc0(n + 1);

	for (size_t i = 0; i < n; i++)
		sscanf(h + 2 * i, "%2hhx", (unsigned char *)&s[i]);
	return s;
}

/* name=value lines of every complete pair at ids 0x8001..counter. */
static char *expected_pairs(struct expected *ex)
{
	GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
	const char *counter = g_hash_table_lookup(ex->ids, GUINT_TO_POINTER(0x8000));
	unsigned last = 0;
	char *out;

	ck_assert_ptr_nonnull(counter);
	sscanf(counter, "%2x", &last);
	last |= (unsigned)strtoul(counter + 2, NULL, 16) << 8;
	for (unsigned id = 0x8001; id <= last; id++) {
		const char *name = g_hash_table_lookup(ex->ids, GUINT_TO_POINTER(id));
		const char *value = g_hash_table_lookup(ex->ids, GUINT_TO_POINTER(id + 0x4000));

		if (name && value) {
			char *t = text_of_hex(name);

			g_ptr_array_add(lines, g_strdup_printf("%s=%s", t, value));
			g_free(t);
		}
	}
	out = joined(lines);
	g_ptr_array_free(lines, TRUE);
	return out;
}

static struct part *part_from_vector(const char *name, struct expected *ex)
{
	char *rel = g_strdup_printf("fixtures/nvs/zephyr/%s.bin", name);
	size_t len;
	uint8_t *img = fc_check_load(rel, &len);
	struct part *p;

	expect_parse(name, ex);
	ck_assert_uint_eq(len, ex->sector_size * ex->sectors);
	p = part_new(ex->sector_size, ex->sectors, ex->wbs, ex->data_crc);
	memcpy(p->mem, img, len);
	part_mount(p);
	counting_reset(&p->flash);
	g_free(img);
	g_free(rel);
	return p;
}

static const char *const settings_vectors[] = {
	"settings_rpl", "settings_rpl_wrapped", "settings_deletes", "settings_crc",
	"kvss_settings_rpl",
};

START_TEST(vectors_load_exactly)
{
	const char *name = settings_vectors[_i];
	struct expected ex;
	struct part *p = part_from_vector(name, &ex);
	uint8_t *before = g_memdup2(p->mem, sizeof(p->mem));
	uint16_t cache[512];
	struct fc_settings s;
	char *want = expected_pairs(&ex), *got;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, G_N_ELEMENTS(cache));
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, want);
	ck_assert_uint_gt(strlen(got), 0);
	/* a consistent image needs no repair: load wrote nothing */
	ck_assert_uint_eq(p->flash.progs, 0);
	ck_assert_mem_eq(p->mem, before, sizeof(p->mem));
	g_free(got);
	g_free(want);
	g_free(before);
	g_hash_table_destroy(ex.ids);
	g_free(p);
}
END_TEST

static int scan_pair_cb(void *ctx, const struct fc_settings_entry *e)
{
	return collect(ctx, e);
}

static int scan_problem_count(void *ctx, const struct fc_settings_problem *pb)
{
	GString *s = ctx;

	g_string_append_printf(s, "%d@%04x ", pb->kind, pb->id);
	return 0;
}

struct scan_result {
	struct collected pairs;
	GString *problems;
};

static int scan_pair_r(void *ctx, const struct fc_settings_entry *e)
{
	return scan_pair_cb(&((struct scan_result *)ctx)->pairs, e);
}

static int scan_problem_r(void *ctx, const struct fc_settings_problem *pb)
{
	return scan_problem_count(((struct scan_result *)ctx)->problems, pb);
}

/* Runs the read-only scan; returns "pairs" text and fills *problems. */
static char *scan_all(struct part *p, char **problems)
{
	static const struct fc_settings_scan_ops ops = { scan_pair_r, scan_problem_r };
	struct scan_result r = {
		.pairs = { .lines = g_ptr_array_new_with_free_func(g_free) },
		.problems = g_string_new(NULL),
	};
	uint8_t buf[64];
	char *out;

	ck_assert_int_eq(fc_settings_scan(&p->fs, buf, sizeof(buf), &ops, &r), 0);
	out = joined(r.pairs.lines);
	g_ptr_array_free(r.pairs.lines, TRUE);
	*problems = g_string_free(r.problems, FALSE);
	return out;
}

START_TEST(vectors_scan_read_only)
{
	const char *name = settings_vectors[_i];
	struct expected ex;
	struct part *p = part_from_vector(name, &ex);
	uint8_t *before = g_memdup2(p->mem, sizeof(p->mem));
	char *want = expected_pairs(&ex), *problems;
	char *got = scan_all(p, &problems);

	ck_assert_str_eq(got, want);
	ck_assert_str_eq(problems, "");
	ck_assert_uint_eq(p->flash.progs + p->flash.erases, 0);
	ck_assert_mem_eq(p->mem, before, sizeof(p->mem));
	g_free(got);
	g_free(want);
	g_free(problems);
	g_free(before);
	g_hash_table_destroy(ex.ids);
	g_free(p);
}
END_TEST

/* ---- semantics --------------------------------------------------------------- */

static int nvs_text(struct part *p, uint16_t id, char *buf, size_t len)
{
	int rc = fc_nvs_read(&p->fs, id, buf, len - 1);

	buf[rc > 0 ? MIN((size_t)rc, len - 1) : 0] = '\0';
	return rc;
}

static uint16_t nvs_counter(struct part *p)
{
	uint8_t raw[2];

	ck_assert_int_eq(fc_nvs_read(&p->fs, 0x8000, raw, 2), 2);
	return fc_get_le16(raw);
}

START_TEST(layout_is_zephyrs)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	char buf[80];

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_uint_eq(s.last_name_id, 0x8000);
	ck_assert_int_eq(fc_settings_save(&s, "a/b", "xy", 2), 0);
	ck_assert_int_eq(fc_settings_save(&s, "c", "123", 3), 0);
	ck_assert_uint_eq(nvs_counter(p), 0x8002);
	ck_assert_int_eq(nvs_text(p, 0x8001, buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "a/b");
	ck_assert_int_eq(nvs_text(p, 0xc001, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "xy");
	ck_assert_int_eq(nvs_text(p, 0x8002, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "c");
	ck_assert_int_eq(nvs_text(p, 0xc002, buf, sizeof(buf)), 3);
	/* a new name costs counter, value, name: 3 data + 3 ATE programs */
	counting_reset(&p->flash);
	ck_assert_int_eq(fc_settings_save(&s, "d", "1234", 4), 0);
	ck_assert_uint_eq(p->flash.progs, 6);
	ck_assert_uint_eq(p->flash.prog_bytes, 4 + 8 + 4 + 8 + 4 + 8);
	/* a rewrite only the value; an identical one nothing */
	counting_reset(&p->flash);
	ck_assert_int_eq(fc_settings_save(&s, "d", "4321", 4), 0);
	ck_assert_uint_eq(p->flash.progs, 2);
	counting_reset(&p->flash);
	ck_assert_int_eq(fc_settings_save(&s, "d", "4321", 4), 0);
	ck_assert_uint_eq(p->flash.progs, 0);
	ck_assert_uint_eq(nvs_counter(p), 0x8003);
	g_free(p);
}
END_TEST

START_TEST(get_load_subtree_and_names)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	char name[80], buf[8];
	char *got;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_int_eq(fc_settings_save(&s, "bt/mesh/seq", "\x01\x02", 2), 0);
	ck_assert_int_eq(fc_settings_save(&s, "bt/mesh", "\x03", 1), 0);
	ck_assert_int_eq(fc_settings_save(&s, "bt/meshy", "\x04", 1), 0);
	ck_assert_int_eq(fc_settings_save(&s, "wifi/ssid", "home-network", 12), 0);
	ck_assert_int_eq(fc_settings_get(&s, "wifi/ssid", buf, 4), 12);
	ck_assert_mem_eq(buf, "home", 4);
	ck_assert_int_eq(fc_settings_get(&s, "wifi/pass", buf, 4), FC_ENOENT);
	got = load_all(&s, "bt/mesh");
	ck_assert_str_eq(got, "bt/mesh/seq=0102\nbt/mesh=03\n");
	g_free(got);
	got = load_all(&s, "");
	ck_assert_str_eq(got, "bt/mesh/seq=0102\nbt/mesh=03\nbt/meshy=04\nwifi/ssid=686f6d652d6e6574776f726b\n");
	g_free(got);
	/* names: 1..64 bytes, no '=' */
	memset(name, 'n', 64);
	name[64] = '\0';
	ck_assert_int_eq(fc_settings_name_len(name), 64);
	ck_assert_int_eq(fc_settings_save(&s, name, "v", 1), 0);
	ck_assert_int_eq(fc_settings_get(&s, name, buf, 1), 1);
	name[64] = 'n';
	name[65] = '\0';
	ck_assert_int_eq(fc_settings_save(&s, name, "v", 1), FC_ENAME);
	ck_assert_int_eq(fc_settings_save(&s, "", "v", 1), FC_ENAME);
	ck_assert_int_eq(fc_settings_save(&s, "a=b", "v", 1), FC_ENAME);
	ck_assert_int_eq(fc_settings_save(&s, NULL, "v", 1), FC_ENAME);
	ck_assert_int_eq(fc_settings_get(&s, "a=b", buf, 1), FC_ENAME);
	ck_assert_int_eq(fc_settings_delete(&s, "x=1"), FC_ENAME);
	ck_assert_int_eq(fc_settings_load_subtree(&s, "a=", NULL, 0, NULL, NULL), FC_ENAME);
	g_free(p);
}
END_TEST

START_TEST(delete_semantics)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	char buf[80];
	char *got;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_int_eq(fc_settings_save(&s, "a", "1", 1), 0);
	ck_assert_int_eq(fc_settings_save(&s, "b", "2", 1), 0);
	ck_assert_int_eq(fc_settings_save(&s, "c", "3", 1), 0);
	/* deleting a middle name keeps the counter */
	ck_assert_int_eq(fc_settings_delete(&s, "b"), 0);
	ck_assert_uint_eq(nvs_counter(p), 0x8003);
	ck_assert_int_eq(nvs_text(p, 0x8002, buf, sizeof(buf)), FC_ENOENT);
	ck_assert_int_eq(nvs_text(p, 0xc002, buf, sizeof(buf)), FC_ENOENT);
	/* deleting the top name lowers it by one (Zephyr: no cascade) */
	ck_assert_int_eq(fc_settings_delete(&s, "c"), 0);
	ck_assert_uint_eq(nvs_counter(p), 0x8002);
	ck_assert_uint_eq(s.last_name_id, 0x8002);
	/* a missing name: nothing written */
	counting_reset(&p->flash);
	ck_assert_int_eq(fc_settings_delete(&s, "zz"), 0);
	ck_assert_uint_eq(p->flash.progs, 0);
	/* len 0 deletes, as in Zephyr */
	ck_assert_int_eq(fc_settings_save(&s, "a", "", 0), 0);
	ck_assert_int_eq(fc_settings_get(&s, "a", buf, 1), FC_ENOENT);
	/* a new name takes the lowest free id, below the counter */
	ck_assert_int_eq(fc_settings_save(&s, "d", "4", 1), 0);
	ck_assert_int_eq(nvs_text(p, 0x8001, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "d");
	ck_assert_uint_eq(nvs_counter(p), 0x8002);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "d=34\n");
	g_free(got);
	g_free(p);
}
END_TEST

/* Store raw nvs entries to build damaged images by hand. */
static void put(struct part *p, uint16_t id, const char *data)
{
	ck_assert_int_ge(fc_nvs_write(&p->fs, id, data, strlen(data)), 0);
}

static void put_counter(struct part *p, uint16_t v)
{
	uint8_t raw[2];

	fc_put_le16(raw, v);
	ck_assert_int_ge(fc_nvs_write(&p->fs, 0x8000, raw, 2), 0);
}

START_TEST(load_repairs)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	char buf[80], *got, *problems;

	put(p, 0x8001, "one");
	put(p, 0xc001, "1");
	put(p, 0x8002, "orphan-name");      /* no value */
	put(p, 0xc003, "orphan value");     /* no name */
	put(p, 0x8004, "four");
	put(p, 0xc004, "4");
	put(p, 0x8009, "hidden");           /* above the counter */
	put(p, 0xc009, "9");
	put_counter(p, 0x8006);             /* 0x8005 and 0x8006 empty */
	got = scan_all(p, &problems);
	ck_assert_str_eq(got, "four=34\nhidden=39\none=31\n");
	ck_assert_str_eq(problems, "5@8009 2@8006 1@8003 0@8002 ");
	g_free(got);
	g_free(problems);
	/* load: orphans deleted, counter lowered once to the top pair */
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	counting_reset(&p->flash);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "four=34\none=31\n");
	ck_assert_uint_eq(nvs_counter(p), 0x8004);
	ck_assert_int_eq(nvs_text(p, 0x8002, buf, sizeof(buf)), FC_ENOENT);
	ck_assert_int_eq(nvs_text(p, 0xc003, buf, sizeof(buf)), FC_ENOENT);
	/* 2 deletes (the absent halves write nothing) + 1 counter = 3 ATEs + 1 data */
	ck_assert_uint_eq(p->flash.progs, 4);
	g_free(got);
	got = scan_all(p, &problems);
	ck_assert_str_eq(problems, "5@8009 ");
	g_free(got);
	g_free(problems);
	/* a second load has nothing to repair */
	counting_reset(&p->flash);
	got = load_all(&s, NULL);
	ck_assert_uint_eq(p->flash.progs, 0);
	g_free(got);
	/* the next new name goes to the lowest free id, 0x8002 */
	ck_assert_int_eq(fc_settings_save(&s, "new", "n", 1), 0);
	ck_assert_int_eq(nvs_text(p, 0x8002, buf, sizeof(buf)), 3);
	g_free(p);
}
END_TEST

/*
 * Issue 18 case 5: a save cut between its value and its name leaves a half
 * pair at the top; load deletes it and lowers the counter past it, as
 * Zephyr does, so the next load finds nothing to repair.
 */
START_TEST(load_lowers_counter_over_half_pair)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	char *got, *problems;

	put(p, 0x8001, "one");
	put(p, 0xc001, "1");
	put_counter(p, 0x8003);
	put(p, 0xc003, "value without its name");
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "one=31\n");
	g_free(got);
	ck_assert_uint_eq(nvs_counter(p), 0x8001);
	ck_assert_int_eq(s.repair_err, 0);
	got = scan_all(p, &problems);
	ck_assert_str_eq(problems, "");
	g_free(got);
	g_free(problems);
	g_free(p);
}
END_TEST

/* Fill the partition with live values until not even one byte fits. */
static void fill(struct part *p)
{
	static const uint8_t big[128];
	uint16_t id = 1;

	for (size_t len = sizeof(big); len; len /= 2)
		while (fc_nvs_write(&p->fs, id, big, len) > 0)
			id++;
	ck_assert_int_eq(fc_nvs_write(&p->fs, id, big, 1), FC_ENOSPC);
}

/*
 * Issue 18 case 6: a repair that does not fit (partition full) does not
 * make the load fail after every setting was reported; the repair error is
 * reported on its own and the next load tries again.
 */
START_TEST(load_succeeds_when_repair_does_not_fit)
{
	struct part *p = part_new(1024, 2, 4, false);
	uint16_t cache[64];
	struct fc_settings s;
	char *got;

	put(p, 0x8001, "one");
	put(p, 0xc001, "1");
	put(p, 0x8002, "two");
	put(p, 0xc002, "2");
	put_counter(p, 0x8004); /* a save of 0x8003 and one of 0x8004 cut after the counter */
	fill(p);
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	for (int pass = 0; pass < 2; pass++) {
		got = load_all(&s, NULL);
		ck_assert_str_eq(got, "one=31\ntwo=32\n");
		g_free(got);
		ck_assert_int_eq(s.repair_err, FC_ENOSPC);
		ck_assert_uint_eq(nvs_counter(p), 0x8004);
	}
	/* with room again, the load finishes the repair */
	ck_assert_int_eq(fc_nvs_delete(&p->fs, 1), 0);
	ck_assert_int_eq(fc_nvs_delete(&p->fs, 2), 0);
	got = load_all(&s, NULL);
	g_free(got);
	ck_assert_int_eq(s.repair_err, 0);
	ck_assert_uint_eq(nvs_counter(p), 0x8002);
	g_free(p);
}
END_TEST

START_TEST(scan_counter_problems)
{
	struct part *p = part_blank();
	char *got, *problems;

	put(p, 0x8001, "a");
	put(p, 0xc001, "1");
	got = scan_all(p, &problems);
	ck_assert_str_eq(problems, "3@8000 5@8001 ");
	g_free(got);
	g_free(problems);
	ck_assert_int_ge(fc_nvs_write(&p->fs, 0x8000, "\x01\x80\x00", 3), 0);
	got = scan_all(p, &problems);
	ck_assert_str_eq(problems, "4@8000 ");
	ck_assert_str_eq(got, "a=31\n");
	g_free(got);
	g_free(problems);
	g_free(p);
}
END_TEST

/* ---- flash reads of the name lookups -------------------------------------- */

/* Names bt/mesh/rpl/<from..from+n-1>, each with value gen << 24 | its number. */
static void save_gen(struct fc_settings *s, unsigned from, unsigned n, uint32_t gen)
{
	char name[32];
	uint8_t v[4];

	for (unsigned i = from; i < from + n; i++) {
		snprintf(name, sizeof(name), "bt/mesh/rpl/%04x", i);
		fc_put_le32(v, gen << 24 | i);
		ck_assert_int_eq(fc_settings_save(s, name, v, 4), 0);
	}
}

static void save_n(struct fc_settings *s, unsigned from, unsigned n)
{
	save_gen(s, from, n, 0);
}

/*
 * After a load, a new name costs exactly the reads of the three nvs writes
 * it makes (measured on a clone doing only those writes), whatever the
 * number of names; a rewrite one name read more.
 */
START_TEST(first_write_reads_no_name)
{
	struct part *a = part_blank(), *b;
	static uint16_t cache[400];
	struct fc_settings s;
	uint32_t reads_settings, reads_nvs;
	uint8_t raw[2], name_buf[64];
	char *got;

	settings_open(&s, a, FC_SETTINGS_CACHE_INDEX, cache, 400);
	save_n(&s, 0, 300);
	settings_open(&s, a, FC_SETTINGS_CACHE_INDEX, cache, 400);
	got = load_all(&s, NULL);
	g_free(got);
	b = part_clone(a);
	memset(&s.stats, 0, sizeof(s.stats));

	counting_reset(&a->flash);
	ck_assert_int_eq(fc_settings_save(&s, "bt/mesh/rpl/new1", "\x01\x00\x00\x00", 4), 0);
	reads_settings = a->flash.reads;
	ck_assert_uint_eq(s.stats.scan_reads + s.stats.confirm_reads, 0);

	/* the counter's ATE, for free-space accounting: no compare, no walk */
	ck_assert_uint_eq(reads_settings, 1);
	counting_reset(&b->flash);
	fc_put_le16(raw, 0x8000 + 301);
	ck_assert_int_ge(fc_nvs_write_hint(&b->fs, 0x8000, raw, 2, FC_NVS_HINT_CHANGED), 0);
	ck_assert_int_ge(fc_nvs_write_hint(&b->fs, 0xc000 + 301, "\x01\x00\x00\x00", 4,
					   FC_NVS_HINT_ABSENT), 0);
	ck_assert_int_ge(fc_nvs_write_hint(&b->fs, 0x8000 + 301, "bt/mesh/rpl/new1", 16,
					   FC_NVS_HINT_ABSENT), 0);
	reads_nvs = b->flash.reads;
	ck_assert_uint_eq(reads_settings, reads_nvs);
	ck_assert_mem_eq(a->mem, b->mem, sizeof(a->mem));

	/* rewrite: one confirming name read, then the value write */
	counting_reset(&a->flash);
	ck_assert_int_eq(fc_settings_save(&s, "bt/mesh/rpl/0007", "\x09\x00\x00\x00", 4), 0);
	reads_settings = a->flash.reads;
	ck_assert_uint_eq(s.stats.confirm_reads, 1);
	counting_reset(&b->flash);
	ck_assert_int_eq(fc_nvs_read(&b->fs, 0x8008, name_buf, sizeof(name_buf)), 16);
	ck_assert_int_ge(fc_nvs_write(&b->fs, 0xc008, "\x09\x00\x00\x00", 4), 0);
	ck_assert_uint_eq(reads_settings, b->flash.reads);
	ck_assert_mem_eq(a->mem, b->mem, sizeof(a->mem));
	g_free(a);
	g_free(b);
}
END_TEST

/*
 * The seed's RPL workload with a 256-byte ATE cache: the same bytes as
 * without it, in exact read counts (bench/settings_bench's figures). New
 * names read only GC's ATE windows and the counter's ATE; a rewrite reads
 * its name and value, their ATEs mostly cached; a load the same.
 */
START_TEST(ate_cache_rpl_reads)
{
	static const uint32_t want[2][3] = {
		/* pass 1, pass 2, boot load */
		{ 305, 1020, 1020 }, /* no ATE cache */
		{ 99, 559, 575 },    /* 256 bytes */
	};
	static uint16_t cache[256];
	struct part *p[2];
	struct fc_settings s;
	char *got[2];

	for (int c = 0; c < 2; c++) {
		p[c] = part_blank();
		p[c]->ate_cache_size = c ? 256 : 0;
		part_mount(p[c]);
		settings_open(&s, p[c], FC_SETTINGS_CACHE_INDEX, cache, 256);
		g_free(load_all(&s, NULL));
		counting_reset(&p[c]->flash);
		save_n(&s, 0x1a2b, 255);
		ck_assert_uint_eq(p[c]->flash.reads, want[c][0]);
		ck_assert_uint_eq(p[c]->flash.erases, 0); /* GC found the sectors blank */
		counting_reset(&p[c]->flash);
		save_gen(&s, 0x1a2b, 255, 2);
		ck_assert_uint_eq(p[c]->flash.reads, want[c][1]);
		part_mount(p[c]);
		settings_open(&s, p[c], FC_SETTINGS_CACHE_INDEX, cache, 256);
		counting_reset(&p[c]->flash);
		got[c] = load_all(&s, NULL);
		ck_assert_uint_eq(p[c]->flash.reads, want[c][2]);
	}
	ck_assert_str_eq(got[0], got[1]);
	ck_assert_mem_eq(p[0]->mem, p[1]->mem, sizeof(p[0]->mem));
	for (int c = 0; c < 2; c++) {
		g_free(got[c]);
		g_free(p[c]);
	}
}
END_TEST

START_TEST(first_save_without_load_builds_once)
{
	struct part *p = part_blank();
	static uint16_t cache[400];
	struct fc_settings s;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 400);
	save_n(&s, 0, 200);
	/* a fresh instance, no load: the first save reads the 200 names once */
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 400);
	save_n(&s, 200, 1);
	ck_assert_uint_eq(s.stats.scan_reads, 200);
	save_n(&s, 201, 50);
	save_n(&s, 0, 10);
	ck_assert_uint_eq(s.stats.scan_reads, 200);
	ck_assert_uint_eq(s.stats.confirm_reads, 10);
	ck_assert_uint_eq(nvs_counter(p), 0x8000 + 251);
	g_free(p);
}
END_TEST

START_TEST(small_cache_falls_back_to_scan)
{
	struct part *p = part_blank();
	uint16_t cache[100];
	struct fc_settings s;
	uint8_t v[4];
	char *got;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 100);
	save_n(&s, 0, 250);
	got = load_all(&s, NULL);
	g_free(got);
	memset(&s.stats, 0, sizeof(s.stats));
	/* new name: the 150 ids beyond the cache are read, the 100 cached are not */
	save_n(&s, 250, 1);
	ck_assert_uint_eq(s.stats.scan_reads, 150);
	ck_assert_uint_eq(s.stats.scans, 1);
	/* a cached name is confirmed by one read and found before any scan */
	memset(&s.stats, 0, sizeof(s.stats));
	save_n(&s, 5, 1);
	ck_assert_uint_eq(s.stats.scan_reads, 0);
	ck_assert_uint_eq(s.stats.confirm_reads, 1);
	/* a name beyond the cache is found by the scan (top down) */
	memset(&s.stats, 0, sizeof(s.stats));
	ck_assert_int_eq(fc_settings_get(&s, "bt/mesh/rpl/00c8", v, 4), 4);
	ck_assert_uint_eq(fc_get_le32(v), 200);
	ck_assert_uint_eq(s.stats.scan_reads, 251 - 200);
	/* no cache at all still works, by scanning every id */
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, NULL, 0);
	ck_assert_int_eq(fc_settings_get(&s, "bt/mesh/rpl/0000", v, 4), 4);
	ck_assert_uint_eq(s.stats.scan_reads, 251);
	g_free(p);
}
END_TEST

START_TEST(hash_collisions_are_confirmed)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	static int32_t seen[65536];
	struct fc_settings s;
	char a[32] = "", b[32] = "";
	uint8_t v[4];

	/* two names with the same CRC-16 */
	memset(seen, 0xff, sizeof(seen));
	for (int i = 0; !a[0]; i++) {
		char n[32];
		uint16_t h;

		snprintf(n, sizeof(n), "n/%d", i);
		h = fc_crc16_ccitt(0xffff, n, strlen(n));
		if (seen[h] >= 0) {
			snprintf(a, sizeof(a), "n/%d", seen[h]);
			snprintf(b, sizeof(b), "%s", n);
		}
		seen[h] = i;
	}
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_int_eq(fc_settings_save(&s, a, "A", 1), 0);
	ck_assert_int_eq(fc_settings_save(&s, b, "B", 1), 0);
	ck_assert_uint_eq(s.stats.confirm_reads, 1);
	ck_assert_uint_eq(nvs_counter(p), 0x8002);
	ck_assert_int_eq(fc_settings_get(&s, b, v, 1), 1);
	ck_assert_uint_eq(v[0], 'B');
	ck_assert_int_eq(fc_settings_get(&s, a, v, 1), 1);
	ck_assert_uint_eq(v[0], 'A');
	g_free(p);
}
END_TEST

/* ---- Zephyr emulation --------------------------------------------------------- */

START_TEST(zephyr_modes_scan_as_zephyr)
{
	struct part *p = part_blank();
	uint16_t ring[8]; /* 4 entries */
	struct fc_settings s;
	char *got;

	/* no cache: every new name reads every stored name id */
	settings_open(&s, p, FC_SETTINGS_CACHE_ZEPHYR_NONE, NULL, 0);
	save_n(&s, 0, 10);
	ck_assert_uint_eq(s.stats.scan_reads, 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9);
	/* ring before the fix: a miss in the ring scans */
	settings_open(&s, p, FC_SETTINGS_CACHE_ZEPHYR_RING, ring, 8);
	got = load_all(&s, NULL);
	g_free(got);
	save_n(&s, 10, 1);
	ck_assert_uint_eq(s.stats.scan_reads, 10);
	/* with the fix, after a load, while the ring holds every name */
	ck_assert_int_eq(fc_settings_delete(&s, "bt/mesh/rpl/000a"), 0);
	for (int i = 0; i < 10; i++) {
		char name[32];

		snprintf(name, sizeof(name), "bt/mesh/rpl/%04x", i);
		ck_assert_int_eq(fc_settings_delete(&s, name), 0);
	}
	settings_open(&s, p, FC_SETTINGS_CACHE_ZEPHYR_RING_FIX, ring, 8);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "");
	g_free(got);
	memset(&s.stats, 0, sizeof(s.stats));
	save_n(&s, 100, 5);
	ck_assert_uint_eq(s.stats.scan_reads, 0);
	save_n(&s, 105, 1); /* the ring overflowed: scan again */
	ck_assert_uint_eq(s.stats.scans, 1);
	g_free(p);
}
END_TEST

/* The same workload gives byte-identical flash in every mode. */
START_TEST(modes_write_identical_images)
{
	static const enum fc_settings_cache_mode modes[] = {
		FC_SETTINGS_CACHE_INDEX, FC_SETTINGS_CACHE_ZEPHYR_NONE,
		FC_SETTINGS_CACHE_ZEPHYR_RING, FC_SETTINGS_CACHE_ZEPHYR_RING_FIX,
	};
	struct part *ref = NULL;

	for (unsigned m = 0; m < G_N_ELEMENTS(modes); m++) {
		struct part *p = part_blank();
		uint16_t cache[256];
		struct fc_settings s;
		char *got;

		settings_open(&s, p, modes[m], cache, 256);
		got = load_all(&s, NULL);
		g_free(got);
		save_n(&s, 0, 150);
		save_n(&s, 0, 150);
		ck_assert_int_eq(fc_settings_delete(&s, "bt/mesh/rpl/0095"), 0);
		ck_assert_int_eq(fc_settings_delete(&s, "bt/mesh/rpl/0005"), 0);
		save_n(&s, 0, 50);
		ck_assert_int_eq(fc_settings_save(&s, "x/new", "n", 1), 0);
		if (!ref) {
			ref = p;
			continue;
		}
		ck_assert_mem_eq(p->mem, ref->mem, sizeof(p->mem));
		g_free(p);
	}
	g_free(ref);
}
END_TEST

START_TEST(out_of_name_ids)
{
	struct part *p = part_blank();
	uint16_t ring[8];
	struct fc_settings s;
	char *got;

	put(p, 0xbffe, "top");
	put(p, 0xfffe, "v");
	put_counter(p, 0xbffe);
	/* after the fix, last_name_id + 1 = 0xbfff: its value id 0xffff is nvs's */
	settings_open(&s, p, FC_SETTINGS_CACHE_ZEPHYR_RING_FIX, ring, 8);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "top=76\n");
	g_free(got);
	ck_assert_int_eq(fc_settings_save(&s, "x", "1", 1), FC_ENOSPC);
	/* ours reuses the free ids below */
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, NULL, 0);
	ck_assert_int_eq(fc_settings_save(&s, "x", "1", 1), 0);
	ck_assert_uint_eq(nvs_counter(p), 0xbffe);
	g_free(p);
}
END_TEST

static int stop_at_second(void *ctx, const struct fc_settings_entry *e)
{
	unsigned *calls = ctx;

	(void)e;
	return ++*calls == 2 ? 42 : 0;
}

START_TEST(load_stopped_by_callback)
{
	struct part *p = part_blank();
	uint16_t cache[64];
	struct fc_settings s;
	unsigned calls = 0;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	save_n(&s, 0, 5);
	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_int_eq(fc_settings_load(&s, NULL, 0, stop_at_second, &calls), 42);
	ck_assert_uint_eq(calls, 2);
	/* the cache was not completed: the next save builds it from flash, once */
	ck_assert_int_eq(s.stats.scan_reads, 0);
	save_n(&s, 5, 2);
	ck_assert_uint_eq(s.stats.scan_reads, 5);
	ck_assert_uint_eq(nvs_counter(p), 0x8007);
	g_free(p);
}
END_TEST

/* A value failing its data CRC: the scan reports it, load drops the pair as Zephyr does. */
START_TEST(data_crc_error)
{
	struct part *p = part_new(SECTOR, SECTORS, 4, true);
	uint16_t cache[64];
	struct fc_settings s;
	char *got, *problems;
	uint8_t *hit;

	settings_open(&s, p, FC_SETTINGS_CACHE_INDEX, cache, 64);
	ck_assert_int_eq(fc_settings_save(&s, "ok", "fine", 4), 0);
	ck_assert_int_eq(fc_settings_save(&s, "bad", "BROKEN", 6), 0);
	for (hit = p->mem; memcmp(hit, "BROKEN", 6); hit++)
		ck_assert(hit < p->mem + sizeof(p->mem) - 6);
	hit[0] = 'b'; /* clears a bit, as flash can */
	got = scan_all(p, &problems);
	ck_assert_str_eq(got, "ok=66696e65\n");
	ck_assert_str_eq(problems, "7@c002 0@8002 ");
	g_free(got);
	g_free(problems);
	got = load_all(&s, NULL);
	ck_assert_str_eq(got, "ok=66696e65\n");
	g_free(got);
	ck_assert_int_eq(fc_settings_get(&s, "bad", hit, 0), FC_ENOENT);
	g_free(p);
}
END_TEST

START_TEST(init_checks)
{
	struct part *p = part_blank();
	struct fc_settings s;
	uint16_t cache[3];
	struct fc_settings_config cfg = { .fs = &p->fs, .cache_mode = FC_SETTINGS_CACHE_INDEX };

	ck_assert_int_eq(fc_settings_init(&s, NULL), FC_EINVAL);
	cfg.cache_len = 4;
	ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_EINVAL);
	cfg.cache = cache;
	cfg.cache_len = 3;
	cfg.cache_mode = FC_SETTINGS_CACHE_ZEPHYR_RING;
	ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_EINVAL);
	cfg.cache_mode = (enum fc_settings_cache_mode)7;
	ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_EINVAL);
	cfg.cache_mode = FC_SETTINGS_CACHE_INDEX;
	p->fs.mounted = false;
	ck_assert_int_eq(fc_settings_init(&s, &cfg), FC_ENOTMOUNTED);
	ck_assert_int_eq(fc_settings_scan(&p->fs, NULL, 0, NULL, NULL), FC_ENOTMOUNTED);
	g_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, vectors_load_exactly, 0, G_N_ELEMENTS(settings_vectors));
	tcase_add_loop_test(tc, vectors_scan_read_only, 0, G_N_ELEMENTS(settings_vectors));
	tcase_add_test(tc, layout_is_zephyrs);
	tcase_add_test(tc, get_load_subtree_and_names);
	tcase_add_test(tc, delete_semantics);
	tcase_add_test(tc, load_repairs);
	tcase_add_test(tc, load_lowers_counter_over_half_pair);
	tcase_add_test(tc, load_succeeds_when_repair_does_not_fit);
	tcase_add_test(tc, scan_counter_problems);
	tcase_add_test(tc, first_write_reads_no_name);
	tcase_add_test(tc, first_save_without_load_builds_once);
	tcase_add_test(tc, small_cache_falls_back_to_scan);
	tcase_add_test(tc, hash_collisions_are_confirmed);
	tcase_add_test(tc, zephyr_modes_scan_as_zephyr);
	tcase_add_test(tc, modes_write_identical_images);
	tcase_add_test(tc, out_of_name_ids);
	tcase_add_test(tc, load_stopped_by_callback);
	tcase_add_test(tc, data_crc_error);
	tcase_add_test(tc, init_checks);
	tcase_add_test(tc, ate_cache_rpl_reads);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
