/* SPDX-License-Identifier: BSD-2-Clause */
#include "fuzz_targets.h"

#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/dt.h"
#include "fdtcache/nvs.h"
#include "fdtcache/settings.h"

#define FUZZ_MAX_IMAGE (256u * 1024u)
#define FUZZ_INDEX_SLOTS 1024u

static void violated(const char *what, int rc)
{
	fprintf(stderr, "fuzz property violated: %s (rc %d: %s)\n", what, rc, fc_strerror(rc));
	abort();
}

struct nvs_rig {
	uint8_t *mem;
	struct fc_ram_flash ram;
	struct fc_nvs_config cfg;
	struct fc_cache_slot slots[FUZZ_INDEX_SLOTS];
	struct fc_nvs fs;
};

/* Sets up geometry and configuration from the header; false if unusable. */
static bool rig_setup(struct nvs_rig *rig, const uint8_t *data, size_t size)
{
	struct fc_flash_geometry geo;
	uint32_t sector_size, wbs, count;
	size_t image;

	if (size < 3)
		return false;
	sector_size = 256u << (data[0] % 9);
	wbs = 1u << (data[1] % 6);
	image = FC_MIN(size - 3, (size_t)FUZZ_MAX_IMAGE);
	count = (uint32_t)(image / sector_size);
	if (count < 2 || wbs > sector_size / 8)
		return false;
	geo.size = count * sector_size;
	geo.erase_size = sector_size;
	geo.write_size = wbs;
	geo.erase_value = 0xff;
	rig->mem = malloc(geo.size);
	memcpy(rig->mem, data + 3, geo.size);
	if (fc_ram_flash_init(&rig->ram, &geo, rig->mem))
		violated("RAM device over a valid geometry", FC_EINVAL);
	memset(&rig->cfg, 0, sizeof(rig->cfg));
	rig->cfg.flash = &rig->ram.dev;
	rig->cfg.sector_size = sector_size;
	rig->cfg.sector_count = (uint16_t)count;
	rig->cfg.data_crc = data[2] & 1;
	rig->cfg.lookup = (data[2] & 2) ? FC_NVS_LOOKUP_ZEPHYR : FC_NVS_LOOKUP_INDEX;
	if (!(data[2] & 4)) {
		rig->cfg.index_slots = rig->slots;
		rig->cfg.index_slot_count = (data[2] & 2) ? 128 : FUZZ_INDEX_SLOTS;
	}
	return true;
}

static int settings_pair(void *ctx, const struct fc_settings_entry *e)
{
	if (e->value_read > e->value_len)
		violated("settings value longer than stored", -1);
	return 0;
}

/*
 * Whatever the image, a mount either fails cleanly or gives an fs where a
 * write that returned success reads back, also after a remount.
 */
static void exercise_mounted(struct nvs_rig *rig)
{
	static const uint8_t value[12] = { 0x5a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	uint8_t buf[64];
	struct fc_settings st;
	struct fc_settings_config scfg = { .fs = &rig->fs };
	uint16_t name_cache[64];
	int rc, wrote;

	for (uint32_t id = 0; id < 64; id++)
		fc_nvs_read(&rig->fs, (uint16_t)id, buf, sizeof(buf));
	fc_nvs_read_hist(&rig->fs, 1, buf, sizeof(buf), 1);
	fc_nvs_calc_free_space(&rig->fs);
	fc_nvs_sector_max_data_size(&rig->fs);
	scfg.cache = name_cache;
	scfg.cache_len = FC_ARRAY_SIZE(name_cache);
	if (fc_settings_init(&st, &scfg) == 0)
		fc_settings_load(&st, buf, sizeof(buf), settings_pair, NULL);

	wrote = fc_nvs_write(&rig->fs, 0x1234, value, sizeof(value));
	fc_nvs_delete(&rig->fs, 3);
	if (wrote < 0)
		return;
	rc = fc_nvs_mount(&rig->fs, &rig->cfg);
	if (rc)
		violated("remount after a successful write", rc);
	rc = fc_nvs_read(&rig->fs, 0x1234, buf, sizeof(buf));
	if (rc != (int)sizeof(value) || memcmp(buf, value, sizeof(value)))
		violated("acknowledged write reads back after remount", rc);
}

static int count_ate(void *ctx, const struct fc_nvs_ate_info *info)
{
	(*(uint32_t *)ctx)++;
	return 0;
}

int fuzz_nvs_image(const uint8_t *data, size_t size)
{
	struct nvs_rig *rig = calloc(1, sizeof(*rig));
	struct fc_nvs_walk_ops ops = { .ate = count_ate };
	uint32_t ates = 0;

	if (rig_setup(rig, data, size)) {
		fc_nvs_walk(&rig->cfg, &ops, &ates);
		if (memcmp(rig->mem, data + 3, rig->ram.dev.geo.size))
			violated("walk leaves the image unchanged", 0);
		if (fc_nvs_mount(&rig->fs, &rig->cfg) == 0)
			exercise_mounted(rig);
	}
	free(rig->mem);
	free(rig);
	return 0;
}

int fuzz_dtb(const uint8_t *data, size_t size)
{
	static const enum fc_dt_policy policies[] = { FC_DT_NONE, FC_DT_MASK, FC_DT_HASH32,
						      FC_DT_INDEX };
	void *fdt;
	int n;

	if (size < sizeof(struct fdt_header) || size > (1u << 20))
		return 0;
	fdt = malloc(size);
	memcpy(fdt, data, size);
	if (fdt_check_full(fdt, size) == 0 && (n = fc_dt_count_nodes(fdt)) > 0) {
		struct fc_dt_node *nodes = calloc((size_t)n, sizeof(*nodes));
		struct fc_dt dt;

		if (fc_dt_init(&dt, fdt, nodes, (uint32_t)n) >= 0) {
			uint32_t nslots = fc_dt_index_slots(dt.nphandles);
			struct fc_cache_slot *slots = calloc(nslots ? nslots : 1, sizeof(*slots));

			for (size_t p = 0; p < FC_ARRAY_SIZE(policies); p++) {
				struct fc_dt_replay r;

				if (fc_dt_replay_init(&r, &dt, policies[p], slots, nslots))
					continue;
				for (uint32_t i = 0; i < dt.nnodes && i < 512; i++) {
					if (i == dt.nnodes / 2)
						fc_dt_replay_core_init(&r);
					fc_dt_replay_lookup(&r, dt.nodes[i].phandle ^ (i & 1));
				}
				if (r.stats.hits + r.stats.misses != r.stats.lookups)
					violated("every lookup is a hit or a miss", 0);
			}
			free(slots);
		}
		free(nodes);
	}
	free(fdt);
	return 0;
}
