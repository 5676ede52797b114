/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flash.h - flash devices: a geometry plus read/prog/erase callbacks.
 *
 * Every access goes through fc_flash_read/prog/erase, which check bounds and
 * alignment before calling the device, so a device callback only ever sees
 * valid requests. Offsets are relative to the start of the device.
 */
#ifndef FDTCACHE_FLASH_H
#define FDTCACHE_FLASH_H

#include "fc_env.h"
#include "fc_err.h"

struct fc_flash_geometry {
	uint32_t size;       /* total bytes, a multiple of erase_size */
	uint32_t erase_size; /* erase unit (page, sector or block) in bytes */
	uint32_t write_size; /* program unit in bytes, a power of two <= erase_size */
	uint8_t erase_value; /* value of every byte after an erase (0xff for NOR) */
};

struct fc_flash {
	struct fc_flash_geometry geo;
	/* Callbacks return 0 or a negative FC_E* code; ctx is passed back. */
	int (*read)(void *ctx, uint32_t off, void *buf, uint32_t len);
	int (*prog)(void *ctx, uint32_t off, const void *buf, uint32_t len);
	int (*erase)(void *ctx, uint32_t off, uint32_t len);
	void *ctx;
};

/*
 * fc_flash_geometry_check - validate a geometry.
 * Returns 0, or FC_EINVAL when a size is zero, write_size is not a power of
 * two, or the units do not divide each other and the total size.
 */
int fc_flash_geometry_check(const struct fc_flash_geometry *geo);

/*
 * fc_flash_read - read len bytes at off.
 * Returns 0; FC_ERANGE outside the device; or the device's error.
 */
int fc_flash_read(const struct fc_flash *dev, uint32_t off, void *buf, uint32_t len);

/*
 * fc_flash_prog - program len bytes at off; off and len must be multiples of
 * the write size. Returns 0; FC_ERANGE; FC_EALIGN; or the device's error
 * (FC_ENOTERASED, FC_EIO, FC_EPOWER, FC_EROFS...).
 */
int fc_flash_prog(const struct fc_flash *dev, uint32_t off, const void *buf, uint32_t len);

/*
 * fc_flash_erase - erase the erase units covering [off, off + len); off and
 * len must be multiples of the erase size. Returns 0; FC_ERANGE; FC_EALIGN;
 * or the device's error.
 */
int fc_flash_erase(const struct fc_flash *dev, uint32_t off, uint32_t len);

/*
 * RAM device over caller memory of geo->size bytes: prog and erase are
 * plain copies and fills (no NOR rules, no counters), for speed.
 */
struct fc_ram_flash {
	struct fc_flash dev;
	uint8_t *mem;
};

/* Returns 0, or FC_EINVAL for a bad geometry or NULL memory. */
int fc_ram_flash_init(struct fc_ram_flash *ram, const struct fc_flash_geometry *geo, void *mem);

/*
 * Read-only device over caller bytes: reads copy, prog and erase fail with
 * FC_EROFS and never touch the bytes.
 */
struct fc_rom_flash {
	struct fc_flash dev;
	const uint8_t *mem;
};

/* Returns 0, or FC_EINVAL for a bad geometry or NULL memory. */
int fc_rom_flash_init(struct fc_rom_flash *rom, const struct fc_flash_geometry *geo,
		      const void *mem);

#endif /* FDTCACHE_FLASH_H */
