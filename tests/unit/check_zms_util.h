/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers of the zms check suites: the Zephyr vectors' expect files and devices. */
#ifndef FDTCACHE_CHECK_ZMS_UTIL_H
#define FDTCACHE_CHECK_ZMS_UTIL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "check_nvs_util.h"
#include "fdtcache/flash_sim.h"
#include "fdtcache/zms.h"

#define ZMS_VEC_DIR "fixtures/zms/zephyr"

struct zms_entry {
	uint64_t id;
	uint32_t len;
	uint8_t data[1024];
};

struct zms_setting {
	char name[64];
	uint32_t len;
	uint8_t data[64];
};

/* What a vector's NAME.expect.txt says. */
struct zms_expect {
	unsigned int sector_size, sectors, wbs, page, cache;
	bool crc, id64, ndw, no_erase;
	unsigned int ate_sector, ate_off, data_sector, data_off, cycle;
	int free_space, active_free;
	unsigned int mount_progs, mount_erases;
	GArray *entries;  /* struct zms_entry, sorted by id */
	GArray *settings; /* struct zms_setting, in delivery order */
};

void zms_expect_load(const char *name, struct zms_expect *e);
void zms_expect_free(struct zms_expect *e);

/* A RAM copy of a vector (or a blank device), counted. */
struct zms_dev {
	uint8_t *mem;
	size_t size;
	struct fc_ram_flash ram;
	struct counting_flash cnt;
	struct fc_zms_slot slots[1024];
	uint8_t ate_cache[256];
	uint8_t read_buf[FC_ZMS_READ_BUF_SIZE]; /* the configuration's scan buffer */
};

/* Load NAME.bin (NULL name: a blank device of the expect's geometry). */
struct zms_dev *zms_dev_new(const char *name, const struct zms_expect *e);
void zms_dev_free(struct zms_dev *d);

/* The engine's configuration for the expect's build. */
struct fc_zms_config zms_dev_config(struct zms_dev *d, const struct zms_expect *e,
				    enum fc_zms_lookup lookup, uint32_t slots);

/* A blank strict NOR simulator of the expect's geometry (refuses double programs). */
struct zms_sim {
	uint8_t mem[32768];
	struct fc_flash_sim_unit units[8];
	struct fc_flash_sim sim;
};

void zms_sim_init(struct zms_sim *zs, const struct zms_expect *e);

/* Fail unless the size bytes at got are NAME.bin's. */
void zms_assert_image(const char *name, const uint8_t *got, size_t size);

#endif
