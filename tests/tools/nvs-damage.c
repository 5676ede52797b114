/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-damage - make damaged flash images for the nvs-inspect tests.
 *   nvs-damage fill OUT SIZE BYTE       SIZE bytes of BYTE
 *   nvs-damage random OUT SIZE SEED     SIZE pseudo-random bytes (same SEED, same bytes)
 *   nvs-damage flip FILE OFFSET BIT     invert one bit of FILE in place
 *   nvs-damage copy IN OUT [LEN]        the first LEN bytes of IN (all without LEN)
 *   nvs-damage json FILE KEY...         FILE parses as a JSON object holding every KEY
 *   nvs-damage ate FILE AT ID OFF LEN   write a valid ATE {ID, OFF, LEN} (crc8 included) at AT
 *   nvs-damage setting FILE SECTOR_SIZE WRITE_BLOCK NAME VALUE
 *                                       save setting NAME (any bytes) = VALUE with the engine
 *   nvs-damage crcbad OUT SECTOR_SIZE SECTORS LEN
 *                                       erased sectors whose ATE slots below the close slot
 *                                       all hold ATEs {id, 0, LEN} whose crc8 fails
 */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/fc_env.h"
#include "fdtcache/flash.h"
#include "fdtcache/nvs.h"
#include "fdtcache/settings.h"

