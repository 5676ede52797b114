/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * count-divisions - the run-time divisions libcore makes on a Cortex-M0+,
 * which has no divider: each is a call to a libgcc helper, counted by the
 * wrappers of count-divisions.S. Two Zephyr settings images of the same
 * geometry but different histories are mounted with the id index full,
 * small (most ids walk the flash) and absent, and the divisions of the
 * mount, a settings load, a settings get and an nvs read are counted.
 *
 * Passes (exit 0) when no load, get or read divides, and every mount
 * makes the same number of divisions, at most MOUNT_MAX: a per-mount
 * constant (the geometry's checks), not a cost per ATE (the images differ
 * in ATEs) or per sector (MOUNT_MAX is below their 8 sectors).
 */
#include "fdtcache/settings.h"
#include "port/port.h"

#define SECTOR_SIZE 4096u
#define SECTOR_COUNT 8u
#define IMAGE_SIZE (SECTOR_SIZE * SECTOR_COUNT)
#define MOUNT_MAX 7u
#define HELPERS 6u

/* Calls per helper, in the order of count-divisions.S's wrappers (the
 * port's printing divides too: only libcore's calls are tallied). */
uint32_t div_calls[HELPERS];
static uint32_t libcore_calls[HELPERS];
static uint32_t phase_start[HELPERS];
static const char *const helper_names[HELPERS] = {
	"__aeabi_uidiv", "__aeabi_uidivmod", "__aeabi_idiv",
	"__aeabi_idivmod", "__aeabi_uldivmod", "__aeabi_ldivmod",
};

extern const uint8_t image_a[], image_b[], image_b_end[];

struct run {
	const char *image_name;
	const uint8_t *image;
	uint32_t index_slots; /* 0 or a power of two */
	uint32_t name_cache;
};

static struct fc_cache_slot slots[1024];
static uint16_t names[256];

struct loaded {
	uint32_t count;
	char first[FC_SETTINGS_NAME_MAX + 1];
};

static void phase_begin(void)
{
	for (unsigned int i = 0; i < HELPERS; i++)
		phase_start[i] = div_calls[i];
}

/* The divisions since phase_begin(), added to libcore_calls[]. */
static uint32_t phase_end(void)
{
	uint32_t n = 0;

	for (unsigned int i = 0; i < HELPERS; i++) {
		libcore_calls[i] += div_calls[i] - phase_start[i];
		n += div_calls[i] - phase_start[i];
	}
	return n;
}

static int keep_first(void *ctx, const struct fc_settings_entry *e)
{
	struct loaded *l = ctx;

	if (!l->count++)
		for (size_t i = 0; i <= e->name_len; i++)
			l->first[i] = e->name[i];
	return 0;
}

static void put_count(const char *what, uint32_t n)
{
	port_puts(what);
	port_put_dec(n);
}

/* One run; returns the mount's divisions, and adds the others to *later. */
static uint32_t count_run(const struct run *r, uint32_t *later)
{
	static struct fc_rom_flash rom;
	static struct fc_nvs fs;
	static struct fc_settings settings;
	const struct fc_flash_geometry geo = {
		.size = IMAGE_SIZE, .erase_size = SECTOR_SIZE, .write_size = 4, .erase_value = 0xff,
	};
	struct loaded l = { 0 };
	uint8_t value[64];
	uint32_t mount, load, get, read;
	int rc;

	const struct fc_nvs_config cfg = { .flash = &rom.dev, .sector_size = SECTOR_SIZE,
		.sector_count = SECTOR_COUNT, .index_slots = r->index_slots ? slots : NULL,
		.index_slot_count = r->index_slots };
	const struct fc_settings_config scfg = { .fs = &fs,
		.cache = r->name_cache ? names : NULL, .cache_len = r->name_cache };

	rc = fc_rom_flash_init(&rom, &geo, r->image);
	if (rc < 0)
		port_fail("rom flash", rc);
	phase_begin();
	rc = fc_nvs_mount(&fs, &cfg);
	mount = phase_end();
	if (rc < 0)
		port_fail("mount", rc);
	rc = fc_settings_init(&settings, &scfg);
	if (rc < 0)
		port_fail("settings init", rc);
	phase_begin();
	rc = fc_settings_load(&settings, value, sizeof(value), keep_first, &l);
	load = phase_end();
	if (rc < 0)
		port_fail("settings load", rc);
	phase_begin();
	rc = fc_settings_get(&settings, l.first, value, sizeof(value));
	get = phase_end();
	if (rc < 0)
		port_fail("settings get", rc);
	phase_begin();
	rc = fc_nvs_read(&fs, FC_SETTINGS_ID_NAME_FIRST, value, sizeof(value));
	read = phase_end();
	if (rc < 0)
		port_fail("nvs read", rc);

	port_puts(r->image_name);
	put_count(", index ", r->index_slots);
	put_count(" slots, name cache ", r->name_cache);
	put_count(": mount ", mount);
	put_count(", settings load ", load);
	put_count(" (", l.count);
	put_count(" settings), get ", get);
	put_count(", nvs read ", read);
	port_puts(" divisions\n");
	*later += load + get + read;
	return mount;
}

int main(void)
{
	static const struct run runs[] = {
		{ "settings_rpl", image_a, 1024, 256 },
		{ "settings_rpl", image_a, 16, 16 },
		{ "settings_rpl", image_a, 0, 0 },
		{ "settings_rpl_wrapped", image_b, 1024, 256 },
		{ "settings_rpl_wrapped", image_b, 16, 16 },
		{ "settings_rpl_wrapped", image_b, 0, 0 },
	};
	uint32_t later = 0, first_mount = 0;
	bool same = true;

	if ((size_t)(image_b - image_a) != IMAGE_SIZE || (size_t)(image_b_end - image_b) != IMAGE_SIZE)
		port_fail("image size", FC_EINVAL);
	for (unsigned int i = 0; i < FC_ARRAY_SIZE(runs); i++) {
		uint32_t mount = count_run(&runs[i], &later);

		if (!i)
			first_mount = mount;
		same = same && mount == first_mount;
	}
	port_puts("libcore called:");
	for (unsigned int i = 0; i < HELPERS; i++)
		if (libcore_calls[i]) {
			port_putc(' ');
			port_puts(helper_names[i]);
			put_count(" x", libcore_calls[i]);
		}
	port_putc('\n');
	if (!same || first_mount > MOUNT_MAX || later) {
		put_count("FAIL: divisions outside the mount: ", later);
		put_count("; every mount the same, at most ", MOUNT_MAX);
		port_puts(same && first_mount <= MOUNT_MAX ? ": yes\n" : ": no\n");
		return 1;
	}
	put_count("ok: no division in loads, gets or reads; ", first_mount);
	put_count(" per mount (at most ", MOUNT_MAX);
	port_puts(")\n");
	return 0;
}
