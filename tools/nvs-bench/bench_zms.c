/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_zms.h"

/*
 * Sizes as on NVS (bench_rig_index, bench_rig_ate_cache). Both ZMS variants
 * are the CONFIG_ZMS_NO_DOUBLE_WRITE build: a write first looks the id up,
 * as NVS always does, so the read counts compare like with like.
 */

bool bench_is_zms(const struct bench_perm *perm)
{
	return perm->v[BENCH_K_VARIANT] == BENCH_VARIANT_ZMS ||
	       perm->v[BENCH_K_VARIANT] == BENCH_VARIANT_ZMS_ZEPHYR;
}

static bool zephyr_zms(const struct bench_rig *rig)
{
	return rig->perm->v[BENCH_K_VARIANT] == BENCH_VARIANT_ZMS_ZEPHYR;
}

int bench_zms_mount(struct bench_rig *rig, uint32_t ids)
{
	struct fc_zms_config cfg = {
		.flash = &rig->dev,
		.sector_size = rig->sector_size,
		.sector_count = (uint32_t)rig->perm->v[BENCH_K_SECTORS],
		.data_crc = rig->perm->v[BENCH_K_DATA_CRC] != 0,
		.lookup = zephyr_zms(rig) ? FC_ZMS_LOOKUP_ZEPHYR : FC_ZMS_LOOKUP_INDEX,
	};

	cfg.index_slots = bench_rig_index(rig, zephyr_zms(rig), ids, sizeof(struct fc_zms_slot),
					  &cfg.index_slot_count);
	cfg.ate_cache_size = bench_rig_ate_cache(rig, zephyr_zms(rig));
	cfg.ate_cache = rig->ate_cache;
	cfg.read_buf = rig->read_buf; /* FC_NVS_READ_BUF_SIZE bytes: FC_ZMS_READ_BUF_SIZE too */
	cfg.read_buf_size = sizeof(rig->read_buf);
	return bench_rig_mounted(rig, fc_zms_mount(&rig->zfs, &cfg), "ZMS");
}

int bench_zms_settings(struct bench_rig *rig)
{
	return fc_settings_zms_init(&rig->zset, &rig->zfs);
}

uint32_t bench_zms_record_size(const struct bench_rig *rig)
{
	uint32_t wb = rig->write_block, ate = FC_ALIGN_UP((uint32_t)FC_ZMS_ATE_BYTES, wb);

	return ate + (rig->value_size > 8 ? FC_ALIGN_UP(rig->value_size, wb) : 0);
}

int bench_kv_write(struct bench_rig *rig, uint32_t id, const void *value, size_t len)
{
	if (bench_is_zms(rig->perm))
		return fc_zms_write(&rig->zfs, id, value, len);
	return fc_nvs_write(&rig->fs, (uint16_t)id, value, len);
}

int bench_kv_read(struct bench_rig *rig, uint32_t id, void *buf, size_t len)
{
	if (bench_is_zms(rig->perm))
		return fc_zms_read(&rig->zfs, id, buf, len);
	return fc_nvs_read(&rig->fs, (uint16_t)id, buf, len);
}

int bench_kv_delete(struct bench_rig *rig, uint32_t id)
{
	if (bench_is_zms(rig->perm))
		return fc_zms_delete(&rig->zfs, id);
	return fc_nvs_delete(&rig->fs, (uint16_t)id);
}

int bench_set_save(struct bench_rig *rig, const char *name, const void *value, size_t len)
{
	if (bench_is_zms(rig->perm))
		return fc_settings_zms_save(&rig->zset, name, value, len);
	return fc_settings_save(&rig->set, name, value, len);
}

static int count_nvs(void *ctx, const struct fc_settings_entry *e)
{
	(void)e;
	(*(uint32_t *)ctx)++;
	return 0;
}

static int count_zms(void *ctx, const struct fc_settings_zms_entry *e)
{
	(void)e;
	(*(uint32_t *)ctx)++;
	return 0;
}

int bench_set_load(struct bench_rig *rig, uint32_t *loaded)
{
	uint8_t buf[64];

	if (bench_is_zms(rig->perm))
		return fc_settings_zms_load(&rig->zset, buf, sizeof(buf), count_zms, loaded);
	return fc_settings_load(&rig->set, buf, sizeof(buf), count_nvs, loaded);
}
