/* SPDX-License-Identifier: BSD-2-Clause */
#include "check_util.h"

#include "fdtcache/poll.h"

/* A fake clock and a device that becomes ready at a set time. */
struct fake {
	uint64_t now;
	uint64_t ready_at;
	uint32_t sleeps;
	bool tell_ready_at; /* report the exact ready time */
	int error;          /* returned by the condition when non-zero */
};

static uint64_t fake_now(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static void fake_sleep(void *ctx, uint64_t ns)
{
	struct fake *f = ctx;

	f->now += ns;
	f->sleeps++;
}

static int fake_ready(void *ctx, uint64_t *ready_at)
{
	struct fake *f = ctx;

	if (f->error)
		return f->error;
	if (f->now < f->ready_at)
		return 0;
	if (f->tell_ready_at)
		*ready_at = f->ready_at;
	return 1;
}

static int wait(struct fake *f, const struct fc_poll_config *cfg, struct fc_poll_result *res)
{
	struct fc_clock clk = { fake_now, fake_sleep, f };

	return fc_poll_wait(cfg, &clk, fake_ready, f, res);
}

START_TEST(config_defaults_and_errors)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { 0 };
	struct fc_clock clk = { fake_now, fake_sleep, &f };

	ck_assert_int_eq(fc_poll_config_init(&cfg, FC_POLL_TICK), 0);
	ck_assert_uint_eq(cfg.interval_ns, 1000000);
	ck_assert_uint_eq(cfg.timeout_ns, 10000000000ull);
	ck_assert_int_eq(fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE), 0);
	ck_assert_uint_eq(cfg.interval_ns, 1000);
	ck_assert_uint_eq(cfg.max_interval_ns, 1000000);
	ck_assert_int_eq(fc_poll_config_init(&cfg, (enum fc_poll_policy)9), FC_EINVAL);
	ck_assert_int_eq(fc_poll_config_init(NULL, FC_POLL_SPIN), FC_EINVAL);

	fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE);
	cfg.max_interval_ns = 500;
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_EINVAL);
	fc_poll_config_init(&cfg, FC_POLL_SPIN);
	cfg.interval_ns = 0;
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_EINVAL);
	cfg.interval_ns = 1;
	cfg.policy = (enum fc_poll_policy)9;
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_EINVAL);
	fc_poll_config_init(&cfg, FC_POLL_SPIN);
	ck_assert_int_eq(fc_poll_wait(&cfg, &clk, NULL, &f, &res), FC_EINVAL);
	ck_assert_uint_eq(f.sleeps, 0);
}
END_TEST

START_TEST(spin_polls_every_interval)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .now = 500, .ready_at = 20700, .tell_ready_at = true };

	fc_poll_config_init(&cfg, FC_POLL_SPIN);
	/* polls at 1500, 2500, ... 21500: the 21st sees it, 800 ns late */
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 21);
	ck_assert_uint_eq(res.overshoot_ns, 800);
	ck_assert_uint_eq(res.waited_ns, 21000);
	ck_assert_uint_eq(f.now, 21500);
}
END_TEST

START_TEST(tick_polls_on_boundaries)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .now = 2400000, .ready_at = 2450000, .tell_ready_at = true };

	fc_poll_config_init(&cfg, FC_POLL_TICK);
	/* a 50 us command started 0.4 ms into a tick is noticed at the next tick, 3 ms */
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 1);
	ck_assert_uint_eq(f.now, 3000000);
	ck_assert_uint_eq(res.overshoot_ns, 550000);
	/* started on a boundary: 2.5 ms later is noticed at 3 full ticks */
	f.ready_at = f.now + 2500000;
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 3);
	ck_assert_uint_eq(res.overshoot_ns, 500000);
}
END_TEST

START_TEST(adaptive_grows_to_cap)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .ready_at = 5000000, .tell_ready_at = true };

	fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE);
	/*
	 * Each sleep is half the time waited (at least 1 us, at most 1 ms): polls
	 * at 1000 2000 3000 4500 6750 10125 15187 22780 34170 51255 76882 115323
	 * 172984 259476 389214 583821 875731 1313596 1970394 (19 polls), then
	 * 1 ms apart: 2955591 3955591 4955591 5955591: 23 polls, the last
	 * 955,591 ns after ready.
	 */
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 23);
	ck_assert_uint_eq(res.overshoot_ns, 955591);
	ck_assert_uint_eq(res.waited_ns, 5955591);
}
END_TEST