static unsigned long num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s == '\0' || *end) {
		fprintf(stderr, "nvs-damage: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static FILE *open_or_die(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

static void close_or_die(FILE *f, const char *path)
{
	if (ferror(f) || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void fill(const char *out, unsigned long size, int byte)
{
	FILE *f = open_or_die(out, "wb");

	while (size--)
		fputc(byte, f);
	close_or_die(f, out);
}

static void random_bytes(const char *out, unsigned long size, unsigned long seed)
{
	FILE *f = open_or_die(out, "wb");
	unsigned long x = seed * 2654435761u + 1;

	while (size--) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		fputc((int)(x >> 56) & 0xff, f);
	}
	close_or_die(f, out);
}

static void flip(const char *path, unsigned long off, unsigned long bit)
{
	FILE *f = open_or_die(path, "r+b");
	int c;

	if (fseek(f, (long)off, SEEK_SET) != 0 || (c = fgetc(f)) == EOF) {
		fprintf(stderr, "nvs-damage: %s: no byte at offset %lu\n", path, off);
		exit(1);
	}
	fseek(f, (long)off, SEEK_SET);
	fputc(c ^ (1 << (bit & 7)), f);
	close_or_die(f, path);
}

static void copy(const char *in, const char *out, unsigned long len)
{
	FILE *r = open_or_die(in, "rb"), *w = open_or_die(out, "wb");
	int c;

	while (len-- && (c = fgetc(r)) != EOF)
		fputc(c, w);
	close_or_die(r, in);
	close_or_die(w, out);
}

static void write_ate(const char *path, unsigned long at, unsigned long id, unsigned long off,
		      unsigned long len)
{
	uint8_t ate[FC_NVS_ATE_BYTES];
	FILE *f = open_or_die(path, "r+b");

	fc_nvs_ate_encode(ate, (uint16_t)id, (uint16_t)off, (uint16_t)len);
	if (fseek(f, (long)at, SEEK_SET) != 0 || fwrite(ate, 1, sizeof(ate), f) != sizeof(ate)) {
		fprintf(stderr, "nvs-damage: %s: cannot write at offset %lu\n", path, at);
		exit(1);
	}
	close_or_die(f, path);
}

/* Every ATE slot but the close slot of each sector: an ATE of LEN bytes at offset 0, crc8 off by one. */
static void crcbad_ates(const char *out, unsigned long ss, unsigned long sectors, unsigned long len)
{
	uint8_t ate[FC_NVS_ATE_BYTES];
	FILE *f = open_or_die(out, "wb");
	unsigned long s, o;

	for (s = 0; s < sectors; s++)
		for (o = 0; o < ss; o += sizeof(ate)) {
			memset(ate, 0xff, sizeof(ate));
			if (o >= 2 * sizeof(ate) && o < ss - sizeof(ate)) {
				fc_nvs_ate_encode(ate, (uint16_t)(o / sizeof(ate)), 0, (uint16_t)len);
				ate[sizeof(ate) - 1] ^= 1;
			}
			if (fwrite(ate, 1, sizeof(ate), f) != sizeof(ate)) {
				fprintf(stderr, "nvs-damage: %s: cannot write\n", out);
				exit(1);
			}
		}
	close_or_die(f, out);
}

/* Mount the image in memory, save one setting, write the image back. */
static void save_setting(const char *path, unsigned long ss, unsigned long wb, const char *name,
			 const char *value)
{
	gchar *mem;
	gsize len;
	struct fc_flash_geometry geo;
	struct fc_ram_flash ram;
	struct fc_nvs fs;
	struct fc_nvs_config cfg;
	struct fc_settings st;
	struct fc_settings_config scfg = { &fs, FC_SETTINGS_CACHE_ZEPHYR_NONE, NULL, 0 };
	int rc;

	if (!g_file_get_contents(path, &mem, &len, NULL) || len % ss || len / ss < 2) {
		fprintf(stderr, "nvs-damage: %s: unreadable or not whole sectors of %lu\n", path, ss);
		exit(1);
	}
	memset(&geo, 0, sizeof(geo));
	geo.size = (uint32_t)len;
	geo.erase_size = (uint32_t)ss;
	geo.write_size = (uint32_t)wb;
	geo.erase_value = 0xff;
	memset(&cfg, 0, sizeof(cfg));
	cfg.flash = &ram.dev;
	cfg.sector_size = (uint32_t)ss;
	cfg.sector_count = (uint16_t)(len / ss);
	cfg.lookup = FC_NVS_LOOKUP_ZEPHYR;
	if ((rc = fc_ram_flash_init(&ram, &geo, mem)) < 0 || (rc = fc_nvs_mount(&fs, &cfg)) < 0 ||
	    (rc = fc_settings_init(&st, &scfg)) < 0 ||
	    (rc = fc_settings_save(&st, name, value, strlen(value))) < 0) {
		fprintf(stderr, "nvs-damage: %s: saving the setting fails: %s\n", path,
			fc_strerror(rc));
		exit(1);
	}
	if (!g_file_set_contents(path, mem, (gssize)len, NULL)) {
		fprintf(stderr, "nvs-damage: %s: cannot write\n", path);
		exit(1);
	}
	g_free(mem);
}

static int json_has_keys(const char *path, char **keys, int n)
{
	JsonParser *p = json_parser_new();
	GError *err = NULL;
	JsonObject *root;
	int i, rc = 0;

	if (!json_parser_load_from_file(p, path, &err)) {
		fprintf(stderr, "nvs-damage: %s: %s\n", path, err->message);
		g_error_free(err);
		g_object_unref(p);
		return 1;
	}
	if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(p))) {
		fprintf(stderr, "nvs-damage: %s: not a JSON object\n", path);
		g_object_unref(p);
		return 1;
	}
	root = json_node_get_object(json_parser_get_root(p));
	for (i = 0; i < n; i++)
		if (!json_object_has_member(root, keys[i])) {
			fprintf(stderr, "nvs-damage: %s: no member %s\n", path, keys[i]);
			rc = 1;
		}
	g_object_unref(p);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "json"))
		return json_has_keys(argv[2], argv + 3, argc - 3);
	if (argc == 5 && !strcmp(argv[1], "fill"))
		fill(argv[2], num(argv[3]), (int)num(argv[4]));
	else if (argc == 5 && !strcmp(argv[1], "random"))
		random_bytes(argv[2], num(argv[3]), num(argv[4]));
	else if (argc == 5 && !strcmp(argv[1], "flip"))
		flip(argv[2], num(argv[3]), num(argv[4]));
	else if (argc == 7 && !strcmp(argv[1], "ate"))
		write_ate(argv[2], num(argv[3]), num(argv[4]), num(argv[5]), num(argv[6]));
	else if (argc == 7 && !strcmp(argv[1], "setting"))
		save_setting(argv[2], num(argv[3]), num(argv[4]), argv[5], argv[6]);
	else if (argc == 6 && !strcmp(argv[1], "crcbad"))
		crcbad_ates(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
	else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "copy"))
		copy(argv[2], argv[3], argc == 5 ? num(argv[4]) : (unsigned long)-1);
	else {
		fprintf(stderr, "usage: nvs-damage fill|random|flip|copy|json|ate|setting|crcbad ...\n");
		return 2;
	}
	return 0;
}
