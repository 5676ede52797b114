/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * poll_bench - wait policies over a simulated clock (deterministic).
 *
 * Waits are drawn from the FreeBSD nvme figures: commands 20-200 us
 * (uniform) and the controller ready bit 5 us-1.3 s (log-uniform, so every
 * decade is represented). Between waits the caller works for a random
 * 0-10 ms, so waits start at any phase of the tick. For each policy: mean
 * overshoot (ready to noticed), mean polls per wait, and the targets
 * for the adaptive policy; adaptive's overshoot as a fraction of tick's and
 * its polls as a fraction of spin's. Then the same policies wait for real
 * operations on the simulator's presets.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/poll.h"

#define US UINT64_C(1000)
#define MS UINT64_C(1000000)

struct device {
	uint64_t now;
	uint64_t ready_at;
};

static uint64_t dev_now(void *ctx)
{
	return ((struct device *)ctx)->now;
}

static void dev_sleep(void *ctx, uint64_t ns)
{
	((struct device *)ctx)->now += ns;
}

static int dev_ready(void *ctx, uint64_t *ready_at)
{
	struct device *d = ctx;

	if (d->now < d->ready_at)
		return 0;
	*ready_at = d->ready_at;
	return 1;
}

static uint64_t rng_state;

static double uniform01(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / (double)(1ull << 53);
}

struct dist {
	const char *name;
	uint64_t lo, hi;
	int log_uniform;
	unsigned int waits;
};

static uint64_t draw(const struct dist *d)
{
	double u = uniform01();

	if (d->log_uniform)
		return (uint64_t)((double)d->lo * exp(u * log((double)d->hi / (double)d->lo)));
	return d->lo + (uint64_t)(u * (double)(d->hi - d->lo));
}

struct policy {
	const char *name;
	enum fc_poll_policy policy;
	uint64_t interval;
};

static const struct policy policies[] = {
	{ "tick 1 ms", FC_POLL_TICK, MS },
	{ "spin 1 us", FC_POLL_SPIN, US },
	{ "adaptive", FC_POLL_ADAPTIVE, US },
};

/* The target for adaptive: overshoot and polls bounded by the wait. */
static int meets_target(uint64_t wait, const struct fc_poll_result *r)
{
	uint64_t max_over = wait < 2 * MS ? wait / 2 : MS;

	return r->overshoot_ns <= max_over && r->polls <= 20 + wait / MS;
}

static void dist_table(const struct dist *d)
{
	double over[FC_ARRAY_SIZE(policies)], polls[FC_ARRAY_SIZE(policies)];
	unsigned int p, i;

	printf("\n%s: %u waits, %s %" PRIu64 " us - %" PRIu64 " us\n", d->name, d->waits,
	       d->log_uniform ? "log-uniform" : "uniform", d->lo / US, d->hi / US);
	printf("%-10s %12s %14s %12s %14s %12s %10s %11s\n", "policy", "mean wait",
	       "mean overshoot", "overshoot %", "max overshoot", "polls/wait", "in target",
	       "vs tick/spin");
	for (p = 0; p < FC_ARRAY_SIZE(policies); p++) {
		struct device dev = { 0, 0 };
		struct fc_clock clk = { dev_now, dev_sleep, &dev };
		struct fc_poll_config cfg;
		struct fc_poll_stats st = { 0 };
		struct fc_poll_result r;
		double ratio = 0;
		uint64_t total_wait = 0;
		unsigned int ok = 0;
		int rc;

		rng_state = 0x2545f4914f6cdd1dull; /* the same waits for every policy */
		fc_poll_config_init(&cfg, policies[p].policy);
		cfg.interval_ns = policies[p].interval;
		for (i = 0; i < d->waits; i++) {
			uint64_t wait = draw(d);

			dev.now += (uint64_t)(uniform01() * 10 * MS);
			dev.ready_at = dev.now + wait;
			rc = fc_poll_wait(&cfg, &clk, dev_ready, &dev, &r);
			fc_poll_stats_add(&st, rc, &r);
			total_wait += wait;
			ratio += (double)r.overshoot_ns / (double)wait;
			ok += rc == 0 && meets_target(wait, &r);
		}
		over[p] = (double)st.overshoot_ns / st.waits;
		polls[p] = (double)st.polls / st.waits;
		printf("%-10s %9.1f us %11.1f us %11.1f%% %11.1f us %12.1f %5u/%-5u",
		       policies[p].name, (double)total_wait / d->waits / US, over[p] / US,
		       100 * ratio / st.waits, (double)st.max_overshoot_ns / US, polls[p], ok,
		       d->waits);
		/* Against the baselines of the same run: tick's overshoot, spin's polls. */
		if (p >= 2)
			printf(" %5.3f/%5.4f", over[p] / over[0], polls[p] / polls[1]);
		printf("\n");
	}
}

