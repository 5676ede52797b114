/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Flash simulator: NOR programming rules, counters, a simulated clock, wear,
 * bad units and power loss, over caller memory. Figures and their sources
 * are in README.md ("Simulator presets").
 */
#include "fdtcache/flash_sim.h"

#define US 1000u
#define MS 1000000u

static const struct fc_flash_sim_preset presets[] = {
	{
		/* nRF52840 internal flash: reads are memory mapped, modelled as free. */
		.name = "nrf52840", .erase_size = 4096, .write_size = 4, .erase_value = 0xff,
		.endurance = 10000,
		.timing = {
			.read = { 0, 0, 1 },
			.prog = { 0, 41 * US, 4 },
			.erase = { 0, 85 * MS, 4096 },
		},
	},
	{
		/* STM32F4 internal flash, the uniform 16 KiB sectors, x32 parallelism. */
		.name = "stm32f4", .erase_size = 16384, .write_size = 4, .erase_value = 0xff,
		.endurance = 10000,
		.timing = {
			.read = { 0, 0, 1 },
			.prog = { 0, 16 * US, 4 },
			.erase = { 0, 400 * MS, 16384 },
		},
	},
	{
		/* W25Q-class SPI NOR: byte-programmable, 256-byte page program. */
		.name = "spi-nor", .erase_size = 4096, .write_size = 1, .erase_value = 0xff,
		.endurance = 100000,
		.timing = {
			.read = { 0, 40, 1 },
			.prog = { 0, 400 * US, 256 },
			.erase = { 0, 45 * MS, 4096 },
		},
	},
	{
		/* W25N01GV-class SLC SPI NAND: 2 KiB pages, 128 KiB blocks. */
		.name = "nand", .erase_size = 131072, .write_size = 2048, .erase_value = 0xff,
		.endurance = 100000,
		.timing = {
			.read = { 0, 25 * US, 2048 },
			.prog = { 0, 250 * US, 2048 },
			.erase = { 0, 2 * MS, 131072 },
		},
	},
	{
		/* Zero-time RAM with a NOR-like geometry, for tests. */
		.name = "ram", .erase_size = 4096, .write_size = 1, .erase_value = 0xff,
		.endurance = 0,
		.timing = {
			.read = { 0, 0, 1 },
			.prog = { 0, 0, 1 },
			.erase = { 0, 0, 1 },
		},
	},
};

const struct fc_flash_sim_preset *fc_flash_sim_preset_at(unsigned int i)
{
	return i < FC_ARRAY_SIZE(presets) ? &presets[i] : NULL;
}

const struct fc_flash_sim_preset *fc_flash_sim_preset(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < FC_ARRAY_SIZE(presets); i++)
		if (!FC_STRCMP(presets[i].name, name))
			return &presets[i];
	return NULL;
}

int fc_flash_sim_config_init(struct fc_flash_sim_config *cfg,
			     const struct fc_flash_sim_preset *preset, uint32_t size)
{
	if (!cfg || !preset || !size || size % preset->erase_size)
		return FC_EINVAL;
	cfg->geo.size = size;
	cfg->geo.erase_size = preset->erase_size;
	cfg->geo.write_size = preset->write_size;
	cfg->geo.erase_value = preset->erase_value;
	cfg->timing = preset->timing;
	cfg->flags = 0;
	cfg->wear_limit = 0;
	return 0;
}

/* Windows of c->unit bytes, aligned on the device, that [off, off + len) touches. */
static uint64_t cost(const struct fc_flash_sim_cost *c, uint32_t off, uint32_t len)
{
	uint64_t windows = ((uint64_t)off + len - 1) / c->unit - off / c->unit + 1;

	return c->op_ns + c->unit_ns * windows;
}

/* The device finishes what it is doing before it accepts a new request. */
static void wait_ready(struct fc_flash_sim *sim)
{
	sim->now_ns = FC_MAX(sim->now_ns, sim->busy_until_ns);
}

