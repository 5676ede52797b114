/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flash_int.h - what the NVS and ZMS engines share about writing a log on
 * a flash device: write-block arithmetic and Zephyr's block copy.
 *
 * The helpers take the device, so one definition serves both engines'
 * handles; flash_block_move is static inline, so each engine's copy
 * calls its own program function directly.
 */
#ifndef FDTCACHE_FLASH_INT_H
#define FDTCACHE_FLASH_INT_H

#include "fdtcache/flash.h"

/* Zephyr's NVS_BLOCK_SIZE and ZMS_BLOCK_SIZE: copy and compare unit, largest write block. */
#define FLASH_BLOCK 32u

static inline uint32_t flash_wbs(const struct fc_flash *f)
{
	return f->geo.write_size;
}

/* len rounded up to the write block (a power of two). */
static inline uint32_t flash_al(const struct fc_flash *f, uint32_t len)
{
	return FC_ALIGN_UP(len, flash_wbs(f));
}

static inline uint8_t flash_erase_value(const struct fc_flash *f)
{
	return f->geo.erase_value;
}

/* Bytes a block step moves: FLASH_BLOCK, whole write blocks only. */
static inline uint32_t flash_block_step(const struct fc_flash *f)
{
	return FLASH_BLOCK & ~(flash_wbs(f) - 1u);
}

/* An engine's program of len bytes at its own address addr, padded to the
 * write block (fs is the engine's handle). */
typedef int (*flash_write_fn)(void *fs, uint32_t addr, const uint8_t *buf, uint32_t len);

/*
 * Copy len bytes at device offset src (one sector: contiguous) to the
 * engine's address *dst in Zephyr's block steps, each block written by wr;
 * *dst moves past each block written, so on an error it says how far the
 * copy got.
 */
static inline int flash_block_move(void *fs, const struct fc_flash *f, flash_write_fn wr,
				   uint32_t src, uint32_t *dst, uint32_t len)
{
	uint8_t buf[FLASH_BLOCK];
	uint32_t step = flash_block_step(f);

	while (len) {
		uint32_t n = FC_MIN(step, len);
		int rc = fc_flash_read(f, src, buf, n);

		if (!rc)
			rc = wr(fs, *dst, buf, n);
		if (rc)
			return rc;
		*dst += flash_al(f, n);
		src += n;
		len -= n;
	}
	return 0;
}

#endif /* FDTCACHE_FLASH_INT_H */
