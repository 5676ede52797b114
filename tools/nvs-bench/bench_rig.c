/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_rig.h"
#include "bench_check.h"
#include "bench_zms.h"

#include <string.h>
#include <time.h>

/*
 * Zephyr's default CONFIG_NVS_LOOKUP_CACHE_SIZE (and CONFIG_ZMS_LOOKUP_CACHE_SIZE),
 * and the seed's name cache:
 * larger than its 255 RPL names (CONFIG_SETTINGS_NVS_NAME_CACHE_SIZE is 128
 * by default; give -D name_cache_slots=128 for that).
 */
#define ZEPHYR_LOOKUP_SLOTS 128
#define DEFAULT_ATE_CACHE 256 /* bytes: two 128-byte windows of ATE slots */
#define ZEPHYR_NAME_CACHE 256

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int rig_wait(struct bench_rig *rig)
{
	struct fc_poll_result res;
	int rc = fc_flash_sim_wait(&rig->sim, &rig->poll, &res);

	fc_poll_stats_add(&rig->waits, rc, &res);
	return rc;
}

/* The engine's read: the flash's own time plus the CPU time of the call. */
static int rig_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct bench_rig *rig = ctx;
	int rc = fc_flash_read(&rig->sim.dev, off, buf, len);

	fc_flash_sim_advance(&rig->sim, (uint64_t)rig->perm->v[BENCH_K_READ_CPU_NS]);
	return rc;
}

/* Programs count toward the floor, then wait with the poll policy. */
static int rig_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct bench_rig *rig = ctx;
	uint64_t busy = rig->sim.stats.busy_ns;
	int rc = fc_flash_prog(&rig->sim.dev, off, buf, len);

	rig->floor_ns += rig->sim.stats.busy_ns - busy;
	return rc ? rc : rig_wait(rig);
}

static bool is_blank(const struct bench_rig *rig, uint32_t off, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		if (rig->mem[off + i] != rig->sim.cfg.geo.erase_value)
			return false;
	return true;
}

/* Erasing what is already erased changes nothing on the medium: not in the floor. */
static int rig_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct bench_rig *rig = ctx;
	uint64_t busy = rig->sim.stats.busy_ns;
	bool blank = is_blank(rig, off, len);
	int rc = fc_flash_erase(&rig->sim.dev, off, len);

	if (blank)
		rig->blank_erases++;
	else
		rig->floor_ns += rig->sim.stats.busy_ns - busy;
	return rc ? rc : rig_wait(rig);
}

static int poll_setup(struct bench_rig *rig)
{
	static const enum fc_poll_policy policy[] = {
		[BENCH_WAIT_TICK] = FC_POLL_TICK,
		[BENCH_WAIT_SPIN] = FC_POLL_SPIN,
		[BENCH_WAIT_ADAPTIVE] = FC_POLL_ADAPTIVE,
	};
	int64_t wait = rig->perm->v[BENCH_K_WAIT];
	int rc = fc_poll_config_init(&rig->poll, policy[wait]);

	if (wait == BENCH_WAIT_TICK)
		rig->poll.interval_ns = (uint64_t)rig->perm->v[BENCH_K_TICK_NS];
	return rc;
}

int bench_rig_init(struct bench_rig *rig, const char *workload, const struct bench_perm *perm,
		   GPtrArray *rows)
{
	const struct fc_flash_sim_preset *preset = fc_flash_sim_preset(perm->geometry);
	const int64_t *v = perm->v;
	struct fc_flash_sim_config cfg;
	uint32_t size;
	int rc;

	memset(rig, 0, sizeof(*rig));
	rig->perm = perm;
	rig->workload = workload;
	rig->rows = rows;
	if (preset) {
		rig->sector_size = v[BENCH_K_SECTOR_SIZE] == BENCH_AUTO
				   ? preset->erase_size : (uint32_t)v[BENCH_K_SECTOR_SIZE];
		rig->write_block = v[BENCH_K_WRITE_BLOCK] == BENCH_AUTO
				   ? preset->write_size : (uint32_t)v[BENCH_K_WRITE_BLOCK];
	}
	rig->value_size = (uint32_t)v[BENCH_K_VALUE_SIZE];
	rig->why = bench_check_perm(perm, preset, rig->sector_size, rig->write_block);
	if (rig->why)
		return FC_EINVAL;
	size = rig->sector_size * (uint32_t)v[BENCH_K_SECTORS];
	rc = fc_flash_sim_config_init(&cfg, preset, size);
	if (rc)
		return rc;
	cfg.geo.write_size = rig->write_block;
	rig->mem = g_malloc(size);
	memset(rig->mem, cfg.geo.erase_value, size);
	rig->units = g_new(struct fc_flash_sim_unit, FC_FLASH_SIM_UNITS(size, cfg.geo.erase_size));
	rc = fc_flash_sim_init(&rig->sim, &cfg, rig->mem, rig->units);
	if (rc)
		return rc;
	rig->dev.geo = cfg.geo;
	rig->dev.read = rig_read;
	rig->dev.prog = rig_prog;
	rig->dev.erase = rig_erase;
	rig->dev.ctx = rig;
	return poll_setup(rig);
}