static void start_busy(struct fc_flash_sim *sim, uint64_t ns)
{
	sim->busy_until_ns = sim->now_ns + ns;
	sim->stats.busy_ns += ns;
}

static uint32_t unit_of(const struct fc_flash_sim *sim, uint32_t off)
{
	return off / sim->cfg.geo.erase_size;
}

/* Does any erase unit of [off, off + len) have one of the bad flags? */
static bool any_bad(const struct fc_flash_sim *sim, uint32_t off, uint32_t len, uint32_t flags)
{
	uint32_t u;

	for (u = unit_of(sim, off); u <= unit_of(sim, off + len - 1); u++)
		if (sim->units[u].bad & flags)
			return true;
	return false;
}

static uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/*
 * Counts one program or erase; returns true when it is the one the armed
 * power cut interrupts.
 */
static bool op_is_cut(struct fc_flash_sim *sim)
{
	sim->stats.ops++;
	if (!sim->cut_countdown || --sim->cut_countdown)
		return false;
	sim->powered = false;
	sim->stats.cuts++;
	return true;
}

/* NOR programming: a bit can only leave the erase value. */
static uint8_t programmed(uint8_t old, uint8_t data, uint8_t ev)
{
	return (uint8_t)(ev ^ ((old ^ ev) | (data ^ ev)));
}

/* The BITS cut: each bit on its way from cell to target gets there with odds 1/2. */
static uint8_t random_bits(struct fc_flash_sim *sim, uint8_t cell, uint8_t target)
{
	return (uint8_t)(cell ^ ((cell ^ target) & xorshift32(&sim->rng)));
}

static void prog_bytes(struct fc_flash_sim *sim, uint32_t off, const uint8_t *data, uint32_t len)
{
	uint8_t ev = sim->cfg.geo.erase_value;
	uint32_t i;

	for (i = 0; i < len; i++)
		sim->mem[off + i] = programmed(sim->mem[off + i], data[i], ev);
}

/*
 * Where each byte of [off, off + len) was going: target[i] is the cell's
 * value after a complete operation (data NULL: an erase).
 */
static uint8_t target_of(const struct fc_flash_sim *sim, uint32_t at, const uint8_t *data)
{
	uint8_t ev = sim->cfg.geo.erase_value;

	return data ? programmed(sim->mem[at], *data, ev) : ev;
}

static uint32_t changing_bits(const struct fc_flash_sim *sim, uint32_t off, const uint8_t *data,
			      uint32_t len)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < len; i++) {
		uint8_t d = (uint8_t)(sim->mem[off + i] ^ target_of(sim, off + i, data ? data + i : NULL));

		for (; d; d &= (uint8_t)(d - 1))
			n++;
	}
	return n;
}

/*
 * SOMEBITS and MOSTBITS: of the changing bits, the one numbered pick (in
 * address then bit order) moves alone (only) or stays alone (!only).
 */
static void one_bit(struct fc_flash_sim *sim, uint32_t off, const uint8_t *data, uint32_t len,
		    bool only)
{
	uint32_t total = changing_bits(sim, off, data, len), pick, k = 0;

	if (!total)
		return;
	pick = xorshift32(&sim->rng) % total;
	for (uint32_t i = 0; i < len; i++) {
		uint8_t cell = sim->mem[off + i];
		uint8_t d = (uint8_t)(cell ^ target_of(sim, off + i, data ? data + i : NULL));

		for (uint8_t bit = 1; bit; bit = (uint8_t)(bit << 1)) {
			if (!(d & bit))
				continue;
			if ((k++ == pick) == only)
				cell ^= bit;
		}
		sim->mem[off + i] = cell;
	}
}

/*
 * Leave the changing bits of up to FC_FLASH_SIM_META_MAX bytes at off
 * metastable, in the oldest region: what that region held settles first.
 */
