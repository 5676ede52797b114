/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Seed images for the NVS fuzz targets that the fixtures lack: partitions
 * written by the engine on flash erasing to 0xff and to 0x00, from 16 KiB
 * to 3 MiB, after enough rewrites and deletes to have garbage-collected,
 * some holding settings. Each file starts with the targets' geometry header.
 *
 *   fuzz_mkseeds DIR   writes DIR/<name>.bin
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/settings.h"

#include "fuzz_util.h"

struct seed_geometry {
	const char *name;
	uint32_t sector_log2, sectors, wbs_log2;
	uint8_t opt;
	bool settings;
};

static const struct seed_geometry seeds[] = {
	{ "small-wbs4", 12, 4, 2, 0, false },
	{ "settings-wbs1-crc", 12, 8, 0, FUZZ_NVS_DATA_CRC, true },
	{ "wbs32", 10, 16, 5, 0, false },
	{ "big-64k-wbs8-crc", 16, 48, 3, FUZZ_NVS_DATA_CRC, true },
};

static int fill(struct fc_nvs *fs, uint32_t ids, uint32_t rounds)
{
	uint8_t value[200];
	int rc = 0;

	for (uint32_t r = 0; r < rounds && rc >= 0; r++)
		for (uint32_t id = 0; id < ids && rc >= 0; id++) {
			size_t len = 1 + (id * 37 + r * 11) % sizeof(value);

			fuzz_value(value, len, id * 977 + r);
			rc = (id + r) % 5 == 4 ? fc_nvs_delete(fs, (uint16_t)id)
					       : fc_nvs_write(fs, (uint16_t)id, value, len);
		}
	return rc == FC_ENOSPC ? 0 : rc;
}

static int fill_settings(struct fc_nvs *fs)
{
	struct fc_settings st;
	struct fc_settings_config cfg = { .fs = fs };
	char name[32];
	uint8_t v[16];
	int rc = fc_settings_init(&st, &cfg);

	for (uint32_t i = 0; i < 40 && rc >= 0; i++) {
		snprintf(name, sizeof(name), "bt/mesh/RPL/%x", i + 1);
		fuzz_value(v, sizeof(v), i);
		rc = fc_settings_save(&st, name, v, 1 + i % sizeof(v));
	}
	return rc;
}

static int make_seed(const char *dir, const struct seed_geometry *s, uint8_t erase_value)
{
	uint32_t sector = 1u << s->sector_log2, size = sector * s->sectors;
	uint8_t hdr[FUZZ_NVS_HEADER] = { (uint8_t)(s->sector_log2 - 8), (uint8_t)s->wbs_log2,
					 (uint8_t)(s->opt | (erase_value ? 0 : FUZZ_NVS_ERASED_00)) };
	uint8_t *file = g_malloc(FUZZ_NVS_HEADER + size);
	struct fuzz_nvs *r = g_new0(struct fuzz_nvs, 1);
	char *path;
	int rc = 1;

	memcpy(file, hdr, sizeof(hdr));
	memset(file + FUZZ_NVS_HEADER, erase_value, size);
	if (fuzz_nvs_setup(r, hdr, file + FUZZ_NVS_HEADER, size) &&
	    fc_nvs_mount(&r->fs, &r->cfg) == 0 &&
	    fill(&r->fs, 24, size / 1024) >= 0 && (!s->settings || fill_settings(&r->fs) >= 0)) {
		memcpy(file + FUZZ_NVS_HEADER, r->mem, size);
		path = g_strdup_printf("%s/%s-%02x.bin", dir, s->name, erase_value);
		rc = g_file_set_contents(path, (char *)file, FUZZ_NVS_HEADER + size, NULL) ? 0 : 1;
		g_free(path);
	}
	if (rc)
		fprintf(stderr, "fuzz_mkseeds: cannot make %s (erase 0x%02x)\n", s->name,
			erase_value);
	fuzz_nvs_free(r);
	g_free(r);
	g_free(file);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < G_N_ELEMENTS(seeds); i++) {
		rc |= make_seed(argv[1], &seeds[i], 0xff);
		rc |= make_seed(argv[1], &seeds[i], 0x00);
	}
	return rc;
}