void bench_rig_free(struct bench_rig *rig)
{
	g_free(rig->mem);
	g_free(rig->units);
	g_free(rig->ate_cache);
	g_free(rig->index);
	g_free(rig->names);
	g_free(rig->why);
}

static bool is_zephyr(const struct bench_rig *rig)
{
	return rig->perm->v[BENCH_K_VARIANT] != BENCH_VARIANT_OURS;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

void *bench_rig_index(struct bench_rig *rig, bool zephyr, uint32_t ids, size_t slot_size,
		      uint32_t *count)
{
	int64_t slots = rig->perm->v[BENCH_K_LOOKUP_SLOTS];

	/* ours: an exact map at most half full, so no id is ever looked up on flash */
	if (slots == BENCH_AUTO)
		slots = zephyr ? ZEPHYR_LOOKUP_SLOTS : pow2_at_least(2 * ids + 2);
	*count = (uint32_t)slots;
	g_free(rig->index);
	rig->index = g_malloc(((size_t)*count + 1) * slot_size);
	return *count ? rig->index : NULL;
}

int bench_rig_mounted(struct bench_rig *rig, int rc, const char *engine)
{
	if (rc == FC_EINVAL && !rig->why)
		rig->why = g_strdup_printf("the %s engine refused the configuration (a rule "
					   "bench_check does not know)", engine);
	return rc;
}

uint32_t bench_rig_ate_cache(struct bench_rig *rig, bool zephyr)
{
	int64_t ate_cache = rig->perm->v[BENCH_K_ATE_CACHE];

	if (ate_cache == BENCH_AUTO)
		ate_cache = zephyr ? 0 : DEFAULT_ATE_CACHE;
	g_free(rig->ate_cache);
	rig->ate_cache = ate_cache ? g_new(uint8_t, ate_cache) : NULL;
	return (uint32_t)ate_cache;
}

int bench_rig_mount(struct bench_rig *rig, uint32_t ids)
{
	struct fc_nvs_config cfg;

	if (bench_is_zms(rig->perm))
		return bench_zms_mount(rig, ids);
	cfg = (struct fc_nvs_config){
		.flash = &rig->dev,
		.sector_size = rig->sector_size,
		.sector_count = (uint16_t)rig->perm->v[BENCH_K_SECTORS],
		.data_crc = rig->perm->v[BENCH_K_DATA_CRC] != 0,
		.lookup = is_zephyr(rig) ? FC_NVS_LOOKUP_ZEPHYR : FC_NVS_LOOKUP_INDEX,
	};

	cfg.index_slots = bench_rig_index(rig, is_zephyr(rig), ids, sizeof(struct fc_cache_slot),
					  &cfg.index_slot_count);
	cfg.ate_cache_size = bench_rig_ate_cache(rig, is_zephyr(rig));
	cfg.ate_cache = rig->ate_cache;
	cfg.read_buf = rig->read_buf;
	cfg.read_buf_size = sizeof(rig->read_buf);
	return bench_rig_mounted(rig, fc_nvs_mount(&rig->fs, &cfg), "NVS");
}

int bench_rig_settings(struct bench_rig *rig)
{
	int64_t slots = rig->perm->v[BENCH_K_NAME_CACHE_SLOTS];
	struct fc_settings_config cfg = { .fs = &rig->fs };

	if (bench_is_zms(rig->perm))
		return bench_zms_settings(rig);
	if (slots == BENCH_AUTO)
		slots = is_zephyr(rig) ? ZEPHYR_NAME_CACHE : rig->perm->v[BENCH_K_ENTRIES];
	switch (rig->perm->v[BENCH_K_VARIANT]) {
	case BENCH_VARIANT_ZEPHYR_PRE:
		cfg.cache_mode = slots ? FC_SETTINGS_CACHE_ZEPHYR_RING : FC_SETTINGS_CACHE_ZEPHYR_NONE;
		cfg.cache_len = 2 * (uint32_t)slots; /* {hash, id} pairs */
		break;
	case BENCH_VARIANT_ZEPHYR:
		cfg.cache_mode = slots ? FC_SETTINGS_CACHE_ZEPHYR_RING_FIX
				       : FC_SETTINGS_CACHE_ZEPHYR_NONE;
		cfg.cache_len = 2 * (uint32_t)slots;
		break;
	default:
		cfg.cache_mode = FC_SETTINGS_CACHE_INDEX;
		cfg.cache_len = (uint32_t)slots; /* one hash per name id */
		break;
	}
	g_free(rig->names);
	rig->names = g_new0(uint16_t, cfg.cache_len + 1);
	cfg.cache = cfg.cache_len ? rig->names : NULL;
	return fc_settings_init(&rig->set, &cfg);
}

uint32_t bench_rig_record_size(const struct bench_rig *rig)
{
	uint32_t wb = rig->write_block;
	uint32_t ate = FC_ALIGN_UP(FC_MAX(8u, wb), wb);
	uint32_t len = rig->value_size + (rig->perm->v[BENCH_K_DATA_CRC] ? 4u : 0u);

	if (bench_is_zms(rig->perm))
		return bench_zms_record_size(rig);
	return FC_ALIGN_UP(len, wb) + ate;
}

void bench_phase_begin(struct bench_rig *rig)
{
	rig->mark.flash = rig->sim.stats;
	rig->mark.waits = rig->waits;
	rig->mark.elapsed_ns = fc_flash_sim_elapsed(&rig->sim);
	rig->mark.floor_ns = rig->floor_ns;
	rig->mark.blank_erases = rig->blank_erases;
	rig->mark.cpu_ns = cpu_now_ns();
}

char *bench_status(int rc)
{
	if (rc >= 0)
		return g_strdup("ok");
	return g_strdelimit(g_strdup(fc_strerror(rc)), " ,", '-');
}

int bench_phase_end(struct bench_rig *rig, const char *phase, uint64_t ops, int rc)
{
	const struct fc_flash_sim_stats *a = &rig->mark.flash, *b = &rig->sim.stats;
	char *status = bench_status(rc);
	struct bench_row *row = bench_row_new(rig->workload, rig->perm, phase, status);
	uint64_t *f = row->fig;

	f[BENCH_F_CPU_NS] = cpu_now_ns() - rig->mark.cpu_ns;
	f[BENCH_F_OPS] = ops;
	f[BENCH_F_READS] = b->reads - a->reads;
	f[BENCH_F_READ_BYTES] = b->read_bytes - a->read_bytes;
	f[BENCH_F_PROGS] = b->progs - a->progs;
	f[BENCH_F_PROG_BYTES] = b->prog_bytes - a->prog_bytes;
	f[BENCH_F_ERASES] = b->erases - a->erases;
	f[BENCH_F_ERASE_BYTES] = b->erase_bytes - a->erase_bytes;
	f[BENCH_F_BLANK_ERASES] = rig->blank_erases - rig->mark.blank_erases;
	f[BENCH_F_MAX_WEAR] = b->max_wear;
	f[BENCH_F_SIM_NS] = fc_flash_sim_elapsed(&rig->sim) - rig->mark.elapsed_ns;
	f[BENCH_F_FLOOR_NS] = rig->floor_ns - rig->mark.floor_ns;
	f[BENCH_F_OVERSHOOT_NS] = rig->waits.overshoot_ns - rig->mark.waits.overshoot_ns;
	f[BENCH_F_POLLS] = rig->waits.polls - rig->mark.waits.polls;
	if (rc < 0 && rig->why) {
		g_free(row->detail);
		row->detail = g_strdup(rig->why);
	}
	g_ptr_array_add(rig->rows, row);
	g_free(status);
	return rc;
}
