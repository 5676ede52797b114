/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the nvs check suites and the power-loss test. */
#ifndef FDTCACHE_CHECK_NVS_UTIL_H
#define FDTCACHE_CHECK_NVS_UTIL_H

#include <stdint.h>

#include "fdtcache/flash.h"

/* A device that forwards to another and counts every call and byte. */
struct counting_flash {
	struct fc_flash dev;
	const struct fc_flash *inner;
	uint32_t reads, read_bytes, progs, prog_bytes, erases;
};

void counting_flash_init(struct counting_flash *cf, const struct fc_flash *inner);
void counting_flash_reset(struct counting_flash *cf);

/*
 * The value of entry i in generation g of the vectors' workloads
 * (fixtures/nvs/zephyr/README.md): the LE u32 (g << 24) | i, then bytes
 * g * 31 + i + k for k >= 4.
 */
void nvs_vector_value(uint8_t *buf, unsigned int i, unsigned int g, unsigned int len);

#endif
