/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * crc.h - the checksums of the on-flash formats.
 *
 * Each function continues a running checksum from `seed`, so a buffer may be
 * processed in pieces.
 */
#ifndef FDTCACHE_CRC_H
#define FDTCACHE_CRC_H

#include "fc_env.h"

/*
 * fc_crc8_ccitt - CRC-8, polynomial 0x07, MSB first, no final xor
 * (Zephyr's crc8_ccitt), of len bytes at buf from seed. NVS ATEs use seed
 * 0xff over their first 7 bytes.
 *
 * returns: the CRC (seed when len is 0).
 */
uint8_t fc_crc8_ccitt(uint8_t seed, const void *buf, size_t len);

/*
 * fc_crc16_ccitt - CRC-16, polynomial 0x1021 reflected (0x8408), LSB first,
 * no final xor (Zephyr's crc16_ccitt), of len bytes at buf from seed. With
 * seed 0xffff this is CRC-16/MCRF4XX, the hash of Zephyr's settings name
 * cache.
 *
 * returns: the CRC (seed when len is 0).
 */
uint16_t fc_crc16_ccitt(uint16_t seed, const void *buf, size_t len);

/*
 * fc_crc32_ieee_update - CRC-32 as zlib (reflected 0xEDB88320, init and
 * final xor 0xffffffff) of len bytes at buf, continuing crc: start with
 * crc = 0, pass the previous result to continue.
 *
 * returns: the CRC of everything so far (crc when len is 0).
 */
uint32_t fc_crc32_ieee_update(uint32_t crc, const void *buf, size_t len);

/*
 * fc_crc32_ieee - the CRC-32 of len bytes at buf, as zlib's crc32(0, ...);
 * fc_crc32_ieee_update(0, buf, len).
 *
 * returns: the CRC (0 when len is 0).
 */
uint32_t fc_crc32_ieee(const void *buf, size_t len);

#endif /* FDTCACHE_CRC_H */
