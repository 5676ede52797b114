/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_zms_util.h"
#include "check_util.h"

#include <stdio.h>
#include <string.h>

static void hex_decode(const char *hex, uint8_t *out, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++)
		out[k] = (uint8_t)g_ascii_strtoull((char[]){ hex[2 * k], hex[2 * k + 1], 0 }, NULL, 16);
}

static void parse_line(const char *l, struct zms_expect *e, int *seen)
{
	char hex[2100], erase[8], name[64];
	unsigned long long id;
	unsigned int n;

	if (g_str_has_prefix(l, "# build:")) {
		const char *c = strstr(l, "zms_lookup_cache=");

		e->cache = c && c[17] != 'o' ? (unsigned int)atoi(c + 17) : 0;
		e->crc = strstr(l, "zms_data_crc=on") != NULL;
		e->id64 = strstr(l, "zms_id_64bit=on") != NULL;
		e->ndw = strstr(l, "zms_no_double_write=on") != NULL;
	} else if (sscanf(l, "# geometry: sector_size=%u sectors=%u write_block_size=%u ate_size=%*u "
			  "erase_value=0xff page_size=%u explicit_erase=%7s",
			  &e->sector_size, &e->sectors, &e->wbs, &e->page, erase) == 5) {
		e->no_erase = !strcmp(erase, "no");
		*seen |= 1;
	} else if (sscanf(l, "# after mount: ate_wra=%u:0x%x data_wra=%u:0x%x sector_cycle=%u "
			  "free_space=%d active_sector_free=%d",
			  &e->ate_sector, &e->ate_off, &e->data_sector, &e->data_off, &e->cycle,
			  &e->free_space, &e->active_free) == 7) {
		*seen |= 2;
	} else if (sscanf(l, "# mount wrote: %u program ops, %u erases", &e->mount_progs,
			  &e->mount_erases) == 2) {
		*seen |= 4;
	} else if (sscanf(l, "id=0x%llx len=%u data=%2099s", &id, &n, hex) == 3) {
		struct zms_entry en = { .id = id, .len = n };

		ck_assert_uint_le(n, sizeof(en.data));
		ck_assert_uint_eq(strlen(hex), 2 * n);
		hex_decode(hex, en.data, n);
		g_array_append_val(e->entries, en);
	} else if (sscanf(l, "name=%63s len=%u data=%2099s", name, &n, hex) == 3) {
		struct zms_setting st = { .len = n };

		ck_assert_uint_le(n, sizeof(st.data));
		g_strlcpy(st.name, name, sizeof(st.name));
		hex_decode(hex, st.data, n);
		g_array_append_val(e->settings, st);
	}
}

void zms_expect_load(const char *name, struct zms_expect *e)
{
	char *rel = g_strdup_printf(ZMS_VEC_DIR "/%s.expect.txt", name);
	size_t len;
	char *text = (char *)fc_check_load(rel, &len);
	char **lines = g_strsplit(text, "\n", -1);
	int seen = 0;

	memset(e, 0, sizeof(*e));
	e->entries = g_array_new(FALSE, TRUE, sizeof(struct zms_entry));
	e->settings = g_array_new(FALSE, TRUE, sizeof(struct zms_setting));
	for (char **l = lines; *l; l++)
		parse_line(*l, e, &seen);
	ck_assert_msg(seen == 7, "%s: geometry, after-mount or mount-wrote line missing", rel);
	g_strfreev(lines);
	g_free(text);
	g_free(rel);
}

void zms_expect_free(struct zms_expect *e)
{
	g_array_free(e->entries, TRUE);
	g_array_free(e->settings, TRUE);
}

struct zms_dev *zms_dev_new(const char *name, const struct zms_expect *e)
{
	struct zms_dev *d = g_new0(struct zms_dev, 1);
	struct fc_flash_geometry geo = {
		.erase_size = e->page, .write_size = e->wbs, .erase_value = 0xff,
	};

	if (name) {
		char *rel = g_strdup_printf(ZMS_VEC_DIR "/%s.bin", name);

		d->mem = fc_check_load(rel, &d->size);
		g_free(rel);
		ck_assert_uint_eq(d->size, (size_t)e->sector_size * e->sectors);
	} else {
		d->size = (size_t)e->sector_size * e->sectors;
		d->mem = g_malloc(d->size);
		memset(d->mem, 0xff, d->size);
	}
	geo.size = (uint32_t)d->size;
	ck_assert_int_eq(fc_ram_flash_init(&d->ram, &geo, d->mem), 0);
	counting_flash_init(&d->cnt, &d->ram.dev);
	return d;
}

void zms_dev_free(struct zms_dev *d)
{
	g_free(d->mem);
	g_free(d);
}

struct fc_zms_config zms_dev_config(struct zms_dev *d, const struct zms_expect *e,
				    enum fc_zms_lookup lookup, uint32_t slots)
{
	struct fc_zms_config cfg = {
		.flash = &d->cnt.dev, .sector_size = e->sector_size, .sector_count = e->sectors,
		.no_erase = e->no_erase, .id64 = e->id64, .data_crc = e->crc,
		.rewrite_same = !e->ndw, .lookup = lookup,
		.index_slots = slots ? d->slots : NULL, .index_slot_count = slots,
		.read_buf = d->read_buf, .read_buf_size = sizeof(d->read_buf),
	};
	return cfg;
}

void zms_sim_init(struct zms_sim *zs, const struct zms_expect *e)
{
	struct fc_flash_sim_config scfg = {
		.geo = { .size = e->sector_size * e->sectors, .erase_size = e->page,
			 .write_size = e->wbs, .erase_value = 0xff },
		.timing = { { 0, 0, 1 }, { 0, 0, 1 }, { 0, 0, 1 } },
	};

	ck_assert_uint_le(scfg.geo.size, sizeof(zs->mem));
	ck_assert_uint_le(scfg.geo.size / e->page, FC_ARRAY_SIZE(zs->units));
	memset(zs->mem, 0xff, scfg.geo.size);
	ck_assert_int_eq(fc_flash_sim_init(&zs->sim, &scfg, zs->mem, zs->units), 0);
}

void zms_assert_image(const char *name, const uint8_t *got, size_t size)
{
	char *rel = g_strdup_printf(ZMS_VEC_DIR "/%s.bin", name);
	size_t want_len;
	uint8_t *want = fc_check_load(rel, &want_len);

	ck_assert_uint_eq(want_len, size);
	for (size_t k = 0; k < want_len; k++)
		ck_assert_msg(got[k] == want[k], "%s: byte 0x%zx is %02x, Zephyr %02x", name, k,
			      got[k], want[k]);
	g_free(want);
	g_free(rel);
}