static void make_metastable(struct fc_flash_sim *sim, uint32_t off, const uint8_t *data,
			    uint32_t len)
{
	struct fc_flash_sim_meta *m = &sim->meta[sim->meta_next];

	for (uint32_t i = 0; i < m->len; i++)
		sim->mem[m->off + i] ^= m->mask[i];
	sim->meta_next = (sim->meta_next + 1) % FC_FLASH_SIM_META_REGIONS;
	len = FC_MIN(len, FC_FLASH_SIM_META_MAX);
	m->off = off;
	m->len = len;
	for (uint32_t i = 0; i < len; i++)
		m->mask[i] = (uint8_t)(sim->mem[off + i] ^
				       target_of(sim, off + i, data ? data + i : NULL));
}

/*
 * What a cut leaves of a program (data) or erase (data NULL) of
 * [off, off + len): TORN completes its first half bytes, OOO and METASTABLE
 * work in write blocks.
 */
static void cut_apply(struct fc_flash_sim *sim, uint32_t off, const uint8_t *data, uint32_t len,
		      uint32_t half)
{
	uint32_t i, unit = sim->cfg.geo.write_size;

	switch (sim->cut_mode) {
	case FC_FLASH_SIM_CUT_ATOMIC:
		break;
	case FC_FLASH_SIM_CUT_TORN:
	case FC_FLASH_SIM_CUT_METASTABLE:
		for (i = 0; i < half; i++)
			sim->mem[off + i] = target_of(sim, off + i, data ? data + i : NULL);
		if (sim->cut_mode == FC_FLASH_SIM_CUT_METASTABLE && half < len)
			make_metastable(sim, off + half, data ? data + half : NULL,
					FC_MIN(unit, len - half));
		break;
	case FC_FLASH_SIM_CUT_BITS:
		for (i = 0; i < len; i++)
			sim->mem[off + i] = random_bits(sim, sim->mem[off + i],
							target_of(sim, off + i, data ? data + i : NULL));
		break;
	case FC_FLASH_SIM_CUT_SOMEBITS:
	case FC_FLASH_SIM_CUT_MOSTBITS:
		one_bit(sim, off, data, len, sim->cut_mode == FC_FLASH_SIM_CUT_SOMEBITS);
		break;
	case FC_FLASH_SIM_CUT_OOO:
		for (uint32_t b = 0; b < len; b += unit) {
			if (!(xorshift32(&sim->rng) & 1u))
				continue;
			for (i = b; i < FC_MIN(b + unit, len); i++)
				sim->mem[off + i] = target_of(sim, off + i, data ? data + i : NULL);
		}
		break;
	}
}

/* A program or erase over metastable bytes settles them (its own bytes replace theirs). */
static void meta_settle(struct fc_flash_sim *sim, uint32_t off, uint32_t len)
{
	for (uint32_t r = 0; r < FC_FLASH_SIM_META_REGIONS; r++) {
		struct fc_flash_sim_meta *m = &sim->meta[r];

		if (m->len && off < m->off + m->len && m->off < off + len)
			m->len = 0;
	}
}

static void meta_read(struct fc_flash_sim *sim, uint32_t off, uint8_t *buf, uint32_t len)
{
	for (uint32_t r = 0; r < FC_FLASH_SIM_META_REGIONS; r++) {
		const struct fc_flash_sim_meta *m = &sim->meta[r];
		uint32_t from = FC_MAX(off, m->off), to = FC_MIN(off + len, m->off + m->len);

		for (uint32_t a = from; a < to; a++)
			buf[a - off] ^= (uint8_t)(m->mask[a - m->off] & xorshift32(&sim->rng));
	}
}

static bool is_erased(const struct fc_flash_sim *sim, uint32_t off, uint32_t len)
{
	const uint8_t *p = sim->mem + off;

	/* Every byte equals the first, which is the erase value. */
	return p[0] == sim->cfg.geo.erase_value && !FC_MEMCMP(p, p + 1, len - 1);
}

