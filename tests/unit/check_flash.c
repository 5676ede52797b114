/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include <string.h>

#include "fdtcache/flash.h"

static const struct fc_flash_geometry geo4k = {
	.size = 4 * 1024, .erase_size = 1024, .write_size = 4, .erase_value = 0xff,
};

START_TEST(geometry_check)
{
	struct fc_flash_geometry g = geo4k;

	ck_assert_int_eq(fc_flash_geometry_check(&g), 0);
	g.write_size = 3;
	ck_assert_int_eq(fc_flash_geometry_check(&g), FC_EINVAL);
	g = geo4k;
	g.size = 4000;
	ck_assert_int_eq(fc_flash_geometry_check(&g), FC_EINVAL);
	g = geo4k;
	g.erase_size = 0;
	ck_assert_int_eq(fc_flash_geometry_check(&g), FC_EINVAL);
	ck_assert_int_eq(fc_flash_geometry_check(NULL), FC_EINVAL);
}
END_TEST

START_TEST(ram_device_roundtrip_and_checks)
{
	static uint8_t mem[4096];
	struct fc_ram_flash ram;
	const struct fc_flash *dev = &ram.dev;
	uint8_t buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[8];

	ck_assert_int_eq(fc_ram_flash_init(&ram, &geo4k, NULL), FC_EINVAL);
	ck_assert_int_eq(fc_ram_flash_init(&ram, &geo4k, mem), 0);
	ck_assert_int_eq(fc_flash_erase(dev, 0, 4096), 0);
	ck_assert_int_eq(fc_flash_prog(dev, 8, buf, 8), 0);
	ck_assert_int_eq(fc_flash_read(dev, 8, out, 8), 0);
	ck_assert_mem_eq(out, buf, 8);
	ck_assert_uint_eq(mem[7], 0xff);
	/* misaligned program and erase */
	ck_assert_int_eq(fc_flash_prog(dev, 2, buf, 4), FC_EALIGN);
	ck_assert_int_eq(fc_flash_prog(dev, 4, buf, 3), FC_EALIGN);
	ck_assert_int_eq(fc_flash_erase(dev, 512, 1024), FC_EALIGN);
	ck_assert_int_eq(fc_flash_erase(dev, 0, 1000), FC_EALIGN);
	/* out of bounds, including wrap-around of off + len */
	ck_assert_int_eq(fc_flash_read(dev, 4090, out, 8), FC_ERANGE);
	ck_assert_int_eq(fc_flash_read(dev, UINT32_MAX - 2, out, 8), FC_ERANGE);
	ck_assert_int_eq(fc_flash_prog(dev, 4096, buf, 4), FC_ERANGE);
	ck_assert_int_eq(fc_flash_erase(dev, 4096, 1024), FC_ERANGE);
	ck_assert_int_eq(fc_flash_read(dev, 4096, out, 0), 0);
	ck_assert_int_eq(fc_flash_erase(dev, 0, 1024), 0);
	ck_assert_uint_eq(mem[8], 0xff);
}
END_TEST

START_TEST(rom_device_never_writes)
{
	uint8_t mem[4096];
	struct fc_rom_flash rom;
	uint8_t out[4];

	memset(mem, 0x5a, sizeof(mem));
	ck_assert_int_eq(fc_rom_flash_init(&rom, &geo4k, mem), 0);
	ck_assert_int_eq(fc_flash_read(&rom.dev, 100, out, 4), 0);
	ck_assert_uint_eq(out[3], 0x5a);
	ck_assert_int_eq(fc_flash_prog(&rom.dev, 0, out, 4), FC_EROFS);
	ck_assert_int_eq(fc_flash_erase(&rom.dev, 0, 1024), FC_EROFS);
	ck_assert_uint_eq(mem[0], 0x5a);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("flash");
	TCase *tc = tcase_create("devices");

	tcase_add_test(tc, geometry_check);
	tcase_add_test(tc, ram_device_roundtrip_and_checks);
	tcase_add_test(tc, rom_device_never_writes);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
