/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_rig.h - one nvs-bench permutation on simulated flash: the simulator
 * of the chosen geometry, a device in front of it that waits for every
 * program and erase with the chosen poll policy and charges the engine's
 * CPU time per read, the NVS engine and the settings layer configured as the
 * variant says, and per-phase accounting into result rows.
 */
#ifndef FDTCACHE_BENCH_RIG_H
#define FDTCACHE_BENCH_RIG_H

#include "fdtcache/flash_sim.h"
#include "fdtcache/nvs.h"
#include "fdtcache/poll.h"
#include "fdtcache/settings.h"
#include "fdtcache/settings_zms.h"
#include "fdtcache/zms.h"

#include "bench_out.h"

/* Counters at the start of a phase. */
struct bench_mark {
	struct fc_flash_sim_stats flash;
	struct fc_poll_stats waits;
	uint64_t elapsed_ns, floor_ns, blank_erases, cpu_ns;
};

struct bench_rig {
	const struct bench_perm *perm;
	const char *workload;
	GPtrArray *rows;          /* struct bench_row, one appended per phase */

	uint32_t sector_size;     /* resolved knobs */
	uint32_t write_block;
	uint32_t value_size;      /* bytes stored per value */

	struct fc_flash_sim sim;
	uint8_t *mem;
	struct fc_flash_sim_unit *units;
	struct fc_flash dev;      /* what the engine sees */
	struct fc_poll_config poll;
	struct fc_poll_stats waits;
	uint64_t floor_ns;        /* busy time of programs and of erases of written ranges */
	uint64_t blank_erases;    /* erases of ranges that were already erased */

	struct fc_nvs fs;
	void *index;              /* the mount's index slots (struct fc_cache_slot, fc_zms_slot) */
	uint8_t *ate_cache;       /* NVS ATE read cache */
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE]; /* NVS scans read through it */
	struct fc_settings set;
	uint16_t *names;          /* settings name cache */
	struct fc_zms zfs;        /* the ZMS variants (bench_zms.h) */
	struct fc_settings_zms zset;

	struct bench_mark mark;
	char *why;                /* why the permutation cannot run (see bench_check.h) */
};

/*
 * bench_rig_init - resolve perm's knobs and set up a blank simulated
 * partition. Returns 0, or FC_EINVAL when the permutation makes no sense
 * (sector size not a multiple of the erase unit, unknown geometry...), with
 * rig->why saying which knob and why.
 */
int bench_rig_init(struct bench_rig *rig, const char *workload, const struct bench_perm *perm,
		   GPtrArray *rows);
void bench_rig_free(struct bench_rig *rig);

/* bench_rig_mount - (re)mount the partition; ids sizes the index of ours. */
int bench_rig_mount(struct bench_rig *rig, uint32_t ids);
/*
 * (Re)allocate rig->index: *count slots of slot_size bytes (the engine's
 * type) as the knob says; auto: Zephyr's lookup cache, or for ours an exact
 * map of ids. Returns the slots, NULL for none.
 */
void *bench_rig_index(struct bench_rig *rig, bool zephyr, uint32_t ids, size_t slot_size,
		      uint32_t *count);
/* A mount's rc; a configuration the engine refuses is said in rig->why. */
int bench_rig_mounted(struct bench_rig *rig, int rc, const char *engine);
/* (Re)allocate rig->ate_cache as the knob says (auto: 256 bytes for ours); returns its size. */
uint32_t bench_rig_ate_cache(struct bench_rig *rig, bool zephyr);
/* bench_rig_settings - attach the settings layer to the mounted partition. */
int bench_rig_settings(struct bench_rig *rig);

/* Size of a stored record: data (with CRC) padded to the write block, plus its ATE slot. */
uint32_t bench_rig_record_size(const struct bench_rig *rig);

void bench_phase_begin(struct bench_rig *rig);
/* Append the phase's row (status from rc, detail from rig->why) and return rc. */
int bench_phase_end(struct bench_rig *rig, const char *phase, uint64_t ops, int rc);

/* Status of a return code for the CSV: "ok" or fc_strerror() with dashes ("no-space-left"). */
char *bench_status(int rc);

#endif /* FDTCACHE_BENCH_RIG_H */