static int sim_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct fc_flash_sim *sim = ctx;
	bool erased;

	if (!sim->powered)
		return FC_EPOWER;
	wait_ready(sim);
	sim->stats.progs++;
	sim->stats.prog_bytes += len;
	if (op_is_cut(sim)) {
		cut_apply(sim, off, buf, len, len / sim->cfg.geo.write_size / 2 * sim->cfg.geo.write_size);
		return FC_EPOWER;
	}
	erased = is_erased(sim, off, len);
	if (!erased && !(sim->cfg.flags & FC_FLASH_SIM_AND))
		return FC_ENOTERASED;
	start_busy(sim, cost(&sim->cfg.timing.prog, off, len));
	if (any_bad(sim, off, len, FC_FLASH_SIM_BAD_PROG))
		return FC_EIO;
	meta_settle(sim, off, len);
	/* Programming erased cells stores the data as is. */
	if (erased)
		FC_MEMCPY(sim->mem + off, buf, len);
	else
		prog_bytes(sim, off, buf, len);
	return 0;
}

static void count_erases(struct fc_flash_sim *sim, uint32_t off, uint32_t len)
{
	struct fc_flash_sim_unit *unit;
	uint32_t u;

	for (u = unit_of(sim, off); u <= unit_of(sim, off + len - 1); u++) {
		unit = &sim->units[u];
		unit->erases++;
		sim->stats.max_wear = FC_MAX(sim->stats.max_wear, unit->erases);
	}
}

/* A cut erase wears the units it reached (TORN: those of its first half). */
static void erase_cut(struct fc_flash_sim *sim, uint32_t off, uint32_t len)
{
	uint32_t reached = sim->cut_mode == FC_FLASH_SIM_CUT_TORN ? len / 2 : len;

	cut_apply(sim, off, NULL, len, len / 2);
	if (sim->cut_mode != FC_FLASH_SIM_CUT_ATOMIC && reached)
		count_erases(sim, off, reached);
}

static bool any_worn(const struct fc_flash_sim *sim, uint32_t off, uint32_t len)
{
	uint32_t u;

	if (!sim->cfg.wear_limit)
		return false;
	for (u = unit_of(sim, off); u <= unit_of(sim, off + len - 1); u++)
		if (sim->units[u].erases >= sim->cfg.wear_limit)
			return true;
	return false;
}

static int sim_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct fc_flash_sim *sim = ctx;

	if (!sim->powered)
		return FC_EPOWER;
	wait_ready(sim);
	sim->stats.erases++;
	sim->stats.erase_bytes += len;
	if (op_is_cut(sim)) {
		erase_cut(sim, off, len);
		return FC_EPOWER;
	}
	if (any_worn(sim, off, len))
		return FC_EWORN;
	start_busy(sim, cost(&sim->cfg.timing.erase, off, len));
	if (any_bad(sim, off, len, FC_FLASH_SIM_BAD_ERASE))
		return FC_EIO;
	FC_MEMSET(sim->mem + off, sim->cfg.geo.erase_value, len);
	meta_settle(sim, off, len);
	count_erases(sim, off, len);
	return 0;
}

static void flip_bad_reads(const struct fc_flash_sim *sim, uint32_t off, uint8_t *buf, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if ((off + i) % FC_FLASH_SIM_FLIP_STRIDE == 0 &&
		    (sim->units[unit_of(sim, off + i)].bad & FC_FLASH_SIM_BAD_READ))
			buf[i] ^= 1;
}

static int sim_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct fc_flash_sim *sim = ctx;
	uint64_t ns;

	if (!sim->powered)
		return FC_EPOWER;
	wait_ready(sim);
	sim->stats.reads++;
	sim->stats.read_bytes += len;
	ns = cost(&sim->cfg.timing.read, off, len);
	sim->now_ns += ns;
	sim->busy_until_ns = sim->now_ns;
	sim->stats.busy_ns += ns;
	FC_MEMCPY(buf, sim->mem + off, len);
	meta_read(sim, off, buf, len);
	if (any_bad(sim, off, len, FC_FLASH_SIM_BAD_READ))
		flip_bad_reads(sim, off, buf, len);
	return 0;
}

static bool timing_ok(const struct fc_flash_sim_timing *t)
{
	return t->read.unit && t->prog.unit && t->erase.unit;
}

