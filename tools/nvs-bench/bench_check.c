/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_check.h"

#include "fdtcache/nvs.h"
#include "fdtcache/zms.h"

#include "bench_zms.h"

/* NVS's limits (Zephyr's): sectors address 16-bit offsets; 32-byte compare blocks. */
#define NVS_MAX_SECTOR 65536u
#define NVS_MAX_WRITE_BLOCK 32u
#define NVS_MIN_SECTOR_ATES 6u /* close, gc_done, one record and GC room */
#define SIM_MAX_PARTITION (UINT32_MAX / 2)

/* "sector_size=auto (nand's erase unit: 131072 bytes)" or "sector_size=4096". */
static char *knob_text(const struct bench_perm *perm, enum bench_knob k,
		       const struct fc_flash_sim_preset *preset, const char *unit, uint32_t v)
{
	if (perm->v[k] == BENCH_AUTO)
		return g_strdup_printf("%s=auto (%s's %s: %u bytes)", bench_knob(k)->name,
				       preset->name, unit, v);
	return g_strdup_printf("%s=%u", bench_knob(k)->name, v);
}

static char *because(char *knob, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static char *because(char *knob, const char *fmt, ...)
{
	va_list ap;
	char *why, *all;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	all = g_strdup_printf("%s %s", knob, why);
	g_free(knob);
	g_free(why);
	return g_strdelimit(all, ",", ';');
}

static char *check_sector(const struct bench_perm *perm, const struct fc_flash_sim_preset *p,
			  uint32_t sector_size, uint32_t ate_size)
{
	char *s = knob_text(perm, BENCH_K_SECTOR_SIZE, p, "erase unit", sector_size);
	uint32_t min_ates = bench_is_zms(perm) ? FC_ZMS_MIN_ATES : NVS_MIN_SECTOR_ATES;

	if (sector_size % p->erase_size)
		return because(s, "is not a multiple of %s's %u-byte erase unit", p->name,
			       p->erase_size);
	if (sector_size < min_ates * ate_size || sector_size % ate_size)
		return because(s, "does not hold %u ATE slots of %u bytes as whole slots",
			       min_ates, ate_size);
	g_free(s);
	return NULL;
}

static char *check_write_block(const struct bench_perm *perm, const struct fc_flash_sim_preset *p,
			       uint32_t write_block)
{
	char *s = knob_text(perm, BENCH_K_WRITE_BLOCK, p, "write unit", write_block);

	if (!fc_is_pow2(write_block))
		return because(s, "is not a power of two");
	if (write_block > NVS_MAX_WRITE_BLOCK)
		return because(s, "exceeds %s's largest write block (%u bytes)",
			       bench_is_zms(perm) ? "ZMS" : "NVS", NVS_MAX_WRITE_BLOCK);
	if (p->erase_size % write_block)
		return because(s, "does not divide %s's %u-byte erase unit", p->name,
			       p->erase_size);
	g_free(s);
	return NULL;
}

/* The cache sizes the engine takes: 0 or a power of two (and two ATE windows). */
static char *check_caches(const struct bench_perm *perm, uint32_t ate_size)
{
	int64_t slots = perm->v[BENCH_K_LOOKUP_SLOTS], ate = perm->v[BENCH_K_ATE_CACHE];

	if (slots > 0 && !fc_is_pow2((uint32_t)slots))
		return because(g_strdup_printf("lookup_slots=%" G_GINT64_FORMAT, (gint64)slots),
			       "is not 0 or a power of two");
	if (ate > 0 && (!fc_is_pow2((uint32_t)ate) ||
			(uint64_t)ate < FC_NVS_ATE_CACHE_WAYS * (uint64_t)ate_size))
		return because(g_strdup_printf("ate_cache=%" G_GINT64_FORMAT, (gint64)ate),
			       "is not 0 or a power of two of at least %u bytes (%u ATE slots)",
			       FC_NVS_ATE_CACHE_WAYS * ate_size, FC_NVS_ATE_CACHE_WAYS);
	return NULL;
}

char *bench_check_perm(const struct bench_perm *perm, const struct fc_flash_sim_preset *preset,
		       uint32_t sector_size, uint32_t write_block)
{
	uint64_t size = (uint64_t)sector_size * (uint64_t)perm->v[BENCH_K_SECTORS];
	uint32_t ate_bytes = bench_is_zms(perm) ? FC_ZMS_ATE_BYTES : FC_NVS_ATE_BYTES;
	uint32_t ate_size = FC_ALIGN_UP(FC_MAX(ate_bytes, write_block), write_block);
	char *why;

	if (!preset)
		return g_strdelimit(g_strdup_printf("geometry '%s' is not a preset",
						    perm->geometry ? perm->geometry : "-"),
				    ",", ';');
	/* the sector first: nand's blocks break it before its pages break the write block */
	if (sector_size > NVS_MAX_SECTOR && !bench_is_zms(perm))
		return because(knob_text(perm, BENCH_K_SECTOR_SIZE, preset, "erase unit",
					 sector_size),
			       "exceeds NVS's largest sector (%u bytes: 16-bit offsets)",
			       NVS_MAX_SECTOR);
	why = check_write_block(perm, preset, write_block);
	if (!why)
		why = check_sector(perm, preset, sector_size, ate_size);
	if (!why && size > SIM_MAX_PARTITION)
		why = g_strdup_printf("sectors=%" G_GINT64_FORMAT " x sector_size=%u is %"
				      G_GUINT64_FORMAT " bytes: above the simulator's %u bytes",
				      (gint64)perm->v[BENCH_K_SECTORS], sector_size,
				      (guint64)size, SIM_MAX_PARTITION);
	if (!why)
		why = check_caches(perm, ate_size);
	return why;
}
