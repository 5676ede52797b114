/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Corpus replay for `make check`: runs a fuzz target over each corpus file
 * and over deterministic mutations of it (bit flips, byte runs of 0x00/0xff,
 * truncations), so every run covers the same inputs. Files over 256 KiB get
 * at most 4 mutations. A hang ends in SIGALRM.
 *
 *   fuzz_replay TARGET MUTATIONS FILE...
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_targets.h"

#define FC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define BIG_INPUT (256u * 1024u)
#define BIG_MUTATIONS 4

static uint32_t rng_next(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

static void mutate(uint8_t *p, size_t *len, uint32_t *rng)
{
	size_t n = *len;

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
		*len = rng_next(rng) % n;
		break;
	default: /* random bytes */
		for (int i = 0; i < 16; i++)
			p[rng_next(rng) % n] = (uint8_t)rng_next(rng);
		break;
	}
}

static fuzz_fn find_target(const char *name)
{
	for (const struct fuzz_target *t = fuzz_targets; t->name; t++)
		if (!strcmp(t->name, name))
			return t->fn;
	return NULL;
}

int main(int argc, char **argv)
{
	fuzz_fn fn;
	long mutations;
	unsigned inputs = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: %s TARGET MUTATIONS FILE...\n", argv[0]);
		return 2;
	}
	fn = find_target(argv[1]);
	if (!fn) {
		fprintf(stderr, "%s: unknown target '%s'\n", argv[0], argv[1]);
		return 2;
	}
	mutations = strtol(argv[2], NULL, 10);
	alarm(600);
	for (int a = 3; a < argc; a++) {
		gchar *file = NULL;
		gsize flen = 0;
		GError *err = NULL;
		uint32_t rng = 0x9e3779b9u ^ (uint32_t)a;
		long muts;
		uint8_t *buf;

		if (!g_file_get_contents(argv[a], &file, &flen, &err)) {
			fprintf(stderr, "%s: %s\n", argv[0], err->message);
			return 1;
		}
		muts = flen > BIG_INPUT ? FC_MIN(mutations, BIG_MUTATIONS) : mutations;
		buf = g_malloc(flen + 1);
		for (long m = 0; m <= muts; m++) {
			size_t len = flen;

			memcpy(buf, file, flen);
			if (m)
				mutate(buf, &len, &rng);
			fn(buf, len);
			inputs++;
		}
		g_free(buf);
		g_free(file);
	}
	printf("%s: %u inputs, no property violated\n", argv[1], inputs);
	return 0;
}
