/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings_bench - the seed's Bluetooth mesh RPL workload on a simulated
 * nRF52840 (8 x 4 KiB sectors, write block 4): boot-time load, 255 new
 * names "bt/mesh/rpl/XXXX" with 4-byte values (pass 1), the same 255
 * rewritten (pass 2), then a reboot (mount + load). Ours at several memory
 * sizes against Zephyr's algorithms run in the same engine and format, next
 * to Zephyr's own figures from spec/nvs-format.md.
 *
 * "floor" is the simulated time of the programs plus the erases of sectors
 * that held data: what the format cannot avoid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/settings.h"

#define SECTOR 4096u
#define SECTORS 8u
#define NAMES 255u
#define MAX_SLOTS 1024u
#define MAX_CACHE 1024u
#define MAX_ATE_CACHE 256u

/* Forwards to the simulator and accounts the time of required operations. */
struct meter {
	struct fc_flash dev;
	struct fc_flash_sim *sim;
	uint64_t floor_ns;
	uint32_t blank_erases;
};

static int meter_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct meter *m = ctx;

	return fc_flash_read(&m->sim->dev, off, buf, len);
}

static int meter_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct meter *m = ctx;
	uint64_t before = m->sim->stats.busy_ns;
	int rc = fc_flash_prog(&m->sim->dev, off, buf, len);

	m->floor_ns += m->sim->stats.busy_ns - before;
	return rc;
}

static bool blank(const struct meter *m, uint32_t off, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++) {
		if (m->sim->mem[off + i] != m->sim->cfg.geo.erase_value)
			return false;
	}
	return true;
}

static int meter_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct meter *m = ctx;
	uint64_t before = m->sim->stats.busy_ns;
	bool was_blank = blank(m, off, len);
	int rc = fc_flash_erase(&m->sim->dev, off, len);

	if (was_blank)
		m->blank_erases++;
	else
		m->floor_ns += m->sim->stats.busy_ns - before;
	return rc;
}

struct variant {
	const char *label;
	enum fc_nvs_lookup lookup;
	uint32_t nvs_slots;
	enum fc_settings_cache_mode mode;
	uint32_t cache_len; /* u16 */
	uint32_t ate_cache; /* bytes of nvs ATE cache */
	bool ours;
};

/* Memory as each implementation spends it: Zephyr 4 bytes per lookup slot
 * and per name-cache entry; ours 8 per nvs slot (both lookups), 2 per cached
 * name, plus the ATE cache. */
static uint32_t memory_bytes(const struct variant *v)
{
	if (v->ours)
		return v->nvs_slots * 8u + v->cache_len * 2u + v->ate_cache;
	return v->nvs_slots * 4u + v->cache_len * 2u;
}

struct phase {
	uint32_t reads, progs, erases, blank_erases;
	uint64_t prog_bytes, time_ns, floor_ns;
};

struct rig {
	uint8_t mem[SECTOR * SECTORS];
	struct fc_flash_sim_unit units[SECTORS];
	struct fc_flash_sim sim;
	struct meter meter;
	struct fc_cache_slot slots[MAX_SLOTS];
	uint16_t cache[MAX_CACHE];
	uint8_t ate_cache[MAX_ATE_CACHE];
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	struct fc_nvs fs;
	struct fc_settings s;
};

static void die(const char *what, int rc)
{
	fprintf(stderr, "settings_bench: %s: %s\n", what, fc_strerror(rc));
	exit(1);
}

static void rig_open(struct rig *r, const struct variant *v)
{
	struct fc_nvs_config ncfg = {
		.flash = &r->meter.dev, .sector_size = SECTOR, .sector_count = SECTORS,
		.lookup = v->lookup, .index_slots = v->nvs_slots ? r->slots : NULL,
		.index_slot_count = v->nvs_slots,
		.ate_cache = v->ate_cache ? r->ate_cache : NULL, .ate_cache_size = v->ate_cache,
		.read_buf = r->read_buf, .read_buf_size = sizeof(r->read_buf),
	};
	struct fc_settings_config scfg = {
		.fs = &r->fs, .cache_mode = v->mode, .cache = r->cache, .cache_len = v->cache_len,
	};
	int rc = fc_nvs_mount(&r->fs, &ncfg);

	if (rc < 0)
		die("mount", rc);
	rc = fc_settings_init(&r->s, &scfg);
	if (rc < 0)
		die("settings init", rc);
}

