/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ATE codec as a compiler that does not say its byte order builds it
 * (nvs_ate.c's field loads, not its 8-byte copy) decodes every slot as the
 * library does: each 8-byte slot of the Zephyr vectors, every slot
 * fc_nvs_ate_encode writes, and pseudo-random bytes, under both erase
 * values.
 */
#undef __BYTE_ORDER__
#define fc_nvs_ate_decode portable_ate_decode
#define fc_nvs_ate_encode portable_ate_encode
#define fc_nvs_ate_valid portable_ate_valid
#define fc_nvs_ate_close_valid portable_ate_close_valid
#define nvs_ate_fields_ portable_ate_fields
#define nvs_ate_crc_ok_ portable_ate_crc_ok
#define nvs_ate_valid_ portable_ate_valid_fs
#include "nvs_ate.c"
#undef fc_nvs_ate_decode
#undef fc_nvs_ate_encode

#include <check.h>
#include <glib.h>
#include <string.h>

/* the library's codec: nvs.h was read above under the portable names */
void fc_nvs_ate_decode(const uint8_t *in, uint8_t erase_value, struct fc_nvs_ate *ate);
void fc_nvs_ate_encode(uint8_t *out, uint16_t id, uint16_t offset, uint16_t len);

#include "check_util.h"

static const char *const vectors[] = {
	"fixtures/nvs/zephyr/nvs_rpl_2pass.bin", "fixtures/nvs/zephyr/settings_rpl.bin",
	"fixtures/nvs/zephyr/nvs_cut_close.bin", "fixtures/nvs/zephyr/nvs_small_wbs1.bin",
};

static void same_decode(const uint8_t *slot)
{
	for (int ev = 0; ev < 2; ev++) {
		struct fc_nvs_ate lib, port;

		memset(&lib, 0xa5, sizeof(lib));
		memset(&port, 0x5a, sizeof(port));
		fc_nvs_ate_decode(slot, ev ? 0xff : 0x00, &lib);
		portable_ate_decode(slot, ev ? 0xff : 0x00, &port);
		ck_assert_uint_eq(lib.id, port.id);
		ck_assert_uint_eq(lib.offset, port.offset);
		ck_assert_uint_eq(lib.len, port.len);
		ck_assert_uint_eq(lib.part, port.part);
		ck_assert_uint_eq(lib.crc8, port.crc8);
		ck_assert_int_eq(lib.crc_ok, port.crc_ok);
		ck_assert_int_eq(lib.erased, port.erased);
		ck_assert_uint_eq(port.id, fc_get_le16(slot));
		ck_assert_uint_eq(port.len, fc_get_le16(slot + 4));
	}
}

START_TEST(portable_decode_vector_slots)
{
	size_t len;
	uint8_t *img = fc_check_load(vectors[_i], &len);

	for (size_t at = 0; at + FC_NVS_ATE_BYTES <= len; at += FC_NVS_ATE_BYTES)
		same_decode(img + at);
	g_free(img);
}
END_TEST

START_TEST(portable_decode_encoded_and_random)
{
	uint8_t slot[FC_NVS_ATE_BYTES], mine[FC_NVS_ATE_BYTES];
	uint32_t x = 0x9e3779b9u;

	for (uint32_t i = 0; i < 20000; i++) {
		fc_nvs_ate_encode(slot, (uint16_t)(i * 7919u), (uint16_t)i, (uint16_t)(i >> 3));
		portable_ate_encode(mine, (uint16_t)(i * 7919u), (uint16_t)i, (uint16_t)(i >> 3));
		ck_assert_mem_eq(slot, mine, sizeof(slot));
		same_decode(slot);
		for (uint32_t k = 0; k < sizeof(slot); k++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			slot[k] = (uint8_t)x;
		}
		same_decode(slot);
	}
	memset(slot, 0xff, sizeof(slot));
	same_decode(slot);
	memset(slot, 0x00, sizeof(slot));
	same_decode(slot);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("nvs_ate_portable");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, portable_decode_vector_slots, 0, (int)FC_ARRAY_SIZE(vectors));
	tcase_add_test(tc, portable_decode_encoded_and_random);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
