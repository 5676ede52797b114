/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_check.h - why a permutation cannot run: the knob that breaks one of
 * the simulator's or the NVS engine's configuration rules, in words.
 */
#ifndef FDTCACHE_BENCH_CHECK_H
#define FDTCACHE_BENCH_CHECK_H

#include "fdtcache/flash_sim.h"

#include "bench_defs.h"

/*
 * bench_check_perm - check perm on preset with its resolved sector size and
 * write block. Returns NULL when the engine accepts them, else a sentence
 * without commas naming the knob, its value and the rule (g_free it).
 */
char *bench_check_perm(const struct bench_perm *perm, const struct fc_flash_sim_preset *preset,
		       uint32_t sector_size, uint32_t write_block);

#endif /* FDTCACHE_BENCH_CHECK_H */
