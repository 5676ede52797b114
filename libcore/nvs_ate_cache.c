/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_ate_cache.c - the caller's optional ATE cache (cfg.ate_cache): two
 * aligned windows of ATE areas, least recently used refilled, kept equal to
 * flash by every program and erase. FC_NO_ATE_CACHE leaves it out.
 */
#include "nvs_int.h"

#ifndef FC_NO_ATE_CACHE

static uint32_t way_size(const struct fc_nvs *fs)
{
	return fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS;
}

static uint8_t *way_buf(const struct fc_nvs *fs, uint32_t way)
{
	return fs->cfg.ate_cache + way * way_size(fs);
}

/*
 * The ATE cache mirrors flash: a program stores its bytes as they are (the
 * engine only programs erased bytes), a failed one leaves them unknown.
 */
void nvs_ate_cache_programmed_(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len,
			       int rc)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++) {
		uint32_t lo = fs->ate_cache[way].addr, hi = lo + fs->ate_cache[way].len;
		uint32_t from = FC_MAX(addr, lo), to = FC_MIN(addr + len, hi);

		if (from >= to)
			continue;
		if (rc)
			fs->ate_cache[way].len = 0;
		else
			FC_MEMCPY(way_buf(fs, way) + (from - lo),
				  (const uint8_t *)buf + (from - addr), to - from);
	}
}

void nvs_ate_cache_erased_(struct fc_nvs *fs, uint32_t s)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++)
		if (sect(fs->ate_cache[way].addr) == s)
			fs->ate_cache[way].len = 0;
}

_Static_assert(FC_NVS_ATE_CACHE_WAYS == 2, "the other way is way ^ 1");

/*
 * An ATE through the caller's cache: the way holding it (only one can: a
 * way reads its aligned window when neither holds the slot), else the
 * least recently used way reads its window.
 */
int nvs_cached_ate_read_(struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a)
{
	uint32_t way = fs->ate_cache_lru;
	int rc;

	if (!fs->cfg.ate_cache_size)
		return nvs_ate_read_(fs, addr, a);
	if (nvs_win_holds_(&fs->ate_cache[way ^ 1u], addr))
		way ^= 1u;
	rc = nvs_win_get_(fs, &fs->ate_cache[way], addr, false);
	if (rc)
		return rc;
	fs->ate_cache_lru = way ^ 1u;
	/* a way's window starts at a multiple of its size */
	fc_nvs_ate_decode(way_buf(fs, way) + (offs(addr) & (way_size(fs) - 1u)), erase_value(fs), a);
	return 0;
}

#endif /* FC_NO_ATE_CACHE */
