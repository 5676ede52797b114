/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/flash.h"

int fc_flash_geometry_check(const struct fc_flash_geometry *geo)
{
	if (!geo || !geo->size || !geo->erase_size || !fc_is_pow2(geo->write_size))
		return FC_EINVAL;
	/* write_size is a power of two: a mask tells a multiple of it */
	if ((geo->erase_size & (geo->write_size - 1)) || geo->size % geo->erase_size)
		return FC_EINVAL;
	return 0;
}

static bool in_bounds(const struct fc_flash *dev, uint32_t off, uint32_t len)
{
	return off <= dev->geo.size && len <= dev->geo.size - off;
}

/*
 * A callback's result under the contract: 0 or a negative code. A positive
 * value (a HAL's byte count) is a port bug that must not pass for success.
 */
static int device_result(int rc)
{
	FC_ASSERT(rc <= 0);
	return rc > 0 ? FC_EIO : rc;
}

int fc_flash_read(const struct fc_flash *dev, uint32_t off, void *buf, uint32_t len)
{
	if (!in_bounds(dev, off, len))
		return FC_ERANGE;
	return len ? device_result(dev->read(dev->ctx, off, buf, len)) : 0;
}

int fc_flash_prog(const struct fc_flash *dev, uint32_t off, const void *buf, uint32_t len)
{
	if (!in_bounds(dev, off, len))
		return FC_ERANGE;
	if ((off | len) & (dev->geo.write_size - 1))
		return FC_EALIGN;
	return len ? device_result(dev->prog(dev->ctx, off, buf, len)) : 0;
}

int fc_flash_erase(const struct fc_flash *dev, uint32_t off, uint32_t len)
{
	if (!in_bounds(dev, off, len))
		return FC_ERANGE;
	if (off % dev->geo.erase_size || len % dev->geo.erase_size)
		return FC_EALIGN;
	return len ? device_result(dev->erase(dev->ctx, off, len)) : 0;
}

static int ram_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	const struct fc_ram_flash *ram = ctx;

	FC_MEMCPY(buf, ram->mem + off, len);
	return 0;
}

static int ram_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct fc_ram_flash *ram = ctx;

	FC_MEMCPY(ram->mem + off, buf, len);
	return 0;
}

static int ram_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct fc_ram_flash *ram = ctx;

	FC_MEMSET(ram->mem + off, ram->dev.geo.erase_value, len);
	return 0;
}

/* A device over geo passing ctx back (the callbacks set by the caller). */
static void device_init(struct fc_flash *dev, const struct fc_flash_geometry *geo, void *ctx)
{
	dev->geo = *geo;
	dev->ctx = ctx;
}

int fc_ram_flash_init(struct fc_ram_flash *ram, const struct fc_flash_geometry *geo, void *mem)
{
	if (!ram || !mem || fc_flash_geometry_check(geo))
		return FC_EINVAL;
	ram->mem = mem;
	ram->dev.read = ram_read;
	ram->dev.prog = ram_prog;
	ram->dev.erase = ram_erase;
	device_init(&ram->dev, geo, ram);
	return 0;
}

static int rom_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	const struct fc_rom_flash *rom = ctx;

	FC_MEMCPY(buf, rom->mem + off, len);
	return 0;
}

static int rom_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	(void)ctx, (void)off, (void)buf, (void)len;
	return FC_EROFS;
}

static int rom_erase(void *ctx, uint32_t off, uint32_t len)
{
	(void)ctx, (void)off, (void)len;
	return FC_EROFS;
}

int fc_rom_flash_init(struct fc_rom_flash *rom, const struct fc_flash_geometry *geo,
		      const void *mem)
{
	if (!rom || !mem || fc_flash_geometry_check(geo))
		return FC_EINVAL;
	rom->mem = mem;
	rom->dev.read = rom_read;
	rom->dev.prog = rom_prog;
	rom->dev.erase = rom_erase;
	device_init(&rom->dev, geo, rom);
	return 0;
}
