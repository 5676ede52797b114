/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flash.h - flash devices: a geometry plus read/prog/erase callbacks.
 *
 * Every access goes through fc_flash_read/prog/erase, which check bounds and
 * alignment before calling the device, so a device callback only ever sees
 * valid requests. Offsets are relative to the start of the device.
 *
 * The callback contract, for a port's own device:
 * - A callback is called only with len > 0 and [off, off + len) inside the
 *   device; prog with off and len multiples of write_size, erase with
 *   multiples of erase_size.
 * - It finishes the whole request before it returns (a busy device is waited
 *   for inside the callback, e.g. with poll.h) and returns 0, or a negative
 *   FC_E* code when the request was not done: FC_EIO (a device error),
 *   FC_EPOWER, FC_ENOTERASED, FC_EWORN, FC_EROFS. A read returns 0 only with
 *   all len bytes in buf; after a failed prog or erase the bytes concerned
 *   are unknown.
 * - It never returns a positive value. A HAL that returns the byte count
 *   (as many do) must be wrapped. A positive return is a port bug: the
 *   FC_ASSERT hook fails (fc_env.h), and fc_flash_read/prog/erase return
 *   FC_EIO, so it can never pass for success.
 * - buf is the caller's only for the call; ctx is passed back unchanged.
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
	/* Callbacks follow the contract above; ctx is passed back. */
	int (*read)(void *ctx, uint32_t off, void *buf, uint32_t len);
	int (*prog)(void *ctx, uint32_t off, const void *buf, uint32_t len);
	int (*erase)(void *ctx, uint32_t off, uint32_t len);
	void *ctx;
};

/*
 * fc_flash_geometry_check - validate a geometry.
 *
 * returns:
 *	0, valid
 *	FC_EINVAL, geo NULL, a size zero, write_size not a power of two, or
 *		the units not dividing each other and the total size
 */
int fc_flash_geometry_check(const struct fc_flash_geometry *geo);

/*
 * fc_flash_read - read len bytes at off into buf (nothing when len is 0).
 *
 * returns:
 *	0, buf holds the bytes
 *	FC_ERANGE, [off, off + len) is not inside the device (no call made)
 *	FC_EIO, the device failed, or broke the contract with a positive return
 *	the device's own negative FC_E* code otherwise
 */
int fc_flash_read(const struct fc_flash *dev, uint32_t off, void *buf, uint32_t len);

/*
 * fc_flash_prog - program len bytes from buf at off; off and len must be
 * multiples of the write size (nothing happens when len is 0).
 *
 * returns:
 *	0, the bytes are programmed
 *	FC_ERANGE, outside the device (no call made)
 *	FC_EALIGN, off or len not a multiple of the write size (no call made)
 *	FC_EIO, the device failed, or broke the contract with a positive return
 *	the device's own negative FC_E* code otherwise (FC_ENOTERASED,
 *	FC_EPOWER, FC_EWORN, FC_EROFS...); the bytes concerned are unknown
 */
int fc_flash_prog(const struct fc_flash *dev, uint32_t off, const void *buf, uint32_t len);

/*
 * fc_flash_erase - erase the erase units covering [off, off + len); off and
 * len must be multiples of the erase size (nothing happens when len is 0).
 *
 * returns:
 *	0, every byte of the range reads erase_value
 *	FC_ERANGE, outside the device (no call made)
 *	FC_EALIGN, off or len not a multiple of the erase size (no call made)
 *	FC_EIO, the device failed, or broke the contract with a positive return
 *	the device's own negative FC_E* code otherwise (FC_EPOWER, FC_EWORN,
 *	FC_EROFS...); the bytes of the range are unknown
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

/*
 * fc_ram_flash_init - a RAM device over mem (geo->size bytes, used as the
 * flash until the device is no longer used; its contents are the flash's).
 *
 * returns:
 *	0, ram->dev is ready
 *	FC_EINVAL, ram or mem NULL, or a bad geometry
 */
int fc_ram_flash_init(struct fc_ram_flash *ram, const struct fc_flash_geometry *geo, void *mem);

/*
 * Read-only device over caller bytes: reads copy, prog and erase fail with
 * FC_EROFS and never touch the bytes.
 */
struct fc_rom_flash {
	struct fc_flash dev;
	const uint8_t *mem;
};

/*
 * fc_rom_flash_init - a read-only device over mem (geo->size bytes, read
 * until the device is no longer used).
 *
 * returns:
 *	0, rom->dev is ready
 *	FC_EINVAL, rom or mem NULL, or a bad geometry
 */
int fc_rom_flash_init(struct fc_rom_flash *rom, const struct fc_flash_geometry *geo,
		      const void *mem);

#endif /* FDTCACHE_FLASH_H */
