/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_ate.c - the ATE byte layout (see nvs.h), the one place that encodes
 * and decodes it.
 */
#include "nvs_int.h"

#define ATE_CRC_BYTES 7u /* the crc8 covers id, offset, len and part */

/*
 * The codec's two halves, one copy each inlined into the decode the engine
 * links; the fields half leaves crc_ok to its caller.
 */
static FC_ALWAYS_INLINE void ate_fields(const uint8_t *b, uint8_t erase_value, struct fc_nvs_ate *a)
{
	uint8_t diff = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* id, offset, len, part, crc8: the struct's first 8 bytes, in the slot's order,
	 * copied in the loop that tells an erased slot (a compiler that does not say
	 * its byte order takes the field loads) */
	_Static_assert(offsetof(struct fc_nvs_ate, crc8) == 7, "fc_nvs_ate's fields are packed");
	for (uint32_t i = 0; i < FC_NVS_ATE_BYTES; i++) {
		((uint8_t *)a)[i] = b[i];
		diff |= (uint8_t)(b[i] ^ erase_value);
	}
#else
	a->id = fc_get_le16(b);
	a->offset = fc_get_le16(b + 2);
	a->len = fc_get_le16(b + 4);
	a->part = b[6];
	a->crc8 = b[7];
	for (uint32_t i = 0; i < FC_NVS_ATE_BYTES; i++)
		diff |= (uint8_t)(b[i] ^ erase_value);
#endif
	a->erased = !diff;
}

static FC_ALWAYS_INLINE bool ate_crc_ok(const uint8_t *b)
{
	return fc_crc8_ccitt(0xff, b, ATE_CRC_BYTES) == b[7];
}

void nvs_ate_fields_(const uint8_t *b, uint8_t erase_value, struct fc_nvs_ate *a)
{
	ate_fields(b, erase_value, a);
	a->crc_ok = false;
}

bool nvs_ate_crc_ok_(const uint8_t *b)
{
	return ate_crc_ok(b);
}

void fc_nvs_ate_decode(const uint8_t *in, uint8_t erase_value, struct fc_nvs_ate *ate)
{
	ate_fields(in, erase_value, ate);
	ate->crc_ok = ate_crc_ok(in);
}

void fc_nvs_ate_encode(uint8_t *out, uint16_t id, uint16_t offset, uint16_t len)
{
	fc_put_le16(out, id);
	fc_put_le16(out + 2, offset);
	fc_put_le16(out + 4, len);
	out[6] = FC_NVS_ATE_PART;
	out[7] = fc_crc8_ccitt(0xff, out, ATE_CRC_BYTES);
}

/*
 * part is always FC_NVS_ATE_PART (Zephyr writes nothing else): a slot whose
 * program stopped before part kept the erase value there, so on a 0x00 flash
 * a torn tail (len 0, part 0, crc 0) that passes the crc8 by chance is not
 * taken for a delete.
 */
static FC_ALWAYS_INLINE bool valid_fields(const struct fc_nvs_ate *ate, uint32_t sector_size,
					  uint32_t ate_size)
{
	return ate->crc_ok && ate->part == FC_NVS_ATE_PART &&
	       (uint32_t)ate->offset + ate->len < sector_size - ate_size;
}

/*
 * A close ATE saying 0 is torn: its offset bytes, left erased by a cut on a
 * 0x00 flash, read 0 and its crc8 matches once in 256. A sector that closes
 * right never has its lowest ATE in slot 0 (an ATE there moves the ATE
 * pointer out of the sector, Zephyr's too), and recovery finds the lowest
 * ATE by scanning, as for any torn close ATE. Checked here: what a valid
 * ATE must also hold to close a sector.
 */
static FC_ALWAYS_INLINE bool close_fields(const struct fc_nvs_ate *ate, uint32_t sector_size,
					  uint32_t ate_size)
{
	/* ate_size is 8 rounded up to a power-of-two write block */
	return ate->len == 0 && ate->id == FC_NVS_ID_SPECIAL &&
	       ((sector_size - ate->offset) & (ate_size - 1u)) == 0 && ate->offset;
}

/*
 * The public checks and the engine's, which take fs's geometry (no argument
 * loads at each call): a program links one copy of each check.
 */
bool fc_nvs_ate_valid(const struct fc_nvs_ate *ate, uint32_t sector_size, uint32_t ate_size)
{
	return valid_fields(ate, sector_size, ate_size);
}

bool nvs_ate_valid_(const struct fc_nvs *fs, const struct fc_nvs_ate *a)
{
	return valid_fields(a, ssize(fs), fs->ate_size);
}

bool fc_nvs_ate_close_valid(const struct fc_nvs_ate *ate, uint32_t sector_size,
			    uint32_t ate_size)
{
	return valid_fields(ate, sector_size, ate_size) && close_fields(ate, sector_size, ate_size);
}

bool nvs_close_valid_(const struct fc_nvs *fs, const struct fc_nvs_ate *a)
{
	return nvs_ate_valid_(fs, a) && close_fields(a, ssize(fs), fs->ate_size);
}
