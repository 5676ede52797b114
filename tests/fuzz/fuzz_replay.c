/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Corpus replay for `make check`: runs a fuzz target over each corpus file
 * and over deterministic mutations of it (bit flips, byte runs of 0x00/0xff,
 * truncations), so every run covers the same inputs. A hang ends in SIGALRM.
 *
 *   fuzz_replay nvs|dtb MUTATIONS FILE[:HEADER_HEX]...
 *
 * HEADER_HEX bytes are put before the file's bytes (the NVS target's
 * geometry header).
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_targets.h"

#define FC_MIN(a, b) ((a) < (b) ? (a) : (b))

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

static uint32_t rng_next(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static void mutate(uint8_t *buf, size_t *len, size_t keep, uint32_t *rng)
{
	size_t n = *len - keep;
	uint8_t *p = buf + keep;

	if (!n)
		return;
	switch (rng_next(rng) % 4) {
	case 0: /* a few bit flips */
		for (int i = 0; i < 1 + (int)(rng_next(rng) % 8); i++)
			p[rng_next(rng) % n] ^= (uint8_t)(1u << (rng_next(rng) % 8));
		break;
	case 1: { /* a run of erased or zeroed bytes, as a torn write leaves */
		size_t at = rng_next(rng) % n, run = 1 + rng_next(rng) % 64;

		memset(p + at, (rng_next(rng) & 1) ? 0xff : 0x00, FC_MIN(run, n - at));
		break;
	}
	case 2: /* truncation */
		*len = keep + rng_next(rng) % n;
		break;
	default: /* random bytes */
		for (int i = 0; i < 16; i++)
			p[rng_next(rng) % n] = (uint8_t)rng_next(rng);
		break;
	}
}

static gboolean parse_header(const char *hex, uint8_t *out, size_t *n)
{
	size_t len = strlen(hex);

	if (len % 2 || len / 2 > 8)
		return FALSE;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = g_ascii_xdigit_value(hex[2 * i]), lo = g_ascii_xdigit_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return FALSE;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*n = len / 2;
	return TRUE;
}

int main(int argc, char **argv)
{
	fuzz_fn fn;
	long mutations;
	unsigned inputs = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s nvs|dtb MUTATIONS FILE[:HEADER_HEX]...\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "nvs"))
		fn = fuzz_nvs_image;
	else if (!strcmp(argv[1], "dtb"))
		fn = fuzz_dtb;
	else {
		fprintf(stderr, "%s: unknown target '%s'\n", argv[0], argv[1]);
		return 2;
	}
	mutations = strtol(argv[2], NULL, 10);
	alarm(600);
	for (int a = 3; a < argc; a++) {
		char *spec = g_strdup(argv[a]);
		char *colon = strrchr(spec, ':');
		uint8_t header[8];
		size_t hlen = 0, flen = 0;
		gchar *file = NULL;
		GError *err = NULL;
		uint32_t rng = 0x9e3779b9u ^ (uint32_t)a;

		if (colon) {
			*colon = '\0';
			if (!parse_header(colon + 1, header, &hlen)) {
				fprintf(stderr, "%s: bad header in '%s'\n", argv[0], argv[a]);
				return 2;
			}
		}
		if (!g_file_get_contents(spec, &file, &flen, &err)) {
			fprintf(stderr, "%s: %s\n", argv[0], err->message);
			return 1;
		}
		uint8_t *orig = g_malloc(hlen + flen), *buf = g_malloc(hlen + flen);

		memcpy(orig, header, hlen);
		memcpy(orig + hlen, file, flen);
		for (long m = 0; m <= mutations; m++) {
			size_t len = hlen + flen;

			memcpy(buf, orig, len);
			if (m)
				mutate(buf, &len, hlen, &rng);
			fn(buf, len);
			inputs++;
		}
		g_free(orig);
		g_free(buf);
		g_free(file);
		g_free(spec);
	}
	printf("%s: %u inputs, no property violated\n", argv[1], inputs);
	return 0;
}
