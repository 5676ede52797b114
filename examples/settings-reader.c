/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings-reader - mount a Zephyr settings partition read-only and print
 * every setting, as a bootloader reads the application's settings.
 *
 * The partition is a real Zephyr image linked in as an array; a board would
 * point a struct fc_rom_flash at its memory-mapped flash instead. Output:
 * one line per setting in load order, `NAME len=N data=HEX`, then a count.
 */
#include "fdtcache/settings.h"
#include "port/port.h"

/* The image's geometry, as Zephyr's devicetree gave it. */
#define SECTOR_SIZE 4096u
#define SECTOR_COUNT 8u
#define WRITE_SIZE 4u
/* The id index holds every id on flash (255 names, their values and the
 * counter) with room to spare, so no lookup walks the flash. */
#define INDEX_SLOTS 1024u
#define NAME_CACHE 256u

extern const uint8_t example_image[], example_image_end[];

static struct fc_cache_slot index_slots[INDEX_SLOTS];
static uint16_t name_cache[NAME_CACHE];
/* Mount's scans of the ATE areas read through it: a flash read per 256
 * bytes, not per ATE slot, and no read window on the stack. */
static uint8_t read_buf[FC_NVS_READ_BUF_SIZE];

static int print_setting(void *ctx, const struct fc_settings_entry *e)
{
	uint32_t *count = ctx;

	port_puts(e->name);
	port_puts(" len=");
	port_put_dec((uint32_t)e->value_len);
	port_puts(" data=");
	port_put_bytes(e->value, e->value_read);
	port_putc('\n');
	(*count)++;
	return 0;
}

int main(void)
{
	static struct fc_rom_flash rom;
	static struct fc_nvs fs;
	static struct fc_settings settings;
	const struct fc_flash_geometry geo = {
		.size = SECTOR_SIZE * SECTOR_COUNT,
		.erase_size = SECTOR_SIZE,
		.write_size = WRITE_SIZE,
		.erase_value = 0xff,
	};
	uint8_t value[64];
	uint32_t count = 0;
	int rc;

	if ((size_t)(example_image_end - example_image) != geo.size)
		port_fail("image size", FC_EINVAL);
	rc = fc_rom_flash_init(&rom, &geo, example_image);
	if (rc < 0)
		port_fail("rom flash", rc);
	const struct fc_nvs_config cfg = {
		.flash = &rom.dev,
		.sector_size = SECTOR_SIZE,
		.sector_count = SECTOR_COUNT,
		.index_slots = index_slots,
		.index_slot_count = INDEX_SLOTS,
		.read_buf = read_buf,
		.read_buf_size = sizeof(read_buf),
	};
	rc = fc_nvs_mount(&fs, &cfg);
	if (rc < 0)
		port_fail("mount", rc);
	const struct fc_settings_config scfg = {
		.fs = &fs,
		.cache = name_cache,
		.cache_len = NAME_CACHE,
	};
	rc = fc_settings_init(&settings, &scfg);
	if (rc < 0)
		port_fail("settings init", rc);
	rc = fc_settings_load(&settings, value, sizeof(value), print_setting, &count);
	if (rc < 0)
		port_fail("settings load", rc);
	port_puts("settings: ");
	port_put_dec(count);
	port_puts(" loaded\n");
	port_flush();
	return 0;
}
