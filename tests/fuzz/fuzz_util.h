/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers of the fuzz targets: property failures, a byte reader, an NVS rig. */
#ifndef FDTCACHE_FUZZ_UTIL_H
#define FDTCACHE_FUZZ_UTIL_H

#include <stdbool.h>

#include "fdtcache/nvs.h"

#include "fuzz_targets.h"

#define FUZZ_INDEX_SLOTS 1024u

/* Report a broken property (with an fc_ error code, or 0) and abort. */
void fuzz_violated(const char *what, int rc) __attribute__((noreturn));

/* Reads bytes off the front of an input; past its end every read is 0. */
struct fuzz_bytes {
	const uint8_t *p;
	size_t n;
};

uint8_t fuzz_u8(struct fuzz_bytes *b);
uint16_t fuzz_u16(struct fuzz_bytes *b);

/* Fill buf with n bytes of a xorshift stream from seed (values to write). */
void fuzz_value(uint8_t *buf, size_t n, uint32_t seed);

/*
 * Flash reads one input may spend. Zephyr-mode lookups walk the log from
 * the head on every read, so an op script over a hostile image could
 * otherwise take hours; past the budget every read fails with FC_EIO and
 * results are no longer checked (fuzz_nvs_spent).
 */
#define FUZZ_READ_BUDGET (1u << 22)

struct fuzz_nvs {
	uint8_t *mem;
	struct fc_ram_flash ram;
	struct fc_flash dev; /* ram.dev behind the read budget; the engine's device */
	uint32_t reads_left;
	struct fc_nvs_config cfg;
	struct fc_cache_slot slots[FUZZ_INDEX_SLOTS];
	uint8_t ate_cache[512];
	struct fc_nvs fs;
};

/*
 * fuzz_nvs_setup - the partition of hdr (FUZZ_NVS_HEADER bytes) over a
 * private copy of the image bytes. Returns false (nothing to free) when
 * they make no partition.
 */
bool fuzz_nvs_setup(struct fuzz_nvs *r, const uint8_t *hdr, const uint8_t *image, size_t len);
void fuzz_nvs_free(struct fuzz_nvs *r);

/* True once r spent FUZZ_READ_BUDGET: its reads fail, so nothing it returns is checked. */
static inline bool fuzz_nvs_spent(const struct fuzz_nvs *r)
{
	return r->reads_left == 0;
}

/* fuzz_violated unless r spent its read budget (then the failure is the budget's). */
void fuzz_nvs_violated(const struct fuzz_nvs *r, const char *what, int rc);

/*
 * fuzz_nvs_ops_mount - an ops input (header, a count byte n, n ops of 4
 * bytes, then the image): *ops gets the ops and r the partition over the
 * image, mounted. Returns false when the input is too short, the image
 * makes no partition or it does not mount (fuzz_nvs_free(r) either way).
 */
bool fuzz_nvs_ops_mount(struct fuzz_nvs *r, const uint8_t *data, size_t size,
			struct fuzz_bytes *ops);

#endif