static void rig_init(struct rig *r, const struct variant *v)
{
	struct fc_flash_sim_config cfg;
	int rc = fc_flash_sim_config_init(&cfg, fc_flash_sim_preset("nrf52840"), sizeof(r->mem));

	memset(r->mem, 0xff, sizeof(r->mem));
	if (!rc)
		rc = fc_flash_sim_init(&r->sim, &cfg, r->mem, r->units);
	if (rc < 0)
		die("simulator", rc);
	memset(&r->meter, 0, sizeof(r->meter));
	r->meter.sim = &r->sim;
	r->meter.dev = r->sim.dev;
	r->meter.dev.read = meter_read;
	r->meter.dev.prog = meter_prog;
	r->meter.dev.erase = meter_erase;
	r->meter.dev.ctx = &r->meter;
	rig_open(r, v);
}

static struct phase snapshot(const struct rig *r)
{
	struct phase p = {
		.reads = r->sim.stats.reads, .progs = r->sim.stats.progs,
		.erases = r->sim.stats.erases, .blank_erases = r->meter.blank_erases,
		.prog_bytes = r->sim.stats.prog_bytes, .time_ns = r->sim.stats.busy_ns,
		.floor_ns = r->meter.floor_ns,
	};

	return p;
}

static struct phase since(const struct rig *r, const struct phase *a)
{
	struct phase b = snapshot(r);

	b.reads -= a->reads;
	b.progs -= a->progs;
	b.erases -= a->erases;
	b.blank_erases -= a->blank_erases;
	b.prog_bytes -= a->prog_bytes;
	b.time_ns -= a->time_ns;
	b.floor_ns -= a->floor_ns;
	return b;
}

static void load(struct rig *r)
{
	uint8_t buf[8];
	int rc = fc_settings_load(&r->s, buf, sizeof(buf), NULL, NULL);

	if (rc < 0)
		die("load", rc);
}

static void pass(struct rig *r, uint32_t gen)
{
	for (uint32_t i = 0; i < NAMES; i++) {
		char name[32];
		uint8_t v[4];
		int rc;

		snprintf(name, sizeof(name), "bt/mesh/rpl/%04x", 0x1a2bu + i);
		fc_put_le32(v, gen << 24 | i);
		rc = fc_settings_save(&r->s, name, v, sizeof(v));
		if (rc < 0)
			die("save", rc);
	}
}

struct result {
	struct phase p1, p2, boot_mount, boot_load;
};

static void run(const struct variant *v, struct result *res)
{
	struct rig *r = calloc(1, sizeof(*r));
	struct phase t;

	if (!r)
		die("memory", FC_ENOMEM);
	rig_init(r, v);
	load(r);
	t = snapshot(r);
	pass(r, 1);
	res->p1 = since(r, &t);
	t = snapshot(r);
	pass(r, 2);
	res->p2 = since(r, &t);
	/* reboot */
	t = snapshot(r);
	rig_open(r, v);
	res->boot_mount = since(r, &t);
	t = snapshot(r);
	load(r);
	res->boot_load = since(r, &t);
	free(r);
}