/* Erase two units and program 64 write blocks each, waiting after every operation. */
static void preset_row(const struct fc_flash_sim_preset *preset, const struct policy *pol)
{
	static uint8_t mem[2 << 17];
	static const uint8_t data[2048];
	struct fc_flash_sim_unit units[2];
	struct fc_flash_sim_config cfg;
	struct fc_flash_sim sim;
	struct fc_poll_config pcfg;
	struct fc_poll_stats st = { 0 };
	struct fc_poll_result r;
	uint32_t u, k, ws = preset->write_size;
	int rc;

	fc_flash_sim_config_init(&cfg, preset, 2 * preset->erase_size);
	memset(mem, 0xff, cfg.geo.size);
	fc_flash_sim_init(&sim, &cfg, mem, units);
	fc_poll_config_init(&pcfg, pol->policy);
	pcfg.interval_ns = pol->interval;
	for (u = 0; u < 2; u++) {
		uint32_t base = u * preset->erase_size;

		rc = fc_flash_erase(&sim.dev, base, preset->erase_size);
		fc_poll_stats_add(&st, fc_flash_sim_wait(&sim, &pcfg, &r), &r);
		for (k = 0; !rc && k < 64 && (k + 1) * ws <= preset->erase_size; k++) {
			rc = fc_flash_prog(&sim.dev, base + k * ws, data, ws);
			fc_poll_stats_add(&st, fc_flash_sim_wait(&sim, &pcfg, &r), &r);
		}
		if (rc)
			fprintf(stderr, "poll_bench: %s: error %d\n", preset->name, rc);
	}
	printf("%-9s %-10s %12.3f %12.3f %9.2f%% %10" PRIu64 "\n", preset->name, pol->name,
	       (double)sim.stats.busy_ns / MS, (double)fc_flash_sim_elapsed(&sim) / MS,
	       100.0 * (double)(fc_flash_sim_elapsed(&sim) - sim.stats.busy_ns) /
		       (double)sim.stats.busy_ns,
	       st.polls);
}

static void preset_table(void)
{
	const struct fc_flash_sim_preset *preset;
	unsigned int i, p;

	printf("\nSimulator presets: 2 erases + 128 programs of one write block, waiting after each\n");
	printf("%-9s %-10s %12s %12s %10s %10s\n", "preset", "policy", "busy ms", "elapsed ms",
	       "lost", "polls");
	for (i = 0; (preset = fc_flash_sim_preset_at(i)); i++) {
		if (!preset->timing.prog.unit_ns)
			continue; /* zero time: nothing to wait for */
		for (p = 0; p < FC_ARRAY_SIZE(policies); p++)
			preset_row(preset, &policies[p]);
	}
}

int main(void)
{
	static const struct dist commands = { "commands", 20 * US, 200 * US, 0, 20000 };
	static const struct dist ready = { "ready bit", 5 * US, 1300 * MS, 1, 2000 };

	dist_table(&commands);
	dist_table(&ready);
	preset_table();
	return 0;
}
