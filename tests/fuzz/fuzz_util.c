/* SPDX-License-Identifier: BSD-2-Clause */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fuzz_violated(const char *what, int rc)
{
	fprintf(stderr, "fuzz property violated: %s (rc %d: %s)\n", what, rc, fc_strerror(rc));
	abort();
}

uint8_t fuzz_u8(struct fuzz_bytes *b)
{
	if (!b->n)
		return 0;
	b->n--;
	return *b->p++;
}

uint16_t fuzz_u16(struct fuzz_bytes *b)
{
	uint16_t lo = fuzz_u8(b);

	return (uint16_t)(lo | fuzz_u8(b) << 8);
}

void fuzz_value(uint8_t *buf, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 12345u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
}

static int budget_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct fuzz_nvs *r = ctx;

	if (!r->reads_left)
		return FC_EIO;
	r->reads_left--;
	return r->ram.dev.read(r->ram.dev.ctx, off, buf, len);
}

static int rig_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct fuzz_nvs *r = ctx;

	return r->ram.dev.prog(r->ram.dev.ctx, off, buf, len);
}

static int rig_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct fuzz_nvs *r = ctx;

	return r->ram.dev.erase(r->ram.dev.ctx, off, len);
}

void fuzz_nvs_violated(const struct fuzz_nvs *r, const char *what, int rc)
{
	if (!fuzz_nvs_spent(r))
		fuzz_violated(what, rc);
}

bool fuzz_nvs_setup(struct fuzz_nvs *r, const uint8_t *hdr, const uint8_t *image, size_t len)
{
	struct fc_flash_geometry geo;
	uint32_t sector_size = 256u << (hdr[0] % 9), wbs = 1u << (hdr[1] % 6), count;
	uint8_t opt = hdr[2];

	len = len < FUZZ_MAX_IMAGE ? len : FUZZ_MAX_IMAGE;
	count = (uint32_t)(len / sector_size);
	if (count < 2 || wbs > sector_size / 8)
		return false;
	count = count < 0xffffu ? count : 0xffffu;
	geo.size = count * sector_size;
	geo.erase_size = sector_size;
	geo.write_size = wbs;
	geo.erase_value = (opt & FUZZ_NVS_ERASED_00) ? 0x00 : 0xff;
	r->mem = malloc(geo.size);
	memcpy(r->mem, image, geo.size);
	if (fc_ram_flash_init(&r->ram, &geo, r->mem))
		fuzz_violated("RAM device over a valid geometry", FC_EINVAL);
	r->dev = r->ram.dev;
	r->dev.read = budget_read;
	r->dev.prog = rig_prog;
	r->dev.erase = rig_erase;
	r->dev.ctx = r;
	r->reads_left = FUZZ_READ_BUDGET;
	memset(&r->cfg, 0, sizeof(r->cfg));
	r->cfg.flash = &r->dev;
	r->cfg.sector_size = sector_size;
	r->cfg.sector_count = (uint16_t)count;
	r->cfg.data_crc = opt & FUZZ_NVS_DATA_CRC;
	r->cfg.lookup = (opt & FUZZ_NVS_ZEPHYR) ? FC_NVS_LOOKUP_ZEPHYR : FC_NVS_LOOKUP_INDEX;
	if (!(opt & FUZZ_NVS_NO_INDEX)) {
		r->cfg.index_slots = r->slots;
		r->cfg.index_slot_count = (opt & FUZZ_NVS_ZEPHYR) ? 128 : FUZZ_INDEX_SLOTS;
	}
	if ((opt & FUZZ_NVS_ATE_CACHE) && !(opt & FUZZ_NVS_ZEPHYR) &&
	    sizeof(r->ate_cache) >= FC_NVS_ATE_CACHE_WAYS * FC_MAX(8u, wbs)) {
		r->cfg.ate_cache = r->ate_cache;
		r->cfg.ate_cache_size = sizeof(r->ate_cache);
	}
	return true;
}

void fuzz_nvs_free(struct fuzz_nvs *r)
{
	free(r->mem);
	r->mem = NULL;
}
