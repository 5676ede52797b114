/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_clock.h - the monotonic clock and the median of a run's timings. */
#ifndef FDTCACHE_BENCH_CLOCK_H
#define FDTCACHE_BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n): sorts v. */
static inline double bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), bench_cmp_double);
	return v[n / 2];
}

#endif /* FDTCACHE_BENCH_CLOCK_H */