int fc_flash_sim_init(struct fc_flash_sim *sim, const struct fc_flash_sim_config *cfg, void *mem,
		      struct fc_flash_sim_unit *units)
{
	if (!sim || !cfg || !mem || !units || fc_flash_geometry_check(&cfg->geo) ||
	    !timing_ok(&cfg->timing))
		return FC_EINVAL;
	FC_MEMSET(sim, 0, sizeof(*sim));
	sim->cfg = *cfg;
	sim->mem = mem;
	sim->units = units;
	FC_MEMSET(units, 0, sizeof(*units) * FC_FLASH_SIM_UNITS(cfg->geo.size, cfg->geo.erase_size));
	sim->powered = true;
	sim->dev.geo = cfg->geo;
	sim->dev.read = sim_read;
	sim->dev.prog = sim_prog;
	sim->dev.erase = sim_erase;
	sim->dev.ctx = sim;
	return 0;
}

void fc_flash_sim_reset_stats(struct fc_flash_sim *sim)
{
	uint32_t u, n = FC_FLASH_SIM_UNITS(sim->cfg.geo.size, sim->cfg.geo.erase_size);

	FC_MEMSET(&sim->stats, 0, sizeof(sim->stats));
	for (u = 0; u < n; u++)
		sim->stats.max_wear = FC_MAX(sim->stats.max_wear, sim->units[u].erases);
}

int fc_flash_sim_set_bad(struct fc_flash_sim *sim, uint32_t unit, uint32_t bad)
{
	if (unit >= FC_FLASH_SIM_UNITS(sim->cfg.geo.size, sim->cfg.geo.erase_size))
		return FC_ERANGE;
	sim->units[unit].bad = (uint8_t)bad;
	return 0;
}

static const char *const mode_names[FC_FLASH_SIM_CUT_MODES] = {
	"atomic", "torn", "bits", "somebits", "mostbits", "ooo", "metastable",
};

const char *fc_flash_sim_cut_mode_name(enum fc_flash_sim_cut_mode mode)
{
	return (unsigned int)mode < FC_FLASH_SIM_CUT_MODES ? mode_names[mode] : NULL;
}

int fc_flash_sim_cut_after(struct fc_flash_sim *sim, uint32_t n, enum fc_flash_sim_cut_mode mode,
			   uint32_t seed)
{
	if ((unsigned int)mode >= FC_FLASH_SIM_CUT_MODES)
		return FC_EINVAL;
	sim->cut_countdown = n;
	sim->cut_mode = mode;
	sim->rng = seed ? seed : 0x9e3779b9u; /* xorshift must not start at 0 */
	sim->plan = NULL;
	sim->plan_len = sim->plan_next = 0;
	return 0;
}

int fc_flash_sim_cut_plan(struct fc_flash_sim *sim, const uint32_t *cuts, uint32_t n,
			  enum fc_flash_sim_cut_mode mode, uint32_t seed)
{
	int rc;

	if (n && !cuts)
		return FC_EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!cuts[i])
			return FC_EINVAL;
	rc = fc_flash_sim_cut_after(sim, n ? cuts[0] : 0, mode, seed);
	if (rc)
		return rc;
	sim->plan = cuts;
	sim->plan_len = n;
	sim->plan_next = n ? 1 : 0;
	return 0;
}

void fc_flash_sim_power_on(struct fc_flash_sim *sim)
{
	sim->powered = true;
	sim->busy_until_ns = sim->now_ns;
	if (sim->plan && !sim->cut_countdown && sim->plan_next < sim->plan_len)
		sim->cut_countdown = sim->plan[sim->plan_next++];
}

