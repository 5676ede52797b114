/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_hits.h - timing of inline hit paths against a plain array load, in
 * tight loops over a key array, throughput and latency, best of rounds.
 */
#ifndef FDTCACHE_BENCH_HITS_H
#define FDTCACHE_BENCH_HITS_H

#include "bench_clock.h"

#define HIT_PASSES 1000 /* passes over the keys per hit-cost timing */
#define HIT_ROUNDS 41   /* rounds of hit-cost timings: the best is kept */

static volatile guint32 sink;
static volatile guint32 hidden_zero;

/*
 * ns per lookup of HIT_PASSES passes over keys through expr. Throughput:
 * the lookups are independent, as when a caller resolves a list of
 * phandles. Latency: each key depends on the previous result (through a
 * zero the compiler cannot see), as when the node found is used at once.
 */
#define TIME_HITS(out, keys, nkeys, expr)                                       \
	do {                                                                    \
		guint32 acc_ = 0;                                               \
		double t0_ = bench_now_ns();                                          \
		for (int p_ = 0; p_ < HIT_PASSES; p_++)                         \
			for (guint i_ = 0; i_ < (nkeys); i_++) {                \
				guint32 key = (keys)[i_];                       \
				acc_ += (expr);                                 \
			}                                                       \
		(out) = (bench_now_ns() - t0_) / ((double)HIT_PASSES * (nkeys));      \
		sink = acc_;                                                    \
	} while (0)

#define TIME_CHAIN(out, keys, nkeys, expr)                                      \
	do {                                                                    \
		guint32 prev_ = 0, zero_ = hidden_zero;                         \
		double t0_ = bench_now_ns();                                          \
		for (int p_ = 0; p_ < HIT_PASSES; p_++)                         \
			for (guint i_ = 0; i_ < (nkeys); i_++) {                \
				guint32 key = (keys)[i_] | (prev_ & zero_);     \
				prev_ = (expr);                                 \
			}                                                       \
		(out) = (bench_now_ns() - t0_) / ((double)HIT_PASSES * (nkeys));      \
		sink = prev_;                                                   \
	} while (0)

#endif /* FDTCACHE_BENCH_HITS_H */
