/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_nvs_util.h"

static int count_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct counting_flash *cf = ctx;

	cf->reads++;
	cf->read_bytes += len;
	return fc_flash_read(cf->inner, off, buf, len);
}

static int count_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct counting_flash *cf = ctx;

	cf->progs++;
	cf->prog_bytes += len;
	return fc_flash_prog(cf->inner, off, buf, len);
}

static int count_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct counting_flash *cf = ctx;

	cf->erases++;
	return fc_flash_erase(cf->inner, off, len);
}

void counting_flash_init(struct counting_flash *cf, const struct fc_flash *inner)
{
	cf->inner = inner;
	cf->dev.geo = inner->geo;
	cf->dev.read = count_read;
	cf->dev.prog = count_prog;
	cf->dev.erase = count_erase;
	cf->dev.ctx = cf;
	counting_flash_reset(cf);
}

void counting_flash_reset(struct counting_flash *cf)
{
	cf->reads = cf->read_bytes = cf->progs = cf->prog_bytes = cf->erases = 0;
}

void nvs_vector_value(uint8_t *buf, unsigned int i, unsigned int g, unsigned int len)
{
	uint32_t head = (uint32_t)g << 24 | i;

	for (unsigned int k = 0; k < len; k++)
		buf[k] = (uint8_t)(k < 4 ? head >> (8 * k) : g * 31 + i + k);
}
