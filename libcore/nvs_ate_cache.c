/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_ate_cache.c - the caller's optional ATE cache (cfg.ate_cache): two
 * aligned windows of ATE areas, least recently used refilled, kept equal to
 * flash by every program and erase. FC_NO_ATE_CACHE leaves it out.
 */
#include "nvs_int.h"

#ifndef FC_NO_ATE_CACHE

static uint8_t *way_buf(const struct fc_nvs *fs, uint32_t way)
{
	return fs->cfg.ate_cache + way * (fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS);
}

/*
 * The ATE cache mirrors flash: a program stores its bytes as they are (the
 * engine only programs erased bytes), a failed one leaves them unknown.
 */
void nvs_ate_cache_programmed_(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len,
			       int rc)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++) {
		uint32_t lo = fs->ate_cache_addr[way], hi = lo + fs->ate_cache_len[way];
		uint32_t from = FC_MAX(addr, lo), to = FC_MIN(addr + len, hi);

		if (from >= to)
			continue;
		if (rc)
			fs->ate_cache_len[way] = 0;
		else
			FC_MEMCPY(way_buf(fs, way) + (from - lo),
				  (const uint8_t *)buf + (from - addr), to - from);
	}
}

void nvs_ate_cache_erased_(struct fc_nvs *fs, uint32_t s)
{
	for (uint32_t way = 0; way < FC_NVS_ATE_CACHE_WAYS; way++)
		if (sect(fs->ate_cache_addr[way]) == s)
			fs->ate_cache_len[way] = 0;
}

static bool way_holds(const struct fc_nvs *fs, uint32_t way, uint32_t addr)
{
	uint32_t lo = fs->ate_cache_addr[way];

	return fs->ate_cache_len[way] && sect(lo) == sect(addr) && addr >= lo &&
	       addr + FC_NVS_ATE_BYTES <= lo + fs->ate_cache_len[way];
}

/* An ATE through the caller's cache: on a miss, its aligned window is read. */
int nvs_cached_ate_read_(struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a)
{
	uint32_t size = fs->cfg.ate_cache_size / FC_NVS_ATE_CACHE_WAYS, o = offs(addr);
	uint32_t way = 0, start;
	int rc;

	if (!size)
		return nvs_ate_read_(fs, addr, a);
	while (way < FC_NVS_ATE_CACHE_WAYS && !way_holds(fs, way, addr))
		way++;
	if (way == FC_NVS_ATE_CACHE_WAYS) {
		way = fs->ate_cache_lru;
		start = o & ~(size - 1u); /* size: a power of two */
		fs->ate_cache_len[way] = 0;
		rc = nvs_read_(fs, mkaddr(sect(addr), start), way_buf(fs, way),
			       FC_MIN(size, ssize(fs) - start));
		if (rc)
			return rc;
		fs->ate_cache_addr[way] = mkaddr(sect(addr), start);
		fs->ate_cache_len[way] = FC_MIN(size, ssize(fs) - start);
	}
	fs->ate_cache_lru = (way + 1) % FC_NVS_ATE_CACHE_WAYS;
	fc_nvs_ate_decode(way_buf(fs, way) + (addr - fs->ate_cache_addr[way]), erase_value(fs), a);
	return 0;
}

#endif /* FC_NO_ATE_CACHE */
