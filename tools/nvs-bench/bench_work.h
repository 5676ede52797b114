/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_work.h - the nvs-bench workloads. Each runs one permutation on a
 * fresh blank partition and appends one row per phase; a failing phase
 * gets its error as status and ends the run.
 */
#ifndef FDTCACHE_BENCH_WORK_H
#define FDTCACHE_BENCH_WORK_H

#include "bench_rig.h"

struct bench_workload {
	const char *name;
	const char *help;
	int (*run)(struct bench_rig *rig);
};

/* NULL-terminated table. */
extern const struct bench_workload bench_workloads[];

const struct bench_workload *bench_workload_find(const char *name);

/*
 * bench_run - run workload w on permutation perm, appending its rows.
 * A permutation that cannot be set up gets one "setup" row with the error.
 * Returns 0 or the error that ended the run.
 */
int bench_run(const struct bench_workload *w, const struct bench_perm *perm, GPtrArray *rows);

#endif /* FDTCACHE_BENCH_WORK_H */
