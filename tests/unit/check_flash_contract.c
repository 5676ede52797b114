/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The flash callback contract (flash.h), with libcore's flash layer built
 * under a port's FC_CONFIG whose FC_ASSERT counts: a device returning byte
 * counts, as many HALs do, is caught by the assert and never passes for
 * success; nvs mounted over it fails with FC_EIO and stays unmounted.
 */
#include "check_util.h"

#include <string.h>

#include "fdtcache/flash.h"
#include "fdtcache/nvs.h"

unsigned int check_assert_failures;

/* A HAL-style device over RAM: each call returns what it is told to. */
struct hal {
	struct fc_flash dev;
	uint8_t mem[4 * 1024];
	int result; /* returned by every callback; 1 = the byte count */
};

static int hal_result(const struct hal *h, uint32_t len)
{
	return h->result == 1 ? (int)len : h->result;
}

static int hal_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct hal *h = ctx;

	memcpy(buf, h->mem + off, len);
	return hal_result(h, len);
}

static int hal_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct hal *h = ctx;

	memcpy(h->mem + off, buf, len);
	return hal_result(h, len);
}

static int hal_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct hal *h = ctx;

	memset(h->mem + off, 0xff, len);
	return hal_result(h, len);
}

static void hal_init(struct hal *h, int result)
{
	memset(h, 0, sizeof(*h));
	memset(h->mem, 0xff, sizeof(h->mem));
	h->dev.geo = (struct fc_flash_geometry){
		.size = sizeof(h->mem), .erase_size = 1024, .write_size = 4, .erase_value = 0xff,
	};
	h->dev.read = hal_read;
	h->dev.prog = hal_prog;
	h->dev.erase = hal_erase;
	h->dev.ctx = h;
	h->result = result;
}

START_TEST(byte_counts_are_port_bugs)
{
	static struct hal h;
	uint8_t buf[8] = { 0 };

	hal_init(&h, 1);
	check_assert_failures = 0;
	ck_assert_int_eq(fc_flash_read(&h.dev, 0, buf, 8), FC_EIO);
	ck_assert_int_eq(fc_flash_prog(&h.dev, 0, buf, 8), FC_EIO);
	ck_assert_int_eq(fc_flash_erase(&h.dev, 0, 1024), FC_EIO);
	ck_assert_uint_eq(check_assert_failures, 3);
	/* no call for an empty request, and so nothing to assert */
	ck_assert_int_eq(fc_flash_read(&h.dev, 0, buf, 0), 0);
	ck_assert_uint_eq(check_assert_failures, 3);
}
END_TEST

START_TEST(contract_results_pass_through)
{
	static struct hal h;
	uint8_t buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	hal_init(&h, 0);
	check_assert_failures = 0;
	ck_assert_int_eq(fc_flash_prog(&h.dev, 8, buf, 8), 0);
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(fc_flash_read(&h.dev, 8, buf, 8), 0);
	ck_assert_uint_eq(buf[7], 8);
	ck_assert_int_eq(fc_flash_erase(&h.dev, 0, 1024), 0);
	h.result = FC_EPOWER;
	ck_assert_int_eq(fc_flash_read(&h.dev, 0, buf, 8), FC_EPOWER);
	h.result = FC_ENOTERASED;
	ck_assert_int_eq(fc_flash_prog(&h.dev, 0, buf, 8), FC_ENOTERASED);
	ck_assert_uint_eq(check_assert_failures, 0);
}
END_TEST

START_TEST(nvs_over_a_byte_count_device)
{
	static struct hal h;
	struct fc_cache_slot slots[16];
	struct fc_nvs fs;
	struct fc_nvs_config cfg = {
		.sector_size = 1024, .sector_count = 4, .lookup = FC_NVS_LOOKUP_INDEX,
		.index_slots = slots, .index_slot_count = 16,
	};
	uint8_t v[4];

	hal_init(&h, 1);
	cfg.flash = &h.dev;
	check_assert_failures = 0;
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), FC_EIO);
	ck_assert(!fs.mounted);
	ck_assert_int_eq(fc_nvs_read(&fs, 1, v, sizeof(v)), FC_ENOTMOUNTED);
	ck_assert_uint_eq(check_assert_failures, 1); /* the first read stops the mount */
	/* the same device, fixed, mounts */
	h.result = 0;
	ck_assert_int_eq(fc_nvs_mount(&fs, &cfg), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flash_contract");
	TCase *tc = tcase_create("callbacks");

	tcase_add_test(tc, byte_counts_are_port_bugs);
	tcase_add_test(tc, contract_results_pass_through);
	tcase_add_test(tc, nvs_over_a_byte_count_device);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