int fc_flash_sim_sched_init(struct fc_flash_sim_sched *it, enum fc_flash_sim_schedule kind,
			    uint32_t depth, const uint32_t *list, uint32_t list_len)
{
	if (!it || (unsigned int)kind > FC_FLASH_SIM_SCHED_LIST)
		return FC_EINVAL;
	if (kind == FC_FLASH_SIM_SCHED_EXHAUSTIVE && (!depth || depth > FC_FLASH_SIM_SCHED_DEPTH_MAX))
		return FC_EINVAL;
	if (kind == FC_FLASH_SIM_SCHED_LIST &&
	    (!list_len || !list || list_len > FC_FLASH_SIM_SCHED_DEPTH_MAX))
		return FC_EINVAL;
	FC_MEMSET(it, 0, sizeof(*it));
	it->kind = kind;
	it->depth = kind == FC_FLASH_SIM_SCHED_EXHAUSTIVE ? depth : 1;
	for (uint32_t i = 0; kind == FC_FLASH_SIM_SCHED_LIST && i < list_len; i++) {
		if (!list[i])
			return FC_EINVAL;
		it->cuts[i] = list[i];
	}
	it->list = list;
	it->list_len = list_len;
	return 0;
}

/* EXHAUSTIVE, depth first: go one cut deeper, else to the next cut point of a level. */
static int sched_exhaustive(struct fc_flash_sim_sched *it)
{
	if (it->n < it->depth && it->bound[it->n]) {
		it->cuts[it->n++] = 1;
		return 1;
	}
	while (it->n) {
		if (it->cuts[it->n - 1] < it->bound[it->n - 1]) {
			it->cuts[it->n - 1]++;
			return 1;
		}
		it->n--;
	}
	return 0;
}

int fc_flash_sim_sched_next(struct fc_flash_sim_sched *it, uint32_t last_ops)
{
	if (!it->started) {
		it->started = true;
		it->n = it->kind == FC_FLASH_SIM_SCHED_LIST ? it->list_len : 0;
		return 1;
	}
	it->bound[it->n] = last_ops;
	switch (it->kind) {
	case FC_FLASH_SIM_SCHED_LINEAR:
	case FC_FLASH_SIM_SCHED_LOG:
		if (!it->n) {
			it->bound[0] = last_ops;
			it->cuts[0] = 0;
		}
		it->cuts[0] = it->kind == FC_FLASH_SIM_SCHED_LOG && it->cuts[0] ? it->cuts[0] * 2
									     : it->cuts[0] + 1;
		it->n = 1;
		return it->cuts[0] <= it->bound[0];
	case FC_FLASH_SIM_SCHED_EXHAUSTIVE:
		return sched_exhaustive(it);
	default:
		return 0;
	}
}

void fc_flash_sim_advance(struct fc_flash_sim *sim, uint64_t ns)
{
	sim->now_ns += ns;
}

uint64_t fc_flash_sim_elapsed(const struct fc_flash_sim *sim)
{
	return FC_MAX(sim->now_ns, sim->busy_until_ns);
}

static uint64_t sim_clock_now(void *ctx)
{
	const struct fc_flash_sim *sim = ctx;

	return sim->now_ns;
}

static void sim_clock_sleep(void *ctx, uint64_t ns)
{
	fc_flash_sim_advance(ctx, ns);
}

void fc_flash_sim_clock(struct fc_flash_sim *sim, struct fc_clock *clk)
{
	clk->now = sim_clock_now;
	clk->sleep = sim_clock_sleep;
	clk->ctx = sim;
}

int fc_flash_sim_ready(void *ctx, uint64_t *ready_at_ns)
{
	const struct fc_flash_sim *sim = ctx;

	if (sim->now_ns < sim->busy_until_ns)
		return 0;
	*ready_at_ns = sim->busy_until_ns;
	return 1;
}

int fc_flash_sim_wait(struct fc_flash_sim *sim, const struct fc_poll_config *cfg,
		      struct fc_poll_result *res)
{
	struct fc_clock clk;

	if (sim->now_ns >= sim->busy_until_ns) {
		if (res)
			FC_MEMSET(res, 0, sizeof(*res));
		return 0;
	}
	fc_flash_sim_clock(sim, &clk);
	return fc_poll_wait(cfg, &clk, fc_flash_sim_ready, sim, res);
}