START_TEST(overshoot_bound_without_ready_time)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .ready_at = 3000 };

	fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE);
	/* polls at 1000, 2000 (not ready), 3000 (ready): bounded by 3000 - 2000 */
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 3);
	ck_assert_uint_eq(res.overshoot_ns, 1000);
	/* ready at the first poll: bounded by the start of the wait */
	f.ready_at = 0;
	f.now = 10000;
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.polls, 1);
	ck_assert_uint_eq(res.overshoot_ns, 1000);
	/* a stale ready time before the wait counts from the start */
	f.tell_ready_at = true;
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
	ck_assert_uint_eq(res.overshoot_ns, 1000);
}
END_TEST

START_TEST(timeout_cuts_last_sleep)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .ready_at = 1000000 };

	fc_poll_config_init(&cfg, FC_POLL_ADAPTIVE);
	cfg.timeout_ns = 4000;
	/* polls at 1000, 2000, 3000, then sleeps 1000 (not 1500) to poll at the deadline */
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_ETIMEDOUT);
	ck_assert_uint_eq(res.polls, 4);
	ck_assert_uint_eq(res.waited_ns, 4000);
	ck_assert_uint_eq(res.overshoot_ns, 0);
	/* tick: a 1.5 ms timeout polls at 1 ms and at the 1.5 ms deadline */
	fc_poll_config_init(&cfg, FC_POLL_TICK);
	cfg.timeout_ns = 1500000;
	f.now = 0;
	f.ready_at = 5000000;
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_ETIMEDOUT);
	ck_assert_uint_eq(res.polls, 2);
	ck_assert_uint_eq(f.now, 1500000);
	/* ready exactly at the deadline still counts as ready */
	f.now = 0;
	f.ready_at = 1500000;
	ck_assert_int_eq(wait(&f, &cfg, &res), 0);
}
END_TEST

START_TEST(condition_error_ends_wait)
{
	struct fc_poll_config cfg;
	struct fc_poll_result res;
	struct fake f = { .ready_at = 1000000, .error = FC_EIO };

	fc_poll_config_init(&cfg, FC_POLL_SPIN);
	ck_assert_int_eq(wait(&f, &cfg, &res), FC_EIO);
	ck_assert_uint_eq(res.polls, 1);
	/* no result wanted */
	f.error = 0;
	f.ready_at = f.now + 5000;
	ck_assert_int_eq(wait(&f, &cfg, NULL), 0);
}
END_TEST

START_TEST(stats_accumulate)
{
	struct fc_poll_stats st = { 0 };
	struct fc_poll_result a = { 3, 5000, 700 }, b = { 10, 9000, 0 }, c = { 1, 100, 50 };

	fc_poll_stats_add(&st, 0, &a);
	fc_poll_stats_add(&st, FC_ETIMEDOUT, &b);
	fc_poll_stats_add(&st, 0, &c);
	ck_assert_uint_eq(st.waits, 3);
	ck_assert_uint_eq(st.timeouts, 1);
	ck_assert_uint_eq(st.polls, 14);
	ck_assert_uint_eq(st.waited_ns, 14100);
	ck_assert_uint_eq(st.overshoot_ns, 750);
	ck_assert_uint_eq(st.max_overshoot_ns, 700);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("poll");
	TCase *tc = tcase_create("policies");

	tcase_add_test(tc, config_defaults_and_errors);
	tcase_add_test(tc, spin_polls_every_interval);
	tcase_add_test(tc, tick_polls_on_boundaries);
	tcase_add_test(tc, adaptive_grows_to_cap);
	tcase_add_test(tc, overshoot_bound_without_ready_time);
	tcase_add_test(tc, timeout_cuts_last_sleep);
	tcase_add_test(tc, condition_error_ends_wait);
	tcase_add_test(tc, stats_accumulate);
	suite_add_tcase(s, tc);
	return fc_check_run(s);
}
