/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/crc.h"

/*
 * Nibble-at-a-time tables: 16 entries each keep the code small enough for a
 * bootloader while running several times faster than bit-by-bit loops.
 */
static const uint8_t crc8_nibble[16] = {
	0x00, 0x07, 0x0e, 0x09, 0x1c, 0x1b, 0x12, 0x15,
	0x38, 0x3f, 0x36, 0x31, 0x24, 0x23, 0x2a, 0x2d,
};

static const uint16_t crc16_nibble[16] = {
	0x0000, 0x1081, 0x2102, 0x3183, 0x4204, 0x5285, 0x6306, 0x7387,
	0x8408, 0x9489, 0xa50a, 0xb58b, 0xc60c, 0xd68d, 0xe70e, 0xf78f,
};

static const uint32_t crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint8_t fc_crc8_ccitt(uint8_t seed, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t crc = seed;

	while (len--) {
		crc ^= *p++;
		crc = (uint8_t)((crc << 4) ^ crc8_nibble[crc >> 4]);
		crc = (uint8_t)((crc << 4) ^ crc8_nibble[crc >> 4]);
	}
	return crc;
}

uint16_t fc_crc16_ccitt(uint16_t seed, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t crc = seed;

	while (len--) {
		crc ^= *p++;
		crc = (uint16_t)((crc >> 4) ^ crc16_nibble[crc & 0x0f]);
		crc = (uint16_t)((crc >> 4) ^ crc16_nibble[crc & 0x0f]);
	}
	return crc;
}

uint32_t fc_crc32_ieee_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32_nibble[crc & 0x0f];
		crc = (crc >> 4) ^ crc32_nibble[crc & 0x0f];
	}
	return ~crc;
}

uint32_t fc_crc32_ieee(const void *buf, size_t len)
{
	return fc_crc32_ieee_update(0, buf, len);
}