static const struct variant variants[] = {
	{ "Zephyr, no caches", FC_NVS_LOOKUP_ZEPHYR, 0, FC_SETTINGS_CACHE_ZEPHYR_NONE, 0, 0, false },
	{ "Zephyr before #69103, 128+128", FC_NVS_LOOKUP_ZEPHYR, 128,
	  FC_SETTINGS_CACHE_ZEPHYR_RING, 256, 0, false },
	{ "Zephyr after #69103, 128+128", FC_NVS_LOOKUP_ZEPHYR, 128,
	  FC_SETTINGS_CACHE_ZEPHYR_RING_FIX, 256, 0, false },
	{ "Zephyr after #69103, 512+256", FC_NVS_LOOKUP_ZEPHYR, 512,
	  FC_SETTINGS_CACHE_ZEPHYR_RING_FIX, 512, 0, false },
	{ "ours, no name cache, 64 slots", FC_NVS_LOOKUP_INDEX, 64, FC_SETTINGS_CACHE_INDEX, 0, 0,
	  true },
	{ "ours, 64 slots + 256 names", FC_NVS_LOOKUP_INDEX, 64, FC_SETTINGS_CACHE_INDEX, 256, 0,
	  true },
	{ "ours, 32 slots + 256 names + ATE 256", FC_NVS_LOOKUP_INDEX, 32, FC_SETTINGS_CACHE_INDEX,
	  256, 256, true },
	{ "ours, Zephyr lookup 64 + 256 names", FC_NVS_LOOKUP_ZEPHYR, 64, FC_SETTINGS_CACHE_INDEX,
	  256, 0, true },
	{ "ours, 512 slots + 256 names", FC_NVS_LOOKUP_INDEX, 512, FC_SETTINGS_CACHE_INDEX, 256, 0,
	  true },
	{ "ours, 512 slots + 256 names + ATE 256", FC_NVS_LOOKUP_INDEX, 512,
	  FC_SETTINGS_CACHE_INDEX, 256, 256, true },
	{ "ours, 1024 slots + 1024 names + ATE 256", FC_NVS_LOOKUP_INDEX, 1024,
	  FC_SETTINGS_CACHE_INDEX, 1024, 256, true },
};

/* Zephyr's settings read calls (spec reference table), by variant label. */
struct reference {
	const char *label;
	uint32_t p1, p2;
};

static const struct reference references[] = {
	{ "Zephyr, no caches", 8547145, 11384216 },
	{ "Zephyr after #69103, 128+128", 4344693, 7115206 },
	{ "Zephyr after #69103, 512+256", 52370, 89093 },
};

static const struct reference *reference_of(const char *label)
{
	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++) {
		if (!strcmp(references[i].label, label))
			return &references[i];
	}
	return NULL;
}

static void print_phase(const char *label, uint32_t mem, const char *name, const struct phase *p,
			uint32_t ref)
{
	char refs[16] = "-";

	if (ref)
		snprintf(refs, sizeof(refs), "%u", ref);
	printf("| %s | %u | %s | %u | %s | %u | %llu | %u (%u blank) | %.1f | %.1f | %.3f |\n",
	       label, mem, name, p->reads, refs, p->progs, (unsigned long long)p->prog_bytes,
	       p->erases, p->blank_erases, p->time_ns / 1e6, p->floor_ns / 1e6,
	       p->floor_ns ? (double)p->time_ns / (double)p->floor_ns : 0.0);
}

int main(void)
{
	static struct result res[sizeof(variants) / sizeof(variants[0])];
	const size_t n = sizeof(variants) / sizeof(variants[0]);

	printf("RPL workload, simulated nrf52840, %u x %u B sectors, %u names, 4-byte values\n\n",
	       SECTORS, SECTOR, NAMES);
	printf("| variant | memory B | phase | reads | Zephyr's reads | progs | prog bytes | erases | "
	       "time ms | floor ms | time/floor |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < n; i++) {
		const struct variant *v = &variants[i];
		const struct reference *ref = reference_of(v->label);
		uint32_t mem = memory_bytes(v);

		run(v, &res[i]);
		print_phase(v->label, mem, "pass 1", &res[i].p1, ref ? ref->p1 : 0);
		print_phase(v->label, mem, "pass 2", &res[i].p2, ref ? ref->p2 : 0);
		print_phase(v->label, mem, "boot mount", &res[i].boot_mount, 0);
		print_phase(v->label, mem, "boot load", &res[i].boot_load, 0);
	}
	printf("\nRead-call ratios, Zephyr after #69103 (128+128, same run) / ours:\n");
	for (size_t i = 0; i < n; i++) {
		if (!variants[i].ours)
			continue;
		printf("  %-32s pass 1 %.0fx  pass 2 %.0fx  boot load %.0fx\n", variants[i].label,
		       (double)res[2].p1.reads / FC_MAX(res[i].p1.reads, 1u),
		       (double)res[2].p2.reads / FC_MAX(res[i].p2.reads, 1u),
		       (double)res[2].boot_load.reads / FC_MAX(res[i].boot_load.reads, 1u));
	}
	return 0;
}
