/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/poll.h"

#define NS_PER_US 1000u
#define NS_PER_MS 1000000u

int fc_poll_config_init(struct fc_poll_config *cfg, enum fc_poll_policy policy)
{
	if (!cfg)
		return FC_EINVAL;
	cfg->policy = policy;
	cfg->max_interval_ns = NS_PER_MS;
	cfg->timeout_ns = 10000ull * NS_PER_MS;
	switch (policy) {
	case FC_POLL_SPIN:
	case FC_POLL_ADAPTIVE:
		cfg->interval_ns = NS_PER_US;
		return 0;
	case FC_POLL_TICK:
		cfg->interval_ns = NS_PER_MS;
		return 0;
	}
	return FC_EINVAL;
}

static int config_check(const struct fc_poll_config *cfg)
{
	if (!cfg->interval_ns)
		return FC_EINVAL;
	switch (cfg->policy) {
	case FC_POLL_SPIN:
	case FC_POLL_TICK:
		return 0;
	case FC_POLL_ADAPTIVE:
		return cfg->max_interval_ns < cfg->interval_ns ? FC_EINVAL : 0;
	}
	return FC_EINVAL;
}

/* How long to sleep before the next poll, given the time now and waited so far. */
static uint64_t next_sleep(const struct fc_poll_config *cfg, uint64_t now, uint64_t waited)
{
	switch (cfg->policy) {
	case FC_POLL_TICK:
		/* A scheduler tick ends on a tick boundary, whatever the phase of now. */
		return cfg->interval_ns - now % cfg->interval_ns;
	case FC_POLL_ADAPTIVE:
		/*
		 * Half the time waited: each poll comes 1.5x later than the last,
		 * so the overshoot stays under half the wait and the polls grow
		 * with its logarithm until the cap.
		 */
		return FC_MIN(FC_MAX(waited / 2, cfg->interval_ns), cfg->max_interval_ns);
	default:
		return cfg->interval_ns;
	}
}

int fc_poll_wait(const struct fc_poll_config *cfg, const struct fc_clock *clk,
		 fc_poll_ready_fn ready, void *ready_ctx, struct fc_poll_result *res)
{
	struct fc_poll_result r = { 0 };
	uint64_t start, now, last_miss, ready_at, sleep, deadline;
	int rc;

	if (!cfg || !clk || !ready || config_check(cfg))
		return FC_EINVAL;
	start = last_miss = now = clk->now(clk->ctx);
	deadline = cfg->timeout_ns ? start + cfg->timeout_ns : UINT64_MAX;
	for (;;) {
		sleep = next_sleep(cfg, now, now - start);
		if (sleep > deadline - now)
			sleep = deadline - now;
		clk->sleep(clk->ctx, sleep);
		now = clk->now(clk->ctx);
		ready_at = last_miss;
		r.polls++;
		rc = ready(ready_ctx, &ready_at);
		if (rc)
			break;
		last_miss = now;
		if (now >= deadline) {
			rc = FC_ETIMEDOUT;
			break;
		}
	}
	r.waited_ns = now - start;
	if (rc > 0) {
		ready_at = FC_MAX(ready_at, start);
		r.overshoot_ns = now > ready_at ? now - ready_at : 0;
		rc = 0;
	}
	if (res)
		*res = r;
	return rc;
}

void fc_poll_stats_add(struct fc_poll_stats *stats, int rc, const struct fc_poll_result *res)
{
	stats->waits++;
	if (rc == FC_ETIMEDOUT)
		stats->timeouts++;
	stats->polls += res->polls;
	stats->waited_ns += res->waited_ns;
	stats->overshoot_ns += res->overshoot_ns;
	stats->max_overshoot_ns = FC_MAX(stats->max_overshoot_ns, res->overshoot_ns);
}
