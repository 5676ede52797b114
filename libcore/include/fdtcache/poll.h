/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * poll.h - wait until a condition holds, over a caller clock.
 *
 * Policies: spin (poll every interval), tick (sleep to the next tick
 * boundary, then poll: a scheduler tick) and adaptive (the FreeBSD nvme
 * policy: first poll after interval, each later poll 1.5x as late as the
 * one before, i.e. sleep half the time waited so far, at least interval and
 * at most the cap). Each policy sleeps before its first poll. A wait reports
 * its polls and its overshoot: the time from ready to noticed.
 *
 * Adaptive with 1 us / 1 ms: polls at 1, 2, 3, 4.5, 6.75 ... us, reaching
 * the 1 ms cap at 2 ms of waiting (20 polls). Overshoot is under half the
 * wait (waits >= 2 us) and under 1 ms; polls <= 20 + wait / 1 ms.
 */
#ifndef FDTCACHE_POLL_H
#define FDTCACHE_POLL_H

#include "fc_env.h"
#include "fc_err.h"

/* A monotonic clock in nanoseconds; sleep(ns) returns after at least ns. */
struct fc_clock {
	uint64_t (*now)(void *ctx);
	void (*sleep)(void *ctx, uint64_t ns);
	void *ctx;
};

enum fc_poll_policy {
	FC_POLL_SPIN,
	FC_POLL_TICK,
	FC_POLL_ADAPTIVE,
};

struct fc_poll_config {
	enum fc_poll_policy policy;
	uint64_t interval_ns;     /* spin: period; tick: tick length; adaptive: first and least interval */
	uint64_t max_interval_ns; /* adaptive: cap of the interval */
	uint64_t timeout_ns;      /* give up after this long; 0 = never */
};

/*
 * Condition: returns 1 when ready, 0 when not yet, or a negative FC_E* code
 * that ends the wait. When ready it may store the time it became ready in
 * *ready_at_ns; otherwise the time of the last poll that saw "not ready"
 * (or the start of the wait) is used, which bounds the overshoot.
 */
typedef int (*fc_poll_ready_fn)(void *ctx, uint64_t *ready_at_ns);

struct fc_poll_result {
	uint32_t polls;        /* calls of the condition */
	uint64_t waited_ns;    /* from the start of the wait to the return */
	uint64_t overshoot_ns; /* from ready to noticed; 0 on timeout */
};

/* Totals over many waits, for benchmarks and drivers' statistics. */
struct fc_poll_stats {
	uint32_t waits, timeouts;
	uint64_t polls, waited_ns, overshoot_ns, max_overshoot_ns;
};

/*
 * fc_poll_config_init - fill *cfg with the defaults of a policy: spin every
 * 1 us; tick of 1 ms; adaptive from 1 us, capped at 1 ms. Timeout 10 s in
 * every case.
 *
 * returns:
 *	0, *cfg is set
 *	FC_EINVAL, cfg NULL or an unknown policy (*cfg is then unspecified)
 */
int fc_poll_config_init(struct fc_poll_config *cfg, enum fc_poll_policy policy);

/*
 * fc_poll_wait - sleep and poll ready(ready_ctx) as cfg says until it holds.
 * res may be NULL; otherwise it is filled whatever the result (except
 * FC_EINVAL). The last sleep is cut to the deadline, and the condition is
 * polled once at the deadline before giving up.
 *
 * returns:
 *	0, the condition holds
 *	FC_ETIMEDOUT, it did not hold by the timeout
 *	FC_EINVAL, cfg, clk or ready NULL, a zero interval, an unknown
 *		policy, or an adaptive cap below the first interval
 *	the condition's negative code, which ended the wait
 */
int fc_poll_wait(const struct fc_poll_config *cfg, const struct fc_clock *clk,
		 fc_poll_ready_fn ready, void *ready_ctx, struct fc_poll_result *res);

/*
 * fc_poll_stats_add - account in *stats one wait that returned rc with
 * result res (a timeout when rc is FC_ETIMEDOUT).
 *
 * returns: nothing.
 */
void fc_poll_stats_add(struct fc_poll_stats *stats, int rc, const struct fc_poll_result *res);

#endif /* FDTCACHE_POLL_H */
