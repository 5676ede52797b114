/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz targets over libcore's input parsers. Each takes arbitrary bytes and
 * returns 0; a property violation aborts (so libFuzzer and the replay driver
 * both report it), and memory errors are left to the sanitizers.
 */
#ifndef FDTCACHE_FUZZ_TARGETS_H
#define FDTCACHE_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/*
 * NVS image: byte 0 picks the sector size (256 << (b % 9)), byte 1 the write
 * block (1 << (b % 6)), byte 2 the options (bit 0 data CRC, bit 1 Zephyr
 * lookup, bit 2 no index); the rest is the partition, cut to whole sectors.
 */
int fuzz_nvs_image(const uint8_t *data, size_t size);

/* A device tree blob: index it, replay lookups under every policy. */
int fuzz_dtb(const uint8_t *data, size_t size);

#endif
